/* kern_q_avx2.c — Q8_ROW / Q4_G32 IO-panel GEMM with AVX2 (no VNNI).
 *
 * Products of bytes go through vpmaddubsw (unsigned x signed byte pairs into
 * int16) and vpmaddwd by ones (pairs of int16 into int32).  Q8 uses the
 * sign trick so no int16 sum can saturate: |w| as the unsigned operand and
 * q with w's sign as the signed one (|w|, |q| <= 127, so a pair is at most
 * 32258).  Q4: nibbles (<= 15) times q cannot saturate either.  Integer
 * sums are exact, so results equal the scalar kernels (kern_q.h). */
#if defined(__x86_64__)
#include <immintrin.h>
#include <string.h>

#include "kern_q.h"

#define TGT __attribute__((target("avx2,fma,f16c")))
#define QT 4
#define QMAXIN 8192

static TGT void quant_rows(const float *x, size_t ldx, int T, size_t ni, int8_t *q, size_t ldq,
                           float *s, int32_t *sg, size_t ldg)
{
    const __m256 absm = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    const __m256i lo = _mm256_set1_epi32(-127), hi = _mm256_set1_epi32(127);
    for (int t = 0; t < T; t++) {
        const float *xr = x + (size_t)t * ldx;
        int8_t *qr = q + (size_t)t * ldq;
        __m256 mx = _mm256_setzero_ps();
        size_t i = 0;
        for (; i + 8 <= ni; i += 8)
            mx = _mm256_max_ps(mx, _mm256_and_ps(_mm256_loadu_ps(xr + i), absm));
        float m8[8];
        _mm256_storeu_ps(m8, mx);
        float amax = 0;
        for (int j = 0; j < 8; j++)
            amax = m8[j] > amax ? m8[j] : amax;
        for (; i < ni; i++) {
            float a = fabsf(xr[i]);
            amax = a > amax ? a : amax;
        }
        float inv;
        rt_q_scale(amax, &s[t], &inv);
        const __m256 vinv = _mm256_set1_ps(inv);
        for (i = 0; i + 8 <= ni; i += 8) {
            __m256i iv = _mm256_cvtps_epi32(_mm256_mul_ps(_mm256_loadu_ps(xr + i), vinv));
            iv = _mm256_max_epi32(_mm256_min_epi32(iv, hi), lo);
            __m128i p16 =
                _mm_packs_epi32(_mm256_castsi256_si128(iv), _mm256_extracti128_si256(iv, 1));
            _mm_storel_epi64((__m128i *)(qr + i), _mm_packs_epi16(p16, p16));
        }
        for (; i < ni; i++)
            qr[i] = rt_q_one(xr[i], inv);
        if (sg)
            for (size_t g = 0; g < ni / RT_Q4_GROUP; g++) {
                int32_t a = 0;
                for (int j = 0; j < RT_Q4_GROUP; j++)
                    a += qr[g * RT_Q4_GROUP + (size_t)j];
                sg[(size_t)t * ldg + g] = a;
            }
    }
}

static inline TGT void store8(float *y, __m256 v, const float *bias, int acc, size_t c, size_t a,
                              size_t b)
{
    if (c >= a && c + 8 <= b) {
        if (bias)
            v = _mm256_add_ps(v, _mm256_loadu_ps(bias));
        if (acc)
            v = _mm256_add_ps(v, _mm256_loadu_ps(y));
        _mm256_storeu_ps(y, v);
        return;
    }
    float tmp[8];
    _mm256_storeu_ps(tmp, v);
    for (size_t j = 0; j < 8; j++)
        if (c + j >= a && c + j < b) {
            float r = tmp[j];
            if (bias)
                r += bias[j];
            y[j] = acc ? y[j] + r : r;
        }
}

/* ---- Q8 ----------------------------------------------------------------------- */

/* 16 columns (ymm vectors v0, v0+1 of the panel) for T tokens. */
static inline __attribute__((always_inline)) TGT void
q8_tile(const uint8_t *pan, size_t ni, const int8_t *q, size_t ldq, const float *s,
        const float *bias, float *y, size_t ldy, size_t pc0, int v0, size_t a, size_t b, int acc,
        const int T)
{
    __m256i c[QT][2];
#pragma GCC unroll 4
    for (int t = 0; t < T; t++)
        c[t][0] = c[t][1] = _mm256_setzero_si256();
    const __m256i ones = _mm256_set1_epi16(1);
    const uint8_t *w = pan + 256;
    for (size_t k = 0; k < ni / 4; k++) {
        __m256i wv[2], aw[2];
#pragma GCC unroll 2
        for (int v = 0; v < 2; v++) {
            wv[v] = _mm256_loadu_si256((const __m256i *)(w + k * 256 + (size_t)(v0 + v) * 32));
            aw[v] = _mm256_abs_epi8(wv[v]);
        }
#pragma GCC unroll 4
        for (int t = 0; t < T; t++) {
            int32_t xi;
            memcpy(&xi, q + (size_t)t * ldq + 4 * k, 4);
            __m256i xb = _mm256_set1_epi32(xi);
#pragma GCC unroll 2
            for (int v = 0; v < 2; v++) {
                __m256i p = _mm256_maddubs_epi16(aw[v], _mm256_sign_epi8(xb, wv[v]));
                c[t][v] = _mm256_add_epi32(c[t][v], _mm256_madd_epi16(p, ones));
            }
        }
    }
#pragma GCC unroll 2
    for (int v = 0; v < 2; v++) {
        size_t cc = (size_t)(v0 + v) * 8;
        if (cc + 8 <= a || cc >= b)
            continue;
        __m256 sc = _mm256_loadu_ps((const float *)(const void *)(pan + cc * 4));
        size_t o = pc0 + cc;
#pragma GCC unroll 4
        for (int t = 0; t < T; t++) {
            __m256 f =
                _mm256_mul_ps(_mm256_cvtepi32_ps(c[t][v]), _mm256_mul_ps(_mm256_set1_ps(s[t]), sc));
            store8(y + (size_t)t * ldy + o, f, bias ? bias + o : NULL, acc, cc, a, b);
        }
    }
}

static TGT void q8a8(const pii_rt_mat *W, size_t n, const float *x, size_t ldx, const float *bias,
                     float *y, size_t ldy, size_t o0, size_t o1, int acc)
{
    const size_t ni = W->n_in;
    const size_t ldq = (ni + 31) / 32 * 32;
    int8_t q[QT * QMAXIN] __attribute__((aligned(32)));
    float s[QT];
    const uint8_t *base = W->data;
    for (size_t t0 = 0; t0 < n; t0 += QT) {
        int T = n - t0 < QT ? (int)(n - t0) : QT;
        quant_rows(x + t0 * ldx, ldx, T, ni, q, ldq, s, NULL, 0);
        float *yt = y + t0 * ldy;
        for (size_t ob = o0; ob < o1;) {
            size_t p = ob / RT_QP, pc0 = p * RT_QP;
            size_t oe = pc0 + RT_QP < o1 ? pc0 + RT_QP : o1;
            const uint8_t *pan = base + p * W->ld;
            size_t a = ob - pc0, b = oe - pc0;
            for (int v0 = 0; v0 < 8; v0 += 2) {
                if ((size_t)(v0 + 2) * 8 <= a || (size_t)v0 * 8 >= b)
                    continue;
                switch (T) {
#define Q8C(k)                                                                                     \
    case k:                                                                                        \
        q8_tile(pan, ni, q, ldq, s, bias, yt, ldy, pc0, v0, a, b, acc, k);                         \
        break;
                    Q8C(1)
                    Q8C(2)
                    Q8C(3)
                    Q8C(4)
#undef Q8C
                default:
                    break;
                }
            }
            ob = oe;
        }
    }
}

/* ---- Q4 ----------------------------------------------------------------------- */

static inline __attribute__((always_inline)) TGT void
q4_tile(const uint8_t *pan, size_t ng, const int8_t *q, size_t ldq, const int32_t *sg, size_t ldg,
        const float *s, const float *bias, float *y, size_t ldy, size_t pc0, int v0, size_t a,
        size_t b, int acc, const int T)
{
    __m256 f[QT][2];
#pragma GCC unroll 4
    for (int t = 0; t < T; t++)
        f[t][0] = f[t][1] = _mm256_setzero_ps();
    const __m256i m4 = _mm256_set1_epi8(0x0f), ones = _mm256_set1_epi16(1);
    for (size_t g = 0; g < ng; g++) {
        const uint8_t *gb = pan + g * RT_Q4_GBYTES;
        __m256i c[QT][2];
#pragma GCC unroll 4
        for (int t = 0; t < T; t++)
            c[t][0] = c[t][1] = _mm256_setzero_si256();
        for (int r = 0; r < 4; r++) {
            __m256i lo[2], hi[2];
#pragma GCC unroll 2
            for (int v = 0; v < 2; v++) {
                __m256i raw =
                    _mm256_loadu_si256((const __m256i *)(gb + r * 256 + (size_t)(v0 + v) * 32));
                lo[v] = _mm256_and_si256(raw, m4);
                hi[v] = _mm256_and_si256(_mm256_srli_epi16(raw, 4), m4);
            }
#pragma GCC unroll 4
            for (int t = 0; t < T; t++) {
                int32_t x0, x1;
                const int8_t *qr = q + (size_t)t * ldq + g * 32 + (size_t)r * 8;
                memcpy(&x0, qr, 4);
                memcpy(&x1, qr + 4, 4);
                __m256i b0 = _mm256_set1_epi32(x0), b1 = _mm256_set1_epi32(x1);
#pragma GCC unroll 2
                for (int v = 0; v < 2; v++) {
                    __m256i p = _mm256_add_epi16(_mm256_maddubs_epi16(lo[v], b0),
                                                 _mm256_maddubs_epi16(hi[v], b1));
                    c[t][v] = _mm256_add_epi32(c[t][v], _mm256_madd_epi16(p, ones));
                }
            }
        }
#pragma GCC unroll 2
        for (int v = 0; v < 2; v++) {
            __m256 d = _mm256_cvtph_ps(
                _mm_loadu_si128((const __m128i *)(gb + 1024 + (size_t)(v0 + v) * 16)));
            __m256 m = _mm256_cvtph_ps(
                _mm_loadu_si128((const __m128i *)(gb + 1152 + (size_t)(v0 + v) * 16)));
#pragma GCC unroll 4
            for (int t = 0; t < T; t++) {
                __m256 af = _mm256_fmadd_ps(_mm256_cvtepi32_ps(c[t][v]), d, f[t][v]);
                f[t][v] = _mm256_fmadd_ps(m, _mm256_set1_ps((float)sg[(size_t)t * ldg + g]), af);
            }
        }
    }
#pragma GCC unroll 2
    for (int v = 0; v < 2; v++) {
        size_t cc = (size_t)(v0 + v) * 8;
        if (cc + 8 <= a || cc >= b)
            continue;
        size_t o = pc0 + cc;
#pragma GCC unroll 4
        for (int t = 0; t < T; t++)
            store8(y + (size_t)t * ldy + o, _mm256_mul_ps(f[t][v], _mm256_set1_ps(s[t])),
                   bias ? bias + o : NULL, acc, cc, a, b);
    }
}

static TGT void q4a8(const pii_rt_mat *W, size_t n, const float *x, size_t ldx, const float *bias,
                     float *y, size_t ldy, size_t o0, size_t o1, int acc)
{
    const size_t ni = W->n_in, ng = ni / RT_Q4_GROUP;
    const size_t ldq = (ni + 31) / 32 * 32, ldg = QMAXIN / RT_Q4_GROUP;
    int8_t q[QT * QMAXIN] __attribute__((aligned(32)));
    int32_t sg[QT * (QMAXIN / RT_Q4_GROUP)];
    float s[QT];
    const uint8_t *base = W->data;
    for (size_t t0 = 0; t0 < n; t0 += QT) {
        int T = n - t0 < QT ? (int)(n - t0) : QT;
        quant_rows(x + t0 * ldx, ldx, T, ni, q, ldq, s, sg, ldg);
        float *yt = y + t0 * ldy;
        for (size_t ob = o0; ob < o1;) {
            size_t p = ob / RT_QP, pc0 = p * RT_QP;
            size_t oe = pc0 + RT_QP < o1 ? pc0 + RT_QP : o1;
            const uint8_t *pan = base + p * W->ld;
            size_t a = ob - pc0, b = oe - pc0;
            for (int v0 = 0; v0 < 8; v0 += 2) {
                if ((size_t)(v0 + 2) * 8 <= a || (size_t)v0 * 8 >= b)
                    continue;
                switch (T) {
#define Q4C(k)                                                                                     \
    case k:                                                                                        \
        q4_tile(pan, ng, q, ldq, sg, ldg, s, bias, yt, ldy, pc0, v0, a, b, acc, k);                \
        break;
                    Q4C(1)
                    Q4C(2)
                    Q4C(3)
                    Q4C(4)
#undef Q4C
                default:
                    break;
                }
            }
            ob = oe;
        }
    }
}

/* ---- int16 activations (vpmaddwd) -------------------------------------------------
 * As in kern_q_avx512.c: a weight quad extended to int16 gives each 32-bit
 * lane an input pair of one output, so a ymm accumulates 4 outputs in lane
 * pairs; _mm256_hadd_* plus a 64-bit permute restores output order. */

#define QT16 4

static TGT void quant_rows16(const float *x, size_t ldx, int T, size_t ni, int16_t *q, size_t ldq,
                             float *s, int32_t *sg, size_t ldg)
{
    const __m256 absm = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    const __m256i lo = _mm256_set1_epi32(-8191), hi = _mm256_set1_epi32(8191);
    for (int t = 0; t < T; t++) {
        const float *xr = x + (size_t)t * ldx;
        int16_t *qr = q + (size_t)t * ldq;
        __m256 mx = _mm256_setzero_ps();
        size_t i = 0;
        for (; i + 8 <= ni; i += 8)
            mx = _mm256_max_ps(mx, _mm256_and_ps(_mm256_loadu_ps(xr + i), absm));
        float m8[8];
        _mm256_storeu_ps(m8, mx);
        float amax = 0;
        for (int j = 0; j < 8; j++)
            amax = m8[j] > amax ? m8[j] : amax;
        for (; i < ni; i++) {
            float a = fabsf(xr[i]);
            amax = a > amax ? a : amax;
        }
        float inv;
        rt_q16_scale(amax, &s[t], &inv);
        const __m256 vinv = _mm256_set1_ps(inv);
        for (i = 0; i + 8 <= ni; i += 8) {
            __m256i iv = _mm256_cvtps_epi32(_mm256_mul_ps(_mm256_loadu_ps(xr + i), vinv));
            iv = _mm256_max_epi32(_mm256_min_epi32(iv, hi), lo);
            _mm_storeu_si128((__m128i *)(qr + i), _mm_packs_epi32(_mm256_castsi256_si128(iv),
                                                                  _mm256_extracti128_si256(iv, 1)));
        }
        for (; i < ni; i++)
            qr[i] = rt_q16_one(xr[i], inv);
        for (; i < ldq; i++)
            qr[i] = 0;
        if (sg)
            for (size_t g = 0; g < ni / RT_Q4_GROUP; g++) {
                int32_t a = 0;
                for (int j = 0; j < RT_Q4_GROUP; j++)
                    a += qr[g * RT_Q4_GROUP + (size_t)j];
                sg[(size_t)t * ldg + g] = a;
            }
    }
}

/* a: outputs 0-3 in lane pairs, b: outputs 4-7 -> 8 outputs in order */
static inline TGT __m256i pair_sum_i(__m256i a, __m256i b)
{
    return _mm256_permute4x64_epi64(_mm256_hadd_epi32(a, b), 0xd8);
}

static inline TGT __m256 pair_sum_f(__m256 a, __m256 b)
{
    return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(_mm256_hadd_ps(a, b)), 0xd8));
}

/* Q8: 8 columns (eighth e of the panel) for T tokens. */
static inline __attribute__((always_inline)) TGT void
q8a16_tile(const uint8_t *pan, size_t ni, const int16_t *q, size_t ldq, const float *s,
           const float *bias, float *y, size_t ldy, size_t pc0, int e, size_t a, size_t b, int acc,
           const int T)
{
    __m256i c[QT16][2];
#pragma GCC unroll 4
    for (int t = 0; t < T; t++)
        c[t][0] = c[t][1] = _mm256_setzero_si256();
    const uint8_t *w = pan + 256 + (size_t)e * 32;
    for (size_t k = 0; k < ni / 4; k++) {
        __m256i wv[2];
#pragma GCC unroll 2
        for (int v = 0; v < 2; v++)
            wv[v] = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(w + k * 256 + v * 16)));
#pragma GCC unroll 4
        for (int t = 0; t < T; t++) {
            int64_t xi;
            memcpy(&xi, q + (size_t)t * ldq + 4 * k, 8);
            __m256i xb = _mm256_set1_epi64x(xi);
#pragma GCC unroll 2
            for (int v = 0; v < 2; v++)
                c[t][v] = _mm256_add_epi32(c[t][v], _mm256_madd_epi16(wv[v], xb));
        }
    }
    size_t cc = (size_t)e * 8;
    __m256 sc = _mm256_loadu_ps((const float *)(const void *)(pan + cc * 4));
    size_t o = pc0 + cc;
#pragma GCC unroll 4
    for (int t = 0; t < T; t++) {
        __m256 f = _mm256_mul_ps(_mm256_cvtepi32_ps(pair_sum_i(c[t][0], c[t][1])),
                                 _mm256_mul_ps(_mm256_set1_ps(s[t]), sc));
        store8(y + (size_t)t * ldy + o, f, bias ? bias + o : NULL, acc, cc, a, b);
    }
}

static TGT void q8a16(const pii_rt_mat *W, size_t n, const float *x, size_t ldx, const float *bias,
                      float *y, size_t ldy, size_t o0, size_t o1, int acc)
{
    const size_t ni = W->n_in, ldq = (ni + 31) / 32 * 32;
    int16_t q[QT16 * RT_Q16_MAXIN] __attribute__((aligned(32)));
    float s[QT16];
    const uint8_t *base = W->data;
    for (size_t t0 = 0; t0 < n; t0 += QT16) {
        int T = n - t0 < QT16 ? (int)(n - t0) : QT16;
        quant_rows16(x + t0 * ldx, ldx, T, ni, q, ldq, s, NULL, 0);
        float *yt = y + t0 * ldy;
        for (size_t ob = o0; ob < o1;) {
            size_t p = ob / RT_QP, pc0 = p * RT_QP;
            size_t oe = pc0 + RT_QP < o1 ? pc0 + RT_QP : o1;
            const uint8_t *pan = base + p * W->ld;
            size_t a = ob - pc0, b = oe - pc0;
            for (int e = 0; e < 8; e++) {
                if ((size_t)(e + 1) * 8 <= a || (size_t)e * 8 >= b)
                    continue;
                switch (T) {
#define Q8C(k)                                                                                     \
    case k:                                                                                        \
        q8a16_tile(pan, ni, q, ldq, s, bias, yt, ldy, pc0, e, a, b, acc, k);                       \
        break;
                    Q8C(1)
                    Q8C(2)
                    Q8C(3)
                    Q8C(4)
#undef Q8C
                default:
                    break;
                }
            }
            ob = oe;
        }
    }
}

/* Q4: 8 columns (eighth e of the panel) for T tokens. */
static inline __attribute__((always_inline)) TGT void
q4a16_tile(const uint8_t *pan, size_t ng, const int16_t *q, size_t ldq, const int32_t *sg,
           size_t ldg, const float *s, const float *bias, float *y, size_t ldy, size_t pc0, int e,
           size_t a, size_t b, int acc, const int T)
{
    __m256 f[QT16][2];
#pragma GCC unroll 4
    for (int t = 0; t < T; t++)
        f[t][0] = f[t][1] = _mm256_setzero_ps();
    const __m128i m4 = _mm_set1_epi8(0x0f);
    const __m256i dup0 = _mm256_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3);
    const __m256i dup1 = _mm256_setr_epi32(4, 4, 5, 5, 6, 6, 7, 7);
    const __m256 evm = _mm256_castsi256_ps(_mm256_setr_epi32(-1, 0, -1, 0, -1, 0, -1, 0));
    for (size_t g = 0; g < ng; g++) {
        const uint8_t *gb = pan + g * RT_Q4_GBYTES;
        __m256i c[QT16][2];
#pragma GCC unroll 4
        for (int t = 0; t < T; t++)
            c[t][0] = c[t][1] = _mm256_setzero_si256();
        for (int r = 0; r < 4; r++) {
            __m256i wl[2], wh[2];
#pragma GCC unroll 2
            for (int v = 0; v < 2; v++) {
                __m128i raw = _mm_loadu_si128(
                    (const __m128i *)(gb + r * 256 + (size_t)e * 32 + (size_t)v * 16));
                wl[v] = _mm256_cvtepu8_epi16(_mm_and_si128(raw, m4));
                wh[v] = _mm256_cvtepu8_epi16(_mm_and_si128(_mm_srli_epi16(raw, 4), m4));
            }
#pragma GCC unroll 4
            for (int t = 0; t < T; t++) {
                int64_t x0, x1;
                const int16_t *qr = q + (size_t)t * ldq + g * 32 + (size_t)r * 8;
                memcpy(&x0, qr, 8);
                memcpy(&x1, qr + 4, 8);
                __m256i b0 = _mm256_set1_epi64x(x0), b1 = _mm256_set1_epi64x(x1);
#pragma GCC unroll 2
                for (int v = 0; v < 2; v++)
                    c[t][v] =
                        _mm256_add_epi32(c[t][v], _mm256_add_epi32(_mm256_madd_epi16(wl[v], b0),
                                                                   _mm256_madd_epi16(wh[v], b1)));
            }
        }
        __m256 d8 = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(gb + 1024 + (size_t)e * 16)));
        __m256 m8 = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(gb + 1152 + (size_t)e * 16)));
        __m256 dd[2] = {_mm256_permutevar8x32_ps(d8, dup0), _mm256_permutevar8x32_ps(d8, dup1)};
        __m256 mm[2] = {_mm256_and_ps(_mm256_permutevar8x32_ps(m8, dup0), evm),
                        _mm256_and_ps(_mm256_permutevar8x32_ps(m8, dup1), evm)};
#pragma GCC unroll 4
        for (int t = 0; t < T; t++) {
            __m256 sgv = _mm256_set1_ps((float)sg[(size_t)t * ldg + g]);
#pragma GCC unroll 2
            for (int v = 0; v < 2; v++) {
                __m256 af = _mm256_fmadd_ps(_mm256_cvtepi32_ps(c[t][v]), dd[v], f[t][v]);
                f[t][v] = _mm256_fmadd_ps(mm[v], sgv, af);
            }
        }
    }
    size_t cc = (size_t)e * 8, o = pc0 + cc;
#pragma GCC unroll 4
    for (int t = 0; t < T; t++)
        store8(y + (size_t)t * ldy + o,
               _mm256_mul_ps(pair_sum_f(f[t][0], f[t][1]), _mm256_set1_ps(s[t])),
               bias ? bias + o : NULL, acc, cc, a, b);
}

static TGT void q4a16(const pii_rt_mat *W, size_t n, const float *x, size_t ldx, const float *bias,
                      float *y, size_t ldy, size_t o0, size_t o1, int acc)
{
    const size_t ni = W->n_in, ng = ni / RT_Q4_GROUP, ldq = (ni + 31) / 32 * 32;
    const size_t ldg = RT_Q16_MAXIN / RT_Q4_GROUP;
    int16_t q[QT16 * RT_Q16_MAXIN] __attribute__((aligned(32)));
    int32_t sg[QT16 * (RT_Q16_MAXIN / RT_Q4_GROUP)];
    float s[QT16];
    const uint8_t *base = W->data;
    for (size_t t0 = 0; t0 < n; t0 += QT16) {
        int T = n - t0 < QT16 ? (int)(n - t0) : QT16;
        quant_rows16(x + t0 * ldx, ldx, T, ni, q, ldq, s, sg, ldg);
        float *yt = y + t0 * ldy;
        for (size_t ob = o0; ob < o1;) {
            size_t p = ob / RT_QP, pc0 = p * RT_QP;
            size_t oe = pc0 + RT_QP < o1 ? pc0 + RT_QP : o1;
            const uint8_t *pan = base + p * W->ld;
            size_t a = ob - pc0, b = oe - pc0;
            for (int e = 0; e < 8; e++) {
                if ((size_t)(e + 1) * 8 <= a || (size_t)e * 8 >= b)
                    continue;
                switch (T) {
#define Q4C(k)                                                                                     \
    case k:                                                                                        \
        q4a16_tile(pan, ng, q, ldq, sg, ldg, s, bias, yt, ldy, pc0, e, a, b, acc, k);              \
        break;
                    Q4C(1)
                    Q4C(2)
                    Q4C(3)
                    Q4C(4)
#undef Q4C
                default:
                    break;
                }
            }
            ob = oe;
        }
    }
}

/* ---- entry points ------------------------------------------------------------------ */

void pii_rt_gemm_q8io_avx2(const pii_rt_mat *W, size_t n, const float *x, size_t ldx,
                           const float *bias, float *y, size_t ldy, size_t o0, size_t o1, int acc)
{
    int a8 = pii_rt_qact_effective() == PII_RT_QACT_I8;
    if (W->n_in > (a8 ? QMAXIN : RT_Q16_MAXIN))
        pii_rt_gemm_q8io_scalar(W, n, x, ldx, bias, y, ldy, o0, o1, acc);
    else
        (a8 ? q8a8 : q8a16)(W, n, x, ldx, bias, y, ldy, o0, o1, acc);
}

void pii_rt_gemm_q4io_avx2(const pii_rt_mat *W, size_t n, const float *x, size_t ldx,
                           const float *bias, float *y, size_t ldy, size_t o0, size_t o1, int acc)
{
    int a8 = pii_rt_qact_effective() == PII_RT_QACT_I8;
    if (W->n_in > (a8 ? QMAXIN : RT_Q16_MAXIN))
        pii_rt_gemm_q4io_scalar(W, n, x, ldx, bias, y, ldy, o0, o1, acc);
    else
        (a8 ? q4a8 : q4a16)(W, n, x, ldx, bias, y, ldy, o0, o1, acc);
}

#else
#include "kern_q.h"
void pii_rt_gemm_q8io_avx2(const pii_rt_mat *W, size_t n, const float *x, size_t ldx,
                           const float *bias, float *y, size_t ldy, size_t o0, size_t o1, int acc)
{
    pii_rt_gemm_q8io_scalar(W, n, x, ldx, bias, y, ldy, o0, o1, acc);
}
void pii_rt_gemm_q4io_avx2(const pii_rt_mat *W, size_t n, const float *x, size_t ldx,
                           const float *bias, float *y, size_t ldy, size_t o0, size_t o1, int acc)
{
    pii_rt_gemm_q4io_scalar(W, n, x, ldx, bias, y, ldy, o0, o1, acc);
}
#endif
