/* test_rules_address.c — the address rules (private_address): street_address,
 * street_address_eu, po_box, military_address, address_ja.
 *
 * Each case lists the exact spans (rule, byte offsets, text) of the
 * one-shot scan; check_cases() also requires the same spans from every
 * engine variant (JIT/interpreter x prefilter/plain) and from every
 * 2-chunk split of the input.  Cases without spans are hard negatives.
 * Expected values were checked by hand against docs/RULES.md. */
#include "rules_test_util.h"

static const rcase address_cases[] = {
    {"Send it to 221B Baker Street, London NW1 6XE please.",
     {{"street_address", 11, 44, "221B Baker Street, London NW1 6XE"}}},
    {"She lives at 1600 Pennsylvania Avenue NW, Washington, DC 20500.",
     {{"street_address", 13, 62, "1600 Pennsylvania Avenue NW, Washington, DC 20500"}}},
    {"Office: 350 5th Avenue, Suite 3300, New York, NY 10118",
     {{"street_address", 8, 54, "350 5th Avenue, Suite 3300, New York, NY 10118"}}},
    {"42 Elm St. is near 7 Kings Road.",
     {{"street_address", 0, 10, "42 Elm St."}, {"street_address", 19, 31, "7 Kings Road"}}},
    {"Ship to 12-14 Old Mill Lane, Apt 4B today",
     {{"street_address", 8, 35, "12-14 Old Mill Lane, Apt 4B"}}},
    {"Post: 9 Martin Luther King Jr Blvd, Springfield, IL",
     {{"street_address", 6, 51, "9 Martin Luther King Jr Blvd, Springfield, IL"}}},
    {"Livraison au 12 rue de la Paix, 75002 Paris.",
     {{"street_address", 13, 43, "12 rue de la Paix, 75002 Paris"}}},
    {"Si\xc3\xa8ge : 3 bis, avenue Foch, 75016 Paris",
     {{"street_address", 9, 40, "3 bis, avenue Foch, 75016 Paris"}}},
    {"Wohnt in 5 \xc3\x96sterreich Road", {{"street_address", 9, 27, "5 \xc3\x96sterreich Road"}}},
    {"Wohnhaft in der Hauptstra\xc3\x9f"
     "e 12, 10115 Berlin seit Mai.",
     {{"street_address_eu", 16, 45,
       "Hauptstra\xc3\x9f"
       "e 12, 10115 Berlin"}}},
    {"Berliner Stra\xc3\x9f"
     "e 5a und Goetheweg 7.",
     {{"street_address_eu", 0, 19,
       "Berliner Stra\xc3\x9f"
       "e 5a"},
      {"street_address_eu", 24, 35, "Goetheweg 7"}}},
    {"Adres: Kerkstraat 7, 1017 GC Amsterdam",
     {{"street_address_eu", 7, 38, "Kerkstraat 7, 1017 GC Amsterdam"}}},
    {"Vive en Calle Mayor 5, 28013 Madrid y en la Avenida de la Constituci\xc3\xb3n 12.",
     {{"street_address_eu", 8, 35, "Calle Mayor 5, 28013 Madrid"},
      {"street_address_eu", 44, 74, "Avenida de la Constituci\xc3\xb3n 12"}}},
    {"Rua Augusta 27, Lisboa; Piazza Navona, 12; Carrer d'Arag\xc3\xb3 20",
     {{"street_address_eu", 0, 14, "Rua Augusta 27"},
      {"street_address_eu", 24, 41, "Piazza Navona, 12"},
      {"street_address_eu", 43, 61, "Carrer d'Arag\xc3\xb3 20"}}},
    {"C/ Mayor 5 o Hauptstr. 9",
     {{"street_address_eu", 0, 10, "C/ Mayor 5"}, {"street_address_eu", 13, 24, "Hauptstr. 9"}}},
    {"Sent via Twitter 10 times. The Ring 5 fans. During 2020 Spring 3. Calle 5.", {{0}}},
    {"Marktplatz 5, 10115 Berlin E-mail: x. Paseo de la Castellana 261, 28046 Madrid "
     "Tel\xc3\xa9"
     "fono: 9",
     {{"street_address_eu", 0, 26, "Marktplatz 5, 10115 Berlin"},
      {"street_address_eu", 38, 78, "Paseo de la Castellana 261, 28046 Madrid"}}},
    {"Auf Anhieb Platz 1 der Charts, Brasilien Platz 2", {{0}}},
    {"Write to PO Box 1234, Springfield, IL 62704 or P.O. Box 77; Postfach 123, Apartado de "
     "Correos 45. Post Office Box 9.",
     {{"po_box", 9, 43, "PO Box 1234, Springfield, IL 62704"},
      {"po_box", 47, 58, "P.O. Box 77"},
      {"po_box", 60, 72, "Postfach 123"},
      {"po_box", 74, 96, "Apartado de Correos 45"},
      {"po_box", 98, 115, "Post Office Box 9"}}},
    {"Not: PO 415 or post 12 items or PO Box", {{0}}},
    {"Mail: 24 Sussex Drive, Ottawa, ON K1M 1M4, Canada",
     {{"street_address", 6, 41, "24 Sussex Drive, Ottawa, ON K1M 1M4"}}},
    /* street names that begin like "bis" and "ter" */
    {"12 Terrace Road, 7 Bishop Street, 9 Bis road, 3 bis, rue Foch, 4ter avenue Foch, 5 ter rue X",
     {{"street_address", 0, 15, "12 Terrace Road"},
      {"street_address", 17, 32, "7 Bishop Street"},
      {"street_address", 34, 44, "9 Bis road"},
      {"street_address", 46, 61, "3 bis, rue Foch"},
      {"street_address", 63, 79, "4ter avenue Foch"}}},
    /* Nordic, Finnish, Icelandic, Estonian, Hungarian, Polish */
    {"Sveav\xc3\xa4gen 12, S\xc3\xb8ndergade 3, Kaarikatu 32, Mannerheimintie 5, Dalbraut 99",
     {{"street_address_eu", 0, 13, "Sveav\xc3\xa4gen 12"},
      {"street_address_eu", 15, 28, "S\xc3\xb8ndergade 3"},
      {"street_address_eu", 30, 42, "Kaarikatu 32"},
      {"street_address_eu", 44, 61, "Mannerheimintie 5"},
      {"street_address_eu", 63, 74, "Dalbraut 99"}}},
    {"Luite tee 87; Kir\xc3\xa1ly u. 15; Andr\xc3\xa1ssy \xc3\xbat 60, 1061 Budapest",
     {{"street_address_eu", 0, 12, "Luite tee 87"},
      {"street_address_eu", 14, 27, "Kir\xc3\xa1ly u. 15"},
      {"street_address_eu", 29, 60, "Andr\xc3\xa1ssy \xc3\xbat 60, 1061 Budapest"}}},
    {"ul. Jesionowa 127, 00-001 Warszawa; al. Jerozolimskie 65",
     {{"street_address_eu", 0, 17, "ul. Jesionowa 127"},
      {"street_address_eu", 36, 56, "al. Jerozolimskie 65"}}},
    {"Brigade 5, Committee 5, Heathrow gate 5, Bowtie 3, Necktie 2, Cutie 3, pl. 5", {{0}}},
    /* Japanese addresses (address_ja), and a route, a count, a population */
    {"\xe3\x80\x92"
     "812-0011 "
     "\xe7\xa6\x8f\xe5\xb2\xa1\xe7\x9c\x8c\xe7\xa6\x8f\xe5\xb2\xa1\xe5\xb8\x82\xe5\x8d\x9a\xe5\xa4"
     "\x9a\xe5\x8c\xba\xe5\x8d\x9a\xe5\xa4\x9a\xe9\xa7\x85\xe5\x89\x8d"
     "2-99-3 \xe6\x9d\x91\xe4\xba\x95\xe5\x95\x86\xe5\xba\x97",
     {{"address_ja", 0, 57,
       "\xe3\x80\x92"
       "812-0011 "
       "\xe7\xa6\x8f\xe5\xb2\xa1\xe7\x9c\x8c\xe7\xa6\x8f\xe5\xb2\xa1\xe5\xb8\x82\xe5\x8d\x9a\xe5"
       "\xa4\x9a\xe5\x8c\xba\xe5\x8d\x9a\xe5\xa4\x9a\xe9\xa7\x85\xe5\x89\x8d"
       "2-99-3"}}},
    {"\xe9\x80\x81\xe4\xbb\x98\xe5\x85\x88:"
     "\xe6\x9d\xb1\xe4\xba\xac\xe9\x83\xbd\xe6\x9d\x89\xe4\xb8\xa6\xe5\x8c\xba\xe9\xab\x98\xe5\x86"
     "\x86\xe5\xaf\xba\xe5\x8d\x97"
     "4-99-1 \xe3\x82\xb3\xe3\x83\xbc\xe3\x83\x9d\xe3\x81\x82\xe3\x81\x8a\xe3\x81\x9e\xe3\x82\x89"
     "202\xe5\x8f\xb7\xe5\xae\xa4 \xe7\x94\xb0\xe4\xb8\xad\xe6\xa7\x98\xe6\x96\xb9",
     {{"address_ja", 10, 77,
       "\xe6\x9d\xb1\xe4\xba\xac\xe9\x83\xbd\xe6\x9d\x89\xe4\xb8\xa6\xe5\x8c\xba\xe9\xab\x98\xe5"
       "\x86\x86\xe5\xaf\xba\xe5\x8d\x97"
       "4-99-1 \xe3\x82\xb3\xe3\x83\xbc\xe3\x83\x9d\xe3\x81\x82\xe3\x81\x8a\xe3\x81\x9e\xe3\x82\x89"
       "202\xe5\x8f\xb7\xe5\xae\xa4"}}},
    {"\xe5\x8c\x97\xe6\xb5\xb7\xe9\x81\x93\xe6\x9c\xad\xe5\xb9\x8c\xe5\xb8\x82\xe4\xb8\xad\xe5\xa4"
     "\xae\xe5\x8c\xba\xe5\x8c\x97\xe4\xb8\x80\xe6\x9d\xa1\xe8\xa5\xbf"
     "2\xe4\xb8\x81\xe7\x9b\xae"
     "99\xe7\x95\xaa\xe5\x9c\xb0 \xe3\x83\x86\xe3\x82\xb9\xe3\x83\x88\xe3\x83\x93\xe3\x83\xab"
     "5\xe9\x9a\x8e\xe3\x81\xab\xe7\xa7\xbb\xe8\xbb\xa2",
     {{"address_ja", 0, 74,
       "\xe5\x8c\x97\xe6\xb5\xb7\xe9\x81\x93\xe6\x9c\xad\xe5\xb9\x8c\xe5\xb8\x82\xe4\xb8\xad\xe5"
       "\xa4\xae\xe5\x8c\xba\xe5\x8c\x97\xe4\xb8\x80\xe6\x9d\xa1\xe8\xa5\xbf"
       "2\xe4\xb8\x81\xe7\x9b\xae"
       "99\xe7\x95\xaa\xe5\x9c\xb0 \xe3\x83\x86\xe3\x82\xb9\xe3\x83\x88\xe3\x83\x93\xe3\x83\xab"
       "5\xe9\x9a\x8e"}}},
    {"\xe4\xbd\x8f\xe6\x89\x80\xef\xbc\x9a\xe5\xa4\xa7\xe9\x98\xaa\xe5\xba\x9c\xe5\xa4\xa7\xe9\x98"
     "\xaa\xe5\xb8\x82\xe5\x8c\x97\xe5\x8c\xba\xe6\xa2\x85\xe7\x94\xb0"
     "3-99-"
     "1\xe3\x80\x82\xe6\x9d\xb1\xe4\xba\xac\xe9\x83\xbd\xe6\x96\x87\xe4\xba\xac\xe5\x8c\xba\xe6\x9c"
     "\xac\xe9\x83\xb7\xe4\xba\x8c\xe4\xb8\x81\xe7\x9b\xae"
     "40\xe7\x95\xaa"
     "14\xe5\x8f\xb7\xe5\xb1\xb1\xe5\xb4\x8e\xe3\x83\x93\xe3\x83\xab"
     "401\xe5\x8f\xb7\xe5\xae\xa4",
     {{"address_ja", 9, 45,
       "\xe5\xa4\xa7\xe9\x98\xaa\xe5\xba\x9c\xe5\xa4\xa7\xe9\x98\xaa\xe5\xb8\x82\xe5\x8c\x97\xe5"
       "\x8c\xba\xe6\xa2\x85\xe7\x94\xb0"
       "3-99-1"},
      {"address_ja", 48, 112,
       "\xe6\x9d\xb1\xe4\xba\xac\xe9\x83\xbd\xe6\x96\x87\xe4\xba\xac\xe5\x8c\xba\xe6\x9c\xac\xe9"
       "\x83\xb7\xe4\xba\x8c\xe4\xb8\x81\xe7\x9b\xae"
       "40\xe7\x95\xaa"
       "14\xe5\x8f\xb7\xe5\xb1\xb1\xe5\xb4\x8e\xe3\x83\x93\xe3\x83\xab"
       "401\xe5\x8f\xb7\xe5\xae\xa4"}}},
    {"\xe7\xa6\x8f\xe5\xb3\xb6\xe7\x9c\x8c\xe5\x96\x9c\xe5\xa4\x9a\xe6\x96\xb9\xe5\xb8\x82\xe3\x81"
     "\xa8\xe5\xb1\xb1\xe5\xbd\xa2\xe7\x9c\x8c\xe7\xb1\xb3\xe6\xb2\xa2\xe5\xb8\x82\xe3\x82\x92\xe7"
     "\xb9\x8b\xe3\x81\x90\xe5\x9b\xbd\xe9\x81\x93"
     "121\xe5\x8f\xb7\xe3\x80\x81\xe7\xa5\x9e\xe5\xa5\x88\xe5\xb7\x9d\xe7\x9c\x8c\xe6\xa8\xaa\xe6"
     "\xb5\x9c\xe5\xb8\x82\xe3\x81\xa7\xe3\x81\xaf"
     "3-"
     "4\xe6\x9c\x88\xe3\x81\xab\xe3\x80\x81\xe4\xba\xac\xe9\x83\xbd\xe5\xba\x9c\xe4\xba\xac\xe9\x83"
     "\xbd\xe5\xb8\x82\xe3\x81\xae\xe4\xba\xba\xe5\x8f\xa3\xe3\x81\xaf"
     "1000\xe4\xba\xba",
     {{0}}},
    /* US military mail */
    {"USNS Comfort\nFPO AA 34090 or PSC 1234, Box 5678\n  APO AE 09204-1234.",
     {{"military_address", 0, 25, "USNS Comfort\nFPO AA 34090"},
      {"military_address", 29, 67, "PSC 1234, Box 5678\n  APO AE 09204-1234"}}},
    {"To: USS Theodore Roosevelt (CVN-71), FPO AP 96620; Unit 2050 Box 4190 APO AP 96278",
     {{"military_address", 4, 49, "USS Theodore Roosevelt (CVN-71), FPO AP 96620"},
      {"military_address", 51, 82, "Unit 2050 Box 4190 APO AP 96278"}}},
    {"dpo ae 09498 via uscgc healy", {{"military_address", 0, 12, "dpo ae 09498"}}},
    {"APO AE 0920 or FPO AP 962781; the Apollo AE 09204 unit; USS Maine sank; Unit 5 Box 2.",
     {{0}}},
    /* hard negatives */
    {"See section 12 High Court and page 3 Main Street.", {{0}}},
    {"Rule 5 Park Lane; No. 7 Downing Street; version 2 Main St", {{0}}},
    {"I bought 3 Apples and 2 Big Macs. Route 66 Way.", {{0}}},
    {"It took 200 ms at 12 noon; 3 people in 4 rooms", {{0}}},
    {"build v1.2 Main St and 3.5 Oak Road", {{0}}},
    {"the 1,200 Main Street shops and $5 Grand Avenue", {{0}}},
    {"012 Elm Street and 1234567 Elm Street", {{0}}},
};

RULES_CASES_MAIN(test_address, address_cases)
