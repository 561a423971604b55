/* rules.c — the rule tier: built-in PCRE2 detectors with validators.
 *
 * All rules are alternatives of ONE pattern, searched with PCRE2's
 * leftmost-first semantics (see rx.h): at the leftmost position where any
 * rule matches, the first rule in table order that yields a validated match
 * wins; the search resumes at the end of that match.  So spans never
 * overlap, an earlier start always wins, and at the same start the table
 * order below decides (specific token shapes first, then assignments and
 * context-word rules, then email, URL, account numbers, dates, phones,
 * street addresses).
 *
 * Most rules must start where no word character precedes; they share one
 * leading lookbehind (group A) so that inside a long word each position
 * costs one failed assertion.  Group B (PEM blocks, Japanese addresses,
 * which follow a kana or kanji without a break) may start anywhere.
 *
 * Every quantifier is bounded, so a match attempt reads a bounded number
 * of bytes (the longest: a PEM block, 16 KiB of body), which is what makes
 * the streaming detector exact with bounded memory.  A secret's value is
 * not cut by its cap: a value that reaches it grows over its class to its
 * end in linear time (EXT_*, rx.h), held back within max_hold.
 * docs/RULES.md documents each rule. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules_internal.h"
#include "urllists.h"
#include "rx.h"
#include "validators.h"

/* ---- pattern pieces (PCRE2 extended syntax: spaces are ignored outside
 * classes, so a literal space is written [ ] and '#' as \#) ------------- */

#define WORD_AFTER_NO "(?![\\p{L}\\p{N}_])"
/* Not inside a longer number, after another digit group, or in an
 * order/invoice reference. */
#define NUM_BEFORE_NO                                                                              \
    "(?<![.\\-/:\\#$+]|(?i:order[ ])|(?i:invoice[ ])|(?i:ticket[ ])|(?i:ref[ ])|(?i:po[ ])"        \
    "|\\#[ ]|[0-9][ ])"
/* Between a context word and its value: blanks, or ':' / '=' and blanks,
 * perhaps a line break ("Phone:\n415 555 0100", a form's label above its
 * value), and blanks. */
/* "my account number is ...", "phone was ..." */
#define CTX_IS "(?:[ ](?i:is|was|will[ ]be)(?=[ \\t:]))?"
#define CTX_SEP "(?:[:=][ \\t]{0,3}(?:\\r?\\n[ \\t]{0,3})?|[ \\t]{0,3})"
/* Unicode dashes inside a class: hyphen, non-breaking hyphen, figure dash,
 * en dash, minus sign ("415\u2013555\u20130132"). */
#define UDASH "\\x{2010}-\\x{2013}\\x{2212}"
#define PHONE_EXT "(?:[ ]?(?:(?i:ext|extension|x)\\.?|\\#)[ ]?[0-9]{1,6})?"
#define PHONE_END "(?![\\p{L}\\p{N}_]|[.\\-/][0-9])"
#define DATE_END "(?![\\p{L}\\p{N}_]|[\\-/.:][0-9]|[ ][0-9]{1,2}:[0-9]{2}|[._\\-][\\p{L}\\p{N}])"
#define SP "[ \\x{a0}]{1,2}"
#define YEAR "(?:1[89][0-9]{2}|20[0-9]{2})"
#define DAY "(?:0?[1-9]|[12][0-9]|3[01])"
#define MONTH                                                                                      \
    "(?i:january|february|march|april|may|june|july|august|september|october|november"             \
    "|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec"                                   \
    "|janvier|f\\x{e9}vrier|fevrier|mars|avril|mai|juin|juillet|ao\\x{fb}t|aout|septembre"         \
    "|octobre|novembre|d\\x{e9}cembre|decembre"                                                    \
    "|januar|j\\x{e4}nner|februar|m\\x{e4}rz|maerz|juni|juli|oktober|dezember"                     \
    "|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre"              \
    "|noviembre|diciembre)(?!\\p{L})"
/* A word of a person's event before a date (rule date_context). */
#define DATE_CTX_WORD                                                                              \
    "(?i:date[ ]of[ ]birth|birth[ ]?date|birthday|born|dob|d\\.o\\.b\\.?|d/o/b|died"               \
    "|date[ ]of[ ]death|deceased|admitted|admission|date[ ]of[ ]admission|discharged"              \
    "|discharge[ ]date|appointment|appt\\.?|hired|hire[ ]date|date[ ]of[ ]hire|start[ ]date"       \
    "|employed[ ]since|joined|geboren|geb\\.|geburtsdatum|n\\x{e9}e?|date[ ]de[ ]naissance"        \
    "|fecha[ ]de[ ]nacimiento|nacid[oa]|data[ ]de[ ]nascimento|nascid[oa]"                         \
    "|ingres(?:\\x{f3}|o|ad[oa]|a)|fecha[ ]de[ ]ingreso|fecha[ ]de[ "                              \
    "]alta|fallec(?:i\\x{f3}|ido|ida)"                                                             \
    "|intervenid[oa]|operad[oa]|operated|surgery|diagnosed|treated|seen|visit(?:ed)?)"
/* Any of the four date shapes, with their boundaries, as subroutine calls of the date rules' own
 * bodies (named groups d_iso, d_num, d_dmy, d_mdy below): written once, so
 * the combined pattern stays within PCRE2's compiled-size limit. */
#define DATE_ANY "(?:(?&d_iso)|(?&d_num)|(?&d_dmy)|(?&d_mdy))"
/* Chinese phone words (rule phone_cn): 手机 (mobile), 电话 (telephone), 联系
 * (contact), 致电 and 拨打 (call). */
#define CN_PHONE_CTX                                                                               \
    "(?:\\x{624b}\\x{673a}|\\x{7535}\\x{8bdd}|\\x{8054}\\x{7cfb}|\\x{81f4}\\x{7535}"               \
    "|\\x{62e8}\\x{6253})"
/* The labels of a Chinese resident ID (rule cn_resident_id): 身份证 (号码/号),
 * 证件号码. */
#define CN_ID_CTX                                                                                  \
    "(?:\\x{8eab}\\x{4efd}\\x{8bc1}(?:\\x{53f7}\\x{7801}|\\x{53f7})?"                              \
    "|\\x{8bc1}\\x{4ef6}\\x{53f7}\\x{7801})"
/* Street addresses (rule street_address): a house number not after a
 * reference word ("section 12", "page 3", "No. 7") ... */
#define ADDR_NOT_AFTER                                                                             \
    "(?<![.\\-/:\\#$+,]|[0-9][ ]|\\b(?i:section)[ ]|\\b(?i:sec)[ ]|\\b(?i:sec)\\.[ ]"              \
    "|\\b(?i:article)[ ]|\\b(?i:art)[ ]|\\b(?i:art)\\.[ ]|\\b(?i:chapter)[ ]|\\b(?i:ch)[ ]"        \
    "|\\b(?i:ch)\\.[ ]|\\b(?i:page)[ ]|\\b(?i:pp)[ ]|\\b(?i:pp)\\.[ ]|\\b(?i:case)[ ]"             \
    "|\\b(?i:no)[ ]|\\b(?i:no)\\.[ ]|\\b(?i:rule)[ ]|\\b(?i:item)[ ]|\\b(?i:part)[ ]"              \
    "|\\b(?i:vol)[ ]|\\b(?i:vol)\\.[ ]|\\b(?i:volume)[ ]|\\b(?i:table)[ ]|\\b(?i:fig)[ ]"          \
    "|\\b(?i:fig)\\.[ ]|\\b(?i:figure)[ ]|\\b(?i:step)[ ]|\\b(?i:level)[ ]|\\b(?i:grade)[ ]"       \
    "|\\b(?i:paragraph)[ ]|\\b(?i:para)[ ]|\\b(?i:para)\\.[ ]|\\b(?i:clause)[ ]"                   \
    "|\\b(?i:exhibit)[ ]|\\b(?i:schedule)[ ]|\\b(?i:title)[ ]|\\b(?i:act)[ ]"                      \
    "|\\b(?i:version)[ ]|\\b(?i:top)[ ]|\\b(?i:over)[ ]|\\b(?i:under)[ ]|\\b(?i:about)[ ]"         \
    "|\\b(?i:only)[ ]|\\b(?i:than)[ ])"
/* A cheap necessary look-ahead first: most positions that reach this rule
 * fail it before the long look-behind is tried. */
#define ADDR_FIRST "(?=[1-9][0-9]{0,5}(?:[\\-/][0-9]{1,5})?[A-Za-z]{0,3},?[ ])"
#define ADDR_NUM "[1-9][0-9]{0,5}(?:[\\-/][0-9]{1,5})?[A-Za-z]?"
/* ... then one to four capitalised words or ordinals and a street type ... */
#define ADDR_WORD "(?:\\p{Lu}[\\p{L}'\\x{2019}\\-]{0,24}\\.?|[0-9]{1,3}(?i:st|nd|rd|th))"
#define ADDR_TYPE                                                                                  \
    "(?:(?i:street|avenue|road|boulevard|lane|drive|court|place|terrace|parkway|circle|highway"    \
    "|square|crescent|close|grove|gardens|mews|trail|way|row|alley|plaza)"                         \
    "|(?i:st|ave|av|rd|blvd|ln|dr|ct|pl|pkwy|cir|hwy|sq)\\.?)(?![\\p{L}\\p{N}_])"
/* ... a compass point (1600 Pennsylvania Avenue NW) ... */
#define ADDR_DIR "(?:[ ](?:N|S|E|W|NE|NW|SE|SW)\\.?(?![\\p{L}\\p{N}_]))?"
/* ... with an optional unit and an optional town with a US state and ZIP
 * code, a Canadian province and postal code, a state, or a UK postcode. */
#define ADDR_UNIT                                                                                  \
    "(?:,?[ ](?:(?i:apt|apartment|suite|ste|unit|flat|floor|fl|room|rm|bldg|building)\\.?[ ]?"     \
    "|\\#[ ]?)\\#?[0-9]{1,5}[A-Za-z]?(?![\\p{L}\\p{N}_]))?"
#define ADDR_TOWN "\\p{Lu}[\\p{L}'\\-]{1,24}(?:[ ]\\p{Lu}[\\p{L}'\\-]{1,24}){0,2}"
#define ADDR_TAIL                                                                                  \
    "(?:,[ ]?" ADDR_TOWN ",?[ ](?:[A-Z]{2}[ ]{1,2}[0-9]{5}(?:-[0-9]{4})?"                          \
    "|[A-Z]{2}[ ]{1,2}[A-Z][0-9][A-Z][ ]?[0-9][A-Z][0-9]|[A-Z]{1,2}[0-9][A-Z0-9]?[ ][0-9][A-Z]{2}" \
    "|[A-Z]{2})(?![\\p{L}\\p{N}_]))?"
/* French: "12 rue de la Paix", "3 bis, avenue Foch, 75016 Paris". */
#define ADDR_FR_TYPE                                                                               \
    "(?i:rue|avenue|av\\.|boulevard|bd|place|chemin|all\\x{e9}e|allee|impasse|quai|route|cours"    \
    "|square)"
#define ADDR_FR_PART "(?:de[ ]la[ ]|de[ ]l'|du[ ]|des[ ]|de[ ]|d'|la[ ]|le[ ]|les[ ]|l')"
#define ADDR_FR_NAME                                                                               \
    ADDR_FR_PART "?\\p{Lu}[\\p{L}'\\-]{1,24}(?:[ ]" ADDR_FR_PART "?\\p{Lu}[\\p{L}'\\-]{1,24}){0,"  \
                 "3}"
#define ADDR_FR_TOWN                                                                               \
    "(?:,?[ ][0-9]{5}[ ]\\p{Lu}[\\p{L}'\\-]{1,24}(?:[ \\-]\\p{Lu}[\\p{L}'\\-]{1,24}){0,2})?"
/* Street name before the number (rule street_address_eu): German and
 * Dutch "Hauptstra\u00dfe 12", "Berliner Stra\u00dfe 5a", "Kerkstraat 7";
 * Nordic, Finnish, Estonian, Hungarian "Sveav\u00e4gen 12", "S\u00f8ndergade 3",
 * "Kaarikatu 32", "Luite tee 87", "Kir\u00e1ly u. 15"; Spanish, Catalan,
 * Italian, Portuguese "Calle Mayor 5", "Piazza Navona, 12", "Rua Augusta
 * 27"; Polish "ul. Jesionowa 127"; an optional 4-5 digit postcode and town. */
#define ADDR_EU_SUFFIX                                                                             \
    "(?:stra\\x{df}e|strasse|str\\.|weg|platz|allee|gasse|damm|ufer|chaussee|straat"               \
    "|laan|gracht|plein|kade|steeg|singel"                                                         \
    "|vej|vei|veien|vegen|vegur|v\\x{e4}gen|gata|gatan|gr\\x{e4}nd|str\\x{e6}de|plads|torv|braut"  \
    "|st\\x{ed}gur|katu|kuja|polku|t\\x{e4}nav|maantee|puiestee|utca|k\\x{f6}r\\x{fa}t)"
/* ... a separate street word after a capitalised name; the compounds "gade" and
 * "tie" only after four and five letters or more ("Brigade 5", "Bowtie 3"). */
#define ADDR_EU_WORD                                                                               \
    "(?:Stra\\x{df}e|Strasse|Str\\.|Weg|Allee|Gasse|Damm|Ufer|Chaussee"                            \
    "|u\\.|utca|\\x{fa}t|\\x{fa}tja|t\\x{e9}r|k\\x{f6}r\\x{fa}t|krt\\.|tee|mnt|maantee|t\\x{e4}"   \
    "nav"                                                                                          \
    "|puiestee|vei|vej)"
#define ADDR_EU_DE                                                                                 \
    "(?:\\p{Lu}[\\p{L}\\-]{1,30}" ADDR_EU_SUFFIX                                                   \
    "|\\p{Lu}[\\p{L}\\-]{3,30}gade|\\p{Lu}[\\p{L}\\-]{4,30}tie"                                    \
    "|\\p{Lu}[\\p{L}\\-]{1,30}[ ]" ADDR_EU_WORD ")"
#define ADDR_EU_PART "(?:(?:de[ ]la|del|de|dos|das|do|da|di|della|delle|dei|d')[ ]?)"
#define ADDR_EU_TYPE                                                                               \
    "(?:(?:Calle|Avenida|Avda\\.|Plaza|Paseo|Carrer|Piazza|Viale|Rua|Travessa|Pra\\x{e7}a"         \
    "|ul\\.|al\\.|pl\\.|os\\.|[Uu]lica|[Aa]leja|[Pp]lac)[ ]"                                       \
    "|C/[ ]?)"
#define ADDR_EU_ROM                                                                                \
    ADDR_EU_TYPE ADDR_EU_PART "?\\p{Lu}[\\p{L}'\\-]{1,24}(?:[ ]" ADDR_EU_PART                      \
                              "?\\p{Lu}[\\p{L}'\\-]{1,24}){0,3},?"
#define ADDR_EU_NUM                                                                                \
    "[ ](?:n\\.?\\x{ba}?[ ]?)?[1-9][0-9]{0,3}[a-zA-Z]?(?:[\\-/][0-9]{1,4}[a-zA-Z]?)?"
/* The town: one to three words, a later one neither hyphenated nor a
 * label before a colon ("28046 Madrid Tel\u00e9fono: ...", "Pamplona E-mail"). */
#define ADDR_EU_TOWN                                                                               \
    "(?:,?[ ][0-9]{4,5}(?:[ ][A-Z]{2})?[ ]\\p{Lu}[\\p{L}'\\-]{1,24}"                               \
    "(?:[ ]\\p{Lu}[\\p{L}']{1,24}(?![\\p{L}'\\-]|[ ]?:)){0,2})?"
/* US military mail (USPS Publication 28, 225): "PSC 1234, Box 5678" or
 * "Unit 2050 Box 4190" or a ship ("USNS Comfort", "USS Nimitz (CVN-68)"),
 * then on the same or the next line "APO|FPO|DPO AA|AE|AP" and the ZIP
 * code; the last line alone is an address too. */
#define MIL_ZIP "(?i:apo|fpo|dpo)[ ]{1,2}(?i:aa|ae|ap)[ ]{1,2}[0-9]{5}(?:-[0-9]{4})?"
#define MIL_SEP "(?:,[ ]{0,2}|[ \\t]{0,2}\\r?\\n[ \\t]{0,8}|[ ]{1,2})"
#define MIL_WORD "\\p{L}[\\p{L}'.\\-]{0,24}"
#define MIL_UNIT "(?i:psc|cmr|unit)[ ][0-9]{1,5},?[ ](?i:box)[ ][0-9]{1,5}"
#define MIL_SHIP                                                                                   \
    "(?i:uss|usns|usnv|uscgc|usav)[ ]" MIL_WORD "(?:[ ]" MIL_WORD "){0,3}"                         \
    "(?:[ ]\\([A-Z]{1,5}-?[0-9]{1,4}\\))?"
/* Japanese form labels (rule id_label_ja): up to ten kanji or kana, then
 * "\u756a\u53f7" (number) or "ID"; not a telephone, mobile, fax or postal number,
 * whose values other rules read. */
#define JA_CH "[\\p{Han}\\p{Katakana}\\p{Hiragana}\\x{30fc}\\x{30fb}]"
#define JA_NOT_PHONE                                                                               \
    "(?<!\\x{96fb}\\x{8a71}|\\x{643a}\\x{5e2f}|FAX|\\x{90f5}\\x{4fbf}|\\x{30af}\\x{30b9})"
/* Japanese postal addresses (rule address_ja): an optional postcode
 * (\u3012 812-0011), a prefecture (\u6771\u4eac\u90fd, \u5317\u6d77\u9053, \u4eac\u90fd\u5e9c,
 * \u5927\u962a\u5e9c or two or three kanji and \u770c), the municipality and district (kanji and
 * kana with a \u5e02, \u533a, \u753a, \u6751 or \u90e1; no particle), the block number (4-99-1,
 * 2\u4e01\u76ee99\u756a\u5730, 40\u756a14\u53f7; not a count such as 3-4\u6708, not a route's
 * 121\u53f7) and an optional building with its floor or room (5F, 3\u968e, 202\u53f7\u5ba4).  Kana
 * and kanji of the Basic Multilingual Plane only. */
#define JA_PL "[\\x{3041}-\\x{3096}\\x{30a1}-\\x{30fa}\\x{30fc}\\x{4e00}-\\x{9fff}\\x{3005}]"
#define JA_PREF                                                                                    \
    "(?:\\x{6771}\\x{4eac}\\x{90fd}|\\x{5317}\\x{6d77}\\x{9053}|\\x{4eac}\\x{90fd}\\x{5e9c}"       \
    "|\\x{5927}\\x{962a}\\x{5e9c}|[\\x{4e00}-\\x{9fff}]{2,3}\\x{770c})"
/* ... the particles to, wo, wa, de, ni, he, ya end a place name */
#define JA_LC "(?![\\x{3068}\\x{3092}\\x{306f}\\x{3067}\\x{306b}\\x{3078}\\x{3084}])" JA_PL
#define JA_LOCAL JA_LC "{0,8}?[\\x{5e02}\\x{533a}\\x{753a}\\x{6751}\\x{90e1}]" JA_LC "{0,14}?"
#define JA_DASH "[\\-\\x{ff0d}\\x{30fc}\\x{2212}\\x{2010}]"
#define JA_MARK "(?:\\x{756a}\\x{5730}?|\\x{53f7})"
#define JA_BLOCK                                                                                   \
    "(?:[0-9]{1,4}(?:\\x{4e01}\\x{76ee}|\\x{756a}\\x{5730}?)(?:" JA_DASH "?[0-9]{1,4}" JA_MARK     \
    "?){0,3}"                                                                                      \
    "|[0-9]{1,4}(?:" JA_DASH "[0-9]{1,4}" JA_MARK "?){1,3})"                                       \
    "(?![0-9]|[\\x{6708}\\x{65e5}\\x{5e74}\\x{4eba}\\x{5186}\\x{6642}\\x{5206}\\x{56de}\\x{4ef6}"  \
    "\\x{6b73}"                                                                                    \
    "\\x{500b}\\x{540d}%\\x{ff05}])"
#define JA_BUILDING                                                                                \
    "(?:[ \\x{3000}]?(?:" JA_PL                                                                    \
    "|[A-Za-z0-9]){1,20}?[0-9]{1,4}(?:[F\\x{ff26}\\x{968e}]|\\x{53f7}\\x{5ba4}?)"                  \
    "(?![A-Za-z0-9]))?"
/* Assignments: NAME ["'] (=|:|:=|=>) ["'] VALUE. */
#define NAME_PFX "(?:[A-Za-z0-9]{1,24}[_.\\-]){0,3}"
#define NAME_SFX "(?:[_.\\-][A-Za-z0-9]{1,16}){0,2}"
#define ASSIGN "[\"']?[ \\t]{0,3}(?:=>|:=|=|:)[ \\t]{0,3}[\"']?"
#define VALCH "[^\\s\"'`,;<>(){}\\[\\]\\\\]"
/* A value ends at a blank, a quote, ',', ';' or the end: "getpass()" is no value. */
#define VALEND "(?![^\\s\"'`,;])"
/* Domain names (IDN letters allowed). */
#define DLABEL "[\\p{L}\\p{N}](?:[\\p{L}\\p{N}\\-]{0,61}[\\p{L}\\p{N}])?"
#define TLD "(?:\\p{L}{2,24}|(?i:xn--)[a-z0-9\\-]{1,59})"
#define PEM_LABEL "(?:[A-Z0-9]{1,16}[ ]){0,3}PRIVATE[ ]KEY(?:[ ]BLOCK)?"

#define L_ACCOUNT "account_number"
#define L_PERSON "private_person"
#define L_ADDRESS "private_address"
#define L_DATE "private_date"
#define L_EMAIL "private_email"
#define L_PHONE "private_phone"
#define L_URL "private_url"
#define L_SECRET "secret"

/* Breadth (docs/LABELS.md): by default a date or a URL is a rule finding
 * only when it is a person's (date_context, url with url_personal); the
 * rules marked RM_BROAD run instead with PII_RULES_BROAD
 * (--all-dates-urls).  A rule of the other breadth stays in the one
 * pattern, so that the prefilter and the table order are the same in both,
 * but its validator rejects every match (each such rule has one). */
enum { RM_BOTH = 0, RM_POLICY = 1, RM_BROAD = 2 };
/* A capped value ("X{lo,cap} END") is written "(?:X{lo,cap-1}+ END|X{cap})"
 * with an extension class (rx.h) that contains X: a value of cap characters
 * or more is matched by its first cap and grows to its end, so no length
 * fails the whole match (issue 41). */
enum {
    EXT_NONE,
    EXT_VALCH,
    EXT_ALNUM,
    EXT_WORD,
    EXT_B64URL,
    EXT_JWT,
    EXT_BEARER,
    EXT_B64,
    EXT_PEM,
    EXT_N
};

typedef struct rule_def {
    const char *id, *label, *about;
    int anywhere; /* 0: group A (no word character before), 1: group B */
    const char *re;
    pii_rx_check check;
    int ext; /* EXT_*: the class a value longer than its cap goes on in */
} rule_def;

/* ---- validators of the default breadth -------------------------------- */

/* cn_resident_id: GB 11643: six digits of region, a birth date YYYYMMDD
 * (1900-2099, a real month and day), three digits, and a check character
 * (ISO 7064 MOD 11-2: 0-9 or X). */
static int rules_val_cn_id(const uint8_t *p, size_t n)
{
    static const int w[17] = {7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2};
    static const char chk[] = "10X98765432";
    if (n != 18)
        return 0;
    int sum = 0;
    for (int i = 0; i < 17; i++) {
        if (p[i] < '0' || p[i] > '9')
            return 0;
        sum += (p[i] - '0') * w[i];
    }
    int y = (p[6] - '0') * 1000 + (p[7] - '0') * 100 + (p[8] - '0') * 10 + (p[9] - '0');
    int m = (p[10] - '0') * 10 + (p[11] - '0'), d = (p[12] - '0') * 10 + (p[13] - '0');
    if (y < 1900 || y > 2099 || m < 1 || m > 12 || d < 1 || d > 31)
        return 0;
    uint8_t c = p[17] == 'x' ? 'X' : p[17];
    return c == (uint8_t)chk[sum % 11];
}

/* A rule of the other breadth: never a finding. */
static int rules_val_never(const uint8_t *p, size_t n)
{
    (void)p;
    (void)n;
    return 0;
}

/* date_context: the date shapes of the four date rules, told apart by
 * their first bytes, each with its own validator. */
static int rules_val_date_any(const uint8_t *p, size_t n)
{
    if (n == 10 && p[0] >= '0' && p[0] <= '9' && (p[4] == '-' || p[4] == '/'))
        return pii_val_date_iso(p, n);
    size_t i = 0;
    while (i < n && p[i] >= '0' && p[i] <= '9')
        i++;
    if (i > 0 && i < n && (p[i] == '.' || p[i] == '/' || p[i] == '-')) {
        size_t k = i + 1;
        while (k < n && p[k] >= '0' && p[k] <= '9')
            k++;
        if (k > i + 1 && k < n && p[k] == p[i])
            return pii_val_date_numeric(p, n); /* d.m.yyyy, d/m/yyyy */
    }
    return pii_val_date_text(p, n);
}

static int is_ident_start(uint8_t c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static uint8_t lc(uint8_t c)
{
    return (c >= 'A' && c <= 'Z') ? (uint8_t)(c + 32) : c;
}

/* Does p[0..n) equal the lower-case w[0..n) (ASCII caseless)? */
static int eq_lc_n(const uint8_t *p, size_t n, const char *w)
{
    for (size_t i = 0; i < n; i++)
        if (lc(p[i]) != (uint8_t)w[i])
            return 0;
    return 1;
}

static int in_list(const uint8_t *p, size_t n, const char *const *ws)
{
    for (size_t k = 0; ws[k]; k++)
        if (pii_val_eq_ci(p, n, ws[k]))
            return 1;
    return 0;
}

/* password_assignment: not a code expression — a dotted path of
 * identifiers that starts at a receiver (self.distribution.password,
 * os.environ.pw), ends in a key name (cfg.db.password) or holds an
 * identifier with '_' and a digit (th_u1.th_u2.tu_data) — nor a file name
 * (config.sub, setup.py).  A passphrase of dotted words ("correct.horse")
 * stays a value. */
static int rules_val_password(const uint8_t *p, size_t n)
{
    static const char *const recv[] = {
        "self", "this",    "os",      "config",      "settings", "args", "opts",    "options",
        "env",  "request", "params",  "cfg",         "conf",     "ctx",  "context", "app",
        "cls",  "data",    "secrets", "credentials", "creds",    "auth", NULL};
    static const char *const keys[] = {"password", "passwd", "pass", "pwd",        "pw",
                                       "secret",   "token",  "key",  "passphrase", NULL};
    static const char *const exts[] = {
        "sub", "guess", "sh", "py", "c",  "h",  "txt", "conf", "cfg", "ini", "json", "yml", "yaml",
        "log", "exp",   "pl", "rb", "js", "ts", "go",  "rs",   "in",  "am",  "ac",   "md",  NULL};
    if (!pii_val_secret_password(p, n))
        return 0;
    size_t parts = 0, first_end = 0, last_start = 0;
    int under_digit = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        if (!(is_ident_start(p[j])))
            return 1; /* not an identifier path: a value */
        int under = 0, digit = 0;
        while (j < n && (is_ident_start(p[j]) || (p[j] >= '0' && p[j] <= '9'))) {
            under |= p[j] == '_';
            digit |= p[j] >= '0' && p[j] <= '9';
            j++;
        }
        under_digit |= under && digit;
        if (parts == 0)
            first_end = j;
        last_start = i;
        parts++;
        if (j == n)
            break;
        if (p[j] != '.' || j + 1 == n)
            return 1;
        i = j + 1;
    }
    if (parts < 2)
        return 1;
    return !(in_list(p, first_end, recv) || in_list(p + last_start, n - last_start, keys) ||
             in_list(p + last_start, n - last_start, exts) || under_digit);
}

/* The url rules' word lists (url_params, url_param_ends,
 * url_profile_hosts, url_site_pages, url_doc_hosts, url_doc_subdomains,
 * url_doc_paths, url_person_dirs) are data files: redact/data/README.md,
 * urllists.h. */
#define URL_HAS(l, p, n) pii_urllist_has(PII_URL_##l, (p), (n))

/* url, by default: a URL that belongs to or names a person, or carries
 * personal data or a credential (docs/LABELS.md): userinfo (user:pw@),
 * an e-mail in its path or query ('@', %40), a query parameter of a
 * credential or a person's data (token=, sig=, email=, user=, ...), a
 * personal page (/~jdoe), a person's directory (/users/jdoe, /in/jdoe) or a
 * one-segment path on a profile host (github.com/kofiasante). */
static int rules_val_url_personal(const uint8_t *p, size_t n)
{
    if (!pii_val_url(p, n))
        return 0;
    size_t i = 0;
    for (size_t k = 0; k + 2 < n && k < 8; k++)
        if (p[k] == ':' && p[k + 1] == '/' && p[k + 2] == '/') {
            i = k + 3;
            break;
        }
    size_t a_end = i;
    while (a_end < n && p[a_end] != '/' && p[a_end] != '?' && p[a_end] != '#')
        a_end++;
    size_t h = i;
    for (size_t k = i; k < a_end; k++)
        if (p[k] == '@')
            return 1; /* userinfo */
    size_t h_end = h;
    while (h_end < a_end && p[h_end] != ':')
        h_end++;
    for (size_t k = a_end; k < n; k++)
        if (p[k] == '@' || (p[k] == '%' && k + 2 < n && p[k + 1] == '4' && p[k + 2] == '0'))
            return 1; /* an e-mail in the path or query */
    /* the query and fragment: parameter names */
    size_t q = a_end;
    while (q < n && p[q] != '?' && p[q] != '#')
        q++;
    for (size_t k = q; k < n;) {
        size_t s = k + 1, e = s;
        while (e < n && p[e] != '=' && p[e] != '&' && p[e] != ';' && p[e] != '#' && p[e] != '?')
            e++;
        if (e < n && p[e] == '=' && e > s) {
            if (URL_HAS(PARAMS, p + s, e - s))
                return 1;
            const char *w;
            size_t m, pos = 0;
            while (pii_urllist_next(PII_URL_PARAM_ENDS, &pos, &w, &m))
                if (e - s >= m && eq_lc_n(p + e - m, m, w))
                    return 1;
        }
        k = e;
        while (k < n && p[k] != '&' && p[k] != ';' && p[k] != '#' && p[k] != '?')
            k++;
    }
    /* the path: segments */
    size_t seg[4][2], nseg = 0;
    for (size_t k = a_end; k < q && p[k] == '/';) {
        size_t s = k + 1, e = s;
        while (e < q && p[e] != '/')
            e++;
        if (e > s) {
            if (p[s] == '~')
                return 1; /* a personal page */
            if (nseg < 4) {
                seg[nseg][0] = s;
                seg[nseg][1] = e;
            }
            nseg++;
        }
        k = e;
    }
    for (size_t k = 0; k + 1 < nseg && k < 3; k++)
        if (URL_HAS(PERSON_DIRS, p + seg[k][0], seg[k][1] - seg[k][0]))
            return 1;
    const uint8_t *host = p + h;
    size_t hn = h_end - h;
    if (hn > 4 && pii_val_eq_ci(host, 4, "www."))
        host += 4, hn -= 4;
    else if (hn > 2 && pii_val_eq_ci(host, 2, "m."))
        host += 2, hn -= 2;
    int profile = URL_HAS(PROFILE_HOSTS, host, hn);
    if (profile && nseg == 1)
        return !URL_HAS(SITE_PAGES, p + seg[0][0], seg[0][1] - seg[0][0]);
    /* documentation, project, schema and licence pages are not a person's */
    if (profile && nseg >= 2)
        return 0; /* github.com/nodejs/node/pull/42555: a project's page */
    const char *w;
    size_t m, pos = 0;
    while (pii_urllist_next(PII_URL_DOC_HOSTS, &pos, &w, &m))
        if (hn >= m && eq_lc_n(host + hn - m, m, w) && (hn == m || host[hn - m - 1] == '.'))
            return 0;
    pos = 0;
    while (pii_urllist_next(PII_URL_DOC_SUBDOMAINS, &pos, &w, &m))
        if (hn > m && eq_lc_n(host, m, w))
            return 0;
    for (size_t k = a_end; k < q; k++)
        for (pos = 0; pii_urllist_next(PII_URL_DOC_PATHS, &pos, &w, &m);)
            if (k + m <= q && eq_lc_n(p + k, m, w) &&
                (k + m == q || p[k + m] == '/' || p[k + m] == '.' || p[k + m] == '-' ||
                 p[k + m] == '_'))
                return 0;
    return 1; /* anything else may be a person's: fail closed */
}

/* url_profile: a profile URL written without scheme or www
 * (github.com/kofiasante, linkedin.com/in/jdoe, medium.com/@jdoe): the host
 * is a profile host (linkedin.com with "in/" before the profile), the one
 * path segment is not a site page. */
static int rules_val_url_profile(const uint8_t *p, size_t n)
{
    size_t h = 0;
    while (h < n && p[h] != '/')
        h++;
    if (h == n)
        return 0;
    size_t s = h + 1, e = s;
    int linkedin = pii_val_eq_ci(p, h, "linkedin.com");
    if (n - s > 3 && pii_val_eq_ci(p + s, 3, "in/")) {
        if (!linkedin)
            return 0;
        s += 3;
    } else if (linkedin || !URL_HAS(PROFILE_HOSTS, p, h)) {
        return 0;
    }
    if (s < n && p[s] == '@')
        s++;
    e = s;
    while (e < n && p[e] != '/' && p[e] != '?' && p[e] != '#')
        e++;
    return e > s && !URL_HAS(SITE_PAGES, p + s, e - s);
}

static const rule_def rule_defs[] = {
    /* -- secrets with a fixed shape ------------------------------------ */
    {"aws_access_key", L_SECRET, "AWS access key id (AKIA/ASIA... + 16 base32 chars)", 0,
     "(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA|ASCA)[A-Z2-7]{16}" WORD_AFTER_NO,
     NULL, EXT_NONE},
    {"google_api_key", L_SECRET, "Google API key (AIza + 35 chars)", 0,
     "AIza[0-9A-Za-z_\\-]{35}(?![0-9A-Za-z_\\-])", NULL, EXT_NONE},
    {"github_token", L_SECRET, "GitHub token (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_)", 0,
     "(?:gh[pousr]_(?:[A-Za-z0-9]{36,250}+" WORD_AFTER_NO "|[A-Za-z0-9]{251})"
     "|github_pat_(?:[A-Za-z0-9_]{22,239}+" WORD_AFTER_NO "|[A-Za-z0-9_]{240}))",
     NULL, EXT_WORD},
    {"gitlab_token", L_SECRET, "GitLab token (glpat-, gldt-, glrt-, ...)", 0,
     "(?:glpat|gldt|glptt|glrt|glsoat|glcbt)-(?:[A-Za-z0-9_\\-]{20,63}+(?![A-Za-z0-9_\\-])"
     "|[A-Za-z0-9_\\-]{64})",
     NULL, EXT_B64URL},
    {"slack_token", L_SECRET, "Slack token (xoxb-, xoxp-, xapp-, ...)", 0,
     "(?:xox[abposre]-|xapp-[0-9]-)(?:[A-Za-z0-9\\-]{10,249}+(?![A-Za-z0-9\\-])"
     "|[A-Za-z0-9\\-]{250})",
     NULL, EXT_B64URL},
    {"stripe_key", L_SECRET, "Stripe secret or restricted key (sk_live_, rk_live_, sk_test_)", 0,
     "[rs]k_(?:live|test)_(?:[A-Za-z0-9]{16,246}+" WORD_AFTER_NO "|[A-Za-z0-9]{247})", NULL,
     EXT_WORD},
    {"openai_key", L_SECRET, "OpenAI-style key (sk-, sk-proj-) with random-looking body", 0,
     "sk-(?:[A-Za-z0-9_\\-]{20,249}+(?![A-Za-z0-9_\\-])|[A-Za-z0-9_\\-]{250})", pii_val_openai_key,
     EXT_B64URL},
    {"jwt", L_SECRET, "JSON Web Token (header decodes to JSON with alg/typ)", 0,
     "eyJ(?:[A-Za-z0-9_\\-]{12,4095}+\\.eyJ(?:[A-Za-z0-9_\\-]{8,8191}+\\."
     "(?:[A-Za-z0-9_\\-]{0,4095}+(?![A-Za-z0-9_\\-]|\\.[A-Za-z0-9_\\-])|[A-Za-z0-9_\\-]{4096})"
     "|[A-Za-z0-9_\\-]{8192})|[A-Za-z0-9_\\-]{4096})",
     pii_val_jwt, EXT_JWT},
    /* -- secrets by context: only the value is the span ------------------ */
    {"basic_auth", L_SECRET, "credentials after 'Authorization: Basic'", 0,
     "(?i:authorization|proxy-authorization)[\"']?[ \\t]{0,3}[:=][ \\t]{0,3}[\"']?(?i:basic)"
     "[ ]{1,3}(?<V>[A-Za-z0-9+/]{8,1023}+={0,2}(?![A-Za-z0-9+/=])|[A-Za-z0-9+/]{1024})",
     pii_val_basic_auth, EXT_B64},
    {"bearer_token", L_SECRET, "high-entropy token after 'Bearer'", 0,
     "(?i:bearer)[ ]{1,3}(?<V>[A-Za-z0-9._~+/\\-]{16,4095}+={0,2}(?![A-Za-z0-9._~+/=\\-])"
     "|[A-Za-z0-9._~+/\\-]{4096})",
     pii_val_secret_token, EXT_BEARER},
    /* not a test log's result line ("PASS: config.sub", "XPASS: t-1.sh") */
    {"password_assignment", L_SECRET, "value assigned to a password-like name", 0,
     "(?!X?PASS[ \\t]{0,3}:)(?i:" NAME_PFX
     "(?:password|passwd|passphrase|passcode|pass|pwd|pw)" NAME_SFX ")" ASSIGN "(?<V>" VALCH
     "{6,255}+" VALEND "|" VALCH "{256})",
     pii_val_secret_password, EXT_VALCH},
    {"secret_assignment", L_SECRET, "high-entropy value assigned to a key/token/secret-like name",
     0,
     "(?i:" NAME_PFX
     "(?:secret|token|api[_\\-]?key|apikey|access[_\\-]?key(?:[_\\-]?id)?|private[_\\-]?key"
     "|(?:signing|encryption|master|client|app|consumer|account|service)[_\\-]?key"
     "|credentials?|auth|session[_\\-]?(?:id|key)|cookie|salt)" NAME_SFX ")" ASSIGN "(?<V>" VALCH
     "{12,511}+" VALEND "|" VALCH "{512})",
     pii_val_secret_token, EXT_VALCH},
    /* issue 41: a login that names a person (docs/LABELS.md): the value of
     * user=, username:, login=, uid= and a home directory's name; not
     * system or service accounts (validator) */
    {"login_assignment", L_PERSON,
     "login assigned to user, username, user_name, userid, login, uid (not an e-mail, not a "
     "system account)",
     0,
     "(?i:user(?:[_.\\-]?(?:name|id|login))?|login(?:[_.\\-]?name)?|uid)"
     "[\"']?[ \\t]{0,3}(?:=[\"']?|:[ \\t]{0,3}[\"']?)" /* no blank after '=': "user= from" */
     "(?<V>[A-Za-z][A-Za-z0-9._\\-]{1,31}+)(?=[\\s\"'`,;)\\]}&]|$)",
     pii_val_login, EXT_NONE},
    {"home_dir_user", L_PERSON, "the user name of a home directory: /home/NAME/, /Users/NAME/", 0,
     "/(?:home|Users)/(?<V>[A-Za-z][A-Za-z0-9._\\-]{1,31}+)(?=[/\\s\"'`,;:)\\]}]|$)", pii_val_login,
     EXT_NONE},
    {"handle_context", L_PERSON,
     "@handle after DM, ping, cc, follow, contact, message, reach out to, thanks, by, from, or "
     "starting a chat line before ': ' (not a code word, group or system account)",
     0,
     "(?=@)(?:(?<=\\b(?i:dm)[ ]|\\b(?i:ping)[ ]|\\b(?i:cc)[ ]|\\b(?i:cc):[ ]|\\b(?i:follow)[ ]"
     "|\\b(?i:contact)[ ]|\\b(?i:message)[ ]|\\b(?i:reach[ ]out[ ]to)[ ]|\\b(?i:thanks)[ ]"
     "|\\b(?i:by)[ ]|\\b(?i:from)[ ])|(?<![^\\n])(?=@[A-Za-z0-9_.\\-]{1,39}:[ ]))"
     "@[A-Za-z0-9_](?:[A-Za-z0-9_.\\-]{0,37}[A-Za-z0-9_])?(?![A-Za-z0-9_/@\\-]|\\.[A-Za-z0-9_])",
     pii_val_handle, EXT_NONE},
    /* -- numbers after a context word ------------------------------------ */
    {"phone_context", L_PHONE, "phone number after a word like 'phone', 'tel', 'call'", 0,
     "(?i:telephone|phone|tel|mobile|mobil|cell|fax|whatsapp|handy|telefon"
     "|t\\x{e9}l\\x{e9}phone|portable|call(?:[ ]me)?(?:[ ]at|[ ]on)?)"
     "(?:[ _\\-]?(?i:number|num|nr|no)\\.?|[ ]?\\#)?" CTX_IS
     "(?=[ \\t:=\"'])[\"']?[ \\t]{0,3}" CTX_SEP "[\"']?(?<V>\\+?\\(?[0-9](?:[ .\\-/" UDASH
     "]?\\(?[0-9]\\)?){6,16}" PHONE_EXT ")" PHONE_END,
     pii_val_phone_loose, EXT_NONE},
    {"account_context", L_ACCOUNT,
     "6-34 digit number after 'account', 'acct', 'routing', 'sort code', ...", 0,
     "(?i:account|acct|a/c|routing|aba|sort[ ]?code|bsb|konto|kontonummer|bank[ ]?account)"
     "(?:[ _\\-]?(?i:number|num|nr|no|id)\\.?|[ ]?\\#)?" CTX_IS
     "(?=[ \\t:=\\#\"'])[\"']?[ \\t]{0,3}"
     "(?:\\#[ \\t]{0,3}|" CTX_SEP ")[\"']?"
     "(?<V>[0-9](?:[ \\-]?[0-9]){5,33})(?![\\p{L}\\p{N}_]|[.,\\-/][0-9])",
     pii_val_account, EXT_NONE},
    /* issue 41: national identifiers are account_number (docs/LABELS.md) */
    {"ssn_context", L_ACCOUNT, "US SSN or ITIN after 'SSN', 'social security', 'ITIN', 'TIN'", 0,
     "(?i:ssn|social[ _\\-]?security|itin|tin|taxpayer[ _\\-]id(?:entification)?)"
     "(?:[ _\\-]?(?i:number|num|nr|no)\\.?|[ ]?\\#)?" CTX_IS "(?=[ \\t:=\\#\"'])[\"']?[ \\t]{0,3}"
     "(?:\\#[ \\t]{0,3}|" CTX_SEP ")[\"']?"
     "(?<V>[0-9]{3}([ \\-]?)[0-9]{2}\\g{-1}[0-9]{4})(?![\\p{L}\\p{N}_]|[.\\-/][0-9])",
     pii_val_ssn, EXT_NONE},
    {"id_context", L_ACCOUNT,
     "passport, driving licence, Medicare, health-insurance, NHS, medical record, national ID, "
     "DNI/NIE/NIF, BSN, PESEL, NIR, codice fiscale, Steuer-ID, member/patient/policy number after "
     "its name",
     0,
     "(?i:passport|driver'?s?[ _\\-]?licen[cs]e|driving[ _\\-]?licen[cs]e|licen[cs]e[ "
     "_\\-]?(?:number|no)"
     "|medicare|medicaid|mrn|medical[ _\\-]?record|health[ _\\-]?(?:insurance|card|plan)|nhs"
     "|national[ _\\-]?(?:id|identity|insurance)|ni(?=[ "
     "_\\-]?(?i:number|no|nr))|dni|nie|nif|bsn|burgerservicenummer|pesel"
     "|nir|codice[ _\\-]?fiscale|steuer[ _\\-]?id|steueridentifikationsnummer|tax[ _\\-]?id"
     "|personal[ _\\-]?id|id[ _\\-]?card"
     "|(?:member|patient|policy|customer|insurance)[ _\\-]?(?:id|number|no|nr))"
     "(?:[ _\\-]?(?i:number|num|nr|no|id)\\.?|[ ]?\\#)?" CTX_IS
     "(?=[ \\t:=\\#\"'])[\"']?[ \\t]{0,3}"
     "(?:\\#[ \\t]{0,3}|" CTX_SEP ")[\"']?"
     "(?<V>(?=[A-Za-z\\-]{0,6}[0-9])[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])|[ "
     "](?=[0-9]{2})){4,24})"
     "(?![A-Za-z0-9]|-[A-Za-z0-9])",
     pii_val_id_context, EXT_NONE},
    {"id_label_ja", L_ACCOUNT,
     "identifier after a Japanese label ending in \xe7\x95\xaa\xe5\x8f\xb7 or ID "
     "(\xe4\xbc\x9a\xe5\x93\xa1\xe7\x95\xaa\xe5\x8f\xb7: M-882901); not a phone or postal "
     "number",
     0,
     "(?:" JA_CH "{0,10}" JA_NOT_PHONE "\\x{756a}\\x{53f7}|" JA_CH
     "{1,10}(?:ID|\\x{ff29}\\x{ff24}))"
     "[ \\t\\x{3000}]?[:\\x{ff1a}]?[ \\t\\x{3000}]?\\x{7b2c}?"
     "(?<V>(?=[A-Za-z\\-]{0,6}[0-9])[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){3,30})"
     "(?![A-Za-z0-9]|-[A-Za-z0-9])",
     pii_val_id_ja, EXT_NONE},
    /* -- email and URL ----------------------------------------------------- */
    {"email", L_EMAIL, "email address (IDN domains allowed)", 0,
     "(?<![.%+\\-])[\\p{L}\\p{N}_][\\p{L}\\p{N}_.%+\\-]{0,63}@(?:" DLABEL "\\.){1,8}" TLD
     "(?![\\p{L}\\p{N}_\\-@]|\\.[\\p{L}\\p{N}]|:[\\p{L}\\p{N}_~.\\-])",
     pii_val_email, EXT_NONE},
    {"url", L_URL, "URL with a scheme (http, https, ftp, ws) or starting with www.", 0,
     "(?:(?i:https?|ftps?|sftp|wss?)://(?:[^\\s/?\\#@\"'<>\\[\\]]{1,128}@)?|(?i:www)\\.)"
     "(?:" DLABEL "\\.){1,10}" TLD "(?::[0-9]{1,5})?"
     "(?:[/?\\#][^\\s<>\"'`{}|\\\\^\\x{0}-\\x{1f}\\x{7f}]{0,2048})?"
     "(?![\\p{L}\\p{N}_\\-@/]|\\.[\\p{L}\\p{N}]|:[0-9])",
     pii_val_url, EXT_NONE},
    /* issue 41: a profile URL without scheme or www: a profile host (the
     * validator's list), one path segment; not inside an e-mail or a longer
     * URL (no '.', '@', '/', ':' before it) */
    {"url_profile", L_URL,
     "profile URL without scheme: github.com/NAME, linkedin.com/in/NAME, medium.com/@NAME, ...", 0,
     "(?<![.@/:%+~\\-])(?:[A-Za-z0-9\\-]{1,24}\\.){1,2}[A-Za-z]{2,3}/(?:in/)?@?"
     "[\\p{L}\\p{N}_](?:[\\p{L}\\p{N}_.\\-]{0,62}[\\p{L}\\p{N}_])?/?"
     "(?:[?\\#][^\\s<>\"'`]{0,256})?(?![\\p{L}\\p{N}_\\-@/]|\\.[\\p{L}\\p{N}])",
     rules_val_url_profile, EXT_NONE},
    /* issue 41: the password of a connection string whose scheme the url
     * rule does not take (postgres://app:PW@host, redis://:PW@host); after
     * url, so an http(s) URL with credentials stays one private_url */
    {"conn_password", L_SECRET,
     "password in a connection string: scheme://user:PASSWORD@host (postgres, mysql, redis, ...)",
     0, "(?i:[a-z][a-z0-9+.\\-]{1,24})://[^\\s:/@\"'<>]{0,128}:(?<V>[^\\s/@\"'<>]{1,1024}+)(?=@)",
     NULL, EXT_NONE},
    /* a password given to a command: --password VALUE, --pass=VALUE */
    {"password_flag", L_SECRET, "value of a --password / --pass / --passwd / --pwd option", 0,
     "--?(?i:password|passwd|passphrase|pass|pwd)[ =](?<V>" VALCH "{6,255}+" VALEND "|" VALCH
     "{256})",
     pii_val_secret_password, EXT_VALCH},
    /* -- account numbers ----------------------------------------------------- */
    {"iban", L_ACCOUNT, "IBAN (country length table and mod-97 check)", 0,
     "[A-Z]{2}[0-9]{2}(?:[ ]?[A-Z0-9]){11,30}" WORD_AFTER_NO, pii_val_iban, EXT_NONE},
    /* issue 41: values in JSON, CSV and key:value text ("number":5421...,
     * "card:4111...,25 EUR", "1,Maria Garcia,4111...") are cards: ':' and
     * ',' may precede, and ',' and a digit (the next CSV field) may follow;
     * a compact number may be followed by a space and a digit ("... 25
     * EUR"), a grouped one not (it could go on: "4111 1111 1111 1111 2") */
    {"card", L_ACCOUNT, "payment card number (issuer prefix, length, Luhn)", 0,
     "(?<![./\\-+$\\#])(?:[0-9]{13,19}(?![\\p{L}\\p{N}_]|[\\-.][0-9])"
     "|[0-9](?:[ \\-]?[0-9]){12,18}(?![\\p{L}\\p{N}_]|[ \\-.][0-9]))",
     pii_val_card, EXT_NONE},
    /* issue 18 M6: in a run of cards separated by spaces ("4111 1111 1111
     * 1111 5555 ..."), `card` refuses all but the last (each is followed by
     * a space and a digit); a 4-4-4-4 group may be followed by a space */
    {"card_run", L_ACCOUNT,
     "payment card number 4-4-4-4 followed by another 4-digit group (a run of cards)", 0,
     "(?<![./\\-+$\\#])[0-9]{4}([ \\-])[0-9]{4}\\g{-1}[0-9]{4}\\g{-1}[0-9]{4}"
     "(?=[ ][0-9]{4}(?![0-9]))",
     pii_val_card, EXT_NONE},
    /* -- national identifiers with a shape and a check of their own ---------- */
    {"ssn", L_ACCOUNT, "US SSN or ITIN written 123-45-6789 (area, group and serial rules)", 0,
     NUM_BEFORE_NO "[0-9]{3}-[0-9]{2}-[0-9]{4}(?![\\p{L}\\p{N}_]|[.\\-/][0-9])", pii_val_ssn,
     EXT_NONE},
    {"uk_nino", L_ACCOUNT, "UK National Insurance number: AB123456C, AB 12 34 56 C", 0,
     "[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z](?:[0-9]{6}|[ ][0-9]{2}[ ][0-9]{2}[ ][0-9]{2})[ "
     "]?[A-D]" WORD_AFTER_NO,
     pii_val_uk_nino, EXT_NONE},
    {"es_dni", L_ACCOUNT, "Spanish DNI 12345678Z or NIE X1234567L (check letter)", 0,
     "(?:[0-9]{8}|[XYZ]-?[0-9]{7})-?[A-Z]" WORD_AFTER_NO, pii_val_es_dni, EXT_NONE},
    {"it_codice_fiscale", L_ACCOUNT, "Italian codice fiscale (check character)", 0,
     "[A-Z]{6}[0-9LMNPQRSTUV]{2}[ABCDEHLMPRST][0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{3}[A-"
     "Z]" WORD_AFTER_NO,
     pii_val_it_cf, EXT_NONE},
    {"fr_nir", L_ACCOUNT, "French NIR (social security number) with its key", 0,
     "[1-478](?:[0-9]{2}(?:0[1-9]|1[0-2]|[2-9][0-9])(?:[0-9]{2}|2[AB])[0-9]{8}"
     "|[ ][0-9]{2}[ ](?:0[1-9]|1[0-2]|[2-9][0-9])[ ](?:[0-9]{2}|2[AB])[ ][0-9]{3}[ ][0-9]{3}"
     "[ ][0-9]{2})" WORD_AFTER_NO,
     pii_val_fr_nir, EXT_NONE},
    /* -- dates --------------------------------------------------------------- */
    /* a date after a word of a person's event (born, DOB, admitted, hired,
     * ...): only the date is the span.  Between them, up to 32 characters
     * of one sentence with no digit, '@', '/', '=', '<' or '>', so that no
     * value another rule would find is passed over. */
    {"date_context", L_DATE,
     "date after a word of a person's event: born, DOB, admitted, appointment, hired, died", 0,
     DATE_CTX_WORD "(?![\\p{L}\\p{N}_])(?:(?![.!?;][ ]|[.!?;]$)[^\\n\\p{N}@/=<>]){0,32}?"
                   "(?<V>" DATE_ANY ")",
     rules_val_date_any, EXT_NONE},
    {"date_iso", L_DATE, "yyyy-mm-dd or yyyy/mm/dd, a real date, not followed by a time", 0,
     "(?<![./:\\-+])(?<d_iso>(?:19|20)[0-9]{2}([\\-/"
     "])(?:0[1-9]|1[0-2])\\g{-1}(?:0[1-9]|[12][0-9]|3[01])" DATE_END ")",
     pii_val_date_iso, EXT_NONE},
    {"date_numeric", L_DATE, "dd.mm.yyyy, dd/mm/yyyy, mm/dd/yyyy, dd-mm-yyyy, a real date", 0,
     "(?<![./:\\-+])(?<d_num>" DAY "([./\\-])" DAY "\\g{-1}(?:19|20)[0-9]{2}" DATE_END ")",
     pii_val_date_numeric, EXT_NONE},
    {"date_text_dmy", L_DATE, "23 April 2026, 1st of May, 2026, 3. M\xC3\xA4rz 2026", 0,
     "(?<![./:\\-+])(?<d_dmy>" DAY "(?:st|nd|rd|th|er|\\.)?" SP "(?:(?i:of|de)" SP ")?"
     "(?<d_mon>" MONTH ")\\.?,?" SP "(?:(?i:de)" SP ")?" YEAR "(?![\\p{L}\\p{N}_]|[.:][0-9]))",
     pii_val_date_text, EXT_NONE},
    {"date_text_mdy", L_DATE, "April 23, 2026, Sept. 1 2026", 0,
     "(?<d_mdy>(?&d_mon)\\.?" SP DAY "(?:st|nd|rd|th)?,?" SP YEAR "(?![\\p{L}\\p{N}_]|[.:][0-9]))",
     pii_val_date_text, EXT_NONE},
    /* -- phones ----------------------------------------------------------------- */
    {"phone_intl", L_PHONE, "international number: +, country code, 8-15 digits", 0,
     "(?<![+])\\+[1-9](?:[ .\\-]?\\(?[0-9]\\)?){6,16}" PHONE_EXT PHONE_END, pii_val_phone_intl,
     EXT_NONE},
    {"phone_intl00", L_PHONE, "international number with the 00 prefix: 0044 20 7946 0958", 0,
     NUM_BEFORE_NO "00[1-9](?:[ .\\-]?\\(?[0-9]\\)?){6,16}" PHONE_EXT PHONE_END,
     pii_val_phone_intl00, EXT_NONE},
    {"phone_nanp", L_PHONE, "US/Canada number with separators: (415) 555-0100, 415.555.0100", 0,
     NUM_BEFORE_NO "(?:1[ .\\-]?)?(?:\\([2-9][0-9]{2}\\)[ ]?[2-9][0-9]{2}[ .\\-]"
                   "|[2-9][0-9]{2}([ .\\-" UDASH
                   "])[2-9][0-9]{2}\\g{-1})[0-9]{4}" PHONE_EXT PHONE_END,
     NULL, EXT_NONE},
    {"phone_national", L_PHONE,
     "national number with trunk 0 and separators: 020 7946 0958, 01 23 45 67 89, 03-1234-5678", 0,
     NUM_BEFORE_NO
     "(?:\\(0[1-9][0-9]{0,4}\\)[ ]?[0-9]|0[1-9])(?:[ .\\-/]?[0-9]){6,11}" PHONE_EXT PHONE_END,
     pii_val_phone_national, EXT_NONE},
    {"phone_in", L_PHONE, "Indian mobile number written 98765 43210", 0,
     NUM_BEFORE_NO "[6-9][0-9]{4}[ \\-][0-9]{5}" PHONE_END, NULL, EXT_NONE},
    /* -- street addresses: last, so that a phone or date at the same start wins */
    {"street_address", L_ADDRESS,
     "house number, capitalised street name and street type (12 Elm Street, Apt 4, Springfield, "
     "IL 62704); French 12 rue de la Paix",
     0,
     ADDR_FIRST ADDR_NOT_AFTER
     "(?:" ADDR_NUM "[ ](?:" ADDR_WORD "[ ]){1,4}" ADDR_TYPE ADDR_DIR ADDR_UNIT ADDR_TAIL
     "|" ADDR_NUM "(?:[ ]?(?i:bis|ter))?,?[ ]" ADDR_FR_TYPE "[ ]" ADDR_FR_NAME ADDR_FR_TOWN
     ")(?![\\p{L}\\p{N}_])",
     NULL, EXT_NONE},
    {"po_box", L_ADDRESS, "post office box: PO Box 1234, P.O. Box 12, Postfach 123, Apartado 45", 0,
     "(?i:p\\.?[ ]?o\\.?[ ]?box|post[ ]office[ ]box|postfach|apartado(?:[ ]de[ ]correos)?)"
     "[ ]?(?:\\#|(?i:no)\\.?)?[ ]?[0-9]{1,7}" ADDR_TAIL "(?![\\p{L}\\p{N}_])",
     NULL, EXT_NONE},
    {"military_address", L_ADDRESS,
     "US military mail: PSC 1234, Box 5678 / USNS Comfort, then APO|FPO|DPO AA|AE|AP and ZIP", 0,
     "(?:(?:" MIL_UNIT "|" MIL_SHIP ")" MIL_SEP ")?" MIL_ZIP "(?![\\p{L}\\p{N}_])", NULL, EXT_NONE},
    {"street_address_eu", L_ADDRESS,
     "street name, then the number: Hauptstra\xc3\x9f"
     "e 12, Kerkstraat 7, Sveav\xc3\xa4gen 12, Kir\xc3\xa1ly u. 15, Calle Mayor 5, "
     "ul. Jesionowa 127; "
     "optional postcode and town",
     0, "(?:" ADDR_EU_DE "|" ADDR_EU_ROM ")" ADDR_EU_NUM ADDR_EU_TOWN "(?![\\p{L}\\p{N}_])", NULL,
     EXT_NONE},
    /* -- group B: may follow a word character ------------------------------------ */
    /* Chinese text runs words together: its values follow a Han character.
     * A mainland mobile number after a phone word (手机, 电话, 联系, 致电,
     * 拨打) and up to six characters of the same sentence, an e-mail right
     * after a CJK character, a resident ID (居民身份证, 18 characters, ISO
     * 7064 MOD 11-2) after its label. */
    {"phone_cn", L_PHONE,
     "mainland China mobile number 1[3-9]xxxxxxxxx after a phone word "
     "(\xe6\x89\x8b\xe6\x9c\xba, \xe7\x94\xb5\xe8\xaf\x9d, ...)",
     1,
     CN_PHONE_CTX
     "[^\\n\\p{N}@.!?;\\x{3002}\\x{ff01}\\x{ff1f}\\x{ff1b}]{0,6}?(?<V>1[3-9][0-9]{9})(?![0-9])",
     NULL, EXT_NONE},
    {"email_cjk", L_EMAIL, "email address right after a Chinese or Japanese character", 1,
     "(?<=[\\p{Han}\\p{Hiragana}\\p{Katakana}\\x{3000}-\\x{303f}\\x{ff00}-\\x{ffef}])"
     "[A-Za-z0-9_][A-Za-z0-9_.%+\\-]{0,63}@(?:" DLABEL "\\.){1,8}" TLD
     "(?![\\p{L}\\p{N}_\\-@]|\\.[\\p{L}\\p{N}]|:[\\p{L}\\p{N}_~.\\-])",
     pii_val_email, EXT_NONE},
    {"cn_resident_id", L_ACCOUNT,
     "Chinese resident identity card number after its label (18 characters, ISO 7064 check)", 1,
     CN_ID_CTX
     "[ \\x{3000}:\\x{ff1a}\\x{662f}\\x{4e3a}]{0,3}(?<V>[1-9][0-9]{16}[0-9Xx])(?![0-9A-Za-z])",
     rules_val_cn_id, EXT_NONE},
    {"address_ja", L_ADDRESS,
     "Japanese address: \xe3\x80\x92 postcode, prefecture, municipality, block number, building "
     "and floor",
     1, "(?:\\x{3012}[0-9]{3}-?[0-9]{4}[ \\x{3000}]?)?" JA_PREF JA_LOCAL JA_BLOCK JA_BUILDING, NULL,
     EXT_NONE},
    {"pem_private_key", L_SECRET, "PEM/PGP private key block, BEGIN to END", 1,
     "-----BEGIN[ ]" PEM_LABEL "-----[\\s\\S]{0,16384}?-----END[ ]" PEM_LABEL "-----", NULL,
     EXT_NONE},
    {"pem_private_key_open", L_SECRET, "PEM private key header and body without an END line", 1,
     "-----BEGIN[ ]" PEM_LABEL "-----[A-Za-z0-9+/=:,.\\-\\s\\\\]{0,16384}+", NULL, EXT_PEM},
};

#define NRULES (sizeof rule_defs / sizeof rule_defs[0])

/* The breadth of the rules it concerns (see RM_BOTH above); a rule not
 * listed is RM_BOTH with its own validator. */
static const struct rule_breadth {
    const char *id;
    int mode;
    pii_rx_check policy_check; /* by default instead of the rule's (NULL: its own) */
    pii_rx_check check;        /* at both breadths instead of the rule's (NULL: its own) */
} rule_breadth[] = {
    {"url", RM_BOTH, rules_val_url_personal, NULL},
    {"date_context", RM_POLICY, NULL, NULL},
    {"date_iso", RM_BROAD, NULL, NULL},
    {"date_numeric", RM_BROAD, NULL, NULL},
    {"date_text_dmy", RM_BROAD, NULL, NULL},
    {"date_text_mdy", RM_BROAD, NULL, NULL},
    {"password_assignment", RM_BOTH, NULL, rules_val_password},
};

/* ---- the prefilter ------------------------------------------------------
 *
 * A necessary condition for a match of the combined pattern at p, checked in
 * C so that PCRE2 runs (anchored) only where something might match.  Every
 * clause is implied by the rules above (docs/RULES.md gives the argument);
 * the tests compare prefiltered and plain PCRE2 scans.
 *   group B (PEM): "-----BEGIN " at p; (address_ja) the postcode mark, a
 *   prefecture's name or the ken mark 6 or 9 bytes after p (pf_addr_ja).
 *   group A needs p to follow no ASCII word byte (a preceding non-ASCII
 *   character is left to PCRE2), and then one of:
 *   - p is a digit and the digits there start one of the digit shapes
 *     (pf_digit_start: a card, a trunk-0 or NANP or Indian phone, a
 *     numeric, ISO or text date), or clause (a) or (c) below holds (an
 *     email local part or an assignment name may start with a digit);
 *   - or '+' / '(' followed by a digit, or '@' by an ASCII word byte at a
 *     line start or after a word of handle_context (pf_handle_ctx);
 *   - p starts a character (ASCII letter, '_', or a UTF-8 lead byte) and,
 *     with R the maximal run of "ident" bytes [A-Za-z0-9_.%+-] or >= 0x80
 *     from p (R holds every name, email local part and token body, also
 *     the caseless non-ASCII forms of k and s):
 *     (a) R is followed by '@' (email);
 *     (b) R is at least 15 bytes and starts with a token prefix (A, gh,
 *         github_pat_, gl, xox, xapp-, sk, rk, eyJ);
 *     (c) R, an optional quote and up to 3 blanks are followed by ':' or
 *         '=', and R contains a secret-name stem (pw, pass, secret, token,
 *         key, credential, auth, session, cookie, salt) or is a URL scheme
 *         (assignments, Authorization:, URLs) or has a non-ASCII byte
 *         or is a name of login_assignment (user, user_name, login, uid,
 *         ...: the whole run);
 *     (d) R starts with "www." or is "bearer";
 *     (e) a digit lies within 64 bytes of p, and either p starts
 *         [A-Z][A-Z][0-9][0-9] (IBAN), or a context-word stem (phone,
 *         account, post office box, military mail, date_context and month words), or a
 *         non-ASCII byte lies within 16 bytes of p (non-ASCII month names
 *         and caseless forms);
 *     (f) a street name before its number (pf_addr_eu);
 *     (g) R is a ship's prefix (USS, USNS, ...) followed by a space;
 *     (h) R is a profile host (url_profile_hosts, linkedin.com) and '/'
 *         follows it (url_profile).
 * Anything that would need bytes past the buffer end is a candidate. */

#define PF_RUN_MAX 512 /* no name or local part is longer (in bytes)  */
#define PF_DIGIT_WINDOW 64
#define PF_NONASCII_WINDOW 16

enum { PF_WORD = 1, PF_IDENT = 2, PF_DIGIT = 4, PF_UPPER = 8, PF_HIGH = 16 };
static uint8_t pf_cls[256];
static pthread_once_t pf_once = PTHREAD_ONCE_INIT;

static uint8_t pf_lower(uint8_t c)
{
    return (c >= 'A' && c <= 'Z') ? (uint8_t)(c + 32) : c;
}

/* Case-insensitive: does p[0..n) start with the lower-case ASCII lit? */
static int pf_ci_starts(const uint8_t *p, size_t n, const char *lit, size_t m)
{
    if (n < m)
        return 0;
    for (size_t i = 0; i < m; i++)
        if (pf_lower(p[i]) != (uint8_t)lit[i])
            return 0;
    return 1;
}

#define PF_CI_STARTS(p, n, lit) pf_ci_starts((p), (n), lit, sizeof lit - 1)
#define PF_STARTS(p, n, lit) ((n) >= sizeof lit - 1 && memcmp((p), lit, sizeof lit - 1) == 0)

typedef struct pf_stem {
    const char *s;
    size_t n;
    int whole; /* 0: a prefix; 1: ends the word (no ASCII letter next) or runs
                * into a continuation word; 2: a continuation word follows,
                * after at most one of " _-" (pf_word_end) */
} pf_stem;

typedef struct pf_stems {
    const pf_stem *v;
    size_t n;
    uint8_t first[256]; /* lower-case first bytes, filled by pf_init */
    /* the stems by first byte: order[lo[c] .. lo[c] + cnt[c]) */
    uint8_t order[96], lo[256], cnt[256];
} pf_stems;

#define ST(x)                                                                                      \
    {                                                                                              \
        x, sizeof x - 1, 0                                                                         \
    }
#define STW(x)                                                                                     \
    {                                                                                              \
        x, sizeof x - 1, 1                                                                         \
    }
#define STP(x)                                                                                     \
    {                                                                                              \
        x, sizeof x - 1, 2                                                                         \
    }
static const pf_stem secret_stems[] = {ST("pw"),     ST("pass"),       ST("secret"), ST("token"),
                                       ST("key"),    ST("credential"), ST("auth"),   ST("session"),
                                       ST("cookie"), ST("salt")};
/* login_assignment's names */
static const pf_stem ctx_stems[] = {
    /* phone words */
    ST("tel"), ST("phone"), ST("mobil"), ST("cell"), ST("fax"), ST("whatsapp"), ST("handy"),
    ST("portable"), ST("call"),
    /* account words */
    ST("account"), ST("acct"), ST("a/c"), ST("routing"), ST("aba"), ST("sort"), ST("bsb"),
    ST("konto"), ST("bank"),
    /* national identifiers (ssn_context, id_context): by a prefix, whole
     * words, and words the rules take only before a continuation word
     * ("social security", "member id", "licence no") */
    ST("passport"), ST("driv"), ST("medic"), ST("steuer"), ST("burgerservice"), STW("ssn"),
    STW("itin"), STW("tin"), STW("mrn"), STW("nhs"), STW("dni"), STW("nie"), STW("nif"), STW("bsn"),
    STW("pesel"), STW("nir"), STP("social"), STP("taxpayer"), STP("health"), STP("national"),
    STP("ni"), STP("codice"), STP("tax"), STP("personal"), STP("id"), STP("member"), STP("patient"),
    STP("policy"), STP("customer"), STP("insurance"), STP("license"), STP("licence"),
    /* post office boxes */
    ST("po"), ST("p.o"), ST("p o"), ST("apartado"),
    /* military mail: PSC 12, Box 3 / APO AE 09204 */
    ST("psc"), ST("cmr"), ST("unit"), ST("apo"), ST("fpo"), ST("dpo"),
    /* date_context (non-ASCII words: the non-ASCII clause) */
    ST("date"), ST("birth"), ST("born"), ST("dob"), ST("d.o.b"), ST("d/o/b"), ST("died"),
    ST("deceased"), ST("admi"), ST("discharg"), ST("appo"), ST("appt"), ST("hire"), ST("start"),
    ST("employed"), ST("joined"), ST("geb"), ST("fecha"), ST("naci"), ST("data"), ST("nasc"),
    ST("ingres"), ST("fallec"), ST("interv"), ST("opera"), ST("surg"), ST("diagnos"), ST("treat"),
    ST("seen"), ST("visit")};
/* ASCII month names, by their first three letters */
static const pf_stem month_stems[] = {
    ST("jan"), ST("feb"), ST("mar"), ST("apr"), ST("may"), ST("jun"), ST("jul"), ST("aug"),
    ST("sep"), ST("oct"), ST("nov"), ST("dec"), ST("fev"), ST("mai"), ST("jui"), ST("avr"),
    ST("aou"), ST("okt"), ST("dez"), ST("ene"), ST("abr"), ST("ago"), ST("set"), ST("dic")};
/* French street types (street_address: "12 rue ...") */
static const pf_stem fr_type_stems[] = {ST("rue"),   ST("av"),     ST("boulevard"), ST("bd"),
                                        ST("place"), ST("chemin"), ST("all"),       ST("impasse"),
                                        ST("quai"),  ST("route"),  ST("cours"),     ST("square")};
/* ship prefixes of military_address, whose ZIP code may lie past PF_DIGIT_WINDOW */
static const pf_stem ship_words[] = {ST("uss"), ST("usns"), ST("usnv"), ST("uscgc"), ST("usav")};
static const pf_stem scheme_words[] = {ST("http"), ST("https"), ST("ftp"), ST("ftps"),
                                       ST("sftp"), ST("ws"),    ST("wss")};
#undef ST
#undef STW
#undef STP

#define STEMS(a)                                                                                   \
    {                                                                                              \
        a, sizeof a / sizeof a[0], {0}, {0}, {0},                                                  \
        {                                                                                          \
            0                                                                                      \
        }                                                                                          \
    }
static pf_stems pf_secret = STEMS(secret_stems);
static pf_stems pf_ctx = STEMS(ctx_stems);
static pf_stems pf_month = STEMS(month_stems);
static pf_stems pf_fr = STEMS(fr_type_stems);
#undef STEMS

static void pf_stems_init(pf_stems *t)
{
    size_t m = 0;
    for (int c = 0; c < 256; c++) {
        t->lo[c] = (uint8_t)m;
        for (size_t k = 0; k < t->n; k++)
            if ((uint8_t)t->v[k].s[0] == c)
                t->order[m++] = (uint8_t)k;
        t->cnt[c] = (uint8_t)(m - t->lo[c]);
        t->first[c] = t->cnt[c] != 0;
    }
}

/* What a whole-word stem may run into without a separator in the rules
 * ("ssnnumber", "nationalid", "codicefiscale"). */
static const char *const pf_cont[] = {"num",       "nr",   "no",   "id",     "security",
                                      "insurance", "card", "plan", "record", "fiscale"};

/* After a whole-word stem: the rest q[0..n) starts with no ASCII letter
 * (whole 1), or with a continuation word (or a prefix of one at the
 * buffer's end); whole 2: after at most one of " _-". */
static int pf_word_end(const uint8_t *q, size_t n, int whole)
{
    if (!n)
        return 1;
    if (whole == 1 && !((q[0] | 0x20) >= 'a' && (q[0] | 0x20) <= 'z'))
        return 1;
    if (whole == 2 && (q[0] == ' ' || q[0] == '_' || q[0] == '-')) {
        q++;
        if (!--n)
            return 1;
    }
    for (size_t k = 0; k < sizeof pf_cont / sizeof pf_cont[0]; k++) {
        size_t m = strlen(pf_cont[k]);
        if (pf_ci_starts(q, n < m ? n : m, pf_cont[k], n < m ? n : m))
            return 1;
    }
    return 0;
}

/* Does some stem start at p[i] for i = 0 (or any i < n when anywhere)? */
static int pf_any_stem(const uint8_t *p, size_t n, const pf_stems *t, int anywhere)
{
    size_t last = anywhere ? n : (n ? 1 : 0);
    for (size_t i = 0; i < last; i++) {
        uint8_t c = pf_lower(p[i]);
        if (!t->first[c])
            continue;
        for (size_t j = t->lo[c], e = j + t->cnt[c]; j < e; j++) {
            const pf_stem *st = &t->v[t->order[j]];
            if (pf_ci_starts(p + i, n - i, st->s, st->n) &&
                (!st->whole || pf_word_end(p + i + st->n, n - i - st->n, st->whole)))
                return 1;
        }
    }
    return 0;
}

/* Is p[0..n) one of the words (any case)? */
static int pf_is_word(const uint8_t *p, size_t n, const pf_stem *w, size_t nw)
{
    for (size_t k = 0; k < nw; k++)
        if (w[k].n == n && pf_ci_starts(p, n, w[k].s, n))
            return 1;
    return 0;
}

static int pf_is_scheme(const uint8_t *p, size_t n)
{
    return pf_is_word(p, n, scheme_words, sizeof scheme_words / sizeof scheme_words[0]);
}

static void pf_eu_init(void);
static void ext_init(void);

static void pf_init(void)
{
    for (int c = 0; c < 256; c++) {
        int up = c >= 'A' && c <= 'Z', dg = c >= '0' && c <= '9';
        int alnum = up || (c >= 'a' && c <= 'z') || dg;
        uint8_t k = 0;
        if (alnum || c == '_')
            k |= PF_WORD;
        if (alnum || c == '_' || c == '.' || c == '%' || c == '+' || c == '-' || c >= 0x80)
            k |= PF_IDENT;
        if (dg)
            k |= PF_DIGIT;
        if (up)
            k |= PF_UPPER;
        if (c >= 0x80)
            k |= PF_HIGH;
        pf_cls[c] = k;
    }
    pf_stems_init(&pf_secret);
    pf_stems_init(&pf_ctx);
    pf_stems_init(&pf_month);
    pf_stems_init(&pf_fr);
    pf_eu_init();
    ext_init();
}

/* login_assignment's name: the whole ident run (every character of a name
 * is an ident byte, the one after it never is), in any ASCII case. */
static int pf_login_name(const uint8_t *r, size_t n)
{
    static const char *const names[] = {"user", "login", "uid"};
    static const char *const user_tails[] = {"name", "id", "login"};
    if (n == 3)
        return pf_ci_starts(r, n, names[2], 3);
    if (n >= 5 && pf_ci_starts(r, n, names[1], 5)) { /* login(?:[_.\-]?name)? */
        size_t i = 5;
        if (i < n && (r[i] == '_' || r[i] == '.' || r[i] == '-'))
            i++;
        return i == n ? n == 5 : n - i == 4 && pf_ci_starts(r + i, n - i, "name", 4);
    }
    if (n < 4 || !pf_ci_starts(r, n, names[0], 4)) /* user(?:[_.\-]?(?:name|id|login))? */
        return 0;
    size_t i = 4;
    if (i == n)
        return 1;
    if (r[i] == '_' || r[i] == '.' || r[i] == '-')
        i++;
    for (size_t k = 0; k < sizeof user_tails / sizeof user_tails[0]; k++) {
        size_t m = strlen(user_tails[k]);
        if (n - i == m && pf_ci_starts(r + i, m, user_tails[k], m))
            return 1;
    }
    return 0;
}

/* Clause (c): the ident run b[p, e) followed by an optional quote, up to
 * three blanks and ':' or '=', naming a secret (a stem), a URL scheme or
 * holding a non-ASCII byte (caseless forms).  Undecided: yes. */
static int pf_assign(const uint8_t *b, size_t p, size_t e, size_t lim, int eod)
{
    size_t len = e - p;
    const uint8_t *r = b + p;
    if (len > PF_RUN_MAX || e >= lim)
        return e >= lim && !eod;
    uint8_t after = b[e];
    if (!(after == ':' || after == '=' || after == '"' || after == '\'' || after == ' ' ||
          after == '\t'))
        return 0;
    size_t q = e;
    if (b[q] == '"' || b[q] == '\'')
        q++;
    for (int k = 0; k < 3 && q < lim && (b[q] == ' ' || b[q] == '\t'); k++)
        q++;
    if (q >= lim)
        return !eod;
    if (b[q] != ':' && b[q] != '=')
        return 0;
    for (size_t i = 0; i < len; i++)
        if (pf_cls[r[i]] & PF_HIGH)
            return 1;
    return pf_any_stem(r, len, &pf_secret, 1) || pf_is_scheme(r, len) || pf_login_name(r, len);
}

static size_t pf_ndigits(const uint8_t *b, size_t i, size_t lim, int *at_end);

#define PF_EU_REACH 512 /* bytes from a street name's start to its number */

/* Street address, name first (rule street_address_eu), at b[p], whose
 * ident run ends at e: it starts with an upper-case letter (or a non-ASCII
 * byte), and ends in a German or Dutch street suffix; or a blank and a
 * German street word follow it; or it is a Romance street type ("Calle",
 * "C/").  Undecided: yes. */
#define SL(x)                                                                                      \
    {                                                                                              \
        x, sizeof x - 1, 0                                                                         \
    }
static const pf_stem eu_sfx[] = {SL("stra\xc3\x9f"
                                    "e"),
                                 SL("strasse"),
                                 SL("str."),
                                 SL("weg"),
                                 SL("platz"),
                                 SL("allee"),
                                 SL("gasse"),
                                 SL("damm"),
                                 SL("ufer"),
                                 SL("chaussee"),
                                 SL("straat"),
                                 SL("laan"),
                                 SL("gracht"),
                                 SL("plein"),
                                 SL("kade"),
                                 SL("steeg"),
                                 SL("singel"),
                                 SL("vej"),
                                 SL("vei"),
                                 SL("veien"),
                                 SL("vegen"),
                                 SL("vegur"),
                                 SL("v\xc3\xa4gen"),
                                 SL("gata"),
                                 SL("gatan"),
                                 SL("gr\xc3\xa4nd"),
                                 SL("str\xc3\xa6"
                                    "de"),
                                 SL("plads"),
                                 SL("torv"),
                                 SL("braut"),
                                 SL("st\xc3\xadgur"),
                                 SL("katu"),
                                 SL("tie"),
                                 SL("kuja"),
                                 SL("polku"),
                                 SL("t\xc3\xa4nav"),
                                 SL("maantee"),
                                 SL("puiestee"),
                                 SL("utca"),
                                 SL("k\xc3\xb6r\xc3\xbat"),
                                 SL("gade")};
static const pf_stem eu_words[] = {SL("Stra\xc3\x9f"
                                      "e"),
                                   SL("Strasse"),
                                   SL("Str."),
                                   SL("Weg"),
                                   SL("Allee"),
                                   SL("Gasse"),
                                   SL("Damm"),
                                   SL("Ufer"),
                                   SL("Chaussee"),
                                   SL("u."),
                                   SL("utca"),
                                   SL("\xc3\xbat"),
                                   SL("t\xc3\xa9r"),
                                   SL("k\xc3\xb6r\xc3\xbat"),
                                   SL("krt."),
                                   SL("tee"),
                                   SL("mnt"),
                                   SL("maantee"),
                                   SL("t\xc3\xa4nav"),
                                   SL("puiestee"),
                                   SL("vei"),
                                   SL("vej")};
static const pf_stem eu_types[] = {SL("Calle"),
                                   SL("Avenida"),
                                   SL("Avda."),
                                   SL("Plaza"),
                                   SL("Paseo"),
                                   SL("Carrer"),
                                   SL("Piazza"),
                                   SL("Viale"),
                                   SL("Rua"),
                                   SL("Travessa"),
                                   SL("Pra\xc3\xa7"
                                      "a"),
                                   SL("ul."),
                                   SL("al."),
                                   SL("pl."),
                                   SL("os."),
                                   SL("ulica"),
                                   SL("Ulica"),
                                   SL("aleja"),
                                   SL("Aleja"),
                                   SL("plac"),
                                   SL("Plac")};
#undef SL

/* The last three bytes of every suffix (ASCII lowered), hashed into 4096
 * bits: most capitalised words end in none of them and skip the loop. */
static uint64_t eu_sfx_end[64];

static unsigned pf_end3(const uint8_t *t)
{
    return ((unsigned)pf_lower(t[0]) * 961u + (unsigned)pf_lower(t[1]) * 31u + pf_lower(t[2])) &
           4095u;
}

static void pf_eu_init(void)
{
    for (size_t k = 0; k < sizeof eu_sfx / sizeof eu_sfx[0]; k++) {
        unsigned h = pf_end3((const uint8_t *)eu_sfx[k].s + eu_sfx[k].n - 3);
        eu_sfx_end[h >> 6] |= 1ull << (h & 63);
    }
}

static int pf_addr_eu(const uint8_t *b, size_t p, size_t e, size_t lim, int eod)
{
    const uint8_t *r = b + p;
    size_t len = e - p;
    if (e >= lim)
        return !eod;
    /* every form starts with an upper-case letter but the Polish types */
    if (r[0] < 0x80 && !(pf_cls[r[0]] & PF_UPPER)) {
        if (b[e] != ' ' || len < 3 || len > 5 || (len == 3 && r[2] != '.') ||
            (r[0] != 'u' && r[0] != 'a' && r[0] != 'p' && r[0] != 'o'))
            return 0;
        for (size_t k = 0; k < sizeof eu_types / sizeof eu_types[0]; k++)
            if (eu_types[k].n == len && memcmp(r, eu_types[k].s, len) == 0)
                return 1;
        return 0;
    }
    unsigned h = len >= 3 ? pf_end3(r + len - 3) : 0;
    if (len >= 3 && (eu_sfx_end[h >> 6] >> (h & 63) & 1))
        for (size_t k = 0; k < sizeof eu_sfx / sizeof eu_sfx[0]; k++)
            if (len >= eu_sfx[k].n &&
                pf_ci_starts(r + len - eu_sfx[k].n, eu_sfx[k].n, eu_sfx[k].s, eu_sfx[k].n))
                return 1;
    if (len == 1 && r[0] == 'C' && b[e] == '/')
        return 1;
    if (b[e] != ' ')
        return 0;
    for (size_t k = 0; k < sizeof eu_types / sizeof eu_types[0]; k++)
        if (eu_types[k].n == len && r[0] == (uint8_t)eu_types[k].s[0] &&
            memcmp(r, eu_types[k].s, len) == 0)
            return 1;
    if (lim - e < 10 && !eod)
        return 1; /* undecided */
    for (size_t k = 0; k < sizeof eu_words / sizeof eu_words[0]; k++)
        if (lim - e - 1 >= eu_words[k].n && b[e + 1] == (uint8_t)eu_words[k].s[0] &&
            memcmp(b + e + 1, eu_words[k].s, eu_words[k].n) == 0)
            return 1;
    return 0;
}

/* Clause (h) after "host/" at b[i] (i <= lim): 0 when url_profile surely
 * does not match — linkedin.com without "in/", no segment, or a segment of
 * [A-Za-z0-9_-] followed by '/' and a word character, '-', '@' or '/' (a
 * second segment: github.com/nodejs/node); a '.' in the segment or a
 * non-ASCII byte is left to PCRE2.  Undecided: yes. */
static int pf_profile_path(const uint8_t *b, size_t i, size_t lim, int eod, int linkedin)
{
    if (linkedin) {
        if (lim - i < 3)
            return !eod;
        if (b[i] != 'i' || b[i + 1] != 'n' || b[i + 2] != '/')
            return 0;
        i += 3;
    }
    if (i < lim && b[i] == '@')
        i++;
    size_t s = i;
    int dot = 0;
    while (i < lim && ((pf_cls[b[i]] & PF_WORD) || b[i] == '.' || b[i] == '-'))
        dot |= b[i++] == '.';
    if (i >= lim)
        return !eod || i > s;
    if (dot || b[i] >= 0x80)
        return 1;
    if (i == s)
        return 0;
    if (b[i] != '/' || i + 1 >= lim)
        return 1;
    uint8_t c = b[i + 1];
    return !((pf_cls[c] & PF_WORD) || c == '-' || c == '@' || c == '/');
}

/* Non-zero when a group-A rule might match at p, which starts a character
 * other than a digit, '+' or '('. */
static int pf_letter_start(const uint8_t *b, size_t p, size_t lim, int eod, pii_rx_pfcache *pc)
{
    /* The ident run containing p (every p inside one run shares its end). */
    if (!(pc->valid & 1) || p < pc->run_lo || p >= pc->run_hi) {
        size_t e = p;
        while (e < lim && (pf_cls[b[e]] & PF_IDENT))
            e++;
        pc->run_lo = p;
        pc->run_hi = e;
        pc->valid |= 1;
    }
    size_t e = pc->run_hi, len = e - p;
    if (e >= lim && !eod)
        return 1; /* undecided */
    const uint8_t *r = b + p;
    uint8_t after = e < lim ? b[e] : 0; /* 0: the document ends with R */
    /* (a) email */
    if (after == '@' && len <= PF_RUN_MAX)
        return 1;
    /* (b) tokens with a fixed prefix */
    if (len >= 15 &&
        (r[0] == 'A' || PF_STARTS(r, len, "gh") || PF_STARTS(r, len, "github_pat_") ||
         PF_STARTS(r, len, "gl") || PF_STARTS(r, len, "xox") || PF_STARTS(r, len, "xapp-") ||
         PF_STARTS(r, len, "sk") || PF_STARTS(r, len, "rk") || PF_STARTS(r, len, "eyJ")))
        return 1;
    /* (c) NAME = / NAME: and scheme: */
    if (pf_assign(b, p, e, lim, eod))
        return 1;
    /* conn_password: a scheme and "://" */
    if (after == ':' && (e + 2 >= lim ? !eod : b[e + 1] == '/' && b[e + 2] == '/'))
        return 1;
    /* (d) www. and Bearer */
    if (PF_CI_STARTS(r, len, "www.") || (len == 6 && PF_CI_STARTS(r, len, "bearer")))
        return 1;
    /* (h) a profile host and '/' (url_profile) */
    if (after == '/' && len >= 4 && len <= 24 && memchr(r, '.', len)) {
        int li = pii_val_eq_ci(r, len, "linkedin.com");
        if ((li || URL_HAS(PROFILE_HOSTS, r, len)) && pf_profile_path(b, e + 1, lim, eod, li))
            return 1;
    }
    /* (g) a ship's prefix (military_address) */
    if (len >= 3 && len <= 5 && after == ' ' && (r[0] | 0x20) == 'u' &&
        pf_is_word(r, len, ship_words, sizeof ship_words / sizeof ship_words[0]))
        return 1;
    /* (e) a digit nearby: IBAN, context words, month names. */
    if (!(pc->valid & 2) || p < pc->digit_from || (pc->digit < lim && p > pc->digit)) {
        size_t d = p;
        while (d < lim && !(pf_cls[b[d]] & PF_DIGIT))
            d++;
        pc->digit = d;
        pc->digit_from = p;
        pc->valid |= 2;
    }
    /* (f) street name before its number (a digit within PF_EU_REACH) */
    if ((pc->digit < lim ? pc->digit - p <= PF_EU_REACH : !eod && lim - p <= PF_EU_REACH) &&
        pf_addr_eu(b, p, e, lim, eod))
        return 1;
    if (pc->digit < lim) {
        if (pc->digit - p > PF_DIGIT_WINDOW)
            return 0;
    } else if (eod || lim - p > PF_DIGIT_WINDOW) {
        return 0;
    }
    size_t avail = lim - p;
    if (avail < 4 || (avail < PF_NONASCII_WINDOW && !eod))
        return 1; /* undecided */
    if ((pf_cls[r[0]] & PF_UPPER) && (pf_cls[r[1]] & PF_UPPER) && (pf_cls[r[2]] & PF_DIGIT) &&
        (pf_cls[r[3]] & PF_DIGIT))
        return 1;
    /* uk_nino spaced (AB 12 ...), es_dni NIE (X1234567L, X-1234567-L),
     * it_codice_fiscale (six upper-case letters) */
    if ((pf_cls[r[0]] & PF_UPPER) && (pf_cls[r[1]] & PF_UPPER) && r[2] == ' ' &&
        (pf_cls[r[3]] & PF_DIGIT))
        return 1;
    if (r[0] == 'X' || r[0] == 'Y' || r[0] == 'Z') { /* [XYZ]-?[0-9]{7} */
        int end;
        if (pf_ndigits(b, p + 1 + (r[1] == '-'), lim, &end) >= 7 || (end && !eod))
            return 1;
    }
    if (len >= 16 && (pf_cls[r[0]] & PF_UPPER) && (pf_cls[r[1]] & PF_UPPER) &&
        (pf_cls[r[2]] & PF_UPPER) && (pf_cls[r[3]] & PF_UPPER) && (pf_cls[r[4]] & PF_UPPER) &&
        (pf_cls[r[5]] & PF_UPPER))
        return 1;
    size_t w = avail < PF_NONASCII_WINDOW ? avail : PF_NONASCII_WINDOW;
    for (size_t i = 0; i < w; i++)
        if (pf_cls[r[i]] & PF_HIGH)
            return 1;
    return pf_any_stem(r, avail, &pf_ctx, 0) || pf_any_stem(r, avail, &pf_month, 0);
}

/* handle_context's lookbehind in C: b[p] is '@' at a line start (or with
 * too little left context to tell), or after one of its words (lower case,
 * no ASCII word byte before it) and one space. */
static int pf_handle_ctx(const uint8_t *b, size_t p)
{
    static const char *const words[] = {
        "dm",      "ping",         "cc",     "cc:", "follow", "contact",
        "message", "reach out to", "thanks", "by",  "from"};
    if (p == 0 || b[p - 1] == '\n')
        return 1;
    if (b[p - 1] != ' ')
        return 0;
    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++) {
        size_t m = strlen(words[k]);
        if (p < m + 2)
            return 1; /* the word or the byte before it is not in the buffer */
        size_t w = p - 1 - m;
        if (pf_ci_starts(b + w, m, words[k], m) && !(pf_cls[b[w - 1]] & PF_WORD))
            return 1;
    }
    return 0;
}

/* After a day number: up to two blanks (space or U+00A0), then a month-name
 * stem, "of" / "de", or any non-ASCII byte (conservative). */
static int pf_month_after(const uint8_t *b, size_t i, size_t lim, int eod)
{
    for (int k = 0; k < 2; k++) {
        if (i >= lim)
            return !eod;
        if (b[i] == ' ') {
            i++;
        } else if (b[i] == 0xC2) {
            if (i + 1 >= lim)
                return !eod;
            if (b[i + 1] != 0xA0)
                break;
            i += 2;
        } else {
            break;
        }
    }
    if (lim - i < PF_NONASCII_WINDOW && !eod)
        return 1; /* undecided */
    size_t w = lim - i < PF_NONASCII_WINDOW ? lim - i : PF_NONASCII_WINDOW;
    for (size_t k = 0; k < w; k++)
        if (pf_cls[b[i + k]] & PF_HIGH)
            return 1; /* non-ASCII month names, caseless forms of k and s */
    if (PF_CI_STARTS(b + i, lim - i, "of") || PF_CI_STARTS(b + i, lim - i, "de"))
        return 1;
    return pf_any_stem(b + i, lim - i, &pf_month, 0);
}

/* Number of digits at b[i..], and whether they run into the buffer end. */
static size_t pf_ndigits(const uint8_t *b, size_t i, size_t lim, int *at_end)
{
    size_t k = i;
    while (k < lim && (pf_cls[b[k]] & PF_DIGIT))
        k++;
    *at_end = k >= lim;
    return k - i;
}

/* Street address (rule street_address) after the digits b[p, q): an
 * optional [-/] and digits, up to three ASCII letters (221B, 12bis), an
 * optional " bis"/" ter", an optional ',', a blank, and then an upper-case
 * ASCII letter, a digit (ordinal), a non-ASCII byte or a French street
 * type.  Undecided: yes. */
/* After an optional ',' and a blank at b[i]: the byte that starts the next
 * word, or -1 (no such blank) / -2 (undecided). */
static int pf_after_blank(const uint8_t *b, size_t *i, size_t lim, int eod)
{
    if (*i < lim && b[*i] == ',')
        (*i)++;
    if (*i >= lim)
        return eod ? -1 : -2;
    if (b[*i] != ' ')
        return -1;
    if (++*i >= lim)
        return eod ? -1 : -2;
    return b[*i];
}

/* Does a French street type start at b[i] (any case)?  Undecided: yes. */
static int pf_fr_type(const uint8_t *b, size_t i, size_t lim, int eod)
{
    if (!pf_fr.first[pf_lower(b[i])])
        return 0; /* no French street type starts with b[i] */
    if (lim - i < 9 && !eod)
        return 1; /* undecided */
    return pf_any_stem(b + i, lim - i, &pf_fr, 0);
}

static int pf_addr_after(const uint8_t *b, size_t q, size_t lim, int eod)
{
    size_t i = q;
    if (i < lim && (b[i] == '-' || b[i] == '/')) {
        i++;
        int e;
        size_t d = pf_ndigits(b, i, lim, &e);
        if (e)
            return !eod;
        if (!d)
            return 0;
        i += d;
    }
    for (int k = 0; k < 3 && i < lim && ((b[i] | 0x20) >= 'a' && (b[i] | 0x20) <= 'z'); k++)
        i++;
    int c = pf_after_blank(b, &i, lim, eod);
    if (c < 0)
        return c == -2;
    /* the English order: a capitalised word or an ordinal (any upper-case
     * or non-ASCII first byte is taken as a candidate) */
    if ((c >= 'A' && c <= 'Z') || (pf_cls[c] & (PF_DIGIT | PF_HIGH)))
        return 1;
    /* "12 bis, rue ...": skip a whole bis/ter, then a French type */
    if (lim - i < 4 && !eod)
        return 1; /* undecided */
    if (lim - i >= 4 &&
        (PF_CI_STARTS(b + i, lim - i, "bis") || PF_CI_STARTS(b + i, lim - i, "ter")) &&
        (b[i + 3] == ',' || b[i + 3] == ' ')) {
        size_t j = i + 3;
        int c2 = pf_after_blank(b, &j, lim, eod);
        if (c2 == -2)
            return 1;
        if (c2 >= 0 && pf_fr_type(b, j, lim, eod))
            return 1;
    }
    return pf_fr_type(b, i, lim, eod);
}

/* Non-zero when a group-A rule might match at p, a digit.  Each clause is
 * a prefix of some rule's shape; with too few bytes to tell, yes. */
static int pf_digit_start(const uint8_t *b, size_t p, size_t lim, int eod, pii_rx_pfcache *pc)
{
    int end;
    size_t D = pf_ndigits(b, p, lim, &end), q = p + D;
    if (D >= 13)
        return 1; /* card without separators */
    if (end)
        return !eod;
    /* email with a leading digit: the ident run ends at '@' */
    if (!(pc->valid & 1) || p < pc->run_lo || p >= pc->run_hi) {
        size_t e = q;
        while (e < lim && (pf_cls[b[e]] & PF_IDENT))
            e++;
        pc->run_lo = p;
        pc->run_hi = e;
        pc->valid |= 1;
    }
    if (pc->run_hi >= lim ? !eod : (b[pc->run_hi] == '@' && pc->run_hi - p <= PF_RUN_MAX))
        return 1;
    /* an assignment whose name starts with a digit: 2_password=... */
    if (pf_assign(b, p, pc->run_hi, lim, eod))
        return 1;
    /* a street address: 12 Elm Street, 221B Baker Street, 12 rue ...
     * (ADDR_NOT_AFTER: not after one of . - / : # $ + ,) */
    if (b[p] != '0' && D <= 6 && !(p > 0 && memchr(".-/:#$+,", b[p - 1], 8)) &&
        pf_addr_after(b, q, lim, eod))
        return 1;
    /* international prefix 00: 00[1-9] */
    if (b[p] == '0' && D >= 3 && b[p + 1] == '0' && b[p + 2] != '0')
        return 1;
    uint8_t c = b[q];
    int sep = c == ' ' || c == '.' || c == '-' || c == '/';
    if (q + 1 >= lim && !eod)
        return 1; /* undecided */
    /* at the end of the document the digits and one byte may still be a
     * value (es_dni 12345678Z): n is then 0, no byte */
    uint8_t n = q + 1 < lim ? b[q + 1] : 0;
    /* the digit group after the separator, and the byte after it */
    size_t D2 = 0, r = q + 1;
    int end2 = 0;
    if (sep) {
        D2 = pf_ndigits(b, q + 1, lim, &end2);
        r = q + 1 + D2;
        if (end2 && !eod)
            return 1;
    }
    uint8_t c2 = r < lim ? b[r] : 0;
    /* trunk-0 phone: 0[1-9] and six more digits, each after at most one
     * separator: 0[1-9](?:[ .\-/]?[0-9]){6,11} */
    if (b[p] == '0' && D >= 2 && b[p + 1] != '0') {
        size_t i = p + 2, k = 0;
        while (k < 6 && i < lim) {
            uint8_t x = b[i];
            if (pf_cls[x] & PF_DIGIT) {
                i++;
            } else if ((x == ' ' || x == '.' || x == '-' || x == '/') && i + 1 < lim &&
                       (pf_cls[b[i + 1]] & PF_DIGIT)) {
                i += 2;
            } else {
                break;
            }
            k++;
        }
        if (k >= 6 || (i + 1 >= lim && !eod))
            return 1;
    }
    /* NANP with the 1 prefix: 1[ .-]?( or 1[ .-]?[2-9] */
    if (b[p] == '1' && D == 1 &&
        (c == '(' || ((c == ' ' || c == '.' || c == '-') && (n == '(' || (n >= '2' && n <= '9')))))
        return 1;
    if (b[p] == '1' && D == 4 && (c == ' ' || c == '.' || c == '-') && D2 == 3)
        return 1; /* 1415-555-... */
    if (D == 1 && c == ' ' && D2 == 2 && b[p] != '0' && b[p] <= '8')
        return 1; /* fr_nir spaced: 1 84 12 76 451 089 46 */
    if (D <= 2) {
        /* numeric date: d[./-]d[same]yyyy */
        if (sep && c != ' ' && D2 >= 1 && D2 <= 2) {
            if (r >= lim)
                return !eod;
            if (c2 == c) {
                int e3;
                size_t D3 = pf_ndigits(b, r + 1, lim, &e3);
                if ((e3 && !eod) || D3 == 4)
                    return 1;
            }
        }
        /* text date: ordinal or '.', blanks, month name */
        if ((c == 's' && n == 't') || (c == 'n' && n == 'd') || (c == 'r' && n == 'd') ||
            (c == 't' && n == 'h') || (c == 'e' && n == 'r'))
            return pf_month_after(b, q + 2, lim, eod);
        if (c == '.' || c == ' ' || c == 0xC2)
            return pf_month_after(b, c == '.' ? q + 1 : q, lim, eod);
        return 0;
    }
    if (D == 3 && c == '-' && D2 == 2)
        return 1; /* ssn 123-45-6789 */
    if (D == 8 && (c == '-' || (c >= 'A' && c <= 'Z')))
        return 1; /* es_dni 12345678Z */
    if (D == 5 && (c == 'A' || c == 'B'))
        return 1; /* fr_nir with Corsica's 2A/2B */
    if (D == 3 && b[p] >= '2' && c == 0xE2)
        return 1; /* NANP with Unicode dashes: 415\u2013555\u20130100 */
    if (D == 3 && b[p] >= '2' && (c == ' ' || c == '.' || c == '-') && D2 == 3 && c2 == c &&
        b[q + 1] >= '2')
        return 1; /* NANP 415-555-0100 */
    if (D == 4) {
        if ((c == ' ' || c == '-') && (D2 == 4 || D2 == 6))
            return 1; /* card groups */
        if ((c == '-' || c == '/') && D2 == 2 && c2 == c && (b[p] == '1' || b[p] == '2')) {
            /* ISO date: two digits of day, and DATE_END: no ASCII word
             * byte after them (a non-ASCII one may be a letter: yes) */
            int e3;
            size_t D3 = pf_ndigits(b, r + 1, lim, &e3);
            if (e3 || (D3 == 2 && (r + 3 >= lim ? !eod : !(pf_cls[b[r + 3]] & PF_WORD))))
                return 1;
        }
    }
    if (D == 5 && b[p] >= '6' && (c == ' ' || c == '-') && D2 == 5)
        return 1; /* Indian mobile */
    return 0;
}

/* Group B, address_ja: the postcode mark or a prefecture starts at p (three
 * literal names, or two or three 3-byte characters and the ken mark). */
static int pf_addr_ja(const uint8_t *b, size_t p, size_t lim, int eod)
{
    static const uint8_t lit[][9] = {
        {0xe6, 0x9d, 0xb1, 0xe4, 0xba, 0xac, 0xe9, 0x83, 0xbd},  /* Tokyo-to */
        {0xe5, 0x8c, 0x97, 0xe6, 0xb5, 0xb7, 0xe9, 0x81, 0x93},  /* Hokkaido */
        {0xe4, 0xba, 0xac, 0xe9, 0x83, 0xbd, 0xe5, 0xba, 0x9c},  /* Kyoto-fu */
        {0xe5, 0xa4, 0xa7, 0xe9, 0x98, 0xaa, 0xe5, 0xba, 0x9c}}; /* Osaka-fu */
    static const uint8_t ken[3] = {0xe7, 0x9c, 0x8c};
    static const uint8_t mark[3] = {0xe3, 0x80, 0x92};
    size_t n = lim - p;
    if (n < 12 && !eod)
        return 1; /* undecided */
    if (n >= 3 && memcmp(b + p, mark, 3) == 0)
        return 1;
    for (size_t k = 0; k < sizeof lit / sizeof lit[0]; k++)
        if (n >= 9 && memcmp(b + p, lit[k], 9) == 0)
            return 1;
    return (n >= 9 && memcmp(b + p + 6, ken, 3) == 0) ||
           (n >= 12 && memcmp(b + p + 9, ken, 3) == 0);
}

/* The first character of a Chinese context word of phone_cn or
 * cn_resident_id at b[p]: 手 电 联 致 拨 身 证 (UTF-8).  Undecided: yes. */
static int pf_cn_ctx(const uint8_t *b, size_t p, size_t lim, int eod)
{
    static const uint8_t first[][3] = {{0xe6, 0x89, 0x8b}, {0xe7, 0x94, 0xb5}, {0xe8, 0x81, 0x94},
                                       {0xe8, 0x87, 0xb4}, {0xe6, 0x8b, 0xa8}, {0xe8, 0xba, 0xab},
                                       {0xe8, 0xaf, 0x81}};
    if (lim - p < 3)
        return !eod;
    for (size_t k = 0; k < sizeof first / sizeof first[0]; k++)
        if (memcmp(b + p, first[k], 3) == 0)
            return 1;
    return 0;
}

static size_t rules_prefilter(const uint8_t *b, size_t at, size_t lim, int eod, pii_rx_pfcache *pc)
{
    static const char pem[] = "-----BEGIN ";
    for (size_t p = at; p < lim; p++) {
        uint8_t c = b[p];
        if (c == '-') {
            size_t n = lim - p < sizeof pem - 1 ? lim - p : sizeof pem - 1;
            if (memcmp(b + p, pem, n) == 0 && (n == sizeof pem - 1 || !eod))
                return p;
        }
        /* address_ja: the postcode mark, or the last byte of ken, to, do or fu 6
         * bytes on or of ken 9 bytes on (then pf_addr_ja compares them whole) */
        if (c >= 0xe3 && c <= 0xe9 &&
            (lim - p < 12 || (c == 0xe3 && b[p + 1] == 0x80) || b[p + 8] == 0x8c ||
             b[p + 8] == 0xbd || b[p + 8] == 0x93 || b[p + 8] == 0x9c || b[p + 11] == 0x8c) &&
            pf_addr_ja(b, p, lim, eod))
            return p;
        /* phone_cn, cn_resident_id: the first character of a context word */
        if (c >= 0xe5 && c <= 0xe8 && pf_cn_ctx(b, p, lim, eod))
            return p;
        if (p > 0 && (pf_cls[b[p - 1]] & PF_WORD))
            continue;
        if (c == '-') { /* password_flag: -pa..., -pw..., --pa..., --pw... */
            size_t q = p + 1 + (p + 1 < lim && b[p + 1] == '-');
            if (q + 1 >= lim ? !eod
                             : (b[q] | 0x20) == 'p' &&
                                   ((b[q + 1] | 0x20) == 'a' || (b[q + 1] | 0x20) == 'w'))
                return p;
            continue;
        }
        if (c < 0x80) {
            if (pf_cls[c] & PF_DIGIT) {
                if (pf_digit_start(b, p, lim, eod, pc))
                    return p;
                continue;
            }
            if (c == '/') { /* home_dir_user: /home/, /Users/ */
                size_t n = lim - p;
                if ((n >= 6 && memcmp(b + p, "/home/", 6) == 0) ||
                    (n >= 7 && memcmp(b + p, "/Users/", 7) == 0) ||
                    (n < 7 && !eod &&
                     (memcmp(b + p, "/home/", n < 6 ? n : 6) == 0 ||
                      memcmp(b + p, "/Users/", n) == 0)))
                    return p;
                continue;
            }
            if (c == '@') { /* handle_context */
                if ((p + 1 >= lim ? !eod : (pf_cls[b[p + 1]] & PF_WORD)) && pf_handle_ctx(b, p))
                    return p;
                continue;
            }
            if (c == '+' || c == '(') {
                if (p + 1 >= lim ? !eod : (pf_cls[b[p + 1]] & PF_DIGIT))
                    return p;
                continue;
            }
            if (!(pf_cls[c] & PF_WORD))
                continue;
        } else if (c < 0xC2 || c > 0xF4) {
            continue; /* never the first byte of a character */
        }
        if (pf_letter_start(b, p, lim, eod, pc))
            return p;
    }
    return lim;
}

/* The extension classes (EXT_*), filled once by ext_init. */
static pii_rx_ext ext_tab[EXT_N];

/* EXT_PEM's closing part: a body longer than the cap ends with its END
 * line, "-----END <label>-----" (the label at most 64 characters of A-Z,
 * 0-9 and blanks), which belongs to the span. */
static size_t pem_tail(const uint8_t *b, size_t i, size_t lim, int eod)
{
    static const char end[] = "-----END ";
    size_t k = 0, dashes = 0;
    for (; k < sizeof end - 1; k++) {
        if (i + k >= lim)
            return eod ? i : PII_RX_UNDECIDED;
        if (b[i + k] != (uint8_t)end[k])
            return i;
    }
    for (; k < sizeof end - 1 + 64 + 5; k++) {
        if (i + k >= lim)
            return eod ? i : PII_RX_UNDECIDED;
        uint8_t c = b[i + k];
        if (c == '-') {
            if (++dashes == 5)
                return i + k + 1;
        } else if (dashes || !((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == ' ')) {
            return i;
        }
    }
    return i;
}

static void ext_set(pii_rx_ext *x, const char *chars)
{
    for (const char *c = chars; *c; c++)
        x->ascii[(uint8_t)*c] = 1;
}

static void ext_init(void)
{
    static const char alnum[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    for (int k = EXT_VALCH; k < EXT_N; k++)
        ext_set(&ext_tab[k], alnum);
    /* VALCH: every character but blanks, quotes and "`,;<>(){}[]\" */
    for (int c = 0x21; c < 0x7f; c++)
        if (!strchr("\"'`,;<>(){}[]\\", c))
            ext_tab[EXT_VALCH].ascii[c] = 1;
    ext_tab[EXT_VALCH].high = 1;
    ext_set(&ext_tab[EXT_WORD], "_");
    ext_set(&ext_tab[EXT_B64URL], "_-");
    ext_set(&ext_tab[EXT_JWT], "_-.");
    ext_set(&ext_tab[EXT_BEARER], "._~+/=-");
    ext_set(&ext_tab[EXT_B64], "+/=");
    /* PEM: the body's base64 lines, blanks and line breaks (and "\\n" in a
     * JSON string), up to the END line (pem_tail) */
    ext_set(&ext_tab[EXT_PEM], "+/=\\ \t\r\n");
    ext_tab[EXT_PEM].tail = pem_tail;
    /* the gate: the capped quantifier's own class */
    for (int k = EXT_VALCH; k < EXT_N; k++)
        memcpy(ext_tab[k].gate, ext_tab[k].ascii, sizeof ext_tab[k].gate);
    /* a JWT part that fills its cap and ends there goes on over '.' to the
     * next part ("eyJ<header of 4096>.eyJ..."): the token is one span */
    ext_tab[EXT_BEARER].gate['='] = 0;
    ext_tab[EXT_B64].gate['='] = 0;
    ext_tab[EXT_JWT].notlast['.'] = 1; /* "... token." ends a sentence */
}

struct pii_rules {
    pii_rx rx;
    pii_rx_alt alts[NRULES];
    pii_rule_info info[NRULES];
};

/* Appends s to the growing string *buf. */
static int cat(char **buf, size_t *n, size_t *cap, const char *s)
{
    size_t m = strlen(s);
    if (*n + m + 1 > *cap) {
        size_t nc = (*cap ? *cap * 2 : 4096);
        while (nc < *n + m + 1)
            nc *= 2;
        char *nb = realloc(*buf, nc);
        if (!nb)
            return 0;
        *buf = nb;
        *cap = nc;
    }
    memcpy(*buf + *n, s, m + 1);
    *n += m;
    return 1;
}

/* Appends rule i as "(?:RE)(*:i)(?Ci+1)", renaming its value group (?<V>
 * to (?<v<i>> so that every group name is unique. */
static int cat_alt(char **buf, size_t *n, size_t *cap, size_t i, int *first)
{
    char tail[48], vname[24];
    if (!*first && !cat(buf, n, cap, "|"))
        return 0;
    *first = 0;
    if (!cat(buf, n, cap, "(?:"))
        return 0;
    const char *re = rule_defs[i].re, *v = strstr(re, "(?<V>");
    if (v) {
        char *head = strndup(re, (size_t)(v - re));
        snprintf(vname, sizeof vname, "(?<v%zu>", i);
        int ok =
            head && cat(buf, n, cap, head) && cat(buf, n, cap, vname) && cat(buf, n, cap, v + 5);
        free(head);
        if (!ok)
            return 0;
    } else if (!cat(buf, n, cap, re)) {
        return 0;
    }
    if (rule_defs[i].check)
        snprintf(tail, sizeof tail, ")(*:%zu)(?C%zu)", i, i + 1);
    else
        snprintf(tail, sizeof tail, ")(*:%zu)", i);
    return cat(buf, n, cap, tail);
}

char *pii_rules__pattern(void)
{
    char *buf = NULL;
    size_t n = 0, cap = 0;
    int first = 1, ok = cat(&buf, &n, &cap, "(?:(?<![\\p{L}\\p{N}_])(?:");
    for (size_t i = 0; ok && i < NRULES; i++)
        if (!rule_defs[i].anywhere)
            ok = cat_alt(&buf, &n, &cap, i, &first);
    ok = ok && cat(&buf, &n, &cap, ")");
    for (size_t i = 0; ok && i < NRULES; i++)
        if (rule_defs[i].anywhere) {
            first = 0;
            ok = cat_alt(&buf, &n, &cap, i, &first);
        }
    ok = ok && cat(&buf, &n, &cap, ")");
    if (!ok) {
        free(buf);
        return NULL;
    }
    return buf;
}

pii_rules *pii_rules__create(unsigned flags, int use_jit, int use_prefilter, pii_err *err,
                             char *msg, size_t msgcap)
{
    pii_err e = PII_ENOMEM;
    pii_rules *r = calloc(1, sizeof *r);
    char *pat = pii_rules__pattern();
    if (!r || !pat)
        goto fail;
    for (size_t i = 0; i < NRULES; i++) {
        r->alts[i].id = rule_defs[i].id;
        r->alts[i].label = rule_defs[i].label;
        int broad = (flags & PII_RULES_BROAD) != 0;
        r->alts[i].check = rule_defs[i].check;
        for (size_t k = 0; k < sizeof rule_breadth / sizeof rule_breadth[0]; k++) {
            const struct rule_breadth *b = &rule_breadth[k];
            if (strcmp(b->id, rule_defs[i].id) != 0)
                continue;
            if (b->check)
                r->alts[i].check = b->check;
            if (!broad && b->policy_check)
                r->alts[i].check = b->policy_check;
            if ((b->mode == RM_BROAD && !broad) || (b->mode == RM_POLICY && broad))
                r->alts[i].check = rules_val_never; /* every gated rule has a check */
        }
        r->alts[i].ext = rule_defs[i].ext ? &ext_tab[rule_defs[i].ext] : NULL;
        r->info[i].id = rule_defs[i].id;
        r->info[i].label = rule_defs[i].label;
        r->info[i].about = rule_defs[i].about;
    }
    pthread_once(&pf_once, pf_init);
    e = pii_rx_compile(&r->rx, pat, PCRE2_EXTENDED, use_jit, use_prefilter, msg, msgcap);
    if (e != PII_OK)
        goto fail;
    for (size_t i = 0; i < NRULES; i++) {
        char vname[24];
        snprintf(vname, sizeof vname, "v%zu", i);
        int g = pcre2_substring_number_from_name(pii_rx_code(&r->rx), (PCRE2_SPTR)vname);
        r->alts[i].vgroup = g > 0 ? (uint32_t)g : 0;
    }
    r->rx.alts = r->alts;
    r->rx.nalt = NRULES;
    r->rx.max_hold = PII_RX_MAX_HOLD;
    r->rx.source = PII_SRC_RULE;
    r->rx.prefilter = use_prefilter ? rules_prefilter : NULL;
    free(pat);
    if (err)
        *err = PII_OK;
    return r;
fail:
    free(pat);
    free(r);
    if (err)
        *err = e;
    return NULL;
}

int pii_rules__jit(const pii_rules *r)
{
    return r->rx.jit;
}

pii_rules *pii_rules_create(pii_err *err)
{
    return pii_rules__create(0, 1, 1, err, NULL, 0);
}

pii_rules *pii_rules_create_flags(unsigned flags, pii_err *err)
{
    if (flags & ~(unsigned)PII_RULES_BROAD) {
        if (err)
            *err = PII_EINVAL;
        return NULL;
    }
    return pii_rules__create(flags, 1, 1, err, NULL, 0);
}

void pii_rules_free(pii_rules *r)
{
    if (!r)
        return;
    pii_rx_destroy(&r->rx);
    free(r);
}

size_t pii_rules_count(const pii_rules *r)
{
    (void)r;
    return NRULES;
}

const pii_rule_info *pii_rules_info(const pii_rules *r, size_t i)
{
    return (r && i < NRULES) ? &r->info[i] : NULL;
}

pii_detector pii_rules_detector(const pii_rules *r)
{
    pii_detector d = {&pii_rx_detector_class, r ? &r->rx : NULL};
    return d;
}

pii_err pii_rules_scan_all(const pii_rules *r, const uint8_t *text, size_t len, pii_spanvec *out)
{
    if (!r || !out || (len && !text))
        return PII_EINVAL;
    return pii_rx_scan_all(&r->rx, text, len, out);
}
