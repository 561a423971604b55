/* test_rules_urllists.c — the url rules' word lists (redact/data): each
 * list is linked in and well formed (sorted lower-case ASCII lines), with
 * the number of lines redact/data/README.md gives; a lookup is exact and
 * ASCII caseless; the walk gives every line once. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "redact/urllists.h"

static void test_lists_well_formed(void **state)
{
    (void)state;
    static const long want[PII_URL_NLISTS] = {
        [PII_URL_PARAMS] = 28,     [PII_URL_PARAM_ENDS] = 9,  [PII_URL_PROFILE_HOSTS] = 21,
        [PII_URL_SITE_PAGES] = 76, [PII_URL_DOC_HOSTS] = 50,  [PII_URL_DOC_SUBDOMAINS] = 20,
        [PII_URL_DOC_PATHS] = 41,  [PII_URL_PERSON_DIRS] = 13};
    for (int l = 0; l < PII_URL_NLISTS; l++) {
        assert_int_equal(pii_urllist_check((pii_urllist)l), want[l]);
        size_t pos = 0, m;
        const char *w;
        long n = 0;
        while (pii_urllist_next((pii_urllist)l, &pos, &w, &m)) {
            assert_true(m > 0);
            assert_true(pii_urllist_has((pii_urllist)l, (const uint8_t *)w, m));
            n++;
        }
        assert_int_equal(n, want[l]);
    }
    assert_int_equal(pii_urllist_check(PII_URL_NLISTS), -1);
}

#define HAS(l, s) pii_urllist_has(PII_URL_##l, (const uint8_t *)(s), sizeof s - 1)

static void test_lookup(void **state)
{
    (void)state;
    assert_true(HAS(PROFILE_HOSTS, "github.com"));
    assert_true(HAS(PROFILE_HOSTS, "GitHub.COM"));
    assert_false(HAS(PROFILE_HOSTS, "github.co"));
    assert_false(HAS(PROFILE_HOSTS, "github.comx"));
    assert_false(HAS(PROFILE_HOSTS, ""));
    assert_true(HAS(DOC_SUBDOMAINS, "docs."));
    assert_true(HAS(DOC_PATHS, "/TR"));
    assert_true(HAS(SITE_PAGES, "features"));
    assert_false(HAS(SITE_PAGES, "kofiasante"));
    assert_true(HAS(PARAMS, "api_key"));
    assert_true(HAS(PERSON_DIRS, "Users"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lists_well_formed),
        cmocka_unit_test(test_lookup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
