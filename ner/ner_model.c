/* ner_model.c — pii_ner_create: the detector backend over the project's
 * tokenizer (pii_tok.h) and Privacy Filter encoder (pii_model.h).
 *
 * Per-thread context: a tokenizer encoder (cache) and a model workspace
 * sized for the largest forward pass so far (at most max(window,
 * pack_tokens) x threads tokens), created on first use.
 *
 * Threads: params.threads > 1 (0: all cores) gives the pii_ner its own
 * thread pool, shared by every caller (the pool runs one pass at a time);
 * threads = 1 runs each pass on the calling thread, so several threads
 * can run passes at once (batch workers).  With a pool, a pass of several
 * sequences (the windows of one long document, packed lines) is split
 * into one contiguous group per thread, balanced by tokens, and each
 * thread runs its group alone on a workspace of its own: no barriers
 * inside the pass.  A pass of one sequence, or one whose groups would be
 * unbalanced (a window beside a short tail), runs on all threads at once.
 * Either way the logits are the same bits: a sequence's logits depend
 * neither on the sequences packed beside it nor on the thread count
 * (model/forward.c). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ner_internal.h"
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
    int nth;           /* the pool's threads (1 without one) */
} adapter;

/* One group of sequences per pool thread: [s0, s1) starting at token off,
 * tok tokens, its error. */
typedef struct par_group {
    size_t s0, s1, off, tok;
    pii_err e;
} par_group;

typedef struct actx {
    pii_tok_enc *enc;
    pii_tok_buf tb;
    pii_model_ws *ws;    /* on the pool: one pass on all threads */
    pii_model_ws **solo; /* [nth] single-thread workspaces, grown on use */
    par_group *grp;      /* [nth] */
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
    if (c->solo) {
        int nth = ((const adapter *)ud)->nth;
        for (int i = 0; i < nth; i++)
            pii_model_ws_free(c->solo[i]);
        free(c->solo);
    }
    free(c->grp);
    free(c);
}

static void *a_ctx_create(void *ud, pii_err *err)
{
    adapter *a = ud;
    actx *c = calloc(1, sizeof *c);
    if (!c || !(c->enc = pii_tok_enc_create(a->tok)) ||
        (a->nth > 1 && (!(c->solo = calloc((size_t)a->nth, sizeof *c->solo)) ||
                        !(c->grp = calloc((size_t)a->nth, sizeof *c->grp))))) {
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

/* A workspace of at least n tokens (rounded up to 256, at most the
 * adapter's maximum); grown only when a larger pass comes. */
static pii_err ws_fit(const adapter *a, pii_model_ws **ws, size_t n, pii_rt_pool *pool)
{
    if (*ws && pii_model_ws_max_tokens(*ws) >= n)
        return PII_OK;
    size_t want = (n + 255) / 256 * 256;
    if (want > a->max_tokens)
        want = a->max_tokens;
    pii_err e = PII_OK;
    pii_model_ws_free(*ws);
    if (!(*ws = pii_model_ws_create(a->m, want, pool, &e)))
        return e ? e : PII_ENOMEM;
    return PII_OK;
}

typedef struct par_ctx {
    const adapter *a;
    actx *c;
    const int32_t *ids;
    const size_t *lens;
    const size_t *klo, *khi; /* kept rows per sequence, or NULL */
    float *logits;
    par_group *g; /* [nth] */
} par_ctx;

static void par_thread(void *vp, int ith, int nth)
{
    (void)nth;
    par_ctx *p = vp;
    par_group *g = &p->g[ith];
    if (g->tok == 0)
        return;
    const size_t C = p->a->C;
    g->e = pii_model_forward_kept(p->a->m, p->c->solo[ith], p->ids + g->off, g->tok,
                                  p->lens + g->s0, g->s1 - g->s0, p->klo ? p->klo + g->s0 : NULL,
                                  p->khi ? p->khi + g->s0 : NULL, p->logits + g->off * C, NULL);
}

/* Cuts nseq sequences (total tokens) into nth contiguous groups: sequence
 * i goes to the thread where the midpoint of its tokens falls.  Returns
 * the largest group's tokens. */
static size_t par_split(const size_t *lens, size_t nseq, size_t total, int nth, par_group *g)
{
    size_t i = 0, off = 0, big = 0;
    for (int t = 0; t < nth; t++) {
        g[t] = (par_group){i, i, off, 0, PII_OK};
        while (i < nseq) {
            /* owner = floor((2 off + len) nth / (2 total)) */
            size_t owner = (2 * off + lens[i]) * (size_t)nth / (2 * total);
            if (owner > (size_t)t && t + 1 < nth)
                break;
            g[t].tok += lens[i];
            off += lens[i];
            i++;
        }
        g[t].s1 = i;
        if (g[t].tok > big)
            big = g[t].tok;
    }
    return big;
}

/* The backend's forward; klo/khi (NULL: every row) are the rows the
 * engine keeps of each sequence (pii_model_forward_kept). */
static pii_err a_forward_kept(void *ud, void *p, const int32_t *ids, const size_t *lens,
                              const size_t *klo, const size_t *khi, size_t nseq, float *logits)
{
    adapter *a = ud;
    actx *c = p;
    pii_err e = PII_OK;
    size_t n = 0;
    for (size_t i = 0; i < nseq; i++)
        n += lens[i];
    if (n > a->max_tokens)
        return PII_ETOOBIG;
    if (a->pool && c->solo && nseq >= 2 && n > 0) {
        par_group *g = c->grp;
        int nth = a->nth;
        size_t big = par_split(lens, nseq, n, nth, g);
        /* balanced within 1/4 of an even share: each thread alone */
        if (4 * big * (size_t)nth <= 5 * n) {
            for (int t = 0; t < nth; t++)
                if (g[t].tok && (e = ws_fit(a, &c->solo[t], g[t].tok, NULL)))
                    return e;
            par_ctx pc = {a, c, ids, lens, klo, khi, logits, g};
            pii_rt_pool_run(a->pool, par_thread, &pc);
            for (int t = 0; t < nth; t++)
                if (g[t].e)
                    return g[t].e;
            return PII_OK;
        }
    }
    /* On all threads at once, in sub-passes of at most one thread's share
     * of the largest pass (at least one sequence each), so the shared
     * workspace stays one window's size however many threads there are.
     * It grows to the largest sub-pass seen (a huge --window costs
     * nothing until a document needs it). */
    size_t cap = a->max_tokens / (size_t)a->nth, i = 0, off = 0;
    while (i < nseq) {
        size_t j = i, tok = 0;
        while (j < nseq && (j == i || tok + lens[j] <= cap))
            tok += lens[j++];
        if ((e = ws_fit(a, &c->ws, tok, a->pool)) ||
            (e = pii_model_forward_kept(a->m, c->ws, ids + off, tok, lens + i, j - i,
                                        klo ? klo + i : NULL, khi ? khi + i : NULL,
                                        logits + off * a->C, NULL)))
            return e;
        off += tok;
        i = j;
    }
    return PII_OK;
}

static pii_err a_forward(void *ud, void *p, const int32_t *ids, const size_t *lens, size_t nseq,
                         float *logits)
{
    return a_forward_kept(ud, p, ids, lens, NULL, NULL, nseq, logits);
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
    a->nth = pii_rt_pool_size(a->pool);
    pii_ner_backend be = {a,
                          a->labels,
                          a->C,
                          (size_t)cfg->n_layers * (size_t)cfg->window,
                          pii_model_dir(model),
                          a_ctx_create,
                          a_ctx_free,
                          a_tokenize,
                          a_forward,
                          (size_t)a->nth};
    pii_ner *n = pii_ner_create_backend(&be, &p, &e, errbuf, errcap);
    if (!n)
        goto fail;
    pii_ner_set_owner(n, a, adapter_free);
    pii_ner_set_forward_kept(n, a_forward_kept);
    /* the largest pass: a window, or a pack of windows, per thread */
    size_t W = pii_ner_window_max(n);
    a->max_tokens = (p.pack_tokens > W ? p.pack_tokens : W) * (size_t)a->nth;
    if (err)
        *err = PII_OK;
    return n;
fail:
    adapter_free(a);
    if (err)
        *err = e;
    return NULL;
}
