/* test_core.c — core/: the one UTF-8 decoder (pii_utf8_decode and its two
 * readings pii_utf8_seq / pii_utf8_valid) and the growable-array helper
 * (PII_VEC_RESERVE), the sorted word lists (pii_wordlist.h), the
 * bounded file reader (pii_file.h) and the JSON string writer
 * (pii_json_write.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pii_core.h"
#include "pii_file.h"
#include "pii_json_write.h"
#include "pii_wordlist.h"

/* Reference: decode by the code point's ranges (RFC 3629), the way the
 * span code used to: length and code point, or 0. */
static int ref_decode(const uint8_t *p, size_t n, uint32_t *cp)
{
    uint8_t b = p[0];
    if (b < 0x80) {
        *cp = b;
        return 1;
    }
    int k;
    uint32_t c, min;
    if (b >= 0xC2 && b <= 0xDF) {
        k = 2;
        c = b & 0x1F;
        min = 0x80;
    } else if (b >= 0xE0 && b <= 0xEF) {
        k = 3;
        c = b & 0x0F;
        min = 0x800;
    } else if (b >= 0xF0 && b <= 0xF4) {
        k = 4;
        c = b & 0x07;
        min = 0x10000;
    } else {
        return 0;
    }
    if (n < (size_t)k)
        return 0;
    for (int i = 1; i < k; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        c = c << 6 | (p[i] & 0x3F);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return 0;
    *cp = c;
    return k;
}

static void check_seq(const uint8_t *p, size_t n)
{
    uint32_t a = 0, b = 0;
    int got = pii_utf8_decode(p, n, &a), want = ref_decode(p, n, &b);
    if (got > 0) {
        assert_int_equal(got, want);
        assert_int_equal(a, b);
    } else {
        assert_int_equal(want, 0);
    }
    /* -k only for a valid prefix cut by n: the full sequence would decode */
    if (got < 0) {
        assert_true(n < (size_t)-got);
        uint8_t full[4] = {p[0], 0x80, 0x80, 0x80};
        for (size_t i = 1; i < n; i++)
            full[i] = p[i];
        if (p[0] == 0xE0 || p[0] == 0xF0) /* the lowest valid second byte */
            full[1] = n > 1 ? p[1] : (p[0] == 0xE0 ? 0xA0 : 0x90);
        uint32_t c;
        assert_int_equal(pii_utf8_decode(full, 4, &c), -got);
    }
    /* the character rule and the validity test read the same decoder */
    size_t seq = pii_utf8_seq(p, p + n), val = pii_utf8_valid(p, p + n);
    assert_int_equal(seq, got > 0 ? (size_t)got : got < 0 ? 0 : 1);
    assert_int_equal(val, got > 0 ? (size_t)got : 0);
}

static void test_utf8(void **state)
{
    (void)state;
    uint8_t p[4];
    for (unsigned a = 0; a < 256; a++) {
        p[0] = (uint8_t)a;
        check_seq(p, 1);
        for (unsigned b = 0; b < 256; b++) {
            p[1] = (uint8_t)b;
            check_seq(p, 2);
            if (a < 0xE0 || a > 0xF4)
                continue;
            for (unsigned c = 0; c < 256; c += (a >= 0xF0 ? 5 : 1)) {
                p[2] = (uint8_t)c;
                check_seq(p, 3);
                if (a >= 0xF0)
                    for (unsigned d = 0x70; d < 0xD0; d += 7) {
                        p[3] = (uint8_t)d;
                        check_seq(p, 4);
                    }
            }
        }
    }
    uint32_t cp;
    const uint8_t euro[] = {0xE2, 0x82, 0xAC}, emoji[] = {0xF0, 0x9F, 0x98, 0x80};
    assert_int_equal(pii_utf8_decode(euro, 3, &cp), 3);
    assert_int_equal(cp, 0x20AC);
    assert_int_equal(pii_utf8_decode(emoji, 4, &cp), 4);
    assert_int_equal(cp, 0x1F600);
    assert_int_equal(pii_utf8_decode(emoji, 2, &cp), -4);
}

static void test_vec(void **state)
{
    (void)state;
    int *v = NULL;
    size_t n = 0, cap = 0;
    for (int i = 0; i < 1000; i++) {
        assert_int_equal(PII_VEC_RESERVE(v, cap, n + 1), PII_OK);
        assert_true(cap >= n + 1);
        v[n++] = i;
    }
    assert_int_equal(cap, 1024); /* 16, doubled */
    for (int i = 0; i < 1000; i++)
        assert_int_equal(v[i], i);
    assert_int_equal(PII_VEC_RESERVE(v, cap, 10), PII_OK); /* no shrink */
    assert_int_equal(cap, 1024);
    assert_int_equal(PII_VEC_RESERVE(v, cap, 1025), PII_OK);
    assert_int_equal(cap, 2048);
    /* overflow: refused, the array left as it was */
    int *keep = v;
    assert_int_equal(PII_VEC_RESERVE(v, cap, SIZE_MAX / 2), PII_ENOMEM);
    assert_ptr_equal(v, keep);
    assert_int_equal(cap, 2048);
    assert_int_equal(v[999], 999);
    free(v);
}

/* Sorted word lists held as text: well-formedness, exact and folded lookup
 * at every position of the list, prefixes and extensions not found. */
/* pii_word_distance: Levenshtein, folded or not, capped at 64 bytes. */
static void test_word_distance(void **state)
{
    (void)state;
    assert_int_equal(pii_word_distance("bnech", 5, "bench", 5, 0), 2);
    assert_int_equal(pii_word_distance("kitten", 6, "sitting", 7, 0), 3);
    assert_int_equal(pii_word_distance("", 0, "abc", 3, 0), 3);
    assert_int_equal(pii_word_distance("Private_Emial", 13, "private_email", 13, 1), 2);
    assert_int_equal(pii_word_distance("Private_Emial", 13, "private_email", 13, 0), 4);
    char w[65];
    memset(w, 'a', sizeof w);
    assert_int_equal(pii_word_distance(w, 64, "a", 1, 0), 63);
    assert_true(pii_word_distance(w, 65, "a", 1, 0) == (size_t)-1);
    assert_true(pii_word_distance("a", 1, w, 65, 0) == (size_t)-1);
}

static void test_wordlist(void **state)
{
    (void)state;
    static const char L[] = "ab\nabc\nb\nmail\nzz\n";
    const char *e = L + sizeof L - 1;
#define HAS(w, f) pii_wordlist_has(L, e, (const uint8_t *)(w), strlen(w), f)
    assert_int_equal(pii_wordlist_check(L, e, 4), 5);
    assert_int_equal(pii_wordlist_check(L, e, 3), -1); /* "mail" is too long */
    assert_true(HAS("ab", 0) && HAS("abc", 0) && HAS("b", 0) && HAS("mail", 0) && HAS("zz", 0));
    assert_false(HAS("a", 0) || HAS("abcd", 0) || HAS("ma", 0) || HAS("z", 0) || HAS("", 0));
    assert_false(HAS("MAIL", 0));
    assert_true(HAS("MAIL", 1) && HAS("Zz", 1));
#undef HAS
    static const char unsorted[] = "b\na\n", dup[] = "a\na\n", open_end[] = "a\nb";
    assert_int_equal(pii_wordlist_check(unsorted, unsorted + 4, 8), -1);
    assert_int_equal(pii_wordlist_check(dup, dup + 4, 8), -1);
    assert_int_equal(pii_wordlist_check(open_end, open_end + 3, 8), -1);
}

/* The bounded reader: a stream of n bytes read whole and NUL-terminated
 * when n < max, refused (PII_ETOOBIG, nothing returned) when n >= max,
 * across the growth of its buffer (16 KiB first) and below it. */
static void check_read(size_t n, size_t max, pii_err want)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    for (size_t i = 0; i < n; i++)
        assert_int_not_equal(fputc('a' + (int)(i % 26), f), EOF);
    rewind(f);
    char *b = (char *)1;
    size_t len = 7;
    assert_int_equal(pii_file_read_all(f, max, &b, &len), want);
    fclose(f);
    if (want != PII_OK) {
        assert_null(b);
        assert_int_equal(len, 0);
        return;
    }
    assert_int_equal(len, n);
    assert_int_equal(b[n], '\0');
    for (size_t i = 0; i < n; i++)
        assert_int_equal(b[i], 'a' + (int)(i % 26));
    free(b);
}

static void test_file_read(void **state)
{
    (void)state;
    check_read(0, 1, PII_OK);
    check_read(0, 100000, PII_OK);
    check_read(99, 100, PII_OK);
    check_read(100, 100, PII_ETOOBIG);
    check_read(16384, 100000, PII_OK); /* exactly the first buffer */
    check_read(16385, 100000, PII_OK);
    check_read(99999, 100000, PII_OK);
    check_read(100000, 100000, PII_ETOOBIG);
    check_read(100001, 100000, PII_ETOOBIG);
    check_read(65536, 65536, PII_ETOOBIG); /* a power of two: the buffer's size at the bound */
    check_read(65535, 65536, PII_OK);
    check_read(40000, SIZE_MAX, PII_OK);
}

/* The JSON string writer: what goes through put, run by run. */
typedef struct jbuf {
    char s[256];
    size_t n;
    int puts, fail_at; /* fail_at > 0: that put returns PII_EWRITE */
} jbuf;

static pii_err jput(void *ud, const char *p, size_t n)
{
    jbuf *b = ud;
    if (++b->puts == b->fail_at)
        return PII_EWRITE;
    assert_true(n > 0 && b->n + n < sizeof b->s);
    memcpy(b->s + b->n, p, n);
    b->n += n;
    b->s[b->n] = '\0';
    return PII_OK;
}

static void test_json_write(void **state)
{
    (void)state;
    /* quote, backslash, controls, DEL, a valid 2- and 3-byte sequence, a
     * stray continuation byte, an overlong and a sequence cut by the end */
    static const uint8_t in[] = "a\"b\\c\n\r\t\001\177\303\251\342\202\254\200\300\257\342\202";
    const size_t n = sizeof in - 1;
    jbuf b = {{0}, 0, 0, 0};
    assert_int_equal(pii_json_escape(in, n, 0, 1, NULL, jput, &b), PII_OK);
    assert_string_equal(b.s, "a\\\"b\\\\c\\u000a\\u000d\\u0009\\u0001\177\303\251\342\202\254"
                             "\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd");
    memset(&b, 0, sizeof b);
    size_t rest = 9;
    assert_int_equal(pii_json_escape(in, n, PII_JSONW_SHORT | PII_JSONW_DEL, 0, &rest, jput, &b),
                     PII_OK);
    assert_int_equal(rest, 2); /* the cut sequence waits for what follows */
    assert_string_equal(b.s, "a\\\"b\\\\c\\n\\r\\t\\u0001\\u007f\303\251\342\202\254"
                             "\\ufffd\\ufffd\\ufffd");
    /* plain text is one run; the first failing put is returned */
    memset(&b, 0, sizeof b);
    assert_int_equal(pii_json_escape((const uint8_t *)"plain", 5, 0, 1, NULL, jput, &b), PII_OK);
    assert_int_equal(b.puts, 1);
    memset(&b, 0, sizeof b);
    b.fail_at = 2;
    assert_int_equal(pii_json_escape(in, n, 0, 1, NULL, jput, &b), PII_EWRITE);
    assert_int_equal(b.puts, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_utf8),       cmocka_unit_test(test_vec),
        cmocka_unit_test(test_wordlist),   cmocka_unit_test(test_word_distance),
        cmocka_unit_test(test_json_write), cmocka_unit_test(test_file_read),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
