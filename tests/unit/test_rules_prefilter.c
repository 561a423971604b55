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

RULES_CASES_MAIN(test_prefilter, "prefilter")
