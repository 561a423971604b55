/* ner.h — the pii_ner handle's fields, for the modules of the model
 * detector (not public).
 *
 * Legend: W window (tokens per forward pass), H halo (receptive field),
 * s = W - 2H stride, C labels, K categories.
 *
 * The model detector is these modules, bottom to top:
 *   params.c    pii_ner_params (the public contract of pii_ner.h; no
 *               header of its own)
 *   ner.c       this handle: creation from a backend, the operating point,
 *               switches and accessors, the spare backend context; the
 *               backend's token list (pii_ner_toks)
 *   document.c  one document's engine: tokens, decoding, spans (document.h)
 *   windows.c   a document's window layout and packed forward passes over
 *               the windows of many documents (windows.h)
 *   batch.c     whole documents and batches (batch.h; pii_ner_detect,
 *               pii_ner_detect_batch, pii_ner_analyze)
 *   cache.c     a stream's result cache (cache.h)
 *   detector.c  the streaming detector: lookahead and cache
 *               (pii_ner_detector)
 *
 * Ownership and threads: pii_ner_create_backend makes the handle; after it
 * every field is read-only apart from the pii_ner_set_* switches (set
 * before the handle is used) and the spare backend context, which the
 * mutex guards (pii_ner_ctx_take, pii_ner_ctx_give).  Any number of
 * threads may run detections on one handle at once. */
#ifndef PII_NER_HANDLE_H
#define PII_NER_HANDLE_H

#include <pthread.h>

#include "ner_internal.h"
#include "pii_ner.h"

struct pii_ner {
    pii_ner_backend be;
    pii_ner_labels *L;
    pii_ner_viterbi *V;
    pii_ner_biases biases;
    char calib_file[4096];
    char calib_warn[512];
    size_t C, K;
    size_t W, H, stride, pack; /* pack: tokens per pass (be.par x pii_ner_pack_tokens) */
    size_t tail;               /* the last window of a document may be W + tail long */
    size_t max_lag, max_span;
    int no_cache;
    const char *person;            /* private_person, or NULL when the model has none */
    int name_memory, name_lexicon; /* names.c: on by default (with a person category) */
    int name_filter;               /* nonperson.c: on by default */
    int dict_filter;               /* lexicon.c's dictionary words: on by default */
    unsigned lex_parts;            /* PII_NER_LEX_*: all by default */
    int pcat;                      /* person's category index (thr), -1: none */
    ner_forward_kept_fn fwd_kept;  /* NULL: be.forward */
    pii_ner_decode_mode decode;
    float *thr; /* [K] */
    /* One spare backend context, so repeated one-shot calls do not rebuild
     * tokenizer caches and model workspaces each time. */
    pthread_mutex_t mu;
    void *spare_ctx;
    void *owner;
    void (*owner_free)(void *owner);
};

/* A backend context for one run of passes: the spare one when it is free,
 * else a new one (be.ctx_create; *ctx NULL when the backend makes none). */
pii_err pii_ner_ctx_take(const pii_ner *n, void **ctx);
/* Hands a run's context back: kept as the spare when there is none, else
 * freed.  NULL: nothing to do. */
void pii_ner_ctx_give(const pii_ner *n, void *ctx);

#endif
