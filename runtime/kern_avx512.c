/* kern_avx512.c — the AVX-512 vector layer for kern_simd.inc (float
 * kernels) and kern_q.inc (quantized kernels, with VNNI: vpdpbusd,
 * unsigned bytes x signed bytes, and vpdpwssd, int16 pairs, into int32).
 *
 * Q8 with int8 activations: the weights are the unsigned operand after an
 * XOR with 0x80 (w + 128), so acc = sum q w + 128 sum q, and the token's
 * sum of q is subtracted once per output (Q8_FIX).  Q4: the nibbles
 * (0..15) are the unsigned operand directly.  Without VNNI (the plan's
 * vnni is 0) the quantized slots run the AVX2 kernels. */
#if defined(__x86_64__)
#include <immintrin.h>
#include <math.h>

#include <string.h>

#include "kern_q.h"

#define TGT __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,fma,avx2,f16c")))
#define SFX(name) name##_avx512
#define VW 16
typedef __m512 vf;

#define V_ZERO() _mm512_setzero_ps()
#define V_SET1(x) _mm512_set1_ps(x)
#define V_LD(p) _mm512_loadu_ps(p)
#define V_ST(p, v) _mm512_storeu_ps(p, v)
#define V_FMA(a, b, c) _mm512_fmadd_ps(a, b, c)
#define V_MUL(a, b) _mm512_mul_ps(a, b)
#define V_DIV(a, b) _mm512_div_ps(a, b)
#define V_ADD(a, b) _mm512_add_ps(a, b)
#define V_SUB(a, b) _mm512_sub_ps(a, b)
#define V_MAX(a, b) _mm512_max_ps(a, b)
#define V_MIN(a, b) _mm512_min_ps(a, b)
#define V_HSUM(v) _mm512_reduce_add_ps(v)
#define V_HMAX(v) _mm512_reduce_max_ps(v)
#define V_LD_BF16(p)                                                                               \
    _mm512_castsi512_ps(                                                                           \
        _mm512_slli_epi32(_mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(p))), 16))
#define V_LD_F16(p) _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(p)))
#define V_LD_I8(p) _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(_mm_loadu_si128((const __m128i *)(p))))
#define V_F16S(h) _cvtsh_ss(h)
#define V_EXP(x) exp_v(x)

#define IO_T 8
#define IO_NV 2
#define IO_TS 4
#define IO_NVS 4
#define IO_NVMAX 4
#define OI_O 4
#define OI_T 4

/* exp(x), Cephes-style range reduction and degree-5 polynomial (~1 ulp);
 * inputs clamped to [-87.3, 88]. */
static inline TGT __m512 exp_v(__m512 x)
{
    x = _mm512_min_ps(_mm512_max_ps(x, _mm512_set1_ps(-87.33654f)), _mm512_set1_ps(88.0f));
    __m512 fx = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(1.44269504088896341f)),
                                     _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    x = _mm512_fnmadd_ps(fx, _mm512_set1_ps(0.693359375f), x);
    x = _mm512_fnmadd_ps(fx, _mm512_set1_ps(-2.12194440e-4f), x);
    __m512 y = _mm512_set1_ps(1.9875691500e-4f);
    y = _mm512_fmadd_ps(y, x, _mm512_set1_ps(1.3981999507e-3f));
    y = _mm512_fmadd_ps(y, x, _mm512_set1_ps(8.3334519073e-3f));
    y = _mm512_fmadd_ps(y, x, _mm512_set1_ps(4.1665795894e-2f));
    y = _mm512_fmadd_ps(y, x, _mm512_set1_ps(1.6666665459e-1f));
    y = _mm512_fmadd_ps(y, x, _mm512_set1_ps(5.0000001201e-1f));
    y = _mm512_fmadd_ps(y, _mm512_mul_ps(x, x), _mm512_add_ps(x, _mm512_set1_ps(1.0f)));
    __m512i e =
        _mm512_slli_epi32(_mm512_add_epi32(_mm512_cvtps_epi32(fx), _mm512_set1_epi32(127)), 23);
    return _mm512_mul_ps(y, _mm512_castsi512_ps(e));
}

/* ---- the integer layer of kern_q.inc ---- */
#define QTGT __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512vnni,fma,avx2,f16c")))
typedef __m512i vi;
#define Q_LD(p) _mm512_loadu_si512((const void *)(p))
#define Q_ZERO() _mm512_setzero_si512()
#define Q_SET1_32(v) _mm512_set1_epi32(v)
#define Q_SET1_64(v) _mm512_set1_epi64(v)
#define Q_ADD(a, b) _mm512_add_epi32(a, b)
#define Q_MIN(a, b) _mm512_min_epi32(a, b)
#define Q_MAX(a, b) _mm512_max_epi32(a, b)
#define Q_HSUM(v) _mm512_reduce_add_epi32(v)
#define Q_CVT_F(v) _mm512_cvtepi32_ps(v)
#define Q_CVT_I(v) _mm512_cvtps_epi32(v)
#define V_ABS(v) _mm512_and_ps(v, _mm512_castsi512_ps(_mm512_set1_epi32(0x7fffffff)))
#define Q_NIB_LO(r) _mm512_and_si512(r, _mm512_set1_epi8(0x0f))
#define Q_NIB_HI(r) _mm512_and_si512(_mm512_srli_epi16(r, 4), _mm512_set1_epi8(0x0f))
#define Q_LD_I8_16(p) _mm512_cvtepi8_epi16(_mm256_loadu_si256((const __m256i *)(const void *)(p)))
#define Q_DOT16(acc, w, x) _mm512_dpwssd_epi32(acc, w, x)
#define Q_DOT16_2(acc, w0, x0, w1, x1) _mm512_dpwssd_epi32(_mm512_dpwssd_epi32(acc, w0, x0), w1, x1)
#define Q_ST8(p, v) _mm_storeu_si128((__m128i *)(void *)(p), _mm512_cvtepi32_epi8(v))
#define Q_ST16(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), _mm512_cvtepi32_epi16(v))
#define Q8_SQ 1
#define Q8_FIX(acc, sq) _mm512_sub_epi32(acc, _mm512_set1_epi32(128 * (sq)))
#define Q_NEEDS_VNNI 1
#define Q_FALLBACK pii_rt_kern_avx2

typedef __m512i q8w; /* w + 128 (unsigned) */

static inline QTGT q8w q8_prep(__m512i w)
{
    return _mm512_xor_si512(w, _mm512_set1_epi8((char)0x80));
}

static inline QTGT __m512i q8_dot(__m512i acc, q8w w, __m512i x)
{
    return _mm512_dpbusd_epi32(acc, w, x);
}

static inline QTGT __m512i q4_dot(__m512i acc, __m512i lo, __m512i x0, __m512i hi, __m512i x1)
{
    return _mm512_dpbusd_epi32(_mm512_dpbusd_epi32(acc, lo, x0), hi, x1);
}

static inline QTGT void q_ld_u4_16(const uint8_t *p, __m512i *lo, __m512i *hi)
{
    const __m256i m4 = _mm256_set1_epi8(0x0f);
    __m256i raw = _mm256_loadu_si256((const __m256i *)(const void *)p);
    *lo = _mm512_cvtepu8_epi16(_mm256_and_si256(raw, m4));
    *hi = _mm512_cvtepu8_epi16(_mm256_and_si256(_mm256_srli_epi16(raw, 4), m4));
}

/* lanes 2j + k of a and b (a: outputs 0-7, b: 8-15) -> 16 outputs */
static inline QTGT __m512i q_pair_i(__m512i a, __m512i b)
{
    const __m512i ev = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    const __m512i od = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
    return _mm512_add_epi32(_mm512_permutex2var_epi32(a, ev, b),
                            _mm512_permutex2var_epi32(a, od, b));
}

static inline QTGT __m512 q_pair_f(__m512 a, __m512 b)
{
    const __m512i ev = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    const __m512i od = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
    return _mm512_add_ps(_mm512_permutex2var_ps(a, ev, b), _mm512_permutex2var_ps(a, od, b));
}

static inline QTGT void q_dup2(__m512 v, __m512 out[2])
{
    out[0] =
        _mm512_permutexvar_ps(_mm512_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7), v);
    out[1] = _mm512_permutexvar_ps(
        _mm512_setr_epi32(8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13, 14, 14, 15, 15), v);
}

static inline QTGT __m512 q_even(__m512 v)
{
    return _mm512_maskz_mov_ps(0x5555, v);
}

static inline QTGT void q_store(float *y, __m512 v, const float *bias, int acc, size_t c, size_t a,
                                size_t b)
{
    /* lanes c..c+15 of the panel that fall in [a, b) */
    unsigned m = 0;
    for (unsigned j = 0; j < 16; j++)
        if (c + j >= a && c + j < b)
            m |= 1u << j;
    __mmask16 k = (__mmask16)m;
    if (bias)
        v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(k, bias));
    if (acc)
        v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(k, y));
    _mm512_mask_storeu_ps(y, k, v);
}

#define Q_CASES_4(F) F(1) F(2) F(3) F(4)
#define Q_CASES_6(F) Q_CASES_4(F) F(5) F(6)
#define Q_UNROLL_R _Pragma("GCC unroll 4")
#define Q8A8_T 6 /* Q8, int8 activations: 6 tokens x 4 vectors (64 columns) */
#define Q8A8_NV 4
#define Q8A8_CASES Q_CASES_6
#define Q4A8_T 4 /* Q4, int8: 4 tokens x 32 columns */
#define Q4A8_CASES Q_CASES_4
#define Q8A16_T 6 /* Q8, int16: 6 tokens x 4 vectors (32 columns) */
#define Q8A16_NV 4
#define Q8A16_CASES Q_CASES_6
#define Q8A16_PF 16
#define Q4A16_T 4 /* Q4, int16: 4 tokens x 16 columns */
#define Q4A16_CASES Q_CASES_4

#include "kern_q.inc"
#include "kern_simd.inc"

#else
#include "kern.h"
const rt_kernels pii_rt_kern_avx512 = {0};
#endif
