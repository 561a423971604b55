/* detector.c — the model detector behind the stream contract
 * (pii_detector_class of pii_core.h; pii_ner_detector).
 *
 * A stream's detector state runs its current document live through one
 * ner_doc (document.h) and its own ner_run (windows.h), scan by scan: each
 * scan tokenizes what is final, runs the windows that can run and hands
 * out the spans that are final, and says which bytes it still needs
 * (keep) and before which it will report nothing more (done).
 *
 * The lookahead (pii_detector_class.ahead): documents the stream announces
 * are computed together in shared forward passes (pii_ner_batch_run, the
 * same windows and decoding as pii_ner_detect_batch), or taken from the
 * stream's result cache (cache.h), and join a FIFO; when the stream
 * reaches such a document its scans report the spans computed ahead as
 * the bytes arrive, and the document is not run again. */
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "cache.h"

/* A document computed ahead (pii_detector_class.ahead): its length and
 * spans, reported as the stream reaches them. */
typedef struct ner_ahead {
    uint64_t len;
    pii_span *v;
    size_t n;
} ner_ahead;

typedef struct ner_state {
    const pii_ner *n;
    ner_run run;
    ner_doc doc;
    uint64_t keep; /* the last keep returned */
    /* documents computed ahead, FIFO [ah, ah + an) */
    ner_ahead *aq;
    size_t ah, an, acap;
    ner_ahead cur; /* the current document's, when mode == 1 */
    int mode;      /* 0: not started, 1: computed ahead, 2: live */
    size_t next;   /* cur's spans reported */
    ner_cache cache;
    /* scratch of det_ahead: the misses mdocs[0..nm) (mlens bytes each),
     * their spans mout; src[i]: SIZE_MAX for document i of the call found
     * in the cache, else the index of the miss computing it */
    const uint8_t **mdocs;
    size_t *mlens, *src, mcap;
    pii_spanvec *mout;
    size_t moutcap;
} ner_state;

static void ahead_clear(ner_state *s)
{
    for (size_t i = 0; i < s->an; i++)
        free(s->aq[s->ah + i].v);
    s->ah = s->an = 0;
}

static void det_close(void *st)
{
    ner_state *s = st;
    if (!s)
        return;
    pii_ner_doc_free(&s->doc);
    pii_ner_run_free(s->n, &s->run);
    ahead_clear(s);
    free(s->aq);
    free(s->cur.v);
    pii_ner_cache_free(&s->cache);
    free(s->mdocs);
    free(s->mlens);
    free(s->src);
    for (size_t i = 0; i < s->moutcap; i++)
        pii_spanvec_free(&s->mout[i]);
    free(s->mout);
    free(s);
}

static void *det_open(const void *shared, pii_err *err)
{
    const pii_ner *n = shared;
    ner_state *s = calloc(1, sizeof *s);
    pii_err e = s ? PII_OK : PII_ENOMEM;
    if (s) {
        s->n = n;
        if (!(e = pii_ner_run_init(n, &s->run)))
            e = pii_ner_doc_init(&s->doc, n);
    }
    if (e) {
        det_close(s);
        s = NULL;
    }
    if (err)
        *err = e;
    return s;
}

static void det_reset(void *st)
{
    ner_state *s = st;
    pii_ner_doc_reset(&s->doc);
    s->run.nj = 0;
    s->keep = 0;
    free(s->cur.v);
    memset(&s->cur, 0, sizeof s->cur);
    s->mode = 0;
    s->next = 0;
}

/* A document computed ahead: its spans as the stream reaches them. */
static pii_err ahead_scan(ner_state *s, size_t len, uint64_t base, int eod, pii_spanvec *out,
                          uint64_t *done, uint64_t *keep)
{
    uint64_t end = base + len;
    if (end > s->cur.len || (eod && end != s->cur.len))
        return PII_EINTERNAL; /* not the document announced */
    pii_err e;
    while (s->next < s->cur.n && s->cur.v[s->next].end <= end)
        if ((e = pii_spanvec_push(out, &s->cur.v[s->next++])))
            return e;
    *done = s->next < s->cur.n && s->cur.v[s->next].start < end ? s->cur.v[s->next].start : end;
    *keep = *done;
    s->keep = *keep;
    return PII_OK;
}

/* Room for nd more documents in the FIFO and in det_ahead's scratch. */
static pii_err ahead_reserve(ner_state *s, size_t nd)
{
    pii_err e;
    if (s->ah && s->ah + s->an + nd > s->acap) {
        memmove(s->aq, s->aq + s->ah, s->an * sizeof *s->aq);
        s->ah = 0;
    }
    if ((e = PII_VEC_RESERVE(s->aq, s->acap, s->ah + s->an + nd)) ||
        (e = PII_VEC_RESERVE(s->mdocs, s->mcap, nd)))
        return e;
    size_t *ml = realloc(s->mlens, s->mcap * sizeof *ml);
    if (ml)
        s->mlens = ml;
    size_t *sr = ml ? realloc(s->src, s->mcap * sizeof *sr) : NULL;
    if (sr)
        s->src = sr;
    if (!ml || !sr)
        return PII_ENOMEM;
    return PII_OK;
}

/* Sorts the call's documents: a cache hit's spans are copied into aq[i]
 * at once (a later claim in this call may evict the entry); a copy of an
 * earlier miss of this call shares it; any other document is a miss, added
 * to mdocs (and claims a cache slot, so later copies share it).  *nm: the
 * misses, also when it fails. */
static pii_err ahead_lookup(ner_state *s, const uint8_t *const *docs, const size_t *lens, size_t nd,
                            ner_ahead *aq, size_t *nm)
{
    pii_err e = PII_OK;
    *nm = 0;
    for (size_t i = 0; i < nd && !e; i++) {
        ner_centry *c = NULL, *slot = NULL;
        uint64_t h = 0;
        if (s->cache.e && lens[i] <= NER_CACHE_DOC_MAX) {
            h = pii_ner_cache_hash(docs[i], lens[i]);
            c = pii_ner_cache_find(&s->cache, h, docs[i], lens[i], &slot);
        }
        if (c && c->pending != SIZE_MAX) {
            s->src[i] = c->pending; /* the same bytes earlier in this call */
            continue;
        }
        if (c) {
            s->src[i] = SIZE_MAX;
            e = pii_ner_spans_dup(&aq[i].v, &aq[i].n, c->v, c->n);
            continue;
        }
        if (slot) /* claim it: later copies in this call share the miss */
            pii_ner_cache_claim(slot, h, docs[i], lens[i], *nm);
        s->mdocs[*nm] = docs[i];
        s->mlens[*nm] = lens[i];
        s->src[i] = (*nm)++;
    }
    return e;
}

/* The spans of the misses mdocs[0..nm) into mout[0..nm), in shared
 * forward passes. */
static pii_err ahead_compute(ner_state *s, size_t nm)
{
    if (nm > s->moutcap) {
        pii_spanvec *m = realloc(s->mout, nm * sizeof *m);
        if (!m)
            return PII_ENOMEM;
        memset(m + s->moutcap, 0, (nm - s->moutcap) * sizeof *m);
        s->mout = m;
        s->moutcap = nm;
    }
    for (size_t i = 0; i < nm; i++)
        pii_spanvec_clear(&s->mout[i]);
    if (!nm)
        return PII_OK;
    return pii_ner_batch_run(s->n, &s->run, s->mdocs, s->mlens, nm, s->mout, NULL);
}

/* The lookahead (pii_detector_class.ahead): documents not in the cache are
 * computed together in shared forward passes over the pool (the same
 * windows and decoding as pii_ner_detect_batch); every document's spans
 * join the FIFO the scans take from. */
static pii_err det_ahead(void *st, const uint8_t *const *docs, const size_t *lens, size_t nd)
{
    ner_state *s = st;
    pii_err e;
    if (nd == 0) {
        ahead_clear(s);
        return PII_OK;
    }
    if ((e = ahead_reserve(s, nd)))
        return e;
    if (!s->n->no_cache && (e = pii_ner_cache_init(&s->cache)))
        return e;
    ner_ahead *aq = s->aq + s->ah + s->an; /* this call's entries */
    for (size_t i = 0; i < nd; i++)
        aq[i] = (ner_ahead){lens[i], NULL, 0};
    size_t nm;
    e = ahead_lookup(s, docs, lens, nd, aq, &nm);
    if (!e)
        e = ahead_compute(s, nm);
    /* settle this call's claims (dropped on failure) */
    pii_ner_cache_settle(&s->cache, e != PII_OK, s->mout, nm);
    for (size_t i = 0; i < nd && !e; i++)
        if (s->src[i] < nm)
            e = pii_ner_spans_dup(&aq[i].v, &aq[i].n, s->mout[s->src[i]].v, s->mout[s->src[i]].n);
    if (e) {
        for (size_t i = 0; i < nd; i++)
            free(aq[i].v);
        return e;
    }
    s->an += nd;
    return PII_OK;
}

static pii_err det_scan(void *st, const uint8_t *buf, size_t len, uint64_t base, int eod,
                        pii_spanvec *out, uint64_t *done, uint64_t *keep)
{
    ner_state *s = st;
    ner_doc *d = &s->doc;
    pii_err e;
    if (s->mode == 0) { /* the document starts */
        s->mode = 2;
        if (s->an) {
            s->cur = s->aq[s->ah++];
            s->mode = 1;
            if (--s->an == 0)
                s->ah = 0;
        }
    }
    if (s->mode == 1)
        return ahead_scan(s, len, base, eod, out, done, keep);
    if (base > s->keep || d->tf > base + len)
        return PII_EINVAL; /* the buffer must start at or before our keep */
    pii_ner_doc_view(d, buf, base, len, eod);
    if ((e = pii_ner_doc_release(d)) || (e = pii_ner_doc_tokenize(d, s->run.ctx, eod)))
        return e;
    ner_job j;
    while (pii_ner_windows_next(d, &j))
        if ((e = pii_ner_run_push(&s->run, &j)))
            return e;
    if ((e = pii_ner_run_queue(s->n, &s->run, 1, NULL)))
        return e;
    if ((e = pii_ner_doc_flush(d, out)))
        return e;
    if (d->finished) {
        *done = *keep = base + len;
    } else {
        *done = pii_ner_doc_done(d);
        *keep = pii_ner_doc_keep(d);
    }
    s->keep = *keep;
    return PII_OK;
}

static const pii_detector_class ner_detector_class = {
    "model", det_open, det_scan, det_reset, det_close, det_ahead,
};

pii_detector pii_ner_detector(const pii_ner *n)
{
    pii_detector d = {&ner_detector_class, n};
    return d;
}
