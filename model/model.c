/* model.c — loading the Privacy Filter: files, configuration, and binding
 * every tensor (name, dtype, exact shape) to the layer structure.  Weight
 * matrices stay in the mapping; only the small vectors (norm gains, biases,
 * sinks: ~1 MB per layer at full size) are converted to f32 once. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pii_file.h"

#include "model_internal.h"
#include "model_quant.h"

void pii_model_default_params(pii_model_params *p)
{
    memset(p, 0, sizeof *p);
    p->isa = -1; /* the best the CPU has */
    p->qact = PII_RT_QACT_I16;
}

const pii_rt_plan *pii_model_plan(const pii_model *m)
{
    return &m->plan;
}

/* ---- binding ----------------------------------------------------------------- */

typedef struct binder {
    pii_model *m;
    float *arena;
    size_t used, size;
    char *errbuf;
    size_t cap;
    const char *fname; /* for messages about absent tensors */
} binder;

static void fmt_shape(char *b, size_t cap, int nd, const int64_t *sh)
{
    size_t k = 0;
    k += (size_t)snprintf(b + k, cap - k, "[");
    for (int i = 0; i < nd && k < cap; i++)
        k += (size_t)snprintf(b + k, cap - k, "%s%lld", i ? ", " : "", (long long)sh[i]);
    if (k < cap)
        snprintf(b + k, cap - k, "]");
}

/* Finds name with exactly the shape given (nd dims). */
static pii_err need(binder *b, const char *name, int nd, const int64_t *sh,
                    const pii_rt_tensor **out)
{
    const pii_rt_tensor *t = pii_rt_store_find(b->m->store, name);
    *out = NULL;
    if (!t)
        return pii_pf_fail(b->errbuf, b->cap, PII_ENOTFOUND, b->fname, "tensor '%s' is missing",
                           name);
    int same = t->ndim == nd;
    for (int i = 0; same && i < nd; i++)
        same = t->shape[i] == sh[i];
    if (!same) {
        char got[96], want[96];
        fmt_shape(got, sizeof got, t->ndim, t->shape);
        fmt_shape(want, sizeof want, nd, sh);
        return pii_pf_fail(b->errbuf, b->cap, PII_ESHAPE, t->file,
                           "tensor '%s' has shape %s, expected %s", name, got, want);
    }
    *out = t;
    return PII_OK;
}

static int float_dtype(pii_dtype t)
{
    return t == PII_DT_F32 || t == PII_DT_F16 || t == PII_DT_BF16 || t == PII_DT_Q8_0;
}

/* A vector (or the rows [r0, r0+rn) x cols [c0, c0+cn) of a 2-D tensor)
 * converted into the arena. */
static pii_err vec(binder *b, const pii_rt_tensor *t, size_t r0, size_t rn, size_t c0, size_t cn,
                   const float **out)
{
    if (!float_dtype(t->dtype))
        return pii_pf_fail(b->errbuf, b->cap, PII_EDTYPE, t->file,
                           "tensor '%s': dtype %s not allowed", t->name, pii_dtype_name(t->dtype));
    size_t cols = t->ndim == 2 ? (size_t)t->shape[1] : (size_t)t->nelem;
    unsigned blk = pii_dtype_block(t->dtype);
    if (c0 % blk || cn % blk)
        return pii_pf_fail(b->errbuf, b->cap, PII_ESHAPE, t->file,
                           "tensor '%s': split inside a block", t->name);
    if (b->used + rn * cn > b->size)
        return PII_EINTERNAL;
    float *dst = b->arena + b->used;
    pii_err e;
    size_t ld = (size_t)pii_dtype_nbytes(t->dtype, cols, cols, &e);
    for (size_t r = 0; r < rn; r++)
        pii_rt_to_f32(t->dtype,
                      (const uint8_t *)t->data + (r0 + r) * ld +
                          c0 / blk * pii_dtype_block_bytes(t->dtype),
                      cn, dst + r * cn);
    for (size_t i = 0; i < rn * cn; i++)
        if (!isfinite(dst[i]))
            return pii_pf_fail(b->errbuf, b->cap, PII_EMODEL, t->file,
                               "tensor '%s': non-finite value at %zu", t->name, i);
    b->used += rn * cn;
    *out = dst;
    return PII_OK;
}

static pii_err vec1(binder *b, const char *name, int64_t n, const float **out)
{
    const pii_rt_tensor *t;
    pii_err e = need(b, name, 1, &n, &t);
    return e ? e : vec(b, t, 0, 1, 0, (size_t)n, out);
}

static pii_err mat(binder *b, const char *name, int64_t rows, int64_t cols, pii_rt_mat *out)
{
    const pii_rt_tensor *t;
    int64_t sh[2] = {rows, cols};
    pii_err e;
    int q = pii_pf_quant_mat(b->m->store, name, rows, cols, out, &e, b->errbuf, b->cap);
    if (q)
        return q < 0 ? e : PII_OK;
    if ((e = need(b, name, 2, sh, &t)))
        return e;
    if ((e = pii_rt_mat_view(out, t, PII_RT_OI, 0, 0, 0)))
        return pii_pf_fail(b->errbuf, b->cap, e, t->file, "tensor '%s': %s %s cannot be used", name,
                           pii_dtype_name(t->dtype), e == PII_EDTYPE ? "weights" : "layout");
    return PII_OK;
}

/* Expert stack [E][rows][cols] viewed as expert 0 in `layout`, columns
 * [c0, c0+cn). */
static pii_err experts(binder *b, const pii_rt_tensor *t, pii_rt_layout layout, uint32_t c0,
                       uint32_t cn, pii_rt_mat *out, size_t *estride)
{
    pii_err e = pii_rt_mat_view(out, t, layout, 0, c0, cn);
    if (e)
        return pii_pf_fail(b->errbuf, b->cap, e, t->file,
                           "tensor '%s': %s expert weights cannot be used", t->name,
                           pii_dtype_name(t->dtype));
    *estride = (size_t)t->shape[1] * out->ld;
    return PII_OK;
}

static size_t arena_floats(const pii_model_config *c)
{
    size_t D = (size_t)c->d_model, H = (size_t)c->n_heads, hd = (size_t)c->head_dim;
    size_t kv = (size_t)c->n_kv_heads * hd, E = (size_t)c->n_experts, I = (size_t)c->d_expert;
    size_t per = 2 * D + H * hd + 2 * kv + D + H + E + E * 2 * I + E * D;
    return per * (size_t)c->n_layers + D + (size_t)c->n_labels;
}

/* The expert stacks of layer L in the HF orientation (also opf's):
 * gate_up [E, D, 2I] (gate = columns [0, I), up = [I, 2I)) with bias
 * [E, 2I], down [E, I, D] with bias [E, D].  names: gate_up, its bias,
 * down, its bias.  quant != 0: the project's quantized panels may replace
 * the weights (HF names only). */
static pii_err bind_experts(binder *b, int L, pf_layer *l, const char *const names[4], int quant)
{
    pii_model *m = b->m;
    const pii_model_config *c = &m->cfg;
    const int64_t D = c->d_model, E = c->n_experts, I = c->d_expert;
    pii_err e;
    const pii_rt_tensor *t;
    int64_t gu[3] = {E, D, 2 * I}, gub[2] = {E, 2 * I}, dn[3] = {E, I, D}, dnb[2] = {E, D};
    int qx = quant ? pii_pf_quant_experts(m->store, L, c, l, &e, b->errbuf, b->cap) : 0;
    if (qx < 0)
        return e;
    if ((!qx && ((e = need(b, names[0], 3, gu, &t)) ||
                 (e = experts(b, t, PII_RT_IO, 0, (uint32_t)I, &l->gate, &l->gate_es)) ||
                 (e = experts(b, t, PII_RT_IO, (uint32_t)I, (uint32_t)I, &l->up, &l->up_es)))) ||
        (e = need(b, names[1], 2, gub, &t)))
        return e;
    /* the bias rows [E][2I] as stored: gate = columns [0, I), up = [I, 2I) */
    if ((e = vec(b, t, 0, (size_t)E, 0, 2 * (size_t)I, &l->bgate)))
        return e;
    l->bup = l->bgate + I;
    l->bgu_es = 2 * (size_t)I;
    /* float experts: gate|up also as one D -> 2I matrix, so a pass with
     * few rows per expert streams each expert's block once, in order */
    if (!qx) {
        const pii_rt_tensor *gt;
        if ((e = need(b, names[0], 3, gu, &gt)))
            return e;
        l->fused = pii_rt_mat_view(&l->gu, gt, PII_RT_IO, 0, 0, 2 * (uint32_t)I) == PII_OK;
    }
    if ((!qx && ((e = need(b, names[2], 3, dn, &t)) ||
                 (e = experts(b, t, PII_RT_IO, 0, 0, &l->down, &l->down_es)))) ||
        (e = need(b, names[3], 2, dnb, &t)) ||
        (e = vec(b, t, 0, (size_t)E, 0, (size_t)D, &l->bdown)))
        return e;
    return PII_OK;
}

/* The tensor names of each layout (docs/FORMATS.md has the mapping): the
 * per-layer names are printf formats of the layer number.  wq == NULL: the
 * layout fuses q, k and v into one tensor (opf's qkv), which its binder
 * views itself.  experts: the HF-oriented stacks (bind_experts) or NULL
 * (GGUF's separate gate/up/down stacks, bound by bind_gguf_experts). */
typedef struct layout_names {
    const char *ln_attn, *wq, *bq, *wk, *bk, *wv, *bv, *wo, *bo, *sinks, *ln_moe, *router, *brouter;
    const char *experts[4]; /* gate_up, its bias, down, its bias */
    int quant_experts;      /* the project's quantized expert panels may replace them */
    const char *ln_final, *score, *bscore, *embed; /* bscore: optional */
} layout_names;

static const layout_names names_hf = {
    "model.layers.%d.input_layernorm.weight",
    "model.layers.%d.self_attn.q_proj.weight",
    "model.layers.%d.self_attn.q_proj.bias",
    "model.layers.%d.self_attn.k_proj.weight",
    "model.layers.%d.self_attn.k_proj.bias",
    "model.layers.%d.self_attn.v_proj.weight",
    "model.layers.%d.self_attn.v_proj.bias",
    "model.layers.%d.self_attn.o_proj.weight",
    "model.layers.%d.self_attn.o_proj.bias",
    "model.layers.%d.self_attn.sinks",
    "model.layers.%d.post_attention_layernorm.weight",
    "model.layers.%d.mlp.router.weight",
    "model.layers.%d.mlp.router.bias",
    {"model.layers.%d.mlp.experts.gate_up_proj", "model.layers.%d.mlp.experts.gate_up_proj_bias",
     "model.layers.%d.mlp.experts.down_proj", "model.layers.%d.mlp.experts.down_proj_bias"},
    1,
    "model.norm.weight",
    "score.weight",
    "score.bias",
    "model.embed_tokens.weight",
};

static const layout_names names_gguf = {
    "blk.%d.attn_norm.weight",
    "blk.%d.attn_q.weight",
    "blk.%d.attn_q.bias",
    "blk.%d.attn_k.weight",
    "blk.%d.attn_k.bias",
    "blk.%d.attn_v.weight",
    "blk.%d.attn_v.bias",
    "blk.%d.attn_output.weight",
    "blk.%d.attn_output.bias",
    "blk.%d.attn_sinks.weight",
    "blk.%d.post_attention_norm.weight",
    "blk.%d.ffn_gate_inp.weight",
    "blk.%d.ffn_gate_inp.bias",
    {NULL, NULL, NULL, NULL},
    0,
    "output_norm.weight",
    "cls.output.weight",
    "cls.output.bias",
    "token_embd.weight",
};

static const layout_names names_opf = {
    "block.%d.attn.norm.scale",
    NULL, /* block.%d.attn.qkv.weight and .bias: bind_opf_qkv */
    NULL,
    NULL,
    NULL,
    NULL,
    NULL,
    "block.%d.attn.out.weight",
    "block.%d.attn.out.bias",
    "block.%d.attn.sinks",
    "block.%d.mlp.norm.scale",
    "block.%d.mlp.gate.weight",
    "block.%d.mlp.gate.bias",
    {"block.%d.mlp.swiglu.weight", "block.%d.mlp.swiglu.bias", "block.%d.mlp.out.weight",
     "block.%d.mlp.out.bias"},
    0,
    "norm.scale",
    "unembedding.weight",
    "unembedding.bias",
    "embedding.weight",
};

/* The name of a per-layer tensor (fmt has one %d). */
static const char *lname(char *buf, size_t cap, const char *fmt, int L)
{
    snprintf(buf, cap, fmt, L);
    return buf;
}

/* opf's fused qkv: rows [0, H hd) are q, then k, then v; three zero-copy
 * views at row offsets, the bias split likewise. */
static pii_err bind_opf_qkv(binder *b, int L, pf_layer *l)
{
    const pii_model_config *c = &b->m->cfg;
    const int64_t D = c->d_model, Q = (int64_t)c->n_heads * c->head_dim,
                  KV = (int64_t)c->n_kv_heads * c->head_dim;
    char nm[256];
    const pii_rt_tensor *t;
    int64_t qkv[2] = {Q + 2 * KV, D}, qkvb = Q + 2 * KV;
    pii_rt_mat all;
    pii_err e;
    if ((e = need(b, lname(nm, sizeof nm, "block.%d.attn.qkv.weight", L), 2, qkv, &t)))
        return e;
    if ((e = pii_rt_mat_view(&all, t, PII_RT_OI, 0, 0, 0)))
        return pii_pf_fail(b->errbuf, b->cap, e, t->file, "tensor '%s': %s weights cannot be used",
                           t->name, pii_dtype_name(t->dtype));
    l->wq = pii_rt_mat_offset(&all, 0);
    l->wq.n_out = (uint32_t)Q;
    l->wk = pii_rt_mat_offset(&all, (size_t)Q * all.ld);
    l->wk.n_out = (uint32_t)KV;
    l->wv = pii_rt_mat_offset(&all, (size_t)(Q + KV) * all.ld);
    l->wv.n_out = (uint32_t)KV;
    if ((e = need(b, lname(nm, sizeof nm, "block.%d.attn.qkv.bias", L), 1, &qkvb, &t)) ||
        (e = vec(b, t, 0, 1, 0, (size_t)Q, &l->bq)) ||
        (e = vec(b, t, 0, 1, (size_t)Q, (size_t)KV, &l->bk)) ||
        (e = vec(b, t, 0, 1, (size_t)(Q + KV), (size_t)KV, &l->bv)))
        return e;
    return PII_OK;
}

/* GGUF's expert stacks: gate and up [E, I, D] and down [E, D, I] in the
 * out x in orientation, each with its bias. */
static pii_err bind_gguf_experts(binder *b, int L, pf_layer *l)
{
    const pii_model_config *c = &b->m->cfg;
    const int64_t D = c->d_model, E = c->n_experts, I = c->d_expert;
    int64_t g[3] = {E, I, D}, gb[2] = {E, I}, dn[3] = {E, D, I}, dnb[2] = {E, D};
    char nm[256];
    const pii_rt_tensor *t;
    pii_err e;
#define N(s) lname(nm, sizeof nm, "blk.%d." s, L)
    if ((e = need(b, N("ffn_gate_exps.weight"), 3, g, &t)) ||
        (e = experts(b, t, PII_RT_OI, 0, 0, &l->gate, &l->gate_es)) ||
        (e = need(b, N("ffn_up_exps.weight"), 3, g, &t)) ||
        (e = experts(b, t, PII_RT_OI, 0, 0, &l->up, &l->up_es)) ||
        (e = need(b, N("ffn_down_exps.weight"), 3, dn, &t)) ||
        (e = experts(b, t, PII_RT_OI, 0, 0, &l->down, &l->down_es)) ||
        (e = need(b, N("ffn_gate_exps.bias"), 2, gb, &t)) ||
        (e = vec(b, t, 0, (size_t)E, 0, (size_t)I, &l->bgate)) ||
        (e = need(b, N("ffn_up_exps.bias"), 2, gb, &t)) ||
        (e = vec(b, t, 0, (size_t)E, 0, (size_t)I, &l->bup)) ||
        (e = need(b, N("ffn_down_exps.bias"), 2, dnb, &t)) ||
        (e = vec(b, t, 0, (size_t)E, 0, (size_t)D, &l->bdown)))
        return e;
#undef N
    l->bgu_es = (size_t)I;
    return PII_OK;
}

/* One layer of any layout, in the order the tensors are checked: the
 * attention norm, q/k/v, the output projection, the sinks, the MoE norm,
 * the router, the experts. */
static pii_err bind_layer(binder *b, const layout_names *n, int L)
{
    pii_model *m = b->m;
    const pii_model_config *c = &m->cfg;
    const int64_t D = c->d_model, Q = (int64_t)c->n_heads * c->head_dim,
                  KV = (int64_t)c->n_kv_heads * c->head_dim, H = c->n_heads, E = c->n_experts;
    pf_layer *l = &m->layers[L];
    char nm[256];
    pii_err e;
#define N(f) lname(nm, sizeof nm, n->f, L)
    if ((e = vec1(b, N(ln_attn), D, &l->ln_attn)))
        return e;
    if (!n->wq) {
        if ((e = bind_opf_qkv(b, L, l)))
            return e;
    } else if ((e = mat(b, N(wq), Q, D, &l->wq)) || (e = vec1(b, N(bq), Q, &l->bq)) ||
               (e = mat(b, N(wk), KV, D, &l->wk)) || (e = vec1(b, N(bk), KV, &l->bk)) ||
               (e = mat(b, N(wv), KV, D, &l->wv)) || (e = vec1(b, N(bv), KV, &l->bv))) {
        return e;
    }
    if ((e = mat(b, N(wo), D, Q, &l->wo)) || (e = vec1(b, N(bo), D, &l->bo)) ||
        (e = vec1(b, N(sinks), H, &l->sinks)))
        return e;
    if (n == &names_opf) { /* opf's sinks are in log2 units */
        float *sk = b->arena + (l->sinks - b->arena);
        for (int64_t h = 0; h < H; h++)
            sk[h] = pii_pf_opf_sink(sk[h]);
    }
    if ((e = vec1(b, N(ln_moe), D, &l->ln_moe)) || (e = mat(b, N(router), E, D, &l->router)) ||
        (e = vec1(b, N(brouter), E, &l->brouter)))
        return e;
#undef N
    if (!n->experts[0])
        return bind_gguf_experts(b, L, l);
    char nb[4][256];
    const char *nms[4];
    for (int k = 0; k < 4; k++)
        nms[k] = lname(nb[k], sizeof nb[k], n->experts[k], L);
    return bind_experts(b, L, l, nms, n->quant_experts);
}

/* The final norm and the classification head (its bias optional). */
static pii_err bind_head(binder *b, const layout_names *n)
{
    pii_model *m = b->m;
    const pii_model_config *c = &m->cfg;
    pii_err e;
    if ((e = vec1(b, n->ln_final, c->d_model, &m->ln_final)) ||
        (e = mat(b, n->score, c->n_labels, c->d_model, &m->score)))
        return e;
    m->bscore = NULL; /* the native heads have no bias */
    if (pii_rt_store_find(m->store, n->bscore) && (e = vec1(b, n->bscore, c->n_labels, &m->bscore)))
        return e;
    return PII_OK;
}

/* The embedding [V, D], or HF's compact one: [rows, D] with a row map
 * [V] of I32 row numbers (the project's own size-reduced default model). */
static pii_err bind_embedding(binder *b, const layout_names *n)
{
    pii_model *m = b->m;
    const pii_model_config *c = &m->cfg;
    const int64_t D = c->d_model, V = c->vocab_size;
    const pii_rt_tensor *emb = pii_rt_store_find(m->store, n->embed);
    const pii_rt_tensor *rm =
        n == &names_hf ? pii_rt_store_find(m->store, "model.embed_tokens.row_map") : NULL;
    if (rm) {
        if (!emb)
            return pii_pf_fail(b->errbuf, b->cap, PII_ENOTFOUND, b->fname, "tensor '%s' is missing",
                               n->embed);
        if (rm->dtype != PII_DT_I32 || rm->ndim != 1 || rm->shape[0] != V)
            return pii_pf_fail(b->errbuf, b->cap, PII_ESHAPE, rm->file,
                               "tensor 'model.embed_tokens.row_map' must be I32 [%lld]",
                               (long long)V);
        if (emb->ndim != 2 || emb->shape[1] != D || emb->shape[0] < 1)
            return pii_pf_fail(b->errbuf, b->cap, PII_ESHAPE, emb->file,
                               "tensor '%s' must be [rows, %lld]", n->embed, (long long)D);
        for (int64_t i = 0; i < V; i++) {
            int32_t r;
            memcpy(&r, (const uint8_t *)rm->data + 4 * i, 4);
            if (r < 0 || r >= emb->shape[0])
                return pii_pf_fail(
                    b->errbuf, b->cap, PII_ERANGE, rm->file,
                    "tensor 'model.embed_tokens.row_map': entry %lld = %d outside [0, %lld)",
                    (long long)i, r, (long long)emb->shape[0]);
        }
        m->row_map = rm->data;
        m->embed = emb;
        return PII_OK;
    }
    int64_t sh[2] = {V, D};
    return need(b, n->embed, 2, sh, &m->embed);
}

static pii_err bind_layout(binder *b, const layout_names *n)
{
    pii_err e;
    if (n == &names_opf && (pii_rt_store_find(b->m->store, "block.0.mlp.swiglu.blocks") ||
                            pii_rt_store_find(b->m->store, "block.0.mlp.mlp1_weight.blocks")))
        return pii_pf_fail(b->errbuf, b->cap, PII_EUNSUPPORTED, b->fname,
                           "MXFP4 expert weights (.blocks/.scales) are not supported; use the "
                           "bf16 checkpoint");
    for (int L = 0; L < b->m->cfg.n_layers; L++)
        if ((e = bind_layer(b, n, L)))
            return e;
    if ((e = bind_head(b, n)))
        return e;
    return bind_embedding(b, n);
}

float pii_pf_opf_sink(float log2_units)
{
    return (float)((double)log2_units * 0.69314718055994530942);
}

pii_err pii_pf_bind(pii_model *m, char *errbuf, size_t cap)
{
    const pii_model_config *c = &m->cfg;
    binder b = {m, NULL, 0, arena_floats(c), errbuf, cap, pii_rt_store_file(m->store, 0)};
    /* Every arena float is an f32 copy of a stored element: a configuration
     * that needs more than the weights hold is refused before anything is
     * allocated for it (found by tests/fuzz/fuzz_config.c). */
    uint64_t stored = 0;
    for (size_t i = 0; i < pii_rt_store_count(m->store); i++)
        stored += pii_rt_store_at(m->store, i)->nelem;
    if ((uint64_t)b.size > stored)
        return pii_pf_fail(
            errbuf, cap, PII_ESHAPE, b.fname,
            "the configuration needs %zu norm/bias values, the weights hold only %llu "
            "values in all",
            b.size, (unsigned long long)stored);
    m->layers = calloc((size_t)c->n_layers, sizeof *m->layers);
    m->f32 = b.arena = malloc(b.size * sizeof(float));
    if (!m->layers || !m->f32)
        return PII_ENOMEM;
    int gguf = pii_rt_store_format(m->store) == PII_RT_FMT_GGUF;
    if (gguf)
        m->layout = PII_MODEL_GGUF;
    pii_err e = bind_layout(&b, gguf                         ? &names_gguf
                                : m->layout == PII_MODEL_OPF ? &names_opf
                                                             : &names_hf);
    if (e)
        return e;
    if (gguf && !m->params.gguf_q8_0_exact && m->layers[0].gate.dtype == PII_DT_Q8_0 &&
        (e = pii_pf_quant_repack_q8_0(m->store, c, m->layers, errbuf, cap)))
        return e;
    const pii_rt_tensor *emb = m->embed;
    if (!float_dtype(emb->dtype))
        return pii_pf_fail(errbuf, cap, PII_EDTYPE, emb->file, "tensor '%s': dtype %s not allowed",
                           emb->name, pii_dtype_name(emb->dtype));
    pii_err de;
    m->embed_row_bytes =
        (size_t)pii_dtype_nbytes(emb->dtype, (uint64_t)c->d_model, (uint64_t)c->d_model, &de);
    if (c->head_dim / 2 > (int)(sizeof m->omega / sizeof m->omega[0]))
        return PII_EINTERNAL;
    pii_rt_rope_freqs(&c->rope, c->head_dim, m->omega, &m->mscale);
    return PII_OK;
}

/* ---- loading ------------------------------------------------------------------ */

static pii_err read_text(const char *path, char **out, size_t *len, char *errbuf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return pii_pf_fail(errbuf, cap, errno == ENOENT ? PII_ENOTFOUND : PII_EIO, path, "%s",
                           strerror(errno));
    pii_err e = pii_file_read_all(f, (size_t)1 << 24, out, len);
    fclose(f);
    if (e == PII_ETOOBIG)
        return pii_pf_fail(errbuf, cap, e, path, "larger than 16 MiB");
    if (e == PII_EIO)
        return pii_pf_fail(errbuf, cap, e, path, "read error");
    return e;
}

static pii_model *finish(pii_model *m, pii_err e, pii_err *err)
{
    if (e) {
        pii_model_free(m);
        m = NULL;
    }
    *err = e;
    return m;
}

/* The start of a load: clears errbuf; the model and its execution plan;
 * NULL with *e set. */
static pii_model *model_new(const pii_model_params *p, pii_err *e, char *errbuf, size_t cap)
{
    if (errbuf && cap)
        errbuf[0] = 0;
    pii_model *m = calloc(1, sizeof *m);
    if (!m) {
        *e = PII_ENOMEM;
        return NULL;
    }
    if (p)
        m->params = *p;
    else
        pii_model_default_params(&m->params);
    if ((*e = pii_rt_plan_init(&m->plan, m->params.isa, (pii_rt_qact)m->params.qact))) {
        if (errbuf && cap)
            snprintf(errbuf, cap, "kernel plan (isa %d, activations %d): %s", m->params.isa,
                     m->params.qact,
                     *e == PII_EUNSUPPORTED ? "path not supported by this CPU" : "bad value");
        free(m);
        return NULL;
    }
    return m;
}

pii_model *pii_model_load(const char *path, const pii_model_params *p, pii_err *err, char *errbuf,
                          size_t cap)
{
    pii_err e0;
    pii_model *m = model_new(p, &e0, errbuf, cap);
    if (!m)
        return finish(NULL, e0, err);
    struct stat st;
    if (!path || stat(path, &st) != 0)
        return finish(m,
                      pii_pf_fail(errbuf, cap, PII_ENOTFOUND, path ? path : "(null)", "%s",
                                  path ? strerror(errno) : "no path"),
                      err);
    pii_err e;
    if (S_ISDIR(st.st_mode)) {
        /* opf's download (and the HF repo's original/ folder): a directory
         * with no config.json of its own but an original/config.json */
        size_t pl = strlen(path);
        char *probe = malloc(pl + 32);
        if (!probe)
            return finish(m, PII_ENOMEM, err);
        snprintf(probe, pl + 32, "%s/config.json", path);
        int top = access(probe, F_OK) == 0;
        snprintf(probe, pl + 32, "%s/original/config.json", path);
        if (!top && access(probe, F_OK) == 0) {
            probe[pl + 9] = 0; /* "<path>/original" */
            m->dir = probe;
            path = m->dir;
        } else {
            free(probe);
            m->dir = strdup(path);
        }
    } else {
        const char *sl = strrchr(path, '/');
        m->dir = sl ? strndup(path, (size_t)(sl - path) + (sl == path)) : strdup(".");
    }
    if (!m->dir)
        return finish(m, PII_ENOMEM, err);
    if ((e = pii_rt_store_open(path, &m->store, errbuf, cap)))
        return finish(m, e, err);
    const char *f0 = pii_rt_store_file(m->store, 0);
    if (pii_rt_store_format(m->store) == PII_RT_FMT_GGUF) {
        e = pii_pf_config_gguf(m->store, &m->cfg, &m->labels, f0, errbuf, cap);
    } else {
        size_t dl = strlen(m->dir);
        char *cp = malloc(dl + 16);
        char *txt = NULL;
        size_t len = 0;
        if (!cp)
            return finish(m, PII_ENOMEM, err);
        snprintf(cp, dl + 16, "%s/config.json", m->dir);
        e = read_text(cp, &txt, &len, errbuf, cap);
        int opf = 0;
        if (!e)
            e = pii_pf_config_json(txt, len, &m->cfg, &m->labels, &opf, cp, errbuf, cap);
        m->layout = opf ? PII_MODEL_OPF : PII_MODEL_HF;
        free(txt);
        free(cp);
    }
    if (!e)
        e = pii_pf_bind(m, errbuf, cap);
    return finish(m, e, err);
}

pii_model *pii_model_load_mem(const char *config_json, size_t config_len, const void *st,
                              size_t st_len, const pii_model_params *p, pii_err *err, char *errbuf,
                              size_t cap)
{
    pii_err e0;
    pii_model *m = model_new(p, &e0, errbuf, cap);
    if (!m)
        return finish(NULL, e0, err);
    pii_err e = pii_rt_store_open_mem(st, st_len, "<embedded model>", &m->store, errbuf, cap);
    if (e)
        return finish(m, e, err);
    int opf = 0;
    if (config_json)
        e = pii_pf_config_json(config_json, config_len, &m->cfg, &m->labels, &opf,
                               "<embedded config.json>", errbuf, cap);
    else if (pii_rt_store_format(m->store) == PII_RT_FMT_GGUF)
        e = pii_pf_config_gguf(m->store, &m->cfg, &m->labels, "<embedded model>", errbuf, cap);
    else
        e = pii_pf_fail(errbuf, cap, PII_EINVAL, "<embedded model>", "no config.json given");
    m->layout = opf ? PII_MODEL_OPF : PII_MODEL_HF;
    if (!e)
        e = pii_pf_bind(m, errbuf, cap);
    return finish(m, e, err);
}

void pii_model_free(pii_model *m)
{
    if (!m)
        return;
    pii_pf_labels_free(m->labels, m->labels ? m->cfg.n_labels : 0);
    for (int L = 0; m->layers && L < m->cfg.n_layers; L++)
        free(m->layers[L].qbuf);
    free(m->layers);
    free(m->f32);
    free(m->dir);
    pii_rt_store_free(m->store);
    free(m);
}

/* ---- accessors ------------------------------------------------------------------ */

const pii_model_config *pii_model_cfg(const pii_model *m)
{
    return &m->cfg;
}

const char *pii_model_label(const pii_model *m, int id)
{
    return id >= 0 && id < m->cfg.n_labels ? m->labels[id] : NULL;
}

const pii_rt_store *pii_model_store(const pii_model *m)
{
    return m->store;
}

const char *pii_model_dir(const pii_model *m)
{
    return m->dir;
}

pii_model_layout pii_model_layout_of(const pii_model *m)
{
    return (pii_model_layout)m->layout;
}

const char *pii_model_layout_name(pii_model_layout l)
{
    switch (l) {
    case PII_MODEL_HF:
        return "Hugging Face";
    case PII_MODEL_GGUF:
        return "GGUF (LocalAI)";
    case PII_MODEL_OPF:
        return "OpenAI opf native";
    }
    return "?";
}

uint64_t pii_model_nparams(const pii_model *m)
{
    uint64_t n = 0;
    for (size_t i = 0; i < pii_rt_store_count(m->store); i++) {
        const pii_rt_tensor *t = pii_rt_store_at(m->store, i);
        if (!m->row_map || strcmp(t->name, "model.embed_tokens.row_map"))
            n += t->nelem;
    }
    return n;
}

pii_dtype pii_model_expert_dtype(const pii_model *m)
{
    return m->layers[0].gate.dtype;
}

double pii_model_flops_per_token(const pii_model *m, size_t n)
{
    const pii_model_config *c = &m->cfg;
    double D = c->d_model, qw = (double)c->n_heads * c->head_dim,
           kw = (double)c->n_kv_heads * c->head_dim, I = c->d_expert;
    double keys = 2.0 * c->window + 1;
    if (n && (double)n < keys)
        keys = (double)n;
    double per_layer = 2 * D * (qw + 2 * kw) + 2 * qw * D /* projections */
                       + 2 * 2 * keys * qw                /* scores and P.V over the band */
                       + 2 * D * c->n_experts             /* router */
                       + (double)c->top_k * (2 * D * 2 * I + 2 * I * D);
    return per_layer * c->n_layers + 2 * D * c->n_labels;
}
