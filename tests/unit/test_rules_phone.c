/* test_rules_phone.c — private_phone rules.
 *
 * Each case lists the exact spans (rule, byte offsets, text) of the
 * one-shot scan; check_cases() also requires the same spans from every
 * engine variant (JIT/interpreter x prefilter/plain) and from every
 * 2-chunk split of the input.  Cases without spans are hard negatives.
 * Expected values were checked by hand against docs/RULES.md. */
#include "rules_test_util.h"

static const rcase phone_cases[] = {
    {"Mail bob.smith@example.com or call +1 415-555-0100 today.",
     {{"email", 5, 26, "bob.smith@example.com"}, {"phone_context", 35, 50, "+1 415-555-0100"}}},
    {"UK +44 20 7946 0958, FR +33 1 23 45 67 89.",
     {{"phone_intl", 3, 19, "+44 20 7946 0958"}, {"phone_intl", 24, 41, "+33 1 23 45 67 89"}}},
    {"DE +49 30 901820; IN +91 98765 43210; JP +81 3-1234-5678",
     {{"phone_intl", 3, 16, "+49 30 901820"},
      {"phone_intl", 21, 36, "+91 98765 43210"},
      {"phone_intl", 41, 56, "+81 3-1234-5678"}}},
    {"E.164 +14155550100 and +44 (0)20 7946 0958",
     {{"phone_intl", 6, 18, "+14155550100"}, {"phone_intl", 23, 42, "+44 (0)20 7946 0958"}}},
    {"US (415) 555-0100, 415-555-0100 or 415.555.0100 ext. 12",
     {{"phone_nanp", 3, 17, "(415) 555-0100"},
      {"phone_nanp", 19, 31, "415-555-0100"},
      {"phone_nanp", 35, 55, "415.555.0100 ext. 12"}}},
    {"toll free 1-800-555-0199 x123", {{"phone_nanp", 10, 29, "1-800-555-0199 x123"}}},
    {"UK 020 7946 0958 or 07700 900123",
     {{"phone_national", 3, 16, "020 7946 0958"}, {"phone_national", 20, 32, "07700 900123"}}},
    {"FR 01 23 45 67 89 / 06.12.34.56.78",
     {{"phone_national", 3, 17, "01 23 45 67 89"}, {"phone_national", 20, 34, "06.12.34.56.78"}}},
    {"DE 030 901820, (030) 12345678, 030/1234567",
     {{"phone_national", 3, 13, "030 901820"},
      {"phone_national", 15, 29, "(030) 12345678"},
      {"phone_national", 31, 42, "030/1234567"}}},
    {"JP 03-1234-5678 or 090-1234-5678",
     {{"phone_national", 3, 15, "03-1234-5678"}, {"phone_national", 19, 32, "090-1234-5678"}}},
    {"IN 98765 43210 or 98765-43210",
     {{"phone_in", 3, 14, "98765 43210"}, {"phone_in", 18, 29, "98765-43210"}}},
    {"Tel: 4155550100, phone no. 0044 20 7946 0958",
     {{"phone_context", 5, 15, "4155550100"}, {"phone_context", 27, 44, "0044 20 7946 0958"}}},
    {"mobile:+49 171 1234567", {{"phone_context", 7, 22, "+49 171 1234567"}}},
    /* a form's label above its value: a line break after ':' (not without it, not two) */
    {"Phone:\n467 3395\r\nFax:\r\n  60-56-85-91",
     {{"phone_context", 7, 15, "467 3395"}, {"phone_context", 25, 36, "60-56-85-91"}}},
    {"Phone\n467 3395 and Phone:\n\n467 3395", {{0}}},
    {"Ruf an: 0044 20 7946 0958 oder 0049 30 901820, 001 415 555 0100 ext. 12.",
     {{"phone_intl00", 8, 25, "0044 20 7946 0958"},
      {"phone_intl00", 31, 45, "0049 30 901820"},
      {"phone_intl00", 47, 71, "001 415 555 0100 ext. 12"}}},
    {"IDs 001234567890, 0012 345678, 00123-4567, order 0044 20 7946 0958, 0.0044 20 7946", {{0}}},
    {"ids 1234567890 and 123-456-7890 and 555-123-4567", {{0}}},
    {"order 415-555-0100, Order #415-555-0100, invoice 020 7946 0958", {{0}}},
    {"date 2026-04-23 and 23.04.2026, time 12:30:45",
     {{"date_iso", 5, 15, "2026-04-23"}, {"date_numeric", 20, 30, "23.04.2026"}}},
    {"ip 192.168.1.1 and 10.0.0.254, version 10.0.19045.2965", {{0}}},
    {"Boston, MA 02110-1301 USA; ISBN 0-306-40615-2", {{0}}},
    {"price $415.555 and +1 2 and a+12345678", {{0}}},
    {"uuid 123e4567-e89b-12d3-a456-426614174000", {{0}}},
    {"call 2026-04-23 and phone 12.34.56.78", {{"date_iso", 5, 15, "2026-04-23"}}},
    /* issue 41: en dashes, JSON keys, no separators after a phone word */
    {"ring 415\xe2\x80\x93"
     "555\xe2\x80\x93"
     "0132 or phone 415\xe2\x80\x93"
     "555\xe2\x80\x93"
     "0133",
     {{"phone_nanp", 5, 21,
       "415\xe2\x80\x93"
       "555\xe2\x80\x93"
       "0132"},
      {"phone_context", 31, 47,
       "415\xe2\x80\x93"
       "555\xe2\x80\x93"
       "0133"}}},
    {"{\"phone\":\"4155550132\",\"mobile\": \"+44 7700 900123\"}",
     {{"phone_context", 10, 20, "4155550132"}, {"phone_context", 33, 48, "+44 7700 900123"}}},
    {"v1\xe2\x80\x93"
     "415 and 12\xe2\x80\x93"
     "04\xe2\x80\x93"
     "2026",
     {{0}}},
};

RULES_CASES_MAIN(test_phone, phone_cases)
