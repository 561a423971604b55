/* rules_test_util.h — shared helpers of the test_rules_* and test_lists_*
 * suites (static functions; each suite is one binary).
 *
 * harness_feed() plays the stream's part of the detector contract: it
 * feeds a document in chunks cut at given offsets, keeps only the bytes
 * from the detector's last `keep` on, and copies that window into a heap
 * buffer of exactly its size before each scan (so ASan catches a read
 * outside it).  It checks the contract on every call. */
#ifndef RULES_TEST_UTIL_H
#define RULES_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pii_redact.h"
#include "redact/rules_internal.h"

typedef struct exp_span {
    const char *rule;
    unsigned start, end;
    const char *text;
} exp_span;

#define MAX_EXP 10
typedef struct rcase {
    const char *in;
    exp_span sp[MAX_EXP]; /* terminated by rule == NULL */
} rcase;

/* Feeds t[0..n) cut at cuts[0..ncuts) (increasing, may repeat) to a new
 * state of d; appends the spans to out; returns the largest window held. */
__attribute__((unused)) static size_t harness_feed(pii_detector d, const uint8_t *t, size_t n,
                                                   const size_t *cuts, size_t ncuts,
                                                   pii_spanvec *out)
{
    pii_err e = PII_OK;
    void *st = d.cls->open(d.shared, &e);
    assert_non_null(st);
    assert_int_equal(e, PII_OK);
    uint64_t base = 0, prev_done = 0, prev_keep = 0;
    size_t maxheld = 0, first_new = out->n;
    for (size_t c = 0; c <= ncuts; c++) {
        size_t end = c < ncuts ? cuts[c] : n;
        int eod = c == ncuts;
        assert_true(end >= base && end <= n);
        size_t len = end - base;
        uint8_t *win = malloc(len ? len : 1);
        assert_non_null(win);
        memcpy(win, t + base, len);
        uint64_t done = 0, keep = 0;
        size_t before = out->n;
        e = d.cls->scan(st, win, len, base, eod, out, &done, &keep);
        free(win);
        assert_int_equal(e, PII_OK);
        assert_true(done >= prev_done);
        assert_true(keep >= prev_keep);
        assert_true(keep <= done);
        assert_true(done <= end);
        assert_true(keep >= base);
        if (eod)
            assert_int_equal(done, n);
        for (size_t i = before; i < out->n; i++) {
            assert_true(out->v[i].start >= prev_done); /* promised by done */
            assert_true(out->v[i].end <= end);
            assert_true(out->v[i].start < out->v[i].end);
            if (i > first_new)
                assert_true(out->v[i].start >= out->v[i - 1].end);
        }
        prev_done = done;
        prev_keep = keep;
        if (len > maxheld)
            maxheld = len;
        base = keep;
    }
    d.cls->close(st);
    return maxheld;
}

__attribute__((unused)) static int spans_equal(const pii_spanvec *a, const pii_spanvec *b)
{
    if (a->n != b->n)
        return 0;
    for (size_t i = 0; i < a->n; i++) {
        const pii_span *x = &a->v[i], *y = &b->v[i];
        if (x->start != y->start || x->end != y->end || strcmp(x->label, y->label) != 0 ||
            (x->rule == NULL) != (y->rule == NULL) || (x->rule && strcmp(x->rule, y->rule) != 0) ||
            x->source != y->source)
            return 0;
    }
    return 1;
}

__attribute__((unused)) static void print_spans(const char *what, const uint8_t *t,
                                                const pii_spanvec *sv)
{
    fprintf(stderr, "  %s: %zu spans\n", what, sv->n);
    for (size_t i = 0; i < sv->n; i++)
        fprintf(stderr, "    %s %llu %llu \"%.*s\"\n", sv->v[i].rule,
                (unsigned long long)sv->v[i].start, (unsigned long long)sv->v[i].end,
                (int)(sv->v[i].end - sv->v[i].start), (const char *)t + sv->v[i].start);
}

/* Streaming equals one-shot for: every 2-chunk split, byte-by-byte feeding
 * with a repeated (empty) call, and `nrand` random multi-chunk splits. */
__attribute__((unused)) static void check_stream_exact(pii_detector d, const pii_spanvec *want,
                                                       const uint8_t *t, size_t n, unsigned nrand,
                                                       uint64_t seed)
{
    pii_spanvec got = {0};
    size_t *cuts = malloc((2 * n + 2) * sizeof *cuts);
    assert_non_null(cuts);
    for (size_t k = 0; k <= n; k++) {
        cuts[0] = k;
        pii_spanvec_clear(&got);
        harness_feed(d, t, n, cuts, 1, &got);
        if (!spans_equal(&got, want)) {
            fprintf(stderr, "split at %zu of \"%.*s\"\n", k, (int)n, (const char *)t);
            print_spans("want", t, want);
            print_spans("got", t, &got);
            fail();
        }
    }
    size_t m = 0;
    for (size_t k = 1; k <= n; k++) {
        cuts[m++] = k;
        if (k % 7 == 3)
            cuts[m++] = k; /* the same window again */
    }
    pii_spanvec_clear(&got);
    harness_feed(d, t, n, cuts, m, &got);
    assert_true(spans_equal(&got, want));
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
    for (unsigned r = 0; r < nrand; r++) {
        m = 0;
        size_t at = 0;
        while (at < n) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            at += 1 + (size_t)(x % (r % 3 == 0 ? 4 : 40));
            if (at < n)
                cuts[m++] = at;
        }
        pii_spanvec_clear(&got);
        harness_feed(d, t, n, cuts, m, &got);
        if (!spans_equal(&got, want)) {
            fprintf(stderr, "random split %u\n", r);
            print_spans("want", t, want);
            print_spans("got", t, &got);
            fail();
        }
    }
    pii_spanvec_free(&got);
    free(cuts);
}

/* The four engine variants: JIT x prefilter.  The rule suites test each
 * rule's shape, so they open the whole table (PII_RULES_BROAD: every date
 * and URL rule runs); rules_set_open_flags(rs, 0) opens the default
 * breadth (docs/LABELS.md). */
typedef struct rules_set {
    pii_rules *v[4];
    unsigned flags;
} rules_set;

__attribute__((unused)) static void rules_set_open_flags(rules_set *rs, unsigned flags)
{
    rs->flags = flags;
    for (int i = 0; i < 4; i++) {
        pii_err e = PII_OK;
        char msg[256] = "";
        rs->v[i] = pii_rules__create(rs->flags, !(i & 2), !(i & 1), &e, msg, sizeof msg);
        if (!rs->v[i])
            fprintf(stderr, "pii_rules__create: %s %s\n", pii_errname(e), msg);
        assert_non_null(rs->v[i]);
    }
}

__attribute__((unused)) static void rules_set_open(rules_set *rs)
{
    rules_set_open_flags(rs, PII_RULES_BROAD);
}

__attribute__((unused)) static void rules_set_close(rules_set *rs)
{
    for (int i = 0; i < 4; i++)
        pii_rules_free(rs->v[i]);
}

/* Checks every case: exact spans (rule, offsets, text) from the one-shot
 * scan, the same from every engine variant and from every 2-chunk split. */
__attribute__((unused)) static void check_cases_flags(const rcase *cases, size_t ncases,
                                                      unsigned flags)
{
    rules_set rs;
    rules_set_open_flags(&rs, flags);
    for (size_t c = 0; c < ncases; c++) {
        const uint8_t *t = (const uint8_t *)cases[c].in;
        size_t n = strlen(cases[c].in);
        pii_spanvec got = {0};
        assert_int_equal(pii_rules_scan_all(rs.v[0], t, n, &got), PII_OK);
        size_t ne = 0;
        while (ne < MAX_EXP && cases[c].sp[ne].rule)
            ne++;
        int ok = got.n == ne;
        for (size_t i = 0; ok && i < ne; i++) {
            const exp_span *x = &cases[c].sp[i];
            const pii_span *g = &got.v[i];
            ok = strcmp(g->rule, x->rule) == 0 && g->start == x->start && g->end == x->end &&
                 strlen(x->text) == x->end - x->start &&
                 memcmp(t + x->start, x->text, x->end - x->start) == 0 &&
                 g->source == PII_SRC_RULE && g->score == 1.0f;
        }
        if (!ok) {
            fprintf(stderr, "case %zu: \"%s\"\n  want:\n", c, cases[c].in);
            for (size_t i = 0; i < ne; i++)
                fprintf(stderr, "    %s %u %u \"%s\"\n", cases[c].sp[i].rule, cases[c].sp[i].start,
                        cases[c].sp[i].end, cases[c].sp[i].text);
            print_spans("got", t, &got);
            fail();
        }
        for (int v = 1; v < 4; v++) {
            pii_spanvec other = {0};
            assert_int_equal(pii_rules_scan_all(rs.v[v], t, n, &other), PII_OK);
            if (!spans_equal(&other, &got)) {
                fprintf(stderr, "case %zu, engine variant %d differs\n", c, v);
                print_spans("got", t, &other);
                fail();
            }
            pii_spanvec_free(&other);
        }
        check_stream_exact(pii_rules_detector(rs.v[0]), &got, t, n, 4, c);
        check_stream_exact(pii_rules_detector(rs.v[1]), &got, t, n, 0, c);
        pii_spanvec_free(&got);
    }
    rules_set_close(&rs);
}

/* check_cases_flags on the whole table (the rule suites). */
__attribute__((unused)) static void check_cases(const rcase *cases, size_t ncases)
{
    check_cases_flags(cases, ncases, PII_RULES_BROAD);
}

/* Case files: the rule suites' tables, one file a table, in
 * tests/unit/rules_cases/NAME.cases (found beside this header by its
 * __FILE__, which is relative to the source root under make, so the
 * binaries run from there as tests/run-unit.sh does).  The format, one
 * item a line:
 *   # ...                  a comment (also blank lines: they end nothing)
 *   text: TEXT             starts a case; TEXT is the input
 *   span: RULE START END VALUE
 *                          an expected span of the case above, in order:
 *                          rule name, byte offsets [START, END), and the
 *                          bytes there (VALUE, to the end of the line)
 * A case with no span lines is a hard negative.  In TEXT and VALUE a
 * backslash is written \\ and a byte below 0x20, 0x7f or above it \xHH
 * (two hex digits, either case); every other byte stands for itself (a
 * line ends at its newline; no carriage returns).  A file is at most
 * RCASE_FILE_MAX bytes; a malformed line fails the test with file:line. */
#define RCASE_FILE_MAX (1u << 20)
#define RCASE_MAX (4096u)

typedef struct rcase_file {
    char *buf; /* the file, decoded in place: the cases point into it */
    rcase *v;
    size_t n;
} rcase_file;

__attribute__((unused)) static void rcase_file_free(rcase_file *f)
{
    free(f->buf);
    free(f->v);
    memset(f, 0, sizeof *f);
}

/* Frees f and fails the test: PATH:LINE: WHY. */
#define RCASE_FAIL(f, path, line, ...)                                                             \
    do {                                                                                           \
        char why_[160];                                                                            \
        snprintf(why_, sizeof why_, __VA_ARGS__);                                                  \
        rcase_file_free(f);                                                                        \
        fail_msg("%s:%u: %s", path, line, why_);                                                   \
    } while (0)

/* Decodes s in place (the escapes above); 0 on a bad escape or a byte
 * that must be escaped. */
static int rcase_unescape(char *s)
{
    char *w = s;
    for (const char *r = s; *r; r++) {
        unsigned char c = (unsigned char)*r;
        if (c < 0x20 || c >= 0x7f)
            return 0;
        if (c != '\\') {
            *w++ = (char)c;
            continue;
        }
        if (r[1] == '\\') {
            *w++ = '\\';
            r++;
            continue;
        }
        unsigned v = 0;
        if (r[1] != 'x')
            return 0;
        for (int k = 2; k < 4; k++) {
            char h = r[k];
            v <<= 4;
            if (h >= '0' && h <= '9')
                v |= (unsigned)(h - '0');
            else if (h >= 'a' && h <= 'f')
                v |= (unsigned)(h - 'a' + 10);
            else if (h >= 'A' && h <= 'F')
                v |= (unsigned)(h - 'A' + 10);
            else
                return 0;
        }
        if (v == 0 || (v >= 0x20 && v < 0x7f && v != '\\'))
            return 0; /* NUL cannot be a C string; printable bytes stand for themselves */
        *w++ = (char)v;
        r += 3;
    }
    *w = 0;
    return 1;
}

/* Reads an unsigned decimal offset from *p up to a space. */
static int rcase_offset(char **p, unsigned *out)
{
    char *s = *p;
    unsigned long v = 0;
    if (*s < '0' || *s > '9')
        return 0;
    while (*s >= '0' && *s <= '9') {
        v = v * 10 + (unsigned long)(*s++ - '0');
        if (v > RCASE_FILE_MAX)
            return 0;
    }
    if (*s != ' ')
        return 0;
    *out = (unsigned)v;
    *p = s + 1;
    return 1;
}

static const char *rcase_dir(size_t *len)
{
    const char *h = __FILE__, *slash = strrchr(h, '/');
    *len = slash ? (size_t)(slash - h + 1) : 0;
    return h;
}

/* Loads tests/unit/rules_cases/NAME.cases into f (rcase_file_free). */
__attribute__((unused)) static void rcase_file_load(rcase_file *f, const char *name)
{
    memset(f, 0, sizeof *f);
    size_t dl;
    const char *dir = rcase_dir(&dl);
    char path[512];
    int pl = snprintf(path, sizeof path, "%.*srules_cases/%s.cases", (int)dl, dir, name);
    assert_true(pl > 0 && (size_t)pl < sizeof path);
    FILE *fp = fopen(path, "rb");
    if (!fp)
        fail_msg("%s: cannot open (run from the source root)", path);
    f->buf = malloc(RCASE_FILE_MAX + 1);
    assert_non_null(f->buf);
    size_t got = fread(f->buf, 1, RCASE_FILE_MAX + 1, fp);
    int err = ferror(fp);
    fclose(fp);
    if (err)
        RCASE_FAIL(f, path, 0u, "read error");
    if (got > RCASE_FILE_MAX)
        RCASE_FAIL(f, path, 0u, "larger than %u bytes", RCASE_FILE_MAX);
    if (got && f->buf[got - 1] != '\n')
        RCASE_FAIL(f, path, 0u, "no newline at the end");
    if (memchr(f->buf, 0, got))
        RCASE_FAIL(f, path, 0u, "a NUL byte");
    f->buf[got] = 0;
    size_t cap = 0;
    unsigned line = 0;
    for (char *s = f->buf; *s;) {
        char *nl = strchr(s, '\n');
        *nl = 0;
        line++;
        char *next = nl + 1;
        if (*s == 0 || *s == '#') {
            s = next;
            continue;
        }
        if (strncmp(s, "text: ", 6) == 0) {
            if (f->n == RCASE_MAX)
                RCASE_FAIL(f, path, line, "more than %u cases", RCASE_MAX);
            if (f->n == cap) {
                cap = cap ? 2 * cap : 64;
                rcase *nv = realloc(f->v, cap * sizeof *nv);
                if (!nv)
                    RCASE_FAIL(f, path, line, "out of memory");
                f->v = nv;
            }
            rcase *c = &f->v[f->n++];
            memset(c, 0, sizeof *c);
            if (!rcase_unescape(s + 6))
                RCASE_FAIL(f, path, line, "bad byte or escape in the text");
            c->in = s + 6;
        } else if (strncmp(s, "span: ", 6) == 0) {
            if (f->n == 0)
                RCASE_FAIL(f, path, line, "a span before any text");
            rcase *c = &f->v[f->n - 1];
            size_t k = 0;
            while (k < MAX_EXP && c->sp[k].rule)
                k++;
            if (k == MAX_EXP - 1)
                RCASE_FAIL(f, path, line, "more than %d spans in a case", MAX_EXP - 1);
            char *rule = s + 6, *sp = strchr(rule, ' ');
            if (!sp || sp == rule)
                RCASE_FAIL(f, path, line, "want: span: RULE START END VALUE");
            *sp = 0;
            char *p = sp + 1;
            exp_span *x = &c->sp[k];
            if (!rcase_offset(&p, &x->start) || !rcase_offset(&p, &x->end) || x->start >= x->end)
                RCASE_FAIL(f, path, line, "want: span: RULE START END VALUE (START < END)");
            if (!rcase_unescape(p))
                RCASE_FAIL(f, path, line, "bad byte or escape in the value");
            x->rule = rule;
            x->text = p;
        } else {
            RCASE_FAIL(f, path, line, "want a comment, text: or span:");
        }
        s = next;
    }
    if (f->n == 0)
        RCASE_FAIL(f, path, line, "no cases");
}

/* check_cases_flags on the cases of tests/unit/rules_cases/NAME.cases. */
__attribute__((unused)) static void check_case_file_flags(const char *name, unsigned flags)
{
    rcase_file f;
    rcase_file_load(&f, name);
    check_cases_flags(f.v, f.n, flags);
    rcase_file_free(&f);
}

/* check_case_file_flags with the whole table (the rule suites). */
__attribute__((unused)) static void check_case_file(const char *name)
{
    check_case_file_flags(name, PII_RULES_BROAD);
}

/* The whole of a suite that is one file of cases: a cmocka test TEST that
 * runs check_case_file on NAME (rules_cases/NAME.cases), and the main()
 * that runs it. */
#define RULES_CASES_MAIN(test, name)                                                               \
    static void test(void **state)                                                                 \
    {                                                                                              \
        (void)state;                                                                               \
        check_case_file(name);                                                                     \
    }                                                                                              \
                                                                                                   \
    int main(void)                                                                                 \
    {                                                                                              \
        const struct CMUnitTest tests[] = {cmocka_unit_test(test)};                                \
        return cmocka_run_group_tests(tests, NULL, NULL);                                          \
    }

#endif
