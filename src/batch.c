/* batch.c — batch mode's options: when it is on, which combinations are
 * refused before anything is loaded, and its defaults (see batch.h).  The
 * run and the worker pool are in batch_run.c; one item, start to end, in
 * batch_redact.c, with its input (batch_input.c), its output file
 * (batch_output.c, batch_tmp.c) and the worker's streams (batch_worker.c).
 *
 * One file, start to end, in one worker:
 *   open (O_NOFOLLOW for walked entries) → read the first block → binary
 *   sniff (sniff.h, as in single-file mode) → destination → feed the
 *   worker's stream block by block (drive.h) → finish.
 * File outputs are written to a temporary file beside the destination
 * (".NAME.pii-redact-XXXXXX") and renamed over it only when complete, so a
 * destination name only ever holds a complete output.  --in-place also
 * keeps the owner, group and mode, fsyncs the file before the rename and
 * the directory after it, and leaves a file with no finding untouched.
 * Any failure (read, write, full disk, a bad record, a detector error)
 * removes the temporary file and leaves the original as it was; a kill at
 * any moment leaves at worst a stale temporary file, never a damaged
 * original (SIGINT, SIGTERM and SIGHUP remove the temporary files first).
 */
#include <stdio.h>
#include <string.h>

#include "batch.h"
#include "cli.h"

int pii_batch_wanted(const pii_opts *o)
{
    return o->check || o->recursive || o->out_dir || o->in_place || o->suffix || o->report ||
           o->njsonl_fields || o->ncsv_columns || o->json_doc || o->structured || o->resume ||
           o->ninclude || o->nexclude || o->follow || o->no_ignore || o->hidden || o->staged ||
           o->diff || o->cross_devices;
}

static int usage(const char *msg)
{
    fprintf(stderr, "pii-redact: %s\nTry 'pii-redact --help' for more information.\n", msg);
    return PII_EXIT_USAGE;
}

static int has_dotdot(const char *p)
{
    for (const char *s = p; (s = strstr(s, "..")); s += 2)
        if ((s == p || s[-1] == '/') && (s[2] == '/' || s[2] == '\0'))
            return 1;
    return 0;
}

int pii_batch_validate(const pii_opts *o)
{
    int writes = o->out_dir || o->in_place || o->suffix;
    if (o->in_place && (o->out_dir || o->suffix))
        return usage("--in-place cannot be combined with --out-dir or --suffix");
    if (o->check && writes)
        return usage("--check writes nothing; drop --out-dir, --in-place or --suffix");
    if (o->in_place && o->format != PII_FMT_TEXT)
        return usage("--in-place writes text; --format json/jsonl needs --out-dir or --suffix");
    if (o->njsonl_fields && o->ncsv_columns)
        return usage("--jsonl-field and --csv-column cannot be combined");
    if ((o->njsonl_fields || o->ncsv_columns || o->json_doc || o->structured) &&
        o->format == PII_FMT_JSON)
        return usage("--jsonl-field/--csv-column/--json/--structured write records (text) or "
                     "spans (--format jsonl), not json");
    if ((o->njsonl_fields || o->ncsv_columns || o->json_doc || o->structured) && o->lines)
        return usage("--lines cannot be combined with --jsonl-field/--csv-column (records "
                     "are already their own documents)");
    if (!o->recursive &&
        (o->ninclude || o->nexclude || o->follow || o->no_ignore || o->hidden || o->cross_devices))
        return usage("--include, --exclude, --follow, --no-ignore, --hidden and --cross-devices "
                     "apply to -r");
    if (o->staged && !o->check)
        return usage("--staged needs --check");
    if (o->staged && o->recursive)
        return usage("--staged takes pathspecs, not -r (it reads the staged files, not a tree)");
    if (o->diff && !o->check)
        return usage("--diff needs --check");
    if (o->diff && (o->staged || o->recursive || o->njsonl_fields || o->ncsv_columns || o->lines ||
                    o->nfiles > 1))
        return usage("--diff reads one diff (standard input or one FILE): not with --staged, "
                     "-r, --lines, --jsonl-field or --csv-column");
    if (o->recursive && o->nfiles == 0)
        return usage("-r needs at least one DIR");
    if (o->suffix && !o->suffix[0])
        return usage("--suffix needs a non-empty suffix");
    if (o->suffix && strchr(o->suffix, '/'))
        return usage("--suffix cannot contain '/' (it would lead the output elsewhere)");
    if (writes && o->nfiles == 0)
        return usage("--out-dir, --in-place and --suffix need FILE or DIR arguments (standard "
                     "input is written to standard output)");
    if (o->out_dir && !o->out_dir[0])
        return usage("--out-dir needs a directory");
    if (o->resume && !o->out_dir && !o->suffix)
        return usage("--resume needs --out-dir or --suffix");
    if (!writes && !o->check && o->format == PII_FMT_TEXT && (o->recursive || o->nfiles > 1))
        return usage("several inputs would be concatenated on standard output; use "
                     "--out-dir, --in-place or --suffix (or --check, or --format json/jsonl)");
    for (size_t i = 0; i < o->nfiles; i++) {
        if (writes && strcmp(o->files[i], "-") == 0)
            return usage("standard input (-) can only be written to standard output");
        if (o->out_dir && has_dotdot(o->files[i]))
            return usage("with --out-dir, give input paths without '..' (the output mirrors "
                         "the path)");
    }
    return -1;
}

void pii_batch_tune(pii_opts *o)
{
    if (!o->threads && o->jobs != 1 && (o->recursive || o->nfiles > 1))
        o->threads = "1";
}
