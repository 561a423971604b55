/* fuzz_opts.c — option parsing and pipeline set-up of the main command.
 *
 * Input: the arguments after argv[0], separated by NUL bytes (at most 48).
 * Each input goes through pii_opts_parse exactly as main() calls it; when
 * it asks to continue, the file arguments are pointed at scratch files (a
 * 0600 key file, an allow list, a deny list), the model tier is left out,
 * the pipeline is built as the CLI builds it, and a fixed sample text is
 * redacted with the parsed output format into /dev/null.  Anything the
 * command prints goes to /dev/null; sanitizer reports still reach the real
 * stderr.  Checked: no crash, leak or undefined behaviour, every exit
 * status is one of the documented ones, and parsing twice in one process
 * gives the same answer (no getopt state survives from one call to the
 * next: the first parse's arguments are overwritten and freed before the
 * second).
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "src/cli.h"
#include "src/opts.h"
#include "src/output.h"
#include "src/pipeline.h"

#include "fuzz_util.inc"

/* The subcommand table lives in src/commands.c with main(); --help only
 * needs a table. */
const pii_subcommand pii_subcommands[] = {{NULL, NULL, NULL}};

__attribute__((weak)) void __sanitizer_set_report_fd(void *fd);

static int g_null = -1, g_out = -1, g_err = -1;
static FILE *g_sink;
static const char *g_key, *g_allow, *g_deny;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    static const char key[] = "opts-fuzz-secret-key\n";
    static const char allow[] = "# allow\nbob@example.com\nre:.*@example\\.org\n";
    static const char deny[] = "Zorblax Wimbleton\nprivate_person\tre:Qu+x\n";
    g_key = fuzz_tmpfile("key", key, sizeof key - 1, 0600);
    g_allow = fuzz_tmpfile("allow", allow, sizeof allow - 1, 0644);
    g_deny = fuzz_tmpfile("deny", deny, sizeof deny - 1, 0644);
    g_null = open("/dev/null", O_WRONLY);
    g_out = dup(1);
    g_err = dup(2);
    g_sink = fopen("/dev/null", "w");
    FUZZ_CHECK(g_null >= 0 && g_out >= 0 && g_err >= 0 && g_sink);
    if (__sanitizer_set_report_fd)
        __sanitizer_set_report_fd((void *)(intptr_t)g_err);
    return 0;
}

static void quiet(int on)
{
    fflush(stdout);
    fflush(stderr);
    dup2(on ? g_null : g_out, 1);
    dup2(on ? g_null : g_err, 2);
}

static const char sample[] = "Mail bob.smith@example.com or call +1 415-555-0100 today.\n"
                             "card 4111 1111 1111 1111, Zorblax Wimbleton, Quux\n"
                             "caf\xc3\xa9 \xff\xfe bad utf-8 \xe2\x82 cut\n";

static int is_status(int rc)
{
    return rc == -1 || (rc >= PII_EXIT_OK && rc <= PII_EXIT_FAIL);
}

/* Splits the input into a fresh argv (each argument its own allocation, so
 * ASan sees overreads).  *copy receives the pointers for freeing, as
 * getopt may permute argv. */
static int make_argv(const uint8_t *data, size_t size, char **argv, char **copy, int max)
{
    int argc = 0;
    argv[argc++] = strdup("pii-redact");
    size_t i = 0;
    while (i <= size && argc <= max) {
        const uint8_t *z = i < size ? memchr(data + i, 0, size - i) : NULL;
        size_t n = z ? (size_t)(z - (data + i)) : size - i;
        char *a = malloc(n + 1);
        FUZZ_CHECK(a);
        memcpy(a, data + i, n);
        a[n] = '\0';
        argv[argc++] = a;
        i += n + 1;
    }
    argv[argc] = NULL;
    memcpy(copy, argv, (size_t)(argc + 1) * sizeof *argv);
    return argc;
}

/* Frees an argv after overwriting it, so that a parser that kept a pointer
 * into it reads garbage rather than the old text. */
static void drop_argv(char **copy, int argc)
{
    for (int k = 0; k < argc; k++) {
        memset(copy[k], 'x', strlen(copy[k]));
        free(copy[k]);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    enum { MAXARG = 48 };
    char *argv[MAXARG + 2], *copy[MAXARG + 2];
    int argc = make_argv(data, size, argv, copy, MAXARG);

    /* Parsing is repeatable: a first parse on another copy of the
     * arguments (freed and overwritten since) gives the same answer. */
    pii_opts o;
    quiet(1);
    int rc1 = pii_opts_parse(argc, argv, &o);
    pii_opts_free(&o);
    drop_argv(copy, argc);
    argc = make_argv(data, size, argv, copy, MAXARG);
    int rc = pii_opts_parse(argc, argv, &o);
    quiet(0);
    FUZZ_CHECK(is_status(rc1) && rc == rc1);
    if (rc == -1) {
        quiet(1);
        if (o.key_file)
            o.key_file = g_key;
        if (o.allow_file)
            o.allow_file = g_allow;
        if (o.deny_file)
            o.deny_file = g_deny;
        o.model_path = NULL;
        o.calibration = NULL; /* a file: the model tier is not fuzzed here */
        o.rules_file = NULL;  /* a file too (tests/unit/test_custom_rules.c) */
        o.rules_discover = 0; /* whatever the fuzzer's directory holds */
        o.model_only = 0;
        o.rules_only = 1;
        pii_pipeline p;
        int prc = pii_pipeline_build(&o, &p);
        quiet(0);
        FUZZ_CHECK(is_status(prc));
        if (prc == -1 && !o.list_rules) {
            pii_out *out = pii_out_create(g_sink, &o);
            FUZZ_CHECK(out);
            pii_sink sink = pii_out_sink(out);
            pii_err e;
            pii_stream *st = pii_stream_create(p.red, &sink, &e);
            FUZZ_CHECK(st);
            const char *s = sample, *end = sample + sizeof sample - 1;
            while (s < end && e == PII_OK) {
                const char *nl = o.lines ? memchr(s, '\n', (size_t)(end - s)) : NULL;
                size_t n = nl ? (size_t)(nl - s) + 1 : (size_t)(end - s);
                e = pii_stream_feed(st, s, n);
                if (!e && (o.lines || s + n == end))
                    e = pii_stream_end_doc(st);
                s += n;
            }
            FUZZ_CHECK(e == PII_OK);
            pii_stream_free(st);
            pii_out_free(out);
        }
        pii_pipeline_free(&p);
    }
    pii_opts_free(&o);
    drop_argv(copy, argc);
    return 0;
}
