/* test_wide_guard.c — the wide-text guard (redact/wide.c): UTF-16 and
 * UTF-32 text is caught whatever the chunking, UTF-8 text and random
 * bytes are not, and a stream with the guard on refuses wide text while
 * one with it off passes it through. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pii_redact.h"

/* ASCII text to a wide encoding: unit 2 or 4 bytes, big-endian or not. */
static size_t widen(const char *s, int unit, int be, uint8_t *out)
{
    size_t n = 0;
    for (; *s; s++) {
        for (int k = 0; k < unit; k++)
            out[n + k] = 0;
        out[n + (be ? unit - 1 : 0)] = (uint8_t)*s;
        n += (size_t)unit;
    }
    return n;
}

/* Feeds p in pieces of `step` bytes; returns the first error. */
static pii_err feed_steps(const uint8_t *p, size_t n, size_t step, uint64_t *at)
{
    pii_wide w;
    pii_wide_init(&w);
    pii_err e = PII_OK;
    for (size_t i = 0; i < n && !e; i += step)
        e = pii_wide_feed(&w, p + i, n - i < step ? n - i : step);
    if (at)
        *at = w.hit_at;
    return e;
}

static void every_chunking(const uint8_t *p, size_t n, pii_err want, uint64_t want_at)
{
    for (size_t step = 1; step <= n + 1; step++) {
        uint64_t at = 0;
        pii_err e = feed_steps(p, n, step, &at);
        assert_int_equal(e, want);
        if (want)
            assert_int_equal(at, want_at);
    }
}

static void test_wide_encodings(void **state)
{
    (void)state;
    uint8_t buf[512];
    const char *t = "Mail maria.garcia@example.com now";
    for (int unit = 2; unit <= 4; unit += 2)
        for (int be = 0; be <= 1; be++) {
            size_t n = widen(t, unit, be, buf);
            /* little-endian: the window starts at the first unit; big-endian
             * one byte later (after the leading NUL) */
            every_chunking(buf, n, PII_EENCODING, be ? (uint64_t)unit - 1 : 0);
        }
}

static void test_wide_after_utf8(void **state)
{
    (void)state;
    /* 9,000 bytes of UTF-8 (CJK), then UTF-16LE: caught after byte 9,000 */
    size_t pre = 9000, n;
    uint8_t *buf = malloc(pre + 200);
    assert_non_null(buf);
    for (size_t i = 0; i < pre; i += 3)
        memcpy(buf + i, "\xe4\xb8\xad", 3);
    n = pre + widen("Maria Garcia", 2, 0, buf + pre);
    every_chunking(buf, n, PII_EENCODING, pre);
    /* UTF-16 CJK (no NUL: 2D 4E ...) then ASCII in UTF-16 */
    for (size_t i = 0; i < pre; i += 2)
        memcpy(buf + i, "\x2d\x4e", 2);
    n = pre + widen(" +1 415", 2, 0, buf + pre);
    every_chunking(buf, n, PII_EENCODING, pre);
    free(buf);
}

static void test_wide_bom(void **state)
{
    (void)state;
    every_chunking((const uint8_t *)"\xff\xfe", 2, PII_EENCODING, 0);
    every_chunking((const uint8_t *)"\xfe\xff\x4e\x2d", 4, PII_EENCODING, 0);
    every_chunking((const uint8_t *)"\x00\x00\xfe\xff", 4, PII_EENCODING, 0);
    /* not at offset 0: an invalid UTF-8 byte pair, not a mark */
    every_chunking((const uint8_t *)"x\xff\xfe", 3, PII_OK, 0);
    /* the UTF-8 mark is fine */
    every_chunking((const uint8_t *)"\xef\xbb\xbfhello", 8, PII_OK, 0);
}

static void test_wide_negatives(void **state)
{
    (void)state;
    /* three ASCII characters in UTF-16, or two in UTF-32: below the bar */
    uint8_t buf[64];
    size_t n = widen("abc", 2, 0, buf);
    every_chunking(buf, n, PII_OK, 0);
    n = widen("ab", 4, 0, buf);
    every_chunking(buf, n, PII_OK, 0);
    /* NUL bytes between non-text bytes (little-endian integers) */
    const uint8_t ints[] = {1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 0, 0, 6, 0, 0, 0, 7, 0, 0, 0};
    every_chunking(ints, sizeof ints, PII_OK, 0);
    /* UTF-8 text with single NULs */
    const char *u = "caf\xc3\xa9\0 na\0ve \xe4\xb8\xad\xe6\x96\x87\0\0 ok";
    every_chunking((const uint8_t *)u, 25, PII_OK, 0);
    /* 4 MB of pseudo-random bytes with no leading mark: no hit expected
     * (about 4e-12 per position) */
    size_t big = 4u << 20;
    uint8_t *r = malloc(big);
    assert_non_null(r);
    uint64_t x = 0x9E3779B97F4A7C15u;
    for (size_t i = 0; i < big; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        r[i] = (uint8_t)(x >> 24);
    }
    r[0] = 'x';
    assert_int_equal(feed_steps(r, big, 65536, NULL), PII_OK);
    free(r);
}

typedef struct out {
    uint8_t b[256];
    size_t n;
} out;

static pii_err wr(void *ud, const uint8_t *p, size_t n)
{
    out *o = ud;
    assert_true(o->n + n <= sizeof o->b);
    memcpy(o->b + o->n, p, n);
    o->n += n;
    return PII_OK;
}

static void test_wide_stream(void **state)
{
    (void)state;
    pii_err e;
    pii_redactor *r = pii_redactor_create(&e);
    assert_non_null(r);
    uint8_t wide[128];
    size_t n = widen("Call Maria Garcia", 2, 0, wide);
    for (int on = 0; on <= 1; on++) {
        out o = {{0}, 0};
        pii_sink sink = {wr, NULL, NULL, &o};
        pii_redactor_set_wide_guard(r, on);
        assert_int_equal(pii_redactor_wide_guard(r), on);
        pii_stream *st = pii_stream_create(r, &sink, &e);
        assert_non_null(st);
        assert_int_equal(pii_stream_feed(st, "ok\n", 3), PII_OK);
        assert_int_equal(pii_stream_end_doc(st), PII_OK);
        e = pii_stream_feed(st, wide, n);
        if (!e)
            e = pii_stream_end_doc(st);
        assert_int_equal(e, on ? PII_EENCODING : PII_OK);
        if (on) { /* sticky, and only the first document was written */
            assert_int_equal(pii_stream_feed(st, "x", 1), PII_EENCODING);
            assert_int_equal(o.n, 3);
        } else {
            assert_int_equal(o.n, 3 + n);
            assert_memory_equal(o.b + 3, wide, n);
        }
        pii_stream_free(st);
    }
    /* a new input looks for a byte-order mark again */
    pii_redactor_set_wide_guard(r, 1);
    out o = {{0}, 0};
    pii_sink sink = {wr, NULL, NULL, &o};
    pii_stream *st = pii_stream_create(r, &sink, &e);
    assert_int_equal(pii_stream_feed(st, "ab", 2), PII_OK);
    assert_int_equal(pii_stream_end_doc(st), PII_OK);
    assert_int_equal(pii_stream_feed(st, "\xff\xfe", 2), PII_OK); /* same input */
    assert_int_equal(pii_stream_end_doc(st), PII_OK);
    pii_stream_new_input(st);
    assert_int_equal(pii_stream_feed(st, "\xff\xfe", 2), PII_EENCODING);
    pii_stream_free(st);
    pii_redactor_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wide_encodings), cmocka_unit_test(test_wide_after_utf8),
        cmocka_unit_test(test_wide_bom),       cmocka_unit_test(test_wide_negatives),
        cmocka_unit_test(test_wide_stream),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
