/* test_rules_date.c — private_date rules.
 *
 * Each case lists the exact spans (rule, byte offsets, text) of the
 * one-shot scan; check_cases() also requires the same spans from every
 * engine variant (JIT/interpreter x prefilter/plain) and from every
 * 2-chunk split of the input.  Cases without spans are hard negatives.
 * Expected values were checked by hand against docs/RULES.md. */
#include "rules_test_util.h"

static const rcase date_cases[] = {
    {"born 1990-05-17, due 2026/04/23.",
     {{"date_iso", 5, 15, "1990-05-17"}, {"date_iso", 21, 31, "2026/04/23"}}},
    {"on 23 April 2026 and April 23, 2026",
     {{"date_text_dmy", 3, 16, "23 April 2026"}, {"date_text_mdy", 21, 35, "April 23, 2026"}}},
    {"1st of May, 2026; Sept. 1, 2026; 3rd June 2025",
     {{"date_text_dmy", 0, 16, "1st of May, 2026"},
      {"date_text_mdy", 18, 31, "Sept. 1, 2026"},
      {"date_text_dmy", 33, 46, "3rd June 2025"}}},
    {"23.04.2026 and 1.2.2026 and 23/04/2026 and 04/23/2026 and 23-04-2026",
     {{"date_numeric", 0, 10, "23.04.2026"},
      {"date_numeric", 15, 23, "1.2.2026"},
      {"date_numeric", 28, 38, "23/04/2026"},
      {"date_numeric", 43, 53, "04/23/2026"},
      {"date_numeric", 58, 68, "23-04-2026"}}},
    {"3. M\xc3\xa4rz 2026, 12 de abril de 2026, 1er janvier 2026, 5 d\xc3\xa9"
     "cembre 2025",
     {{"date_text_dmy", 0, 13, "3. M\xc3\xa4rz 2026"},
      {"date_text_dmy", 15, 34, "12 de abril de 2026"},
      {"date_text_dmy", 36, 52, "1er janvier 2026"},
      {"date_text_dmy", 54, 70,
       "5 d\xc3\xa9"
       "cembre 2025"}}},
    {"Feb 29, 2024 and 29 February 2024",
     {{"date_text_mdy", 0, 12, "Feb 29, 2024"}, {"date_text_dmy", 17, 33, "29 February 2024"}}},
    {"2026-02-30, 31.04.2026, 13/13/2026, Feb 29, 2025, 32 April 2026", {{0}}},
    {"backup_2026-04-23.tar /var/log/2026-04-23/x 2026-04-23.log v1.2.2020", {{0}}},
    {"2026-04-23T10:15:30Z INFO started", {{0}}},
    {"[2026-04-23 10:15:30,123] WARN", {{0}}},
    {"23/Apr/2026:10:15:30 +0000 and 23.04.2026 14:30", {{0}}},
    {"April 2026, 1.2.3, 10.12.19, 2026-4-3", {{0}}},
};

RULES_CASES_MAIN(test_date, date_cases)
