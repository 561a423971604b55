/* batch.c — whole documents and batches (batch.h): pii_ner_detect,
 * pii_ner_detect_batch and pii_ner_analyze, and the packed run of many
 * documents the detector's lookahead shares. */
#include <stdlib.h>
#include <string.h>

#include "batch.h"

pii_err pii_ner_batch_run(const pii_ner *n, ner_run *rp, const uint8_t *const *docs,
                          const size_t *lens, size_t ndocs, pii_spanvec *out, pii_ner_result *rec)
{
    ner_run r = *rp; /* copied back at the end: its buffers grow */
    pii_err e = PII_OK;
    /* documents in flight: [first, next) */
    ner_doc *ds = calloc(ndocs ? ndocs : 1, sizeof *ds);
    size_t first = 0, next = 0;
    if (!ds)
        return PII_ENOMEM;
    size_t queued = 0; /* tokens in queued jobs */
    while (!e && first < ndocs) {
        /* start documents until a pack is full or none are left */
        while (!e && next < ndocs && queued < n->pack) {
            ner_doc *d = &ds[next];
            if ((e = pii_ner_doc_init(d, n)))
                break;
            d->rec = rec;
            pii_ner_doc_view(d, docs[next], 0, lens[next], 1);
            if ((e = pii_ner_doc_tokenize(d, r.ctx, 1)))
                break;
            ner_job j;
            while (!e && pii_ner_windows_next(d, &j)) {
                e = pii_ner_run_push(&r, &j);
                queued += j.wlen;
            }
            next++;
        }
        if (e)
            break;
        /* run full packs (everything once all documents are started) */
        if ((e = pii_ner_run_queue(n, &r, next == ndocs, NULL)))
            break;
        queued = 0;
        for (size_t i = 0; i < r.nj; i++)
            queued += r.jobs[i].wlen;
        /* finish the documents whose windows are all done, in order */
        while (first < next && pii_ner_doc_complete(&ds[first])) {
            if ((e = pii_ner_doc_flush(&ds[first], &out[first])))
                break;
            pii_ner_doc_free(&ds[first]);
            first++;
        }
    }
    for (size_t i = first; i < next; i++)
        pii_ner_doc_free(&ds[i]);
    free(ds);
    r.nj = 0;
    *rp = r;
    return e;
}

static pii_err batch(const pii_ner *n, const uint8_t *const *docs, const size_t *lens, size_t ndocs,
                     pii_spanvec *out, pii_ner_result *rec)
{
    ner_run r;
    pii_err e = pii_ner_run_init(n, &r);
    if (!e)
        e = pii_ner_batch_run(n, &r, docs, lens, ndocs, out, rec);
    pii_ner_run_free(n, &r);
    return e;
}

pii_err pii_ner_detect_batch(const pii_ner *n, const uint8_t *const *docs, const size_t *lens,
                             size_t ndocs, pii_spanvec *out)
{
    if (!n || (ndocs && (!docs || !lens || !out)))
        return PII_EINVAL;
    return batch(n, docs, lens, ndocs, out, NULL);
}

pii_err pii_ner_detect(const pii_ner *n, const uint8_t *text, size_t len, pii_spanvec *out)
{
    return pii_ner_detect_batch(n, &text, &len, 1, out);
}

pii_err pii_ner_analyze(const pii_ner *n, const uint8_t *text, size_t len, pii_ner_result *out)
{
    memset(out, 0, sizeof *out);
    pii_err e = batch(n, &text, &len, 1, &out->spans, out);
    if (e)
        pii_ner_result_free(out);
    return e;
}

void pii_ner_result_free(pii_ner_result *r)
{
    if (!r)
        return;
    free(r->ids);
    free(r->start);
    free(r->end);
    free(r->logits);
    free(r->labels);
    free(r->spans.v);
    memset(r, 0, sizeof *r);
}
