/* kern_avx2.c — the AVX2 + FMA + F16C vector layer for kern_simd.inc (float
 * kernels) and kern_q.inc (quantized kernels, no VNNI).
 *
 * Quantized products go through vpmaddubsw (unsigned x signed byte pairs
 * into int16) and vpmaddwd (pairs of int16 into int32).  Q8 uses the sign
 * trick so no int16 sum can saturate: |w| as the unsigned operand and q
 * with w's sign as the signed one (|w|, |q| <= 127, so a pair is at most
 * 32258).  Q4: nibbles (<= 15) times q cannot saturate either. */
#if defined(__x86_64__)
#include <immintrin.h>
#include <math.h>

#include <string.h>

#include "kern_q.h"

#define TGT __attribute__((target("avx2,fma,f16c")))
#define SFX(name) name##_avx2
#define VW 8
typedef __m256 vf;

static inline TGT float hsum_v(__m256 v)
{
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
}

static inline TGT float hmax_v(__m256 v)
{
    __m128 s = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_max_ps(s, _mm_movehl_ps(s, s));
    s = _mm_max_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
}

#define V_ZERO() _mm256_setzero_ps()
#define V_SET1(x) _mm256_set1_ps(x)
#define V_LD(p) _mm256_loadu_ps(p)
#define V_ST(p, v) _mm256_storeu_ps(p, v)
#define V_FMA(a, b, c) _mm256_fmadd_ps(a, b, c)
#define V_MUL(a, b) _mm256_mul_ps(a, b)
#define V_DIV(a, b) _mm256_div_ps(a, b)
#define V_ADD(a, b) _mm256_add_ps(a, b)
#define V_SUB(a, b) _mm256_sub_ps(a, b)
#define V_MAX(a, b) _mm256_max_ps(a, b)
#define V_MIN(a, b) _mm256_min_ps(a, b)
#define V_HSUM(v) hsum_v(v)
#define V_HMAX(v) hmax_v(v)
#define V_LD_BF16(p)                                                                               \
    _mm256_castsi256_ps(                                                                           \
        _mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(p))), 16))
#define V_LD_F16(p) _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(p)))
#define V_LD_I8(p) _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i *)(p))))
#define V_F16S(h) _cvtsh_ss(h)
#define V_EXP(x) exp_v(x)

#define IO_T 6
#define IO_NV 2
#define IO_TS 3
#define IO_NVS 4
#define IO_NVMAX 4
#define OI_O 4
#define OI_T 2

static inline TGT __m256 exp_v(__m256 x)
{
    x = _mm256_min_ps(_mm256_max_ps(x, _mm256_set1_ps(-87.33654f)), _mm256_set1_ps(88.0f));
    __m256 fx = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(1.44269504088896341f)),
                                _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    x = _mm256_fnmadd_ps(fx, _mm256_set1_ps(0.693359375f), x);
    x = _mm256_fnmadd_ps(fx, _mm256_set1_ps(-2.12194440e-4f), x);
    __m256 y = _mm256_set1_ps(1.9875691500e-4f);
    y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(1.3981999507e-3f));
    y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(8.3334519073e-3f));
    y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(4.1665795894e-2f));
    y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(1.6666665459e-1f));
    y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(5.0000001201e-1f));
    y = _mm256_fmadd_ps(y, _mm256_mul_ps(x, x), _mm256_add_ps(x, _mm256_set1_ps(1.0f)));
    __m256i e =
        _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(fx), _mm256_set1_epi32(127)), 23);
    return _mm256_mul_ps(y, _mm256_castsi256_ps(e));
}

/* ---- the integer layer of kern_q.inc ---- */
#define QTGT TGT
typedef __m256i vi;
#define Q_LD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define Q_ZERO() _mm256_setzero_si256()
#define Q_SET1_32(v) _mm256_set1_epi32(v)
#define Q_SET1_64(v) _mm256_set1_epi64x(v)
#define Q_ADD(a, b) _mm256_add_epi32(a, b)
#define Q_MIN(a, b) _mm256_min_epi32(a, b)
#define Q_MAX(a, b) _mm256_max_epi32(a, b)
#define Q_CVT_F(v) _mm256_cvtepi32_ps(v)
#define Q_CVT_I(v) _mm256_cvtps_epi32(v)
#define V_ABS(v) _mm256_and_ps(v, _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff)))
#define Q_NIB_LO(r) _mm256_and_si256(r, _mm256_set1_epi8(0x0f))
#define Q_NIB_HI(r) _mm256_and_si256(_mm256_srli_epi16(r, 4), _mm256_set1_epi8(0x0f))
#define Q_LD_I8_16(p) _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(p)))
#define Q_DOT16(acc, w, x) _mm256_add_epi32(acc, _mm256_madd_epi16(w, x))
#define Q_DOT16_2(acc, w0, x0, w1, x1)                                                             \
    _mm256_add_epi32(acc, _mm256_add_epi32(_mm256_madd_epi16(w0, x0), _mm256_madd_epi16(w1, x1)))
#define Q8_SQ 0
#define Q8_FIX(acc, sq) (acc)
#define Q_NEEDS_VNNI 0
#define Q_FALLBACK pii_rt_kern_scalar

static inline TGT int32_t Q_HSUM(__m256i v)
{
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4e));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xb1));
    return _mm_cvtsi128_si32(s);
}

static inline TGT void Q_ST8(int8_t *p, __m256i v)
{
    __m128i p16 = _mm_packs_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    _mm_storel_epi64((__m128i *)(void *)p, _mm_packs_epi16(p16, p16));
}

static inline TGT void Q_ST16(int16_t *p, __m256i v)
{
    _mm_storeu_si128((__m128i *)(void *)p,
                     _mm_packs_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1)));
}

typedef struct q8w {
    __m256i u, w; /* |w| and w */
} q8w;

static inline TGT q8w q8_prep(__m256i w)
{
    q8w r = {_mm256_abs_epi8(w), w};
    return r;
}

static inline TGT __m256i q8_dot(__m256i acc, q8w w, __m256i x)
{
    __m256i p = _mm256_maddubs_epi16(w.u, _mm256_sign_epi8(x, w.w));
    return _mm256_add_epi32(acc, _mm256_madd_epi16(p, _mm256_set1_epi16(1)));
}

static inline TGT __m256i q4_dot(__m256i acc, __m256i lo, __m256i x0, __m256i hi, __m256i x1)
{
    __m256i p = _mm256_add_epi16(_mm256_maddubs_epi16(lo, x0), _mm256_maddubs_epi16(hi, x1));
    return _mm256_add_epi32(acc, _mm256_madd_epi16(p, _mm256_set1_epi16(1)));
}

static inline TGT void q_ld_u4_16(const uint8_t *p, __m256i *lo, __m256i *hi)
{
    const __m128i m4 = _mm_set1_epi8(0x0f);
    __m128i raw = _mm_loadu_si128((const __m128i *)(const void *)p);
    *lo = _mm256_cvtepu8_epi16(_mm_and_si128(raw, m4));
    *hi = _mm256_cvtepu8_epi16(_mm_and_si128(_mm_srli_epi16(raw, 4), m4));
}

/* a: outputs 0-3 in lane pairs, b: outputs 4-7 -> 8 outputs in order */
static inline TGT __m256i q_pair_i(__m256i a, __m256i b)
{
    return _mm256_permute4x64_epi64(_mm256_hadd_epi32(a, b), 0xd8);
}

static inline TGT __m256 q_pair_f(__m256 a, __m256 b)
{
    return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(_mm256_hadd_ps(a, b)), 0xd8));
}

static inline TGT void q_dup2(__m256 v, __m256 out[2])
{
    out[0] = _mm256_permutevar8x32_ps(v, _mm256_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3));
    out[1] = _mm256_permutevar8x32_ps(v, _mm256_setr_epi32(4, 4, 5, 5, 6, 6, 7, 7));
}

static inline TGT __m256 q_even(__m256 v)
{
    return _mm256_and_ps(v, _mm256_castsi256_ps(_mm256_setr_epi32(-1, 0, -1, 0, -1, 0, -1, 0)));
}

static inline TGT void q_store(float *y, __m256 v, const float *bias, int acc, size_t c, size_t a,
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

#define Q_CASES_4(F) F(1) F(2) F(3) F(4)
#define Q_UNROLL_R
#define Q8A8_T 4 /* Q8, int8 activations: 4 tokens x 2 vectors (16 columns) */
#define Q8A8_NV 2
#define Q8A8_CASES Q_CASES_4
#define Q4A8_T 4 /* Q4, int8: 4 tokens x 16 columns */
#define Q4A8_CASES Q_CASES_4
#define Q8A16_T 4 /* Q8, int16: 4 tokens x 2 vectors (8 columns) */
#define Q8A16_NV 2
#define Q8A16_CASES Q_CASES_4
#define Q8A16_PF 0
#define Q4A16_T 4 /* Q4, int16: 4 tokens x 8 columns */
#define Q4A16_CASES Q_CASES_4

#include "kern_q.inc"
#include "kern_simd.inc"

#else
#include "kern.h"
const rt_kernels pii_rt_kern_avx2 = {0};
#endif
