/* pii_rt.h — the generic shard runtime: weight files, kernels, threads.
 *
 * Contract.  This module knows tensors, not PII.  It
 *  - maps weight files read-only and zero-copy (HF safetensors, single file
 *    or sharded through model.safetensors.index.json; GGUF v2/v3) or wraps
 *    a caller-owned memory buffer, validates every header field against the
 *    mapped size (with overflow checks) before any tensor byte is touched,
 *    and exposes named, typed tensors;
 *  - provides the kernels a transformer needs (GEMM per weight dtype with
 *    the conversion to f32 done inside the micro-kernel, RMSNorm, RoPE with
 *    YaRN, banded bidirectional attention with per-head sinks, top-k MoE
 *    routing and grouping of tokens by expert, clamped SwiGLU);
 *  - dispatches each kernel at run time to AVX-512, AVX2 or portable scalar
 *    code through an execution plan (pii_rt_plan: ISA, VNNI, activation
 *    precision, kernel table) that the caller builds and passes to every
 *    kernel, and runs work on a thread pool with explicit (ith, nth)
 *    splitting.
 *
 * Ownership.  A pii_rt_store owns its mappings; pii_rt_tensor views and every
 * pointer they hold stay valid until pii_rt_store_free.  A store opened on a
 * memory buffer borrows it (the buffer must outlive the store).  Stores are
 * immutable after opening: any number of threads may read them.
 *
 * Errors.  Functions return pii_err.  Where an errbuf is taken, a message
 * naming the file and, when relevant, the tensor or key is written to it
 * (NUL-terminated, truncated to cap; errbuf may be NULL).
 *
 * Environment.  None is read, and there is no process-wide kernel state:
 * which path runs is a plan's, built from parameters (the command maps its
 * $PII_ISA, the documented test hook that lets CI run the scalar kernels,
 * to one).
 *
 * Limits.  At most PII_RT_MAXDIM dimensions per tensor; headers larger than
 * PII_RT_MAX_HEADER bytes, more than PII_RT_MAX_TENSORS tensors or metadata
 * entries, and names longer than PII_RT_MAX_NAME bytes are refused before
 * anything is allocated for them.
 *
 * Legend used in the kernel comments: n tokens, D model width, H query heads,
 * Hkv key/value heads, hd head width, E experts, k experts per token,
 * I expert width, o / i output / input index of a Linear.
 */
#ifndef PII_RT_H
#define PII_RT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pii_error.h"

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API of libpiiredact.so */
#endif

#define PII_RT_MAXDIM 4
#define PII_RT_MAX_HEADER (100u << 20) /* 100 MiB, the safetensors limit */
#define PII_RT_MAX_TENSORS 1000000u
#define PII_RT_MAX_NAME 1024u

/* ---- dtypes ----------------------------------------------------------- */

/* Element types.  Block types (Q8_0 and the project's quantized types) pack
 * `block` elements into `block_bytes` bytes along the innermost dimension.
 * Values are stable: append only. */
typedef enum pii_dtype {
    PII_DT_F32 = 0,
    PII_DT_F16 = 1,
    PII_DT_BF16 = 2,
    PII_DT_Q8_0 = 3, /* GGUF: blocks of 32: f16 scale d, 32 x int8; x = d*q */
    PII_DT_I32 = 4,
    PII_DT_I64 = 5,
    PII_DT_I8 = 6,
    PII_DT_U8 = 7,
    PII_DT_I16 = 8,
    PII_DT_F64 = 9,
    /* Project quantized weight types.  They exist only inside a
     * pii_rt_mat; files hold them as I8/U8 tensors (docs/FORMATS.md).
     * OI layout (Q8_ROW only): plain int8 rows, scale[o] per row, f32
     * activations.  IO layout: the panel streams of "quantized weights"
     * below, run on int8 activations quantized per token. */
    PII_DT_Q8_ROW = 10, /* int8, one f32 scale per output row            */
    PII_DT_Q4_G32 = 11, /* int4, groups of 32 along the input dimension  */
    PII_DT_COUNT
} pii_dtype;

const char *pii_dtype_name(pii_dtype t);     /* "F32", "BF16", "Q8_0", ...; never NULL */
unsigned pii_dtype_block(pii_dtype t);       /* elements per block (1 for scalars) */
unsigned pii_dtype_block_bytes(pii_dtype t); /* bytes per block */
/* Bytes for `nelem` elements in rows of `inner` elements; 0 with *err set
 * when inner is not a multiple of the block or the size overflows. */
uint64_t pii_dtype_nbytes(pii_dtype t, uint64_t nelem, uint64_t inner, pii_err *err);

/* Exact conversions to f32 (bf16 and f16 upcast exactly; Q8_0 gives d*q in
 * f32).  src points at element `0` of a run of n elements; for block types
 * src and n must be block aligned.  Any alignment of src is fine. */
void pii_rt_to_f32(pii_dtype t, const void *src, size_t n, float *dst);
/* Round-to-nearest-even narrowing (writers). */
uint16_t pii_rt_f32_to_bf16(float f);
uint16_t pii_rt_f32_to_f16(float f);
float pii_rt_bf16_to_f32(uint16_t h);
float pii_rt_f16_to_f32(uint16_t h);

/* ---- the tensor store ------------------------------------------------- */

typedef enum pii_rt_format {
    PII_RT_FMT_SAFETENSORS = 0,
    PII_RT_FMT_GGUF = 1,
} pii_rt_format;

/* A view of one tensor.  shape is outermost first (numpy / PyTorch order;
 * GGUF's ne[] is reversed into this order). */
typedef struct pii_rt_tensor {
    const char *name; /* NUL-terminated, owned by the store        */
    const char *file; /* the file (shard) holding it, or the label  */
    const void *data; /* read-only; no alignment is promised        */
    uint64_t nbytes;  /* validated: inside the file                 */
    uint64_t nelem;   /* product of shape                           */
    int64_t shape[PII_RT_MAXDIM];
    int ndim; /* 0..PII_RT_MAXDIM                           */
    pii_dtype dtype;
} pii_rt_tensor;

/* PII_OK when every value of t is finite; else PII_ERANGE with *bad the
 * index of the first NaN or infinity (for Q8_0: of the block whose f16
 * scale is not finite).  Integer tensors are always finite.  Reads every
 * byte of the tensor (about 1 s for 2.8 GB of weights). */
pii_err pii_rt_tensor_finite(const pii_rt_tensor *t, uint64_t *bad);

typedef struct pii_rt_store pii_rt_store;

/* Opens `path`: a *.safetensors file, a model.safetensors.index.json, a
 * *.gguf file, or a directory holding model.safetensors.index.json or
 * model.safetensors.  Every shard is mapped and validated. */
pii_err pii_rt_store_open(const char *path, pii_rt_store **out, char *errbuf, size_t cap);
/* Wraps a safetensors or GGUF image in memory (detected by content).  The
 * buffer is borrowed.  `label` names it in messages (e.g. "<embedded>"). */
pii_err pii_rt_store_open_mem(const void *bytes, size_t len, const char *label, pii_rt_store **out,
                              char *errbuf, size_t cap);
void pii_rt_store_free(pii_rt_store *s);

pii_rt_format pii_rt_store_format(const pii_rt_store *s);
size_t pii_rt_store_count(const pii_rt_store *s);
const pii_rt_tensor *pii_rt_store_at(const pii_rt_store *s, size_t i); /* file order */
const pii_rt_tensor *pii_rt_store_find(const pii_rt_store *s, const char *name);
size_t pii_rt_store_nfiles(const pii_rt_store *s);
const char *pii_rt_store_file(const pii_rt_store *s, size_t i);
uint64_t pii_rt_store_bytes(const pii_rt_store *s); /* total mapped bytes */
/* Tells the store that the bytes [p, p + len) of one of its tensors will
 * not be read again (they were converted): the whole pages inside them are
 * dropped from a file mapping (read back from the file if touched).  A
 * no-op for memory images, which are borrowed, and for foreign pointers. */
void pii_rt_store_release(const pii_rt_store *s, const void *p, size_t len);

/* safetensors "__metadata__" string values (NULL when absent). */
const char *pii_rt_store_st_meta(const pii_rt_store *s, const char *key);

/* GGUF metadata.  Value types are GGUF's numbering. */
typedef enum pii_rt_kvtype {
    PII_KV_U8 = 0,
    PII_KV_I8 = 1,
    PII_KV_U16 = 2,
    PII_KV_I16 = 3,
    PII_KV_U32 = 4,
    PII_KV_I32 = 5,
    PII_KV_F32 = 6,
    PII_KV_BOOL = 7,
    PII_KV_STRING = 8,
    PII_KV_ARRAY = 9,
    PII_KV_U64 = 10,
    PII_KV_I64 = 11,
    PII_KV_F64 = 12,
} pii_rt_kvtype;

size_t pii_rt_store_kv_count(const pii_rt_store *s);
const char *pii_rt_store_kv_key(const pii_rt_store *s, size_t i); /* NUL-terminated */
/* Index of `key`, or -1. */
long pii_rt_store_kv_find(const pii_rt_store *s, const char *key);
/* Typed reads; PII_ENOTFOUND when absent, PII_EFORMAT on a type that does
 * not convert (any integer or bool reads as int, any number as double). */
pii_err pii_rt_store_kv_int(const pii_rt_store *s, const char *key, int64_t *out);
pii_err pii_rt_store_kv_num(const pii_rt_store *s, const char *key, double *out);
pii_err pii_rt_store_kv_str(const pii_rt_store *s, const char *key, const char **p, size_t *len);
/* Arrays: element type and count; for numeric arrays also the raw
 * little-endian elements (unaligned).  For string arrays *data is NULL: use
 * pii_rt_store_kv_strings. */
pii_err pii_rt_store_kv_arr(const pii_rt_store *s, const char *key, pii_rt_kvtype *elem,
                            uint64_t *count, const void **data);
/* Fills ptr[0..count) / len[0..count) with the (not NUL-terminated) strings
 * of a string array; count must equal the array's count. */
pii_err pii_rt_store_kv_strings(const pii_rt_store *s, const char *key, const char **ptr,
                                uint32_t *len, uint64_t count);

/* ---- CPU dispatch: execution plans ------------------------------------- */

typedef enum pii_rt_isa {
    PII_RT_ISA_SCALAR = 0,
    PII_RT_ISA_AVX2 = 1,   /* AVX2 + FMA + F16C                     */
    PII_RT_ISA_AVX512 = 2, /* AVX-512 F/BW/VL (+VNNI when present)  */
    PII_RT_ISA_COUNT
} pii_rt_isa;

pii_rt_isa pii_rt_isa_detect(void);          /* the best the CPU supports */
const char *pii_rt_isa_name(pii_rt_isa isa); /* "scalar", "avx2", "avx512" */
pii_err pii_rt_isa_parse(const char *s, pii_rt_isa *out);

/* Activation precision of the quantized GEMMs (see "quantized weights"
 * below): int16 (default: 14-bit per-token scale, vpdpwssd; logits within
 * about 1e-5 of f32 activations) or int8 (vpdpbusd: about twice the
 * arithmetic rate, about 1e-2 relative error per product).  int16+8: the
 * kernels run as int16, and the encoder's expert layers (model/forward.c)
 * add a second pass, with int8 activations, over each input's int16
 * rounding residue (pii_rt_q16_residue): about 2^-22 of max |x| of
 * activation error instead of 2^-15, for about 1.7x the expert integer
 * time. */
typedef enum pii_rt_qact {
    PII_RT_QACT_I16 = 0,
    PII_RT_QACT_I8 = 1,
    PII_RT_QACT_I16R8 = 2
} pii_rt_qact;
const char *pii_rt_qact_name(pii_rt_qact a); /* "int16", "int8", "int16+8" */
/* Parses "int16", "int8" or "int16+8"; PII_EINVAL for anything else. */
pii_err pii_rt_qact_parse(const char *name, pii_rt_qact *out);

/* An execution plan: everything that decides which kernel code runs.  It is
 * a plain value built once (per model or workspace) by pii_rt_plan_init and
 * passed to every kernel; kernels read nothing else, so two plans (a test
 * comparing paths, a reference model on the scalar path) can run side by
 * side in one process.  Read the fields; do not write them. */
struct pii_rt_kernels; /* private: the kernel table of one ISA */
typedef struct pii_rt_plan {
    pii_rt_isa isa;                    /* kernel path                              */
    int vnni;                          /* 1: AVX-512 VNNI quantized kernels        */
    pii_rt_qact qact;                  /* activation precision (quantized GEMMs)   */
    const struct pii_rt_kernels *kern; /* the path's kernel table                 */
} pii_rt_plan;

/* isa < 0: the best the CPU supports (pii_rt_isa_detect); else that path,
 * which must not be above it (PII_EUNSUPPORTED) -- tests and --isa force
 * the scalar or AVX2 kernels this way.  VNNI is used when the path is
 * AVX-512 and the CPU has it.  PII_EINVAL for an unknown isa or qact. */
pii_err pii_rt_plan_init(pii_rt_plan *p, int isa, pii_rt_qact qact);

/* ---- thread pool -------------------------------------------------------- */

/* pii_rt_pool_run(p, fn, ctx) calls fn(ctx, ith, nth) once on each of the
 * pool's nth threads (the caller is ith 0) and returns when all have
 * returned.  Inside fn, pii_rt_pool_barrier(p) waits until all nth threads
 * reach it (every thread must call it the same number of times): it orders
 * memory, so writes before the barrier are visible after it.  A NULL pool is
 * one thread: run calls fn(ctx, 0, 1), barrier returns at once.
 * One run at a time per pool (concurrent callers are serialized). */
typedef struct pii_rt_pool pii_rt_pool;
typedef void (*pii_rt_task_fn)(void *ctx, int ith, int nth);
/* nthreads <= 0: one per online CPU. */
pii_rt_pool *pii_rt_pool_create(int nthreads, pii_err *err);
void pii_rt_pool_free(pii_rt_pool *p);
int pii_rt_pool_size(const pii_rt_pool *p); /* 1 for NULL */
void pii_rt_pool_run(pii_rt_pool *p, pii_rt_task_fn fn, void *ctx);
void pii_rt_pool_barrier(pii_rt_pool *p);
int pii_rt_ncpu(void);

/* [lo, hi) = thread ith's share of [0, total), boundaries rounded to
 * multiples of `align` (except the end). */
void pii_rt_split(size_t total, size_t align, int ith, int nth, size_t *lo, size_t *hi);

/* ---- GEMM ---------------------------------------------------------------- */

/* A weight matrix view: y[t, o] = sum_i x[t, i] * W(o, i).
 *   PII_RT_OI: stored [n_out][n_in] (PyTorch Linear, GGUF), row o at data + o*ld
 *   PII_RT_IO: stored [n_in][n_out] (HF expert tensors),   row i at data + i*ld
 * ld is in bytes.  Block dtypes (Q8_0, Q4_G32) only in OI layout, blocks
 * along i.  A sub-matrix (an expert of a stacked tensor, a column range of
 * gate_up_proj) is the same view with data moved and ld kept. */
typedef enum pii_rt_layout { PII_RT_OI = 0, PII_RT_IO = 1 } pii_rt_layout;

typedef struct pii_rt_mat {
    const void *data;
    const float *scale; /* Q8_ROW: [n_out]; Q4_G32: per group (reserved) */
    size_t ld;          /* bytes between stored rows                     */
    uint32_t n_out, n_in;
    pii_dtype dtype;
    pii_rt_layout layout;
} pii_rt_mat;

/* Builds the view of tensor t's 2-D slice: t is [rows][cols] (2-D), or
 * [E][rows][cols] with `index` choosing the leading slice.  Layout OI means
 * rows = n_out; IO means rows = n_in.  Column range [c0, c0+ncols) of the
 * stored rows (ncols 0 = all).  Checks dtype/layout support and block
 * alignment. */
pii_err pii_rt_mat_view(pii_rt_mat *m, const pii_rt_tensor *t, pii_rt_layout layout, int64_t index,
                        uint32_t c0, uint32_t ncols);
/* Same matrix, expert e of a stack whose experts are `stride` bytes apart. */
static inline pii_rt_mat pii_rt_mat_offset(const pii_rt_mat *m, size_t bytes)
{
    pii_rt_mat r = *m;
    r.data = (const uint8_t *)m->data + bytes;
    return r;
}

/* y[t, o] (+)= sum_i x[t, i] W(o, i) + bias[o], for t < n and o in [o0, o1).
 *   x: [n][ldx] floats, y: [n][ldy] floats, bias: [n_out] or NULL.
 *   accumulate != 0 adds into y (residual), else overwrites.
 * Converts weights to f32 inside the micro-kernel; no allocation. */
void pii_rt_gemm(const pii_rt_plan *p, const pii_rt_mat *W, size_t n, const float *x, size_t ldx,
                 const float *bias, float *y, size_t ldy, size_t o0, size_t o1, int accumulate);
/* Whether a dtype/layout has a kernel (else pii_rt_gemm must not be called). */
int pii_rt_gemm_supported(pii_dtype t, pii_rt_layout layout);

/* ---- other kernels (each has a scalar twin selected by the plan's ISA) ---- */

/* y[t] = g * x[t] / sqrt(mean(x[t]^2) + eps), t < n; rows of d floats with
 * strides ldx / ldy; g: [d].  y may equal x. */
void pii_rt_rmsnorm(const pii_rt_plan *p, size_t n, size_t d, const float *x, size_t ldx,
                    const float *g, float eps, float *y, size_t ldy);

/* YaRN / default RoPE frequencies (HF _compute_yarn_parameters semantics).
 * rope_type "yarn": factor, beta_fast, beta_slow, orig_ctx, truncate,
 * attention_factor (<= 0: derived 0.1*ln(factor)+1).  "default": plain. */
typedef struct pii_rt_rope {
    double theta;
    double factor;
    double beta_fast, beta_slow;
    double orig_ctx;
    double attention_factor;
    int yarn;
    int truncate;
} pii_rt_rope;
/* omega[hd/2] (double) and the mscale that multiplies cos and sin. */
void pii_rt_rope_freqs(const pii_rt_rope *r, int hd, double *omega, double *mscale);
/* Table for positions 0..npos-1: cs[p][j] = {cos, sin}(angle(p, j)) * mul,
 * j < hd/2, as f32.  angles_f64: angle p*omega_j in double; else the HF
 * float32 semantics f32(f32(p) * f32(omega_j)).  cos/sin in double. */
void pii_rt_rope_table(float *cs /*[npos][hd/2][2]*/, size_t npos, int hd, const double *omega,
                       double mul, int angles_f64);
/* Interleaved (GPT-J) rotation of nh heads of x in place with row cs:
 * (x[2j], x[2j+1]) <- (x0 c - x1 s, x1 c + x0 s). */
void pii_rt_rope_apply(float *x /*[nh][hd]*/, int nh, int hd, const float *cs /*[hd/2][2]*/);

/* Banded bidirectional attention with per-head sinks, for one document
 * (rows [d0, d1) of the packed batch) and its queries [i0, i1):
 *   s_ij = <q_i,h , k_j,g>, g = h / (H/Hkv), for |i-j| <= radius, d0 <= j < d1
 *   P_ij = exp(s_ij - M) / (sum_j exp(s_ij - M) + exp(sink_h - M))
 *   o_i,h = sum_j P_ij v_j,g
 * Any score scale must be folded into q and k beforehand.
 * scratch: pii_rt_attn_scratch(radius, H, Hkv) floats, per thread. */
typedef struct pii_rt_attn {
    const float *q;     /* [n][ldq], head h at h*hd            */
    const float *kt;    /* [Hkv*hd][ldkt]: k transposed         */
    const float *v;     /* [n][ldv], kv head g at g*hd         */
    float *o;           /* [n][ldo], head h at h*hd            */
    const float *sinks; /* [H], natural-log units          */
    size_t ldq, ldkt, ldv, ldo;
    int H, Hkv, hd, radius;
    const struct pii_rt_kvq *kvq; /* NULL: the float kernel; else int16 (below) */
} pii_rt_attn;
size_t pii_rt_attn_scratch(int radius, int H, int Hkv);

/* int16 attention: with pii_rt_attn.kvq set, pii_rt_attn_band computes the
 * same function with integer dot products.  Keys are quantized once per key
 * and kv head (pii_rt_kvq_rows), each query row when it is used:
 *   k: ks = max |k| / A, kq = rint(k * (A / max |k|)), A = floor(sqrt((2^31 - 1)
 *      / hd)) - 1 (8191 for hd 32); q likewise: qs, qq (scale 0: all zero)
 *   v: vs = max |v| / 32767, vq = rint(v * (32767 / max |v|))
 *   s_j = (float)(sum_d qq_d kq_jd) * qs * ks_j   (|sum| < 2^31: exact)
 *   e_j = exp(s_j - M), Z = sum_j e_j + exp(sink - M), M the max with the sink
 *   p_j = e_j * vs_j, c = min((65536 - nk) / sum p, 32767 / max p),
 *   pq_j = rint(p_j * c), o_d = (float)(sum_j pq_j vq_jd) * (1 / (c * Z))
 * (nk the query's keys; sum pq <= 65536 - nk / 2, so the int32 sum is exact).
 * Integer sums do not depend on order, so a query's output is the same
 * whatever the blocking, the thread split or the window; the float steps
 * are in this order on every path (the exp and the sums of the softmax are
 * the path's own, as in the float kernel).  Scores of queries against the
 * quantized keys differ from the float kernel's by ~1e-4 of max|q| max|k| hd. */
typedef struct pii_rt_kvq {
    int16_t *kq; /* [Hkv][hd/2][ld][2]: dims 2e, 2e+1 of key j at ((g hd/2 + e) ld + j) 2 */
    int16_t *vq; /* [ld/2][Hkv][hd][2]: keys 2p, 2p+1 of dim d at ((p Hkv + g) hd + d) 2 */
    float *ks;   /* [Hkv][ld] */
    float *vs;   /* [Hkv][ld] */
    size_t ld;   /* keys allocated, pii_rt_kvq_ld(n): kernels read past the last */
} pii_rt_kvq;
size_t pii_rt_kvq_ld(size_t n);
/* Keys [t0, t1): k and v rows [t][ldk] / [t][ldv], kv head g at g * hd (k
 * after RoPE; hd even, <= 256).  The same integers on every path.  Threads
 * may quantize disjoint key ranges at once. */
void pii_rt_kvq_rows(const pii_rt_plan *p, const pii_rt_kvq *kv, int Hkv, int hd, const float *k,
                     size_t ldk, const float *v, size_t ldv, size_t t0, size_t t1);
void pii_rt_attn_band(const pii_rt_plan *p, const pii_rt_attn *a, size_t d0, size_t d1, size_t i0,
                      size_t i1, float *scratch);

/* dst[c][r] = src[r][c] for r < rows, c < cols. */
void pii_rt_transpose(const float *src, size_t lds, size_t rows, size_t cols, float *dst,
                      size_t ldd);

/* Router: for each token, the k largest of logits[t][0..E) (descending; ties
 * to the lower index) and the softmax of those k values.  idx/w: [n][k]. */
void pii_rt_topk_softmax(size_t n, int E, int k, const float *logits, size_t ld, int32_t *idx,
                         float *w);

/* Groups the n*k (token, slot) choices by expert, tokens ascending within an
 * expert: cnt[E], off[E+1] (prefix sums), grp[n*k] = t*k + slot in group
 * order, pos[t*k + slot] = its position in group order. */
void pii_rt_moe_group(size_t n, int E, int k, const int32_t *idx, uint32_t *cnt, uint32_t *off,
                      uint32_t *grp, uint32_t *pos);
/* pii_rt_moe_group over the tokens t with level[t] >= min only (level NULL:
 * every token), in the same order; off[E] is the number of grouped slots,
 * and pos[] of a left-out token's slots is not written. */
void pii_rt_moe_group_min(size_t n, int E, int k, const int32_t *idx, const int16_t *level, int min,
                          uint32_t *cnt, uint32_t *off, uint32_t *grp, uint32_t *pos);

/* Clamped SwiGLU in place: g <- min(g, limit) * sigmoid(alpha * min(g,
 * limit)) * (clamp(u, -limit, limit) + 1), m values. */
void pii_rt_swiglu(const pii_rt_plan *p, float *g, const float *u, size_t m, float alpha,
                   float limit);

/* ---- quantized weights (runtime/quant.c, kern_q.inc) ------------------
 *
 * An IO matrix of type Q8_ROW or Q4_G32 is a stream of ceil(n_out/64)
 * panels of 64 output columns (the last zero-padded), pii_rt_mat.ld bytes
 * apart, each self-contained (scales inside):
 *   Q8_ROW (n_in % 4 == 0), ld = 256 + 64 n_in:
 *     f32 scale[64]; then int8 q[n_in/4][64][4] (element (i, o) at
 *     256 + (i/4)*256 + (o%64)*4 + i%4), weight = scale[o%64] * q.
 *   Q4_G32 (n_in % 32 == 0), ld = n_in/32 * 1280; per group g of 32 inputs
 *     1280 bytes: nibbles[4][64][4] (byte [r][o%64][j] holds input
 *     32g+8r+j in its low and 32g+8r+4+j in its high nibble), f16 d[64],
 *     f16 m[64]; weight = d * q + m with q in 0..15.
 * An expert stack is E such streams back to back (pii_rt_mat_offset).
 * pii_rt_gemm on these quantizes each token row of x to int16 or int8
 * (the plan's pii_rt_qact; one scale per token: max |x| / 8191 or / 127, round to
 * nearest even) and sums products in integers: AVX-512 VNNI, AVX2 or
 * scalar, with identical results on every path (src/runtime/kern_q.h has
 * the exact arithmetic).  Any column range [o0, o1) is allowed. */

/* The activations of Q8_ROW products, quantized once for several products
 * of the same rows (the q, k and v projections of one input; the gate and
 * up halves of one expert): pii_rt_qx_rows writes rows x[t][0 .. n_in),
 * t < n, as row t of q (2 ldq bytes from q + t ldq; ldq >= n_in) and s[t],
 * exactly as pii_rt_gemm quantizes each row: with int16 activations
 * q[t][0 .. ldq) int16, zero past n_in (sq unused, may be NULL); with int8
 * activations the row's 2 ldq bytes int8, zero past n_in, and their sum
 * sq[t].  pii_rt_gemm_qx is pii_rt_gemm on those rows, with the same
 * result bit for bit.  Only where pii_rt_qx_usable(p, W): W Q8_ROW in IO
 * layout, the plan's activations int16 or int8 (not int16+8). */
int pii_rt_qx_usable(const pii_rt_plan *p, const pii_rt_mat *W);
void pii_rt_qx_rows(const pii_rt_plan *p, size_t n, size_t n_in, const float *x, size_t ldx,
                    int16_t *q, size_t ldq, float *s, int32_t *sq);
void pii_rt_gemm_qx(const pii_rt_plan *p, const pii_rt_mat *W, size_t n, const int16_t *q,
                    size_t ldq, const float *s, const int32_t *sq, const float *bias, float *y,
                    size_t ldy, size_t o0, size_t o1, int acc);

/* Replaces x[0..n) by what the int16 activation quantization of the
 * kernels leaves out: x_i - q_i * s with (q, s) exactly as the kernels
 * compute them for this row (kern_q.h).  A quantized GEMM of x plus one of
 * the residue (no bias, acc = 1) equals the product with the unrounded x up
 * to the residue pass's own rounding: about 2^-27 * max |x_i| per input
 * with int16 activations, 2^-22 with int8. */
void pii_rt_q16_residue(float *x, size_t n);

/* Bytes of a quantized IO matrix; 0 when the type or shape is not
 * supported (n_in must be a multiple of 4, or 32 for Q4_G32, and at most
 * 32768). */
uint64_t pii_rt_qmat_bytes(pii_dtype qt, uint64_t n_in, uint64_t n_out);
/* View of a quantized stream of nbytes (>= pii_rt_qmat_bytes) at data. */
pii_err pii_rt_qmat_view(pii_rt_mat *m, pii_dtype qt, const void *data, uint64_t nbytes,
                         uint64_t n_in, uint64_t n_out);
/* Quantizes src (F32, F16 or BF16 in either layout, or Q8_0 OI) to qt
 * into dst (cap >= pii_rt_qmat_bytes): Q8_ROW symmetric per output column;
 * Q4_G32 per group of 32 inputs and column, min/max start refined by
 * least squares, scale and offset rounded to f16.  *out (may be NULL)
 * receives the view of dst. */
pii_err pii_rt_quantize(const pii_rt_mat *src, pii_dtype qt, void *dst, size_t cap,
                        pii_rt_mat *out);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif

#endif
