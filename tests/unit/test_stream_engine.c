/* test_stream_engine.c — the streaming engine with synthetic detectors:
 * chunking never changes the output, overlapping spans merge, failures
 * stop output at a prefix of the correct output. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pii_redact.h"

/* ---- synthetic detectors ------------------------------------------------
 * digits: maximal digit runs of length >= 3 → private_phone.
 * alnum:  maximal [A-Za-z0-9] runs holding a letter and a digit → secret.
 * Both hold back a run that touches the buffer end, as a real detector
 * holds back a match that may still grow. */
typedef struct fake {
    int kind;    /* 0 digits, 1 alnum */
    int fail_at; /* fail on this scan call (0: never) */
    int calls;
} fake;

static int is_digit(uint8_t c)
{
    return c >= '0' && c <= '9';
}
static int is_alnum(uint8_t c)
{
    return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static void *fake_open(const void *shared, pii_err *err)
{
    fake *f = calloc(1, sizeof *f);
    *f = *(const fake *)shared;
    *err = f ? PII_OK : PII_ENOMEM;
    return f;
}

static pii_err fake_scan(void *st, const uint8_t *buf, size_t len, uint64_t base, int eod,
                         pii_spanvec *out, uint64_t *done, uint64_t *keep)
{
    fake *f = st;
    if (f->fail_at && ++f->calls == f->fail_at)
        return PII_EMODEL;
    int (*in)(uint8_t) = f->kind == 0 ? is_digit : is_alnum;
    uint64_t end = base + len, i = *done;
    while (i < end) {
        if (!in(buf[i - base])) {
            i++;
            continue;
        }
        uint64_t j = i;
        int letters = 0, digits = 0;
        while (j < end && in(buf[j - base])) {
            digits += is_digit(buf[j - base]);
            letters += !is_digit(buf[j - base]);
            j++;
        }
        if (j == end && !eod) {
            *done = *keep = i;
            return PII_OK;
        }
        int hit = f->kind == 0 ? (j - i >= 3) : (letters && digits);
        if (hit) {
            pii_span s = {i,
                          j,
                          f->kind ? "secret" : "private_phone",
                          f->kind ? "alnum" : "digits",
                          1.0f,
                          PII_SRC_RULE};
            pii_err e = pii_spanvec_push(out, &s);
            if (e)
                return e;
        }
        i = j;
    }
    *done = *keep = end;
    return PII_OK;
}

static void fake_reset(void *st)
{
    ((fake *)st)->calls = 0;
}

static const pii_detector_class fake_cls = {"fake", fake_open, fake_scan, fake_reset, free, NULL};

/* ---- a capturing sink ---------------------------------------------------- */
typedef struct cap {
    char out[8192];
    size_t n;
    char spans[8192];
    size_t ns;
} cap;

static pii_err cap_write(void *ud, const uint8_t *p, size_t n)
{
    cap *c = ud;
    assert_true(c->n + n <= sizeof c->out);
    memcpy(c->out + c->n, p, n);
    c->n += n;
    return PII_OK;
}

static pii_err cap_span(void *ud, const pii_span *s, const uint8_t *v, size_t len, uint64_t c0,
                        uint64_t c1)
{
    cap *c = ud;
    (void)v;
    (void)len;
    c->ns += (size_t)snprintf(c->spans + c->ns, sizeof c->spans - c->ns, "%s:%llu-%llu/%llu-%llu;",
                              s->label, (unsigned long long)s->start, (unsigned long long)s->end,
                              (unsigned long long)c0, (unsigned long long)c1);
    return PII_OK;
}

static pii_err cap_end(void *ud)
{
    cap *c = ud;
    c->out[c->n++] = '|';
    return PII_OK;
}

static fake digits = {0, 0, 0}, alnum = {1, 0, 0};

static pii_redactor *make_redactor(fake *a, fake *b)
{
    pii_err e;
    pii_redactor *r = pii_redactor_create(&e);
    assert_non_null(r);
    pii_detector d1 = {&fake_cls, a}, d2 = {&fake_cls, b};
    assert_int_equal(pii_redactor_add_detector(r, d1), PII_OK);
    if (b)
        assert_int_equal(pii_redactor_add_detector(r, d2), PII_OK);
    return r;
}

/* Feeds `text` in the given chunk lengths (the rest in one piece). */
static pii_err run(pii_redactor *r, const char *text, size_t len, const size_t *cuts, size_t ncuts,
                   cap *c)
{
    pii_sink sink = {cap_write, cap_span, cap_end, c};
    pii_err e;
    memset(c, 0, sizeof *c);
    pii_stream *s = pii_stream_create(r, &sink, &e);
    assert_non_null(s);
    size_t off = 0;
    for (size_t i = 0; i < ncuts && !e; i++) {
        size_t n = cuts[i] < len - off ? cuts[i] : len - off;
        e = pii_stream_feed(s, text + off, n);
        off += n;
    }
    if (!e)
        e = pii_stream_feed(s, text + off, len - off);
    if (!e)
        e = pii_stream_end_doc(s);
    pii_stream_free(s);
    return e;
}

static void test_merge_and_placeholders(void **state)
{
    (void)state;
    pii_redactor *r = make_redactor(&digits, &alnum);
    cap c;
    const char *t = "call 5550100 or ab12345 x 99 z9";
    assert_int_equal(run(r, t, strlen(t), NULL, 0, &c), PII_OK);
    c.out[c.n] = 0;
    assert_string_equal(c.out, "call <PRIVATE_PHONE> or <SECRET> x 99 <SECRET>|");
    c.spans[c.ns] = 0;
    assert_string_equal(c.spans, "private_phone:5-12/5-12;secret:16-23/16-23;secret:29-31/29-31;");
    pii_redactor_free(r);
}

/* pii_stream_undecided: the bytes put and not yet written (a live-input
 * driver ends the document at a pause only when it is non-zero). */
static void test_undecided(void **state)
{
    (void)state;
    pii_redactor *r = make_redactor(&digits, NULL);
    cap c;
    memset(&c, 0, sizeof c);
    pii_sink sink = {cap_write, cap_span, cap_end, &c};
    pii_err e;
    pii_stream *s = pii_stream_create(r, &sink, &e);
    assert_non_null(s);
    assert_int_equal(pii_stream_undecided(s), 0);
    assert_int_equal(pii_stream_feed(s, "call 555", 8), PII_OK); /* the run may grow */
    assert_int_equal(c.n, 5);
    assert_int_equal(pii_stream_undecided(s), 3);
    assert_int_equal(pii_stream_feed(s, "0100 now\n", 9), PII_OK);
    assert_int_equal(pii_stream_undecided(s), 0); /* all decided and written */
    assert_int_equal(pii_stream_feed(s, "x 12", 4), PII_OK);
    assert_int_equal(pii_stream_undecided(s), 2);
    assert_int_equal(pii_stream_end_doc(s), PII_OK);
    assert_int_equal(pii_stream_undecided(s), 0);
    c.out[c.n] = 0;
    assert_string_equal(c.out, "call <PRIVATE_PHONE> now\nx 12|");
    /* the same through pii_stream_put (no lookahead here: fed at once) */
    assert_int_equal(pii_stream_put(s, "tel 123", 7, PII_STREAM_FLUSH), PII_OK);
    assert_int_equal(pii_stream_undecided(s), 3);
    pii_stream_free(s);
    pii_redactor_free(r);
}

static void test_every_split_equals_one_shot(void **state)
{
    (void)state;
    static const char *alphabet[] = {"a",  "B",        "1",    "2",        "7",    " ",
                                     "\n", "\xc3\xa9", "\xff", "\xe2\x82", "\r\n", "\0"};
    pii_redactor *r = make_redactor(&digits, &alnum);
    srand(7);
    for (int round = 0; round < 60; round++) {
        char text[400];
        size_t len = 0;
        while (len < 300) {
            const char *a = alphabet[rand() % 12];
            size_t k = a[0] ? strlen(a) : 1;
            memcpy(text + len, a, k);
            len += k;
        }
        cap one, two;
        assert_int_equal(run(r, text, len, NULL, 0, &one), PII_OK);
        for (size_t cut = 0; cut <= len; cut += (round < 10 ? 1 : 7)) {
            assert_int_equal(run(r, text, len, &cut, 1, &two), PII_OK);
            assert_int_equal(one.n, two.n);
            assert_memory_equal(one.out, two.out, one.n);
            assert_int_equal(one.ns, two.ns);
            assert_memory_equal(one.spans, two.spans, one.ns);
        }
        size_t cuts[300];
        for (size_t i = 0; i < 300; i++)
            cuts[i] = (size_t)(rand() % 5);
        assert_int_equal(run(r, text, len, cuts, 300, &two), PII_OK);
        assert_int_equal(one.n, two.n);
        assert_memory_equal(one.out, two.out, one.n);
        assert_memory_equal(one.spans, two.spans, one.ns);
    }
    pii_redactor_free(r);
}

static void test_codepoint_offsets(void **state)
{
    (void)state;
    pii_redactor *r = make_redactor(&digits, NULL);
    cap c;
    const char *t = "\xc3\xa9\xe2\x82\xac\xff 1234 \xf0\x9f\x91\x8b 567";
    assert_int_equal(run(r, t, strlen(t), NULL, 0, &c), PII_OK);
    c.spans[c.ns] = 0;
    /* é (2 bytes) € (3) \xff (1, invalid) ' ' → 1234 at byte 7, cp 4 */
    assert_string_equal(c.spans, "private_phone:7-11/4-8;private_phone:17-20/11-14;");
    pii_redactor_free(r);
}

static void test_failure_is_prefix(void **state)
{
    (void)state;
    const char *t = "aaa 111 bbb 222 ccc 333 ddd 444 eee";
    cap good, bad;
    pii_redactor *r = make_redactor(&digits, NULL);
    assert_int_equal(run(r, t, strlen(t), NULL, 0, &good), PII_OK);
    pii_redactor_free(r);
    fake failing = {0, 4, 0};
    r = make_redactor(&failing, NULL);
    size_t cuts[] = {5, 5, 5, 5, 5, 5};
    assert_int_equal(run(r, t, strlen(t), cuts, 6, &bad), PII_EMODEL);
    assert_true(bad.n < good.n);
    assert_memory_equal(bad.out, good.out, bad.n);
    pii_redactor_free(r);
}

static void test_label_selection(void **state)
{
    (void)state;
    pii_redactor *r = make_redactor(&digits, &alnum);
    const char *only[] = {"secret"};
    assert_int_equal(pii_redactor_select_labels(r, only, 1, 0), PII_OK);
    cap c;
    const char *t = "5550100 ab12";
    assert_int_equal(run(r, t, strlen(t), NULL, 0, &c), PII_OK);
    c.out[c.n] = 0;
    assert_string_equal(c.out, "5550100 <SECRET>|");
    assert_int_equal(pii_redactor_select_labels(r, only, 1, 1), PII_OK);
    assert_int_equal(run(r, t, strlen(t), NULL, 0, &c), PII_OK);
    c.out[c.n] = 0;
    assert_string_equal(c.out, "<PRIVATE_PHONE> ab12|");
    pii_redactor_free(r);
}

static void test_label_upper(void **state)
{
    (void)state;
    char b[32];
    assert_int_equal(pii_label_upper("private_email", b, sizeof b), 13);
    assert_string_equal(b, "PRIVATE_EMAIL");
    pii_label_upper("--credit card #", b, sizeof b);
    assert_string_equal(b, "CREDIT_CARD");
    pii_label_upper("***", b, sizeof b);
    assert_string_equal(b, "REDACTED");
    assert_int_equal(pii_category_index("secret"), 7);
    assert_int_equal(pii_category_index("nope"), -1);
}

/* ---- PII_STREAM_AHEAD: documents the caller holds, on the one queue ------ */
static char ahead_log[256];
static size_t ahead_nlog;

/* The lookahead hook logs what it is told: "A<n>;" for n documents
 * computed together, "W;" for a withdrawal. */
static pii_err log_ahead(void *st, const uint8_t *const *docs, const size_t *lens, size_t n)
{
    (void)st, (void)docs, (void)lens;
    ahead_nlog += (size_t)snprintf(ahead_log + ahead_nlog, sizeof ahead_log - ahead_nlog,
                                   n ? "A%zu;" : "W;", n);
    return PII_OK;
}

static const pii_detector_class ahead_cls = {"ahead",    fake_open, fake_scan,
                                             fake_reset, free,      log_ahead};

static void feed_whole(pii_stream *s, const char *doc)
{
    assert_int_equal(pii_stream_feed(s, doc, strlen(doc)), PII_OK);
    assert_int_equal(pii_stream_end_doc(s), PII_OK);
}

static void test_put_ahead(void **state)
{
    (void)state;
    pii_err e;
    pii_redactor *r = pii_redactor_create(&e);
    pii_detector d = {&ahead_cls, &digits};
    assert_int_equal(pii_redactor_add_detector(r, d), PII_OK);
    cap c;
    memset(&c, 0, sizeof c);
    pii_sink sink = {cap_write, cap_span, cap_end, &c};
    pii_stream *s = pii_stream_create(r, &sink, &e);
    assert_non_null(s);
    static const char d0[] = "a 5550100", d1[] = "b 123", d2[] = "c 4567 d";
    ahead_nlog = 0;
    /* queued, computed at the flush, nothing written */
    assert_int_equal(pii_stream_put(s, d0, strlen(d0), PII_STREAM_AHEAD), PII_OK);
    assert_int_equal(pii_stream_put(s, d1, strlen(d1), PII_STREAM_AHEAD), PII_OK);
    assert_int_equal(c.n, 0);
    assert_int_equal(pii_stream_put(s, NULL, 0, PII_STREAM_FLUSH), PII_OK);
    assert_int_equal(c.n, 0);
    feed_whole(s, d0);
    /* d1 is never fed (a skipped file): the next group withdraws it
     * instead of refusing to start */
    assert_int_equal(pii_stream_put(s, d2, strlen(d2), PII_STREAM_AHEAD), PII_OK);
    feed_whole(s, d2); /* computed by the feed itself */
    /* a copy put before a held document is written first */
    assert_int_equal(pii_stream_put(s, "e 777\n", 6, PII_STREAM_END_DOC), PII_OK);
    assert_int_equal(pii_stream_put(s, d1, strlen(d1), PII_STREAM_AHEAD), PII_OK);
    assert_int_equal(pii_stream_put(s, NULL, 0, PII_STREAM_FLUSH), PII_OK);
    feed_whole(s, d1);
    ahead_log[ahead_nlog] = 0;
    assert_string_equal(ahead_log, "A2;W;A1;A1;A1;");
    c.out[c.n] = 0;
    assert_string_equal(
        c.out, "a <PRIVATE_PHONE>|c <PRIVATE_PHONE> d|e <PRIVATE_PHONE>\n|b <PRIVATE_PHONE>|");
    /* between documents only, at most a queue's worth; a refusal leaves
     * the stream working */
    assert_int_equal(pii_stream_feed(s, "x", 1), PII_OK);
    assert_int_equal(pii_stream_put(s, d0, strlen(d0), PII_STREAM_AHEAD), PII_EINVAL);
    assert_int_equal(pii_stream_end_doc(s), PII_OK);
    for (int i = 0; i < PII_STREAM_QUEUE_DOCS; i++)
        assert_int_equal(pii_stream_put(s, d0, strlen(d0), PII_STREAM_AHEAD), PII_OK);
    assert_int_equal(pii_stream_put(s, d0, strlen(d0), PII_STREAM_AHEAD), PII_EINVAL);
    assert_int_equal(pii_stream_put(s, NULL, 0, PII_STREAM_FLUSH), PII_OK);
    feed_whole(s, d0);
    pii_stream_free(s);
    pii_redactor_free(r);
    /* without a lookahead detector it does nothing */
    r = make_redactor(&digits, NULL);
    memset(&c, 0, sizeof c);
    s = pii_stream_create(r, &sink, &e);
    assert_int_equal(pii_stream_put(s, d0, strlen(d0), PII_STREAM_AHEAD), PII_OK);
    assert_int_equal(pii_stream_put(s, NULL, 0, PII_STREAM_FLUSH), PII_OK);
    assert_int_equal(c.n, 0);
    feed_whole(s, d0);
    c.out[c.n] = 0;
    assert_string_equal(c.out, "a <PRIVATE_PHONE>|");
    pii_stream_free(s);
    pii_redactor_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_merge_and_placeholders),
        cmocka_unit_test(test_every_split_equals_one_shot),
        cmocka_unit_test(test_undecided),
        cmocka_unit_test(test_codepoint_offsets),
        cmocka_unit_test(test_failure_is_prefix),
        cmocka_unit_test(test_label_selection),
        cmocka_unit_test(test_label_upper),
        cmocka_unit_test(test_put_ahead),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
