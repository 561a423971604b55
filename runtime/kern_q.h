/* kern_q.h — private: the quantized weight formats (Q8_ROW and Q4_G32 in
 * the IO panel layout, see pii_rt.h) and the dynamic activation
 * quantization every kernel path shares.
 *
 * Panels.  A quantized IO matrix is a stream of ceil(n_out/64) panels of
 * 64 output columns each (the last one zero-padded), `ld` bytes apart:
 *
 *   Q8_ROW panel (ld = 256 + 64 * n_in):
 *     f32 scale[64]                              per column, w = scale * q
 *     int8 q[n_in/4][64][4]                      q[i/4][o%64][i%4]
 *   Q4_G32 panel (ld = n_in/32 * 1280), for each group g of 32 inputs:
 *     uint8 nib[4][64][4]                        byte [r][o][j]: low nibble
 *                                                q(8r+j), high nibble q(8r+4+j)
 *                                                (inputs relative to 32g)
 *     f16 d[64], f16 m[64]                       w = d * q + m, q in 0..15
 *
 * Activations.  Each token row x[0..n_in) is quantized on the fly, to
 * int16 (PII_RT_QACT_I16, the default) or int8 (PII_RT_QACT_I8):
 *   amax = max |x_i|, s = amax / Q, inv = Q / amax (both 0 when amax is 0
 *   or not finite), q_i = clamp(rint(x_i * inv), -Q, Q) (round to nearest
 *   even), Q = 8191 (int16: 14 bits, so int32 sums of n_in <= 2048
 *   products with int8 weights cannot overflow) or 127 (int8);
 * and the kernels compute, with exact integer sums,
 *   Q8: y = (float)(sum_i q_i w_i) * (s * scale_o)
 *   Q4, int8 activations:
 *       y = s * sum_g [ (float)(sum_{i in g} q_i q4_i) * d_g + m_g * (float)(sum_{i in g} q_i) ]
 *   Q4, int16 activations: the products of each group are split into two
 *       partial sums by input position (P0: i % 4 in {0, 1}, P1: i % 4 in
 *       {2, 3}, the lane pairs of vpdpwssd), folded separately,
 *       f0 = fma(P0, d, f0), f0 = fma(m, sum q, f0), f1 = fma(P1, d, f1),
 *       f1 = fma(0, sum q, f1), and y = (f0 + f1) * s;
 *   then + bias, then (+)= into y (fma = fused multiply-add).  Every path
 *   (scalar, AVX2, AVX-512 VNNI) gives bit-identical results. */
#ifndef PII_RT_KERN_Q_H
#define PII_RT_KERN_Q_H

#include <math.h>
#include <stdint.h>

#include "kern.h"

#define RT_QP 64          /* columns per panel */
#define RT_Q4_GROUP 32    /* inputs per int4 group */
#define RT_Q4_GBYTES 1280 /* bytes per group per panel */

static inline size_t rt_q8_panel_bytes(size_t n_in)
{
    return 256 + 64 * n_in;
}

static inline size_t rt_q4_panel_bytes(size_t n_in)
{
    return n_in / RT_Q4_GROUP * RT_Q4_GBYTES;
}

/* amax -> (s, inv) as defined above. */
static inline void rt_q_scale(float amax, float *s, float *inv)
{
    if (amax > 0 && amax <= 3.0e38f) {
        *s = amax / 127.0f;
        *inv = 127.0f / amax;
    } else {
        *s = 0;
        *inv = 0;
    }
}

#define RT_Q16 8191.0f    /* int16 activation range */
#define RT_Q16_MAXIN 2048 /* widest input of the int32-sum SIMD A16 kernels */

static inline void rt_q16_scale(float amax, float *s, float *inv)
{
    if (amax > 0 && amax <= 3.0e38f) {
        *s = amax / RT_Q16;
        *inv = RT_Q16 / amax;
    } else {
        *s = 0;
        *inv = 0;
    }
}

static inline int16_t rt_q16_one(float x, float inv)
{
    float v = x * inv;
    if (!(v == v))
        return 0;
    v = rintf(v);
    return (int16_t)(v > RT_Q16 ? RT_Q16 : v < -RT_Q16 ? -RT_Q16 : v);
}

static inline int8_t rt_q_one(float x, float inv)
{
    float v = x * inv;
    if (!(v == v))
        return 0;
    v = rintf(v);
    return (int8_t)(v > 127.0f ? 127 : v < -127.0f ? -127 : v);
}

/* ---- int16 attention (pii_rt.h, pii_rt_kvq): the quantizers every path
 * shares, so keys and queries are the same integers on all of them ---- */
#define RT_ATTQ_V 32767.0f /* max |v| and max p map here */
#define RT_ATTQ_P 65536.0f /* sum pq <= RT_ATTQ_P - nk / 2 */

/* The range of q and k for head size hd: hd A^2 < 2^31, so no sum of hd
 * products of two of them overflows int32 (8191 for hd 32, 5792 for 64). */
static inline float rt_attq_qk(int hd)
{
    return floorf(sqrtf(2147483647.0f / (float)hd)) - 1.0f;
}

/* max |x_i| of a row, NaN ignored (so in any order, the same). */
static inline float rt_attq_amax(const float *x, int n)
{
    float amax = 0;
    for (int i = 0; i < n; i++)
        amax = fabsf(x[i]) > amax ? fabsf(x[i]) : amax;
    return amax;
}

/* (scale, inverse) of a row with that max, for range A: amax / A and
 * A / amax, both 0 when amax is 0 or not finite. */
static inline float rt_attq_inv(float amax, float A, float *scale)
{
    if (!(amax > 0 && amax <= 3.0e38f)) {
        *scale = 0;
        return 0;
    }
    *scale = amax / A;
    return A / amax;
}

/* rint(x * inv) within [-A, A] (NaN: unspecified) */
static inline int16_t rt_attq_one(float x, float inv, float A)
{
    float v = rintf(x * inv);
    return (int16_t)(v > A ? A : v < -A ? -A : v);
}

/* x[0..n) -> q[i * stride] with range A; returns the scale. */
static inline float rt_attq_row(const float *x, int n, float A, int16_t *q, size_t stride)
{
    float s, inv = rt_attq_inv(rt_attq_amax(x, n), A, &s);
    for (int i = 0; i < n; i++)
        q[(size_t)i * stride] = rt_attq_one(x[i], inv, A);
    return s;
}

/* The int16 kernels' score row stride (floats): the union band of RT_ATT_QB
 * queries, plus the key vectors a score pass computes past it (2 x 16). */
static inline size_t rt_attq_stride(int radius)
{
    return 2 * (size_t)radius + RT_ATT_QB + 2 * 2 * 16 + 2;
}

/* The softmax weights' scale c (pii_rt.h) from their sum and maximum. */
static inline float rt_attq_pscale(float sum, float mx, size_t nk)
{
    if (!(sum > 0 && sum <= 3.0e38f))
        return 0;
    float c = (RT_ATTQ_P - (float)nk) / sum, cm = RT_ATTQ_V / mx;
    return cm < c ? cm : c;
}

void pii_rt_attn_q16_scalar(const pii_rt_plan *p, const pii_rt_attn *a, size_t d0, size_t d1,
                            size_t i0, size_t i1, float *scratch);
void pii_rt_kvq_rows_scalar(const pii_rt_kvq *kv, int Hkv, int hd, const float *k, size_t ldk,
                            const float *v, size_t ldv, size_t t0, size_t t1);

/* Scalar kernels (reference; also the tails of the SIMD ones). */
void pii_rt_gemm_q8io_scalar(const pii_rt_plan *p, const pii_rt_mat *W, size_t n, const float *x,
                             size_t ldx, const float *bias, float *y, size_t ldy, size_t o0,
                             size_t o1, int acc);
void pii_rt_gemm_q4io_scalar(const pii_rt_plan *p, const pii_rt_mat *W, size_t n, const float *x,
                             size_t ldx, const float *bias, float *y, size_t ldy, size_t o0,
                             size_t o1, int acc);
void pii_rt_qx16_scalar(const float *x, size_t ldx, size_t n, size_t ni, int16_t *q, size_t ldq,
                        float *s);
void pii_rt_gemm_q8qx_scalar(const pii_rt_plan *p, const pii_rt_mat *W, size_t n, const int16_t *q,
                             size_t ldq, const float *s, const float *bias, float *y, size_t ldy,
                             size_t o0, size_t o1, int acc);
void pii_rt_qx8_scalar(const float *x, size_t ldx, size_t n, size_t ni, int8_t *q, size_t ldq,
                       float *s, int32_t *sq);
void pii_rt_gemm_q8qx8_scalar(const pii_rt_plan *p, const pii_rt_mat *W, size_t n, const int8_t *q,
                              size_t ldq, const float *s, const int32_t *sq, const float *bias,
                              float *y, size_t ldy, size_t o0, size_t o1, int acc);

#endif
