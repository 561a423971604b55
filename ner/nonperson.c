/* nonperson.c — the non-person filter (docs/NER.md, "Non-person filter"):
 * a person span of the model that is no natural person's name is dropped,
 * and the words beside a name that are not part of it are cut off, before
 * the span teaches the name memory (so a false span is never multiplied).
 *
 * A span is split into words at blanks, ',' and ';'.  It is dropped when a
 * word is a code identifier (GIT_TRACE, FT_Short, xGLXQueryReply,
 * iPhone, a word with a digit) or the head word of an
 * organisation, court, prison or firm ("Court", "Solicitors", "LLP",
 * "HMP"); its edge words are cut while they are a lead word or a
 * non-person word at its start ("Tell", "Dear", "Add", "SRE") or, in a span with a capitalised
 * word, a lower-case word other than a name particle ("soy", "wants"); what is left is dropped when
 * every word is a non-person word, a lead word or a connector ("Fundamental Freedoms", "Support,
 * Payout"), or when every word is in capitals and, lowered, a dictionary word (SYNOPSIS, SHELL).
 * The lists are ner/data/{org_heads,non_person,lead_words}.txt (lexicon.c). */
#include <string.h>

#include "ner_internal.h"

#define NP_MAX_WORDS 16

typedef struct np_word {
    const uint8_t *p;
    size_t n;
    uint64_t s, e; /* absolute offsets */
} np_word;

static int is_up(uint8_t c)
{
    return c >= 'A' && c <= 'Z';
}

static int is_lo(uint8_t c)
{
    return c >= 'a' && c <= 'z';
}

/* A code identifier: an '_' beside an upper-case letter (GIT_TRACE,
 * FT_Short; "john_doe" may be a login and stays), a digit, or a lower-case
 * ASCII start with a lower-to-upper step after it (xGLXQueryReply, iPhone;
 * not "al-Zarqawi", whose capital follows a hyphen). */
static int is_identifier(const uint8_t *w, size_t n)
{
    int under = 0, upper = 0, steps = 0;
    if (n && w[0] == '@')
        return 0; /* a handle */
    for (size_t i = 0; i < n; i++) {
        if (w[i] == '_')
            under = 1;
        if (w[i] >= '0' && w[i] <= '9')
            return 1;
        if (is_up(w[i])) {
            upper = 1;
            if (i > 0 && is_lo(w[i - 1]))
                steps++;
        }
    }
    if (under && upper)
        return 1;
    return n > 1 && is_lo(w[0]) && steps > 0;
}

static int all_lower_ascii(const uint8_t *w, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!is_lo(w[i]))
            return 0;
    return n > 0;
}

static int is_capitalised(const uint8_t *w, size_t n)
{
    return n > 0 && (is_up(w[0]) || w[0] >= 0xC0); /* an upper-case ASCII or a non-ASCII start */
}

/* Name particles, lower-case inside or at the start of a name ("de
 * Gaulle", "Ludwig van Beethoven"), and the connectors of institutional
 * names ("Court of Appeal"). */
static int is_particle(const uint8_t *w, size_t n)
{
    static const char *const t[] = {"de",  "da",  "das",  "do",  "dos", "del", "della", "di",
                                    "du",  "la",  "le",   "van", "von", "der", "den",   "ter",
                                    "ten", "bin", "bint", "al",  "el",  "ibn", "y",     "e"};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strlen(t[i]) == n && !memcmp(t[i], w, n))
            return 1;
    return 0;
}

static int is_connector(const uint8_t *w, size_t n)
{
    static const char *const t[] = {"of", "the", "and", "&", "for", "on", "in", "The", "-"};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strlen(t[i]) == n && !memcmp(t[i], w, n))
            return 1;
    return is_particle(w, n);
}

/* The word without a possessive 's or a trailing full stop. */
static size_t stem_len(const uint8_t *w, size_t n)
{
    if (n > 2 && w[n - 2] == '\'' && w[n - 1] == 's')
        return n - 2;
    if (n > 4 && w[n - 4] == 0xE2 && w[n - 3] == 0x80 && w[n - 2] == 0x99 && w[n - 1] == 's')
        return n - 4;
    if (n > 1 && w[n - 1] == '.')
        return n - 1;
    return n;
}

static int all_caps_common(const np_word *w, size_t k)
{
    for (size_t i = 0; i < k; i++) {
        uint8_t low[NER_NAME_BYTES];
        if (w[i].n < 2 || w[i].n >= NER_NAME_BYTES)
            return 0;
        for (size_t j = 0; j < w[i].n; j++) {
            if (!is_up(w[i].p[j]))
                return 0;
            low[j] = (uint8_t)(w[i].p[j] | 0x20);
        }
        if (!pii_ner_lex_common_word(low, w[i].n) && !pii_ner_lex_non_person(w[i].p, w[i].n))
            return 0;
    }
    return 1;
}

/* Day and month abbreviations alone ("Sun Jun", "Mon Jul": a changelog's
 * date line); one word only when it is no given name ("Jun" stays). */
static int date_words(const np_word *w, size_t k)
{
    static const char *const t[] = {"Mon", "Tue", "Wed",  "Thu", "Fri", "Sat", "Sun",
                                    "Jan", "Feb", "Mar",  "Apr", "May", "Jun", "Jul",
                                    "Aug", "Sep", "Sept", "Oct", "Nov", "Dec"};
    for (size_t i = 0; i < k; i++) {
        int hit = 0;
        for (size_t j = 0; j < sizeof t / sizeof t[0] && !hit; j++)
            hit = strlen(t[j]) == w[i].n && !memcmp(t[j], w[i].p, w[i].n);
        if (!hit)
            return 0;
    }
    return k > 1 || !pii_ner_lex_first_name(w[0].p, w[0].n);
}

/* Words of a span are separated by blanks, line breaks, ',' and ';'. */
static int word_sep(uint8_t c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ';';
}

/* The next word of p[0..n) at or after i: its start (n when none) and *end. */
static size_t next_word(const uint8_t *p, size_t n, size_t i, size_t *end)
{
    while (i < n && word_sep(p[i]))
        i++;
    size_t j = i;
    while (j < n && !word_sep(p[j]))
        j++;
    *end = j;
    return i;
}

int pii_ner_person_filter(const ner_text *tx, uint64_t *s, uint64_t *e)
{
    if (*s < tx->base || *e > tx->base + tx->len || *e <= *s)
        return 1;
    const uint8_t *p = tx->p + (*s - tx->base);
    size_t n = (size_t)(*e - *s);
    np_word w[NP_MAX_WORDS];
    size_t k = 0;
    for (size_t i = 0, j; (i = next_word(p, n, i, &j)) < n; i = j) {
        if (k == NP_MAX_WORDS)
            return 1; /* a long span: left as it is */
        w[k++] = (np_word){p + i, j - i, *s + i, *s + j};
    }
    if (!k)
        return 1;
    int capital = 0;
    for (size_t i = 0; i < k; i++) {
        size_t sl = stem_len(w[i].p, w[i].n);
        if (is_identifier(w[i].p, w[i].n) || pii_ner_lex_org_head(w[i].p, w[i].n) ||
            pii_ner_lex_org_head(w[i].p, sl))
            return 0;
        if (pii_ner_lex_org_prefix(w[i].p, w[i].n) || pii_ner_lex_org_prefix(w[i].p, sl)) {
            if (i == 0)
                return 0; /* "HMP Acklington": an institution's name */
            k = i;        /* "María Merino Viveros Hospital ...": the name before it */
            break;
        }
        capital |= is_capitalised(w[i].p, w[i].n);
    }
    size_t a = 0, b = k;
    while (a < b && (pii_ner_lex_lead_word(w[a].p, stem_len(w[a].p, w[a].n)) ||
                     pii_ner_lex_non_person(w[a].p, w[a].n) ||
                     (capital && all_lower_ascii(w[a].p, w[a].n) && !is_particle(w[a].p, w[a].n))))
        a++;
    while (b > a && capital && all_lower_ascii(w[b - 1].p, w[b - 1].n) &&
           !is_particle(w[b - 1].p, w[b - 1].n))
        b--;
    if (a == b)
        return 0;
    int other = 0;
    for (size_t i = a; i < b; i++) {
        size_t sl = stem_len(w[i].p, w[i].n);
        if (!pii_ner_lex_non_person(w[i].p, sl) && !pii_ner_lex_lead_word(w[i].p, sl) &&
            !is_connector(w[i].p, w[i].n))
            other = 1;
    }
    if (!other || all_caps_common(w + a, b - a) || date_words(w + a, b - a))
        return 0;
    *s = w[a].s;
    *e = w[b - 1].e;
    return 1;
}

int pii_ner_org_after(const ner_text *tx, uint64_t end, int eod)
{
    const uint64_t lim = tx->base + tx->len;
    if (end < tx->base || end > lim)
        return 0;
    if (end >= lim)
        return eod ? 0 : -1;
    if (tx->p[end - tx->base] != ' ')
        return 0;
    uint64_t ws = end + 1, we = ws;
    while (we < lim && we - ws < NER_NAME_BYTES) {
        uint8_t c = tx->p[we - tx->base];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ';' || c == ':' ||
            c == '.' || c == '!' || c == '?' || c == ')' || c == '(' || c == '"')
            break;
        we++;
    }
    if (we >= lim && !eod)
        return -1; /* the word may go on */
    if (we == ws || we - ws >= NER_NAME_BYTES)
        return 0;
    const uint8_t *w = tx->p + (ws - tx->base);
    size_t n = (size_t)(we - ws);
    return pii_ner_lex_head_after(w, n) || pii_ner_lex_org_head(w, stem_len(w, n));
}

int pii_ner_address_filter(const ner_text *tx, uint64_t s, uint64_t e)
{
    if (s < tx->base || e > tx->base + tx->len || e <= s)
        return 1;
    const uint8_t *p = tx->p + (s - tx->base);
    size_t n = (size_t)(e - s), words = 0;
    for (size_t i = 0, j; (i = next_word(p, n, i, &j)) < n; i = j) {
        size_t sl = stem_len(p + i, j - i);
        if (!pii_ner_lex_lead_word(p + i, sl) && !pii_ner_lex_non_person(p + i, sl) &&
            !is_connector(p + i, j - i))
            return 1; /* a word of a place, or a number */
        words++;
    }
    return words == 0;
}
