/* test_rules_policy.c — the rule tier at its default breadth (the label
 * policy, docs/LABELS.md): a date is a finding only after a word of a
 * person's event (date_context), a URL only when it names a person or
 * carries personal data or a credential; test results and digests are no
 * secrets.  Exact spans as in the other rule suites (check_cases_flags:
 * every engine variant, every 2-chunk split); the whole table
 * (PII_RULES_BROAD) is what test_rules_date.c and test_rules_email_url.c
 * test. */
#include "rules_test_util.h"

static const rcase policy_cases[] = {
    /* dates: a person's event before them */
    {"born 1990-05-17, due 2026/04/23.", {{"date_context", 5, 15, "1990-05-17"}}},
    {"Date of birth: 12 March 1985", {{"date_context", 15, 28, "12 March 1985"}}},
    {"DOB 05/17/1990; admitted on 3.4.2021",
     {{"date_context", 4, 14, "05/17/1990"}, {"date_context", 28, 36, "3.4.2021"}}},
    {"She was hired on April 23, 2026 and died 1st of May, 2026",
     {{"date_context", 17, 31, "April 23, 2026"}, {"date_context", 41, 57, "1st of May, 2026"}}},
    {"Appointment: Tuesday, 3 June 2025", {{"date_context", 22, 33, "3 June 2025"}}},
    {"geboren am 3. M\xc3\xa4rz 1980", {{"date_context", 11, 24, "3. M\xc3\xa4rz 1980"}}},
    /* ... and not otherwise: release, licence and changelog dates */
    {"Version 3, 29 June 2007", {{0}}},
    {"2022-06-27  Nick Clifton  <x>", {{0}}},
    {"Released on 23.04.2026; see April 23, 2026.", {{0}}},
    /* a sentence end, a digit or an e-mail ends the context */
    {"She was born. The report of 2021-03-04 is out.", {{0}}},
    {"born in room 12 on 1990-05-17", {{0}}},
    {"DOB a@b.co 1990-05-17", {{"email", 4, 10, "a@b.co"}}},
    {"born 2026-02-30 and born 2026-04-23T10:15:30Z", {{0}}},
    /* URLs: a person's or a credential's (a rejected URL is not cut back to a shorter one that ends
       before a "/": "github.com/nodejs" of a pull request) */
    {"See https://www.gnu.org/licenses/ and https://github.com/nodejs/node/pull/42555", {{0}}},
    {"http://mozilla.org/MPL/2.0/ or www.example.com/docs?page=2&lang=en", {{0}}},
    {"https://github.com/kofiasante and https://www.linkedin.com/in/jdoe/",
     {{"url", 0, 29, "https://github.com/kofiasante"},
      {"url", 34, 67, "https://www.linkedin.com/in/jdoe/"}}},
    {"https://jane:pw@db.example.com/x https://example.com/~jdoe/",
     {{"url", 0, 32, "https://jane:pw@db.example.com/x"},
      {"url", 33, 59, "https://example.com/~jdoe/"}}},
    {"https://x.io/a?token=abc1 https://x.io/r?email=jane%40x.org "
     "https://x.io/s?X-Amz-Signature=ab",
     {{"url", 0, 25, "https://x.io/a?token=abc1"},
      {"url", 26, 59, "https://x.io/r?email=jane%40x.org"},
      {"url", 60, 93, "https://x.io/s?X-Amz-Signature=ab"}}},
    {"https://api.example.com/users/8812/orders",
     {{"url", 0, 41, "https://api.example.com/users/8812/orders"}}},
    {"https://docs.example.com/search?keywords=abc&page=2 https://example.org/docs/install.html",
     {{0}}},
    /* issue 41: profile URLs without scheme or www (url_profile): a profile
     * host, one path segment that is not a site page; not a project's page,
     * not inside an e-mail or a longer URL */
    {"github.com/kofiasante, instagram.com/sofia.baranova.ph. and linkedin.com/in/jdoe/",
     {{"url_profile", 0, 21, "github.com/kofiasante"},
      {"url_profile", 23, 54, "instagram.com/sofia.baranova.ph"},
      {"url_profile", 60, 81, "linkedin.com/in/jdoe/"}}},
    {"twitter.com/jd_x x.com/jd t.me/jdoe gitlab.com/j-doe facebook.com/jane.doe medium.com/@jdoe",
     {{"url_profile", 0, 16, "twitter.com/jd_x"},
      {"url_profile", 17, 25, "x.com/jd"},
      {"url_profile", 26, 35, "t.me/jdoe"},
      {"url_profile", 36, 52, "gitlab.com/j-doe"},
      {"url_profile", 53, 74, "facebook.com/jane.doe"},
      {"url_profile", 75, 91, "medium.com/@jdoe"}}},
    {"GitHub: GitHub.com/KofiAsante?tab=repositories",
     {{"url_profile", 8, 46, "GitHub.com/KofiAsante?tab=repositories"}}},
    {"github.com/nodejs/node github.com/features twitter.com/login (kofi@github.com)",
     {{"email", 62, 77, "kofi@github.com"}}},
    {"https://docs.example.com/github.com/x github.com/in/x linkedin.com/jdoe example.com/jdoe",
     {{0}}},
    /* ... and a site page is no profile with a scheme either */
    {"https://github.com/features https://twitter.com/jdoe",
     {{"url", 28, 52, "https://twitter.com/jdoe"}}},
    /* an unknown site may be a person's: fail closed */
    {"https://x.io/search?keywords=abc&page=2",
     {{"url", 0, 39, "https://x.io/search?keywords=abc&page=2"}}},
    /* Chinese text (both breadths): a mobile number after a phone word, an
     * e-mail right after a Han character, a resident ID with its check
     * character after its label */
    {"\xe6\x88\x91\xe5\x8f\xab\xe7\x8e\x8b\xe5\xb0\x8f\xe6\x98\x8e\xef\xbc\x8c"
     "\xe6\x89\x8b\xe6\x9c\xba\xe5\x8f\xb7\xe7\xa0\x81\xe6\x98\xaf"
     "13812345678\xef\xbc\x8c"
     "\xe9\x82\xae\xe7\xae\xb1wang@example.cn\xef\xbc\x8c"
     "\xe8\xba\xab\xe4\xbb\xbd\xe8\xaf\x81\xe5\x8f\xb7\xe7\xa0\x81\xef\xbc\x9a"
     "11010519491231002X\xe3\x80\x82",
     {{"phone_cn", 33, 44, "13812345678"},
      {"email_cjk", 53, 68, "wang@example.cn"},
      {"cn_resident_id", 89, 107, "11010519491231002X"}}},
    /* no phone word (an order number), a wrong check character */
    {"\xe8\xae\xa2\xe5\x8d\x95\xe5\x8f\xb7"
     "13812345678 "
     "\xe8\xba\xab\xe4\xbb\xbd\xe8\xaf\x81\xef\xbc\x9a"
     "110105194912310021",
     {{0}}},
    /* secrets: a test log's result line is no password */
    {"PASS: config.sub\nXPASS: t-strtod.sh\nFAIL: t-1", {{0}}},
    /* ... nor a code path or a file name assigned to a password name */
    {"self.password = self.distribution.password\npw: setup.py\npass: th_u1.th_u2.tu_data", {{0}}},
    {"password: correct.horse", {{"password_assignment", 10, 23, "correct.horse"}}},
    {"DB_PASS: hunter2xyz\nPass: s3cretvalue",
     {{"password_assignment", 9, 19, "hunter2xyz"},
      {"password_assignment", 26, 37, "s3cretvalue"}}},
};

static void test_policy(void **state)
{
    (void)state;
    check_cases_flags(policy_cases, sizeof policy_cases / sizeof policy_cases[0], 0);
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
