/* windows.c — a document's window layout and the packed forward passes
 * over the windows of many documents (windows.h). */
#include <stdlib.h>
#include <string.h>

#include "windows.h"

int pii_ner_windows_next(ner_doc *d, ner_job *j)
{
    const pii_ner *n = d->n;
    if (d->win_done)
        return 0;
    uint64_t k = d->next_k, ws = k * (uint64_t)n->stride;
    size_t wlen;
    int last;
    if (d->tok_done) {
        if (d->tn == 0) {
            d->win_done = 1;
            return 0;
        }
        /* the last window takes a remainder of up to W + tail tokens
         * whole: no second window with its halo for a short tail */
        uint64_t rest = d->tn - ws;
        last = rest <= n->W + n->tail;
        wlen = last ? (size_t)rest : n->W;
    } else {
        if (d->tn <= ws + n->W + n->tail)
            return 0; /* not known yet whether this window is the last */
        wlen = n->W;
        last = 0;
    }
    j->d = d;
    j->ws = ws;
    j->wlen = wlen;
    j->lo = k ? n->H : 0;
    j->hi = last ? wlen : wlen - n->H;
    d->next_k++;
    if (last)
        d->win_done = 1;
    return 1;
}

void pii_ner_run_free(const pii_ner *n, ner_run *r)
{
    pii_ner_ctx_give(n, r->ctx);
    free(r->jobs);
    free(r->ids);
    free(r->lens);
    free(r->klo);
    free(r->khi);
    free(r->logits);
    memset(r, 0, sizeof *r);
}

pii_err pii_ner_run_init(const pii_ner *n, ner_run *r)
{
    memset(r, 0, sizeof *r);
    return pii_ner_ctx_take(n, &r->ctx);
}

pii_err pii_ner_run_push(ner_run *r, const ner_job *j)
{
    pii_err e = PII_VEC_RESERVE(r->jobs, r->jcap, r->nj + 1);
    if (e)
        return e;
    r->jobs[r->nj++] = *j;
    return PII_OK;
}

/* One packed forward pass over jobs[0..nj), then each document takes its
 * rows, in job order. */
static pii_err run_pack(const pii_ner *n, ner_run *r, const ner_job *jobs, size_t nj)
{
    size_t total = 0;
    for (size_t i = 0; i < nj; i++)
        total += jobs[i].wlen;
    pii_err e;
    if ((e = PII_VEC_RESERVE(r->ids, r->idcap, total)) ||
        (e = PII_VEC_RESERVE(r->lens, r->lcap, nj)) ||
        (e = PII_VEC_RESERVE(r->klo, r->klocap, nj)) ||
        (e = PII_VEC_RESERVE(r->khi, r->khicap, nj)) ||
        (e = PII_VEC_RESERVE(r->logits, r->lgcap, total * n->C)))
        return e;
    size_t off = 0;
    for (size_t i = 0; i < nj; i++) {
        const ner_doc *d = jobs[i].d;
        if (jobs[i].ws < d->tbase || jobs[i].ws + jobs[i].wlen > d->tn)
            return PII_EINTERNAL;
        memcpy(r->ids + off, d->tid + (jobs[i].ws - d->tbase), jobs[i].wlen * sizeof *r->ids);
        r->lens[i] = jobs[i].wlen;
        r->klo[i] = jobs[i].lo;
        r->khi[i] = jobs[i].hi;
        off += jobs[i].wlen;
    }
    e = n->fwd_kept ? n->fwd_kept(n->be.ud, r->ctx, r->ids, r->lens, r->klo, r->khi, nj, r->logits)
                    : n->be.forward(n->be.ud, r->ctx, r->ids, r->lens, nj, r->logits);
    if (e)
        return e;
    off = 0;
    for (size_t i = 0; i < nj; i++) {
        if ((e = pii_ner_doc_consume(jobs[i].d, &jobs[i], r->logits + off * n->C)))
            return e;
        off += jobs[i].wlen;
    }
    return PII_OK;
}

/* Runs queued jobs in packs of at most n->pack tokens (at least one job
 * each); with `all` == 0 only while a full pack is queued.  Returns the
 * number of jobs run via *ran. */
pii_err pii_ner_run_queue(const pii_ner *n, ner_run *r, int all, size_t *ran)
{
    size_t i = 0;
    pii_err e = PII_OK;
    while (i < r->nj) {
        size_t j = i, tok = 0;
        while (j < r->nj && (j == i || tok + r->jobs[j].wlen <= n->pack))
            tok += r->jobs[j++].wlen;
        if (!all && j == r->nj && tok < n->pack)
            break;
        if ((e = run_pack(n, r, r->jobs + i, j - i)))
            break;
        i = j;
    }
    if (i && i < r->nj)
        memmove(r->jobs, r->jobs + i, (r->nj - i) * sizeof *r->jobs);
    r->nj -= i;
    if (ran)
        *ran = i;
    return e;
}
