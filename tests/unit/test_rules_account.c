/* test_rules_account.c — account_number rules: cards, IBAN, context numbers.
 *
 * Each case lists the exact spans (rule, byte offsets, text) of the
 * one-shot scan; check_cases() also requires the same spans from every
 * engine variant (JIT/interpreter x prefilter/plain) and from every
 * 2-chunk split of the input.  Cases without spans are hard negatives.
 * Expected values were checked by hand against docs/RULES.md. */
#include "rules_test_util.h"

static const rcase account_cases[] = {
    {"card 4111 1111 1111 1111 and 4111 1111 1111 1112", {{"card", 5, 24, "4111 1111 1111 1111"}}},
    {"4111-1111-1111-1111, 5555555555554444 and 378282246310005",
     {{"card", 0, 19, "4111-1111-1111-1111"},
      {"card", 21, 37, "5555555555554444"},
      {"card", 42, 57, "378282246310005"}}},
    {"Amex 3782 822463 10005, Discover 6011 1111 1111 1117",
     {{"card", 5, 22, "3782 822463 10005"}, {"card", 33, 52, "6011 1111 1111 1117"}}},
    {"JCB 3530111333300000, Diners 30569309025904, MC 2223003122003222",
     {{"card", 4, 20, "3530111333300000"},
      {"card", 29, 43, "30569309025904"},
      {"card", 48, 64, "2223003122003222"}}},
    {"UnionPay 6200000000000005 end", {{"card", 9, 25, "6200000000000005"}}},
    /* issue 18 M6: a run of cards separated by spaces: every one found */
    {"4111 1111 1111 1111 5555 5555 5555 4444 4111 1111 1111 1111",
     {{"card_run", 0, 19, "4111 1111 1111 1111"},
      {"card_run", 20, 39, "5555 5555 5555 4444"},
      {"card", 40, 59, "4111 1111 1111 1111"}}},
    {"5555-5555-5555-4444 4111-1111-1111-1111.",
     {{"card_run", 0, 19, "5555-5555-5555-4444"}, {"card", 20, 39, "4111-1111-1111-1111"}}},
    /* a run that fails Luhn is not a card; mixed separators are not one */
    {"4111 1111 1111 1112 4111-1111 1111 1111 x", {{0}}},
    {"IBAN DE89 3704 0044 0532 0130 00 EUR", {{"iban", 5, 32, "DE89 3704 0044 0532 0130 00"}}},
    {"GB82WEST12345698765432 and GB82 WEST 1234 5698 7654 32",
     {{"iban", 0, 22, "GB82WEST12345698765432"}, {"iban", 27, 54, "GB82 WEST 1234 5698 7654 32"}}},
    {"FR1420041010050500013M02606, NL91ABNA0417164300.",
     {{"iban", 0, 27, "FR1420041010050500013M02606"}, {"iban", 29, 47, "NL91ABNA0417164300"}}},
    {"account number: 12345678901", {{"account_context", 16, 27, "12345678901"}}},
    /* identifiers after a Japanese label (id_label_ja) and the labels it leaves alone */
    /* the longest label in bytes (ten 4-byte kanji) and separators: the first digit is
     * 64 bytes after the label's start, still inside the prefilter's window */
    {"\xf0\xa0\x80\x80\xf0\xa0\x80\x80\xf0\xa0\x80\x80\xf0\xa0\x80\x80\xf0\xa0\x80\x80\xf0\xa0\x80"
     "\x80\xf0\xa0\x80\x80\xf0\xa0\x80\x80\xf0\xa0\x80\x80\xf0\xa0\x80\x80\xe7\x95\xaa\xe5\x8f\xb7"
     "\xe3\x80\x80\xef\xbc\x9a\xe3\x80\x80\xe7\xac\xac"
     "ABCDEF123",
     {{"id_label_ja", 58, 67, "ABCDEF123"}}},
    {"\xe4\xbc\x9a\xe5\x93\xa1\xe7\x95\xaa\xe5\x8f\xb7:M-882901 "
     "\xe3\x81\xa8\xe7\xa4\xbe\xe5\x93\xa1\xe7\x95\xaa\xe5\x8f\xb7 S-30412",
     {{"id_label_ja", 13, 21, "M-882901"}, {"id_label_ja", 38, 45, "S-30412"}}},
    {"\xe9\x81\x8b\xe8\xbb\xa2\xe5\x85\x8d\xe8\xa8\xb1\xe8\xa8\xbc\xe7\x95\xaa\xe5\x8f\xb7:"
     "\xe7\xac\xac"
     "302886414375\xe5\x8f\xb7 \xe5\x8f\x97\xe4\xbb\x98ID\xef\xbc\x9aR20260702-0031",
     {{"id_label_ja", 25, 37, "302886414375"}, {"id_label_ja", 52, 66, "R20260702-0031"}}},
    {"\xe8\xa2\xab\xe4\xbf\x9d\xe9\x99\xba\xe8\x80\x85\xe8\xa8\x98\xe5\x8f\xb7\xe3\x83\xbb\xe7\x95"
     "\xaa\xe5\x8f\xb7:77120945-16",
     {{"id_label_ja", 28, 39, "77120945-16"}}},
    {"\xe9\x9b\xbb\xe8\xa9\xb1\xe7\x95\xaa\xe5\x8f\xb7: 03-1234-5678 FAX\xe7\x95\xaa\xe5\x8f\xb7 "
     "03-1234-5679",
     {{"phone_national", 14, 26, "03-1234-5678"}, {"phone_national", 37, 49, "03-1234-5679"}}},
    {"\xe7\x99\xbb\xe9\x8c\xb2\xe7\x95\xaa\xe5\x8f\xb7: 2026-07-01",
     {{"date_iso", 14, 24, "2026-07-01"}}},
    {"\xe9\x83\xb5\xe4\xbe\xbf\xe7\x95\xaa\xe5\x8f\xb7 812-0011 "
     "\xe8\xa3\xbd\xe5\x93\x81\xe7\x95\xaa\xe5\x8f\xb7"
     "01 User ID: 12345 \xe7\x95\xaa\xe5\x8f\xb7\xef\xbc\x9a"
     "ABCDEFGH123 \xe7\x95\xaa\xe5\x8f\xb7: 111-111",
     {{0}}},
    {"Account no.:\n12345678901", {{"account_context", 13, 24, "12345678901"}}},
    {"Acct #: 9876-5432-10 and routing 021000021",
     {{"account_context", 8, 20, "9876-5432-10"}, {"account_context", 33, 42, "021000021"}}},
    {"sort code 12-34-56, Kontonummer 1234567890",
     {{"account_context", 10, 18, "12-34-56"}, {"account_context", 32, 42, "1234567890"}}},
    {"1234 5678 9012 3456 and 4111111111111111111111", {{0}}},
    {"timestamp 1714000000000 epoch 1714000000", {{0}}},
    {"Order #4111111111111111 and 4111 1111-1111 1111 and 4111 11 11 1111 1111", {{0}}},
    {"DE89 3704 0044 0532 0130 01 and DE8937040044053201300", {{0}}},
    {"XX89370400440532013000 and DE89 370 40044 05320130 00", {{0}}},
    {"account 12345, account created 2026-04-23, account balance 1234567",
     {{"date_iso", 31, 41, "2026-04-23"}}},
    {"account 000000000", {{0}}},
    {"4111 1111 1111 1111 2", {{0}}},
    /* issue 41: cards in JSON, key:value and CSV, the validator deciding */
    {"{\"order\":100001,\"number\":5421430443244511}", {{"card", 25, 41, "5421430443244511"}}},
    {"card:4111111111111111,25 EUR", {{"card", 5, 21, "4111111111111111"}}},
    {"1,Maria Garcia,4111111111111111\n2,Li Wei,5555555555554444,12",
     {{"card", 15, 31, "4111111111111111"}, {"card", 41, 57, "5555555555554444"}}},
    {"paid 4111111111111111 25 EUR, card=4111 1111 1111 1111,3",
     {{"card", 5, 21, "4111111111111111"}, {"card", 35, 54, "4111 1111 1111 1111"}}},
    {"{\"n\":4111111111111112,\"m\":1234567890123456,\"x\":4111111111111111.5}", {{0}}},
    {"{\"account_number\":\"12345678901\",\"acct\": 98765432101}",
     {{"account_context", 19, 30, "12345678901"}, {"account_context", 40, 51, "98765432101"}}},
};

RULES_CASES_MAIN(test_account, account_cases)
