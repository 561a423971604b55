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

static pii_err bind_hf(binder *b)
{
    pii_model *m = b->m;
    const pii_model_config *c = &m->cfg;
    const int64_t D = c->d_model, H = c->n_heads, hd = c->head_dim, KV = c->n_kv_heads * hd,
                  E = c->n_experts, C = c->n_labels, V = c->vocab_size;
    pii_err e;
    char nm[256];
    for (int L = 0; L < c->n_layers; L++) {
        pf_layer *l = &m->layers[L];
#define N(s) (snprintf(nm, sizeof nm, "model.layers.%d.%s", L, s), nm)
        if ((e = vec1(b, N("input_layernorm.weight"), D, &l->ln_attn)) ||
            (e = mat(b, N("self_attn.q_proj.weight"), H * hd, D, &l->wq)) ||
            (e = vec1(b, N("self_attn.q_proj.bias"), H * hd, &l->bq)) ||
            (e = mat(b, N("self_attn.k_proj.weight"), KV, D, &l->wk)) ||
            (e = vec1(b, N("self_attn.k_proj.bias"), KV, &l->bk)) ||
            (e = mat(b, N("self_attn.v_proj.weight"), KV, D, &l->wv)) ||
            (e = vec1(b, N("self_attn.v_proj.bias"), KV, &l->bv)) ||
            (e = mat(b, N("self_attn.o_proj.weight"), D, H * hd, &l->wo)) ||
            (e = vec1(b, N("self_attn.o_proj.bias"), D, &l->bo)) ||
            (e = vec1(b, N("self_attn.sinks"), H, &l->sinks)) ||
            (e = vec1(b, N("post_attention_layernorm.weight"), D, &l->ln_moe)) ||
            (e = mat(b, N("mlp.router.weight"), E, D, &l->router)) ||
            (e = vec1(b, N("mlp.router.bias"), E, &l->brouter)))
            return e;
        const char *nms[4];
        char nb[4][200];
        static const char *const parts[4] = {"mlp.experts.gate_up_proj",
                                             "mlp.experts.gate_up_proj_bias",
                                             "mlp.experts.down_proj", "mlp.experts.down_proj_bias"};
        for (int k = 0; k < 4; k++) {
            snprintf(nb[k], sizeof nb[k], "model.layers.%d.%s", L, parts[k]);
            nms[k] = nb[k];
        }
        if ((e = bind_experts(b, L, l, nms, 1)))
            return e;
#undef N
    }
    if ((e = vec1(b, "model.norm.weight", D, &m->ln_final)) ||
        (e = mat(b, "score.weight", C, D, &m->score)))
        return e;
    if (pii_rt_store_find(m->store, "score.bias")) {
        if ((e = vec1(b, "score.bias", C, &m->bscore)))
            return e;
    } else {
        m->bscore = NULL; /* the native head has no bias */
    }
    /* embedding, with the optional compact row map */
    const pii_rt_tensor *emb = pii_rt_store_find(m->store, "model.embed_tokens.weight");
    const pii_rt_tensor *rm = pii_rt_store_find(m->store, "model.embed_tokens.row_map");
    if (!emb)
        return pii_pf_fail(b->errbuf, b->cap, PII_ENOTFOUND, b->fname,
                           "tensor 'model.embed_tokens.weight' is missing");
    if (rm) {
        if (rm->dtype != PII_DT_I32 || rm->ndim != 1 || rm->shape[0] != V)
            return pii_pf_fail(b->errbuf, b->cap, PII_ESHAPE, rm->file,
                               "tensor 'model.embed_tokens.row_map' must be I32 [%lld]",
                               (long long)V);
        if (emb->ndim != 2 || emb->shape[1] != D || emb->shape[0] < 1)
            return pii_pf_fail(b->errbuf, b->cap, PII_ESHAPE, emb->file,
                               "tensor 'model.embed_tokens.weight' must be [rows, %lld]",
                               (long long)D);
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
    } else {
        int64_t sh[2] = {V, D};
        if ((e = need(b, "model.embed_tokens.weight", 2, sh, &emb)))
            return e;
    }
    m->embed = emb;
    return PII_OK;
}

static pii_err bind_gguf(binder *b)
{
    pii_model *m = b->m;
    const pii_model_config *c = &m->cfg;
    const int64_t D = c->d_model, H = c->n_heads, hd = c->head_dim, KV = c->n_kv_heads * hd,
                  E = c->n_experts, I = c->d_expert, C = c->n_labels, V = c->vocab_size;
    pii_err e;
    char nm[256];
    for (int L = 0; L < c->n_layers; L++) {
        pf_layer *l = &m->layers[L];
#define N(s) (snprintf(nm, sizeof nm, "blk.%d.%s", L, s), nm)
        if ((e = vec1(b, N("attn_norm.weight"), D, &l->ln_attn)) ||
            (e = mat(b, N("attn_q.weight"), H * hd, D, &l->wq)) ||
            (e = vec1(b, N("attn_q.bias"), H * hd, &l->bq)) ||
            (e = mat(b, N("attn_k.weight"), KV, D, &l->wk)) ||
            (e = vec1(b, N("attn_k.bias"), KV, &l->bk)) ||
            (e = mat(b, N("attn_v.weight"), KV, D, &l->wv)) ||
            (e = vec1(b, N("attn_v.bias"), KV, &l->bv)) ||
            (e = mat(b, N("attn_output.weight"), D, H * hd, &l->wo)) ||
            (e = vec1(b, N("attn_output.bias"), D, &l->bo)) ||
            (e = vec1(b, N("attn_sinks.weight"), H, &l->sinks)) ||
            (e = vec1(b, N("post_attention_norm.weight"), D, &l->ln_moe)) ||
            (e = mat(b, N("ffn_gate_inp.weight"), E, D, &l->router)) ||
            (e = vec1(b, N("ffn_gate_inp.bias"), E, &l->brouter)))
            return e;
        const pii_rt_tensor *t;
        int64_t g[3] = {E, I, D}, gb[2] = {E, I}, dn[3] = {E, D, I}, dnb[2] = {E, D};
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
        l->bgu_es = (size_t)I;
#undef N
    }
    if ((e = vec1(b, "output_norm.weight", D, &m->ln_final)) ||
        (e = mat(b, "cls.output.weight", C, D, &m->score)))
        return e;
    m->bscore = NULL;
    if (pii_rt_store_find(m->store, "cls.output.bias") &&
        (e = vec1(b, "cls.output.bias", C, &m->bscore)))
        return e;
    int64_t sh[2] = {V, D};
    return need(b, "token_embd.weight", 2, sh, &m->embed);
}

/* OpenAI opf's native checkpoint (docs/FORMATS.md has the mapping table):
 * the fused qkv rows are three zero-copy views, the sinks are converted
 * from log2 to natural-log units (x ln 2, as the HF converter does). */
static pii_err bind_opf(binder *b)
{
    pii_model *m = b->m;
    const pii_model_config *c = &m->cfg;
    const int64_t D = c->d_model, H = c->n_heads, hd = c->head_dim, KV = c->n_kv_heads * hd,
                  E = c->n_experts, C = c->n_labels, V = c->vocab_size;
    pii_err e;
    char nm[256];
    if (pii_rt_store_find(m->store, "block.0.mlp.swiglu.blocks") ||
        pii_rt_store_find(m->store, "block.0.mlp.mlp1_weight.blocks"))
        return pii_pf_fail(b->errbuf, b->cap, PII_EUNSUPPORTED, b->fname,
                           "MXFP4 expert weights (.blocks/.scales) are not supported; use the "
                           "bf16 checkpoint");
    for (int L = 0; L < c->n_layers; L++) {
        pf_layer *l = &m->layers[L];
#define N(s) (snprintf(nm, sizeof nm, "block.%d.%s", L, s), nm)
        const pii_rt_tensor *t;
        int64_t qkv[2] = {H * hd + 2 * KV, D}, qkvb = H * hd + 2 * KV;
        pii_rt_mat all;
        if ((e = vec1(b, N("attn.norm.scale"), D, &l->ln_attn)) ||
            (e = need(b, N("attn.qkv.weight"), 2, qkv, &t)))
            return e;
        if ((e = pii_rt_mat_view(&all, t, PII_RT_OI, 0, 0, 0)))
            return pii_pf_fail(b->errbuf, b->cap, e, t->file,
                               "tensor '%s': %s weights cannot be used", t->name,
                               pii_dtype_name(t->dtype));
        /* rows [0, H hd) are q, then k, then v: views at row offsets */
        l->wq = pii_rt_mat_offset(&all, 0);
        l->wq.n_out = (uint32_t)(H * hd);
        l->wk = pii_rt_mat_offset(&all, (size_t)(H * hd) * all.ld);
        l->wk.n_out = (uint32_t)KV;
        l->wv = pii_rt_mat_offset(&all, (size_t)(H * hd + KV) * all.ld);
        l->wv.n_out = (uint32_t)KV;
        if ((e = need(b, N("attn.qkv.bias"), 1, &qkvb, &t)) ||
            (e = vec(b, t, 0, 1, 0, (size_t)(H * hd), &l->bq)) ||
            (e = vec(b, t, 0, 1, (size_t)(H * hd), (size_t)KV, &l->bk)) ||
            (e = vec(b, t, 0, 1, (size_t)(H * hd + KV), (size_t)KV, &l->bv)) ||
            (e = mat(b, N("attn.out.weight"), D, H * hd, &l->wo)) ||
            (e = vec1(b, N("attn.out.bias"), D, &l->bo)) ||
            (e = vec1(b, N("attn.sinks"), H, &l->sinks)))
            return e;
        float *sk = b->arena + (l->sinks - b->arena);
        for (int64_t h = 0; h < H; h++)
            sk[h] = pii_pf_opf_sink(sk[h]);
        if ((e = vec1(b, N("mlp.norm.scale"), D, &l->ln_moe)) ||
            (e = mat(b, N("mlp.gate.weight"), E, D, &l->router)) ||
            (e = vec1(b, N("mlp.gate.bias"), E, &l->brouter)))
            return e;
        const char *nms[4];
        char nb[4][200];
        static const char *const parts[4] = {"mlp.swiglu.weight", "mlp.swiglu.bias",
                                             "mlp.out.weight", "mlp.out.bias"};
        for (int k = 0; k < 4; k++) {
            snprintf(nb[k], sizeof nb[k], "block.%d.%s", L, parts[k]);
            nms[k] = nb[k];
        }
        if ((e = bind_experts(b, L, l, nms, 0)))
            return e;
#undef N
    }
    if ((e = vec1(b, "norm.scale", D, &m->ln_final)) ||
        (e = mat(b, "unembedding.weight", C, D, &m->score)))
        return e;
    m->bscore = NULL; /* the native head has no bias */
    if (pii_rt_store_find(m->store, "unembedding.bias") &&
        (e = vec1(b, "unembedding.bias", C, &m->bscore)))
        return e;
    int64_t sh[2] = {V, D};
    return need(b, "embedding.weight", 2, sh, &m->embed);
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
    pii_err e = gguf ? bind_gguf(&b) : m->layout == PII_MODEL_OPF ? bind_opf(&b) : bind_hf(&b);
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
    size_t n = 0, c = 1 << 14;
    char *b = malloc(c);
    while (b) {
        if (n == c) {
            if (c >= (1u << 24)) {
                free(b);
                fclose(f);
                return pii_pf_fail(errbuf, cap, PII_ETOOBIG, path, "larger than 16 MiB");
            }
            char *nb = realloc(b, c * 2);
            if (!nb) {
                free(b);
                b = NULL;
                break;
            }
            b = nb;
            c *= 2;
        }
        size_t k = fread(b + n, 1, c - n, f);
        n += k;
        if (!k)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (!b)
        return PII_ENOMEM;
    if (bad) {
        free(b);
        return pii_pf_fail(errbuf, cap, PII_EIO, path, "read error");
    }
    *out = b;
    *len = n;
    return PII_OK;
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

/* The model and its execution plan; NULL with *e set. */
static pii_model *model_new(const pii_model_params *p, pii_err *e, char *errbuf, size_t cap)
{
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
    if (errbuf && cap)
        errbuf[0] = 0;
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
    if (errbuf && cap)
        errbuf[0] = 0;
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
