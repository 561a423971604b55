/* lexicon.c — the name lexicon's word lists (ner/data/README.md), linked
 * in verbatim with .incbin: no initializer, nothing parsed at start-up.
 *
 * Each list is UTF-8 words, one per line ending in '\n', sorted by bytes;
 * a lookup is a binary search over the bytes that snaps each probe back to
 * the start of its line (lines are at most NER_NAME_BYTES long). */
#include <pthread.h>
#include <string.h>

#include "ner_internal.h"
#include "pii_wordlist.h"

#ifndef PII_NER_LEXICON_DIR
#define PII_NER_LEXICON_DIR "ner/data"
#endif

__asm__(".section .rodata.pii_ner_lexicon,\"a\",@progbits\n"
        ".hidden pii_ner__first_names\n"
        ".hidden pii_ner__first_names_end\n"
        ".hidden pii_ner__name_stop\n"
        ".hidden pii_ner__name_stop_end\n"
        ".hidden pii_ner__common_words\n"
        ".hidden pii_ner__common_words_end\n"
        ".hidden pii_ner__countries\n"
        ".hidden pii_ner__countries_end\n"
        ".hidden pii_ner__org_heads\n"
        ".hidden pii_ner__org_heads_end\n"
        ".hidden pii_ner__non_person\n"
        ".hidden pii_ner__non_person_end\n"
        ".hidden pii_ner__lead_words\n"
        ".hidden pii_ner__org_prefix\n"
        ".hidden pii_ner__org_prefix_end\n"
        ".hidden pii_ner__lead_words_end\n"
        ".hidden pii_ner__place_given\n"
        ".hidden pii_ner__place_given_end\n"
        ".hidden pii_ner__kind_heads\n"
        ".hidden pii_ner__kind_heads_end\n"
        ".hidden pii_ner__honorifics\n"
        ".hidden pii_ner__honorifics_end\n"
        ".hidden pii_ner__titles\n"
        ".hidden pii_ner__titles_end\n"
        "pii_ner__first_names:\n"
        ".incbin \"" PII_NER_LEXICON_DIR "/first_names.txt\"\n"
        "pii_ner__first_names_end:\n"
        "pii_ner__name_stop:\n"
        ".incbin \"" PII_NER_LEXICON_DIR "/name_stop.txt\"\n"
        "pii_ner__name_stop_end:\n"
        "pii_ner__common_words:\n"
        ".incbin \"" PII_NER_LEXICON_DIR "/common_words.txt\"\n"
        "pii_ner__common_words_end:\n"
        "pii_ner__countries:\n"
        ".incbin \"" PII_NER_LEXICON_DIR "/countries.txt\"\n"
        "pii_ner__countries_end:\n"
        "pii_ner__org_heads:\n"
        ".incbin \"" PII_NER_LEXICON_DIR "/org_heads.txt\"\n"
        "pii_ner__org_heads_end:\n"
        "pii_ner__non_person:\n"
        ".incbin \"" PII_NER_LEXICON_DIR "/non_person.txt\"\n"
        "pii_ner__non_person_end:\n"
        "pii_ner__lead_words:\n"
        ".incbin \"" PII_NER_LEXICON_DIR "/lead_words.txt\"\n"
        "pii_ner__lead_words_end:\n"
        "pii_ner__org_prefix:\n"
        ".incbin \"" PII_NER_LEXICON_DIR "/org_prefix.txt\"\n"
        "pii_ner__org_prefix_end:\n"
        "pii_ner__place_given:\n"
        ".incbin \"" PII_NER_LEXICON_DIR "/place_given.txt\"\n"
        "pii_ner__place_given_end:\n"
        "pii_ner__kind_heads:\n"
        ".incbin \"" PII_NER_LEXICON_DIR "/kind_heads.txt\"\n"
        "pii_ner__kind_heads_end:\n"
        "pii_ner__honorifics:\n"
        ".incbin \"" PII_NER_LEXICON_DIR "/honorifics.txt\"\n"
        "pii_ner__honorifics_end:\n"
        "pii_ner__titles:\n"
        ".incbin \"" PII_NER_LEXICON_DIR "/titles.txt\"\n"
        "pii_ner__titles_end:\n"
        ".previous\n");
extern const char pii_ner__first_names[], pii_ner__first_names_end[];
extern const char pii_ner__name_stop[], pii_ner__name_stop_end[];
extern const char pii_ner__common_words[], pii_ner__common_words_end[];
extern const char pii_ner__countries[], pii_ner__countries_end[];
extern const char pii_ner__org_heads[], pii_ner__org_heads_end[];
extern const char pii_ner__non_person[], pii_ner__non_person_end[];
extern const char pii_ner__lead_words[], pii_ner__lead_words_end[];
extern const char pii_ner__org_prefix[], pii_ner__org_prefix_end[];
extern const char pii_ner__place_given[], pii_ner__place_given_end[];
extern const char pii_ner__kind_heads[], pii_ner__kind_heads_end[];
extern const char pii_ner__honorifics[], pii_ner__honorifics_end[];
extern const char pii_ner__titles[], pii_ner__titles_end[];

static int list_has(const char *b, const char *e, const uint8_t *w, size_t n)
{
    return n < NER_NAME_BYTES && pii_wordlist_has(b, e, w, n, 0);
}

/* Words in [b, e): each line non-empty, shorter than NER_NAME_BYTES. */
static long list_check(const char *b, const char *e)
{
    return pii_wordlist_check(b, e, NER_NAME_BYTES - 1);
}

long pii_ner_lex_check(int which)
{
    switch (which) {
    case 0:
        return list_check(pii_ner__first_names, pii_ner__first_names_end);
    case 1:
        return list_check(pii_ner__name_stop, pii_ner__name_stop_end);
    case 2:
        return list_check(pii_ner__common_words, pii_ner__common_words_end);
    case 3:
        return list_check(pii_ner__countries, pii_ner__countries_end);
    case 4:
        return list_check(pii_ner__org_heads, pii_ner__org_heads_end);
    case 5:
        return list_check(pii_ner__non_person, pii_ner__non_person_end);
    case 6:
        return list_check(pii_ner__lead_words, pii_ner__lead_words_end);
    case 7:
        return list_check(pii_ner__org_prefix, pii_ner__org_prefix_end);
    case 8:
        return list_check(pii_ner__place_given, pii_ner__place_given_end);
    case 9:
        return list_check(pii_ner__kind_heads, pii_ner__kind_heads_end);
    case 10:
        return list_check(pii_ner__honorifics, pii_ner__honorifics_end);
    case 11:
        return list_check(pii_ner__titles, pii_ner__titles_end);
    default:
        return -1;
    }
}

/* A bit filter over the given names (2^17 bits, two bits a name, set once
 * on first use): most capitalised words are no given name and skip the
 * binary search of the list (about 3% pass it by chance). */
#define FN_BITS (1u << 17)
static uint64_t fn_filter[FN_BITS / 64];
static pthread_once_t fn_once = PTHREAD_ONCE_INIT;

static uint32_t fn_hash(const uint8_t *w, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ w[i]) * 16777619u;
    return h;
}

static void fn_set(uint32_t h)
{
    uint32_t a = h & (FN_BITS - 1), b = (h >> 15) & (FN_BITS - 1);
    fn_filter[a >> 6] |= (uint64_t)1 << (a & 63);
    fn_filter[b >> 6] |= (uint64_t)1 << (b & 63);
}

static int fn_maybe(uint32_t h)
{
    uint32_t a = h & (FN_BITS - 1), b = (h >> 15) & (FN_BITS - 1);
    return (fn_filter[a >> 6] >> (a & 63) & 1) && (fn_filter[b >> 6] >> (b & 63) & 1);
}

static void fn_init(void)
{
    const char *p = pii_ner__first_names, *e = pii_ner__first_names_end;
    while (p < e) {
        const char *nl = memchr(p, '\n', (size_t)(e - p));
        const char *le = nl ? nl : e;
        fn_set(fn_hash((const uint8_t *)p, (size_t)(le - p)));
        p = le + 1;
    }
}

int pii_ner_lex_first_name(const uint8_t *w, size_t n)
{
    pthread_once(&fn_once, fn_init);
    if (!fn_maybe(fn_hash(w, n)))
        return 0;
    return list_has(pii_ner__first_names, pii_ner__first_names_end, w, n);
}

int pii_ner_lex_org_head(const uint8_t *w, size_t n)
{
    return list_has(pii_ner__org_heads, pii_ner__org_heads_end, w, n);
}

int pii_ner_lex_kind_head(const uint8_t *w, size_t n)
{
    return list_has(pii_ner__kind_heads, pii_ner__kind_heads_end, w, n);
}

int pii_ner_lex_head_after(const uint8_t *w, size_t n)
{
    return pii_ner_lex_org_head(w, n) || pii_ner_lex_kind_head(w, n);
}

int pii_ner_lex_honorific(const uint8_t *w, size_t n)
{
    return list_has(pii_ner__honorifics, pii_ner__honorifics_end, w, n);
}

int pii_ner_lex_title(const uint8_t *w, size_t n)
{
    return list_has(pii_ner__titles, pii_ner__titles_end, w, n);
}

int pii_ner_lex_org_prefix(const uint8_t *w, size_t n)
{
    return list_has(pii_ner__org_prefix, pii_ner__org_prefix_end, w, n);
}

int pii_ner_lex_non_person(const uint8_t *w, size_t n)
{
    return list_has(pii_ner__non_person, pii_ner__non_person_end, w, n);
}

int pii_ner_lex_lead_word(const uint8_t *w, size_t n)
{
    return list_has(pii_ner__lead_words, pii_ner__lead_words_end, w, n);
}

int pii_ner_lex_place_given(const uint8_t *w, size_t n)
{
    return list_has(pii_ner__place_given, pii_ner__place_given_end, w, n);
}

int pii_ner_lex_name_stop(const uint8_t *w, size_t n)
{
    return list_has(pii_ner__name_stop, pii_ner__name_stop_end, w, n);
}

int pii_ner_lex_country(const uint8_t *w, size_t n)
{
    uint8_t low[NER_NAME_BYTES];
    size_t letters = 0;
    int lower = 0, dot = 0;
    if (n == 0 || n >= NER_NAME_BYTES)
        return 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = w[i];
        letters += (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
        lower |= c >= 'a' && c <= 'z';
        dot |= c == '.';
        low[i] = c >= 'A' && c <= 'Z' ? (uint8_t)(c | 0x20) : c;
    }
    /* "US", "UK", "USA", "U.S." only in capitals: "us" is a word */
    if ((letters <= 3 || dot) && lower)
        return 0;
    return list_has(pii_ner__countries, pii_ner__countries_end, low, n);
}

int pii_ner_lex_common_word(const uint8_t *w, size_t n)
{
    return list_has(pii_ner__common_words, pii_ner__common_words_end, w, n);
}

int pii_ner_lex_common_only(const uint8_t *p, size_t n)
{
    size_t words = 0, i = 0;
    while (i < n) {
        if (p[i] == ' ' || p[i] == '-' || p[i] == '\'') {
            i++;
            continue;
        }
        size_t j = i;
        while (j < n && p[j] >= 'a' && p[j] <= 'z')
            j++;
        if (j == i || (j < n && p[j] != ' ' && p[j] != '-' && p[j] != '\''))
            return 0; /* a byte other than a lower-case ASCII letter in a word */
        if (!pii_ner_lex_common_word(p + i, j - i))
            return 0;
        words++;
        i = j;
    }
    return words > 0;
}
