/* test_rules_email_url.c — private_email and private_url rules.
 *
 * Each case lists the exact spans (rule, byte offsets, text) of the
 * one-shot scan; check_cases() also requires the same spans from every
 * engine variant (JIT/interpreter x prefilter/plain) and from every
 * 2-chunk split of the input.  Cases without spans are hard negatives.
 * Expected values were checked by hand against docs/RULES.md. */
#include "rules_test_util.h"

static void test_email(void **state)
{
    (void)state;
    check_case_file("email");
}

static void test_url(void **state)
{
    (void)state;
    check_case_file("url");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_email),
        cmocka_unit_test(test_url),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
