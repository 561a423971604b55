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
 * Activations.  Each token row x[0..n_in) is quantized on the fly:
 *   amax = max |x_i|, s = amax / 127, inv = 127 / amax (both 0 when amax
 *   is 0), q_i = clamp(rint(x_i * inv), -127, 127) (round to nearest even),
 * and the kernels compute, with exact int32 sums,
 *   Q8: y = (float)(sum_i q_i w_i) * (s * scale_o)
 *   Q4: y = s * sum_g [ (float)(sum_{i in g} q_i q4_i) * d_g + m_g * (float)(sum_{i in g} q_i) ]
 *   then + bias, then (+)= into y.  Q8 results are identical on every
 *   path; Q4 paths may differ by float rounding (FMA) only. */
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

static inline int8_t rt_q_one(float x, float inv)
{
    float v = x * inv;
    if (!(v == v))
        return 0;
    v = rintf(v);
    return (int8_t)(v > 127.0f ? 127 : v < -127.0f ? -127 : v);
}

/* Scalar kernels (reference; also the tails of the SIMD ones). */
void rt_gemm_q8io_scalar(const pii_rt_mat *W, size_t n, const float *x, size_t ldx,
                         const float *bias, float *y, size_t ldy, size_t o0, size_t o1, int acc);
void rt_gemm_q4io_scalar(const pii_rt_mat *W, size_t n, const float *x, size_t ldx,
                         const float *bias, float *y, size_t ldy, size_t o0, size_t o1, int acc);

/* SIMD kernels (kern_q_avx512.c, kern_q_avx2.c). */
void rt_gemm_q8io_avx512(const pii_rt_mat *W, size_t n, const float *x, size_t ldx,
                         const float *bias, float *y, size_t ldy, size_t o0, size_t o1, int acc);
void rt_gemm_q4io_avx512(const pii_rt_mat *W, size_t n, const float *x, size_t ldx,
                         const float *bias, float *y, size_t ldy, size_t o0, size_t o1, int acc);
void rt_gemm_q8io_avx2(const pii_rt_mat *W, size_t n, const float *x, size_t ldx,
                       const float *bias, float *y, size_t ldy, size_t o0, size_t o1, int acc);
void rt_gemm_q4io_avx2(const pii_rt_mat *W, size_t n, const float *x, size_t ldx,
                       const float *bias, float *y, size_t ldy, size_t o0, size_t o1, int acc);

#endif
