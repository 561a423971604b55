/* test_ner_names.c — the name memory (ner/names.c): which spans teach which
 * words, which later words become person spans (exact offsets), forward
 * only, scans cut at any byte, the title list and the size bound; the name
 * lexicon (ner/lexicon.c): its pairs, what blocks them, scans in pieces. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ner/ner_internal.h"

static const char *const PERSON = "private_person";

static ner_text view(const char *s)
{
    ner_text t = {(const uint8_t *)s, 0, strlen(s)};
    return t;
}

/* A document's name scanner with the name memory and/or the lexicon. */
static ner_names names_new(int memory, int lexicon)
{
    ner_names m = {0};
    pii_ner_names_reset(&m);
    m.memory = memory;
    /* lexicon: every part (pairs, honorifics, citations), as the engine sets it */
    m.lexicon = lexicon ? PII_NER_LEX_PAIRS | PII_NER_LEX_TITLES | PII_NER_LEX_CITATIONS : 0;
    return m;
}

/* What the spans taught so far found in the bytes before them (recall_str). */
static ner_resolver g_recall;

/* Teaches the span [s, e) of text. */
static void teach(ner_names *m, const ner_text *tx, uint64_t s, uint64_t e)
{
    pii_span sp = {s, e, PERSON, NULL, 0.75f, PII_SRC_MODEL};
    assert_int_equal(pii_ner_names_offer(m, tx, &sp, PERSON, &g_recall), PII_OK);
}

/* Flushes rs (then freed) into got as "s-e" pairs; every span a person
 * span of the teachers' score. */
static void flush_str(ner_resolver *rs, char *got, size_t cap)
{
    pii_spanvec out = {0};
    assert_int_equal(pii_ner_resolver_flush(rs, UINT64_MAX, &out), PII_OK);
    got[0] = '\0';
    for (size_t i = 0; i < out.n; i++) {
        size_t l = strlen(got);
        snprintf(got + l, cap - l, "%s%llu-%llu", i ? " " : "", (unsigned long long)out.v[i].start,
                 (unsigned long long)out.v[i].end);
        assert_string_equal(out.v[i].label, PERSON);
        assert_true(out.v[i].score == 0.75f); /* the teachers' and NER_LEX_SCORE */
        assert_int_equal(out.v[i].source, PII_SRC_MODEL);
    }
    free(out.v);
    pii_ner_resolver_free(rs);
}

/* The words that teach() found before their teachers, as "s-e" pairs. */
static void recall_str(char *got, size_t cap)
{
    flush_str(&g_recall, got, cap);
}

/* Scans the whole text (eod) from 0; the spans found as "s-e" pairs. */
static void scan_all(ner_names *m, const ner_text *tx, char *got, size_t cap)
{
    ner_resolver rs = {0};
    uint64_t pos = 0;
    assert_int_equal(pii_ner_names_scan(m, tx, &pos, tx->len, 1, PERSON, &rs), PII_OK);
    assert_int_equal(pos, tx->len);
    flush_str(&rs, got, cap);
}

/* Scans the text in views that grow by step bytes, each scan up to the
 * view's end (eod at the last); the spans found as "s-e" pairs. */
static void scan_steps(ner_names *m, const ner_text *tx, uint64_t step, char *got, size_t cap)
{
    ner_resolver rs = {0};
    uint64_t pos = 0;
    for (uint64_t lim = 0; pos < tx->len; lim += step) {
        uint64_t l = lim < tx->len ? lim : tx->len;
        ner_text part = *tx;
        part.len = (size_t)l; /* only the bytes "seen" so far */
        uint64_t before = pos;
        assert_int_equal(pii_ner_names_scan(m, &part, &pos, l, l == tx->len, PERSON, &rs), PII_OK);
        assert_true(pos >= before);
        if (l == tx->len)
            assert_int_equal(pos, tx->len);
    }
    flush_str(&rs, got, cap);
}

static void test_names_basic(void **st)
{
    (void)st;
    /*                 0         1         2         3         4         5         6
     *                 0123456789012345678901234567890123456789012345678901234567890123 */
    const char *s = "Okafor came. Dr. Ngozi Okafor spoke; Okafor's aide, okafor, "
                    /* 60 */ "Okafors and Okafor-Smith left. Ngozi! Dr met Dr.";
    ner_text tx = view(s);
    ner_names m = names_new(1, 0);
    teach(&m, &tx, 13, 29);   /* "Dr. Ngozi Okafor" */
    assert_int_equal(m.n, 0); /* offered; learned when a scan reaches its end */
    char got[256];
    scan_all(&m, &tx, got, sizeof got);
    assert_int_equal(m.n, 2); /* Ngozi, Okafor; "Dr" is a title */
    /* not the teacher's own words; "Okafor" of "Okafor's" (37-43); not
     * "okafor", "Okafors" or "Okafor-Smith" (one word); "Ngozi" at 91 */
    assert_string_equal(got, "37-43 91-96");
    /* the "Okafor" before the teacher: found when it was offered */
    recall_str(got, sizeof got);
    assert_string_equal(got, "0-6");
    pii_ner_names_free(&m);
}

static void test_names_who_teaches(void **st)
{
    (void)st;
    const char *s = "Okafor spoke. WEI ZHANG, Mr Lee, J. Smith, Louis XIV, R2 D2, "
                    "Okafor ZHANG WEI Lee Smith Louis XIV Mr";
    ner_text tx = view(s);
    ner_names m = names_new(1, 0);
    teach(&m, &tx, 0, 6);   /* one word: teaches nothing */
    teach(&m, &tx, 14, 23); /* WEI ZHANG */
    teach(&m, &tx, 25, 31); /* Mr Lee: Lee */
    teach(&m, &tx, 33, 41); /* J. Smith: Smith (J is one letter) */
    teach(&m, &tx, 43, 52); /* Louis XIV: Louis (XIV a numeral) */
    teach(&m, &tx, 54, 59); /* R2 D2: digits */
    char got[256];
    scan_all(&m, &tx, got, sizeof got);
    assert_int_equal(m.n, 5);
    const char *want = "68-73 74-77 78-81 82-87 88-93";
    assert_string_equal(got, want);
    assert_int_equal(s[68], 'Z');
    recall_str(got, sizeof got); /* one-word "Okafor" taught nothing */
    assert_string_equal(got, "");
    pii_ner_names_free(&m);
}

/* Scanning in pieces, each stopping at an arbitrary byte (a word crossing
 * the limit waits), finds the same spans as one scan. */
static void test_names_pieces(void **st)
{
    (void)st;
    const char *s = "Ana Lucía Pérez-Gómez wrote. Then Lucía and Pérez-Gómez, "
                    "O\u2019Brien\u2019s and Lucía\u2019s note: Ana.";
    ner_text tx = view(s);
    ner_names m = names_new(1, 0);
    teach(&m, &tx, 0, 24); /* "Ana Lucía Pérez-Gómez" (UTF-8 bytes) */
    char whole[256];
    scan_all(&m, &tx, whole, sizeof whole);
    /* Lucía, Pérez-Gómez, Lucía of "Lucía’s", Ana; O’Brien was never taught */
    assert_string_equal(whole, "37-43 48-61 81-87 98-101");
    recall_str(whole + 100, sizeof whole - 100);
    assert_string_equal(whole + 100, "");
    for (uint64_t step = 1; step < 9; step++) {
        char got[256];
        scan_steps(&m, &tx, step, got, sizeof got);
        assert_string_equal(got, whole);
    }
    pii_ner_names_free(&m);
}

/* The words the reach back and the vote count: whole words, possessives,
 * clipped to [lo, hi); and which spans are one lone, voteable word. */
static void test_names_occurrences(void **st)
{
    (void)st;
    /*                 0         1         2         3         4         5         6         7
     *                 012345678901234567890123456789012345678901234567890123456789012345678901234
     */
    const char *s = "Okafor, O'Okafor Okafor's okafor Okafor-Smith xOkafor Okafor. Dr Paris Bill";
    ner_text tx = view(s);
    const uint8_t *w = (const uint8_t *)"Okafor";
    uint64_t at[8];
    /* not in "O'Okafor", "okafor", "Okafor-Smith" or "xOkafor" (one word each) */
    assert_int_equal(pii_ner_names_occurrences(&tx, 0, tx.len, w, 6, at, 8), 3);
    assert_int_equal(at[0], 0);
    assert_int_equal(at[1], 17); /* "Okafor's" */
    assert_int_equal(at[2], 54);
    /* a word must end by hi; max caps what is stored, not the count */
    assert_int_equal(pii_ner_names_occurrences(&tx, 1, 60, w, 6, at, 1), 2);
    assert_int_equal(at[0], 17);
    assert_int_equal(pii_ner_names_occurrences(&tx, 0, 24, w, 6, at, 8), 1);
    /* the view's start: a word there counts (lo is the document's start) */
    ner_text tail = {tx.p + 54, 54, tx.len - 54};
    assert_int_equal(pii_ner_names_occurrences(&tail, 0, tx.len, w, 6, at, 8), 1);
    assert_int_equal(at[0], 54);
    /* lone words: whole, capitalised, no title or given name */
    assert_true(pii_ner_names_lone(&tx, 0, 6));
    assert_true(pii_ner_names_lone(&tx, 17, 23));  /* before "'s" */
    assert_true(pii_ner_names_lone(&tx, 17, 25));  /* or with it: one word */
    assert_false(pii_ner_names_lone(&tx, 10, 16)); /* inside "O'Okafor" */
    assert_false(pii_ner_names_lone(&tx, 26, 32)); /* lower case */
    assert_false(pii_ner_names_lone(&tx, 33, 39)); /* part of "Okafor-Smith" */
    assert_false(pii_ner_names_lone(&tx, 0, 16));  /* two words */
    assert_false(pii_ner_names_lone(&tx, 62, 64)); /* "Dr": a title */
    assert_true(pii_ner_names_lone(&tx, 65, 70));  /* "Paris" */
    assert_false(pii_ner_names_lone(&tx, 71, 75)); /* "Bill": a given name */
}

/* At most NER_NAMES_MAX words; the later ones are not taught. */
static void test_names_bound(void **st)
{
    (void)st;
    size_t cap = (NER_NAMES_MAX + 10) * 16;
    char *s = malloc(cap);
    size_t len = 0;
    for (int i = 0; i < NER_NAMES_MAX + 10; i++)
        len += (size_t)snprintf(s + len, cap - len, "Ab%c%c Cd, ", 'a' + i % 26, 'a' + i / 26);
    ner_text tx = {(const uint8_t *)s, 0, len};
    ner_names m = names_new(1, 0);
    uint64_t p = 0;
    for (int i = 0; i < NER_NAMES_MAX + 10; i++) {
        teach(&m, &tx, p, p + 7); /* "Abxy Cd" */
        p += 9;
    }
    char got[16];
    ner_resolver rs = {0};
    uint64_t pos = 0;
    assert_int_equal(pii_ner_names_scan(&m, &tx, &pos, tx.len, 1, PERSON, &rs), PII_OK);
    assert_int_equal(m.n, NER_NAMES_MAX);
    assert_int_equal(m.np, 0);
    /* "Cd" came first: the table holds it and the first 511 "Abxy" words */
    snprintf(got, sizeof got, "%.*s", (int)m.v[1].len, m.v[1].w);
    assert_string_equal(got, "Cd");
    pii_ner_resolver_free(&rs);
    pii_ner_resolver_free(&g_recall); /* each teacher found the earlier "Cd"s */
    pii_ner_names_reset(&m);
    assert_int_equal(m.n, 0);
    pii_ner_names_free(&m);
    free(s);
}

/* Offset of the n-th (0-based) occurrence of needle in s. */
static size_t at(const char *s, const char *needle, int n)
{
    const char *p = s;
    for (int i = 0;; i++) {
        p = strstr(p, needle);
        assert_non_null(p);
        if (i == n)
            return (size_t)(p - s);
        p++;
    }
}

static const char LEX_DOC[] =
    "Tom Baker negotiated. Later Baker left with Mary Anne Foley, Mary J. Blige "
    "and Karen Green\u2019s dog; the Hospital Gregorio Mara\u00f1\u00f3n, Cleveland Street, "
    "Will Smith, Karen GREEN, Anne Lee. Karen Green2 and Tom Baker.";

/* "s-e" of each expected span of LEX_DOC, in order. */
static void lex_want(char *want, size_t cap, int memory)
{
    const char *s = LEX_DOC;
    struct {
        const char *w;
        int n;
        size_t len;
    } e[] = {
        {"Tom Baker", 0, 9},        /* a given name and a family name */
        {"Baker", 1, 5},            /* taught by it (memory) */
        {"Mary Anne Foley", 0, 15}, /* two given names take the word after */
        {"Mary J. Blige", 0, 13},   /* a middle initial */
        {"Karen Green", 0, 11},     /* not the possessive */
        {"Karen", 1, 5},            /* "Karen GREEN": no pair; Karen taught */
        {"Anne Lee", 0, 8},
        {"Karen", 2, 5}, /* "Karen Green2": no pair; Karen taught */
        {"Tom Baker", 1, 9},
    };
    want[0] = '\0';
    for (size_t i = 0; i < sizeof e / sizeof e[0]; i++) {
        if (!memory && (i == 1 || i == 5 || i == 7))
            continue;
        size_t o = at(s, e[i].w, e[i].n), l = strlen(want);
        snprintf(want + l, cap - l, "%s%zu-%zu", l ? " " : "", o, o + e[i].len);
    }
}

/* The lexicon's pairs; not after a capitalised mid-sentence word
 * ("Hospital Gregorio"), not before a stop word ("Cleveland Street"), not
 * for a common word ("Will"), an upper-case or digit-bearing family name. */
static void test_lexicon_pairs(void **st)
{
    (void)st;
    ner_text tx = view(LEX_DOC);
    char got[512], want[512];
    for (int memory = 0; memory < 2; memory++) {
        ner_names m = names_new(memory, 1);
        scan_all(&m, &tx, got, sizeof got);
        lex_want(want, sizeof want, memory);
        assert_string_equal(got, want);
        pii_ner_names_free(&m);
    }
    ner_names off = names_new(1, 0); /* nothing taught, no lexicon: nothing */
    scan_all(&off, &tx, got, sizeof got);
    assert_string_equal(got, "");
    pii_ner_names_free(&off);
    assert_true(pii_ner_lex_first_name((const uint8_t *)"Karen", 5));
    assert_false(pii_ner_lex_first_name((const uint8_t *)"Kare", 4));
    assert_false(pii_ner_lex_first_name((const uint8_t *)"Karenx", 6));
    assert_false(pii_ner_lex_first_name((const uint8_t *)"Will", 4));
    assert_true(pii_ner_lex_name_stop((const uint8_t *)"Street", 6));
    assert_false(pii_ner_lex_name_stop((const uint8_t *)"Baker", 5));
    assert_false(pii_ner_lex_first_name((const uint8_t *)"", 0));
    /* the common-word list: dictionary words, no given names */
    assert_true(pii_ner_lex_common_word((const uint8_t *)"kinsman", 7));
    assert_false(pii_ner_lex_common_word((const uint8_t *)"mike", 4));
    assert_false(pii_ner_lex_common_word((const uint8_t *)"Kinsman", 7));
    const char *co[] = {"remand", "highborn kinsman", "mother-in-law", "kith and kin"};
    for (size_t i = 0; i < sizeof co / sizeof co[0]; i++)
        assert_true(pii_ner_lex_common_only((const uint8_t *)co[i], strlen(co[i])));
    const char *nc[] = {"mike",    "Remand",      "remand2", "the mike",
                        "/remand", "caf\xC3\xA9", "",        " - "};
    for (size_t i = 0; i < sizeof nc / sizeof nc[0]; i++)
        assert_false(pii_ner_lex_common_only((const uint8_t *)nc[i], strlen(nc[i])));
    /* the embedded lists: sorted, one word a line, each line ended */
    assert_true(pii_ner_lex_check(0) > 10000);
    assert_true(pii_ner_lex_check(1) > 1000);
    assert_true(pii_ner_lex_check(2) > 50000);
    assert_true(pii_ner_lex_check(3) > 300);
    assert_true(pii_ner_lex_check(4) > 40);
    assert_true(pii_ner_lex_check(5) > 300);
    assert_true(pii_ner_lex_check(6) > 80);
    assert_true(pii_ner_lex_check(7) > 5);
    assert_int_equal(pii_ner_lex_check(8), 28);
    assert_int_equal(pii_ner_lex_check(9), 21);
    assert_int_equal(pii_ner_lex_check(10), 72);
    assert_int_equal(pii_ner_lex_check(11), 80);
    assert_int_equal(pii_ner_lex_check(12), -1);
    assert_true(pii_ner_lex_honorific((const uint8_t *)"Se\xC3\xB1ora", 7));
    assert_false(pii_ner_lex_honorific((const uint8_t *)"senator", 7));
    assert_true(pii_ner_lex_title((const uint8_t *)"representative", 14));
    assert_false(pii_ner_lex_title((const uint8_t *)"Queen", 5));
    /* the kind heads: exact bytes, looked up as written */
    assert_true(pii_ner_lex_kind_head((const uint8_t *)"Stadium", 7));
    assert_true(pii_ner_lex_kind_head((const uint8_t *)"language", 8));
    assert_false(pii_ner_lex_kind_head((const uint8_t *)"Language", 8));
    assert_false(pii_ner_lex_kind_head((const uint8_t *)"Court", 5));
    /* the country list: any case, but short names and dotted ones in capitals */
    const char *cy[] = {"France",
                        "FRANCE",
                        "france",
                        "United Kingdom",
                        "UK",
                        "U.S.A.",
                        "\xc3\x96sterreich",
                        "\xc3\xb6sterreich",
                        "Deutschland",
                        "Saint Vincent and the Grenadines"};
    for (size_t i = 0; i < sizeof cy / sizeof cy[0]; i++)
        assert_true(pii_ner_lex_country((const uint8_t *)cy[i], strlen(cy[i])));
    const char *ncy[] = {"us", "Uk", "u.s.", "Francesca", "United", ""};
    for (size_t i = 0; i < sizeof ncy / sizeof ncy[0]; i++)
        assert_false(pii_ner_lex_country((const uint8_t *)ncy[i], strlen(ncy[i])));
}

/* An honorific or a title before a family name: the name alone is the
 * span, the two words teach it; a given name after it takes its pair; a
 * title after it ("Mr. President") is no name, nor a stop word ("Electric
 * Lady Studios"); a title may follow a capitalised word ("Vice President
 * Harris"); "General" and royalty are no titles here; an upper-case
 * abbreviation takes its period ("DR. Haddad", not "MS Excel") and a
 * mixed-case name after it ("MR. VILLARS" is none). */
static void test_lexicon_honorifics(void **st)
{
    (void)st;
    const char *s = "Mr. Temple came. Temple left; Madame Duval and Dr. Priya Raman, "
                    "Mr. President, Mrs Okoro-Hale, Mr.Smith, Dr.  Lowe. Vice President Harris "
                    "met Senator Okafor at General Motors; Lord Grenville, the Prince Series, "
                    "Electric Lady Studios. DR. Haddad, MS Excel, MR. VILLARS.";
    ner_text tx = view(s);
    const struct {
        const char *w;
        int n;
        size_t len;
    } e[] = {{"Temple", 0, 6}, {"Temple", 1, 6},    {"Duval", 0, 5},
             {"Priya", 0, 11}, {"Okoro", 0, 10},    {"Harris", 0, 6},
             {"Okafor", 0, 6}, {"Grenville", 0, 9}, {"Haddad", 0, 6}};
    char got[512], want[512] = "";
    for (size_t i = 0; i < sizeof e / sizeof e[0]; i++) {
        size_t o = at(s, e[i].w, e[i].n), l = strlen(want);
        snprintf(want + l, sizeof want - l, "%s%zu-%zu", l ? " " : "", o, o + e[i].len);
    }
    ner_names m = names_new(1, 1);
    scan_all(&m, &tx, got, sizeof got);
    assert_string_equal(got, want);
    pii_ner_names_free(&m);
    for (uint64_t step = 1; step < 9; step++) { /* any chunking: the same spans */
        ner_names c = names_new(1, 1);
        scan_steps(&c, &tx, step, got, sizeof got);
        assert_string_equal(got, want);
        pii_ner_names_free(&c);
    }
}

/* Author-year citations: every author of an item after "(" or "; ", and
 * "Name et al." anywhere; not a month, a name without a year, or an item
 * without the comma; the same spans in scans cut at every byte. */
static void test_lexicon_citations(void **st)
{
    (void)st;
    const char *s = "as shown (Klingberg et al., 2005; Thorell, Nutley, & Bohlin, 2009a) and "
                    "(Marsden & Mackey, 2014; Porte, 2012). M\u00FCller et al. agree "
                    "(June, 2007) (Windows 2000) (Smith, Jones) (O'Brien and Lee, 1999).";
    ner_text tx = view(s);
    const char *names[] = {"Klingberg", "Thorell", "Nutley",      "Bohlin",  "Marsden",
                           "Mackey",    "Porte",   "M\u00FCller", "O'Brien", "Lee"};
    char want[512] = "", got[512];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t o = at(s, names[i], 0), l = strlen(want);
        snprintf(want + l, sizeof want - l, "%s%zu-%zu", l ? " " : "", o, o + strlen(names[i]));
    }
    for (uint64_t step = 1; step < 10; step++) {
        ner_names m = names_new(0, 1);
        if (step == 9)
            scan_all(&m, &tx, got, sizeof got);
        else
            scan_steps(&m, &tx, step, got, sizeof got);
        assert_string_equal(got, want);
        pii_ner_names_free(&m);
    }
}

/* The lexicon in scans cut at every byte: the one-scan spans. */
static void test_lexicon_pieces(void **st)
{
    (void)st;
    ner_text tx = view(LEX_DOC);
    char whole[512], want[512];
    lex_want(want, sizeof want, 1);
    for (uint64_t step = 1; step < 9; step++) {
        ner_names m = names_new(1, 1);
        scan_steps(&m, &tx, step, whole, sizeof whole);
        assert_string_equal(whole, want);
        pii_ner_names_free(&m);
    }
}

/* "Family, Given" (name_inverted): a family word, ", " and a given name of
 * the lexicon; on a line of its own a given name may come first ("Wei,
 * Li"); not a greeting or a dictionary word before the comma, a place
 * ("Paris, France", "Melbourne, Victoria"), a list ("John, Maria and
 * Tom", "London, Paris, Maria", "Springfield, Illinois, USA") or a name
 * that goes on ("Garcia, Maria Street"); the same spans in scans cut at
 * every byte, with the rule id name_inverted. */
static void test_lexicon_inverted(void **st)
{
    (void)st;
    const char *s = "Okafor, Chinedu called.\nWei, Li\nAsante, Amara (IT). Paris, France; "
                    "Springfield, Illinois, USA; Melbourne, Victoria. Hello, Maria. John, Maria "
                    "and Tom. London, Paris, Maria. Garcia, Maria Street. Wei, Li came. "
                    "Baranova, Sofia";
    ner_text tx = view(s);
    const struct {
        const char *w;
        int n;
        size_t len;
    } e[] = {{"Okafor", 0, 15}, {"Wei", 0, 7}, {"Asante", 0, 13}, {"Baranova", 0, 15}};
    char got[512], want[512] = "";
    for (size_t i = 0; i < sizeof e / sizeof e[0]; i++) {
        size_t o = at(s, e[i].w, e[i].n), l = strlen(want);
        snprintf(want + l, sizeof want - l, "%s%zu-%zu", l ? " " : "", o, o + e[i].len);
    }
    for (uint64_t step = 1; step < 10; step++) {
        ner_names m = names_new(step & 1, 1);
        if (step == 9)
            scan_all(&m, &tx, got, sizeof got);
        else
            scan_steps(&m, &tx, step, got, sizeof got);
        assert_string_equal(got, want);
        pii_ner_names_free(&m);
    }
    /* the rule id; nothing without the lexicon's pairs */
    ner_names m = names_new(0, 1);
    ner_resolver rs = {0};
    uint64_t pos = 0;
    assert_int_equal(pii_ner_names_scan(&m, &tx, &pos, tx.len, 1, PERSON, &rs), PII_OK);
    pii_spanvec out = {0};
    assert_int_equal(pii_ner_resolver_flush(&rs, UINT64_MAX, &out), PII_OK);
    assert_int_equal(out.n, 4);
    for (size_t i = 0; i < out.n; i++)
        assert_string_equal(out.v[i].rule, "name_inverted");
    free(out.v);
    pii_ner_resolver_free(&rs);
    pii_ner_names_free(&m);
    ner_names np = names_new(0, 1);
    np.lexicon = PII_NER_LEX_TITLES | PII_NER_LEX_CITATIONS;
    scan_all(&np, &tx, got, sizeof got);
    assert_string_equal(got, "");
    pii_ner_names_free(&np);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_basic),        cmocka_unit_test(test_names_who_teaches),
        cmocka_unit_test(test_names_pieces),       cmocka_unit_test(test_names_bound),
        cmocka_unit_test(test_names_occurrences),  cmocka_unit_test(test_lexicon_pairs),
        cmocka_unit_test(test_lexicon_honorifics), cmocka_unit_test(test_lexicon_pieces),
        cmocka_unit_test(test_lexicon_citations),  cmocka_unit_test(test_lexicon_inverted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
