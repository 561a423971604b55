/* document.c — one document's engine (document.h).
 *
 * Legend: n tokens of a document, W window (tokens per forward pass), H halo
 * (receptive field), s = W - 2H stride, C labels, K categories.
 *
 * A document goes through
 *   tokenize ─► windows (windows.c: jobs; packed forward of each window's
 *   kept rows: pii_model_forward_kept) ─► rows kept ─► log-softmax ─►
 *   decoder (online Viterbi / argmax) ─► §6.3 state machine ─► byte spans
 *   ─► threshold ─► widening ─► name memory (names.c: person spans teach,
 *   later words and words up to NER_NAMES_REACH bytes before them match)
 *   ─► §6.4 resolver ─► the document's vote on lone words (doc_emit) ─► spans
 * and every stage only ever acts on what is final, so feeding the document
 * whole (pii_ner_detect, batches) or in pieces (the detector) gives the same
 * result.  The window layout depends on the token count alone (see
 * pii_ner.h), never on chunking.
 *
 * Memory per document: tokens from the first unconsumed window or the
 * first token of the open span (whichever is older) to the last final
 * token; log-prob rows of tokens whose labels are not final yet; with the
 * name memory, the text and spans of up to 3 x NER_NAMES_REACH bytes more. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "document.h"

/* Does the document scan its words for names (names.c)? */
static int names_on(const pii_ner *n)
{
    return n->person && (n->name_memory || n->name_lexicon);
}

void pii_ner_doc_free(ner_doc *d)
{
    free(d->tid);
    free(d->ts);
    free(d->te);
    free(d->rows);
    free(d->lab);
    pii_ner_online_free(d->ov);
    pii_ner_resolver_free(&d->rs);
    pii_ner_toks_free(&d->tmp);
    free(d->held);
    free(d->cv.v);
    free(d->hv);
    pii_ner_names_free(&d->names);
}

/* What the document's word scan looks for (names.c). */
static void doc_names_mode(ner_doc *d)
{
    const pii_ner *n = d->n;
    d->names.memory = n->person && n->name_memory;
    /* lexicon spans carry NER_LEX_SCORE: a higher person threshold drops them */
    d->names.lexicon =
        n->person && n->name_lexicon && NER_LEX_SCORE >= n->thr[n->pcat] ? n->lex_parts : 0;
}

pii_err pii_ner_doc_init(ner_doc *d, const pii_ner *n)
{
    memset(d, 0, sizeof *d);
    d->n = n;
    pii_err e = PII_OK;
    if (n->decode == PII_NER_DECODE_VITERBI &&
        !(d->ov = pii_ner_online_create(n->V, n->max_lag, &e)))
        return e;
    pii_ner_sm_init(&d->sm, n->L, n->max_span);
    pii_ner_names_reset(&d->names); /* as doc_reset: the first word starts a sentence */
    doc_names_mode(d);
    return PII_OK;
}

void pii_ner_doc_reset(ner_doc *d)
{
    d->tbase = d->tn = d->tf = 0;
    d->tok_done = 0;
    d->next_k = d->cons_k = 0;
    d->win_done = 0;
    d->lg = d->rbase = 0;
    if (d->ov)
        pii_ner_online_reset(d->ov);
    pii_ner_sm_init(&d->sm, d->n->L, d->n->max_span);
    pii_ner_resolver_reset(&d->rs);
    d->finished = 0;
    d->eod = 0;
    d->nheld = 0;
    pii_ner_names_reset(&d->names);
    doc_names_mode(d);
    d->pscan = 0;
    d->cv.n = d->hn = 0;
}

/* Oldest token still needed: the first unconsumed window's start, or the
 * first token of the open span / of the unlabelled tokens. */
static uint64_t doc_tok_floor(const ner_doc *d)
{
    uint64_t a = d->cons_k * (uint64_t)d->n->stride;
    uint64_t b = ner_sm_pending_token(&d->sm);
    uint64_t m = a < b ? a : b;
    return m < d->tn ? m : d->tn;
}

/* The capacity a buffer of cap entries (first: its first size) grows to
 * for live + k entries, once the entries no longer needed are dropped: 0
 * while they take at most half of it, else twice what it must hold. */
static size_t grown_cap(size_t cap, size_t first, size_t live, size_t k)
{
    if (live + k <= cap / 2 + 1 && live + k <= cap)
        return 0;
    size_t nc = cap ? cap : first;
    while (nc < 2 * (live + k))
        nc *= 2;
    return nc;
}

static pii_err tok_reserve(ner_doc *d, size_t k)
{
    size_t live = (size_t)(d->tn - d->tbase);
    if (live + k <= d->tcap)
        return PII_OK;
    uint64_t lo = doc_tok_floor(d);
    if (lo > d->tbase) {
        size_t drop = (size_t)(lo - d->tbase);
        live -= drop;
        memmove(d->tid, d->tid + drop, live * sizeof *d->tid);
        memmove(d->ts, d->ts + drop, live * sizeof *d->ts);
        memmove(d->te, d->te + drop, live * sizeof *d->te);
        d->tbase = lo;
    }
    size_t nc = grown_cap(d->tcap, 1024, live, k);
    if (!nc)
        return PII_OK;
    /* the three arrays grow together, to at least nc */
    size_t c0 = d->tcap, c1 = d->tcap, c2 = d->tcap;
    pii_err e;
    if ((e = pii_vec_grow(&d->tid, &c0, nc, sizeof *d->tid)) ||
        (e = pii_vec_grow(&d->ts, &c1, nc, sizeof *d->ts)) ||
        (e = pii_vec_grow(&d->te, &c2, nc, sizeof *d->te)))
        return e;
    d->tcap = nc;
    return PII_OK;
}

static pii_err rows_reserve(ner_doc *d, size_t k)
{
    size_t C = d->n->C;
    size_t live = (size_t)(d->lg - d->rbase);
    if (live + k <= d->rcap)
        return PII_OK;
    uint64_t lo = d->sm.t; /* rows of labelled tokens are no longer needed */
    if (lo > d->rbase) {
        size_t drop = (size_t)(lo - d->rbase);
        live -= drop;
        memmove(d->rows, d->rows + drop * C, live * C * sizeof *d->rows);
        d->rbase = lo;
    }
    size_t nc = grown_cap(d->rcap, 256, live, k);
    if (!nc)
        return PII_OK;
    float *r = realloc(d->rows, nc * C * sizeof *r);
    if (!r)
        return PII_ENOMEM;
    d->rows = r;
    d->rcap = nc;
    return PII_OK;
}

/* Tokenizes what is final in the current bytes. */
pii_err pii_ner_doc_tokenize(ner_doc *d, void *ctx, int eod)
{
    if (d->tok_done)
        return PII_OK;
    const pii_ner *n = d->n;
    size_t off = (size_t)(d->tf - d->tx.base);
    size_t avail = d->tx.len - off;
    if (avail == 0 && !eod)
        return PII_OK;
    d->tmp.n = 0;
    size_t used = 0;
    pii_err e = PII_OK;
    if (avail)
        e = n->be.tokenize(n->be.ud, ctx, d->tx.p + off, avail, eod, &d->tmp, &used);
    if (e)
        return e;
    if (eod)
        used = avail;
    if (used > avail)
        return PII_ETOKENIZER;
    /* the tokens must tile [0, used) */
    uint64_t prev = 0;
    for (size_t i = 0; i < d->tmp.n; i++) {
        if (d->tmp.end[i] <= prev)
            return PII_ETOKENIZER;
        prev = d->tmp.end[i];
    }
    if (prev != used)
        return PII_ETOKENIZER;
    if ((e = tok_reserve(d, d->tmp.n)))
        return e;
    if (d->rec) {
        pii_ner_result *r = d->rec;
        size_t need = r->n + d->tmp.n;
        size_t c0 = d->rec_tcap;
        if ((e = PII_VEC_RESERVE(r->ids, c0, need)))
            return e;
        c0 = d->rec_tcap;
        if ((e = PII_VEC_RESERVE(r->start, c0, need)))
            return e;
        c0 = d->rec_tcap;
        if ((e = PII_VEC_RESERVE(r->end, c0, need)))
            return e;
        d->rec_tcap = c0;
    }
    prev = 0;
    for (size_t i = 0; i < d->tmp.n; i++) {
        size_t slot = (size_t)(d->tn - d->tbase);
        d->tid[slot] = d->tmp.ids[i];
        d->ts[slot] = d->tf + prev;
        d->te[slot] = d->tf + d->tmp.end[i];
        prev = d->tmp.end[i];
        if (d->rec) {
            pii_ner_result *r = d->rec;
            r->ids[r->n] = d->tid[slot];
            r->start[r->n] = d->ts[slot];
            r->end[r->n] = d->te[slot];
            r->n++;
        }
        d->tn++;
    }
    d->tf += used;
    if (eod)
        d->tok_done = 1;
    return PII_OK;
}

void pii_ner_doc_view(ner_doc *d, const uint8_t *p, uint64_t base, size_t len, int eod)
{
    d->tx.p = p;
    d->tx.base = base;
    d->tx.len = len;
    d->eod = eod;
}

/* A final span (whole words: widened): taught to the name memory, handed
 * to the resolver.  With the dictionary-word filter, a person span of lower-case
 * dictionary words alone is dropped ("the remand", "her highborn
 * kinsman"): a common word read as a name.  With the non-person filter, a
 * person span that names no person is dropped and the words beside a name
 * are cut off (nonperson.c) — before it teaches the name memory. */
static pii_err doc_resolve(ner_doc *d, const pii_span *in)
{
    pii_span cut = *in;
    const pii_span *sp = &cut;
    if (d->n->dict_filter && sp->label == d->n->person &&
        pii_ner_lex_common_only(d->tx.p + (sp->start - d->tx.base), (size_t)(sp->end - sp->start)))
        return PII_OK;
    if (d->n->name_filter && !strcmp(sp->label, "private_address") &&
        !pii_ner_address_filter(&d->tx, sp->start, sp->end))
        return PII_OK; /* "Likewise", a list of languages: no address */
    if (!strcmp(sp->label, "private_email") &&
        !memchr(d->tx.p + (sp->start - d->tx.base), '@', (size_t)(sp->end - sp->start)) &&
        !pii_ner_has_fullwidth_at(&d->tx, sp->start, sp->end))
        return PII_OK; /* no "@": no e-mail address ("openssl/e_os2.h") */
    if (!strcmp(sp->label, "private_email"))
        pii_ner_email_core(&d->tx, &cut.start, &cut.end);
    if (!strcmp(sp->label, "secret") && pii_ner_digest_span(&d->tx, sp->start, sp->end))
        return PII_OK; /* a digest or commit id, no credential */
    if (pii_ner_code_value(&d->tx, sp->label, sp->start, sp->end))
        return PII_OK; /* "#define CAST_KEY_LENGTH 16", a hex dump, "0.35.1" */
    if (d->n->name_filter && sp->label == d->n->person) {
        if (!pii_ner_person_filter(&d->tx, &cut.start, &cut.end))
            return PII_OK;
        if (pii_ner_org_after(&d->tx, cut.end, d->eod))
            return PII_OK; /* "Baxter Moore Solicitors": an organisation (doc_waits) */
    }
    if (d->names.memory && sp->label == d->n->person) {
        pii_err e = pii_ner_names_offer(&d->names, &d->tx, sp, d->n->person, &d->rs);
        if (e)
            return e;
    }
    return pii_ner_resolver_add(&d->rs, sp);
}

/* Must a final person span wait for the word after it (the non-person
 * filter's look at an organisation's head word, not in view yet)? */
static int doc_waits(const ner_doc *d, const pii_span *sp)
{
    if (!d->n->name_filter || sp->label != d->n->person)
        return 0;
    uint64_t s = sp->start, e = sp->end;
    return pii_ner_person_filter(&d->tx, &s, &e) && pii_ner_org_after(&d->tx, e, d->eod) < 0;
}

static pii_err doc_hold(ner_doc *d, const pii_span *sp, uint64_t lim)
{
    pii_err err = PII_VEC_RESERVE(d->held, d->heldcap, d->nheld + 1);
    if (err)
        return err;
    d->held[d->nheld++] = (ner_held){*sp, lim};
    return PII_OK;
}

static pii_err doc_add_tspan(ner_doc *d, const ner_tsp *t)
{
    const pii_ner *n = d->n;
    uint64_t fs = d->ts[t->ts - d->tbase], le = d->te[t->te - 1 - d->tbase];
    uint64_t s, e;
    if (fs < d->tx.base || le > d->tx.base + d->tx.len)
        return PII_EINTERNAL; /* the bytes must be in view (see pii_ner_doc_keep) */
    if (!pii_ner_byte_span(&d->tx, pii_ner_labels_category(n->L, t->cat), fs, le, &s, &e))
        return PII_OK;
    float score = (float)(t->psum / (double)(t->te - t->ts));
    if (!(score >= n->thr[t->cat]))
        return PII_OK;
    pii_span sp = {s, e, pii_ner_labels_category(n->L, t->cat), NULL, score, PII_SRC_MODEL};
    uint64_t lim = sp.end + NER_WIDEN_MAX;
    if (pii_ner_widens(sp.label)) {
        sp.start = pii_ner_widen_left(&d->tx, sp.label, sp.start);
        lim = pii_ner_widen_lim(sp.label, sp.end); /* opaque values: to their end */
        if (!pii_ner_widen_right(&d->tx, sp.label, &sp.end, lim, d->eod))
            return doc_hold(d, &sp, lim);
    }
    if (doc_waits(d, &sp))
        return doc_hold(d, &sp, lim);
    return doc_resolve(d, &sp);
}

/* Widens the held spans over the bytes now in view; adds the final ones. */
pii_err pii_ner_doc_release(ner_doc *d)
{
    size_t k = 0;
    pii_err e = PII_OK;
    for (size_t i = 0; i < d->nheld; i++) {
        ner_held *h = &d->held[i];
        if (!e &&
            (!pii_ner_widens(h->sp.label) ||
             pii_ner_widen_right(&d->tx, h->sp.label, &h->sp.end, h->lim, d->eod)) &&
            !doc_waits(d, &h->sp))
            e = doc_resolve(d, &h->sp);
        else
            d->held[k++] = *h;
    }
    d->nheld = k;
    return e;
}

/* Start of the oldest held span (UINT64_MAX: none). */
static uint64_t doc_held_min(const ner_doc *d)
{
    uint64_t m = UINT64_MAX;
    for (size_t i = 0; i < d->nheld; i++)
        if (d->held[i].sp.start < m)
            m = d->held[i].sp.start;
    return m;
}

/* Feeds final labels (for tokens sm.t, sm.t+1, ...) to the span machine. */
static pii_err doc_labels(ner_doc *d, const int32_t *lab, size_t k)
{
    const pii_ner *n = d->n;
    pii_err e;
    if (d->rec) {
        size_t c0 = d->rec_lcap;
        if ((e = PII_VEC_RESERVE(d->rec->labels, c0, d->sm.t + k)))
            return e;
        d->rec_lcap = c0;
    }
    for (size_t i = 0; i < k; i++) {
        uint64_t t = d->sm.t;
        const float *row = d->rows + (size_t)(t - d->rbase) * n->C;
        double prob = exp((double)row[lab[i]]);
        if (d->rec)
            d->rec->labels[t] = lab[i];
        ner_tsp out[2];
        int m = pii_ner_sm_push(&d->sm, lab[i], prob, out);
        for (int j = 0; j < m; j++)
            if ((e = doc_add_tspan(d, &out[j])))
                return e;
    }
    return PII_OK;
}

static pii_err doc_take_labels(ner_doc *d)
{
    pii_err e;
    if (!d->ov) {
        /* argmax: every row's label is final at once */
        size_t k = (size_t)(d->lg - d->sm.t);
        if ((e = PII_VEC_RESERVE(d->lab, d->labcap, k ? k : 1)))
            return e;
        pii_ner_argmax(d->rows + (size_t)(d->sm.t - d->rbase) * d->n->C, k, d->n->C, d->lab);
        return doc_labels(d, d->lab, k);
    }
    size_t ready;
    while ((ready = pii_ner_online_ready(d->ov)) > 0) {
        if ((e = PII_VEC_RESERVE(d->lab, d->labcap, ready)))
            return e;
        size_t k = pii_ner_online_take(d->ov, d->lab, ready);
        if ((e = doc_labels(d, d->lab, k)))
            return e;
    }
    return PII_OK;
}

/* Takes the kept rows of a window's logits[wlen][C]. */
pii_err pii_ner_doc_consume(ner_doc *d, const ner_job *j, const float *logits)
{
    const pii_ner *n = d->n;
    size_t C = n->C, r = j->hi - j->lo;
    pii_err e;
    if (j->ws + j->lo != d->lg)
        return PII_EINTERNAL;
    if ((e = rows_reserve(d, r)))
        return e;
    float *dst = d->rows + (size_t)(d->lg - d->rbase) * C;
    pii_ner_log_softmax(logits + j->lo * C, r, C, dst);
    if (d->rec) {
        pii_ner_result *R = d->rec;
        float *nl = realloc(R->logits, (size_t)(d->lg + r) * C * sizeof *nl);
        if (!nl)
            return PII_ENOMEM;
        R->logits = nl;
        memcpy(R->logits + (size_t)d->lg * C, logits + j->lo * C, r * C * sizeof *nl);
    }
    if (d->ov && (e = pii_ner_online_push(d->ov, dst, r)))
        return e;
    d->lg += r;
    d->cons_k++;
    return doc_take_labels(d);
}

/* First byte of the first token whose label is not final (or of the open
 * span); the bytes tokenized when every token is labelled. */
static uint64_t doc_pending_byte(const ner_doc *d)
{
    uint64_t p = ner_sm_pending_token(&d->sm);
    return p < d->tn ? d->ts[p - d->tbase] : d->tf;
}

/* Byte offset that every later span starts at or after: the pending
 * token's first character, less what widening may add on the left, and no
 * later than a held span. */
static uint64_t doc_boundary(const ner_doc *d)
{
    uint64_t pos = doc_pending_byte(d);
    if (pos < d->tx.base + d->tx.len)
        pos = d->tx.base + pii_ner_char_start(d->tx.p, d->tx.len, (size_t)(pos - d->tx.base));
    pos = pos > NER_WIDEN_MAX ? pos - NER_WIDEN_MAX : 0;
    if (names_on(d->n) && d->pscan < pos)
        pos = d->pscan; /* a name may still be found from there */
    uint64_t h = doc_held_min(d);
    return h < pos ? h : pos;
}

/* Byte offset that every span the resolver will still take starts at or
 * after: with the name memory, a span that teaches reaches NER_NAMES_REACH
 * bytes back. */
static uint64_t doc_rboundary(const ner_doc *d)
{
    uint64_t b = doc_boundary(d);
    if (!d->names.memory)
        return b;
    return b > NER_NAMES_REACH ? b - NER_NAMES_REACH : 0;
}

/* Byte offset before which no span will be handed out any more. */
uint64_t pii_ner_doc_done(const ner_doc *d)
{
    uint64_t b = doc_rboundary(d);
    return d->cv.n && d->cv.v[0].start < b ? d->cv.v[0].start : b;
}

/* Lowest byte offset the document needs to see again. */
uint64_t pii_ner_doc_keep(const ner_doc *d)
{
    uint64_t pos = doc_pending_byte(d);
    if (d->tf < pos)
        pos = d->tf;
    /* the widening's bytes, and the digest filter's before them */
    pos = pos > 3 + NER_WIDEN_MAX + NER_DIGEST_BACK ? pos - 3 - NER_WIDEN_MAX - NER_DIGEST_BACK : 0;
    if (names_on(d->n) && d->pscan < pos)
        pos = d->pscan;
    uint64_t h = doc_held_min(d);
    if (h < pos)
        pos = h;
    if (d->names.memory) {
        /* the reach back of later teachers and the vote of every span
         * not handed out yet (doc_emit) */
        uint64_t b = pii_ner_doc_done(d), r = NER_NAMES_REACH + NER_NAMES_SLACK;
        b = b > r ? b - r : 0;
        if (b < pos)
            pos = b;
    }
    return pos;
}

int pii_ner_doc_complete(const ner_doc *d)
{
    return d->tok_done && d->win_done && d->cons_k == d->next_k;
}

/* Name memory: scans the bytes before which every span is known (spans
 * ending there are taught; later ones start after them) for taught
 * names.  final: the whole document is known. */
static pii_err doc_names(ner_doc *d, int final)
{
    if (!names_on(d->n))
        return PII_OK;
    uint64_t lim = d->tx.base + d->tx.len;
    if (!final) {
        uint64_t pos = doc_pending_byte(d);
        uint64_t h = doc_held_min(d);
        if (pos < lim)
            lim = pos;
        if (h < lim)
            lim = h;
    }
    if (d->pscan < d->tx.base)
        return PII_EINTERNAL; /* the bytes must be in view (see pii_ner_doc_keep) */
    return pii_ner_names_scan(&d->names, &d->tx, &d->pscan, lim, final, d->n->person, &d->rs);
}

/* The document's vote on a lone word (docs/NER.md, "Name memory"): is sp
 * a person span scored under NER_VOTE_MAX_SCORE, of one capitalised word,
 * no given name of the lexicon, that
 * comes back at least twice more within NER_NAMES_REACH bytes either side,
 * where fewer than half of its occurrences are in person spans?  The model
 * then read a place or a thing as a name once ("Polaroid" marked once of
 * five times).  1: drop it, 0: keep it, -1: the bytes are not in view. */
static int doc_vote_drop(const ner_doc *d, const pii_span *sp)
{
    const ner_text *tx = &d->tx;
    if (!(sp->score < NER_VOTE_MAX_SCORE))
        return 0; /* a confident reading stands ("Jordan said ..." beside the country) */
    uint64_t lo = sp->start > NER_NAMES_REACH ? sp->start - NER_NAMES_REACH : 0;
    if ((lo > NER_NAMES_SLACK ? lo - NER_NAMES_SLACK : 0) < tx->base)
        return -1;
    if (!pii_ner_names_lone(tx, sp->start, sp->end))
        return 0;
    uint64_t at[64];
    size_t len = (size_t)(sp->end - sp->start);
    size_t n = pii_ner_names_occurrences(tx, lo, sp->end + NER_NAMES_REACH,
                                         tx->p + (sp->start - tx->base), len, at, 64);
    if (n < 3 || n > 64)
        return 0; /* too few to outvote it; too many to count: keep */
    size_t k = 0, h = 0;
    for (size_t i = 0; i < n; i++) { /* both in document order */
        while (h < d->hn && d->hv[h][1] <= at[i])
            h++;
        k += h < d->hn && d->hv[h][0] < at[i] + len;
    }
    return 2 * k < n;
}

/* Hands out the resolved spans whose vote is known (all of them when
 * final): a span's vote needs every span within NER_NAMES_REACH bytes
 * after it, so those spans must have left the resolver (start < rb). */
static pii_err doc_emit(ner_doc *d, uint64_t rb, int final, pii_spanvec *out)
{
    size_t i = 0;
    pii_err e = PII_OK;
    for (; i < d->cv.n; i++) {
        const pii_span *sp = &d->cv.v[i];
        int drop = 0;
        if (d->names.memory) {
            if (!final && sp->end + NER_NAMES_REACH > rb)
                break;
            if (sp->label == d->n->person && (drop = doc_vote_drop(d, sp)) < 0) {
                e = PII_EINTERNAL; /* the bytes must be in view (see pii_ner_doc_keep) */
                break;
            }
        }
        if (!drop && (e = pii_spanvec_push(out, sp)))
            break;
    }
    if (i) {
        memmove(d->cv.v, d->cv.v + i, (d->cv.n - i) * sizeof *d->cv.v);
        d->cv.n -= i;
    }
    /* later votes look back from the first span left (or from rb) */
    uint64_t a = d->cv.n ? d->cv.v[0].start : rb, h = 0;
    while (h < d->hn && d->hv[h][1] + NER_NAMES_REACH <= a)
        h++;
    if (h) {
        memmove(d->hv, d->hv + h, (d->hn - h) * sizeof *d->hv);
        d->hn -= h;
    }
    return e;
}

/* Flushes the resolver up to rb into the spans to hand out; person spans
 * are also kept for the vote. */
static pii_err doc_resolved(ner_doc *d, uint64_t rb, int final, pii_spanvec *out)
{
    size_t n0 = d->cv.n;
    pii_err e = pii_ner_resolver_flush(&d->rs, rb, &d->cv);
    for (size_t i = n0; !e && i < d->cv.n; i++) {
        if (!d->names.memory || d->cv.v[i].label != d->n->person)
            continue;
        if (!(e = PII_VEC_RESERVE(d->hv, d->hcap, d->hn + 1))) {
            d->hv[d->hn][0] = d->cv.v[i].start;
            d->hv[d->hn][1] = d->cv.v[i].end;
            d->hn++;
        }
    }
    return e ? e : doc_emit(d, rb, final, out);
}

pii_err pii_ner_doc_flush(ner_doc *d, pii_spanvec *out)
{
    pii_err e;
    if (!d->finished && pii_ner_doc_complete(d)) {
        if (d->ov) {
            if ((e = pii_ner_online_finish(d->ov)) || (e = doc_take_labels(d)))
                return e;
        }
        ner_tsp t;
        if (pii_ner_sm_finish(&d->sm, &t) && (e = doc_add_tspan(d, &t)))
            return e;
        if ((e = pii_ner_doc_release(d)) || (e = doc_names(d, 1)))
            return e;
        d->finished = 1;
        return doc_resolved(d, UINT64_MAX, 1, out);
    }
    if (d->finished)
        return PII_OK;
    if ((e = doc_names(d, 0)))
        return e;
    return doc_resolved(d, doc_rboundary(d), 0, out);
}
