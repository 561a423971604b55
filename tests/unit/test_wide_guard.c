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
#include "unit_util.h"

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

/* UTF-8 to UTF-16 (no byte-order mark), little- or big-endian. */
static size_t utf16(const char *s, int be, uint8_t *out)
{
    const uint8_t *p = (const uint8_t *)s, *end = p + strlen(s);
    size_t n = 0;
    while (p < end) {
        size_t k = pii_utf8_valid(p, end);
        assert_true(k > 0);
        uint32_t cp =
            k == 1   ? p[0]
            : k == 2 ? (uint32_t)(p[0] & 0x1F) << 6 | (p[1] & 0x3F)
            : k == 3 ? (uint32_t)(p[0] & 0x0F) << 12 | (uint32_t)(p[1] & 0x3F) << 6 | (p[2] & 0x3F)
                     : (uint32_t)(p[0] & 0x07) << 18 | (uint32_t)(p[1] & 0x3F) << 12 |
                           (uint32_t)(p[2] & 0x3F) << 6 | (p[3] & 0x3F);
        p += k;
        uint16_t u[2];
        size_t nu = 1;
        if (cp >= 0x10000) {
            cp -= 0x10000;
            u[0] = (uint16_t)(0xD800 + (cp >> 10)), u[1] = (uint16_t)(0xDC00 + (cp & 0x3FF));
            nu = 2;
        } else {
            u[0] = (uint16_t)cp;
        }
        for (size_t i = 0; i < nu; i++) {
            out[n + (be ? 0 : 1)] = (uint8_t)(u[i] >> 8);
            out[n + (be ? 1 : 0)] = (uint8_t)u[i];
            n += 2;
        }
    }
    return n;
}

/* Text with no four ASCII characters in a row (rules 3 and 4 of the
 * contract): caught in UTF-16LE and UTF-16BE whatever the chunking (at the
 * offset one feed reports, within the first 128 bytes), passed in UTF-8. */
static const char *const scripts[] = {
    /* Russian */
    "Позвоните Марии Гарсии завтра утром, она ждёт вашего звонка. Её адрес: "
    "улица Ленина, дом семь, квартира двенадцать.\n",
    /* Greek */
    "Η Μαρία Γκαρσία μένει στην οδό Ερμού και το τηλέφωνό της είναι γνωστό "
    "μόνο στους φίλους της.\n",
    /* Arabic */
    "اتصل بماريا غارسيا غدا صباحا، إنها تنتظر مكالمتك. عنوانها شارع النيل، "
    "المنزل رقم سبعة.\n",
    /* Chinese */
    "请联系玛丽亚·加西亚，她住在北京市朝阳区，电话号码保密。我们明天上午见面，"
    "讨论合同的细节和付款方式。谢谢大家的支持。\n"
    "她的身份证号码和银行账户信息都不能公开，请大家注意保护个人隐私。\n",
    /* Japanese */
    "マリア・ガルシアさんは東京都渋谷区に住んでいます。明日の午前中に電話して"
    "ください。よろしくお願いします。\n"
    "住所と電話番号は個人情報ですので、外部に漏らさないようにお願いいたします。\n",
    /* Korean */
    "마리아 가르시아 씨는 서울시 강남구에 살고 있습니다. 내일 오전에 전화해 "
    "주세요. 감사합니다 여러분 안녕히 계세요.\n",
};

static void test_wide_no_ascii_runs(void **state)
{
    (void)state;
    uint8_t buf[1024];
    for (size_t i = 0; i < sizeof scripts / sizeof scripts[0]; i++) {
        every_chunking((const uint8_t *)scripts[i], strlen(scripts[i]), PII_OK, 0);
        for (int be = 0; be <= 1; be++) {
            size_t n = utf16(scripts[i], be, buf);
            assert_true(n <= sizeof buf);
            uint64_t at = 0;
            assert_int_equal(feed_steps(buf, n, n, &at), PII_EENCODING);
            assert_true(at < 128);
            every_chunking(buf, n, PII_EENCODING, at);
        }
    }
}

/* Look-alikes that are not UTF-16 text. */
static void test_wide_lookalikes(void **state)
{
    (void)state;
    /* FIX messages: SOH separators, ASCII and Latin-1 */
    const char *fix = "8=FIX.4.2\x01"
                      "9=178\x01"
                      "35=D\x01"
                      "49=CLIENT\x01"
                      "56=BROKER\x01"
                      "11=ORD\xe9\xb0\x01"
                      "21=1\x01"
                      "55=AAPL\x01"
                      "54=1\x01"
                      "60=20240229-10:00:00\x01"
                      "38=100\x01"
                      "40=2\x01"
                      "44=150.25\x01"
                      "58=Caf\xe9 cr\xe8me \xb0"
                      "C \xa3 \xab ok \xbb\x01"
                      "10=123\x01\n";
    every_chunking((const uint8_t *)fix, strlen(fix), PII_OK, 0);
    /* a coloured log */
    const char *log = "\x1b[32mINFO\x1b[0m \x1b[1mstart\x1b[0m \x1b[31mERR\x1b[0m \x1b[33mW\x1b[0m "
                      "\x1b[32mok\x1b[0m \x1b[2m..\x1b[0m\f\n";
    every_chunking((const uint8_t *)log, strlen(log), PII_OK, 0);
    /* quiet 16-bit PCM audio: high bytes 00 and FF, random low bytes */
    uint8_t pcm[4096];
    uint64_t x = 0x243F6A8885A308D3u;
    for (size_t i = 0; i < sizeof pcm; i += 2) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        pcm[i] = (uint8_t)(x >> 24);
        pcm[i + 1] = (x >> 40) & 1 ? 0xFF : 0x00;
    }
    pcm[0] = 'R', pcm[1] = 'I'; /* no byte-order mark */
    assert_int_equal(feed_steps(pcm, sizeof pcm, 1000, NULL), PII_OK);
    /* runs of one control byte, and little-endian integers 256..511 */
    uint8_t run[256], ints[256];
    memset(run, 0x01, sizeof run);
    assert_int_equal(feed_steps(run, sizeof run, 7, NULL), PII_OK);
    for (size_t i = 0; i < sizeof ints; i += 2)
        ints[i] = (uint8_t)(i / 2), ints[i + 1] = 1;
    assert_int_equal(feed_steps(ints, sizeof ints, 7, NULL), PII_EENCODING); /* as Cyrillic */
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
        unit_out o = {{0}, 0};
        pii_sink sink = {unit_out_write, NULL, NULL, &o};
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
    unit_out o = {{0}, 0};
    pii_sink sink = {unit_out_write, NULL, NULL, &o};
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
        cmocka_unit_test(test_wide_encodings),  cmocka_unit_test(test_wide_after_utf8),
        cmocka_unit_test(test_wide_bom),        cmocka_unit_test(test_wide_negatives),
        cmocka_unit_test(test_wide_stream),     cmocka_unit_test(test_wide_no_ascii_runs),
        cmocka_unit_test(test_wide_lookalikes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
