/* ner_model.c — pii_ner_create: the detector backend over the project's
 * tokenizer (pii_tok.h) and Privacy Filter encoder (pii_model.h).
 *
 * Per-thread context: a tokenizer encoder (cache) and a model workspace
 * sized for the largest forward pass so far (at most max(window,
 * pack_tokens) tokens), created on first use.
 *
 * Threads: params.threads > 1 (0: all cores) gives the pii_ner its own
 * thread pool, shared by every caller (the pool runs one pass at a time);
 * threads = 1 runs each pass on the calling thread, so several threads
 * can run passes at once (batch workers). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ner/ner_internal.h"
#include "pii_model.h"
#include "pii_ner.h"
#include "pii_tok.h"

typedef struct adapter {
    const pii_model *m;
    const pii_tok *tok;
    const char **labels; /* [C] borrowed from the model */
    size_t C;
    size_t max_tokens;
    pii_rt_pool *pool; /* owned; NULL: the caller's thread */
} adapter;

typedef struct actx {
    pii_tok_enc *enc;
    pii_tok_buf tb;
    pii_model_ws *ws;
} actx;

static void adapter_free(void *p)
{
    adapter *a = p;
    if (!a)
        return;
    pii_rt_pool_free(a->pool);
    free(a->labels);
    free(a);
}

static void a_ctx_free(void *ud, void *p)
{
    (void)ud;
    actx *c = p;
    if (!c)
        return;
    pii_tok_enc_free(c->enc);
    pii_tok_buf_free(&c->tb);
    pii_model_ws_free(c->ws);
    free(c);
}

static void *a_ctx_create(void *ud, pii_err *err)
{
    adapter *a = ud;
    actx *c = calloc(1, sizeof *c);
    if (!c || !(c->enc = pii_tok_enc_create(a->tok))) {
        a_ctx_free(ud, c);
        *err = PII_ENOMEM;
        return NULL;
    }
    *err = PII_OK;
    return c;
}

static pii_err a_tokenize(void *ud, void *p, const uint8_t *text, size_t len, int last,
                          pii_ner_toks *out, size_t *consumed)
{
    (void)ud;
    actx *c = p;
    c->tb.n = 0;
    size_t used = 0;
    pii_err e = pii_tok_encode_stream(c->enc, text, len, last, &c->tb, &used);
    if (e)
        return e;
    size_t prev = 0;
    for (size_t i = 0; i < c->tb.n; i++) {
        if (c->tb.offs[i].start != prev || c->tb.offs[i].end <= prev)
            return PII_ETOKENIZER;
        prev = c->tb.offs[i].end;
        if ((e = pii_ner_toks_push(out, c->tb.ids[i], prev)))
            return e;
    }
    *consumed = used;
    return PII_OK;
}

static pii_err a_forward(void *ud, void *p, const int32_t *ids, const size_t *lens, size_t nseq,
                         float *logits)
{
    adapter *a = ud;
    actx *c = p;
    pii_err e = PII_OK;
    size_t n = 0;
    for (size_t i = 0; i < nseq; i++)
        n += lens[i];
    if (n > a->max_tokens)
        return PII_ETOOBIG;
    /* The workspace grows to the largest pass seen (a huge --window costs
     * nothing until a document needs it). */
    if (!c->ws || pii_model_ws_max_tokens(c->ws) < n) {
        size_t want = (n + 255) / 256 * 256;
        if (want > a->max_tokens)
            want = a->max_tokens;
        pii_model_ws_free(c->ws);
        if (!(c->ws = pii_model_ws_create(a->m, want, a->pool, &e)))
            return e ? e : PII_ENOMEM;
    }
    return pii_model_forward(a->m, c->ws, ids, n, lens, nseq, logits, NULL);
}

pii_ner *pii_ner_create(const pii_model *model, const pii_tok *tok, const pii_ner_params *pp,
                        pii_err *err, char *errbuf, size_t errcap)
{
    pii_ner_params p = pp ? *pp : pii_ner_default_params();
    pii_err e = PII_ENOMEM;
    if (!model) {
        if (err)
            *err = PII_EINVAL;
        return NULL;
    }
    const pii_model_config *cfg = pii_model_cfg(model);
    adapter *a = calloc(1, sizeof *a);
    if (!a)
        goto fail;
    a->m = model;
    a->tok = tok ? tok : pii_tok_o200k();
    a->C = cfg->n_labels > 0 ? (size_t)cfg->n_labels : 0;
    if (!(a->labels = calloc(a->C ? a->C : 1, sizeof *a->labels)))
        goto fail;
    for (size_t i = 0; i < a->C; i++)
        a->labels[i] = pii_model_label(model, (int)i);
    int threads = p.threads;
    if (threads <= 0) {
        long nc = sysconf(_SC_NPROCESSORS_ONLN);
        threads = nc > 0 ? (int)nc : 1;
    }
    if (threads > 1 && !(a->pool = pii_rt_pool_create(threads, &e)))
        goto fail;
    pii_ner_backend be = {a,
                          a->labels,
                          a->C,
                          (size_t)cfg->n_layers * (size_t)cfg->window,
                          pii_model_dir(model),
                          a_ctx_create,
                          a_ctx_free,
                          a_tokenize,
                          a_forward};
    pii_ner *n = pii_ner_create_backend(&be, &p, &e, errbuf, errcap);
    if (!n)
        goto fail;
    ner_set_owner(n, a, adapter_free);
    /* the largest pass: a window, or a pack of windows */
    size_t W = pii_ner_window(n);
    a->max_tokens = p.pack_tokens > W ? p.pack_tokens : W;
    if (err)
        *err = PII_OK;
    return n;
fail:
    adapter_free(a);
    if (err)
        *err = e;
    return NULL;
}
