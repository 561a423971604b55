/* test_rules_policy.c — the rule tier at its default breadth (the label
 * policy, docs/LABELS.md): a date is a finding only after a word of a
 * person's event (date_context), a URL only when it names a person or
 * carries personal data or a credential; test results and digests are no
 * secrets.  Exact spans as in the other rule suites (check_cases_flags:
 * every engine variant, every 2-chunk split); the whole table
 * (PII_RULES_BROAD) is what test_rules_date.c and test_rules_email_url.c
 * test. */
#include "rules_test_util.h"

static void test_policy(void **state)
{
    (void)state;
    check_case_file_flags("policy", 0);
}

/* The flags: PII_RULES_BROAD gives the whole table back, unknown flags are
 * refused. */
static void test_flags(void **state)
{
    (void)state;
    pii_err e = PII_OK;
    assert_null(pii_rules_create_flags(2u, &e));
    assert_int_equal(e, PII_EINVAL);
    pii_rules *broad = pii_rules_create_flags(PII_RULES_BROAD, &e);
    pii_rules *pol = pii_rules_create_flags(0, &e);
    assert_non_null(broad);
    assert_non_null(pol);
    static const char t[] = "Version 3, 29 June 2007 https://www.gnu.org/licenses/";
    pii_spanvec a = {0}, b = {0};
    assert_int_equal(pii_rules_scan_all(broad, (const uint8_t *)t, sizeof t - 1, &a), PII_OK);
    assert_int_equal(pii_rules_scan_all(pol, (const uint8_t *)t, sizeof t - 1, &b), PII_OK);
    assert_int_equal(a.n, 2);
    assert_int_equal(a.v[0].start, 11);
    assert_int_equal(a.v[0].end, 23);
    assert_int_equal(a.v[1].start, 24);
    assert_int_equal(a.v[1].end, 53);
    assert_int_equal(b.n, 0);
    pii_spanvec_free(&a);
    pii_spanvec_free(&b);
    pii_rules_free(broad);
    pii_rules_free(pol);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_policy),
        cmocka_unit_test(test_flags),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
