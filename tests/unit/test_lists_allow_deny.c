/* test_lists_allow_deny.c — --allow and --deny list files: parsing,
 * matching semantics with exact offsets, bounded-regex checks, streaming
 * exactness of the deny detector and its fail-closed hold-back cap. */
#include <unistd.h>

#include "rules_test_util.h"

/* Writes text to a fresh temporary file; returns its path (static). */
static const char *tmp_list(const char *text, size_t n)
{
    static char path[64];
    strcpy(path, "/tmp/pii_lists_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, n), (ssize_t)n);
    close(fd);
    return path;
}

#define TMP_LIST(s) tmp_list((s), sizeof(s) - 1)

static pii_allow *allow_of(const char *text, size_t n)
{
    pii_err e;
    char msg[256] = "";
    const char *p = tmp_list(text, n);
    pii_allow *a = pii_allow_load(p, &e, msg, sizeof msg);
    unlink(p);
    if (!a)
        fprintf(stderr, "allow: %s %s\n", pii_errname(e), msg);
    assert_non_null(a);
    return a;
}

static pii_deny *deny_of(const char *text, size_t n)
{
    pii_err e;
    char msg[256] = "";
    const char *p = tmp_list(text, n);
    pii_deny *d = pii_deny_load(p, &e, msg, sizeof msg);
    unlink(p);
    if (!d)
        fprintf(stderr, "deny: %s %s\n", pii_errname(e), msg);
    assert_non_null(d);
    return d;
}

#define ALLOW(s) allow_of((s), sizeof(s) - 1)
#define DENY(s) deny_of((s), sizeof(s) - 1)

static int am(const pii_allow *a, const char *v)
{
    return pii_allow_match(a, (const uint8_t *)v, strlen(v));
}

static void test_allow(void **state)
{
    (void)state;
    pii_allow *a = ALLOW("# team addresses\n"
                         "\n"
                         "  support@example.com  \r\n"
                         "re:.*@example\\.org\n"
                         "re:(?i)noreply@.+\n"
                         "\t# indented comment\n"
                         "+1 800 555 0199\n"
                         "caf\xc3\xa9\n");
    assert_true(am(a, "support@example.com"));
    assert_false(am(a, "Support@example.com"));      /* exact, case-sensitive */
    assert_false(am(a, " support@example.com"));     /* the whole value */
    assert_false(am(a, "support@example.com.evil")); /* not a prefix match */
    assert_true(am(a, "bob@example.org"));
    assert_false(am(a, "bob@example.org.uk")); /* regexes match the whole value */
    assert_false(am(a, "bob@exampleXorg"));
    assert_true(am(a, "NoReply@anything"));
    assert_true(am(a, "+1 800 555 0199"));
    assert_true(am(a, "caf\xc3\xa9"));
    assert_false(am(a, "# team addresses"));
    assert_false(am(a, ""));
    assert_true(pii_allow_match(a, (const uint8_t *)"bob@example.org\xff", 15));
    assert_false(pii_allow_match(a, (const uint8_t *)"x\xff@example.org", 15)); /* invalid */
    assert_false(pii_allow_match(NULL, (const uint8_t *)"x", 1));
    pii_allow_free(a);
    pii_allow_free(NULL);
    /* an empty list allows nothing */
    a = ALLOW("# nothing\n\n");
    assert_false(am(a, "x"));
    pii_allow_free(a);
}

static void test_load_errors(void **state)
{
    (void)state;
    pii_err e;
    char msg[256];
    assert_null(pii_allow_load("/nonexistent/allow.txt", &e, msg, sizeof msg));
    assert_int_equal(e, PII_EIO);
    assert_null(pii_deny_load("/nonexistent/deny.txt", &e, msg, sizeof msg));
    assert_int_equal(e, PII_EIO);
    static const struct {
        const char *text;
        int deny;
        pii_err want;
        const char *msg;
    } bad[] = {
        {"ok\nre:(unclosed\n", 0, PII_EREGEX, "line 2: "},
        {"re:\n", 0, PII_EFORMAT, "line 1: empty regular expression"},
        {"re:a*b\n", 1, PII_EREGEX, "line 1: unbounded repetition"},
        {"x\nre:ab+\n", 1, PII_EREGEX, "line 2: unbounded repetition"},
        {"re:a{2,}\n", 1, PII_EREGEX, "line 1: unbounded repetition"},
        {"re:(a|b(?R))\n", 1, PII_EREGEX, "line 1: recursion"},
        {"re:(a)(?1)\n", 1, PII_EREGEX, "line 1: recursion"},
        {"re:(*MARK:x)a\n", 1, PII_EREGEX, "line 1: (*VERB)"},
        {"re:(a)\\1\n", 1, PII_EREGEX, "line 1: numbered back-references"},
        {"re:(?C1)a\n", 1, PII_EREGEX, "line 1: recursion, subroutine calls and callouts"},
        {"re:a?\n", 1, PII_EREGEX, "line 1: the expression can match an empty string"},
        {"re:a)(b\n", 1, PII_EREGEX, "line 1: "},
        {"bad label\tvalue\n", 1, PII_EFORMAT, "line 1: bad label"},
        {"private_person\t\n", 1, PII_EFORMAT, "line 1: label without an entry"},
        {"caf\xc3\n", 1, PII_EFORMAT, "line 1: not valid UTF-8"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *p = tmp_list(bad[i].text, strlen(bad[i].text));
        msg[0] = 0;
        void *obj = bad[i].deny ? (void *)pii_deny_load(p, &e, msg, sizeof msg)
                                : (void *)pii_allow_load(p, &e, msg, sizeof msg);
        unlink(p);
        if (obj || e != bad[i].want || strncmp(msg, bad[i].msg, strlen(bad[i].msg)) != 0) {
            fprintf(stderr, "case %zu: %s \"%s\"\n", i, pii_errname(e), msg);
            fail();
        }
    }
}

/* One-shot spans of a deny list over text, checked against want[]. */
static void check_deny(const pii_deny *d, const char *text, const exp_span *want, size_t nw)
{
    pii_spanvec got = {0};
    const uint8_t *t = (const uint8_t *)text;
    size_t n = strlen(text);
    assert_int_equal(pii_deny_scan_all(d, t, n, &got), PII_OK);
    int ok = got.n == nw;
    for (size_t i = 0; ok && i < nw; i++)
        ok = strcmp(got.v[i].label, want[i].rule) == 0 && got.v[i].start == want[i].start &&
             got.v[i].end == want[i].end && got.v[i].source == PII_SRC_DENY &&
             memcmp(t + want[i].start, want[i].text, strlen(want[i].text)) == 0;
    if (!ok) {
        fprintf(stderr, "text: \"%s\"\n", text);
        print_spans("got", t, &got);
        fail();
    }
    check_stream_exact(pii_deny_detector(d), &got, t, n, 20, 7);
    pii_spanvec_free(&got);
}

static void test_deny_literals(void **state)
{
    (void)state;
    pii_deny *d = DENY("# people\n"
                       "private_person\tBob\n"
                       "private_person\tBob Smith\n"
                       "private_address\tNew York\n"
                       "private_address\tNew York City\n"
                       "Project Falcon\n"
                       "+1 555\n"
                       "private_person\tM\xc3\xbcller\n"
                       "x-\n");
    /* label in exp_span.rule */
    exp_span w1[] = {{"private_person", 0, 3, "Bob"},
                     {"private_person", 18, 27, "Bob Smith"},
                     {"private_address", 31, 44, "New York City"},
                     {"secret", 46, 60, "Project Falcon"}};
    check_deny(d, "Bob met Bobby and Bob Smith in New York City; Project Falcon.", w1, 4);
    exp_span w2[] = {{"secret", 4, 10, "+1 555"},
                     {"private_person", 16, 23, "M\xc3\xbcller"},
                     {"secret", 28, 30, "x-"}};
    check_deny(d, "tel:+1 555, Dr. M\xc3\xbcller, ax-x-y", w2, 3);
    check_deny(d, "tel:+1 5550", NULL, 0); /* "+1 555" ends with a digit */
    exp_span w3[] = {{"private_address", 0, 8, "New York"}};
    check_deny(d, "New York Cityscape, M\xc3\xbcllers, _Bob, Bob_", w3, 1);
    pii_spanvec sv = {0};
    assert_int_equal(pii_deny_scan_all(d, (const uint8_t *)"x", 1, &sv), PII_OK);
    assert_int_equal(sv.n, 0);
    assert_int_equal(pii_deny_scan_all(d, (const uint8_t *)"Bob", 3, &sv), PII_OK);
    assert_int_equal(sv.n, 1);
    assert_string_equal(sv.v[0].rule, "deny");
    pii_spanvec_free(&sv);
    pii_deny_free(d);
    pii_deny_free(NULL);
}

static void test_deny_regex(void **state)
{
    (void)state;
    pii_deny *d = DENY("account_number\tre:ACME-[0-9]{4}\n"
                       "re:(?i)project [a-z]{3,12}\n"
                       "re:\\Q*+\\E[a-c]{1,3}+\n"
                       "re:[*+]{1,2}x\n"
                       "re:(?:ab){2,3}\n"
                       "ACME-0000\n");
    exp_span w[] = {{"secret", 0, 9, "ACME-0000"}, /* literals before regexes */
                    {"account_number", 10, 19, "ACME-1234"},
                    {"secret", 20, 34, "PROJECT falcon"},
                    {"secret", 35, 40, "*+abc"},
                    {"secret", 41, 44, "++x"},
                    {"secret", 45, 51, "ababab"}};
    check_deny(d, "ACME-0000 ACME-1234 PROJECT falcon *+abc ++x abababab", w, 6);
    pii_deny_free(d);
    /* an empty list never matches */
    d = DENY("# none\n");
    check_deny(d, "anything at all", NULL, 0);
    pii_deny_free(d);
}

static void test_deny_hold_cap(void **state)
{
    (void)state;
    /* Bounded, but up to 1.2 MB long: streaming fails closed past 1 MiB. */
    pii_deny *d = DENY("re:x(?:[^y]{0,60000}){0,20}y\n");
    pii_detector det = pii_deny_detector(d);
    pii_err e;
    void *st = det.cls->open(det.shared, &e);
    assert_non_null(st);
    size_t cap = 3 << 20;
    uint8_t *buf = malloc(cap);
    assert_non_null(buf);
    memset(buf, 'a', cap);
    buf[10] = 'x';
    pii_spanvec sv = {0};
    uint64_t base = 0, done = 0, keep = 0;
    size_t held = 0, fed = 0;
    pii_err last = PII_OK;
    while (fed < cap && last == PII_OK) {
        fed += 65536;
        held = fed - (size_t)base;
        last = det.cls->scan(st, buf + base, held, base, 0, &sv, &done, &keep);
        if (last == PII_OK)
            base = keep;
    }
    assert_int_equal(last, PII_ETOOBIG);
    assert_true(fed <= (1 << 20) + 2 * 65536);
    det.cls->close(st);
    pii_spanvec_free(&sv);
    free(buf);
    pii_deny_free(d);
}

/* ---- large lists and a brute-force reference ------------------------------- */

static void test_deny_many(void **state)
{
    (void)state;
    const size_t n = 20000;
    size_t cap = n * 40, len = 0;
    char *txt = malloc(cap);
    assert_non_null(txt);
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(txt + len, cap - len, "private_person\tName%zu Surname%zu\n", i,
                                i * 7919 % 100003);
    const char *path = tmp_list(txt, len);
    pii_err e;
    char msg[200];
    pii_deny *d = pii_deny_load(path, &e, msg, sizeof msg);
    unlink(path);
    free(txt);
    assert_non_null(d);
    const char *doc = "Hi Name12345 Surname57124, and Name0 Surname0x, Name19999 Surname5080.";
    pii_spanvec sv = {0};
    assert_int_equal(pii_deny_scan_all(d, (const uint8_t *)doc, strlen(doc), &sv), PII_OK);
    /* 12345 * 7919 % 100003 = 57124; "Surname0x" continues a word: no match;
     * 19999 * 7919 % 100003 = 67332, not 5080: no match */
    assert_int_equal(sv.n, 1);
    assert_int_equal(sv.v[0].start, 3);
    assert_int_equal(sv.v[0].end, 25);
    check_stream_exact(pii_deny_detector(d), &sv, (const uint8_t *)doc, strlen(doc), 10, 3);
    pii_spanvec_free(&sv);
    pii_deny_free(d);
}

static uint64_t rs = 88172645463325252ull;

static unsigned rnd(unsigned n)
{
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return (unsigned)(rs % n);
}

/* The fuzz alphabet: word characters a, b, é; non-word '-', ' '; and (in
 * texts only) an invalid byte. */
static const char *const atoms[] = {"a", "b", "\xc3\xa9", "-", " ", "\xff"};

static int ref_word_before(const char *t, size_t p)
{
    if (p == 0)
        return 0;
    unsigned char c = (unsigned char)t[p - 1];
    if (c == 'a' || c == 'b')
        return 1;
    return c == 0xa9 && p >= 2 && (unsigned char)t[p - 2] == 0xc3;
}

static int ref_word_at(const char *t, size_t p, size_t n)
{
    if (p >= n)
        return 0;
    unsigned char c = (unsigned char)t[p];
    if (c == 'a' || c == 'b')
        return 1;
    return c == 0xc3 && p + 1 < n && (unsigned char)t[p + 1] == 0xa9;
}

static void test_deny_fuzz(void **state)
{
    (void)state;
    for (int it = 0; it < 300; it++) {
        char lits[8][16], list[256], text[200];
        size_t nl = 1 + rnd(6), ll = 0, tl = 0;
        for (size_t i = 0; i < nl; i++) {
            size_t k = 0, m = 1 + rnd(4);
            for (size_t j = 0; j < m; j++) {
                /* no blank at either end: list lines are trimmed */
                const char *a = atoms[(j == 0 || j == m - 1) ? rnd(4) : rnd(5)];
                memcpy(lits[i] + k, a, strlen(a));
                k += strlen(a);
            }
            lits[i][k] = 0;
            ll += (size_t)snprintf(list + ll, sizeof list - ll, "L%zu\t%s\n", i, lits[i]);
        }
        size_t m = 10 + rnd(40);
        for (size_t j = 0; j < m; j++) {
            const char *a = atoms[rnd(6)];
            memcpy(text + tl, a, strlen(a));
            tl += strlen(a);
        }
        text[tl] = 0;
        const char *path = tmp_list(list, ll);
        pii_err e;
        char msg[200];
        pii_deny *d = pii_deny_load(path, &e, msg, sizeof msg);
        unlink(path);
        if (!d)
            fprintf(stderr, "list:\n%s-> %s\n", list, msg);
        assert_non_null(d);
        /* reference */
        pii_spanvec want = {0};
        for (size_t p = 0; p < tl;) {
            size_t best = 0;
            long bi = -1;
            for (size_t i = 0; i < nl; i++) {
                size_t k = strlen(lits[i]);
                if (p + k > tl || memcmp(text + p, lits[i], k) != 0 || k <= best)
                    continue;
                if (ref_word_at(lits[i], 0, k) && ref_word_before(text, p))
                    continue;
                if (ref_word_before(lits[i], k) && ref_word_at(text, p + k, tl))
                    continue;
                best = k;
                bi = (long)i;
            }
            if (bi < 0) {
                p++;
                continue;
            }
            /* the first list entry with that string names the label */
            for (size_t i = 0; i < nl; i++)
                if (strcmp(lits[i], lits[bi]) == 0) {
                    bi = (long)i;
                    break;
                }
            static char labels[8][24];
            snprintf(labels[bi], sizeof labels[bi], "L%ld", bi);
            pii_span sp = {.start = p,
                           .end = p + best,
                           .label = labels[bi],
                           .rule = "deny",
                           .score = 1.0f,
                           .source = PII_SRC_DENY};
            assert_int_equal(pii_spanvec_push(&want, &sp), PII_OK);
            p += best;
        }
        pii_spanvec got = {0};
        assert_int_equal(pii_deny_scan_all(d, (const uint8_t *)text, tl, &got), PII_OK);
        if (!spans_equal(&got, &want)) {
            fprintf(stderr, "list:\n%stext: \"%s\"\n", list, text);
            print_spans("want", (const uint8_t *)text, &want);
            print_spans("got", (const uint8_t *)text, &got);
            fail();
        }
        check_stream_exact(pii_deny_detector(d), &want, (const uint8_t *)text, tl, 5, (uint64_t)it);
        pii_spanvec_free(&want);
        pii_spanvec_free(&got);
        pii_deny_free(d);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_allow),         cmocka_unit_test(test_load_errors),
        cmocka_unit_test(test_deny_literals), cmocka_unit_test(test_deny_regex),
        cmocka_unit_test(test_deny_hold_cap), cmocka_unit_test(test_deny_many),
        cmocka_unit_test(test_deny_fuzz),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
