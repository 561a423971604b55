/* synth.c — deterministic random-weight models in the real layouts (HF
 * safetensors + config.json, LocalAI GGUF), streamed to disk.
 *
 * Every value is k * 2^-s with k an integer in [-127, 127] drawn from
 * splitmix64(seed, tensor, index) (counter-based: any element can be
 * computed on its own, which is how the GGUF writer transposes the experts)
 * and s a per-tensor exponent; norm gains are (128 + j) / 128 with
 * j in [-32, 31].  Such values are exact in BF16, F16 and in a Q8_0 block
 * whose scale is 2^-s, so every format holds the same model.  The tensor key
 * is the FNV-1a hash of the HF tensor name.
 *
 * Scales (full-size widths): RMSNorm outputs have rms ~1, so a Linear with
 * weights of std σ over 640 inputs gives outputs of std ~25σ.  q/k/v/o,
 * gate_up, down: s = 11 (σ 0.036 -> ~0.9); router: s = 10 (logits std ~1.8,
 * so the top-4 differ from token to token); score: s = 9; embeddings: s = 7
 * (σ 0.57); biases: s = 10; sinks (f32): s = 6 (|σ_h| <= 2). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "model_internal.h"
#include "pii_rt_write.h"
#include "pii_model_synth.h"

void pii_model_synth_default(pii_model_synth *s)
{
    memset(s, 0, sizeof *s);
    pii_model_config *c = &s->cfg;
    c->vocab_size = 200064;
    c->d_model = 640;
    c->n_layers = 8;
    c->n_heads = 14;
    c->n_kv_heads = 2;
    c->head_dim = 64;
    c->d_expert = 640;
    c->n_experts = 128;
    c->top_k = 4;
    c->window = 128;
    c->n_labels = 33;
    c->pad_id = 199999;
    c->rms_eps = 1e-5f;
    c->swiglu_limit = 7.0f;
    c->swiglu_alpha = 1.702f;
    c->rope = (pii_rt_rope){150000.0, 32.0, 32.0, 1.0, 4096.0, 0.0, 1, 0};
    s->seed = 1;
    s->dtype = PII_DT_BF16;
    s->gguf_experts = PII_DT_F16;
}

/* ---- values ----------------------------------------------------------------------- */

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t fnv(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    while (*s) {
        h ^= (uint8_t)*s++;
        h *= 1099511628211ull;
    }
    return h;
}

enum { K_LINEAR, K_GAIN, K_ZERO };

typedef struct gen {
    uint64_t key;
    int kind;
    int s;       /* exponent */
    float scale; /* 2^-s */
} gen;

static gen gen_for(uint64_t seed, const char *hf_name)
{
    gen g;
    g.key = mix64(seed ^ mix64(fnv(hf_name)));
    g.kind = K_LINEAR;
    g.s = 11;
    if (strstr(hf_name, "layernorm") || !strcmp(hf_name, "model.norm.weight")) {
        g.kind = K_GAIN;
    } else if (strstr(hf_name, "embed_tokens")) {
        g.s = 7;
    } else if (strstr(hf_name, "sinks")) {
        g.s = 6;
    } else if (strstr(hf_name, "router.bias")) {
        g.s = 8;
    } else if (strstr(hf_name, "router")) {
        g.s = 10;
    } else if (!strcmp(hf_name, "score.weight")) {
        g.s = 9;
    } else if (strstr(hf_name, "bias")) {
        g.s = 10;
    }
    g.scale = ldexpf(1.0f, -g.s);
    return g;
}

/* The integer k of element idx (|k| <= 127), and its value. */
static int gen_k(const gen *g, uint64_t idx)
{
    uint64_t h = mix64(g->key + (idx + 1) * 0x9e3779b97f4a7c15ull);
    if (g->kind == K_GAIN)
        return (int)(h % 64) - 32;
    return (int)(h % 255) - 127;
}

static float gen_val(const gen *g, uint64_t idx)
{
    int k = gen_k(g, idx);
    if (g->kind == K_GAIN)
        return (float)(128 + k) / 128.0f;
    return (float)k * g->scale; /* exact: a power of two */
}

/* ---- output helpers ----------------------------------------------------------------- */

typedef pii_err (*sink_fn)(void *w, const void *p, size_t n);

#define CHUNK 65536

typedef struct out {
    sink_fn put;
    void *w;
    uint8_t buf[CHUNK * 4];
    size_t nb;
    pii_err err;
} out;

/* An empty buffer in front of put(w, ...). */
static void out_start(out *o, sink_fn put, void *w)
{
    o->put = put;
    o->w = w;
    o->nb = 0;
    o->err = PII_OK;
}

static void out_flush(out *o)
{
    if (o->nb && !o->err)
        o->err = o->put(o->w, o->buf, o->nb);
    o->nb = 0;
}

static void out_val(out *o, pii_dtype dt, float v)
{
    if (o->nb + 4 > sizeof o->buf)
        out_flush(o);
    if (dt == PII_DT_F32) {
        memcpy(o->buf + o->nb, &v, 4);
        o->nb += 4;
    } else {
        uint16_t h = dt == PII_DT_BF16 ? pii_rt_f32_to_bf16(v) : pii_rt_f32_to_f16(v);
        o->buf[o->nb++] = (uint8_t)h;
        o->buf[o->nb++] = (uint8_t)(h >> 8);
    }
}

static void out_bytes(out *o, const void *p, size_t n)
{
    if (o->nb + n > sizeof o->buf)
        out_flush(o);
    memcpy(o->buf + o->nb, p, n);
    o->nb += n;
}

/* Streams a whole tensor in its HF element order. */
static void emit_plain(out *o, const gen *g, pii_dtype dt, uint64_t nelem)
{
    for (uint64_t i = 0; i < nelem; i++)
        out_val(o, dt, gen_val(g, i));
}

static void emit_zero(out *o, pii_dtype dt, uint64_t nelem)
{
    for (uint64_t i = 0; i < nelem; i++)
        out_val(o, dt, 0.0f);
}

/* ---- HF layout ------------------------------------------------------------------------- */

typedef struct tdesc {
    char name[96];
    int ndim;
    int64_t shape[3];
    pii_dtype dt;
} tdesc;

static void tdesc_shape(tdesc *t, int ndim, int64_t d0, int64_t d1, int64_t d2, pii_dtype dt)
{
    t->ndim = ndim;
    t->shape[0] = d0;
    t->shape[1] = d1;
    t->shape[2] = d2;
    t->dt = dt;
}

static int hf_list(const pii_model_synth *s, tdesc *t)
{
    const pii_model_config *c = &s->cfg;
    const int64_t D = c->d_model, H = c->n_heads, hd = c->head_dim, KV = c->n_kv_heads * hd,
                  E = c->n_experts, I = c->d_expert, C = c->n_labels, V = c->vocab_size;
    int n = 0;
#define T(nd, d0, d1, d2, dty, ...)                                                                \
    do {                                                                                           \
        snprintf(t[n].name, sizeof t[n].name, __VA_ARGS__);                                        \
        tdesc_shape(&t[n++], nd, d0, d1, d2, dty);                                                 \
    } while (0)
    const pii_dtype B = s->dtype;
    T(2, s->embed_rows ? s->embed_rows : V, D, 0, B, "model.embed_tokens.weight");
    if (s->embed_rows)
        T(1, V, 0, 0, PII_DT_I32, "model.embed_tokens.row_map");
    for (int L = 0; L < c->n_layers; L++) {
        T(1, D, 0, 0, B, "model.layers.%d.input_layernorm.weight", L);
        T(2, H * hd, D, 0, B, "model.layers.%d.self_attn.q_proj.weight", L);
        T(1, H * hd, 0, 0, B, "model.layers.%d.self_attn.q_proj.bias", L);
        T(2, KV, D, 0, B, "model.layers.%d.self_attn.k_proj.weight", L);
        T(1, KV, 0, 0, B, "model.layers.%d.self_attn.k_proj.bias", L);
        T(2, KV, D, 0, B, "model.layers.%d.self_attn.v_proj.weight", L);
        T(1, KV, 0, 0, B, "model.layers.%d.self_attn.v_proj.bias", L);
        T(2, D, H * hd, 0, B, "model.layers.%d.self_attn.o_proj.weight", L);
        T(1, D, 0, 0, B, "model.layers.%d.self_attn.o_proj.bias", L);
        T(1, H, 0, 0, PII_DT_F32, "model.layers.%d.self_attn.sinks", L);
        T(1, D, 0, 0, B, "model.layers.%d.post_attention_layernorm.weight", L);
        T(2, E, D, 0, B, "model.layers.%d.mlp.router.weight", L);
        T(1, E, 0, 0, B, "model.layers.%d.mlp.router.bias", L);
        T(3, E, D, 2 * I, B, "model.layers.%d.mlp.experts.gate_up_proj", L);
        T(2, E, 2 * I, 0, B, "model.layers.%d.mlp.experts.gate_up_proj_bias", L);
        T(3, E, I, D, B, "model.layers.%d.mlp.experts.down_proj", L);
        T(2, E, D, 0, B, "model.layers.%d.mlp.experts.down_proj_bias", L);
    }
    T(1, D, 0, 0, B, "model.norm.weight");
    T(2, C, D, 0, B, "score.weight");
    T(1, C, 0, 0, B, "score.bias");
#undef T
    return n;
}

/* A tensor of the file and where its elements come from: the HF tensors
 * src[0..nsrc) in order (opf's fused qkv concatenates three), converted
 * from opf's log2 sink unit to natural log when sink != 0. */
typedef struct sdesc {
    tdesc t;
    char src[3][96];
    uint64_t src_n[3];
    int nsrc;
    int sink;
} sdesc;

static void sd_from(sdesc *d, const tdesc *t)
{
    memset(d, 0, sizeof *d);
    d->t = *t;
    snprintf(d->src[0], sizeof d->src[0], "%s", t->name);
    d->src_n[0] = 1;
    for (int i = 0; i < t->ndim; i++)
        d->src_n[0] *= (uint64_t)t->shape[i];
    d->nsrc = 1;
}

/* OpenAI opf's native names for the same model (docs/FORMATS.md). */
static int opf_list(const pii_model_synth *s, sdesc *d)
{
    const pii_model_config *c = &s->cfg;
    const int64_t D = c->d_model, H = c->n_heads, hd = c->head_dim, KV = c->n_kv_heads * hd,
                  E = c->n_experts, I = c->d_expert, C = c->n_labels, V = c->vocab_size;
    const pii_dtype B = s->dtype;
    int n = 0;
    /* out name, dims, dtype, then 1 or 3 (HF name, elements) sources */
#define O(nd, d0, d1, d2, dty)                                                                     \
    do {                                                                                           \
        memset(&d[n], 0, sizeof d[n]);                                                             \
        d[n].t.ndim = nd;                                                                          \
        d[n].t.shape[0] = d0;                                                                      \
        d[n].t.shape[1] = d1;                                                                      \
        d[n].t.shape[2] = d2;                                                                      \
        d[n].t.dt = dty;                                                                           \
    } while (0)
#define NAME(...) snprintf(d[n].t.name, sizeof d[n].t.name, __VA_ARGS__)
#define SRC(cnt, ...)                                                                              \
    do {                                                                                           \
        snprintf(d[n].src[d[n].nsrc], sizeof d[n].src[0], __VA_ARGS__);                            \
        d[n].src_n[d[n].nsrc++] = (uint64_t)(cnt);                                                 \
    } while (0)
    O(2, V, D, 0, B);
    NAME("embedding.weight");
    SRC(V * D, "model.embed_tokens.weight");
    n++;
    for (int L = 0; L < c->n_layers; L++) {
        O(1, D, 0, 0, B);
        NAME("block.%d.attn.norm.scale", L);
        SRC(D, "model.layers.%d.input_layernorm.weight", L);
        n++;
        O(2, H * hd + 2 * KV, D, 0, B);
        NAME("block.%d.attn.qkv.weight", L);
        SRC(H * hd * D, "model.layers.%d.self_attn.q_proj.weight", L);
        SRC(KV * D, "model.layers.%d.self_attn.k_proj.weight", L);
        SRC(KV * D, "model.layers.%d.self_attn.v_proj.weight", L);
        n++;
        O(1, H * hd + 2 * KV, 0, 0, B);
        NAME("block.%d.attn.qkv.bias", L);
        SRC(H * hd, "model.layers.%d.self_attn.q_proj.bias", L);
        SRC(KV, "model.layers.%d.self_attn.k_proj.bias", L);
        SRC(KV, "model.layers.%d.self_attn.v_proj.bias", L);
        n++;
        O(1, H, 0, 0, PII_DT_F32);
        NAME("block.%d.attn.sinks", L);
        SRC(H, "model.layers.%d.self_attn.sinks", L);
        n++;
        O(2, D, H * hd, 0, B);
        NAME("block.%d.attn.out.weight", L);
        SRC(D * H * hd, "model.layers.%d.self_attn.o_proj.weight", L);
        n++;
        O(1, D, 0, 0, B);
        NAME("block.%d.attn.out.bias", L);
        SRC(D, "model.layers.%d.self_attn.o_proj.bias", L);
        n++;
        O(1, D, 0, 0, B);
        NAME("block.%d.mlp.norm.scale", L);
        SRC(D, "model.layers.%d.post_attention_layernorm.weight", L);
        n++;
        O(2, E, D, 0, B);
        NAME("block.%d.mlp.gate.weight", L);
        SRC(E * D, "model.layers.%d.mlp.router.weight", L);
        n++;
        O(1, E, 0, 0, B);
        NAME("block.%d.mlp.gate.bias", L);
        SRC(E, "model.layers.%d.mlp.router.bias", L);
        n++;
        O(3, E, D, 2 * I, B);
        NAME("block.%d.mlp.swiglu.weight", L);
        SRC(E * D * 2 * I, "model.layers.%d.mlp.experts.gate_up_proj", L);
        n++;
        O(2, E, 2 * I, 0, B);
        NAME("block.%d.mlp.swiglu.bias", L);
        SRC(E * 2 * I, "model.layers.%d.mlp.experts.gate_up_proj_bias", L);
        n++;
        O(3, E, I, D, B);
        NAME("block.%d.mlp.out.weight", L);
        SRC(E * I * D, "model.layers.%d.mlp.experts.down_proj", L);
        n++;
        O(2, E, D, 0, B);
        NAME("block.%d.mlp.out.bias", L);
        SRC(E * D, "model.layers.%d.mlp.experts.down_proj_bias", L);
        n++;
    }
    O(1, D, 0, 0, B);
    NAME("norm.scale");
    SRC(D, "model.norm.weight");
    n++;
    O(2, C, D, 0, B);
    NAME("unembedding.weight");
    SRC(C * D, "score.weight");
    n++;
#undef O
#undef NAME
#undef SRC
    return n;
}

/* transformers' converter: HF sink = native (log2 units) x ln 2 */
static float converted_sink(float native)
{
    return (float)((double)native * 0.69314718055994530942);
}

static uint64_t nelem_of(const tdesc *t)
{
    uint64_t n = 1;
    for (int i = 0; i < t->ndim; i++)
        n *= (uint64_t)t->shape[i];
    return n;
}

static pii_err st_put(void *w, const void *p, size_t n)
{
    return pii_rt_st_writer_data(w, p, n);
}

static pii_err gg_put(void *w, const void *p, size_t n)
{
    return pii_rt_gguf_writer_data(w, p, n);
}

static pii_err check_synth(const pii_model_synth *s, char *errbuf, size_t cap)
{
    const pii_model_config *c = &s->cfg;
    const char *why = NULL;
    if (c->n_layers < 1 || c->n_layers > 256 || c->d_model < 1 || c->d_model > 65536 ||
        c->n_heads < 1 || c->n_kv_heads < 1 || c->n_heads % c->n_kv_heads || c->head_dim < 2 ||
        c->head_dim % 2 || c->head_dim > 256 || c->d_expert < 1 || c->d_expert > 65536 ||
        c->n_experts < 1 || c->n_experts > 4096 || c->top_k < 1 || c->top_k > c->n_experts ||
        c->top_k > 64 || c->vocab_size < 1 || c->vocab_size > (1 << 24) || c->n_labels < 1 ||
        c->n_labels > 65536 || c->window < 0)
        why = "shape parameters out of range";
    else if (s->dtype != PII_DT_F32 && s->dtype != PII_DT_BF16 && s->dtype != PII_DT_F16)
        why = "dtype must be f32, bf16 or f16";
    else if (s->embed_rows < 0 || s->embed_rows > c->vocab_size)
        why = "embed_rows out of range";
    if (why) {
        if (errbuf && cap)
            snprintf(errbuf, cap, "mkmodel: %s", why);
        return PII_EINVAL;
    }
    return PII_OK;
}

/* The torch name of a float dtype of the weights. */
static const char *dtype_name(pii_dtype dt)
{
    return dt == PII_DT_F32 ? "float32" : dt == PII_DT_F16 ? "float16" : "bfloat16";
}

/* "pii_redact_synth": what made the model, the seed and the generator. */
static void add_synth_stamp(json_object *o, uint64_t seed)
{
    json_object *syn = json_object_new_object();
    char num[32];
    snprintf(num, sizeof num, "%llu", (unsigned long long)seed);
    json_object_object_add(syn, "seed", json_object_new_string(num));
    json_object_object_add(syn, "generator", json_object_new_string("pii-redact mkmodel v1"));
    json_object_object_add(o, "pii_redact_synth", syn);
}

static json_object *config_json(const pii_model_synth *s, char **labels)
{
    const pii_model_config *c = &s->cfg;
    json_object *o = json_object_new_object();
    json_object *arch = json_object_new_array();
    json_object_array_add(arch,
                          json_object_new_string("OpenAIPrivacyFilterForTokenClassification"));
    json_object_object_add(o, "architectures", arch);
    json_object_object_add(o, "model_type", json_object_new_string("openai_privacy_filter"));
#define I_(k, v) json_object_object_add(o, k, json_object_new_int64(v))
    I_("vocab_size", c->vocab_size);
    I_("hidden_size", c->d_model);
    I_("num_hidden_layers", c->n_layers);
    I_("num_attention_heads", c->n_heads);
    I_("num_key_value_heads", c->n_kv_heads);
    I_("head_dim", c->head_dim);
    I_("intermediate_size", c->d_expert);
    I_("num_local_experts", c->n_experts);
    I_("num_experts_per_tok", c->top_k);
    I_("sliding_window", c->window);
    I_("max_position_embeddings", 131072);
    if (c->pad_id >= 0 && c->pad_id < c->vocab_size) {
        I_("pad_token_id", c->pad_id);
        I_("eos_token_id", c->pad_id);
    }
#undef I_
    json_object_object_add(o, "attention_bias", json_object_new_boolean(1));
    json_object_object_add(o, "tie_word_embeddings", json_object_new_boolean(0));
    json_object_object_add(o, "rms_norm_eps", json_object_new_double(c->rms_eps));
    json_object *rp = json_object_new_object();
    json_object_object_add(rp, "rope_type",
                           json_object_new_string(c->rope.yarn ? "yarn" : "default"));
    json_object_object_add(rp, "rope_theta", json_object_new_double(c->rope.theta));
    if (c->rope.yarn) {
        json_object_object_add(rp, "factor", json_object_new_double(c->rope.factor));
        json_object_object_add(rp, "beta_fast", json_object_new_double(c->rope.beta_fast));
        json_object_object_add(rp, "beta_slow", json_object_new_double(c->rope.beta_slow));
        json_object_object_add(rp, "truncate", json_object_new_boolean(c->rope.truncate));
        json_object_object_add(rp, "original_max_position_embeddings",
                               json_object_new_int64((int64_t)c->rope.orig_ctx));
    }
    json_object_object_add(o, "rope_parameters", rp);
    json_object_object_add(o, "dtype", json_object_new_string(dtype_name(s->dtype)));
    json_object *id2 = json_object_new_object(), *l2i = json_object_new_object();
    for (int i = 0; i < c->n_labels; i++) {
        char k[16];
        snprintf(k, sizeof k, "%d", i);
        json_object_object_add(id2, k, json_object_new_string(labels[i]));
        json_object_object_add(l2i, labels[i], json_object_new_int(i));
    }
    json_object_object_add(o, "id2label", id2);
    json_object_object_add(o, "label2id", l2i);
    add_synth_stamp(o, s->seed);
    return o;
}

static json_object *config_opf_json(const pii_model_synth *s, char **labels)
{
    const pii_model_config *c = &s->cfg;
    json_object *o = json_object_new_object();
    json_object_object_add(o, "model_type", json_object_new_string("privacy_filter"));
    json_object_object_add(o, "encoding", json_object_new_string("o200k_base"));
#define I_(k, v) json_object_object_add(o, k, json_object_new_int64(v))
#define D_(k, v) json_object_object_add(o, k, json_object_new_double(v))
    I_("num_hidden_layers", c->n_layers);
    I_("num_experts", c->n_experts);
    I_("experts_per_token", c->top_k);
    I_("vocab_size", c->vocab_size);
    I_("num_labels", c->n_labels);
    I_("hidden_size", c->d_model);
    I_("intermediate_size", c->d_expert);
    I_("head_dim", c->head_dim);
    I_("num_attention_heads", c->n_heads);
    I_("num_key_value_heads", c->n_kv_heads);
    I_("sliding_window", 2 * (int64_t)c->window + 1);
    json_object_object_add(o, "bidirectional_context", json_object_new_boolean(1));
    I_("bidirectional_left_context", c->window);
    I_("bidirectional_right_context", c->window);
    I_("initial_context_length", (int64_t)c->rope.orig_ctx);
    I_("max_position_embeddings", 131072);
    I_("default_n_ctx", 128000);
    D_("rope_theta", c->rope.theta);
    D_("rope_scaling_factor", c->rope.yarn ? c->rope.factor : 1.0);
    D_("rope_ntk_alpha", c->rope.beta_slow);
    D_("rope_ntk_beta", c->rope.beta_fast);
    D_("swiglu_limit", c->swiglu_limit);
#undef I_
#undef D_
    json_object_object_add(o, "param_dtype", json_object_new_string(dtype_name(s->dtype)));
    if (c->n_labels != 33) { /* 33 is opf's default (v2) label space */
        json_object *ner = json_object_new_array();
        for (int i = 0; i < c->n_labels; i++)
            json_object_array_add(ner, json_object_new_string(labels[i]));
        json_object_object_add(o, "ner_class_names", ner);
    }
    add_synth_stamp(o, s->seed);
    return o;
}

/* A new temporary file next to path (pii_rt_temp_fopen: never a planted
 * link; its name in *tpath), fully buffered; NULL with *e and errbuf set. */
static FILE *temp_open(const char *path, char **tpath, pii_err *e, char *errbuf, size_t cap)
{
    FILE *f = pii_rt_temp_fopen(path, tpath);
    if (!f) {
        if (errbuf && cap)
            snprintf(errbuf, cap, "%s: cannot create a temporary file: %s", path, strerror(errno));
        *e = PII_EIO;
        return NULL;
    }
    setvbuf(f, NULL, _IOFBF, 1 << 20);
    return f;
}

/* The end of a file written through f (NULL: none open) to the temporary
 * tpath (NULL: none made): after a good write (e == PII_OK) closes it and
 * renames it to path; after an error, given or met here, closes and removes
 * it.  Returns the error. */
static pii_err temp_end(FILE *f, const char *tpath, const char *path, pii_err e, char *errbuf,
                        size_t cap)
{
    if (f && !e) {
        int bad = fclose(f) != 0;
        f = NULL;
        if (bad) {
            e = PII_EWRITE;
        } else if (rename(tpath, path) != 0) {
            if (errbuf && cap)
                snprintf(errbuf, cap, "%s: %s", path, strerror(errno));
            e = PII_EIO;
        }
    }
    if (f)
        fclose(f);
    if (e && tpath)
        remove(tpath);
    return e;
}

static pii_err write_st(const pii_model_synth *s, const char *dir, int opf, char *errbuf,
                        size_t cap)
{
    pii_err e = check_synth(s, errbuf, cap);
    if (e)
        return e;
    if (opf && s->embed_rows) {
        if (errbuf && cap)
            snprintf(errbuf, cap, "mkmodel: --embed-rows is not available with --layout opf");
        return PII_EINVAL;
    }
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        if (errbuf && cap)
            snprintf(errbuf, cap, "%s: %s", dir, strerror(errno));
        return PII_EIO;
    }
    char **labels = NULL;
    if ((e = pii_pf_labels_default(s->cfg.n_labels, &labels)))
        return e;
    size_t dl = strlen(dir) + 64;
    char *cpath = malloc(dl), *spath = malloc(dl), *tpath = NULL, *ctmp = NULL;
    tdesc *t = malloc((size_t)(s->cfg.n_layers * 17 + 8) * sizeof *t);
    sdesc *sd = malloc((size_t)(s->cfg.n_layers * 17 + 8) * sizeof *sd);
    out *o = malloc(sizeof *o);
    pii_rt_st_writer *w = NULL;
    FILE *f = NULL;
    json_object *cj = NULL;
    if (!cpath || !spath || !t || !sd || !o) {
        e = PII_ENOMEM;
        goto done;
    }
    snprintf(cpath, dl, "%s/config.json", dir);
    snprintf(spath, dl, "%s/model.safetensors", dir);
    /* config.json */
    cj = opf ? config_opf_json(s, labels) : config_json(s, labels);
    const char *txt = json_object_to_json_string_ext(cj, JSON_C_TO_STRING_PRETTY |
                                                             JSON_C_TO_STRING_NOSLASHESCAPE);
    f = pii_rt_temp_fopen(cpath, &ctmp); /* new file, renamed: never a planted link */
    int bad = !f;
    if (f) {
        bad = fputs(txt, f) == EOF || fputc('\n', f) == EOF;
        bad |= fclose(f) != 0;
        bad = bad || rename(ctmp, cpath) != 0;
    }
    f = NULL;
    if (bad) {
        if (ctmp)
            remove(ctmp);
        if (errbuf && cap)
            snprintf(errbuf, cap, "%s: write failed", cpath);
        e = PII_EWRITE;
        goto done;
    }
    f = NULL;
    /* model.safetensors, streamed */
    int nt;
    if (opf) {
        nt = opf_list(s, sd);
    } else {
        nt = hf_list(s, t);
        for (int i = 0; i < nt; i++) {
            sd_from(&sd[i], &t[i]);
            sd[i].sink = s->opf_copy && strstr(t[i].name, ".sinks") != NULL;
        }
    }
    if (!(w = pii_rt_st_writer_create(&e)))
        goto done;
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)s->seed);
    if ((e = pii_rt_st_writer_meta(w, "format", "pt")) ||
        (e = pii_rt_st_writer_meta(w, "pii_redact_synth_seed", seed)))
        goto done;
    for (int i = 0; i < nt; i++)
        if ((e = pii_rt_st_writer_add(w, sd[i].t.name, sd[i].t.dt, sd[i].t.ndim, sd[i].t.shape)))
            goto done;
    if (!(f = temp_open(spath, &tpath, &e, errbuf, cap)))
        goto done;
    if ((e = pii_rt_st_writer_begin(w, f)))
        goto done;
    out_start(o, st_put, w);
    for (int i = 0; i < nt && !o->err; i++) {
        const tdesc *ti = &sd[i].t;
        if (ti->dt == PII_DT_I32) { /* the row map */
            for (int64_t v = 0; v < ti->shape[0]; v++) {
                int32_t r = (int32_t)(v % s->embed_rows);
                out_bytes(o, &r, 4);
            }
            continue;
        }
        if (s->opf_copy && !strcmp(ti->name, "score.bias")) {
            emit_zero(o, ti->dt, nelem_of(ti));
            continue;
        }
        if (sd[i].nsrc == 1 && !sd[i].sink) {
            gen g = gen_for(s->seed, sd[i].src[0]);
            emit_plain(o, &g, ti->dt, nelem_of(ti));
            continue;
        }
        for (int k = 0; k < sd[i].nsrc; k++) {
            gen g = gen_for(s->seed, sd[i].src[k]);
            for (uint64_t x = 0; x < sd[i].src_n[k]; x++) {
                float v = gen_val(&g, x);
                out_val(o, ti->dt, sd[i].sink ? converted_sink(v) : v);
            }
        }
    }
    out_flush(o);
    e = o->err ? o->err : pii_rt_st_writer_end(w);
done:
    e = temp_end(f, tpath, spath, e, errbuf, cap);
    if (e && errbuf && cap && !errbuf[0])
        snprintf(errbuf, cap, "%s: %s", dir, pii_strerror(e));
    free(ctmp);
    json_object_put(cj);
    pii_rt_st_writer_free(w);
    pii_pf_labels_free(labels, s->cfg.n_labels);
    free(cpath);
    free(spath);
    free(tpath);
    free(t);
    free(sd);
    free(o);
    return e;
}

pii_err pii_model_synth_write_hf(const pii_model_synth *s, const char *dir, char *errbuf,
                                 size_t cap)
{
    return write_st(s, dir, 0, errbuf, cap);
}

pii_err pii_model_synth_write_opf(const pii_model_synth *s, const char *dir, char *errbuf,
                                  size_t cap)
{
    return write_st(s, dir, 1, errbuf, cap);
}

/* ---- GGUF (LocalAI layout, spec §2.3) -------------------------------------------------- */

/* How a GGUF tensor's elements come from an HF tensor. */
enum { MAP_SAME, MAP_T_GATE, MAP_T_UP, MAP_T_DOWN, MAP_BIAS_GATE, MAP_BIAS_UP };

typedef struct gdesc {
    tdesc t;     /* GGUF name, numpy shape, dtype */
    char hf[96]; /* source HF tensor name          */
    int map;
} gdesc;

static int gguf_list(const pii_model_synth *s, gdesc *g)
{
    const pii_model_config *c = &s->cfg;
    const int64_t D = c->d_model, H = c->n_heads, hd = c->head_dim, KV = c->n_kv_heads * hd,
                  E = c->n_experts, I = c->d_expert, C = c->n_labels, V = c->vocab_size;
    const pii_dtype X = s->gguf_experts, F16 = PII_DT_F16, F32 = PII_DT_F32;
    int n = 0;
#define G(nd, d0, d1, d2, dty, mp, hfname, ...)                                                    \
    do {                                                                                           \
        snprintf(g[n].t.name, sizeof g[n].t.name, __VA_ARGS__);                                    \
        snprintf(g[n].hf, sizeof g[n].hf, "%s", hfname);                                           \
        g[n].map = mp;                                                                             \
        tdesc_shape(&g[n++].t, nd, d0, d1, d2, dty);                                               \
    } while (0)
    char h[96];
    G(2, V, D, 0, F16, MAP_SAME, "model.embed_tokens.weight", "token_embd.weight");
    G(1, D, 0, 0, F32, MAP_SAME, "model.norm.weight", "output_norm.weight");
    G(2, C, D, 0, F16, MAP_SAME, "score.weight", "cls.output.weight");
    G(1, C, 0, 0, F32, MAP_SAME, "score.bias", "cls.output.bias");
    for (int L = 0; L < c->n_layers; L++) {
#define HF(x) (snprintf(h, sizeof h, "model.layers.%d.%s", L, x), h)
        G(1, D, 0, 0, F32, MAP_SAME, HF("input_layernorm.weight"), "blk.%d.attn_norm.weight", L);
        G(2, H * hd, D, 0, F16, MAP_SAME, HF("self_attn.q_proj.weight"), "blk.%d.attn_q.weight", L);
        G(1, H * hd, 0, 0, F32, MAP_SAME, HF("self_attn.q_proj.bias"), "blk.%d.attn_q.bias", L);
        G(2, KV, D, 0, F16, MAP_SAME, HF("self_attn.k_proj.weight"), "blk.%d.attn_k.weight", L);
        G(1, KV, 0, 0, F32, MAP_SAME, HF("self_attn.k_proj.bias"), "blk.%d.attn_k.bias", L);
        G(2, KV, D, 0, F16, MAP_SAME, HF("self_attn.v_proj.weight"), "blk.%d.attn_v.weight", L);
        G(1, KV, 0, 0, F32, MAP_SAME, HF("self_attn.v_proj.bias"), "blk.%d.attn_v.bias", L);
        G(2, D, H * hd, 0, F16, MAP_SAME, HF("self_attn.o_proj.weight"),
          "blk.%d.attn_output.weight", L);
        G(1, D, 0, 0, F32, MAP_SAME, HF("self_attn.o_proj.bias"), "blk.%d.attn_output.bias", L);
        G(1, H, 0, 0, F32, MAP_SAME, HF("self_attn.sinks"), "blk.%d.attn_sinks.weight", L);
        G(1, D, 0, 0, F32, MAP_SAME, HF("post_attention_layernorm.weight"),
          "blk.%d.post_attention_norm.weight", L);
        G(2, E, D, 0, F32, MAP_SAME, HF("mlp.router.weight"), "blk.%d.ffn_gate_inp.weight", L);
        G(1, E, 0, 0, F32, MAP_SAME, HF("mlp.router.bias"), "blk.%d.ffn_gate_inp.bias", L);
        G(3, E, I, D, X, MAP_T_GATE, HF("mlp.experts.gate_up_proj"), "blk.%d.ffn_gate_exps.weight",
          L);
        G(3, E, I, D, X, MAP_T_UP, HF("mlp.experts.gate_up_proj"), "blk.%d.ffn_up_exps.weight", L);
        G(2, E, I, 0, F32, MAP_BIAS_GATE, HF("mlp.experts.gate_up_proj_bias"),
          "blk.%d.ffn_gate_exps.bias", L);
        G(2, E, I, 0, F32, MAP_BIAS_UP, HF("mlp.experts.gate_up_proj_bias"),
          "blk.%d.ffn_up_exps.bias", L);
        G(3, E, D, I, X, MAP_T_DOWN, HF("mlp.experts.down_proj"), "blk.%d.ffn_down_exps.weight", L);
        G(2, E, D, 0, F32, MAP_SAME, HF("mlp.experts.down_proj_bias"), "blk.%d.ffn_down_exps.bias",
          L);
#undef HF
    }
#undef G
    return n;
}

/* HF flat index of GGUF element (a, b, c) (numpy order) under map. */
static uint64_t hf_index(const pii_model_config *c, int map, uint64_t a, uint64_t b, uint64_t cc)
{
    const uint64_t D = (uint64_t)c->d_model, I = (uint64_t)c->d_expert;
    switch (map) {
    case MAP_T_GATE: /* gguf [e][o<I][i<D] <- hf gate_up [e][i][o] */
        return (a * D + cc) * 2 * I + b;
    case MAP_T_UP:
        return (a * D + cc) * 2 * I + I + b;
    case MAP_T_DOWN: /* gguf [e][o<D][i<I] <- hf down [e][i][o] */
        return (a * I + cc) * D + b;
    case MAP_BIAS_GATE: /* gguf [e][o<I] <- hf [e][2I] */
        return a * 2 * I + b;
    case MAP_BIAS_UP:
        return a * 2 * I + I + b;
    default:
        return 0;
    }
}

static void emit_gguf(out *o, const pii_model_config *c, const gdesc *d, uint64_t seed)
{
    gen g = gen_for(seed, d->hf);
    const tdesc *t = &d->t;
    if (d->map == MAP_SAME) {
        emit_plain(o, &g, t->dt, nelem_of(t));
        return;
    }
    uint64_t A = (uint64_t)t->shape[0], B = (uint64_t)t->shape[1];
    uint64_t Cc = t->ndim == 3 ? (uint64_t)t->shape[2] : 1;
    for (uint64_t a = 0; a < A; a++)
        for (uint64_t b = 0; b < B; b++) {
            if (t->dt == PII_DT_Q8_0) { /* blocks along the innermost dim */
                for (uint64_t c0 = 0; c0 < Cc; c0 += 32) {
                    uint8_t blk[34];
                    uint16_t dh = pii_rt_f32_to_f16(g.scale);
                    blk[0] = (uint8_t)dh;
                    blk[1] = (uint8_t)(dh >> 8);
                    for (int j = 0; j < 32; j++)
                        blk[2 + j] = (uint8_t)(int8_t)gen_k(&g, hf_index(c, d->map, a, b, c0 + j));
                    out_bytes(o, blk, 34);
                }
            } else {
                for (uint64_t cc = 0; cc < Cc; cc++)
                    out_val(o, t->dt, gen_val(&g, hf_index(c, d->map, a, b, cc)));
            }
        }
}

pii_err pii_model_synth_write_gguf(const pii_model_synth *s, const char *path, char *errbuf,
                                   size_t cap)
{
    pii_err e = check_synth(s, errbuf, cap);
    if (e)
        return e;
    const pii_model_config *c = &s->cfg;
    if (s->embed_rows || (s->gguf_experts != PII_DT_F16 && s->gguf_experts != PII_DT_Q8_0) ||
        (s->gguf_experts == PII_DT_Q8_0 && (c->d_model % 32 || c->d_expert % 32))) {
        if (errbuf && cap)
            snprintf(errbuf, cap,
                     "mkmodel: GGUF needs f16 or q8_0 experts (q8_0: widths "
                     "multiple of 32) and no compact embedding");
        return PII_EINVAL;
    }
    char **labels = NULL;
    if ((e = pii_pf_labels_default(c->n_labels, &labels)))
        return e;
    gdesc *g = malloc((size_t)(c->n_layers * 19 + 4) * sizeof *g);
    out *o = malloc(sizeof *o);
    char *tpath = NULL;
    pii_rt_gguf_writer *w = NULL;
    FILE *f = NULL;
    if (!g || !o) {
        e = PII_ENOMEM;
        goto done;
    }
    if (!(w = pii_rt_gguf_writer_create(&e)))
        goto done;
    const char *P = "openai-privacy-filter.";
    char k[128];
#define KU(name, v) (snprintf(k, sizeof k, "%s%s", P, name), pii_rt_gguf_writer_kv_u32(w, k, v))
#define KF(name, v) (snprintf(k, sizeof k, "%s%s", P, name), pii_rt_gguf_writer_kv_f32(w, k, v))
    if ((e = pii_rt_gguf_writer_kv_str(w, "general.architecture", "openai-privacy-filter")) ||
        (e = pii_rt_gguf_writer_kv_str(w, "general.name", "pii-redact mkmodel")) ||
        (e = pii_rt_gguf_writer_kv_u32(w, "general.alignment", 32)) ||
        (e = KU("block_count", (uint32_t)c->n_layers)) || (e = KU("context_length", 131072)) ||
        (e = KU("embedding_length", (uint32_t)c->d_model)) ||
        (e = KU("feed_forward_length", (uint32_t)c->d_expert)) ||
        (e = KU("expert_feed_forward_length", (uint32_t)c->d_expert)) ||
        (e = KU("attention.head_count", (uint32_t)c->n_heads)) ||
        (e = KU("attention.head_count_kv", (uint32_t)c->n_kv_heads)) ||
        (e = KU("attention.key_length", (uint32_t)c->head_dim)) ||
        (e = KU("attention.value_length", (uint32_t)c->head_dim)) ||
        (e = KF("attention.layer_norm_rms_epsilon", c->rms_eps)) ||
        (e = KU("attention.sliding_window", (uint32_t)c->window)) ||
        (e = KU("expert_count", (uint32_t)c->n_experts)) ||
        (e = KU("expert_used_count", (uint32_t)c->top_k)) ||
        (e = KF("rope.freq_base", (float)c->rope.theta)) ||
        (e = (snprintf(k, sizeof k, "%srope.scaling.type", P),
              pii_rt_gguf_writer_kv_str(w, k, c->rope.yarn ? "yarn" : "none"))) ||
        (e = KF("rope.scaling.factor", (float)c->rope.factor)) ||
        (e = KU("rope.scaling.original_context_length", (uint32_t)c->rope.orig_ctx)) ||
        (e = KF("rope.scaling.yarn_beta_fast", (float)c->rope.beta_fast)) ||
        (e = KF("rope.scaling.yarn_beta_slow", (float)c->rope.beta_slow)) ||
        (e = (snprintf(k, sizeof k, "%srope.scaling.yarn_truncate", P),
              pii_rt_gguf_writer_kv_bool(w, k, c->rope.truncate))) ||
        (e = KU("pooling_type", 5)) || (e = KU("embedding_length_out", (uint32_t)c->n_labels)) ||
        (e = (snprintf(k, sizeof k, "%sclassifier.output_labels", P),
              pii_rt_gguf_writer_kv_strs(w, k, (const char *const *)labels, (size_t)c->n_labels))))
        goto done;
#undef KU
#undef KF
    if (c->pad_id >= 0 && c->pad_id < c->vocab_size &&
        ((e = pii_rt_gguf_writer_kv_u32(w, "tokenizer.ggml.padding_token_id",
                                        (uint32_t)c->pad_id)) ||
         (e = pii_rt_gguf_writer_kv_u32(w, "tokenizer.ggml.eos_token_id", (uint32_t)c->pad_id))))
        goto done;
    int n = gguf_list(s, g);
    for (int i = 0; i < n; i++)
        if ((e = pii_rt_gguf_writer_add(w, g[i].t.name, g[i].t.dt, g[i].t.ndim, g[i].t.shape)))
            goto done;
    if (!(f = temp_open(path, &tpath, &e, errbuf, cap)))
        goto done;
    if ((e = pii_rt_gguf_writer_begin(w, f)))
        goto done;
    out_start(o, gg_put, w);
    for (int i = 0; i < n && !o->err; i++)
        emit_gguf(o, c, &g[i], s->seed);
    out_flush(o);
    e = o->err ? o->err : pii_rt_gguf_writer_end(w);
done:
    e = temp_end(f, tpath, path, e, errbuf, cap);
    if (e && errbuf && cap && !errbuf[0])
        snprintf(errbuf, cap, "%s: %s", path, pii_strerror(e));
    pii_rt_gguf_writer_free(w);
    pii_pf_labels_free(labels, c->n_labels);
    free(g);
    free(o);
    free(tpath);
    return e;
}
