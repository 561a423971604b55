/* names.c — the scan of the name recognizers (ner_internal.h,
 * pii_ner_names_scan; docs/NER.md, "Name memory" and "Name lexicon").
 *
 * Word by word, in document order, each recognizer is tried at a word
 * that starts with an upper-case letter, each in its own module:
 *   1. citation.c      an author-year citation after "(" or "; "
 *   2. name_lexicon.c  a given name and a family name, else
 *      honorific.c     an honorific and a family name
 *   3. name_inverted.c "Family, Given"
 *   4. citation.c      a name before "et al"
 *   5. name_memory.c   a word a person span taught before it
 * The first three take the words they match (the scan goes on after the
 * name); 4 and 5 mark the word and go on.  Every span gets its rule id,
 * NER_LEX_SCORE (the memory: its teacher's score) and ner_names.source.
 * The scan keeps a small view of the bytes between words (a sentence
 * stop, the last word, the gap's last characters) so it depends on the
 * document alone, never on how it was fed. */
#include <string.h>

#include "citation.h"
#include "honorific.h"
#include "name_inverted.h"
#include "name_lexicon.h"
#include "name_memory.h"
#include "name_words.h"

/* One scan's arguments, and the word [p, we) being looked at. */
typedef struct names_at {
    ner_names *m;
    const ner_text *tx;
    uint64_t lim;
    int eod;
    const char *label;
    ner_resolver *rs;
    uint64_t p, we;
    pii_err err;
} names_at;

/* What a recognizer's step at a word gives. */
enum { STEP_NONE = 0, STEP_TOOK = 1, STEP_MORE = -1, STEP_ERR = -2 };

/* Adds [s, e) with rule and score; STEP_ERR when the resolver fails. */
static int add_span(names_at *a, uint64_t s, uint64_t e, const char *rule, float score)
{
    pii_span sp = {s, e, a->label, rule, score, a->m->source};
    return (a->err = pii_ner_resolver_add(a->rs, &sp)) ? STEP_ERR : STEP_NONE;
}

/* The scan's view after a word (or a name it took): block says whether
 * it keeps a given name right after it from starting a pair. */
static void word_done(ner_names *m, int block)
{
    m->last_block = block;
    m->after_stop = 0;
    m->gap = 0;
    m->gap_space = 0;
    m->gap_tail[0] = m->gap_tail[1] = 0;
}

/* The scan's view of a byte (or character of k bytes) between words. */
static void gap_step(ner_names *m, uint32_t cp, size_t k)
{
    if (k && cp && cp < 0x80 && strchr(".!?:\n", (int)cp))
        m->after_stop = 1;
    m->gap_space = m->gap == 0 && k == 1 && cp == ' ';
    m->gap_tail[0] = m->gap_tail[1];
    m->gap_tail[1] = k ? cp : 0xFFFD;
    m->gap += k ? k : 1;
}

/* 1. An author-year citation item after "(" or "; ": its authors. */
static int step_citation(names_at *a)
{
    ner_names *m = a->m;
    if (!(m->lexicon & PII_NER_LEX_CITATIONS) ||
        !(m->gap_tail[1] == '(' || (m->gap_tail[0] == ';' && m->gap_tail[1] == ' ')))
        return STEP_NONE;
    uint64_t cs[NER_CITE_AUTHORS][2];
    int nc = 0, r = pii_ner_citation_item(a->tx, a->p, a->lim, a->eod, cs, &nc);
    if (r <= 0)
        return r < 0 ? STEP_MORE : STEP_NONE;
    for (int j = 0; j < nc; j++)
        if (add_span(a, cs[j][0], cs[j][1], NER_RULE_CITATION, NER_LEX_SCORE))
            return STEP_ERR;
    word_done(m, 1);
    a->p = cs[nc - 1][1];
    return STEP_TOOK;
}

/* 2. A given name and a family name (not right after a capitalised
 * mid-sentence word); else an honorific and a family name (a title may
 * follow a capitalised word: "Vice President Harris").  The span is the
 * name; with an honorific, the span that teaches the memory holds both
 * (two words: the name is taught). */
static int step_lexicon(names_at *a)
{
    ner_names *m = a->m;
    if (!m->lexicon)
        return STEP_NONE;
    uint64_t ns = a->p, le, lwe;
    const char *how = NER_RULE_LEXICON;
    int r = (m->last_block && m->gap_space) || !(m->lexicon & PII_NER_LEX_PAIRS)
                ? 0
                : pii_ner_lexicon_match(a->tx, a->p, a->we, a->lim, a->eod, &le, &lwe);
    if (r == 0 && (m->lexicon & PII_NER_LEX_TITLES)) {
        r = pii_ner_honorific_match(a->tx, a->p, a->we, a->lim, a->eod, &ns, &le, &lwe);
        how = NER_RULE_HONORIFIC;
    }
    if (r <= 0)
        return r < 0 ? STEP_MORE : STEP_NONE;
    pii_span t = {a->p, le, a->label, how, NER_LEX_SCORE, m->source};
    if (add_span(a, ns, le, how, NER_LEX_SCORE) ||
        (m->memory && (a->err = pii_ner_names_offer(m, a->tx, &t, a->label, a->rs))))
        return STEP_ERR;
    word_done(m, 1); /* its family name */
    a->p = lwe;
    return STEP_TOOK;
}

/* 3. "Garcia, Maria" (not after ", ": a list). */
static int step_inverted(names_at *a)
{
    ner_names *m = a->m;
    if (!(m->lexicon & PII_NER_LEX_PAIRS) || (m->gap_tail[0] == ',' && m->gap_tail[1] == ' ') ||
        (m->last_block && m->gap_space))
        return STEP_NONE;
    uint64_t ge;
    int line = (m->gap == 0 && m->after_stop) || m->gap_tail[1] == '\n';
    int r = pii_ner_inverted_match(a->tx, a->p, a->we, a->lim, a->eod, line, &ge);
    if (r <= 0)
        return r < 0 ? STEP_MORE : STEP_NONE;
    if (add_span(a, a->p, ge, NER_RULE_INVERTED, NER_LEX_SCORE))
        return STEP_ERR;
    word_done(m, 1);
    a->p = ge;
    return STEP_TOOK;
}

/* 4. "Klingberg et al.": the cheap test first. */
static int step_etal(names_at *a)
{
    if (!(a->m->lexicon & PII_NER_LEX_CITATIONS))
        return STEP_NONE;
    uint64_t ce;
    int r = pii_ner_nw_lit_at(a->tx, a->we, " et al", a->eod);
    if (r < 0)
        return STEP_MORE;
    if (r > 0 && pii_ner_citation_name(a->tx, a->p, a->lim, a->eod, &ce) > 0)
        return add_span(a, a->p, ce, NER_RULE_CITATION, NER_LEX_SCORE);
    return STEP_NONE;
}

/* 5. A word taught by a span that ends at or before it. */
static int step_memory(names_at *a)
{
    ner_names *m = a->m;
    uint64_t ne;
    int i;
    if (m->memory && m->n && (i = pii_ner_names_match(m, a->tx, a->p, a->we, &ne)) >= 0 &&
        m->v[i].from <= a->p)
        return add_span(a, a->p, ne, NER_RULE_MEMORY, m->v[i].score);
    return STEP_NONE;
}

/* The recognizers at the capitalised word [a->p, a->we), in order. */
static int at_cap_word(names_at *a)
{
    int r;
    if ((r = step_citation(a)) || (r = step_lexicon(a)) || (r = step_inverted(a)) ||
        (r = step_etal(a)) || (r = step_memory(a)))
        return r;
    return STEP_NONE;
}

pii_err pii_ner_names_scan(ner_names *m, const ner_text *tx, uint64_t *pos, uint64_t lim, int eod,
                           const char *label, ner_resolver *rs)
{
    const uint64_t end = tx->base + tx->len;
    names_at a = {m, tx, lim > end ? end : lim, eod, label, rs, *pos, 0, PII_OK};
    while (a.p < a.lim) {
        uint32_t cp;
        size_t k = pii_ner_nw_cp_at(tx, a.p, &cp);
        if (!k && !eod && pii_ner_nw_cut_char(tx, a.p))
            break; /* a character the view cuts: next time */
        if (!k || !pii_ner_word_cp(cp)) {
            gap_step(m, cp, k);
            a.p += k ? k : 1;
            continue;
        }
        int open;
        a.we = pii_ner_nw_word_end(tx, a.p, &open);
        if ((open && !eod) || a.we > a.lim)
            break; /* the word may go on, or crosses the limit: next time */
        if ((a.err = pii_ner_names_learn(m, a.p)))
            return a.err; /* every span ending before this word has taught */
        int up = pii_ner_nw_upper(cp), r = up ? at_cap_word(&a) : STEP_NONE;
        if (r == STEP_ERR)
            return a.err;
        if (r == STEP_MORE)
            break; /* the name may go on: next time */
        if (r == STEP_TOOK)
            continue;
        const uint8_t *w = tx->p + (a.p - tx->base);
        size_t n = (size_t)(a.we - a.p);
        word_done(m, up && !m->after_stop && pii_ner_nw_has_lower(tx, a.p, a.we) &&
                         !pii_ner_nw_title(w, n) && !pii_ner_honorific_word(w, n));
        a.p = a.we;
    }
    *pos = a.p;
    return pii_ner_names_learn(m, a.p); /* the next word starts here or later */
}
