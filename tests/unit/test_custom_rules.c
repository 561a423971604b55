/* test_custom_rules.c — named custom rules (redact/custom_rules.c,
 * pii_custom.h): the file format and its errors (line and message), exact
 * spans for each key (group, keywords + context, entropy, validator, allow),
 * rules that overlap, and streaming: every split and byte-by-byte feeding
 * give the one-shot spans. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "pii_custom.h"
#include "unit_util.h"

static pii_custom *parse(const char *text)
{
    pii_err e;
    size_t line;
    char msg[256];
    pii_custom *c = pii_custom_parse(text, strlen(text), &e, &line, msg, sizeof msg);
    if (!c)
        fprintf(stderr, "parse: %s line %zu: %s\n", pii_errname(e), line, msg);
    assert_non_null(c);
    return c;
}

/* The error, line and message of a file that must not load. */
static void bad(const char *text, pii_err want, size_t want_line, const char *want_msg)
{
    pii_err e;
    size_t line = 99;
    char msg[256];
    pii_custom *c = pii_custom_parse(text, strlen(text), &e, &line, msg, sizeof msg);
    assert_null(c);
    assert_int_equal(e, want);
    assert_int_equal(line, want_line);
    assert_string_equal(msg, want_msg);
}

static int cmp_span(const void *pa, const void *pb)
{
    const pii_span *a = pa, *b = pb;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    if (a->end != b->end)
        return a->end < b->end ? -1 : 1;
    return strcmp(a->rule, b->rule);
}

/* Feeds t to a fresh state cut at cuts[0..ncuts) (the buffer starts at
 * the last keep, copied to a heap block of its exact size), checking the
 * detector contract; appends the spans, sorted. */
static void feed(const pii_custom *c, const char *t, const size_t *cuts, size_t ncuts,
                 pii_spanvec *out)
{
    pii_detector d = pii_custom_detector(c);
    pii_err e;
    void *st = d.cls->open(d.shared, &e);
    assert_non_null(st);
    size_t n = strlen(t);
    uint64_t base = 0, prev_done = 0;
    for (size_t k = 0; k <= ncuts; k++) {
        size_t end = k < ncuts ? cuts[k] : n;
        int eod = k == ncuts;
        size_t len = end - base;
        uint8_t *win = malloc(len ? len : 1);
        assert_non_null(win);
        memcpy(win, t + base, len);
        uint64_t done = 0, keep = 0;
        size_t before = out->n;
        assert_int_equal(d.cls->scan(st, win, len, base, eod, out, &done, &keep), PII_OK);
        free(win);
        assert_true(done >= prev_done && keep <= done && keep >= base && done <= end);
        if (eod)
            assert_int_equal(done, n);
        for (size_t i = before; i < out->n; i++)
            assert_true(out->v[i].start >= prev_done && out->v[i].end <= end);
        prev_done = done;
        base = keep;
    }
    d.cls->close(st);
    qsort(out->v, out->n, sizeof *out->v, cmp_span);
}

typedef struct want {
    const char *rule;
    unsigned start, end;
} want;

static void expect(const pii_spanvec *got, const want *w, size_t nw, const char *t)
{
    if (got->n != nw) {
        for (size_t i = 0; i < got->n; i++)
            fprintf(stderr, "  got %s %llu %llu\n", got->v[i].rule,
                    (unsigned long long)got->v[i].start, (unsigned long long)got->v[i].end);
    }
    assert_int_equal(got->n, nw);
    for (size_t i = 0; i < nw; i++) {
        assert_string_equal(got->v[i].rule, w[i].rule);
        assert_int_equal(got->v[i].start, w[i].start);
        assert_int_equal(got->v[i].end, w[i].end);
        assert_int_equal(got->v[i].source, PII_SRC_RULE);
        assert_true(got->v[i].score == 1.0f);
    }
    (void)t;
}

/* One-shot, every 2-chunk split, and byte by byte: the same spans. */
static void check(const pii_custom *c, const char *t, const want *w, size_t nw)
{
    pii_spanvec got = {0};
    feed(c, t, NULL, 0, &got);
    expect(&got, w, nw, t);
    size_t n = strlen(t);
    for (size_t k = 0; k <= n; k++) {
        pii_spanvec_clear(&got);
        feed(c, t, &k, 1, &got);
        expect(&got, w, nw, t);
    }
    size_t *cuts = malloc((n + 1) * sizeof *cuts);
    assert_non_null(cuts);
    for (size_t k = 0; k < n; k++)
        cuts[k] = k + 1;
    pii_spanvec_clear(&got);
    feed(c, t, cuts, n, &got);
    expect(&got, w, nw, t);
    free(cuts);
    pii_spanvec_free(&got);
}

static const char *RULES = "# ACME rules\n"
                           "[acme_employee]\n"
                           "description = ACME employee number\n"
                           "label = account_number\n"
                           "regex = \\bEMP-[0-9]{6}\\b\n"
                           "allow = EMP-000000\n"
                           "allow = re:EMP-9+\n"
                           "\n"
                           "; a card number only near the word card\n"
                           "[acme_card]\n"
                           "label = account_number\n"
                           "regex = \\b[0-9]{4}(?: [0-9]{4}){3}\\b\n"
                           "validator = luhn\n"
                           "keywords = Card, visa\n"
                           "context = 16\n"
                           "\n"
                           "[acme_token]\n"
                           "label = secret\n"
                           "regex = token=([A-Za-z0-9]{12,})\n"
                           "group = 1\n"
                           "entropy = 3.0\n"
                           "[acme_any_emp]\n"
                           "label = private_person\n"
                           "regex = EMP-[0-9]{3}\n";

static void test_rules(void **state)
{
    (void)state;
    pii_custom *c = parse(RULES);
    assert_int_equal(pii_custom_count(c), 4);
    const pii_rule_info *ri = pii_custom_info(c, 0);
    assert_string_equal(ri->id, "acme_employee");
    assert_string_equal(ri->label, "account_number");
    assert_string_equal(ri->about, "ACME employee number");
    assert_string_equal(pii_custom_info(c, 1)->about, "custom rule");
    assert_null(pii_custom_info(c, 4));
    /* allow (exact and re:), overlapping rules both report */
    const char *t1 = "EMP-123456 EMP-000000 EMP-999999";
    want w1[] = {{"acme_any_emp", 0, 7},
                 {"acme_employee", 0, 10},
                 {"acme_any_emp", 11, 18},
                 {"acme_any_emp", 22, 29}};
    check(c, t1, w1, 4);
    /* validator (luhn) and keywords within 16 bytes before, any case */
    const char *t2 = "CARD: 4111 1111 1111 1111; far away ............ 4111 1111 1111 1111; "
                     "visa 4111 1111 1111 1112";
    want w2[] = {{"acme_card", 6, 25}};
    check(c, t2, w2, 1);
    /* group 1 reported; entropy below 3.0 dropped */
    const char *t3 = "token=aaaaaaaaaaaaaaaa token=Zx9Kq2Lm8Np4Rt";
    want w3[] = {{"acme_token", 29, 43}};
    check(c, t3, w3, 1);
    pii_custom_free(c);
}

static void test_keyword_in_span(void **state)
{
    (void)state;
    /* context 0: the keyword must be in the span itself */
    pii_custom *c = parse("[ref]\nlabel = account_number\nregex = (?i)ref-[a-z0-9]{4}\n"
                          "keywords = ref-x\ncontext = 0\n");
    want w[] = {{"ref", 10, 18}};
    check(c, "REF-abcd  REF-X123", w, 1);
    pii_custom_free(c);
}

static void test_errors(void **state)
{
    (void)state;
    bad("label = x\n", PII_EFORMAT, 1, "'label' before the first [RULE_ID]");
    bad("[a]\nlabel = x\nregex = y\nbogus = 1\n", PII_EFORMAT, 4,
        "unknown key 'bogus' (description, label, regex, group, keywords, context, entropy, "
        "validator, allow, paths)");
    bad("[a]\nlabel = x\nregex = y\npaths = a,, b\n", PII_EFORMAT, 4, "paths: an empty glob");
    bad("[a]\nlabel = x\nlabel = y\n", PII_EFORMAT, 3, "'label' given twice in one rule");
    bad("[a b]\n", PII_EFORMAT, 1, "rule id 'a b': want [A-Za-z0-9_.-]{1,64}");
    bad("[a\n", PII_EFORMAT, 1, "a section line is [RULE_ID]");
    bad("[a]\nlabel = x\nregex = y\n[a]\n", PII_EFORMAT, 4, "rule id 'a' used twice");
    bad("[a]\nregex = y\n[b]\n", PII_EFORMAT, 1, "rule 'a' has no label");
    bad("\n[a]\nlabel = x\n", PII_EFORMAT, 2, "rule 'a' has no regex");
    bad("[a]\nlabel = x\nregex = y\nentropy = 9\n", PII_EFORMAT, 4,
        "entropy: '9' is not a number from 0 to 8");
    bad("[a]\nlabel = x\nregex = y\nvalidator = crc\n", PII_EFORMAT, 4,
        "validator 'crc': want none, luhn, card or iban");
    bad("[a]\nlabel = x\nregex = y\ncontext = 5000\n", PII_EFORMAT, 4,
        "context: '5000' is not a whole number from 0 to 4096");
    bad("[a]\nlabel = x\nregex = y\ngroup = 1\n", PII_EFORMAT, 4,
        "rule 'a': group is past the regex's capture groups");
    bad("[a]\nlabel = x\nregex = y*\n", PII_EFORMAT, 3,
        "rule 'a': the regex can match an empty string");
    bad("[a]\nlabel = x\nregex = y\nkeywords = a,,b\n", PII_EFORMAT, 4,
        "keywords: an empty keyword");
    bad("[a]\nlabel = x\nwhat\n", PII_EFORMAT, 3, "want KEY = VALUE or [RULE_ID]");
    pii_err e;
    size_t line;
    char msg[256];
    assert_null(pii_custom_parse("[a]\nlabel = x\nregex = (y\n", 25, &e, &line, msg, sizeof msg));
    assert_int_equal(e, PII_EREGEX);
    assert_int_equal(line, 3);
    assert_non_null(strstr(msg, "regex: "));
    /* an empty file loads, with no rules */
    pii_custom *c = parse("# nothing yet\n");
    assert_int_equal(pii_custom_count(c), 0);
    pii_custom_free(c);
    assert_null(pii_custom_load("/nonexistent/rules", &e, &line, msg, sizeof msg));
    assert_int_equal(e, PII_EIO);
}

/* Redacts text as input `name` through r; returns the output (static). */
static const char *redact_as(const pii_redactor *r, const char *name, const char *text)
{
    static unit_out c;
    memset(&c, 0, sizeof c);
    pii_sink sink = {unit_out_write, NULL, NULL, &c};
    pii_err e;
    pii_stream *s = pii_stream_create(r, &sink, &e);
    assert_non_null(s);
    pii_stream_set_input_name(s, name);
    assert_int_equal(pii_stream_feed(s, text, strlen(text)), PII_OK);
    assert_int_equal(pii_stream_end_doc(s), PII_OK);
    pii_stream_free(s);
    return c.b;
}

static void test_paths(void **state)
{
    (void)state;
    pii_custom *c = parse("[logs]\nlabel = secret\nregex = K-[0-9]+\npaths = *.log, ./src/x*.c\n"
                          "[all]\nlabel = account_number\nregex = A-[0-9]+\n");
    assert_true(pii_custom_has_paths(c));
    pii_err e;
    pii_redactor *r = pii_redactor_create(&e);
    assert_non_null(r);
    assert_int_equal(pii_redactor_add_detector(r, pii_custom_detector(c)), PII_OK);
    /* without the filter, paths are not applied */
    assert_string_equal(redact_as(r, "a.txt", "K-1 A-2"), "<SECRET> <ACCOUNT_NUMBER>");
    pii_redactor_set_span_filter(r, pii_custom_keep_span, c);
    assert_string_equal(redact_as(r, "a.txt", "K-1 A-2"), "K-1 <ACCOUNT_NUMBER>");
    assert_string_equal(redact_as(r, NULL, "K-1 A-2"), "K-1 <ACCOUNT_NUMBER>");
    assert_string_equal(redact_as(r, "var/app.log", "K-1 A-2"), "<SECRET> <ACCOUNT_NUMBER>");
    assert_string_equal(redact_as(r, "./app.log", "K-1"), "<SECRET>");
    assert_string_equal(redact_as(r, "src/x1.c", "K-1"), "<SECRET>");
    assert_string_equal(redact_as(r, "src/xa/b.c", "K-1"), "<SECRET>"); /* '*' crosses '/' */
    assert_string_equal(redact_as(r, "src/deep/x1.c", "K-1"), "K-1");
    /* a glob with a '/' is matched against the whole path only */
    assert_string_equal(redact_as(r, "lib/src/x1.c", "K-1"), "K-1");
    pii_redactor_free(r);
    pii_custom_free(c);
    c = parse("[all]\nlabel = secret\nregex = K-[0-9]+\n");
    assert_false(pii_custom_has_paths(c));
    pii_custom_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_keyword_in_span),
        cmocka_unit_test(test_paths),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
