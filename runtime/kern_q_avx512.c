/* kern_q_avx512.c — Q8_ROW / Q4_G32 IO-panel GEMM with AVX-512 VNNI
 * (vpdpbusd: unsigned bytes x signed bytes, four products per int32 lane).
 *
 * A token tile of up to QT rows is quantized once (kern_q.h rules) into a
 * stack buffer; then every panel of the column range streams past it.
 * Q8: the weights are the unsigned operand after an XOR with 0x80
 * (w + 128), so acc = sum q w + 128 sum q, and the per-token sum of q is
 * subtracted once per output.  Q4: the nibbles (0..15) are the unsigned
 * operand directly; each group's int32 sum is folded into an f32
 * accumulator with its scale and the min term.  Results equal the scalar
 * kernels (Q8 exactly; Q4 exactly as well, both use fused multiply-adds).
 * Without VNNI, or for inputs wider than QMAXIN, the AVX2 kernels run. */
#if defined(__x86_64__)
#include <immintrin.h>
#include <string.h>

#include "kern_q.h"

#define TGT __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512vnni,fma,avx2")))
#define QT 6        /* Q8 tokens per tile */
#define QT4 4       /* Q4 tokens per tile */
#define QMAXIN 8192 /* widest input on this path (stack buffer) */

static int has_vnni(void)
{
    static int v = -1;
    if (v < 0) {
        __builtin_cpu_init();
        v = __builtin_cpu_supports("avx512vnni") ? 1 : 0;
    }
    return v;
}

/* Quantizes rows x[0..T) into q[T][ldq] (ni bytes each, zero-padded to a
 * multiple of 64), s[T], the per-row sums sq[T] and, when sg is not NULL,
 * per-group sums sg[T][ni/32]. */
static TGT void quant_rows(const float *x, size_t ldx, int T, size_t ni, int8_t *q, size_t ldq,
                           float *s, int32_t *sq, int32_t *sg, size_t ldg)
{
    const __m512 absm = _mm512_castsi512_ps(_mm512_set1_epi32(0x7fffffff));
    const __m512i lo = _mm512_set1_epi32(-127), hi = _mm512_set1_epi32(127);
    for (int t = 0; t < T; t++) {
        const float *xr = x + (size_t)t * ldx;
        int8_t *qr = q + (size_t)t * ldq;
        __m512 mx = _mm512_setzero_ps();
        size_t i = 0;
        for (; i + 16 <= ni; i += 16)
            mx = _mm512_max_ps(mx, _mm512_and_ps(_mm512_loadu_ps(xr + i), absm));
        if (i < ni) {
            __mmask16 k = (__mmask16)((1u << (ni - i)) - 1);
            mx = _mm512_max_ps(mx, _mm512_and_ps(_mm512_maskz_loadu_ps(k, xr + i), absm));
        }
        float inv;
        rt_q_scale(_mm512_reduce_max_ps(mx), &s[t], &inv);
        const __m512 vinv = _mm512_set1_ps(inv);
        __m512i sum = _mm512_setzero_si512();
        for (i = 0; i < ni; i += 16) {
            __mmask16 k = ni - i >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << (ni - i)) - 1);
            __m512 v = _mm512_mul_ps(_mm512_maskz_loadu_ps(k, xr + i), vinv);
            __m512i iv = _mm512_cvtps_epi32(v);
            iv = _mm512_max_epi32(_mm512_min_epi32(iv, hi), lo);
            iv = _mm512_maskz_mov_epi32(k, iv);
            sum = _mm512_add_epi32(sum, iv);
            _mm_storeu_si128((__m128i *)(qr + i), _mm512_cvtepi32_epi8(iv));
            if (sg && (i % 32) == 16) {
                /* group sum of the 32 values ending here */
                __m512i prev =
                    _mm512_cvtepi8_epi32(_mm_loadu_si128((const __m128i *)(qr + i - 16)));
                sg[(size_t)t * ldg + i / 32] = _mm512_reduce_add_epi32(_mm512_add_epi32(prev, iv));
            }
        }
        sq[t] = _mm512_reduce_add_epi32(sum);
        size_t pad = (ni + 63) / 64 * 64;
        for (i = ni; i < pad; i++)
            qr[i] = 0;
    }
}

static inline TGT void store_out(float *y, __m512 v, const float *bias, int acc, __mmask16 k)
{
    if (bias)
        v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(k, bias));
    if (acc)
        v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(k, y));
    _mm512_mask_storeu_ps(y, k, v);
}

static inline __mmask16 colmask(size_t c, size_t a, size_t b)
{
    /* lanes c..c+15 of the panel that fall in [a, b) */
    unsigned m = 0;
    for (unsigned j = 0; j < 16; j++)
        if (c + j >= a && c + j < b)
            m |= 1u << j;
    return (__mmask16)m;
}

/* ---- Q8 ----------------------------------------------------------------------- */

static inline __attribute__((always_inline)) TGT void
q8_tile(const uint8_t *pan, size_t ni, const int8_t *q, size_t ldq, const float *s,
        const int32_t *sq, const float *bias, float *y, size_t ldy, size_t pc0, size_t a, size_t b,
        int acc, const int T)
{
    __m512i c[QT][4];
#pragma GCC unroll 6
    for (int t = 0; t < T; t++)
#pragma GCC unroll 4
        for (int v = 0; v < 4; v++)
            c[t][v] = _mm512_setzero_si512();
    const __m512i flip = _mm512_set1_epi8((char)0x80);
    const uint8_t *w = pan + 256;
    for (size_t k = 0; k < ni / 4; k++) {
        const uint8_t *wr = w + k * 256;
        __m512i wv[4];
#pragma GCC unroll 4
        for (int v = 0; v < 4; v++)
            wv[v] = _mm512_xor_si512(_mm512_loadu_si512(wr + v * 64), flip);
#pragma GCC unroll 6
        for (int t = 0; t < T; t++) {
            int32_t xi;
            memcpy(&xi, q + (size_t)t * ldq + 4 * k, 4);
            __m512i xb = _mm512_set1_epi32(xi);
#pragma GCC unroll 4
            for (int v = 0; v < 4; v++)
                c[t][v] = _mm512_dpbusd_epi32(c[t][v], wv[v], xb);
        }
    }
#pragma GCC unroll 4
    for (int v = 0; v < 4; v++) {
        size_t cc = (size_t)v * 16;
        if (cc + 16 <= a || cc >= b)
            continue;
        __mmask16 k = colmask(cc, a, b);
        __m512 sc = _mm512_loadu_ps((const float *)(const void *)(pan + cc * 4));
        size_t o = pc0 + cc; /* absolute column of lane 0 */
#pragma GCC unroll 6
        for (int t = 0; t < T; t++) {
            __m512i corr = _mm512_sub_epi32(c[t][v], _mm512_set1_epi32(128 * sq[t]));
            __m512 f =
                _mm512_mul_ps(_mm512_cvtepi32_ps(corr), _mm512_mul_ps(_mm512_set1_ps(s[t]), sc));
            store_out(y + (size_t)t * ldy + o, f, bias ? bias + o : NULL, acc, k);
        }
    }
}

static TGT void q8a8(const pii_rt_mat *W, size_t n, const float *x, size_t ldx, const float *bias,
                     float *y, size_t ldy, size_t o0, size_t o1, int acc)
{
    const size_t ni = W->n_in;
    const size_t ldq = (ni + 63) / 64 * 64;
    int8_t q[QT * QMAXIN] __attribute__((aligned(64)));
    float s[QT];
    int32_t sq[QT];
    const uint8_t *base = W->data;
    for (size_t t0 = 0; t0 < n; t0 += QT) {
        int T = n - t0 < QT ? (int)(n - t0) : QT;
        quant_rows(x + t0 * ldx, ldx, T, ni, q, ldq, s, sq, NULL, 0);
        float *yt = y + t0 * ldy;
        for (size_t ob = o0; ob < o1;) {
            size_t p = ob / RT_QP, pc0 = p * RT_QP;
            size_t oe = pc0 + RT_QP < o1 ? pc0 + RT_QP : o1;
            const uint8_t *pan = base + p * W->ld;
            size_t a = ob - pc0, b = oe - pc0;
            switch (T) {
#define Q8C(k)                                                                                     \
    case k:                                                                                        \
        q8_tile(pan, ni, q, ldq, s, sq, bias, yt, ldy, pc0, a, b, acc, k);                         \
        break;
                Q8C(1)
                Q8C(2)
                Q8C(3)
                Q8C(4)
                Q8C(5)
                Q8C(6)
#undef Q8C
            default:
                break;
            }
            ob = oe;
        }
    }
}

/* ---- Q4 ----------------------------------------------------------------------- */

/* 32 columns (vectors v0, v0+1 of the panel) for T tokens. */
static inline __attribute__((always_inline)) TGT void
q4_tile(const uint8_t *pan, size_t ng, const int8_t *q, size_t ldq, const int32_t *sg, size_t ldg,
        const float *s, const float *bias, float *y, size_t ldy, size_t pc0, int v0, size_t a,
        size_t b, int acc, const int T)
{
    __m512 f[QT4][2];
#pragma GCC unroll 4
    for (int t = 0; t < T; t++)
        f[t][0] = f[t][1] = _mm512_setzero_ps();
    const __m512i m4 = _mm512_set1_epi8(0x0f);
    for (size_t g = 0; g < ng; g++) {
        const uint8_t *gb = pan + g * RT_Q4_GBYTES;
        __m512i c[QT4][2];
#pragma GCC unroll 4
        for (int t = 0; t < T; t++)
            c[t][0] = c[t][1] = _mm512_setzero_si512();
#pragma GCC unroll 4
        for (int r = 0; r < 4; r++) {
            __m512i lo[2], hi[2];
#pragma GCC unroll 2
            for (int v = 0; v < 2; v++) {
                __m512i raw = _mm512_loadu_si512(gb + r * 256 + (v0 + v) * 64);
                lo[v] = _mm512_and_si512(raw, m4);
                hi[v] = _mm512_and_si512(_mm512_srli_epi16(raw, 4), m4);
            }
#pragma GCC unroll 4
            for (int t = 0; t < T; t++) {
                int32_t x0, x1;
                const int8_t *qr = q + (size_t)t * ldq + g * 32 + (size_t)r * 8;
                memcpy(&x0, qr, 4);
                memcpy(&x1, qr + 4, 4);
                __m512i b0 = _mm512_set1_epi32(x0), b1 = _mm512_set1_epi32(x1);
#pragma GCC unroll 2
                for (int v = 0; v < 2; v++) {
                    c[t][v] = _mm512_dpbusd_epi32(c[t][v], lo[v], b0);
                    c[t][v] = _mm512_dpbusd_epi32(c[t][v], hi[v], b1);
                }
            }
        }
#pragma GCC unroll 2
        for (int v = 0; v < 2; v++) {
            __m512 d = _mm512_cvtph_ps(
                _mm256_loadu_si256((const __m256i *)(gb + 1024 + (size_t)(v0 + v) * 32)));
            __m512 m = _mm512_cvtph_ps(
                _mm256_loadu_si256((const __m256i *)(gb + 1152 + (size_t)(v0 + v) * 32)));
#pragma GCC unroll 4
            for (int t = 0; t < T; t++) {
                __m512 acc_f = _mm512_fmadd_ps(_mm512_cvtepi32_ps(c[t][v]), d, f[t][v]);
                f[t][v] = _mm512_fmadd_ps(m, _mm512_set1_ps((float)sg[(size_t)t * ldg + g]), acc_f);
            }
        }
    }
#pragma GCC unroll 2
    for (int v = 0; v < 2; v++) {
        size_t cc = (size_t)(v0 + v) * 16;
        if (cc + 16 <= a || cc >= b)
            continue;
        __mmask16 k = colmask(cc, a, b);
        size_t o = pc0 + cc;
#pragma GCC unroll 4
        for (int t = 0; t < T; t++)
            store_out(y + (size_t)t * ldy + o, _mm512_mul_ps(f[t][v], _mm512_set1_ps(s[t])),
                      bias ? bias + o : NULL, acc, k);
    }
}

static TGT void q4a8(const pii_rt_mat *W, size_t n, const float *x, size_t ldx, const float *bias,
                     float *y, size_t ldy, size_t o0, size_t o1, int acc)
{
    const size_t ni = W->n_in, ng = ni / RT_Q4_GROUP;
    const size_t ldq = (ni + 63) / 64 * 64, ldg = QMAXIN / RT_Q4_GROUP;
    int8_t q[QT4 * QMAXIN] __attribute__((aligned(64)));
    int32_t sg[QT4 * (QMAXIN / RT_Q4_GROUP)];
    float s[QT4];
    int32_t sq[QT4];
    const uint8_t *base = W->data;
    for (size_t t0 = 0; t0 < n; t0 += QT4) {
        int T = n - t0 < QT4 ? (int)(n - t0) : QT4;
        quant_rows(x + t0 * ldx, ldx, T, ni, q, ldq, s, sq, sg, ldg);
        float *yt = y + t0 * ldy;
        for (size_t ob = o0; ob < o1;) {
            size_t p = ob / RT_QP, pc0 = p * RT_QP;
            size_t oe = pc0 + RT_QP < o1 ? pc0 + RT_QP : o1;
            const uint8_t *pan = base + p * W->ld;
            size_t a = ob - pc0, b = oe - pc0;
            for (int v0 = 0; v0 < 4; v0 += 2) {
                if ((size_t)(v0 + 2) * 16 <= a || (size_t)v0 * 16 >= b)
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

/* ---- int16 activations (vpdpwssd) ------------------------------------------------
 * A weight quad [o][4] sign- or zero-extended to int16 holds, per 32-bit
 * lane, output o's inputs (0, 1) or (2, 3); the activations broadcast as 64
 * bits (4 int16) match them.  So each zmm accumulates 8 outputs in lane
 * pairs, combined at the end (exactly for Q8, in float for Q4). */

#define QT16 6  /* Q8 tokens per tile (32 columns) */
#define QPF 16  /* prefetch distance in panel rows (256 B each) */
#define QT16B 4 /* Q4 tokens per tile (16 columns) */

static TGT void quant_rows16(const float *x, size_t ldx, int T, size_t ni, int16_t *q, size_t ldq,
                             float *s, int32_t *sg, size_t ldg)
{
    const __m512 absm = _mm512_castsi512_ps(_mm512_set1_epi32(0x7fffffff));
    const __m512i lo = _mm512_set1_epi32(-8191), hi = _mm512_set1_epi32(8191);
    for (int t = 0; t < T; t++) {
        const float *xr = x + (size_t)t * ldx;
        int16_t *qr = q + (size_t)t * ldq;
        __m512 mx = _mm512_setzero_ps();
        size_t i = 0;
        for (; i + 16 <= ni; i += 16)
            mx = _mm512_max_ps(mx, _mm512_and_ps(_mm512_loadu_ps(xr + i), absm));
        if (i < ni) {
            __mmask16 k = (__mmask16)((1u << (ni - i)) - 1);
            mx = _mm512_max_ps(mx, _mm512_and_ps(_mm512_maskz_loadu_ps(k, xr + i), absm));
        }
        float inv;
        rt_q16_scale(_mm512_reduce_max_ps(mx), &s[t], &inv);
        const __m512 vinv = _mm512_set1_ps(inv);
        __m512i gs = _mm512_setzero_si512();
        for (i = 0; i < ni; i += 16) {
            __mmask16 k = ni - i >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << (ni - i)) - 1);
            __m512i iv = _mm512_cvtps_epi32(_mm512_mul_ps(_mm512_maskz_loadu_ps(k, xr + i), vinv));
            iv = _mm512_maskz_mov_epi32(k, _mm512_max_epi32(_mm512_min_epi32(iv, hi), lo));
            _mm256_storeu_si256((__m256i *)(qr + i), _mm512_cvtepi32_epi16(iv));
            if (sg) {
                gs = _mm512_add_epi32(gs, iv);
                if (i % 32 == 16) {
                    sg[(size_t)t * ldg + i / 32] = _mm512_reduce_add_epi32(gs);
                    gs = _mm512_setzero_si512();
                }
            }
        }
    }
}

/* lanes 2j + k of a and b (a: outputs 0-7, b: 8-15) -> 16 outputs */
static inline TGT __m512i pair_sum_i(__m512i a, __m512i b)
{
    const __m512i ev = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    const __m512i od = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
    return _mm512_add_epi32(_mm512_permutex2var_epi32(a, ev, b),
                            _mm512_permutex2var_epi32(a, od, b));
}

static inline TGT __m512 pair_sum_f(__m512 a, __m512 b)
{
    const __m512i ev = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    const __m512i od = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
    return _mm512_add_ps(_mm512_permutex2var_ps(a, ev, b), _mm512_permutex2var_ps(a, od, b));
}

/* Q8: 32 columns (half h of the panel) for T tokens. */
static inline __attribute__((always_inline)) TGT void
q8a16_tile(const uint8_t *pan, size_t ni, const int16_t *q, size_t ldq, const float *s,
           const float *bias, float *y, size_t ldy, size_t pc0, int h, size_t a, size_t b, int acc,
           const int T)
{
    __m512i c[QT16][4];
#pragma GCC unroll 6
    for (int t = 0; t < T; t++)
#pragma GCC unroll 4
        for (int v = 0; v < 4; v++)
            c[t][v] = _mm512_setzero_si512();
    const uint8_t *w = pan + 256 + (size_t)h * 128;
    const uint8_t *pf = pan + 256 + QPF * 256, *pfe = pan + 256 + ni * 64;
    for (size_t k = 0; k < ni / 4; k++) {
        /* the first half streams the panel from memory: fetch QPF rows
         * ahead (the second half then finds it in L2) */
        if (h == 0 && pf < pfe) {
            _mm_prefetch((const char *)pf, _MM_HINT_T0);
            _mm_prefetch((const char *)pf + 64, _MM_HINT_T0);
            _mm_prefetch((const char *)pf + 128, _MM_HINT_T0);
            _mm_prefetch((const char *)pf + 192, _MM_HINT_T0);
            pf += 256;
        }
        __m512i wv[4];
#pragma GCC unroll 4
        for (int v = 0; v < 4; v++)
            wv[v] =
                _mm512_cvtepi8_epi16(_mm256_loadu_si256((const __m256i *)(w + k * 256 + v * 32)));
#pragma GCC unroll 6
        for (int t = 0; t < T; t++) {
            int64_t xi;
            memcpy(&xi, q + (size_t)t * ldq + 4 * k, 8);
            __m512i xb = _mm512_set1_epi64(xi);
#pragma GCC unroll 4
            for (int v = 0; v < 4; v++)
                c[t][v] = _mm512_dpwssd_epi32(c[t][v], wv[v], xb);
        }
    }
#pragma GCC unroll 2
    for (int u = 0; u < 2; u++) {
        size_t cc = (size_t)h * 32 + (size_t)u * 16;
        if (cc + 16 <= a || cc >= b)
            continue;
        __mmask16 km = colmask(cc, a, b);
        __m512 sc = _mm512_loadu_ps((const float *)(const void *)(pan + cc * 4));
        size_t o = pc0 + cc;
#pragma GCC unroll 6
        for (int t = 0; t < T; t++) {
            __m512i sum = pair_sum_i(c[t][2 * u], c[t][2 * u + 1]);
            __m512 f =
                _mm512_mul_ps(_mm512_cvtepi32_ps(sum), _mm512_mul_ps(_mm512_set1_ps(s[t]), sc));
            store_out(y + (size_t)t * ldy + o, f, bias ? bias + o : NULL, acc, km);
        }
    }
}

static TGT void q8a16(const pii_rt_mat *W, size_t n, const float *x, size_t ldx, const float *bias,
                      float *y, size_t ldy, size_t o0, size_t o1, int acc)
{
    const size_t ni = W->n_in, ldq = (ni + 31) / 32 * 32;
    int16_t q[QT16 * RT_Q16_MAXIN] __attribute__((aligned(64)));
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
            for (int h = 0; h < 2; h++) {
                if ((size_t)(h + 1) * 32 <= a || (size_t)h * 32 >= b)
                    continue;
                switch (T) {
#define Q8C(k)                                                                                     \
    case k:                                                                                        \
        q8a16_tile(pan, ni, q, ldq, s, bias, yt, ldy, pc0, h, a, b, acc, k);                       \
        break;
                    Q8C(1)
                    Q8C(2)
                    Q8C(3)
                    Q8C(4)
                    Q8C(5)
                    Q8C(6)
#undef Q8C
                default:
                    break;
                }
            }
            ob = oe;
        }
    }
}

/* Q4: 16 columns (quarter u of the panel) for T tokens. */
static inline __attribute__((always_inline)) TGT void
q4a16_tile(const uint8_t *pan, size_t ng, const int16_t *q, size_t ldq, const int32_t *sg,
           size_t ldg, const float *s, const float *bias, float *y, size_t ldy, size_t pc0, int u,
           size_t a, size_t b, int acc, const int T)
{
    __m512 f[QT16B][2];
#pragma GCC unroll 4
    for (int t = 0; t < T; t++)
        f[t][0] = f[t][1] = _mm512_setzero_ps();
    const __m256i m4 = _mm256_set1_epi8(0x0f);
    const __m512i dup0 = _mm512_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7);
    const __m512i dup1 =
        _mm512_setr_epi32(8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13, 14, 14, 15, 15);
    for (size_t g = 0; g < ng; g++) {
        const uint8_t *gb = pan + g * RT_Q4_GBYTES;
        __m512i c[QT16B][2];
#pragma GCC unroll 4
        for (int t = 0; t < T; t++)
            c[t][0] = c[t][1] = _mm512_setzero_si512();
#pragma GCC unroll 4
        for (int r = 0; r < 4; r++) {
            __m512i wl[2], wh[2];
#pragma GCC unroll 2
            for (int v = 0; v < 2; v++) {
                __m256i raw = _mm256_loadu_si256(
                    (const __m256i *)(gb + r * 256 + (size_t)u * 64 + (size_t)v * 32));
                wl[v] = _mm512_cvtepu8_epi16(_mm256_and_si256(raw, m4));
                wh[v] = _mm512_cvtepu8_epi16(_mm256_and_si256(_mm256_srli_epi16(raw, 4), m4));
            }
#pragma GCC unroll 4
            for (int t = 0; t < T; t++) {
                int64_t x0, x1;
                const int16_t *qr = q + (size_t)t * ldq + g * 32 + (size_t)r * 8;
                memcpy(&x0, qr, 8);
                memcpy(&x1, qr + 4, 8);
                __m512i b0 = _mm512_set1_epi64(x0), b1 = _mm512_set1_epi64(x1);
#pragma GCC unroll 2
                for (int v = 0; v < 2; v++) {
                    c[t][v] = _mm512_dpwssd_epi32(c[t][v], wl[v], b0);
                    c[t][v] = _mm512_dpwssd_epi32(c[t][v], wh[v], b1);
                }
            }
        }
        __m512 d16 =
            _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(gb + 1024 + (size_t)u * 32)));
        __m512 m16 =
            _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(gb + 1152 + (size_t)u * 32)));
        __m512 dd[2] = {_mm512_permutexvar_ps(dup0, d16), _mm512_permutexvar_ps(dup1, d16)};
        __m512 mm[2] = {_mm512_maskz_permutexvar_ps(0x5555, dup0, m16),
                        _mm512_maskz_permutexvar_ps(0x5555, dup1, m16)};
#pragma GCC unroll 4
        for (int t = 0; t < T; t++) {
            __m512 sgv = _mm512_set1_ps((float)sg[(size_t)t * ldg + g]);
#pragma GCC unroll 2
            for (int v = 0; v < 2; v++) {
                __m512 af = _mm512_fmadd_ps(_mm512_cvtepi32_ps(c[t][v]), dd[v], f[t][v]);
                f[t][v] = _mm512_fmadd_ps(mm[v], sgv, af);
            }
        }
    }
    size_t cc = (size_t)u * 16;
    if (cc + 16 <= a || cc >= b)
        return;
    __mmask16 km = colmask(cc, a, b);
    size_t o = pc0 + cc;
#pragma GCC unroll 4
    for (int t = 0; t < T; t++)
        store_out(y + (size_t)t * ldy + o,
                  _mm512_mul_ps(pair_sum_f(f[t][0], f[t][1]), _mm512_set1_ps(s[t])),
                  bias ? bias + o : NULL, acc, km);
}

static TGT void q4a16(const pii_rt_mat *W, size_t n, const float *x, size_t ldx, const float *bias,
                      float *y, size_t ldy, size_t o0, size_t o1, int acc)
{
    const size_t ni = W->n_in, ng = ni / RT_Q4_GROUP, ldq = (ni + 31) / 32 * 32;
    const size_t ldg = RT_Q16_MAXIN / RT_Q4_GROUP;
    int16_t q[QT16B * RT_Q16_MAXIN] __attribute__((aligned(64)));
    int32_t sg[QT16B * (RT_Q16_MAXIN / RT_Q4_GROUP)];
    float s[QT16B];
    const uint8_t *base = W->data;
    for (size_t t0 = 0; t0 < n; t0 += QT16B) {
        int T = n - t0 < QT16B ? (int)(n - t0) : QT16B;
        quant_rows16(x + t0 * ldx, ldx, T, ni, q, ldq, s, sg, ldg);
        float *yt = y + t0 * ldy;
        for (size_t ob = o0; ob < o1;) {
            size_t p = ob / RT_QP, pc0 = p * RT_QP;
            size_t oe = pc0 + RT_QP < o1 ? pc0 + RT_QP : o1;
            const uint8_t *pan = base + p * W->ld;
            size_t a = ob - pc0, b = oe - pc0;
            for (int u = 0; u < 4; u++) {
                if ((size_t)(u + 1) * 16 <= a || (size_t)u * 16 >= b)
                    continue;
                switch (T) {
#define Q4C(k)                                                                                     \
    case k:                                                                                        \
        q4a16_tile(pan, ng, q, ldq, sg, ldg, s, bias, yt, ldy, pc0, u, a, b, acc, k);              \
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

void pii_rt_gemm_q8io_avx512(const pii_rt_mat *W, size_t n, const float *x, size_t ldx,
                             const float *bias, float *y, size_t ldy, size_t o0, size_t o1, int acc)
{
    int a8 = pii_rt_qact_effective() == PII_RT_QACT_I8;
    if (!has_vnni() || W->n_in > (a8 ? QMAXIN : RT_Q16_MAXIN))
        pii_rt_gemm_q8io_avx2(W, n, x, ldx, bias, y, ldy, o0, o1, acc);
    else
        (a8 ? q8a8 : q8a16)(W, n, x, ldx, bias, y, ldy, o0, o1, acc);
}

void pii_rt_gemm_q4io_avx512(const pii_rt_mat *W, size_t n, const float *x, size_t ldx,
                             const float *bias, float *y, size_t ldy, size_t o0, size_t o1, int acc)
{
    int a8 = pii_rt_qact_effective() == PII_RT_QACT_I8;
    if (!has_vnni() || W->n_in > (a8 ? QMAXIN : RT_Q16_MAXIN))
        pii_rt_gemm_q4io_avx2(W, n, x, ldx, bias, y, ldy, o0, o1, acc);
    else
        (a8 ? q4a8 : q4a16)(W, n, x, ldx, bias, y, ldy, o0, o1, acc);
}

#else
#include "kern_q.h"
void pii_rt_gemm_q8io_avx512(const pii_rt_mat *W, size_t n, const float *x, size_t ldx,
                             const float *bias, float *y, size_t ldy, size_t o0, size_t o1, int acc)
{
    pii_rt_gemm_q8io_scalar(W, n, x, ldx, bias, y, ldy, o0, o1, acc);
}
void pii_rt_gemm_q4io_avx512(const pii_rt_mat *W, size_t n, const float *x, size_t ldx,
                             const float *bias, float *y, size_t ldy, size_t o0, size_t o1, int acc)
{
    pii_rt_gemm_q4io_scalar(W, n, x, ldx, bias, y, ldy, o0, o1, acc);
}
#endif
