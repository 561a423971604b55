/* test_ops_sha256.c — SHA-256 against the FIPS 180-2 examples and
 * HMAC-SHA256 against RFC 4231 test cases 1-7 (case 5 truncated to 128
 * bits, as in the RFC). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pii_sha256.h"

static void hex(const uint8_t *d, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", d[i]);
}

static void check_sha(const void *m, size_t n, const char *want)
{
    uint8_t d[32];
    char h[65];
    pii_sha256(m, n, d);
    hex(d, 32, h);
    assert_string_equal(h, want);
}

static void test_sha256_fips(void **state)
{
    (void)state;
    check_sha("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    check_sha("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    check_sha("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    check_sha("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklm"
              "nopqrlmnopqrsmnopqrstnopqrstu",
              112, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
    /* one million 'a', fed in uneven pieces */
    char *a = malloc(1000000);
    assert_non_null(a);
    memset(a, 'a', 1000000);
    pii_sha256_ctx c;
    pii_sha256_init(&c);
    for (size_t at = 0, k = 1; at < 1000000; k = k * 3 % 1000 + 1) {
        size_t n = 1000000 - at < k ? 1000000 - at : k;
        pii_sha256_update(&c, a + at, n);
        at += n;
    }
    uint8_t d[32];
    char h[65];
    pii_sha256_final(&c, d);
    hex(d, 32, h);
    assert_string_equal(h, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    check_sha(a, 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    free(a);
}

static void test_sha256_padding_edges(void **state)
{
    (void)state;
    /* 55, 56, 63, 64, 65 bytes: the length field in the same or next block;
     * an incremental and a one-shot hash must agree. */
    uint8_t m[130];
    for (size_t i = 0; i < sizeof m; i++)
        m[i] = (uint8_t)(i * 7 + 1);
    size_t lens[] = {0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129};
    for (size_t k = 0; k < sizeof lens / sizeof lens[0]; k++) {
        uint8_t a[32], b[32];
        pii_sha256(m, lens[k], a);
        pii_sha256_ctx c;
        pii_sha256_init(&c);
        for (size_t i = 0; i < lens[k]; i++)
            pii_sha256_update(&c, m + i, 1);
        pii_sha256_final(&c, b);
        assert_memory_equal(a, b, 32);
    }
}

static void check_hmac(const uint8_t *k, size_t kn, const void *d, size_t dn, const char *want)
{
    uint8_t mac[32];
    char h[65];
    pii_hmac_sha256(k, kn, d, dn, mac);
    hex(mac, 32, h);
    assert_memory_equal(h, want, strlen(want));
}

static void test_hmac_rfc4231(void **state)
{
    (void)state;
    uint8_t k[131];
    memset(k, 0x0b, 20);
    check_hmac(k, 20, "Hi There", 8,
               "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
    check_hmac((const uint8_t *)"Jefe", 4, "what do ya want for nothing?", 28,
               "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    uint8_t d[50];
    memset(k, 0xaa, 20);
    memset(d, 0xdd, 50);
    check_hmac(k, 20, d, 50, "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe");
    for (int i = 0; i < 25; i++)
        k[i] = (uint8_t)(i + 1);
    memset(d, 0xcd, 50);
    check_hmac(k, 25, d, 50, "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b");
    memset(k, 0x0c, 20);
    check_hmac(k, 20, "Test With Truncation", 20, "a3b6167473100ee06e0c796c2955552b");
    memset(k, 0xaa, 131);
    check_hmac(k, 131, "Test Using Larger Than Block-Size Key - Hash Key First", 54,
               "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
    const char *m7 = "This is a test using a larger than block-size key and a larger than "
                     "block-size data. The key needs to be hashed before being used by the HMAC "
                     "algorithm.";
    check_hmac(k, 131, m7, strlen(m7),
               "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sha256_fips),
        cmocka_unit_test(test_sha256_padding_edges),
        cmocka_unit_test(test_hmac_rfc4231),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
