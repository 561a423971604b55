/* kern.h — private: the per-ISA kernel tables (src/runtime only).
 *
 * Each ISA fills what it accelerates; a NULL entry falls back to the scalar
 * table, which is complete and is the reference every fast kernel is tested
 * against.  Shapes: see pii_rt.h. */
#ifndef PII_RT_KERN_H
#define PII_RT_KERN_H

#include "pii_rt.h"

/* y[t, o0..o1) (+)= x[t] . W(o) + bias, t < n.  p: the plan of the call
 * (the quantized kernels follow its qact and vnni). */
typedef void (*rt_gemm_fn)(const pii_rt_plan *p, const pii_rt_mat *W, size_t n, const float *x,
                           size_t ldx, const float *bias, float *y, size_t ldy, size_t o0,
                           size_t o1, int acc);

/* The SIMD attention (kern_simd.inc) takes RT_ATT_QB consecutive queries per
 * block; pii_rt_attn_scratch (kernels.c) sizes the scratch for RT_ATT_QB * G
 * rows of 2R + 16 + RT_ATT_QB scores. */
#define RT_ATT_QB 4

/* The keys [lo, hi) of query i of document [d0, d1): |i - j| <= R. */
static inline void rt_att_band(size_t i, size_t d0, size_t d1, size_t R, size_t *lo, size_t *hi)
{
    *lo = i - d0 > R ? i - R : d0;
    *hi = d1 - i > R + 1 ? i + R + 1 : d1;
}

typedef struct pii_rt_kernels {
    rt_gemm_fn gemm[PII_DT_COUNT][2]; /* [dtype][layout] */
    void (*attn)(const pii_rt_attn *a, size_t d0, size_t d1, size_t i0, size_t i1, float *scratch);
    /* the int16 attention (a->kvq set): NULL falls back to the scalar table */
    void (*attn_q16)(const pii_rt_plan *p, const pii_rt_attn *a, size_t d0, size_t d1, size_t i0,
                     size_t i1, float *scratch);
    void (*kvq_rows)(const pii_rt_kvq *kv, int Hkv, int hd, const float *k, size_t ldk,
                     const float *v, size_t ldv, size_t t0, size_t t1);
    void (*rmsnorm)(size_t d, const float *x, const float *g, float eps, float *y);
    void (*swiglu)(float *g, const float *u, size_t m, float alpha, float limit);
    /* pii_rt_qx_rows and pii_rt_gemm_qx (the activations of Q8_ROW IO
     * products, quantized once; int16, or int8 with row sums, rows ldq
     * bytes apart): NULL falls back to the scalar table */
    void (*qx16)(const float *x, size_t ldx, size_t n, size_t ni, int16_t *q, size_t ldq, float *s);
    void (*gemm_q8qx)(const pii_rt_plan *p, const pii_rt_mat *W, size_t n, const int16_t *q,
                      size_t ldq, const float *s, const float *bias, float *y, size_t ldy,
                      size_t o0, size_t o1, int acc);
    void (*qx8)(const float *x, size_t ldx, size_t n, size_t ni, int8_t *q, size_t ldq, float *s,
                int32_t *sq);
    void (*gemm_q8qx8)(const pii_rt_plan *p, const pii_rt_mat *W, size_t n, const int8_t *q,
                       size_t ldq, const float *s, const int32_t *sq, const float *bias, float *y,
                       size_t ldy, size_t o0, size_t o1, int acc);
} rt_kernels;

extern const rt_kernels pii_rt_kern_scalar;
extern const rt_kernels pii_rt_kern_avx2;
extern const rt_kernels pii_rt_kern_avx512;

/* The scalar GEMM for any float dtype/layout (tails of SIMD kernels). */
void pii_rt_gemm_scalar(const pii_rt_mat *W, size_t n, const float *x, size_t ldx,
                        const float *bias, float *y, size_t ldy, size_t o0, size_t o1, int acc);

/* Byte offset of element `c` along a stored row of dtype t. */
static inline size_t rt_elem_off(pii_dtype t, size_t c)
{
    return c / pii_dtype_block(t) * pii_dtype_block_bytes(t);
}

#endif
