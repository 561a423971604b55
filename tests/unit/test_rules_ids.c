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

static const rcase id_cases[] = {
    {"SSN: 123-45-6789", {{"ssn_context", 5, 16, "123-45-6789"}}},
    {"{\"ssn\":\"536-22-8172\",\"tin\": 912708172}",
     {{"ssn_context", 8, 19, "536-22-8172"}, {"ssn_context", 28, 37, "912708172"}}},
    {"Social Security Number 536 22 8172", {{"ssn_context", 23, 34, "536 22 8172"}}},
    {"id 536-22-8172 ok", {{"ssn", 3, 14, "536-22-8172"}}},
    /* area 000, 666, 9xx without an ITIN group; group 00; serial 0000 */
    {"000-12-3456 666-12-3456 912-40-1234 123-00-4567 123-45-0000 SSN 123450000", {{0}}},
    {"order 536-22-8172, 536-22-8172-1, 1.536-22-8172", {{0}}},
    {"NI number: AB 12 34 56 C, ab123456c, AB123456C",
     {{"uk_nino", 11, 24, "AB 12 34 56 C"}, {"uk_nino", 37, 46, "AB123456C"}}},
    {"GB123456A BG 12 34 56 A TN123456B", {{0}}},
    {"passport number: C01X00T47, Passport No. 123456789",
     {{"id_context", 17, 26, "C01X00T47"}, {"id_context", 41, 50, "123456789"}}},
    {"driver's license D1234567; driving_licence=SMITH901015JJ9AA",
     {{"id_context", 17, 25, "D1234567"}, {"id_context", 43, 59, "SMITH901015JJ9AA"}}},
    {"Medicare: 1EG4-TE5-MK73 MRN: 00123456",
     {{"id_context", 10, 23, "1EG4-TE5-MK73"}, {"id_context", 29, 37, "00123456"}}},
    {"NHS number 943 476 5919 was", {{"id_context", 11, 23, "943 476 5919"}}},
    {"{\"bsn\":\"111222333\",\"pesel\":\"44051401359\",\"steuer_id\":\"65929970489\"}",
     {{"id_context", 8, 17, "111222333"},
      {"id_context", 28, 39, "44051401359"},
      {"id_context", 54, 65, "65929970489"}}},
    {"passport photo, license 2.0, patient 12, MRN: 2026-04-23, ni 12345 personas",
     {{"date_iso", 46, 56, "2026-04-23"}}},
    {"DNI 12345678Z; x 12345678Z, X1234567L, X-1234567-L, 12345678A X1234567A",
     {{"id_context", 4, 13, "12345678Z"},
      {"es_dni", 17, 26, "12345678Z"},
      {"es_dni", 28, 37, "X1234567L"},
      {"es_dni", 39, 50, "X-1234567-L"}}},
    {"CF: RSSMRA85T10A562S; RSSMRA85T10A562T", {{"it_codice_fiscale", 4, 20, "RSSMRA85T10A562S"}}},
    {"s\xc3\xa9"
     "cu 1 84 12 76 451 089 46, 184127645108946; 184127645108947",
     {{"fr_nir", 6, 27, "1 84 12 76 451 089 46"}, {"fr_nir", 29, 44, "184127645108946"}}},
};

static void test_ids(void **state)
{
    (void)state;
    check_cases(id_cases, sizeof id_cases / sizeof id_cases[0]);
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
