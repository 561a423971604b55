/* test_rules_prefilter.c — the prefilter's clauses that read a shape whole
 * (issue 41's throughput: a login name as the whole run, a NIE's seven
 * digits, a trunk-0 phone's six further digits, an ISO date's day and the
 * byte after it, /home/ and /Users/, a street number's preceding byte),
 * and a value that ends the document.
 *
 * Each case sits on both sides of one clause's boundary.  check_cases()
 * requires the exact spans from the one-shot scan and the same spans from
 * every engine variant (the plain PCRE2 search, which no prefilter
 * narrows) and from every 2-chunk split (the undecided ends of each
 * clause).  Expected values were checked by hand against docs/RULES.md. */
#include "rules_test_util.h"

static const rcase prefilter_cases[] = {
    /* login_assignment: the name is the whole ident run */
    {"user_agent=\"Mozilla/5.0 (X11; Linux x86_64)\" user_id=7 useragent=x", {{0}}},
    {"USER.LOGIN=jdoe42 Login-Name: mpetrov UID=kofi7 usernames=alice user_=bob",
     {{"login_assignment", 11, 17, "jdoe42"},
      {"login_assignment", 30, 37, "mpetrov"},
      {"login_assignment", 42, 47, "kofi7"}}},
    /* es_dni's NIE: X, Y or Z, an optional '-' and seven digits */
    {"NIE X1234567L, X-1234567-L, X123456L, X11 Y7654321G",
     {{"id_context", 4, 13, "X1234567L"},
      {"es_dni", 15, 26, "X-1234567-L"},
      {"es_dni", 42, 51, "Y7654321G"}}},
    /* phone_national: 0[1-9] and six more digits, single separators */
    {"01.421Z 03-01T00:00 call 020 7946 0958 or 01 23 45 67 89, 0151-234/5678, 01 23 45 67 8",
     {{"phone_context", 25, 38, "020 7946 0958"}, {"phone_national", 42, 56, "01 23 45 67 89"}}},
    /* date_iso: two digits of day and no ASCII word byte after them */
    {"2026-03-01T00:00:00Z 2026-03-01 2026-03-015 2026-03-01_x 2026/03/01.",
     {{"date_iso", 21, 31, "2026-03-01"}, {"date_iso", 57, 67, "2026/03/01"}}},
    /* street_address: not after . - / : # $ + , */
    {"at 00.927 Main Street, 12 Main Street, x:12 Main Street, #12 Main Street",
     {{"street_address", 23, 37, "12 Main Street"}}},
    /* a digit run and one byte ending the document (es_dni): the prefilter
     * skipped it at the end of the input, a leak the plain search had not */
    {"x 12345678Z", {{"es_dni", 2, 11, "12345678Z"}}},
    {"DNI 12345678Z, y 49272221B",
     {{"id_context", 4, 13, "12345678Z"}, {"es_dni", 17, 26, "49272221B"}}},
    /* home_dir_user: /home/ and /Users/ whole */
    {"/home/alice/ /homes/bob/ /Users/carol/ /Usersx/dan/ /home",
     {{"home_dir_user", 6, 11, "alice"}, {"home_dir_user", 32, 37, "carol"}}},
};

RULES_CASES_MAIN(test_prefilter, prefilter_cases)
