/* pii_model.h — the OpenAI Privacy Filter MoE encoder (token classifier).
 *
 * Contract.  Loads a model (HF directory: config.json + model.safetensors or
 * a sharded model.safetensors.index.json; OpenAI opf's native checkpoint —
 * original/config.json with num_experts, experts_per_token, ... and the
 * block.N.* tensors, loaded unconverted; a GGUF file in LocalAI's
 * `openai-privacy-filter` layout; or a safetensors image + config.json text
 * in memory, e.g. compiled into the binary) and runs the encoder forward
 * pass of docs privacy-filter-spec §3 in f32 arithmetic, with weights
 * upcast exactly inside the kernels (the files are mapped, never converted).
 * The label space comes from the model (config.json id2label or GGUF
 * classifier.output_labels); nothing here assumes 33 labels.
 *
 * RoPE angles: computed in double (p * omega_i in f64, cos/sin in f64, then
 * rounded to f32) by default — the "more exact" choice of spec §3.0; the
 * stock-HF float32 semantics are available through
 * pii_model_params.rope_f32_angles.
 *
 * Packing.  One forward pass may hold several documents back to back
 * (doc_lens): attention never crosses a document boundary and positions
 * restart at 0 in each document, so each document's logits equal those of a
 * pass on that document alone (up to f32 summation order: the kernels do
 * not depend on the packing, so in practice they are identical).
 *
 * Ownership and threads.  A pii_model is immutable after loading and may be
 * shared by any number of threads.  A pii_model_ws (workspace) holds every
 * buffer a forward pass needs, sized for max_tokens when it is created, so
 * pii_model_forward allocates nothing; a workspace is used by one caller at
 * a time.  The thread pool given to a workspace is borrowed (NULL: run on
 * the calling thread).  *_free(NULL) is a no-op.
 *
 * Limits.  Configuration values are bounded (see model/config.c) and refused
 * before anything is allocated for them; token ids must be < vocab_size.
 */
#ifndef PII_MODEL_H
#define PII_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "pii_error.h"
#include "pii_rt.h"

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API of libpiiredact.so */
#endif

typedef struct pii_model_config {
    int vocab_size; /* embedding rows addressed by token ids           */
    int d_model;    /* D                                               */
    int n_layers;   /* L                                               */
    int n_heads;    /* H                                               */
    int n_kv_heads; /* Hkv                                             */
    int head_dim;   /* hd                                              */
    int d_expert;   /* I: expert intermediate width                    */
    int n_experts;  /* E                                               */
    int top_k;      /* k                                               */
    int window;     /* attention radius: |i - j| <= window             */
    int n_labels;   /* C                                               */
    int pad_id;     /* -1 when unknown                                 */
    float rms_eps;
    float swiglu_limit; /* 7.0 */
    float swiglu_alpha; /* 1.702 */
    pii_rt_rope rope;
} pii_model_config;

enum { PII_MODEL_ATTN_AUTO = 0, PII_MODEL_ATTN_F32 = 1, PII_MODEL_ATTN_INT16 = 2 };

typedef struct pii_model_params {
    int rope_f32_angles; /* 0 (default): f64 angles; 1: HF float32 angles */
    /* GGUF files with Q8_0 expert weights (LocalAI's): 0 (default) re-
     * quantizes them at load to the int8 format of `pii-redact quantize`
     * (per-output-row scales, the VNNI kernels; a second rounding of about
     * the size of the first); 1 keeps them as stored and computes with the
     * exact values in f32 (slower; what parity tests compare). */
    int gguf_q8_0_exact;
    /* The execution plan (pii_rt_plan_init) of the model's workspaces:
     * isa -1 (default) is the best path the CPU has, else a pii_rt_isa at
     * most that (tests and the command's $PII_ISA force slower paths);
     * qact a pii_rt_qact (default int16), the activation precision of
     * quantized experts.  Loading fails on a value the CPU cannot run. */
    int isa;
    int qact;
    /* The attention's arithmetic where every layer's q, k and v projections
     * are int8 (Q8_ROW): PII_MODEL_ATTN_AUTO (0, default) int16 (pii_rt.h,
     * pii_rt_kvq) when the plan has VNNI (elsewhere it is no faster), else
     * f32; _F32 always f32 (the reference's arithmetic); _INT16 int16 on
     * every path.  Other models always run f32. */
    int attn;
} pii_model_params;

void pii_model_default_params(pii_model_params *p);

typedef struct pii_model pii_model;

/* path: a directory, a *.safetensors file or index .json (config.json in
 * the same directory), or a *.gguf file.  p may be NULL (defaults).
 * On failure returns NULL, sets *err and writes a message naming the file
 * and tensor/key to errbuf. */
pii_model *pii_model_load(const char *path, const pii_model_params *p, pii_err *err, char *errbuf,
                          size_t cap);
/* config_json: config.json text (len bytes, need not be NUL-terminated);
 * st: a safetensors (or GGUF, then config_json may be NULL) image.  Both
 * buffers are borrowed and must outlive the model. */
pii_model *pii_model_load_mem(const char *config_json, size_t config_len, const void *st,
                              size_t st_len, const pii_model_params *p, pii_err *err, char *errbuf,
                              size_t cap);
void pii_model_free(pii_model *m);

const pii_model_config *pii_model_cfg(const pii_model *m);
/* The execution plan built from the load parameters (ISA, VNNI,
 * activation precision); new workspaces start with a copy of it. */
const pii_rt_plan *pii_model_plan(const pii_model *m);
/* 1 when the model's attention runs in int16 (pii_model_params.attn). */
int pii_model_attn_int16(const pii_model *m);
const char *pii_model_label(const pii_model *m, int id); /* NULL if out of range */
const pii_rt_store *pii_model_store(const pii_model *m);
/* Checks that every stored weight is finite (pii_rt_tensor_finite over the
 * store): a NaN or infinity is PII_EMODEL with the tensor and element
 * named in errbuf.  Callers that redact run it once after loading, so a
 * poisoned weight fails closed at once instead of silencing the model.
 * (model/model_check.c) */
pii_err pii_model_check_finite(const pii_model *m, char *errbuf, size_t cap);
/* The directory the model came from (NULL for memory images); for an opf
 * download given by its top directory, its original/ folder. */
const char *pii_model_dir(const pii_model *m);
/* Which tensor naming the model was loaded from (docs/FORMATS.md). */
typedef enum pii_model_layout {
    PII_MODEL_HF = 0,   /* transformers' openai_privacy_filter          */
    PII_MODEL_GGUF = 1, /* LocalAI's openai-privacy-filter GGUF          */
    PII_MODEL_OPF = 2,  /* OpenAI opf's native original/ checkpoint      */
} pii_model_layout;
pii_model_layout pii_model_layout_of(const pii_model *m);
const char *pii_model_layout_name(pii_model_layout l); /* never NULL */
/* Total parameters stored (all tensors' elements, row map excluded). */
uint64_t pii_model_nparams(const pii_model *m);
/* Dtype of the expert weights (the bulk of the model). */
pii_dtype pii_model_expert_dtype(const pii_model *m);
/* Multiply-adds x2 per token for an input of n tokens in one document
 * (active parameters and the attention band; issue 8's FLOP count). */
double pii_model_flops_per_token(const pii_model *m, size_t n);

/* ---- workspaces and the forward pass ----------------------------------- */

typedef struct pii_model_ws pii_model_ws;

pii_model_ws *pii_model_ws_create(const pii_model *m, size_t max_tokens, pii_rt_pool *pool,
                                  pii_err *err);
void pii_model_ws_free(pii_model_ws *ws);
size_t pii_model_ws_max_tokens(const pii_model_ws *ws);
/* Replaces the workspace's plan (a copy of the model's) for the passes
 * that follow: tests run one model on every ISA this way.  Not while a
 * pass runs on the workspace. */
void pii_model_ws_set_plan(pii_model_ws *ws, const pii_rt_plan *p);
const pii_rt_plan *pii_model_ws_plan(const pii_model_ws *ws);
/* Bytes the workspace holds (planning, RSS reports). */
size_t pii_model_ws_bytes(const pii_model_ws *ws);

/* Optional per-layer taps (parity tests, debugging).  Each non-NULL array
 * is filled for every layer L and token t of the pass. */
typedef struct pii_model_trace {
    int32_t *experts;     /* [L][n][k]: chosen experts, descending router logit */
    float *expert_w;      /* [L][n][k]: their softmax weights                   */
    float *router_logits; /* [L][n][E]                                          */
    float *hidden;        /* [L+1][n][D]: residual stream after the embedding
                             and after each layer                              */
} pii_model_trace;

/* logits[n][C] for tokens ids[0..n).  doc_lens[0..ndocs) are the lengths of
 * the documents packed back to back (they must sum to n; zero lengths are
 * allowed); doc_lens NULL means one document.  n <= the workspace's
 * max_tokens (else PII_ETOOBIG); ids outside [0, vocab_size) are
 * PII_ERANGE.  trace may be NULL.  (The types match pii_ner_backend.)
 * A logit that is not finite (a NaN or infinity in a weight, or an
 * overflow) is PII_EMODEL: callers fail closed instead of decoding
 * nothing.  logits then holds garbage. */
pii_err pii_model_forward(const pii_model *m, pii_model_ws *ws, const int32_t *ids, size_t n,
                          const size_t *doc_lens, size_t ndocs, float *logits,
                          const pii_model_trace *trace);
/* pii_model_forward when only rows [keep_lo[d], keep_hi[d]) of document d
 * (local indices) are wanted: the core of a window cut from a longer
 * document.  Layer l (0-based, of n_layers) skips the attention queries and
 * the experts of every row more than window x (n_layers - 1 - l) tokens
 * outside that range: nothing wanted depends on them (a row at layer l
 * reads keys within `window` of itself).  The wanted rows' logits are
 * bit-identical to pii_model_forward's; the other rows hold finite values
 * of no meaning.  keep_lo or keep_hi NULL, a trace, or window 0 (no band):
 * everything is computed, as pii_model_forward. */
pii_err pii_model_forward_kept(const pii_model *m, pii_model_ws *ws, const int32_t *ids, size_t n,
                               const size_t *doc_lens, size_t ndocs, const size_t *keep_lo,
                               const size_t *keep_hi, float *logits, const pii_model_trace *trace);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif

#endif
