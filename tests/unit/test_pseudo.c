/* test_pseudo.c — reversible pseudonyms (pii_pseudo.h): numbering per
 * label, a lone surname sharing its full name's placeholder, restore's
 * tolerance of case and spacing (and what it leaves alone), the JSON map
 * round trip, the sealed file (round trip, wrong key, every changed byte
 * refused, a fresh nonce each time), and the pseudonym operator with a map
 * attached (pii_ops_set_pseudo_map). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pii_pseudo.h"
#include "pii_redact.h"

static void name_is(pii_pseudo *m, const char *label, const char *v, const char *want)
{
    pii_buf out = {0};
    assert_int_equal(pii_pseudo_name(m, label, (const uint8_t *)v, strlen(v), &out), PII_OK);
    assert_int_equal(out.n, strlen(want));
    assert_memory_equal(out.p, want, out.n);
    pii_buf_free(&out);
}

static void restore_is(const pii_pseudo *m, const char *text, const char *want, size_t nwant)
{
    pii_buf out = {0};
    size_t n = 99;
    assert_int_equal(
        pii_pseudo_restore(m, (const uint8_t *)text, strlen(text), &out, &n, NULL, NULL), PII_OK);
    if (out.n != strlen(want) || (out.n && memcmp(out.p, want, out.n) != 0)) {
        fprintf(stderr, "restore: got \"%.*s\" want \"%s\"\n", (int)out.n, (const char *)out.p,
                want);
        fail();
    }
    assert_int_equal(n, nwant);
    pii_buf_free(&out);
}

static void test_numbering(void **state)
{
    (void)state;
    pii_pseudo *m = pii_pseudo_create(NULL);
    assert_non_null(m);
    name_is(m, "private_person", "Jane Doe", "<PRIVATE_PERSON_1>");
    name_is(m, "private_email", "jane@example.com", "<PRIVATE_EMAIL_1>");
    name_is(m, "private_person", "Bob Stone", "<PRIVATE_PERSON_2>");
    name_is(m, "private_person", "Doe", "<PRIVATE_PERSON_1>");   /* the surname */
    name_is(m, "private_person", "Stone", "<PRIVATE_PERSON_2>"); /* its own */
    name_is(m, "private_person", "Jane Doe", "<PRIVATE_PERSON_1>");
    name_is(m, "private_person", "Do", "<PRIVATE_PERSON_3>");  /* not a suffix word */
    name_is(m, "private_person", "Bob", "<PRIVATE_PERSON_4>"); /* a first name is not */
    name_is(m, "secret", "Doe", "<SECRET_1>");                 /* other labels: exact only */
    assert_int_equal(pii_pseudo_count(m), 6);
    const char *ph, *label;
    const uint8_t *v;
    size_t len;
    assert_int_equal(pii_pseudo_entry(m, 1, &ph, &label, &v, &len), PII_OK);
    assert_string_equal(ph, "<PRIVATE_EMAIL_1>");
    assert_string_equal(label, "private_email");
    assert_int_equal(len, 16);
    assert_memory_equal(v, "jane@example.com", 16);
    assert_int_equal(pii_pseudo_entry(m, 6, &ph, &label, &v, &len), PII_ERANGE);
    pii_pseudo_free(m);
}

static void test_restore(void **state)
{
    (void)state;
    pii_pseudo *m = pii_pseudo_create(NULL);
    name_is(m, "private_person", "Jane Doe", "<PRIVATE_PERSON_1>");
    name_is(m, "private_email", "jane@example.com", "<PRIVATE_EMAIL_1>");
    restore_is(m, "Hi <PRIVATE_PERSON_1>!", "Hi Jane Doe!", 1);
    restore_is(m, "<private_person_1>, < PRIVATE PERSON 1 >, <Private-Person-1>",
               "Jane Doe, Jane Doe, Jane Doe", 3);
    restore_is(m, "<PRIVATE__PERSON_1><PRIVATE_EMAIL_1>", "Jane Doejane@example.com", 2);
    /* not placeholders of the map: unchanged */
    restore_is(m, "<PRIVATE_PERSON_2> <PRIVATE_PERSON_11> <PRIVATE_PERSON1x> a < b > c",
               "<PRIVATE_PERSON_2> <PRIVATE_PERSON_11> <PRIVATE_PERSON1x> a < b > c", 0);
    restore_is(m, "<<PRIVATE_PERSON_1>>", "<Jane Doe>", 1);
    restore_is(m, "<PRIVATE_PERSON_1", "<PRIVATE_PERSON_1", 0);
    restore_is(m, "", "", 0);
    pii_pseudo_free(m);
}

static void test_json(void **state)
{
    (void)state;
    pii_pseudo *m = pii_pseudo_create(NULL);
    name_is(m, "private_person", "Zoë \"Q\" Ng", "<PRIVATE_PERSON_1>");
    name_is(m, "private_person", "Al Ng", "<PRIVATE_PERSON_2>");
    pii_buf js = {0};
    assert_int_equal(pii_pseudo_to_json(m, &js), PII_OK);
    const char *want = "{\"version\":1,\"entries\":[{\"placeholder\":\"<PRIVATE_PERSON_1>\","
                       "\"label\":\"private_person\",\"value\":\"Zoë \\\"Q\\\" Ng\"},"
                       "{\"placeholder\":\"<PRIVATE_PERSON_2>\",\"label\":\"private_person\","
                       "\"value\":\"Al Ng\"}]}";
    assert_int_equal(js.n, strlen(want));
    assert_memory_equal(js.p, want, js.n);
    pii_pseudo *m2 = pii_pseudo_create(NULL);
    assert_int_equal(pii_pseudo_load_json(m2, js.p, js.n), PII_OK);
    restore_is(m2, "<PRIVATE_PERSON_2>/<private person 1>", "Al Ng/Zoë \"Q\" Ng", 2);
    /* numbering goes on after the loaded entries */
    name_is(m2, "private_person", "New Person", "<PRIVATE_PERSON_3>");
    name_is(m2, "private_person", "Al Ng", "<PRIVATE_PERSON_2>");
    /* not a map: refused, nothing added */
    size_t before = pii_pseudo_count(m2);
    const char *bad[] = {
        "{", "[]", "{\"version\":2,\"entries\":[]}",
        "{\"version\":1,\"entries\":[{\"placeholder\":\"x\",\"label\":\"l\","
        "\"value\":\"v\"}]}",
        "{\"version\":1,\"entries\":[{\"placeholder\":\"<A_1>\",\"label\":\"l\"}]}"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_not_equal(pii_pseudo_load_json(m2, (const uint8_t *)bad[i], strlen(bad[i])),
                             PII_OK);
    assert_int_equal(pii_pseudo_count(m2), before);
    pii_buf_free(&js);
    pii_pseudo_free(m);
    pii_pseudo_free(m2);
}

static void test_seal(void **state)
{
    (void)state;
    const uint8_t key[32] = "0123456789abcdef0123456789abcdef";
    uint8_t other[32];
    memcpy(other, key, 32);
    other[31] ^= 1;
    const char *pt = "{\"version\":1,\"entries\":[]} and some more bytes to span two blocks of "
                     "the keystream";
    size_t n = strlen(pt);
    pii_buf a = {0}, b = {0}, out = {0};
    assert_int_equal(pii_pseudo_seal(key, 32, (const uint8_t *)pt, n, &a), PII_OK);
    assert_int_equal(pii_pseudo_seal(key, 32, (const uint8_t *)pt, n, &b), PII_OK);
    assert_int_equal(a.n, 8 + 16 + n + 32);
    assert_memory_equal(a.p, "PIIMAP1\n", 8);
    assert_true(pii_pseudo_is_sealed(a.p, a.n));
    /* a fresh nonce: two seals differ, and neither shows the text */
    assert_memory_not_equal(a.p + 8, b.p + 8, 16);
    for (size_t i = 0; i + 7 <= a.n; i++)
        assert_memory_not_equal(a.p + i, "version", 7);
    assert_int_equal(pii_pseudo_open(key, 32, a.p, a.n, &out), PII_OK);
    assert_int_equal(out.n, n);
    assert_memory_equal(out.p, pt, n);
    pii_buf_free(&out);
    /* the wrong key, and every single changed bit, are refused */
    assert_int_equal(pii_pseudo_open(other, 32, a.p, a.n, &out), PII_EFORMAT);
    for (size_t i = 0; i < a.n; i++) {
        a.p[i] ^= 0x20;
        assert_int_equal(pii_pseudo_open(key, 32, a.p, a.n, &out), PII_EFORMAT);
        a.p[i] ^= 0x20;
    }
    assert_int_equal(out.n, 0);
    assert_int_equal(pii_pseudo_open(key, 32, a.p, a.n - 1, &out), PII_EFORMAT);
    assert_int_equal(pii_pseudo_open(key, 32, a.p, 20, &out), PII_EFORMAT);
    /* short keys are refused */
    assert_int_equal(pii_pseudo_seal(key, 15, (const uint8_t *)pt, n, &out), PII_EINVAL);
    pii_buf_free(&a);
    pii_buf_free(&b);
}

/* The construction of pii_pseudo.h, computed independently: the first
 * keystream block and the tag from the documented HMAC inputs. */
#include "pii_sha256.h"
static void test_seal_construction(void **state)
{
    (void)state;
    const uint8_t key[16] = "sixteen byte key";
    const uint8_t pt[3] = {'a', 'b', 'c'};
    pii_buf s = {0}, o = {0};
    assert_int_equal(pii_pseudo_seal(key, 16, pt, 3, &s), PII_OK);
    uint8_t kenc[32], kmac[32], in[24], ks[32], tag[32];
    pii_hmac_sha256(key, 16, "pii-redact map enc v1", 21, kenc);
    pii_hmac_sha256(key, 16, "pii-redact map mac v1", 21, kmac);
    memcpy(in, s.p + 8, 16);
    memset(in + 16, 0, 8);
    pii_hmac_sha256(kenc, 32, in, 24, ks);
    for (int i = 0; i < 3; i++)
        assert_int_equal(s.p[24 + i], pt[i] ^ ks[i]);
    pii_hmac_sha256(kmac, 32, s.p, 8 + 16 + 3, tag);
    assert_memory_equal(s.p + 27, tag, 32);
    assert_int_equal(pii_pseudo_open(key, 16, s.p, s.n, &o), PII_OK);
    pii_buf_free(&s);
    pii_buf_free(&o);
}

static void test_ops_map(void **state)
{
    (void)state;
    pii_op op;
    pii_op_default(&op, PII_OP_PSEUDONYM);
    pii_ops *o = pii_ops_create(&op, NULL);
    pii_pseudo *m = pii_pseudo_create(NULL);
    assert_int_equal(pii_ops_check(o), PII_OK);
    pii_ops_set_pseudo_map(o, m);
    const char *vals[] = {"Jane Doe", "Doe", "Jane Doe"};
    for (int i = 0; i < 3; i++) {
        pii_span s = {.start = 0, .end = strlen(vals[i]), .label = "private_person", .score = 1};
        pii_buf out = {0};
        assert_int_equal(pii_ops_apply(o, &s, (const uint8_t *)vals[i], strlen(vals[i]), &out),
                         PII_OK);
        assert_int_equal(out.n, 18);
        assert_memory_equal(out.p, "<PRIVATE_PERSON_1>", 18);
        pii_buf_free(&out);
    }
    assert_int_equal(pii_pseudo_count(m), 1);
    pii_ops_free(o);
    pii_pseudo_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numbering),
        cmocka_unit_test(test_restore),
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_seal),
        cmocka_unit_test(test_seal_construction),
        cmocka_unit_test(test_ops_map),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
