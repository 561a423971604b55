/* test_rules_ids.c — national identifiers (issue 41): account_number by the
 * label policy (docs/LABELS.md), each with its context and validator.
 *
 * Each case lists the exact spans (rule, byte offsets, text) of the
 * one-shot scan; check_cases() also requires the same spans from every
 * engine variant (JIT/interpreter x prefilter/plain) and from every
 * 2-chunk split of the input.  Cases without spans are hard negatives. */
#include "rules_test_util.h"
#include "redact/validators.h"

#define S(x) (const uint8_t *)(x), sizeof(x) - 1

static void test_ids(void **state)
{
    (void)state;
    check_case_file("ids");
}

static void test_validators(void **state)
{
    (void)state;
    assert_true(pii_val_ssn(S("536-22-8172")));
    assert_true(pii_val_ssn(S("912-70-1234"))); /* ITIN */
    assert_false(pii_val_ssn(S("912-40-1234")));
    assert_false(pii_val_ssn(S("666-22-8172")));
    assert_false(pii_val_ssn(S("000-22-8172")));
    assert_false(pii_val_ssn(S("536-00-8172")));
    assert_false(pii_val_ssn(S("536-22-0000")));
    assert_true(pii_val_es_dni(S("12345678Z")));
    assert_true(pii_val_es_dni(S("X1234567L")));
    assert_false(pii_val_es_dni(S("12345678A")));
    assert_true(pii_val_it_cf(S("RSSMRA85T10A562S")));
    assert_false(pii_val_it_cf(S("RSSMRA85T10A562T")));
    assert_true(pii_val_fr_nir(S("184127645108946")));
    assert_true(pii_val_fr_nir(S("1 84 12 76 451 089 46")));
    assert_false(pii_val_fr_nir(S("184127645108947")));
    assert_true(pii_val_uk_nino(S("AB123456C")));
    assert_false(pii_val_uk_nino(S("GB123456C")));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ids),
        cmocka_unit_test(test_validators),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
