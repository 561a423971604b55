/* test_records_units.c — the units the record stream is built from, each
 * alone: a value's decoding unit by unit (records_value.h: JSON escapes,
 * surrogate pairs, CSV doubled quotes, invalid UTF-8) and the selectors'
 * key-path matching (records_select.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "pii_records.h"
#include "redact/records_select.h"
#include "redact/records_value.h"

static void decoded(int kind, const char *raw, const char *want, size_t wn)
{
    pii_buf out = {0};
    assert_int_equal(pii_rec_decode(kind, (const uint8_t *)raw, strlen(raw), &out), PII_OK);
    assert_int_equal(out.n, wn);
    assert_memory_equal(out.p, want, wn);
    pii_buf_free(&out);
}

static void test_decode_json(void **st)
{
    (void)st;
    /* every escape, a pair, a lone high surrogate (passed on as the
     * invalid UTF-8 it encodes), and raw UTF-8 untouched */
    static const char want[] = "a\"b\\c/\b\f\n\r\t\xC3\xA9\xF0\x9F\x98\x80\xED\xA0\x80x\xC3\xA9";
    decoded('j', "a\\\"b\\\\c\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\\ud800x\xC3\xA9", want,
            sizeof want - 1);
    decoded('j', "plain", "plain", 5);
    decoded('j', "", "", 0);
}

static void test_decode_csv(void **st)
{
    (void)st;
    decoded('q', "say \"\"hi\"\"", "say \"hi\"", 8);
    /* an unquoted field and a number are verbatim */
    decoded('u', "a\"\"b", "a\"\"b", 4);
    decoded('n', "-1.5e3", "-1.5e3", 6);
}

static void test_unit_lengths(void **st)
{
    (void)st;
    uint8_t d[4];
    size_t dl;
    const uint8_t *pair = (const uint8_t *)"\\ud83d\\ude00";
    assert_int_equal(pii_rec_unit('j', pair, 12, 0, d, &dl), 12);
    assert_int_equal(dl, 4);
    assert_memory_equal(d, "\xF0\x9F\x98\x80", 4);
    /* a high surrogate whose partner is cut off: 6 bytes, 3 decoded */
    assert_int_equal(pii_rec_unit('j', pair, 11, 0, d, &dl), 6);
    assert_int_equal(dl, 3);
    assert_int_equal(pii_rec_unit('j', (const uint8_t *)"\\n", 2, 0, d, &dl), 2);
    assert_int_equal(dl, 1);
    assert_int_equal(d[0], '\n');
    assert_int_equal(pii_rec_unit('j', (const uint8_t *)"\xC3\xA9", 2, 0, d, &dl), 2);
    assert_int_equal(dl, 2);
    /* an invalid byte, and a sequence the value's end cuts, are one byte */
    assert_int_equal(pii_rec_unit('j', (const uint8_t *)"\xFFz", 2, 0, d, &dl), 1);
    assert_int_equal(dl, 1);
    assert_int_equal(pii_rec_unit('u', (const uint8_t *)"\xC3\xA9", 1, 0, d, &dl), 1);
    assert_int_equal(pii_rec_unit('q', (const uint8_t *)"\"\"", 2, 0, d, &dl), 2);
    assert_int_equal(dl, 1);
    assert_int_equal(d[0], '"');
    assert_int_equal(pii_rec_unit('u', (const uint8_t *)"\"\"", 2, 0, d, &dl), 1);
    assert_int_equal(pii_rec_hexval('F'), 15);
    assert_int_equal(pii_rec_hexval('g'), -1);
}

/* keys "user" "a.b" "" as the stream holds them */
static const uint8_t keys[] = "usera.b";
static const size_t koff[] = {0, 4, 7, 7};

static int hit(const char *sel, size_t nk)
{
    pii_err e;
    pii_rec_spec *sp = pii_rec_spec_create(PII_REC_JSONL, &e);
    assert_non_null(sp);
    assert_int_equal(pii_rec_spec_add(sp, sel), PII_OK);
    int h = pii_rec_path_hit(&sp->paths[0], keys, koff, nk);
    pii_rec_spec_free(sp);
    return h;
}

static void test_path_hit(void **st)
{
    (void)st;
    assert_true(hit("user", 1));
    assert_true(hit("user", 3)); /* everything inside a selected object */
    assert_true(hit("user.a\\.b", 2));
    assert_false(hit("user.a.b", 2)); /* an unescaped dot splits keys */
    assert_false(hit("user.a\\.b", 1));
    assert_true(hit("*.a\\.b", 2));
    assert_true(hit("user.*", 1));   /* a final "*": the key and below */
    assert_true(hit("user.*.*", 3)); /* "*" matches the empty key */
    assert_false(hit("name", 3));
    assert_false(hit("user.x", 2));
    /* keys NULL while every key so far is empty */
    static const size_t k0[] = {0, 0};
    pii_err e;
    pii_rec_spec *sp = pii_rec_spec_create(PII_REC_JSONL, &e);
    assert_int_equal(pii_rec_spec_add(sp, "*"), PII_OK);
    assert_int_equal(pii_rec_spec_add(sp, "x"), PII_OK);
    assert_true(pii_rec_path_hit(&sp->paths[0], NULL, k0, 1));
    assert_false(pii_rec_path_hit(&sp->paths[1], NULL, k0, 1));
    pii_rec_spec_free(sp);
    assert_true(pii_rec_delim_ok('\t') && pii_rec_delim_ok('|') && pii_rec_delim_ok(';'));
    assert_false(pii_rec_delim_ok(':'));
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_decode_json),
    cmocka_unit_test(test_decode_csv),
    cmocka_unit_test(test_unit_lengths),
    cmocka_unit_test(test_path_hit),
};

int main(void)
{
    return cmocka_run_group_tests(tests, NULL, NULL);
}
