/* windows.h — a document's windows and the packed forward passes that run
 * them (windows.c; not public).
 *
 * Legend: n tokens of a document, W window, H halo, s = W - 2H stride,
 * C labels.
 *
 * Layout (pii_ner.h, "Windows"): window k starts at token k s and is W
 * tokens long; it keeps rows [H, W - H) (the first window from 0); the
 * last window takes a remainder of up to W + W/4 tokens whole.  It depends
 * on n alone, so a window is scheduled only once it is known whether it is
 * the last.
 *
 * Packing: a ner_run queues the windows (jobs) of one or more documents
 * and runs them in forward passes of at most pii_ner's pack tokens (at
 * least one window each), with the model computing only each window's kept
 * rows and the rows they need; each document then takes its rows, in job
 * order (pii_ner_doc_consume).  A ner_run belongs to one thread; its
 * backend context comes from pii_ner_ctx_take and goes back with
 * pii_ner_run_free. */
#ifndef PII_NER_WINDOWS_H
#define PII_NER_WINDOWS_H

#include "document.h"

/* The next window of d that can run now: 1 and *j (d->next_k advances),
 * or 0 when there is none yet (or no more: d->win_done). */
int pii_ner_windows_next(ner_doc *d, ner_job *j);

typedef struct ner_run {
    void *ctx; /* the backend context of the passes */
    ner_job *jobs;
    size_t nj, jcap;
    int32_t *ids;
    size_t idcap;
    size_t *lens, *klo, *khi; /* [nj]: lengths and kept rows of a pass's windows */
    size_t lcap, klocap, khicap;
    float *logits;
    size_t lgcap;
} ner_run;

pii_err pii_ner_run_init(const pii_ner *n, ner_run *r);
void pii_ner_run_free(const pii_ner *n, ner_run *r);
/* Queues window j. */
pii_err pii_ner_run_push(ner_run *r, const ner_job *j);
/* Runs the queued windows in packs of at most n->pack tokens (at least
 * one window each); with `all` == 0 only while a full pack is queued (the
 * rest stays queued).  *ran (may be NULL): the number of windows run. */
pii_err pii_ner_run_queue(const pii_ner *n, ner_run *r, int all, size_t *ran);

#endif
