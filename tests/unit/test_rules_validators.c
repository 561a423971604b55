/* test_rules_validators.c — the checks behind the rules (validators.h):
 * Luhn, IBAN mod-97 and lengths, calendar dates, entropy, and the
 * accept/reject decisions of each validator on hand-picked values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "redact/validators.h"

#define V(fn, s) fn((const uint8_t *)(s), strlen(s))

static void test_luhn(void **state)
{
    (void)state;
    assert_true(pii_val_luhn("4111111111111111", 16));
    assert_false(pii_val_luhn("4111111111111112", 16));
    assert_true(pii_val_luhn("79927398713", 11));
    assert_false(pii_val_luhn("79927398710", 11));
    assert_true(pii_val_luhn("0", 1));
    assert_false(pii_val_luhn("", 0));
    assert_false(pii_val_luhn("41x1", 4));
}

static void test_iban(void **state)
{
    (void)state;
    assert_true(pii_val_iban_mod97("DE89370400440532013000", 22));
    assert_false(pii_val_iban_mod97("DE89370400440532013001", 22));
    assert_true(pii_val_iban_mod97("GB82WEST12345698765432", 22));
    assert_false(pii_val_iban_mod97("gb82WEST12345698765432", 22));
    assert_true(V(pii_val_iban, "DE89 3704 0044 0532 0130 00"));
    assert_true(V(pii_val_iban, "NL91ABNA0417164300"));
    assert_true(V(pii_val_iban, "FR1420041010050500013M02606"));
    assert_false(V(pii_val_iban, "DE89 3704 0044 0532 0130 0"));              /* length */
    assert_false(V(pii_val_iban, "DE89 370 40044 05320130 00"));              /* grouping */
    assert_false(V(pii_val_iban, "XX89370400440532013000"));                  /* country */
    assert_false(V(pii_val_iban, "DE8937040044053201300000000000000000000")); /* long */
}

static void test_dates(void **state)
{
    (void)state;
    assert_true(pii_val_real_date(2024, 2, 29));
    assert_false(pii_val_real_date(2025, 2, 29));
    assert_true(pii_val_real_date(2000, 2, 29));
    assert_false(pii_val_real_date(1900, 2, 29));
    assert_false(pii_val_real_date(2026, 4, 31));
    assert_false(pii_val_real_date(2026, 13, 1));
    assert_false(pii_val_real_date(2026, 0, 1));
    assert_true(V(pii_val_date_iso, "2026-04-23"));
    assert_true(V(pii_val_date_iso, "2026/04/23"));
    assert_false(V(pii_val_date_iso, "2026-04/23")); /* mixed separators */
    assert_false(V(pii_val_date_iso, "2026-02-30"));
    assert_true(V(pii_val_date_numeric, "23.04.2026"));
    assert_false(V(pii_val_date_numeric, "04.23.2026")); /* dotted is d.m.y */
    assert_true(V(pii_val_date_numeric, "04/23/2026"));  /* m/d/y */
    assert_true(V(pii_val_date_numeric, "23/04/2026"));  /* d/m/y */
    assert_false(V(pii_val_date_numeric, "13/13/2026"));
    assert_false(V(pii_val_date_numeric, "23.04/2026"));
    assert_true(V(pii_val_date_text, "23 April 2026"));
    assert_true(V(pii_val_date_text, "April 23, 2026"));
    assert_true(V(pii_val_date_text, "1st of May, 2026"));
    assert_true(V(pii_val_date_text, "3. M\xc3\x84RZ 2026")); /* upper-case umlaut */
    assert_true(V(pii_val_date_text, "12 de abril de 2026"));
    assert_false(V(pii_val_date_text, "31 April 2026"));
    assert_false(V(pii_val_date_text, "Feb 29, 2025"));
    assert_false(V(pii_val_date_text, "23 Foo 2026"));
}

static void test_cards(void **state)
{
    (void)state;
    assert_true(V(pii_val_card, "4111 1111 1111 1111"));
    assert_true(V(pii_val_card, "4111-1111-1111-1111"));
    assert_true(V(pii_val_card, "378282246310005"));
    assert_true(V(pii_val_card, "3782 822463 10005"));
    assert_false(V(pii_val_card, "4111 1111-1111 1111"));  /* mixed separators */
    assert_false(V(pii_val_card, "41 11 1111 1111 1111")); /* grouping */
    assert_false(V(pii_val_card, "4111111111111112"));     /* Luhn */
    assert_false(V(pii_val_card, "1234567812345670"));     /* issuer (Luhn-valid) */
    assert_false(V(pii_val_card, "37828224631000"));       /* Amex needs 15 */
}

static void test_phones_accounts(void **state)
{
    (void)state;
    assert_true(V(pii_val_phone_intl, "+44 20 7946 0958"));
    assert_true(V(pii_val_phone_intl, "+44 (0)20 7946 0958"));
    assert_true(V(pii_val_phone_intl, "+1 415-555-0100 ext. 12"));
    assert_false(V(pii_val_phone_intl, "+1 2345"));           /* too short */
    assert_false(V(pii_val_phone_intl, "+44 20 7946 095 8")); /* 1-digit last group */
    assert_true(V(pii_val_phone_intl00, "0044 20 7946 0958"));
    assert_true(V(pii_val_phone_intl00, "0044 (0)20 7946 0958"));
    assert_false(V(pii_val_phone_intl00, "0012 345678"));        /* two groups */
    assert_false(V(pii_val_phone_intl00, "001234567890"));       /* one group */
    assert_false(V(pii_val_phone_intl00, "0044 20 7946 095 8")); /* 1-digit last group */
    assert_false(V(pii_val_phone_intl00, "0044 2 3"));           /* too few digits */
    assert_true(V(pii_val_phone_national, "020 7946 0958"));
    assert_true(V(pii_val_phone_national, "06.12.34.56.78"));
    assert_false(V(pii_val_phone_national, "010.001.002.003")); /* dotted, not FR */
    assert_false(V(pii_val_phone_national, "02110-1301"));      /* ZIP+4 */
    assert_false(V(pii_val_phone_national, "020 7946-0958"));   /* mixed */
    assert_true(V(pii_val_phone_loose, "4155550100"));
    assert_false(V(pii_val_phone_loose, "2026-04-23"));
    assert_false(V(pii_val_phone_loose, "192.168.100.200"));
    assert_false(V(pii_val_phone_loose, "1111111"));
    assert_true(V(pii_val_account, "12345678901"));
    assert_true(V(pii_val_account, "12-34-56"));
    assert_false(V(pii_val_account, "2026-04-23"));
    assert_false(V(pii_val_account, "000000"));
    assert_false(V(pii_val_account, "12-34 56"));
}

static void test_secrets(void **state)
{
    (void)state;
    assert_true(pii_val_entropy((const uint8_t *)"abcd", 4) == 2.0);
    assert_true(pii_val_entropy((const uint8_t *)"aaaa", 4) == 0.0);
    assert_true(V(pii_val_secret_token, "a8F3kL9mQ2xZ7vB1nC4d"));
    assert_true(V(pii_val_secret_token, "5f2b8c1d9e3a4f6b7c8d9e0f1a2b3c4d"));
    assert_true(V(pii_val_secret_token, "123e4567-e89b-12d3-a456-426614174000"));
    assert_false(V(pii_val_secret_token, "created_at_timestamp"));
    assert_false(V(pii_val_secret_token, "user_session_v2"));
    assert_false(V(pii_val_secret_token, "36000000000000"));
    assert_false(V(pii_val_secret_token, "/etc/ssl/private/server.key"));
    assert_false(V(pii_val_secret_token, "${API_KEY_VALUE_12}"));
    assert_false(V(pii_val_secret_token, "https://example.com/a1b2c3"));
    assert_true(V(pii_val_secret_password, "hunter22"));
    assert_false(V(pii_val_secret_password, "********"));
    assert_false(V(pii_val_secret_password, "changeit_placeholder"));
    assert_false(V(pii_val_secret_password, "NULL"));
    assert_false(V(pii_val_secret_password, "short"));
    assert_true(V(pii_val_openai_key, "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"));
    assert_false(V(pii_val_openai_key, "sk-learn-something-something-else"));
    assert_true(V(pii_val_jwt, "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxIn0.x"));
    assert_false(V(pii_val_jwt, "eyJmb28iOiJiYXIifQ.eyJzdWIiOiIxIn0.x")); /* no alg/typ */
    assert_true(V(pii_val_basic_auth, "dXNlcjpwYXNzd29yZA=="));           /* user:password */
    assert_false(V(pii_val_basic_auth, "aGVsbG8gd29ybGQ="));              /* no ':' */
}

static void test_email_url(void **state)
{
    (void)state;
    assert_true(V(pii_val_email, "bob@example.com"));
    assert_false(V(pii_val_email, "a..b@example.com"));
    assert_false(V(pii_val_email, ".a@example.com"));
    assert_false(V(pii_val_email, "icon@2x.png"));
    assert_false(V(pii_val_email, "a@-x.com"));
    assert_true(V(pii_val_url, "https://example.com/a_(b)"));
    assert_false(V(pii_val_url, "https://example.com/a)"));
    assert_false(V(pii_val_url, "https://example.com/a."));
    assert_false(V(pii_val_url, "http://example.com:65536/"));
    assert_true(V(pii_val_url, "http://example.com:65535/"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_luhn),
        cmocka_unit_test(test_iban),
        cmocka_unit_test(test_dates),
        cmocka_unit_test(test_cards),
        cmocka_unit_test(test_phones_accounts),
        cmocka_unit_test(test_secrets),
        cmocka_unit_test(test_email_url),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
