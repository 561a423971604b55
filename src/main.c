/* main.c — the pii-redact command: subcommand dispatch and the stream
 * redaction of stdin and files. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch.h"
#include "cli.h"
#include "drive.h"
#include "opts.h"
#include "output.h"
#include "pipeline.h"
#include "progress.h"
#include "settings.h"
#include "names.h"
#include "sniff.h"

/* drive.h's block hook: the bytes read count for the progress line. */
static void count_block(void *ud, const uint8_t *p, size_t n)
{
    (void)p;
    pii_progress_add(ud, (uint64_t)n);
}

/* Puts one input into the stream through the driver (drive.h): the whole
 * input is one document, or each line is (--lines), each read put with a
 * flush; live input (`live`, not a regular file) is read as it arrives,
 * flushed to `out` before a read that would wait and cut at pauses of
 * --flush-delay.  With `sniff`, the first read is looked at first and a
 * binary input (sniff.h: its first PII_SNIFF_BYTES; not UTF-16/32 text,
 * which the stream refuses) sets *binary and is not fed at all.
 * Returns PII_EIO for read errors (d->read_errno), PII_EWRITE for a failed
 * flush, else the stream's error. */
static pii_err run_fd(pii_drive *d, int fd, const pii_opts *o, int live, FILE *out, uint8_t *buf,
                      int sniff, int *binary)
{
    pii_drive_src src = {.fd = fd,
                         .buf = buf,
                         .cap = PII_DRIVE_BLOCK,
                         .once = live,
                         .live = live,
                         .out = out,
                         .delay_ms = o->flush_delay};
    pii_err e;
    pii_drive_begin(d);
    if (sniff) {
        /* live input: what the first read brings (a fill would wait for
         * the end of a `tail -f`) */
        ssize_t r = pii_drive_read(fd, buf, PII_DRIVE_BLOCK, live);
        if (r < 0) {
            d->read_errno = errno ? errno : EIO;
            return PII_EIO;
        }
        size_t k = (size_t)r < PII_SNIFF_BYTES ? (size_t)r : PII_SNIFF_BYTES;
        /* as batch_prepare: UTF-16/32 text is not binary; the stream's
         * wide-text guard refuses it */
        pii_wide wide;
        pii_wide_init(&wide);
        if (pii_wide_feed(&wide, buf, k) == PII_OK && pii_sniff_binary(buf, k)) {
            *binary = 1;
            return PII_OK;
        }
        if (r == 0) /* the input ended */
            return pii_drive_end(d);
        src.first = buf;
        src.nfirst = (size_t)r;
        src.first_cap = PII_DRIVE_BLOCK;
    }
    if ((e = pii_drive_fd(d, &src)))
        return e;
    return pii_drive_end(d);
}

/* A file name for a message, escaped as every text output escapes names
 * (names.h: control characters, C1 controls and bytes that are not UTF-8
 * as \xNN, a backslash as \\); cut to fit buf. */
static const char *escaped(const char *s, char *buf, size_t cap)
{
    buf[0] = '\0';
    FILE *f = fmemopen(buf, cap, "w");
    if (f) {
        setvbuf(f, NULL, _IONBF, 0);
        pii_name_put(f, s);
        fclose(f);
    }
    buf[cap - 1] = '\0';
    return buf;
}

/* The built-in rules, then the custom ones (their file named once). */
static int list_rules(const pii_pipeline *p)
{
    for (size_t i = 0; p->rules && i < pii_rules_count(p->rules); i++) {
        const pii_rule_info *ri = pii_rules_info(p->rules, i);
        printf("%-24s %-16s %s\n", ri->id, ri->label, ri->about);
    }
    if (pii_custom_count(p->custom))
        printf("# custom rules of %s\n", p->custom_path);
    for (size_t i = 0; i < pii_custom_count(p->custom); i++) {
        const pii_rule_info *ri = pii_custom_info(p->custom, i);
        printf("%-24s %-16s %s\n", ri->id, ri->label, ri->about);
    }
    return PII_EXIT_OK;
}

/* Plain mode: each input (standard input, or the FILEs in turn) through
 * one stream to standard output; the exit status. */
static int run_plain(const pii_opts *o, pii_pipeline *p)
{
    int rc = PII_EXIT_OK;
    pii_out *out = pii_out_create(stdout, o);
    uint8_t *buf = malloc(PII_DRIVE_BLOCK);
    pii_err e = PII_OK;
    pii_sink sink;
    pii_stream *st = NULL;
    if (!out || !buf) {
        e = PII_ENOMEM;
        goto stream_done;
    }
    if (p->map)
        pii_out_set_map(out, p->map);
    sink = pii_out_sink(out);
    if (!(st = pii_stream_create(p->red, &sink, &e)))
        goto stream_done;
    pii_drive drv = {.st = st, .lines = o->lines, .flush = 1, .block = count_block};
    rc = PII_EXIT_OK;
    int pmode = pii_progress_mode(o->progress, o->quiet);
    size_t nin = o->nfiles ? o->nfiles : 1;
    for (size_t i = 0; i < nin; i++) {
        const char *name = o->nfiles ? o->files[i] : "-";
        int is_stdin = strcmp(name, "-") == 0;
        int fd = is_stdin ? STDIN_FILENO : open(name, O_RDONLY);
        if (fd < 0) {
            char shown[512];
            fprintf(stderr, "pii-redact: %s: %s\n", escaped(name, shown, sizeof shown),
                    strerror(errno));
            rc = PII_EXIT_IO;
            continue;
        }
        pii_out_set_file(out, o->nfiles ? name : NULL);
        struct stat ist;
        pii_out_set_input(out, fstat(fd, &ist) == 0 && S_ISREG(ist.st_mode));
        pii_stream_new_input(st);
        pii_stream_set_input_name(st, is_stdin ? NULL : name); /* custom rules' paths */
        struct stat sb;
        uint64_t total = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) ? (uint64_t)sb.st_size : 0;
        pii_progress pg;
        int binary = 0;
        pii_progress_start(&pg, pmode, is_stdin ? "standard input" : name, total);
        drv.ud = &pg;
        /* binary files: refused as in batch mode (sniff.h); stdin never */
        int live = fstat(fd, &sb) == 0 && !S_ISREG(sb.st_mode);
        e = run_fd(&drv, fd, o, live, stdout, buf, !is_stdin && !o->binary, &binary);
        int rerr = drv.read_errno;
        pii_progress_end(&pg);
        if (!is_stdin)
            close(fd);
        if (binary) { /* a file the user named is never skipped (issue 42 H5) */
            char shown[512];
            fprintf(stderr, "pii-redact: %s: " PII_SNIFF_NAMED_REASON "\n",
                    escaped(name, shown, sizeof shown));
            rc = PII_EXIT_IO;
            continue;
        }
        if (e == PII_EIO) {
            char shown[512];
            fprintf(stderr, "pii-redact: %s: read error: %s\n",
                    is_stdin ? "stdin" : escaped(name, shown, sizeof shown), strerror(rerr));
            e = PII_OK;
            rc = PII_EXIT_IO;
            break; /* the stream may hold an unfinished document: stop */
        }
        if (e)
            break;
    }
stream_done:
    if (e == PII_EWRITE || (e == PII_OK && fflush(stdout) != 0)) {
        if (errno != EPIPE) {
            fprintf(stderr, "pii-redact: write error: %s\n", strerror(errno));
            rc = PII_EXIT_IO;
        }
        e = PII_OK;
    } else if (e == PII_EENCODING) {
        fprintf(stderr,
                "pii-redact: redaction stopped: %s; convert it to UTF-8 (iconv -f UTF-16 "
                "-t UTF-8); nothing from that point on was written\n",
                pii_strerror(e));
        rc = pii_exit_for(e);
    } else if (e == PII_ETOOBIG && o->format == PII_FMT_JSON) {
        fprintf(stderr,
                "pii-redact: redaction stopped: %s (--format json holds a document's "
                "spans: at most 1,000,000, or 64 MiB of values; --format jsonl or "
                "--lines stream them)\n",
                pii_strerror(e));
        rc = pii_exit_for(e);
    } else if (e) {
        pii_cli_error("redaction stopped", e);
        rc = pii_exit_for(e);
    }
    if (rc == PII_EXIT_OK && o->check && out && pii_out_found(out))
        rc = PII_EXIT_FOUND;
    if (p->map) { /* what was written needs its map, whatever else failed */
        int mrc = pii_pipeline_write_map(o, p);
        if (mrc >= 0 && (rc == PII_EXIT_OK || rc == PII_EXIT_FOUND))
            rc = mrc;
    }
    pii_stream_free(st);
    pii_out_free(out);
    free(buf);
    return rc;
}

static int redact_main(int argc0, char **argv0)
{
    pii_opts o;
    pii_settings_args args;
    int rc = pii_settings_argv(argc0, argv0, &args);
    if (rc >= 0)
        return rc;
    pii_opts_origins(args.origin);
    rc = pii_opts_parse(args.argc, args.argv, &o);
    if (rc >= 0) {
        pii_opts_free(&o);
        pii_settings_argv_free(&args);
        return rc;
    }
    int batch = pii_batch_wanted(&o);
    if (batch && (rc = pii_batch_validate(&o)) >= 0) {
        pii_opts_free(&o);
        pii_settings_argv_free(&args);
        return rc;
    }
    if (batch)
        pii_batch_tune(&o);
    if (!batch && o.nfiles > 1 && o.format == PII_FMT_TEXT && !o.check) {
        fprintf(stderr, "pii-redact: several inputs would be concatenated on standard output; "
                        "give one FILE, or use --format json/jsonl or --check\n");
        pii_opts_free(&o);
        pii_settings_argv_free(&args);
        return PII_EXIT_USAGE;
    }
    pii_pipeline p;
    rc = pii_pipeline_build(&o, &p);
    if (rc >= 0)
        goto done;
    if (o.list_rules) {
        rc = list_rules(&p);
        goto done;
    }
    if (batch && o.map_out) {
        fprintf(stderr, "pii-redact: --map-out works on one stream of input, not in batch mode\n");
        rc = PII_EXIT_USAGE;
        goto done;
    }
    if (batch) {
        rc = pii_batch_run(&o, &p);
        goto done;
    }

    rc = run_plain(&o, &p);
done:
    pii_pipeline_free(&p);
    pii_opts_free(&o);
    pii_settings_argv_free(&args);
    return rc;
}

int main(int argc, char **argv)
{
    /* A closed pipe is reported as EPIPE by write and ends us quietly. */
    signal(SIGPIPE, SIG_IGN);
    /* A file size limit (ulimit -f) is a write error (EFBIG, exit 3 with a
     * message), not a silent kill. */
    signal(SIGXFSZ, SIG_IGN);
    if (pii_cli_testhook_init() != 0)
        return PII_EXIT_USAGE;
    if (argc > 1 && argv[1][0] != '-') {
        for (const pii_subcommand *c = pii_subcommands; c->name; c++)
            if (strcmp(argv[1], c->name) == 0)
                return c->run(argc - 1, argv + 1);
        /* a mistyped subcommand, not a file: say so instead of "No such file" */
        struct stat st;
        const char *near = pii_subcommand_near(argv[1]);
        if (near && lstat(argv[1], &st) != 0 && errno == ENOENT) {
            fprintf(stderr,
                    "pii-redact: %s: no such command or file; did you mean '%s'? (pii-redact "
                    "--help lists the commands)\n",
                    argv[1], near);
            return PII_EXIT_USAGE;
        }
    }
    int rc = redact_main(argc, argv);
    if (fclose(stdout) != 0 && errno != EPIPE && rc == PII_EXIT_OK)
        rc = PII_EXIT_IO;
    return rc;
}
