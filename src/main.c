/* main.c — the pii-redact command: subcommand dispatch and the stream
 * redaction of stdin and files. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch.h"
#include "cli.h"
#include "opts.h"
#include "output.h"
#include "pii_fault.h"
#include "pipeline.h"
#include "progress.h"
#include "settings.h"
#include "names.h"
#include "sniff.h"

#define READ_CHUNK (64u * 1024u)

/* Reads until buf holds want bytes or the input ends (EINTR retried). */
static ssize_t fill(int fd, uint8_t *buf, size_t want)
{
    size_t n = 0;
    while (n < want) {
        ssize_t r = pii_fault_hit(PII_FAULT_READ) ? (errno = EIO, -1) : read(fd, buf + n, want - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        n += (size_t)r;
    }
    return (ssize_t)n;
}

/* Live input (not a regular file): whether fd has nothing to read now,
 * or (ms > 0) still nothing after ms milliseconds.  Errors say "ready":
 * the read that follows reports them. */
static int idle(int fd, int ms)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    int r;
    while ((r = poll(&p, 1, ms)) < 0 && errno == EINTR)
        ;
    return r == 0;
}

/* Puts one input into the stream (pii_stream_put): the whole input is one
 * document, or each line is (--lines).  Each read's complete lines are put
 * as documents and the read ends with a flush, so the model detector packs
 * them into shared forward passes and each line is still written as soon as
 * its read is done; a line that spans reads goes on unqueued.
 * Live input (`live`): before a read that would wait, what is written so
 * far leaves stdio (fflush(out)); and when the text put since the last
 * document boundary ends at a line end, some of it is still undecided
 * (pii_stream_undecided), and nothing arrives for --flush-delay ms (> 0),
 * that line end ends the document (docs/DESIGN.md "Pauses").
 * With `sniff`, the first PII_SNIFF_BYTES are read first and a binary input
 * (sniff.h; not UTF-16/32 text, which the stream refuses) sets *binary and
 * is not fed at all.  pg counts the bytes read.
 * Returns PII_EIO for read errors, PII_EWRITE for a failed flush, else the
 * stream's error. */
static pii_err run_fd(int fd, pii_stream *st, const pii_opts *o, int live, FILE *out, uint8_t *buf,
                      int sniff, int *binary, pii_progress *pg)
{
    int pending = 0; /* bytes put to the current document */
    int at_eol = 0;  /* and the last of them is a line end */
    int paused = 0;  /* a pause ended a document of this input */
    pii_err e;
    for (;;) {
        ssize_t r;
        if (live && !sniff && idle(fd, 0)) {
            if (fflush(out) != 0)
                return PII_EWRITE;
            if (!o->lines && pending && at_eol && o->flush_delay > 0 && pii_stream_undecided(st) &&
                idle(fd, (int)o->flush_delay)) {
                if ((e = pii_stream_end_doc(st)))
                    return e;
                pending = 0;
                paused = 1;
                if (fflush(out) != 0)
                    return PII_EWRITE;
            }
        }
        if (sniff) {
            /* live input: what the first read brings (fill would wait for
             * PII_SNIFF_BYTES, or the end, of a `tail -f`) */
            r = !live                           ? fill(fd, buf, PII_SNIFF_BYTES)
                : pii_fault_hit(PII_FAULT_READ) ? (errno = EIO, -1)
                                                : read(fd, buf, PII_SNIFF_BYTES);
            /* as batch_prepare: UTF-16/32 text is not binary; the stream's
             * wide-text guard refuses it */
            pii_wide wide;
            pii_wide_init(&wide);
            if (r >= 0 && pii_wide_feed(&wide, buf, (size_t)r) == PII_OK &&
                pii_sniff_binary(buf, (size_t)r)) {
                *binary = 1;
                return PII_OK;
            }
            sniff = 0;
        } else {
            r = pii_fault_hit(PII_FAULT_READ) ? (errno = EIO, -1) : read(fd, buf, READ_CHUNK);
        }
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return PII_EIO;
        }
        if (r == 0)
            break;
        pii_progress_add(pg, (uint64_t)r);
        size_t n = (size_t)r, off = 0;
        const uint8_t *nl;
        while (o->lines && off < n && (nl = memchr(buf + off, '\n', n - off))) {
            size_t k = (size_t)(nl - (buf + off)) + 1;
            if ((e = pii_stream_put(st, buf + off, k, PII_STREAM_END_DOC)))
                return e;
            off += k;
            pending = 0;
        }
        if ((e = pii_stream_put(st, buf + off, n - off, PII_STREAM_FLUSH)))
            return e;
        if (off < n)
            pending = 1;
        at_eol = buf[n - 1] == '\n';
    }
    if (!pending && (o->lines || paused))
        return PII_OK;
    return pii_stream_end_doc(st);
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

    pii_out *out = pii_out_create(stdout, &o);
    uint8_t *buf = malloc(READ_CHUNK);
    pii_err e = PII_OK;
    pii_sink sink;
    pii_stream *st = NULL;
    if (!out || !buf) {
        e = PII_ENOMEM;
        goto stream_done;
    }
    if (p.map)
        pii_out_set_map(out, p.map);
    sink = pii_out_sink(out);
    if (!(st = pii_stream_create(p.red, &sink, &e)))
        goto stream_done;
    rc = PII_EXIT_OK;
    int pmode = pii_progress_mode(o.progress, o.quiet);
    size_t nin = o.nfiles ? o.nfiles : 1;
    for (size_t i = 0; i < nin; i++) {
        const char *name = o.nfiles ? o.files[i] : "-";
        int is_stdin = strcmp(name, "-") == 0;
        int fd = is_stdin ? STDIN_FILENO : open(name, O_RDONLY);
        if (fd < 0) {
            char shown[512];
            fprintf(stderr, "pii-redact: %s: %s\n", escaped(name, shown, sizeof shown),
                    strerror(errno));
            rc = PII_EXIT_IO;
            continue;
        }
        pii_out_set_file(out, o.nfiles ? name : NULL);
        struct stat ist;
        pii_out_set_input(out, fstat(fd, &ist) == 0 && S_ISREG(ist.st_mode));
        pii_stream_new_input(st);
        pii_stream_set_input_name(st, is_stdin ? NULL : name); /* custom rules' paths */
        struct stat sb;
        uint64_t total = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) ? (uint64_t)sb.st_size : 0;
        pii_progress pg;
        int binary = 0;
        pii_progress_start(&pg, pmode, is_stdin ? "standard input" : name, total);
        /* binary files: refused as in batch mode (sniff.h); stdin never */
        int live = fstat(fd, &sb) == 0 && !S_ISREG(sb.st_mode);
        e = run_fd(fd, st, &o, live, stdout, buf, !is_stdin && !o.binary, &binary, &pg);
        int rerr = errno;
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
    } else if (e == PII_ETOOBIG && o.format == PII_FMT_JSON) {
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
    if (rc == PII_EXIT_OK && o.check && out && pii_out_found(out))
        rc = PII_EXIT_FOUND;
    if (p.map) { /* what was written needs its map, whatever else failed */
        int mrc = pii_pipeline_write_map(&o, &p);
        if (mrc >= 0 && (rc == PII_EXIT_OK || rc == PII_EXIT_FOUND))
            rc = mrc;
    }
    pii_stream_free(st);
    pii_out_free(out);
    free(buf);
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
