/* test_easy.c — the easy layer (include/piiredact.h, api/easy.c): exact
 * bytes and spans of one buffer, streams cut at every position, a failing
 * write callback, options from an older (shorter) struct, errors as codes
 * plus one line; the configuration (pii_config_set, pii_config_parse's
 * quoting, the option table, a handle from a config).  Rule tier only: the model's answers belong
 * to its own suites; tests/lib/run.sh compares the model path with the command. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define PII_STATIC_LINKING_ONLY /* the full layers, linked statically */
#include "piiredact.h"

static const char TEXT[] = "Mail bob.smith@example.com or call +1 415-555-0100 today.\n";
static const char REDACTED[] = "Mail <PRIVATE_EMAIL> or call <PRIVATE_PHONE> today.\n";

static pii_easy *rules_only(const char *args)
{
    char msg[256] = "";
    pii_err e = PII_EINTERNAL;
    pii_easy *h = pii_easy_create_args(args, &e, msg, sizeof msg);
    if (!h)
        fprintf(stderr, "create '%s': %s: %s\n", args, pii_errname(e), msg);
    assert_non_null(h);
    assert_int_equal(e, PII_OK);
    assert_string_equal(msg, "");
    return h;
}

static void test_buffer_bytes_and_spans(void **state)
{
    (void)state;
    pii_easy *h = rules_only("--rules-only");
    char *out;
    size_t n, ns;
    pii_span *sp;
    assert_int_equal(pii_easy_redact_buffer(h, TEXT, strlen(TEXT), &out, &n, &sp, &ns), PII_OK);
    assert_int_equal(n, strlen(REDACTED));
    assert_memory_equal(out, REDACTED, n + 1); /* with the NUL */
    assert_int_equal(ns, 2);
    assert_string_equal(sp[0].label, "private_email");
    assert_int_equal(sp[0].start, 5);
    assert_int_equal(sp[0].end, 26);
    assert_int_equal(sp[0].source, PII_SRC_RULE);
    assert_string_equal(sp[0].rule, "email");
    assert_string_equal(sp[1].label, "private_phone");
    assert_int_equal(sp[1].start, 35);
    assert_int_equal(sp[1].end, 50);
    pii_free(out);
    pii_free(sp);
    /* no spans asked; empty input */
    assert_int_equal(pii_easy_redact_buffer(h, "", 0, &out, &n, NULL, NULL), PII_OK);
    assert_int_equal(n, 0);
    assert_int_equal(out[0], 0);
    pii_free(out);
    pii_easy_free(h);
}

static void test_operators_and_labels(void **state)
{
    (void)state;
    pii_easy *h = rules_only("--rules-only --labels private_phone --operator=mask:#");
    char *out;
    size_t n;
    assert_int_equal(pii_easy_redact_buffer(h, TEXT, strlen(TEXT), &out, &n, NULL, NULL), PII_OK);
    assert_string_equal(out, "Mail bob.smith@example.com or call ############### today.\n");
    pii_free(out);
    pii_easy_free(h);
    h = rules_only("--rules-only --exclude-labels private_phone --operator private_email=remove");
    assert_int_equal(pii_easy_redact_buffer(h, TEXT, strlen(TEXT), &out, &n, NULL, NULL), PII_OK);
    assert_string_equal(out, "Mail  or call +1 415-555-0100 today.\n");
    pii_free(out);
    pii_easy_free(h);
}

typedef struct sink {
    char buf[256];
    size_t n;
    int fail_at; /* fail the n-th call (1-based); 0: never */
    int calls;
} sink;

static pii_err put(void *ud, const void *data, size_t len)
{
    sink *s = ud;
    if (++s->calls == s->fail_at)
        return PII_EWRITE;
    assert_true(s->n + len <= sizeof s->buf);
    memcpy(s->buf + s->n, data, len);
    s->n += len;
    return PII_OK;
}

static void test_stream_every_split(void **state)
{
    (void)state;
    pii_easy *h = rules_only("--rules-only");
    size_t len = strlen(TEXT);
    for (size_t cut = 0; cut <= len; cut++) {
        sink s = {.n = 0};
        pii_err e;
        pii_easy_stream *st = pii_easy_stream_open(h, put, &s, &e);
        assert_non_null(st);
        assert_int_equal(pii_easy_stream_feed(st, TEXT, cut), PII_OK);
        assert_int_equal(pii_easy_stream_feed(st, TEXT + cut, len - cut), PII_OK);
        assert_int_equal(pii_easy_stream_finish(st), PII_OK);
        assert_int_equal(s.n, strlen(REDACTED));
        assert_memory_equal(s.buf, REDACTED, s.n);
        /* a second document on the same stream starts afresh */
        s.n = 0;
        assert_int_equal(pii_easy_stream_feed(st, "x 415-555-0100\n", 15), PII_OK);
        assert_int_equal(pii_easy_stream_finish(st), PII_OK);
        assert_int_equal(s.n, 18);
        assert_memory_equal(s.buf, "x <PRIVATE_PHONE>\n", 18);
        pii_easy_stream_free(st);
    }
    pii_easy_free(h);
}

static void test_stream_write_error_fails_closed(void **state)
{
    (void)state;
    pii_easy *h = rules_only("--rules-only");
    sink s = {.fail_at = 1};
    pii_err e;
    pii_easy_stream *st = pii_easy_stream_open(h, put, &s, &e);
    assert_non_null(st);
    pii_err f = pii_easy_stream_feed(st, TEXT, strlen(TEXT));
    if (f == PII_OK) /* nothing decided yet: the error comes at the end */
        f = pii_easy_stream_finish(st);
    assert_int_equal(f, PII_EWRITE);
    assert_int_equal(pii_easy_stream_feed(st, "more", 4), PII_EWRITE);
    assert_int_equal(pii_easy_stream_finish(st), PII_EWRITE);
    assert_int_equal(s.n, 0);
    pii_easy_stream_free(st);
    assert_null(pii_easy_stream_open(h, NULL, NULL, &e));
    assert_int_equal(e, PII_EINVAL);
    pii_easy_free(h);
}

/* A caller built against a header whose struct ended before `labels`. */
static void test_options_older_struct(void **state)
{
    (void)state;
    pii_easy_options o;
    pii_easy_options_init(&o);
    assert_int_equal(o.size, sizeof o);
    assert_int_equal(o.use_model, 1);
    assert_int_equal(o.use_rules, 1);
    o.use_model = 0;
    o.labels = "private_phone"; /* beyond the old size: must be ignored */
    o.size = offsetof(pii_easy_options, labels);
    char msg[128] = "";
    pii_err e;
    pii_easy *h = pii_easy_create(&o, &e, msg, sizeof msg);
    assert_non_null(h);
    char *out;
    size_t n;
    assert_int_equal(pii_easy_redact_buffer(h, TEXT, strlen(TEXT), &out, &n, NULL, NULL), PII_OK);
    assert_string_equal(out, REDACTED);
    pii_free(out);
    pii_easy_free(h);
    o.size = sizeof o + 8; /* a newer struct than this library knows */
    assert_null(pii_easy_create(&o, &e, msg, sizeof msg));
    assert_int_equal(e, PII_EINVAL);
    char want[128];
    snprintf(want, sizeof want, "options: size %zu (use pii_easy_options_init)", sizeof o + 8);
    assert_string_equal(msg, want);
}

static void expect_error(const char *args, pii_err want, const char *want_msg)
{
    char msg[256] = "";
    pii_err e = PII_OK;
    assert_null(pii_easy_create_args(args, &e, msg, sizeof msg));
    assert_int_equal(e, want);
    assert_string_equal(msg, want_msg);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("--rules-only --model-only", PII_EINVAL,
                 "--rules-only and --model-only cannot be combined");
    expect_error("--rules-only --bogus", PII_EINVAL, "unknown option '--bogus'");
    expect_error("--rules-only --labels", PII_EINVAL, "option '--labels' needs a value");
    expect_error("--rules-only --labels private_email --exclude-labels secret", PII_EINVAL,
                 "--labels and --exclude-labels cannot be combined");
    expect_error("--rules-only --labels private_email,,secret", PII_EINVAL,
                 "--labels: empty label name");
    expect_error("--rules-only --operator frobnicate", PII_EINVAL, "bad operator 'frobnicate'");
    expect_error("--rules-only --operator nobody=mask", PII_EINVAL,
                 "--operator: unknown label 'nobody'");
    expect_error("--rules-only --operator hash", PII_ENOKEY,
                 "the hash operator needs a key: --key-file FILE or $PII_REDACT_KEY");
    expect_error("--rules-only --threads 2000", PII_EINVAL,
                 "--threads: '2000' is not a number in 1..1024");
    expect_error("--threshold 1.5", PII_EINVAL,
                 "--threshold: bad value '1.5' (X or LABEL=X, 0 <= X <= 1)");
    /* NULL err and msg are allowed */
    assert_null(pii_easy_create_args("--bogus", NULL, NULL, 0));
    /* redact_buffer's own arguments */
    pii_easy *h = rules_only("--rules-only");
    char *out = (char *)1;
    size_t n = 7;
    pii_span *sp = NULL;
    assert_int_equal(pii_easy_redact_buffer(h, NULL, 3, &out, &n, NULL, NULL), PII_EINVAL);
    assert_null(out);
    assert_int_equal(n, 0);
    assert_int_equal(pii_easy_redact_buffer(h, "a", 1, &out, &n, &sp, NULL), PII_EINVAL);
    assert_int_equal(pii_easy_redact_buffer(NULL, "a", 1, &out, &n, NULL, NULL), PII_EINVAL);
    pii_easy_free(h);
    pii_easy_free(NULL);
    pii_easy_stream_free(NULL);
    pii_free(NULL);
    assert_string_equal(pii_version(), PII_VERSION);
}

/* pii_config_set: switches, values, repeatable keys, checks, unknown keys */
static void test_config_set(void **state)
{
    (void)state;
    pii_config *c = pii_config_create();
    size_t n;
    assert_non_null(c);
    assert_int_equal(pii_config_set(c, "rules-only", NULL), PII_OK);
    assert_string_equal(pii_config_get(c, "rules-only"), "1");
    assert_int_equal(pii_config_set(c, "rules-only", "false"), PII_OK);
    assert_null(pii_config_get(c, "rules-only"));
    assert_int_equal(pii_config_set(c, "rules-only", "maybe"), PII_EINVAL);
    assert_string_equal(pii_config_message(c), "--rules-only: 'maybe' is not true or false");
    assert_int_equal(pii_config_set(c, "operator", "mask"), PII_OK);
    assert_int_equal(pii_config_set(c, "operator", "private_email=hash:8"), PII_OK);
    const char *const *v = pii_config_list(c, "operator", &n);
    assert_int_equal(n, 2);
    assert_string_equal(v[0], "mask");
    assert_string_equal(v[1], "private_email=hash:8");
    assert_int_equal(pii_config_set(c, "operator", NULL), PII_OK); /* empties it */
    pii_config_list(c, "operator", &n);
    assert_int_equal(n, 0);
    assert_int_equal(pii_config_set(c, "window", "0"), PII_EINVAL);
    assert_string_equal(pii_config_message(c), "--window: '0' is not a number in 1..16777216");
    assert_null(pii_config_get(c, "window"));
    assert_int_equal(pii_config_set(c, "act", "int3"), PII_EINVAL);
    assert_string_equal(pii_config_message(c),
                        "unknown activation mode 'int3' (int16, int16+8 or int8)");
    assert_int_equal(pii_config_set(c, "threshold", "2"), PII_EINVAL);
    assert_string_equal(pii_config_message(c),
                        "--threshold: bad value '2' (X or LABEL=X, 0 <= X <= 1)");
    assert_int_equal(pii_config_set(c, "bias", "background_stay"), PII_EINVAL);
    assert_string_equal(pii_config_message(c), "--bias: bad value 'background_stay' (KEY=VALUE)");
    assert_int_equal(pii_config_set(c, "frobnicate", "1"), PII_EINVAL);
    assert_string_equal(pii_config_message(c), "unknown option '--frobnicate'");
    assert_int_equal(pii_config_set(c, "allow-file", "/x"), PII_OK); /* the old name */
    assert_string_equal(pii_config_get(c, "allow"), "/x");
    assert_int_equal(pii_config_set(c, "allow", NULL), PII_OK);
    assert_null(pii_config_get(c, "allow"));
    pii_config_free(c);
}

/* pii_config_parse: shell-like words */
static void test_config_parse_quoting(void **state)
{
    (void)state;
    static const char *const ok[] = {
        "--labels 'a b' --operator \"x \\\"y\\\" $z\"",
        "--labels=a\\ b --operator 'x \"y\" $z'",
        "  --labels\t\"a b\"\n--operator x\\ '\"y\"'\\ \\$z ",
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        pii_config *c = pii_config_create();
        size_t n;
        assert_int_equal(pii_config_parse(c, ok[i]), PII_OK);
        assert_string_equal(pii_config_get(c, "labels"), "a b");
        const char *const *v = pii_config_list(c, "operator", &n);
        assert_int_equal(n, 1);
        assert_string_equal(v[0], "x \"y\" $z");
        pii_config_free(c);
    }
    static const char *const bad[][2] = {
        {"--labels 'a", "unterminated quote or final backslash in the options"},
        {"--labels \"a", "unterminated quote or final backslash in the options"},
        {"--labels a\\", "unterminated quote or final backslash in the options"},
        {"--rules-only=yes", "option '--rules-only' takes no argument"},
        {"--window", "option '--window' needs a value"},
        {"--isa scalar", "unknown option '--isa'"}, /* hidden keys: pii_config_set only */
        {"labels a", "unknown option 'labels'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pii_config *c = pii_config_create();
        assert_int_equal(pii_config_parse(c, bad[i][0]), PII_EINVAL);
        assert_string_equal(pii_config_message(c), bad[i][1]);
        pii_config_free(c);
    }
    pii_config *c = pii_config_create();
    assert_int_equal(pii_config_parse(c, "-m/some/model --model-only"), PII_OK);
    assert_string_equal(pii_config_get(c, "model"), "/some/model");
    pii_config_free(c);
}

/* the table: unique keys, each with help; a handle from a config */
static void test_config_table_and_build(void **state)
{
    (void)state;
    const pii_config_info *o, *p;
    size_t n = 0;
    for (; (o = pii_config_option(n)); n++) {
        assert_true(o->key[0] && o->help[0] && o->def);
        for (size_t j = 0; j < n; j++)
            assert_string_not_equal((p = pii_config_option(j))->key, o->key);
    }
    assert_true(n >= 30);
    pii_config *c = pii_config_create();
    assert_int_equal(pii_config_parse(c, "--rules-only --labels email"), PII_OK);
    pii_err e = PII_EINTERNAL;
    pii_easy *h = pii_easy_create_config(c, &e, NULL, 0);
    pii_config_free(c); /* the handle does not keep it */
    assert_non_null(h);
    char *out;
    size_t len;
    assert_int_equal(pii_easy_redact_buffer(h, TEXT, strlen(TEXT), &out, &len, NULL, NULL), PII_OK);
    assert_string_equal(out, "Mail <PRIVATE_EMAIL> or call +1 415-555-0100 today.\n");
    pii_free(out);
    pii_easy_free(h);
    /* a key as bytes: checked when built, named as the caller says */
    char msg[256];
    c = pii_config_create();
    assert_int_equal(pii_config_parse(c, "--rules-only --operator hash"), PII_OK);
    assert_int_equal(pii_config_set_key_named(c, "", 0, "ENVKEY"), PII_OK);
    assert_null(pii_easy_create_config(c, &e, msg, sizeof msg));
    assert_int_equal(e, PII_EINVAL);
    assert_string_equal(msg, "the hash key is empty");
    assert_int_equal(pii_config_set_key_named(c, "short", 5, "ENVKEY"), PII_OK);
    assert_null(pii_easy_create_config(c, &e, msg, sizeof msg));
    assert_string_equal(msg, "ENVKEY: the hash key has 5 bytes; at least 16 random bytes are "
                             "needed (a short key is found by brute force): head -c 32 "
                             "/dev/urandom >KEYFILE");
    assert_int_equal(pii_config_set_key(c, "0123456789abcdef", 16), PII_OK);
    assert_non_null(h = pii_easy_create_config(c, &e, msg, sizeof msg));
    pii_easy_free(h);
    assert_int_equal(pii_config_set_key(c, NULL, 0), PII_OK); /* none again */
    assert_null(pii_easy_create_config(c, &e, msg, sizeof msg));
    assert_int_equal(e, PII_ENOKEY);
    pii_config_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_buffer_bytes_and_spans),
        cmocka_unit_test(test_operators_and_labels),
        cmocka_unit_test(test_stream_every_split),
        cmocka_unit_test(test_stream_write_error_fails_closed),
        cmocka_unit_test(test_options_older_struct),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_config_set),
        cmocka_unit_test(test_config_parse_quoting),
        cmocka_unit_test(test_config_table_and_build),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
