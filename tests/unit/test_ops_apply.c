/* test_ops_apply.c — operators: parsing, exact output bytes of each
 * operator, the hash-key check, pseudonym numbering (per label, overflow,
 * several threads) and pii_buf. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pii_redact.h"

/* Applies the operator for `label` to value and checks the exact bytes. */
static void check_apply(pii_ops *o, const char *label, const char *value, size_t vlen,
                        const char *want, size_t wlen)
{
    pii_span s = {.start = 0, .end = vlen, .label = label, .rule = NULL, .score = 1.0f};
    pii_buf out = {0};
    assert_int_equal(pii_ops_apply(o, &s, (const uint8_t *)value, vlen, &out), PII_OK);
    if (out.n != wlen || (wlen && memcmp(out.p, want, wlen) != 0)) {
        fprintf(stderr, "label %s: got \"%.*s\" want \"%.*s\"\n", label, (int)out.n,
                (const char *)out.p, (int)wlen, want);
        fail();
    }
    pii_buf_free(&out);
}

#define CHECK(o, label, value, want)                                                               \
    check_apply((o), (label), (value), sizeof(value) - 1, (want), sizeof(want) - 1)

static pii_ops *ops_with(const char *spec)
{
    pii_op op;
    pii_err e;
    assert_int_equal(pii_op_parse(spec, &op), PII_OK);
    pii_ops *o = pii_ops_create(&op, &e);
    assert_non_null(o);
    return o;
}

static void test_parse(void **state)
{
    (void)state;
    pii_op op;
    assert_int_equal(pii_op_parse("placeholder", &op), PII_OK);
    assert_int_equal(op.kind, PII_OP_PLACEHOLDER);
    assert_null(op.tmpl);
    const char *spec = "placeholder:[{LABEL}]";
    assert_int_equal(pii_op_parse(spec, &op), PII_OK);
    assert_ptr_equal(op.tmpl, spec + 12);
    assert_int_equal(pii_op_parse("mask", &op), PII_OK);
    assert_int_equal(op.kind, PII_OP_MASK);
    assert_int_equal(op.mask_char, '*');
    assert_int_equal(op.keep_last, 0);
    assert_int_equal(pii_op_parse("mask:#", &op), PII_OK);
    assert_int_equal(op.mask_char, '#');
    assert_int_equal(pii_op_parse("mask:*:4", &op), PII_OK);
    assert_int_equal(op.mask_char, '*');
    assert_int_equal(op.keep_last, 4);
    assert_int_equal(pii_op_parse("mask:\xe2\x96\x88:2", &op), PII_OK); /* U+2588 */
    assert_int_equal(op.mask_char, 0x2588);
    assert_int_equal(op.keep_last, 2);
    assert_int_equal(pii_op_parse("mask:::3", &op), PII_OK);
    assert_int_equal(op.mask_char, ':');
    assert_int_equal(op.keep_last, 3);
    assert_int_equal(pii_op_parse("remove", &op), PII_OK);
    assert_int_equal(op.kind, PII_OP_REMOVE);
    assert_int_equal(pii_op_parse("hash", &op), PII_OK);
    assert_int_equal(op.kind, PII_OP_HASH);
    assert_int_equal(op.hash_hex, 16);
    assert_int_equal(pii_op_parse("hash:12", &op), PII_OK);
    assert_int_equal(op.hash_hex, 12);
    assert_int_equal(pii_op_parse("pseudonym", &op), PII_OK);
    assert_int_equal(op.kind, PII_OP_PSEUDONYM);
    static const char *const bad[] = {"",
                                      "nope",
                                      "mask:",
                                      "mask:*:",
                                      "mask:*:x",
                                      "mask:ab",
                                      "mask:\xed\xa0\x80",
                                      "mask:\xff",
                                      "hash:0",
                                      "hash:65",
                                      "hash:",
                                      "hash:1x",
                                      "remove:1",
                                      "Placeholder",
                                      "mask:*:99999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(pii_op_parse(bad[i], &op), PII_EINVAL);
    assert_int_equal(pii_op_parse(NULL, &op), PII_EINVAL);
}

static void test_placeholder(void **state)
{
    (void)state;
    pii_ops *o = ops_with("placeholder");
    assert_int_equal(pii_ops_check(o), PII_OK);
    CHECK(o, "private_email", "bob@example.com", "<PRIVATE_EMAIL>");
    CHECK(o, "secret", "hunter2", "<SECRET>");
    CHECK(o, "my-label.x", "v", "<MY_LABEL_X>");
    pii_ops_free(o);
    char spec[] = "placeholder:[{LABEL}|{label}]";
    o = ops_with(spec);
    memset(spec, 0, sizeof spec); /* the template was copied */
    CHECK(o, "private_phone", "+1 415 555 0100", "[PRIVATE_PHONE|private_phone]");
    pii_ops_free(o);
    o = ops_with("placeholder:x{y}{LABEL");
    CHECK(o, "secret", "v", "x{y}{LABEL");
    pii_ops_free(o);
    o = ops_with("placeholder:");
    CHECK(o, "secret", "v", "");
    pii_ops_free(o);
}

static void test_mask(void **state)
{
    (void)state;
    pii_ops *o = ops_with("mask");
    CHECK(o, "private_email", "bob@x.io", "********");
    CHECK(o, "private_email", "", "");
    /* one mask char per code point; invalid bytes count one each */
    CHECK(o, "private_person", "m\xc3\xbcller", "******");
    CHECK(o, "x",
          "a\xff\xc3"
          "b",
          "****");
    CHECK(o, "x", "\xf0\x9f\x98\x80\xe2\x82\xac", "**");
    CHECK(o, "x", "\xed\xa0\x80", "***"); /* a surrogate is three invalid bytes */
    pii_ops_free(o);
    o = ops_with("mask:#:4");
    CHECK(o, "account_number", "4111111111111111", "############1111");
    CHECK(o, "account_number", "4111 1111", "#####1111");
    CHECK(o, "account_number", "1234", "##34"); /* never more than half visible */
    CHECK(o, "account_number", "123", "##3");
    CHECK(o, "account_number", "1", "#");
    CHECK(o, "x",
          "ab\xff"
          "cdef",
          "####def");
    pii_ops_free(o);
    o = ops_with("mask:\xe2\x96\x88");
    CHECK(o, "x", "m\xc3\xbc", "\xe2\x96\x88\xe2\x96\x88");
    pii_ops_free(o);
    o = ops_with("mask:\xf0\x9f\x94\x92:1"); /* U+1F512, 4 bytes */
    CHECK(o, "x", "abc",
          "\xf0\x9f\x94\x92\xf0\x9f\x94\x92"
          "c");
    pii_ops_free(o);
}

static void test_remove_and_overrides(void **state)
{
    (void)state;
    pii_ops *o = ops_with("placeholder");
    pii_op op;
    assert_int_equal(pii_op_parse("remove", &op), PII_OK);
    assert_int_equal(pii_ops_set(o, "secret", &op), PII_OK);
    assert_int_equal(pii_op_parse("mask:*:2", &op), PII_OK);
    assert_int_equal(pii_ops_set(o, "private_phone", &op), PII_OK);
    assert_int_equal(pii_op_parse("placeholder:<redacted {label}>", &op), PII_OK);
    assert_int_equal(pii_ops_set(o, "private_email", &op), PII_OK);
    assert_int_equal(pii_op_parse("mask", &op), PII_OK);
    assert_int_equal(pii_ops_set(o, "private_phone", &op), PII_OK); /* replaces */
    assert_int_equal(pii_ops_set(o, "", &op), PII_EINVAL);
    assert_int_equal(pii_ops_check(o), PII_OK);
    CHECK(o, "secret", "hunter2", "");
    CHECK(o, "private_phone", "555-0100", "********");
    CHECK(o, "private_email", "a@b.co", "<redacted private_email>");
    CHECK(o, "private_date", "2026-04-23", "<PRIVATE_DATE>");
    pii_ops_free(o);
    pii_ops_free(NULL);
}

static void test_hash(void **state)
{
    (void)state;
    pii_ops *o = ops_with("hash");
    assert_int_equal(pii_ops_check(o), PII_ENOKEY);
    pii_span s = {.label = "private_email"};
    pii_buf out = {0};
    assert_int_equal(pii_ops_apply(o, &s, (const uint8_t *)"x", 1, &out), PII_ENOKEY);
    uint8_t key[] = "k3y";
    assert_int_equal(pii_ops_set_key(o, key, 3), PII_OK);
    memset(key, 0, sizeof key); /* the key was copied */
    assert_int_equal(pii_ops_check(o), PII_OK);
    /* HMAC-SHA256("k3y", "bob@example.com") = 3c3ae86e98f79222532d69e9... */
    CHECK(o, "private_email", "bob@example.com", "3c3ae86e98f79222");
    pii_op op;
    assert_int_equal(pii_op_parse("hash:64", &op), PII_OK);
    assert_int_equal(pii_ops_set(o, "secret", &op), PII_OK);
    CHECK(o, "secret", "bob@example.com",
          "3c3ae86e98f79222532d69e973aa76ade90f3b3d47404da54964309d9708e544");
    assert_int_equal(pii_op_parse("hash:1", &op), PII_OK);
    assert_int_equal(pii_ops_set(o, "private_url", &op), PII_OK);
    CHECK(o, "private_url", "bob@example.com", "3");
    pii_ops_free(o);
    /* only an override uses hash: still needs the key */
    o = ops_with("placeholder");
    assert_int_equal(pii_op_parse("hash", &op), PII_OK);
    assert_int_equal(pii_ops_set(o, "secret", &op), PII_OK);
    assert_int_equal(pii_ops_check(o), PII_ENOKEY);
    assert_int_equal(pii_ops_set_key(o, (const uint8_t *)"k", 1), PII_OK);
    assert_int_equal(pii_ops_check(o), PII_OK);
    pii_ops_free(o);
}

static void test_pseudonym(void **state)
{
    (void)state;
    pii_ops *o = ops_with("pseudonym");
    assert_int_equal(pii_ops_check(o), PII_OK);
    CHECK(o, "private_person", "Alice", "<PRIVATE_PERSON_1>");
    CHECK(o, "private_person", "Bob", "<PRIVATE_PERSON_2>");
    CHECK(o, "private_person", "Alice", "<PRIVATE_PERSON_1>");
    CHECK(o, "private_email", "Alice", "<PRIVATE_EMAIL_1>");   /* numbered per label */
    CHECK(o, "private_person", "alice", "<PRIVATE_PERSON_3>"); /* bytes, not case */
    CHECK(o, "private_person", "", "<PRIVATE_PERSON_4>");
    pii_ops_set_pseudonym_limit(o, 5);
    CHECK(o, "private_person", "Carol", "<PRIVATE_PERSON_5>");
    CHECK(o, "private_person", "Dave", "<PRIVATE_PERSON_OVERFLOW>");
    CHECK(o, "private_person", "Bob", "<PRIVATE_PERSON_2>");
    pii_ops_free(o);
    /* many values: the table grows and keeps every number */
    o = ops_with("pseudonym");
    char v[32], want[64];
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < 3000; i++) {
            int n = snprintf(v, sizeof v, "value-%d", i);
            int m = snprintf(want, sizeof want, "<SECRET_%d>", i + 1);
            check_apply(o, "secret", v, (size_t)n, want, (size_t)m);
        }
    pii_ops_free(o);
}

typedef struct thr_arg {
    pii_ops *o;
    int seed;
    int num[64];
} thr_arg;

static void *thr_main(void *p)
{
    thr_arg *a = p;
    pii_span s = {.label = "private_person"};
    for (int k = 0; k < 2000; k++) {
        int i = (k * 7 + a->seed * 13) % 64;
        char v[16], txt[64];
        int n = snprintf(v, sizeof v, "person%d", i);
        pii_buf out = {0};
        if (pii_ops_apply(a->o, &s, (const uint8_t *)v, (size_t)n, &out) != PII_OK)
            return p;
        snprintf(txt, sizeof txt, "%.*s", (int)out.n, (const char *)out.p);
        pii_buf_free(&out);
        int num = 0;
        if (sscanf(txt, "<PRIVATE_PERSON_%d>", &num) != 1)
            return p;
        if (a->num[i] && a->num[i] != num)
            return p; /* the same value got two numbers */
        a->num[i] = num;
    }
    return NULL;
}

static void test_pseudonym_threads(void **state)
{
    (void)state;
    pii_ops *o = ops_with("pseudonym");
    thr_arg a[4];
    pthread_t th[4];
    for (int i = 0; i < 4; i++) {
        memset(&a[i], 0, sizeof a[i]);
        a[i].o = o;
        a[i].seed = i;
        assert_int_equal(pthread_create(&th[i], NULL, thr_main, &a[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        void *r;
        pthread_join(th[i], &r);
        assert_null(r);
    }
    /* every thread saw the same number for a value; numbers are 1..64, distinct */
    int seen[65] = {0};
    for (int v = 0; v < 64; v++) {
        int num = 0;
        for (int i = 0; i < 4; i++) {
            if (!a[i].num[v])
                continue;
            if (num)
                assert_int_equal(num, a[i].num[v]);
            num = a[i].num[v];
        }
        assert_true(num >= 1 && num <= 64);
        assert_int_equal(seen[num], 0);
        seen[num] = 1;
    }
    pii_ops_free(o);
}

static void test_buf(void **state)
{
    (void)state;
    pii_buf b = {0};
    assert_int_equal(pii_buf_append(&b, "", 0), PII_OK);
    assert_int_equal(b.n, 0);
    for (int i = 0; i < 1000; i++)
        assert_int_equal(pii_buf_append(&b, "abc", 3), PII_OK);
    assert_int_equal(b.n, 3000);
    assert_true(b.cap >= 3000);
    assert_memory_equal(b.p + 2997, "abc", 3);
    pii_buf_free(&b);
    assert_null(b.p);
    assert_int_equal(b.n, 0);
    pii_buf_free(NULL);
    assert_int_equal(pii_buf_append(&b, NULL, 3), PII_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_placeholder),
        cmocka_unit_test(test_mask),
        cmocka_unit_test(test_remove_and_overrides),
        cmocka_unit_test(test_hash),
        cmocka_unit_test(test_pseudonym),
        cmocka_unit_test(test_pseudonym_threads),
        cmocka_unit_test(test_buf),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
