/* names.c — name memory: a person's name, once found, is redacted wherever
 * it comes back later in the document (docs/NER.md, "Name memory").
 *
 * A person span of two words or more ("Ngozi Okafor", "Dr. Okafor",
 * "WEI ZHANG") teaches each of its capitalised words; a later whole word
 * equal to one of them, byte for byte ("Okafor", "Okafor's"), becomes a
 * person span of its own with the teacher's score.  A later word counts
 * when it starts at or after the end of a span that teaches it (ner.c scans
 * a byte only once every span ending before it is known); an earlier one
 * when it lies in the NER_NAMES_REACH bytes before the span, found as soon
 * as the span is offered (ner.c holds spans back that far).  So the result
 * depends on the document alone, never on how it was chunked.
 *
 * The name lexicon (ner/data/README.md) finds what no span taught: a given
 * name of its list followed by one space and a capitalised word that is no
 * common non-name ("Tom Baker", "Mary Jo Foley", "Mary J. Blige") is a
 * person span of score NER_LEX_SCORE, and teaches its words like any
 * other, unless the word before it is capitalised in mid-sentence and no
 * title ("Hospital Gregorio Marañón", "the Cleveland Orchestra" are
 * names of places and things).  Its lists are fixed, so it too depends
 * on the document alone.
 *
 * Words: maximal runs of letters, marks and digits of scripts written with
 * spaces (the widening's word characters), joined across an inner
 * apostrophe or hyphen ("O'Brien", "Morgan-Short").  A taught word starts
 * with an upper-case letter, has two characters or more, no digit, is not
 * a title ("Mr", "Dr", "Sir", ...) or a Roman numeral, and fits
 * NER_NAME_BYTES; at most NER_NAMES_MAX words per document. */
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "ner_internal.h"

static size_t cp_at(const ner_text *tx, uint64_t pos, uint32_t *cp)
{
    size_t off = (size_t)(pos - tx->base);
    int k = pii_utf8_decode(tx->p + off, tx->len - off, cp);
    return k > 0 ? (size_t)k : 0;
}

/* Do the bytes at pos start a UTF-8 character that the view cuts short
 * (more bytes may complete it)? */
static int cut_char(const ner_text *tx, uint64_t pos)
{
    size_t off = (size_t)(pos - tx->base), have = tx->len - off;
    uint8_t b = tx->p[off];
    size_t need = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC2 ? 2 : 1;
    if (need <= have)
        return 0;
    for (size_t i = 1; i < have; i++)
        if ((tx->p[off + i] & 0xC0) != 0x80)
            return 0;
    return 1;
}

static int joiner(uint32_t cp)
{
    return cp == '\'' || cp == 0x2019 || cp == '-' || cp == 0x2010;
}

static int upper_cp(uint32_t cp)
{
    utf8proc_category_t c = utf8proc_category((utf8proc_int32_t)cp);
    return c == UTF8PROC_CATEGORY_LU || c == UTF8PROC_CATEGORY_LT;
}

/* End of the word that starts at ws (a word character).  *open = 1 when
 * the word reaches the last byte in view, so more bytes may extend it. */
static uint64_t word_end(const ner_text *tx, uint64_t ws, int *open)
{
    const uint64_t end = tx->base + tx->len;
    uint64_t p = ws;
    *open = 0;
    for (;;) {
        uint32_t cp;
        size_t n = p < end ? cp_at(tx, p, &cp) : 0;
        if (p >= end || (!n && cut_char(tx, p))) {
            *open = 1; /* the word may go on past the view */
            return p;
        }
        if (n && pii_ner_word_cp(cp)) {
            p += n;
            continue;
        }
        if (n && joiner(cp)) {
            uint32_t c2;
            size_t n2 = p + n < end ? cp_at(tx, p + n, &c2) : 0;
            if (n2 && pii_ner_word_cp(c2)) {
                p += n + n2;
                continue;
            }
            if (p + n >= end || (!n2 && cut_char(tx, p + n)))
                *open = 1; /* "O'" at the end of the view */
            return p;
        }
        return p;
    }
}

static uint32_t hash_bytes(const uint8_t *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

/* Index of the word, or -1. */
static int names_find(const ner_names *m, const uint8_t *w, size_t n)
{
    if (!m->slot || n == 0 || n >= NER_NAME_BYTES)
        return -1;
    uint32_t h = hash_bytes(w, n) & (NER_NAMES_SLOTS - 1);
    for (uint16_t s; (s = m->slot[h]) != 0; h = (h + 1) & (NER_NAMES_SLOTS - 1)) {
        const ner_name *x = &m->v[s - 1];
        if (x->len == n && !memcmp(x->w, w, n))
            return s - 1;
    }
    return -1;
}

static int ascii_ieq(const uint8_t *w, size_t n, const char *t)
{
    size_t k = strlen(t);
    if (k != n)
        return 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = w[i];
        if (c >= 'A' && c <= 'Z')
            c = (uint8_t)(c + 32);
        if (c != (uint8_t)t[i])
            return 0;
    }
    return 1;
}

/* Titles and forms of address that stand beside a name but are none. */
static int is_title(const uint8_t *w, size_t n)
{
    static const char *const titles[] = {
        "mr",
        "mrs",
        "ms",
        "miss",
        "mx",
        "dr",
        "prof",
        "sir",
        "dame",
        "lord",
        "lady",
        "madam",
        "mister",
        "master",
        "rev",
        "fr",
        "st",
        "jr",
        "sr",
        "hon",
        "capt",
        "col",
        "gen",
        "lt",
        "sgt",
        "maj",
        "mme",
        "mlle",
        "herr",
        "frau",
        "sra",
        "dra",
        "don",
        "king",
        "queen",
        "prince",
        "judge",
        "justice",
        "saint",
        "president",
        "uncle",
        "aunt",
        "professor",
        "doctor",
        "father",
        "officer",
        "the",
        "and",
        "mother",
        "sister",
        "brother",
        "cousin",
        "coach",
        "captain",
        "commissioner",
        "senator",
        "governor",
        "mayor",
        "minister",
        "secretary",
        "chairman",
        "chairwoman",
        "director",
        "detective",
        "inspector",
        "sergeant",
        "agent",
        "chief",
        "bishop",
        "pope",
        "rabbi",
        "imam",
        "chair",
        "speaker",
        "pastor",
        "nurse",
        "congressman",
        "congresswoman",
        "representative",
        "emperor",
    };
    for (size_t i = 0; i < sizeof titles / sizeof titles[0]; i++)
        if (ascii_ieq(w, n, titles[i]))
            return 1;
    return 0;
}

static int roman(const uint8_t *w, size_t n)
{
    if (n > 4)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!strchr("IVXL", w[i]))
            return 0;
    return 1;
}

static int is_honorific(const uint8_t *w, size_t n);
static int lit_at(const ner_text *tx, uint64_t pos, const char *lit, int eod);

/* May the word [ws, we) be taught? */
static int teachable(const ner_text *tx, uint64_t ws, uint64_t we)
{
    size_t n = (size_t)(we - ws);
    const uint8_t *w = tx->p + (ws - tx->base);
    if (n >= NER_NAME_BYTES || is_title(w, n) || is_honorific(w, n) || roman(w, n))
        return 0;
    size_t chars = 0;
    for (uint64_t p = ws; p < we;) {
        uint32_t cp;
        size_t k = cp_at(tx, p, &cp);
        if (!k)
            return 0;
        if (p == ws && !upper_cp(cp))
            return 0;
        if (utf8proc_category((utf8proc_int32_t)cp) == UTF8PROC_CATEGORY_ND)
            return 0;
        chars++;
        p += k;
    }
    return chars >= 2;
}

void pii_ner_names_reset(ner_names *m)
{
    m->n = 0;
    m->np = 0;
    m->sorted = 1;
    m->after_stop = 1; /* the first word starts a sentence */
    m->last_block = 0;
    m->gap = 0;
    m->gap_space = 0;
    m->gap_tail[0] = m->gap_tail[1] = 0;
    if (m->slot)
        memset(m->slot, 0, NER_NAMES_SLOTS * sizeof *m->slot);
}

void pii_ner_names_free(ner_names *m)
{
    free(m->v);
    free(m->slot);
    free(m->pend);
    memset(m, 0, sizeof *m);
}

static pii_err names_add(ner_names *m, const char *w, size_t n, uint64_t from, float score)
{
    if (names_find(m, (const uint8_t *)w, n) >= 0)
        return PII_OK; /* taught before, by a span that ends no later */
    if (m->n == NER_NAMES_MAX)
        return PII_OK; /* full: the document's first NER_NAMES_MAX words */
    if (!m->v) {
        m->v = malloc(NER_NAMES_MAX * sizeof *m->v);
        m->slot = calloc(NER_NAMES_SLOTS, sizeof *m->slot);
        if (!m->v || !m->slot) {
            free(m->v);
            free(m->slot);
            m->v = NULL;
            m->slot = NULL;
            return PII_ENOMEM;
        }
    }
    ner_name *x = &m->v[m->n];
    memcpy(x->w, w, n);
    x->len = (uint8_t)n;
    x->from = from;
    x->score = score;
    uint32_t h = hash_bytes((const uint8_t *)w, n) & (NER_NAMES_SLOTS - 1);
    while (m->slot[h])
        h = (h + 1) & (NER_NAMES_SLOTS - 1);
    m->slot[h] = (uint16_t)(++m->n);
    return PII_OK;
}

static pii_err names_recall(const ner_text *tx, const ner_teacher *t, const char *label,
                            ner_resolver *rs);

pii_err pii_ner_names_offer(ner_names *m, const ner_text *tx, const pii_span *sp, const char *label,
                            ner_resolver *rs)
{
    ner_teacher t;
    memset(&t, 0, sizeof t);
    size_t words = 0;
    for (uint64_t p = sp->start; p < sp->end;) {
        uint32_t cp;
        size_t k = cp_at(tx, p, &cp);
        if (!k || !pii_ner_word_cp(cp)) {
            p += k ? k : 1;
            continue;
        }
        int open;
        uint64_t e = word_end(tx, p, &open);
        if (e > sp->end)
            e = sp->end;
        words++;
        if (t.nw < NER_TEACH_WORDS && teachable(tx, p, e)) {
            t.len[t.nw] = (uint8_t)(e - p);
            memcpy(t.w[t.nw], tx->p + (p - tx->base), (size_t)(e - p));
            t.nw++;
        }
        p = e;
    }
    if (words < 2 || t.nw == 0)
        return PII_OK;
    t.start = sp->start;
    t.end = sp->end;
    t.score = sp->score;
    if (PII_VEC_RESERVE(m->pend, m->pcap, m->np + 1))
        return PII_ENOMEM;
    m->pend[m->np++] = t;
    m->sorted = 0;
    return names_recall(tx, &t, label, rs);
}

static size_t possessive(const uint8_t *w, size_t n);

/* The character that ends right before pos, or 0 at the view's start or
 * after a byte that ends no whole character. */
static uint32_t cp_before(const ner_text *tx, uint64_t pos)
{
    uint64_t q = pos;
    for (int i = 0; i < 4 && q > tx->base; i++) {
        q--;
        if ((tx->p[q - tx->base] & 0xC0) != 0x80)
            break;
    }
    if (q == pos)
        return 0;
    uint32_t cp;
    size_t k = cp_at(tx, q, &cp);
    return k && q + k == pos ? cp : 0;
}

/* Does a word start at pos: a word character with no word character, and
 * no joiner after one ("O'|Brien"), right before it? */
static int word_starts(const ner_text *tx, uint64_t pos)
{
    uint32_t cp = cp_before(tx, pos);
    if (cp && pii_ner_word_cp(cp))
        return 0;
    if (cp && joiner(cp)) {
        uint64_t j = pos - (cp < 0x80 ? 1 : 3); /* ' and - are 1 byte, ’ and ‐ 3 */
        uint32_t c2 = cp_before(tx, j);
        if (c2 && pii_ner_word_cp(c2))
            return 0;
    }
    return 1;
}

/* Is [p, p + n) a whole word, or one before a possessive "'s", whose word
 * ends by hi?  p must start a word (word_starts). */
static int whole_word(const ner_text *tx, uint64_t p, size_t n, uint64_t hi)
{
    int open;
    uint64_t we = word_end(tx, p, &open);
    return we <= hi && (we == p + n || (we > p + n && possessive(tx->p + (p - tx->base),
                                                                 (size_t)(we - p)) == we - p - n));
}

size_t pii_ner_names_occurrences(const ner_text *tx, uint64_t lo, uint64_t hi, const uint8_t *w,
                                 size_t n, uint64_t *at, size_t max)
{
    const uint64_t end = tx->base + tx->len;
    if (lo < tx->base)
        lo = tx->base;
    if (hi > end)
        hi = end;
    size_t k = 0;
    for (uint64_t p = lo; n && p + n <= hi;) {
        const uint8_t *b = tx->p + (p - tx->base);
        const uint8_t *f = memchr(b, w[0], (size_t)(hi - p - n + 1));
        if (!f)
            break;
        p += (uint64_t)(f - b);
        if (!memcmp(f, w, n) && word_starts(tx, p) && whole_word(tx, p, n, hi)) {
            if (k < max)
                at[k] = p;
            k++;
        }
        p++;
    }
    return k;
}

int pii_ner_names_lone(const ner_text *tx, uint64_t a, uint64_t b)
{
    if (b <= a || !word_starts(tx, a) || !whole_word(tx, a, (size_t)(b - a), UINT64_MAX))
        return 0;
    return teachable(tx, a, b) && !pii_ner_lex_first_name(tx->p + (a - tx->base), (size_t)(b - a));
}

/* Backward reach of a teacher (docs/NER.md, "Name memory"): the whole
 * words in [start - NER_NAMES_REACH, start) equal to one it teaches. */
static pii_err names_recall(const ner_text *tx, const ner_teacher *t, const char *label,
                            ner_resolver *rs)
{
    uint64_t lo = t->start > NER_NAMES_REACH ? t->start - NER_NAMES_REACH : 0;
    if ((lo > NER_NAMES_SLACK ? lo - NER_NAMES_SLACK : 0) < tx->base)
        return PII_EINTERNAL; /* the bytes must be in view (ner.c, doc_keep) */
    uint64_t at[16];
    for (size_t i = 0; i < t->nw; i++) {
        const uint8_t *w = (const uint8_t *)t->w[i];
        /* a word taught twice by one span looks once */
        int dup = 0;
        for (size_t j = 0; j < i; j++)
            dup |= t->len[j] == t->len[i] && !memcmp(t->w[j], w, t->len[i]);
        if (dup)
            continue;
        uint64_t from = lo;
        size_t k;
        do {
            k = pii_ner_names_occurrences(tx, from, t->start, w, t->len[i], at, 16);
            size_t got = k < 16 ? k : 16;
            for (size_t j = 0; j < got; j++) {
                pii_span s = {at[j],           at[j] + t->len[i], label,
                              NER_RULE_MEMORY, t->score,          PII_SRC_MODEL};
                pii_err e = pii_ner_resolver_add(rs, &s);
                if (e)
                    return e;
            }
            if (got)
                from = at[got - 1] + 1;
        } while (k > 16);
    }
    return PII_OK;
}

static int teacher_order(const void *a, const void *b)
{
    const ner_teacher *x = a, *y = b;
    if (x->end != y->end)
        return x->end < y->end ? -1 : 1;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return (x->score < y->score) - (x->score > y->score);
}

/* Learns the offered spans that end at or before lim, in (end, start)
 * order: the order of the document, however it was fed. */
static pii_err names_learn(ner_names *m, uint64_t lim)
{
    if (m->np == 0)
        return PII_OK;
    if (!m->sorted) {
        qsort(m->pend, m->np, sizeof *m->pend, teacher_order);
        m->sorted = 1;
    }
    if (m->pend[0].end > lim)
        return PII_OK;
    size_t i = 0;
    for (; i < m->np && m->pend[i].end <= lim; i++) {
        const ner_teacher *t = &m->pend[i];
        for (size_t k = 0; k < t->nw; k++) {
            pii_err e = names_add(m, t->w[k], t->len[k], t->end, t->score);
            if (e)
                return e;
        }
    }
    memmove(m->pend, m->pend + i, (m->np - i) * sizeof *m->pend);
    m->np -= i;
    return PII_OK;
}

/* Does w[0..n) end in a possessive "'s" / "’s"?  Its length, or 0. */
static size_t possessive(const uint8_t *w, size_t n)
{
    static const char *const poss[] = {"'s", "\xE2\x80\x99s", "'S", "\xE2\x80\x99S"};
    for (size_t k = 0; k < 4; k++) {
        size_t l = strlen(poss[k]);
        if (n > l && !memcmp(w + n - l, poss[k], l))
            return l;
    }
    return 0;
}

/* The taught word that [ws, we) is, possibly with a possessive "'s" (then
 * *ne is the name's end), or -1. */
static int names_match(const ner_names *m, const ner_text *tx, uint64_t ws, uint64_t we,
                       uint64_t *ne)
{
    const uint8_t *w = tx->p + (ws - tx->base);
    size_t n = (size_t)(we - ws);
    int i = names_find(m, w, n);
    if (i >= 0) {
        *ne = we;
        return i;
    }
    size_t l = possessive(w, n);
    if (l && (i = names_find(m, w, n - l)) >= 0) {
        *ne = we - l;
        return i;
    }
    return -1;
}

/* The byte at pos: 1 and *b set, 0 when the view ends there (more may
 * come: -1 unless eod). */
static int byte_at(const ner_text *tx, uint64_t pos, int eod, uint8_t *b)
{
    if (pos >= tx->base + tx->len)
        return eod ? 0 : -1;
    *b = tx->p[pos - tx->base];
    return 1;
}

/* Has [ws, we) a lower-case letter? */
static int has_lower(const ner_text *tx, uint64_t ws, uint64_t we)
{
    for (uint64_t p = ws; p < we;) {
        uint32_t cp;
        size_t m = cp_at(tx, p, &cp);
        if (m && utf8proc_category((utf8proc_int32_t)cp) == UTF8PROC_CATEGORY_LL)
            return 1;
        p += m ? m : 1;
    }
    return 0;
}

/* A word at ws that starts with an upper-case letter: 1 and *we (its
 * end), 0 when none, -1 when more bytes are needed (the word may go on, or
 * it crosses lim). */
static int cap_word_at(const ner_text *tx, uint64_t ws, uint64_t lim, int eod, uint64_t *we)
{
    uint32_t cp;
    uint8_t b;
    int r = byte_at(tx, ws, eod, &b);
    if (r <= 0)
        return r;
    size_t k = cp_at(tx, ws, &cp);
    if (!k)
        return !eod && cut_char(tx, ws) ? -1 : 0;
    if (!upper_cp(cp) || !pii_ner_word_cp(cp))
        return 0;
    int open;
    uint64_t e = word_end(tx, ws, &open);
    if ((open && !eod) || e > lim)
        return -1;
    *we = e;
    return 1;
}

/* A family name at ws: a capitalised word with a lower-case letter, not in
 * the stop list, teachable.  1 and *ne (the name's end, before a
 * possessive) and *we (the word's end), 0 when none, -1 when more bytes
 * are needed. */
static int lex_family(const ner_text *tx, uint64_t ws, uint64_t lim, int eod, uint64_t *ne,
                      uint64_t *we)
{
    uint64_t e;
    int r = cap_word_at(tx, ws, lim, eod, &e);
    if (r <= 0)
        return r;
    const uint8_t *w = tx->p + (ws - tx->base);
    size_t n = (size_t)(e - ws), pl = possessive(w, n);
    if (!teachable(tx, ws, e - pl) || pii_ner_lex_name_stop(w, n - pl))
        return 0;
    if (!has_lower(tx, ws, e - pl))
        return 0;
    *ne = e - pl;
    *we = e;
    return 1;
}

/* Does the head word of an organisation follow the name that ends at we
 * ("Pierce Glynn Solicitors", "Baxter Moore LLP")?  1 yes, 0 no, -1 when
 * more bytes are needed. */
static int org_after(const ner_text *tx, uint64_t we, uint64_t lim, int eod)
{
    uint8_t b;
    int r = byte_at(tx, we, eod, &b);
    if (r <= 0 || b != ' ')
        return r < 0 ? -1 : 0;
    uint64_t e;
    if ((r = cap_word_at(tx, we + 1, lim, eod, &e)) <= 0)
        return r;
    return pii_ner_lex_org_head(tx->p + (we + 1 - tx->base), (size_t)(e - we - 1));
}

/* A lexicon name starting with the word [ws, we): 1, *le (its end) and
 * *lwe (the end of its last word, past a possessive), 0 when none, -1 when
 * more bytes are needed. */
static int lex_match(const ner_text *tx, uint64_t ws, uint64_t we, uint64_t lim, int eod,
                     uint64_t *le, uint64_t *lwe)
{
    if (!pii_ner_lex_first_name(tx->p + (ws - tx->base), (size_t)(we - ws)))
        return 0;
    uint8_t b, b2;
    int r = byte_at(tx, we, eod, &b);
    if (r <= 0 || b != ' ')
        return r < 0 ? -1 : 0;
    uint64_t s2 = we + 1, ne, e2;
    /* "Given X. Family" */
    if ((r = byte_at(tx, s2, eod, &b)) <= 0)
        return r;
    if (b >= 'A' && b <= 'Z') {
        int r1 = byte_at(tx, s2 + 1, eod, &b2);
        if (r1 < 0)
            return -1;
        if (r1 > 0 && b2 == '.') {
            int r2 = byte_at(tx, s2 + 2, eod, &b2);
            if (r2 < 0)
                return -1;
            if (r2 == 0 || b2 != ' ')
                return 0;
            r = lex_family(tx, s2 + 3, lim, eod, &ne, &e2);
            if (r > 0) {
                *le = ne;
                *lwe = e2;
                r = org_after(tx, e2, lim, eod);
                return r < 0 ? -1 : !r;
            }
            return r;
        }
    }
    if ((r = lex_family(tx, s2, lim, eod, &ne, &e2)) <= 0)
        return r;
    *le = ne;
    *lwe = e2;
    /* "Given Given Family": a second given name takes the word after it */
    if (ne == e2 && pii_ner_lex_first_name(tx->p + (s2 - tx->base), (size_t)(e2 - s2))) {
        r = byte_at(tx, e2, eod, &b);
        if (r < 0)
            return -1;
        if (r > 0 && b == ' ') {
            uint64_t ne3, e3;
            int r3 = lex_family(tx, e2 + 1, lim, eod, &ne3, &e3);
            if (r3 < 0)
                return -1;
            if (r3 > 0) {
                *le = ne3;
                *lwe = e3;
            }
        }
    }
    /* an organisation's name holds it: no person */
    r = org_after(tx, *lwe, lim, eod);
    return r < 0 ? -1 : !r;
}

/* A name written "Family, Given" at [ws, we) (name_inverted): a
 * capitalised family word (lex_family; no possessive) that is no
 * dictionary word, lead word, non-person word, organisation head or
 * country ("Hello", "Thanks", "Paris"), a comma, one space and a given name
 * of the lexicon that names no place (place_given.txt: "Victoria",
 * "Madison") and is followed by no capitalised word, no ", " and a
 * capitalised word, and no " and " / " or " (a list of places or names:
 * "Springfield, Illinois", "John, Maria and Tom").  On a line of its own
 * (line: the family word starts the text or a line and the given name ends
 * it) a given name of the lexicon may come first instead ("Wei, Li").  1
 * and *ge (the given name's end), 0 when none, -1 when more bytes are
 * needed. */
static int lex_inverted(const ner_text *tx, uint64_t ws, uint64_t we, uint64_t lim, int eod,
                        int line, uint64_t *ge)
{
    uint64_t ne, e, s2, e2;
    const uint8_t *w = tx->p + (ws - tx->base);
    size_t n = (size_t)(we - ws);
    int r = lex_family(tx, ws, lim, eod, &ne, &e);
    if (r <= 0 || ne != e || e != we)
        return r < 0 ? -1 : 0;
    uint8_t low[NER_NAME_BYTES];
    if (n >= NER_NAME_BYTES)
        return 0;
    for (size_t i = 0; i < n; i++)
        low[i] = w[i] >= 'A' && w[i] <= 'Z' ? (uint8_t)(w[i] | 0x20) : w[i];
    if (pii_ner_lex_common_word(low, n) || pii_ner_lex_lead_word(w, n) ||
        pii_ner_lex_non_person(w, n) || pii_ner_lex_org_head(w, n) ||
        pii_ner_lex_org_prefix(w, n) || pii_ner_lex_country(w, n))
        return 0;
    uint8_t b;
    if ((r = byte_at(tx, we, eod, &b)) <= 0 || b != ',')
        return r < 0 ? -1 : 0;
    if ((r = byte_at(tx, we + 1, eod, &b)) <= 0 || b != ' ')
        return r < 0 ? -1 : 0;
    s2 = we + 2;
    if ((r = cap_word_at(tx, s2, lim, eod, &e2)) <= 0)
        return r;
    const uint8_t *g = tx->p + (s2 - tx->base);
    size_t gn = (size_t)(e2 - s2);
    if (!has_lower(tx, s2, e2) || pii_ner_lex_country(g, gn) || pii_ner_lex_place_given(g, gn))
        return 0;
    /* what follows the given name */
    int end_line = 0;
    if ((r = byte_at(tx, e2, eod, &b)) < 0)
        return -1;
    if (r == 0 || b == '\n' || b == '\r') {
        end_line = 1;
    } else if (b == ' ' || b == ',') {
        uint64_t x = e2 + 1, xe;
        int more = 1, space = b == ' ';
        if (b == ',') {
            if ((r = byte_at(tx, x, eod, &b)) < 0)
                return -1;
            more = r > 0 && b == ' ';
            x++;
        }
        if (more && (r = cap_word_at(tx, x, lim, eod, &xe)) != 0)
            return r < 0 ? -1 : 0; /* a list: "Springfield, Illinois, USA" */
        if (more && space) {
            int a = lit_at(tx, x, "and ", eod), o = a > 0 ? 0 : lit_at(tx, x, "or ", eod);
            if (a < 0 || o < 0)
                return -1;
            if (a > 0 || o > 0)
                return 0;
        }
    }
    if (!pii_ner_lex_first_name(g, gn) &&
        !(line && end_line && pii_ner_lex_first_name(w, n) && gn >= 2))
        return 0;
    *ge = e2;
    return 1;
}

/* Is w[0..n) one of the k words of t, byte for byte? */
static int word_in(const char *const *t, size_t k, const uint8_t *w, size_t n)
{
    for (size_t i = 0; i < k; i++)
        if (strlen(t[i]) == n && !memcmp(t[i], w, n))
            return 1;
    return 0;
}

/* Forms of address that stand before a family name alone: honorifics, and
 * titles of office, rank and nobility, capitalised as written ("Senator
 * Okafor", "Vice President Harris", "Lord Grenville").  Not "General"
 * ("General Motors") or royalty ("Prince Series", "Queen Anne front"). */
static int is_honorific(const uint8_t *w, size_t n)
{
    static const char *const h[] = {
        "Mr",
        "Mrs",
        "Ms",
        "Miss",
        "Mx",
        "Dr",
        "Prof",
        "Mme",
        "Mlle",
        "Madame",
        "Monsieur",
        "Herr",
        "Frau",
        "Se\xC3\xB1or",
        "Se\xC3\xB1ora",
        "Sra",
        "Dra",
        "Sir",
        "Dame",
        "Lord",
        "Lady",
        "President",
        "Senator",
        "Sen",
        "Congressman",
        "Congresswoman",
        "Rep",
        "Governor",
        "Gov",
        "Mayor",
        "Ambassador",
        "Justice",
        "Judge",
        "Chancellor",
        "Minister",
        "Secretary",
        "Advisor",
        "Adviser",
        "Commissioner",
        "Chairman",
        "Chairwoman",
        "Detective",
        "Inspector",
        "Sergeant",
        "Sgt",
        "Officer",
        "Captain",
        "Capt",
        "Colonel",
        "Col",
        "Lieutenant",
        "Lt",
        "Professor",
        "Father",
        "Uncle",
        "Aunt",
        "Pope",
        "Bishop",
        "Rabbi",
        "Imam",
        "Pastor",
        "Reverend",
        "Rev",
        "Coach",
        "Sultan",
        "Emperor",
        "Count",
        "Countess",
        "Duke",
        "Duchess",
        "Baron",
        "Baroness",
    };
    return word_in(h, sizeof h / sizeof h[0], w, n);
}

/* "MR", "MRS", "MS", "DR": honorifics as headings and transcripts write
 * them. */
static int caps_honorific(const uint8_t *w, size_t n)
{
    static const char *const h[] = {"MR", "MRS", "MS", "DR"};
    return word_in(h, sizeof h / sizeof h[0], w, n);
}

/* "Mr. Temple", "Madame Duval", "Senator Okafor": an honorific at [ws, we), an optional
 * '.', one space and a family name: 1, *ns (the name's start), *le (its
 * end) and *lwe (its word's end); 0 when none; -1 when more bytes are
 * needed. */
static int lex_title(const ner_text *tx, uint64_t ws, uint64_t we, uint64_t lim, int eod,
                     uint64_t *ns, uint64_t *le, uint64_t *lwe)
{
    const uint8_t *w = tx->p + (ws - tx->base);
    const size_t n = (size_t)(we - ws);
    /* the upper-case abbreviations of headings and transcripts ("MR.
     * Temple", "DR. Haddad") take their period: "MS Excel" is no name */
    const int caps = !is_honorific(w, n);
    if (caps && !caps_honorific(w, n))
        return 0;
    uint64_t q = we, ne, e2;
    uint8_t b;
    int r = byte_at(tx, q, eod, &b);
    if (r <= 0)
        return r;
    if (b == '.' && (r = byte_at(tx, ++q, eod, &b)) <= 0)
        return r;
    if (b != ' ' || (caps && q == we))
        return 0;
    if ((r = lex_family(tx, q + 1, lim, eod, &ne, &e2)) <= 0)
        return r;
    *ns = q + 1;
    *le = ne;
    *lwe = e2;
    if (ne == e2) { /* "Dr. Priya Raman": a given name takes its pair */
        uint64_t pe, pwe;
        int rp = lex_match(tx, q + 1, e2, lim, eod, &pe, &pwe);
        if (rp < 0)
            return -1;
        if (rp > 0) {
            *le = pe;
            *lwe = pwe;
        }
    }
    return 1;
}

/* Do the bytes at pos spell lit?  1, 0, or -1 when the view ends first
 * (more bytes may come). */
static int lit_at(const ner_text *tx, uint64_t pos, const char *lit, int eod)
{
    const uint64_t end = tx->base + tx->len;
    for (size_t i = 0; lit[i]; i++) {
        if (pos + i >= end)
            return eod ? 0 : -1;
        if (tx->p[pos + i - tx->base] != (uint8_t)lit[i])
            return 0;
    }
    return 1;
}

/* Months and seasons: "(June, 2007)" dates a thing, it cites no one. */
static int is_season(const uint8_t *w, size_t n)
{
    static const char *const t[] = {
        "january", "february",  "march",   "april",     "may",      "june",   "july",
        "august",  "september", "october", "november",  "december", "spring", "summer",
        "autumn",  "fall",      "winter",  "christmas", "easter",
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (ascii_ieq(w, n, t[i]))
            return 1;
    return 0;
}

/* An author's family name at ws: a capitalised word with a lower-case
 * letter and no digit, no title, month or season.  1 and *we (its end),
 * 0 when none, -1 when more bytes are needed. */
static int cite_name(const ner_text *tx, uint64_t ws, uint64_t lim, int eod, uint64_t *we)
{
    uint64_t e;
    int r = cap_word_at(tx, ws, lim, eod, &e);
    if (r <= 0)
        return r;
    if (!teachable(tx, ws, e) || !has_lower(tx, ws, e) ||
        is_season(tx->p + (ws - tx->base), (size_t)(e - ws)))
        return 0;
    *we = e;
    return 1;
}

/* The year that ends a citation item at pos: 19xx or 20xx, an optional
 * lower-case letter, then ')', ';' or ','.  1, 0, or -1. */
static int cite_year(const ner_text *tx, uint64_t pos, int eod)
{
    uint8_t b;
    for (int i = 0; i < 6; i++) {
        int r = byte_at(tx, pos + (uint64_t)i, eod, &b);
        if (r <= 0)
            return r;
        if (i == 0 && b != '1' && b != '2')
            return 0;
        if (i == 1) {
            uint8_t c0 = tx->p[pos - tx->base];
            if (!((c0 == '1' && b == '9') || (c0 == '2' && b == '0')))
                return 0;
        }
        if ((i == 2 || i == 3) && !(b >= '0' && b <= '9'))
            return 0;
        if (i == 4 && b >= 'a' && b <= 'z')
            continue; /* "2012a" */
        if (i >= 4)
            return b == ')' || b == ';' || b == ',';
    }
    return 0;
}

#define NER_CITE_AUTHORS 12

/* An author-year citation item starting at ws, after "(" or "; ":
 * "Porte, 2012)", "Marsden & Mackey, 2014;", "Rueda, Checa, & Cómbita,
 * 2012)", "Makel et al., 2012)".  1 and the names in span[0..*ns), 0 when
 * none, -1 when more bytes are needed. */
static int cite_item(const ner_text *tx, uint64_t ws, uint64_t lim, int eod, uint64_t span[][2],
                     int *ns)
{
    uint64_t q = ws;
    for (int n = 0; n < NER_CITE_AUTHORS;) {
        uint64_t e;
        int r = cite_name(tx, q, lim, eod, &e), r2;
        if (r <= 0)
            return r;
        span[n][0] = q;
        span[n][1] = e;
        n++;
        if ((r = lit_at(tx, e, " et al", eod)) != 0) {
            if (r < 0)
                return -1;
            uint64_t t = e + 6;
            if ((r = lit_at(tx, t, ".", eod)) < 0)
                return -1;
            t += (uint64_t)r;
            if ((r = lit_at(tx, t, ",", eod)) < 0)
                return -1;
            t += (uint64_t)r;
            if ((r = lit_at(tx, t, " ", eod)) <= 0 || (r = cite_year(tx, t + 1, eod)) <= 0)
                return r;
            *ns = n;
            return 1;
        }
        if ((r = lit_at(tx, e, ", ", eod)) < 0)
            return -1;
        if (r > 0) {
            if ((r = cite_year(tx, e + 2, eod)) != 0) {
                if (r > 0)
                    *ns = n;
                return r;
            }
            q = e + 2; /* ", Name", ", & Name", ", and Name" */
            if ((r2 = lit_at(tx, q, "& ", eod)) < 0)
                return -1;
            if (r2 > 0)
                q += 2;
            else if ((r2 = lit_at(tx, q, "and ", eod)) < 0)
                return -1;
            else if (r2 > 0)
                q += 4;
            continue;
        }
        if ((r2 = lit_at(tx, e, " & ", eod)) < 0)
            return -1;
        if (r2 > 0) {
            q = e + 3;
            continue;
        }
        if ((r2 = lit_at(tx, e, " and ", eod)) <= 0)
            return r2;
        q = e + 5;
    }
    return 0;
}

/* The scan's view after a word (or a lexicon name): block says whether
 * it keeps a given name right after it from starting a pair. */
static void word_done(ner_names *m, int block)
{
    m->last_block = block;
    m->after_stop = 0;
    m->gap = 0;
    m->gap_space = 0;
    m->gap_tail[0] = m->gap_tail[1] = 0;
}

pii_err pii_ner_names_scan(ner_names *m, const ner_text *tx, uint64_t *pos, uint64_t lim, int eod,
                           const char *label, ner_resolver *rs)
{
    uint64_t p = *pos;
    const uint64_t end = tx->base + tx->len;
    if (lim > end)
        lim = end;
    pii_err err;
    while (p < lim) {
        uint32_t cp;
        size_t k = cp_at(tx, p, &cp);
        if (!k && !eod && cut_char(tx, p))
            break; /* a character the view cuts: next time */
        if (!k || !pii_ner_word_cp(cp)) {
            if (k && cp && cp < 0x80 && strchr(".!?:\n", (int)cp))
                m->after_stop = 1;
            m->gap_space = m->gap == 0 && k == 1 && cp == ' ';
            m->gap_tail[0] = m->gap_tail[1];
            m->gap_tail[1] = k ? cp : 0xFFFD;
            m->gap += k ? k : 1;
            p += k ? k : 1;
            continue;
        }
        int open;
        uint64_t we = word_end(tx, p, &open);
        if ((open && !eod) || we > lim)
            break; /* the word may go on, or crosses the limit: next time */
        if ((err = names_learn(m, p)))
            return err; /* every span ending before this word has taught */
        int up = upper_cp(cp);
        /* a given name right after a capitalised mid-sentence word is part
         * of the name of a place or thing ("Hospital Gregorio Marañón") */
        if ((m->lexicon & PII_NER_LEX_CITATIONS) && up &&
            (m->gap_tail[1] == '(' || (m->gap_tail[0] == ';' && m->gap_tail[1] == ' '))) {
            uint64_t cs[NER_CITE_AUTHORS][2];
            int nc = 0, r = cite_item(tx, p, lim, eod, cs, &nc);
            if (r < 0)
                break; /* the citation may go on: next time */
            if (r > 0) {
                for (int j = 0; j < nc; j++) {
                    pii_span s = {cs[j][0],          cs[j][1],      label,
                                  NER_RULE_CITATION, NER_LEX_SCORE, PII_SRC_MODEL};
                    if ((err = pii_ner_resolver_add(rs, &s)))
                        return err;
                }
                word_done(m, 1);
                p = cs[nc - 1][1];
                continue;
            }
        }
        if (m->lexicon && up) {
            /* a title may follow a capitalised word ("Vice President
             * Harris"); a given name may not */
            uint64_t ns = p, le, lwe;
            const char *how = NER_RULE_LEXICON;
            int r = (m->last_block && m->gap_space) || !(m->lexicon & PII_NER_LEX_PAIRS)
                        ? 0
                        : lex_match(tx, p, we, lim, eod, &le, &lwe);
            if (r == 0 && (m->lexicon & PII_NER_LEX_TITLES)) {
                r = lex_title(tx, p, we, lim, eod, &ns, &le, &lwe);
                how = NER_RULE_HONORIFIC;
            }
            if (r < 0)
                break; /* the name may go on: next time */
            if (r > 0) {
                /* the span is the name; with an honorific, the span that
                 * teaches holds both (two words: the name is taught) */
                pii_span s = {ns, le, label, how, NER_LEX_SCORE, PII_SRC_MODEL};
                pii_span t = {p, le, label, how, NER_LEX_SCORE, PII_SRC_MODEL};
                if ((err = pii_ner_resolver_add(rs, &s)) ||
                    (m->memory && (err = pii_ner_names_offer(m, tx, &t, label, rs))))
                    return err;
                word_done(m, 1); /* its family name */
                p = lwe;
                continue;
            }
        }
        if ((m->lexicon & PII_NER_LEX_PAIRS) && up &&
            !(m->gap_tail[0] == ',' && m->gap_tail[1] == ' ') && !(m->last_block && m->gap_space)) {
            /* "Garcia, Maria" (not after ", ": a list) */
            uint64_t ge;
            int line = (m->gap == 0 && m->after_stop) || m->gap_tail[1] == '\n';
            int r = lex_inverted(tx, p, we, lim, eod, line, &ge);
            if (r < 0)
                break; /* the name may go on: next time */
            if (r > 0) {
                pii_span s = {p, ge, label, NER_RULE_INVERTED, NER_LEX_SCORE, PII_SRC_MODEL};
                if ((err = pii_ner_resolver_add(rs, &s)))
                    return err;
                word_done(m, 1);
                p = ge;
                continue;
            }
        }
        if ((m->lexicon & PII_NER_LEX_CITATIONS) && up) { /* "Klingberg et al.": cheap test first */
            uint64_t ce;
            int r = lit_at(tx, we, " et al", eod);
            if (r < 0)
                break;
            if (r > 0 && cite_name(tx, p, lim, eod, &ce) > 0) {
                pii_span s = {p, ce, label, NER_RULE_CITATION, NER_LEX_SCORE, PII_SRC_MODEL};
                if ((err = pii_ner_resolver_add(rs, &s)))
                    return err;
            }
        }
        uint64_t ne;
        int i;
        if (m->memory && m->n && up && (i = names_match(m, tx, p, we, &ne)) >= 0 &&
            m->v[i].from <= p) {
            pii_span s = {p, ne, label, NER_RULE_MEMORY, m->v[i].score, PII_SRC_MODEL};
            if ((err = pii_ner_resolver_add(rs, &s)))
                return err;
        }
        word_done(m, up && !m->after_stop && has_lower(tx, p, we) &&
                         !is_title(tx->p + (p - tx->base), (size_t)(we - p)) &&
                         !is_honorific(tx->p + (p - tx->base), (size_t)(we - p)));
        p = we;
    }
    *pos = p;
    return names_learn(m, p); /* the next word starts here or later */
}
