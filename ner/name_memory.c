/* name_memory.c — the name memory (name_memory.h, ner_internal.h; rule
 * `name_memory`, docs/NER.md "Name memory"): a person's name, once found,
 * is redacted wherever it comes back later in the document.
 *
 * A person span of two words or more ("Ngozi Okafor", "Dr. Okafor",
 * "WEI ZHANG") teaches each of its capitalised words; a later whole word
 * equal to one of them, byte for byte ("Okafor", "Okafor's"), becomes a
 * person span of its own with the teacher's score.  A later word counts
 * when it starts at or after the end of a span that teaches it (the scan
 * learns a span only once every span ending before the word is known); an
 * earlier one when it lies in the NER_NAMES_REACH bytes before the span,
 * found as soon as the span is offered (the engine holds spans back that
 * far).  So the result depends on the document alone, never on how it was
 * chunked.  At most NER_NAMES_MAX words per document. */
#include <stdlib.h>
#include <string.h>

#include "name_memory.h"
#include "name_words.h"

static uint32_t hash_bytes(const uint8_t *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

/* Is [s, e) joined to an identifier by an '_' ("GCLOUD" of
 * "GCLOUD_WIDE_FLAG")?  Then it is no name the memory finds again.  Reads
 * the byte before s and the byte at e when they are in view. */
static int in_identifier(const ner_text *tx, uint64_t s, uint64_t e)
{
    return (s > tx->base && tx->p[s - 1 - tx->base] == '_') ||
           (e < tx->base + tx->len && tx->p[e - tx->base] == '_');
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

static pii_err names_recall(const ner_names *m, const ner_text *tx, const ner_teacher *t,
                            const char *label, ner_resolver *rs);

pii_err pii_ner_names_offer(ner_names *m, const ner_text *tx, const pii_span *sp, const char *label,
                            ner_resolver *rs)
{
    ner_teacher t;
    memset(&t, 0, sizeof t);
    size_t words = 0;
    for (uint64_t p = sp->start; p < sp->end;) {
        uint32_t cp;
        size_t k = pii_ner_nw_cp_at(tx, p, &cp);
        if (!k || !pii_ner_word_cp(cp)) {
            p += k ? k : 1;
            continue;
        }
        int open;
        uint64_t e = pii_ner_nw_word_end(tx, p, &open);
        if (e > sp->end)
            e = sp->end;
        words++;
        if (t.nw < NER_TEACH_WORDS && pii_ner_nw_teachable(tx, p, e)) {
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
    return names_recall(m, tx, &t, label, rs);
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
        if (!memcmp(f, w, n) && pii_ner_nw_word_starts(tx, p) &&
            pii_ner_nw_whole_word(tx, p, n, hi)) {
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
    if (b <= a || !pii_ner_nw_word_starts(tx, a) ||
        !pii_ner_nw_whole_word(tx, a, (size_t)(b - a), UINT64_MAX))
        return 0;
    return pii_ner_nw_teachable(tx, a, b) &&
           !pii_ner_lex_first_name(tx->p + (a - tx->base), (size_t)(b - a));
}

/* Backward reach of a teacher (docs/NER.md, "Name memory"): the whole
 * words in [start - NER_NAMES_REACH, start) equal to one it teaches. */
static pii_err names_recall(const ner_names *m, const ner_text *tx, const ner_teacher *t,
                            const char *label, ner_resolver *rs)
{
    uint64_t lo = t->start > NER_NAMES_REACH ? t->start - NER_NAMES_REACH : 0;
    if ((lo > NER_NAMES_SLACK ? lo - NER_NAMES_SLACK : 0) < tx->base)
        return PII_EINTERNAL; /* the bytes must be in view (ner/document.c, pii_ner_doc_keep) */
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
                if (in_identifier(tx, at[j], at[j] + t->len[i]))
                    continue; /* "GCLOUD" of "GCLOUD_WIDE_FLAG" */
                pii_span s = {at[j],           at[j] + t->len[i], label,
                              NER_RULE_MEMORY, t->score,          m->source};
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
pii_err pii_ner_names_learn(ner_names *m, uint64_t lim)
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

/* The taught word that [ws, we) is, possibly with a pii_ner_nw_possessive "'s" (then
 * *ne is the name's end), or -1. */
int pii_ner_names_match(const ner_names *m, const ner_text *tx, uint64_t ws, uint64_t we,
                        uint64_t *ne)
{
    const uint8_t *w = tx->p + (ws - tx->base);
    size_t n = (size_t)(we - ws);
    if (in_identifier(tx, ws, we))
        return -1;
    int i = names_find(m, w, n);
    if (i >= 0) {
        *ne = we;
        return i;
    }
    size_t l = pii_ner_nw_possessive(w, n);
    if (l && (i = names_find(m, w, n - l)) >= 0) {
        *ne = we - l;
        return i;
    }
    return -1;
}
