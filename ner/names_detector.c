/* names_detector.c — the name recognizers without the model (pii_names.h).
 *
 * One stream state runs the scan of names.c over the stream's buffer, the
 * way the model tier runs it over its document view, and hands out the
 * spans of its resolver once no later span can start before them: the
 * scan position, less the name memory's reach back when the memory is on
 * (a teacher found later marks equal words up to NER_NAMES_REACH bytes
 * before it).  It keeps those bytes, and NER_NAMES_SLACK more to see where
 * a word starts. */
#include <stdlib.h>
#include <string.h>

#include "name_words.h"
#include "ner_internal.h"
#include "pii_names.h"

#define NAMES_PERSON "private_person"
/* A word longer than this is no name: the scan steps over it rather than
 * holding the stream's buffer until it ends (a 33 MiB run of letters). */
#define NAMES_WORD_MAX 65536

struct pii_names {
    unsigned parts;
};

typedef struct names_state {
    const pii_names *cfg;
    ner_names names;
    ner_resolver rs;
    pii_spanvec ready; /* flushed, before the filter */
    uint64_t pscan;    /* where the next scan starts (a word boundary) */
    int skipping;      /* pscan is inside a word over NAMES_WORD_MAX bytes */
} names_state;

pii_names *pii_names_create(unsigned parts, pii_err *err)
{
    pii_names *n = NULL;
    if ((parts & ~PII_NAMES_ALL) ||
        !(parts & (PII_NAMES_PAIRS | PII_NAMES_TITLES | PII_NAMES_CITATIONS))) {
        *err = PII_EINVAL; /* the memory is taught by the others alone */
    } else if (!(n = malloc(sizeof *n))) {
        *err = PII_ENOMEM;
    } else {
        n->parts = parts;
        *err = PII_OK;
    }
    return n;
}

void pii_names_free(pii_names *n)
{
    free(n);
}

unsigned pii_names_parts(const pii_names *n)
{
    return n->parts;
}

const char *pii_names_label(void)
{
    return NAMES_PERSON;
}

static void st_reset(void *state)
{
    names_state *s = state;
    const unsigned p = s->cfg->parts;
    pii_ner_names_reset(&s->names); /* the first word starts a sentence */
    pii_ner_resolver_reset(&s->rs);
    pii_spanvec_clear(&s->ready);
    s->names.memory = (p & PII_NAMES_MEMORY) != 0;
    s->names.lexicon = p & (PII_NAMES_PAIRS | PII_NAMES_TITLES | PII_NAMES_CITATIONS);
    s->names.source = PII_SRC_RULE;
    s->pscan = 0;
    s->skipping = 0;
}

static void *st_open(const void *shared, pii_err *err)
{
    names_state *s = calloc(1, sizeof *s);
    if (!s) {
        *err = PII_ENOMEM;
        return NULL;
    }
    s->cfg = shared;
    st_reset(s);
    *err = PII_OK;
    return s;
}

static void st_close(void *state)
{
    names_state *s = state;
    if (!s)
        return;
    pii_ner_names_free(&s->names);
    pii_ner_resolver_free(&s->rs);
    pii_spanvec_free(&s->ready);
    free(s);
}

/* Hands the ready spans to out through the non-person filter. */
static pii_err st_emit(names_state *s, const ner_text *tx, pii_spanvec *out)
{
    pii_err e = PII_OK;
    for (size_t i = 0; !e && i < s->ready.n; i++) {
        pii_span sp = s->ready.v[i];
        if ((s->cfg->parts & PII_NAMES_FILTER) && !pii_ner_person_filter(tx, &sp.start, &sp.end))
            continue; /* names no person */
        e = pii_spanvec_push(out, &sp);
    }
    pii_spanvec_clear(&s->ready);
    return e;
}

/* Steps pscan over the word characters (and joiners) in view; 1 when a
 * byte that ends the word was reached. */
static int skip_word(names_state *s, const ner_text *tx)
{
    const uint64_t end = tx->base + tx->len;
    while (s->pscan < end) {
        uint32_t cp;
        size_t k = pii_ner_nw_cp_at(tx, s->pscan, &cp);
        if (!k && pii_ner_nw_cut_char(tx, s->pscan))
            return 0; /* the character goes on past the view */
        if (!k || !(pii_ner_word_cp(cp) || cp == '\'' || cp == '-' || cp == 0x2019 || cp == 0x2010))
            return 1;
        s->pscan += k;
    }
    return 0;
}

static pii_err st_scan(void *state, const uint8_t *buf, size_t len, uint64_t base, int eod,
                       pii_spanvec *out, uint64_t *done, uint64_t *keep)
{
    names_state *s = state;
    const ner_text tx = {buf, base, len};
    if (s->pscan < base)
        return PII_EINTERNAL; /* the stream keeps what keep asked for */
    if (s->skipping && (skip_word(s, &tx) || eod))
        s->skipping = 0;
    pii_err e = s->skipping ? PII_OK
                            : pii_ner_names_scan(&s->names, &tx, &s->pscan, base + len, eod,
                                                 NAMES_PERSON, &s->rs);
    if (!e && !eod && base + len - s->pscan > NAMES_WORD_MAX)
        s->skipping = !skip_word(s, &tx); /* a word that long is no name */
    /* every later span starts at the scan position or, with the memory,
     * up to its reach before it */
    uint64_t b = s->pscan, back = s->names.memory ? NER_NAMES_REACH : 0;
    b = eod ? UINT64_MAX : b > back ? b - back : 0;
    if (!e)
        e = pii_ner_resolver_flush(&s->rs, b, &s->ready);
    if (!e)
        e = st_emit(s, &tx, out);
    if (e)
        return e;
    *done = eod ? base + len : b;
    uint64_t k = s->pscan, slack = s->names.memory ? NER_NAMES_REACH + NER_NAMES_SLACK : 0;
    k = k > slack ? k - slack : 0;
    uint64_t m = pii_ner_resolver_min_start(&s->rs);
    *keep = eod ? base + len : m < k ? m : k;
    return PII_OK;
}

static const pii_detector_class names_class = {
    "names", st_open, st_scan, st_reset, st_close, NULL,
};

pii_detector pii_names_detector(const pii_names *n)
{
    pii_detector d = {&names_class, n};
    return d;
}
