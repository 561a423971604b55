/* document.h — one document's engine (document.c; not public).
 *
 * Legend: n tokens of the document, W window, H halo, s = W - 2H stride,
 * C labels.
 *
 * A ner_doc takes a document's bytes as they arrive (the whole document at
 * once, or a stream's pieces: pii_ner_doc_view), tokenizes what is final,
 * takes the kept rows of its windows' logits (pii_ner_doc_consume, in
 * window order; windows.c lays the windows out and runs them), decodes
 * them and hands out final spans (pii_ner_doc_flush), acting only on what
 * is final so that any chunking gives the same spans.  Between calls it
 * keeps the tokens, rows and bytes it may still need (pii_ner_doc_keep).
 *
 * Ownership: a ner_doc belongs to one thread; it reads its pii_ner, which
 * must outlive it.  The bytes of a view are the caller's and are read only
 * during the call that follows pii_ner_doc_view. */
#ifndef PII_NER_DOCUMENT_H
#define PII_NER_DOCUMENT_H

#include "ner.h"

/* A span whose widened end (pii_ner_widen_right, at most lim) waits for more
 * bytes. */
typedef struct ner_held {
    pii_span sp;
    uint64_t lim;
} ner_held;

typedef struct ner_doc {
    const pii_ner *n;
    /* final tokens [tbase, tn), slot i - tbase */
    int32_t *tid;
    uint64_t *ts, *te;
    size_t tcap;
    uint64_t tbase, tn;
    uint64_t tf;  /* bytes tokenized (a pre-token boundary) */
    int tok_done; /* the document ended and is fully tokenized */
    /* windows (windows.c): next_k scheduled, cons_k consumed */
    uint64_t next_k, cons_k;
    int win_done; /* the last window is scheduled */
    uint64_t lg;  /* tokens with final log-prob rows */
    float *rows;  /* rows [rbase, lg), slot i - rbase, [C] each */
    size_t rcap;  /* rows allocated */
    uint64_t rbase;
    pii_ner_online *ov; /* NULL for argmax */
    int32_t *lab;
    size_t labcap;
    ner_sm sm;
    ner_resolver rs;
    int finished;
    ner_text tx;    /* the bytes of the current call */
    int eod;        /* tx ends the document */
    ner_held *held; /* spans waiting for bytes to widen over */
    size_t nheld, heldcap;
    pii_ner_toks tmp;  /* tokenizer output */
    ner_names names;   /* name memory (names.c) */
    uint64_t pscan;    /* bytes before this are scanned for taught names */
    pii_spanvec cv;    /* resolved spans not handed out yet (the vote, doc_emit) */
    uint64_t (*hv)[2]; /* resolved person spans, [start, end), for the vote */
    size_t hn, hcap;
    pii_ner_result *rec; /* analyze: record everything */
    size_t rec_tcap, rec_lcap;
} ner_doc;

/* A window of a document: tokens [ws, ws + wlen), of which the rows
 * [lo, hi) are kept (the others are halo). */
typedef struct ner_job {
    ner_doc *d;
    uint64_t ws;   /* first token */
    size_t wlen;   /* tokens */
    size_t lo, hi; /* kept rows */
} ner_job;

pii_err pii_ner_doc_init(ner_doc *d, const pii_ner *n);
void pii_ner_doc_free(ner_doc *d);
/* Back to the state of pii_ner_doc_init, buffers kept: the next document. */
void pii_ner_doc_reset(ner_doc *d);

/* The bytes of this call: [base, base + len) of the document, starting at
 * or before the last pii_ner_doc_keep; eod: they end the document. */
void pii_ner_doc_view(ner_doc *d, const uint8_t *p, uint64_t base, size_t len, int eod);
/* Tokenizes what is final in the bytes in view (all of them with eod),
 * with the backend context ctx. */
pii_err pii_ner_doc_tokenize(ner_doc *d, void *ctx, int eod);
/* Takes the kept rows [j->lo, j->hi) of window j's logits[wlen][C]; the
 * windows come in order. */
pii_err pii_ner_doc_consume(ner_doc *d, const ner_job *j, const float *logits);
/* Widens the held spans over the bytes now in view; resolves the final
 * ones.  Call after pii_ner_doc_view. */
pii_err pii_ner_doc_release(ner_doc *d);
/* Appends to out the spans that are final now (all of them once the
 * document is complete; d->finished is then set). */
pii_err pii_ner_doc_flush(ner_doc *d, pii_spanvec *out);
/* Is every window of the ended document scheduled and consumed? */
int pii_ner_doc_complete(const ner_doc *d);
/* Byte offset before which no span will be handed out any more. */
uint64_t pii_ner_doc_done(const ner_doc *d);
/* Lowest byte offset the document needs to see again. */
uint64_t pii_ner_doc_keep(const ner_doc *d);

#endif
