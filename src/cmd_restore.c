/* cmd_restore.c — `pii-redact restore`: puts the originals back.
 *
 *   pii-redact restore --map FILE [--key-file KEY] [FILE]
 *
 * FILE (default stdin) is text with placeholders of a pseudonym map, such
 * as an LLM's answer to a redacted prompt; the map is what
 * `pii-redact --operator pseudonym --map-out FILE` or the server's
 * "mapping" wrote (sealed when it was written with a key: then the same
 * key, --key-file or $PII_REDACT_KEY, opens it).  Placeholders are matched
 * with case, blanks, '_' and '-' ignored (pii_pseudo.h); everything else is
 * copied unchanged to stdout. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "pii_pseudo.h"
#include "pii_file.h"
#include "pipeline.h"

#define MAP_MAX (256u * 1024 * 1024)
#define TEXT_MAX (1024u * 1024 * 1024)

enum { R_FIRST = 256, R_MAP = R_FIRST, R_KEY_FILE, R_HELP, R_END };
static const pii_flag restore_flags[] = {
    [R_MAP - R_FIRST] = {"map", 0, "FILE",
                         "the pseudonym map (JSON, or sealed with the key when written with one)"},
    [R_KEY_FILE - R_FIRST] = {"key-file", 0, "FILE",
                              "the key that sealed the map (default: $PII_REDACT_KEY)"},
    [R_HELP - R_FIRST] = {"help", 'h', NULL, "show this help and exit"},
};
enum { R_NFLAGS = R_END - R_FIRST };
_Static_assert(sizeof restore_flags / sizeof restore_flags[0] == R_NFLAGS, "one entry per id");

/* All of path ("-": standard input) into b, at most max bytes
 * (pii_file.h); -1, or an exit status after a message. */
static int read_file(const char *path, pii_buf *b, size_t max)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rbe");
    char *p = NULL;
    size_t n = 0;
    pii_err e = f ? pii_file_read_all(f, max + 1, &p, &n) : PII_EIO;
    int err = e == PII_ETOOBIG ? EFBIG : e == PII_ENOMEM ? ENOMEM : errno;
    if (f && f != stdin)
        fclose(f);
    if (e) {
        fprintf(stderr, "pii-redact restore: %s: %s\n", path, strerror(err));
        return PII_EXIT_IO;
    }
    b->p = (uint8_t *)p;
    b->n = n;
    b->cap = n + 1;
    return -1;
}

/* The map of path into m; -1, or an exit status after a message. */
static int load_map(const char *path, const char *key_file, pii_pseudo *m)
{
    pii_buf raw = {0}, plain = {0};
    int rc = read_file(path, &raw, MAP_MAX);
    pii_err e = PII_OK;
    if (rc < 0 && pii_pseudo_is_sealed(raw.p, raw.n)) {
        uint8_t key[PII_CLI_KEY_BUF];
        size_t kn = 0;
        rc = pii_cli_load_key(key_file, key, &kn);
        if (rc < 0 && kn == 0) {
            fprintf(stderr,
                    "pii-redact restore: %s is sealed: give its key (--key-file FILE or "
                    "$PII_REDACT_KEY)\n",
                    path);
            rc = PII_EXIT_USAGE;
        }
        if (rc < 0 && (e = pii_pseudo_open(key, kn, raw.p, raw.n, &plain))) {
            fprintf(stderr, "pii-redact restore: %s: %s\n", path,
                    e == PII_EFORMAT ? "wrong key, or the file was changed" : pii_strerror(e));
            rc = e == PII_EFORMAT ? PII_EXIT_USAGE : PII_EXIT_FAIL;
        }
        memset(key, 0, sizeof key);
    } else if (rc < 0) {
        plain = raw;
        raw = (pii_buf){0};
    }
    if (rc < 0 && (e = pii_pseudo_load_json(m, plain.p, plain.n))) {
        fprintf(stderr, "pii-redact restore: %s: not a pseudonym map (%s)\n", path,
                pii_strerror(e));
        rc = PII_EXIT_USAGE;
    }
    if (plain.p)
        memset(plain.p, 0, plain.n);
    pii_buf_free(&raw);
    pii_buf_free(&plain);
    return rc;
}

int pii_cmd_restore(int argc, char **argv)
{
    struct option lo[R_NFLAGS + 1];
    char shorts[2 * R_NFLAGS + 2];
    int ids[128];
    const char *map = NULL, *key_file = NULL;
    pii_cli_getopt_table(restore_flags, R_NFLAGS, R_FIRST, lo, shorts, ids);
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
        int id = c > 0 && c < 128 && ids[c] ? ids[c] : c;
        switch (id) {
        case R_MAP:
            map = optarg;
            break;
        case R_KEY_FILE:
            key_file = optarg;
            break;
        case R_HELP:
            pii_cli_usage(
                stdout, "pii-redact restore --map FILE [--key-file KEY] [FILE]",
                "Writes FILE (default: standard input) with the placeholders of a pseudonym map\n"
                "replaced by their original values.  Placeholders are found with case, blanks,\n"
                "'_' and '-' ignored (\"< private person 1 >\").",
                restore_flags, R_NFLAGS,
                "The map comes from the main command's map output or the server's \"mapping\"; a\n"
                "sealed map needs the key that sealed it.");
            return PII_EXIT_OK;
        default:
            pii_cli_option_error("restore", c, argv, lo);
            return PII_EXIT_USAGE;
        }
    }
    if (!map || argc - optind > 1) {
        fprintf(stderr, "pii-redact restore: give --map FILE and at most one input FILE\n"
                        "Try 'pii-redact restore --help' for more information.\n");
        return PII_EXIT_USAGE;
    }
    pii_err e;
    pii_pseudo *m = pii_pseudo_create(&e);
    if (!m)
        return PII_EXIT_FAIL;
    int rc = load_map(map, key_file, m);
    pii_buf in = {0}, out = {0};
    if (rc < 0)
        rc = read_file(optind < argc ? argv[optind] : "-", &in, TEXT_MAX);
    if (rc < 0 && (e = pii_pseudo_restore(m, in.p, in.n, &out, NULL, NULL, NULL))) {
        pii_cli_error("restore", e);
        rc = pii_exit_for(e);
    }
    if (rc < 0) {
        rc = PII_EXIT_OK;
        if ((out.n && fwrite(out.p, 1, out.n, stdout) != out.n) || fflush(stdout) != 0) {
            fprintf(stderr, "pii-redact restore: write error: %s\n", strerror(errno));
            rc = PII_EXIT_IO;
        }
    }
    pii_buf_free(&in);
    pii_buf_free(&out);
    pii_pseudo_free(m);
    return rc;
}
