/* test_rt_kernels.c — every kernel path against a double-precision naive
 * reference and the SIMD paths against the scalar twin.
 *
 * Tolerances (stated once): a GEMM/attention output o may differ from the
 * double reference by 2e-5 * (sum of |terms|) + 1e-6, and two f32 paths
 * from each other by the same bound; exp-based kernels (swiglu) by 2e-6
 * relative + 1e-6 absolute. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pii_rt.h"
#include "unit_util.h"

static uint64_t rng = 0x1234567887654321ull;

static uint64_t next_u64(void)
{
    return unit_splitmix64(&rng);
}

static float frand(void) /* [-1, 1) */
{
    return unit_frand(&rng);
}

static int nisa(void)
{
    return (int)pii_rt_isa_detect() + 1;
}

/* The plan of one path (every path the CPU has is tested). */
static pii_rt_plan plan_of(int isa)
{
    pii_rt_plan p;
    assert_int_equal(pii_rt_plan_init(&p, isa, PII_RT_QACT_I16), PII_OK);
    return p;
}

/* Builds a weight buffer of dtype dt holding values vals [rows][cols]
 * (stored rows), returns the bytes and fills the exact dequantized values. */
static uint8_t *make_weights(pii_dtype dt, size_t rows, size_t cols, float *vals, size_t *ld)
{
    if (dt == PII_DT_Q8_0) {
        *ld = cols / 32 * 34;
        uint8_t *b = malloc(rows * *ld);
        for (size_t r = 0; r < rows; r++)
            for (size_t k = 0; k < cols / 32; k++) {
                uint8_t *blk = b + r * *ld + k * 34;
                float d = (float)(1 + (next_u64() % 8)) / 1024.0f;
                uint16_t h = pii_rt_f32_to_f16(d);
                blk[0] = (uint8_t)h;
                blk[1] = (uint8_t)(h >> 8);
                float dd = pii_rt_f16_to_f32(h);
                for (int j = 0; j < 32; j++) {
                    int q = (int)(next_u64() % 255) - 127;
                    blk[2 + j] = (uint8_t)(int8_t)q;
                    vals[r * cols + k * 32 + (size_t)j] = dd * (float)q;
                }
            }
        return b;
    }
    size_t es = dt == PII_DT_F32 ? 4 : 2;
    *ld = cols * es;
    uint8_t *b = malloc(rows * *ld);
    for (size_t i = 0; i < rows * cols; i++) {
        float v = frand() * 0.25f;
        if (dt == PII_DT_F32) {
            memcpy(b + 4 * i, &v, 4);
        } else {
            uint16_t h = dt == PII_DT_BF16 ? pii_rt_f32_to_bf16(v) : pii_rt_f32_to_f16(v);
            memcpy(b + 2 * i, &h, 2);
            v = dt == PII_DT_BF16 ? pii_rt_bf16_to_f32(h) : pii_rt_f16_to_f32(h);
        }
        vals[i] = v;
    }
    return b;
}

static void check_gemm(pii_dtype dt, pii_rt_layout lay, size_t n, size_t n_in, size_t n_out,
                       int use_bias, int acc)
{
    size_t rows = lay == PII_RT_OI ? n_out : n_in, cols = lay == PII_RT_OI ? n_in : n_out;
    float *vals = malloc(rows * cols * sizeof *vals);
    size_t ld;
    uint8_t *wb = make_weights(dt, rows, cols, vals, &ld);
    pii_rt_mat W = {wb, NULL, ld, (uint32_t)n_out, (uint32_t)n_in, dt, lay};
    size_t ldx = n_in + 3, ldy = n_out + 5;
    float *x = malloc(n * ldx * sizeof *x), *bias = malloc(n_out * sizeof *bias);
    float *y0 = malloc(n * ldy * sizeof *y0), *y = malloc(n * ldy * sizeof *y);
    for (size_t i = 0; i < n * ldx; i++)
        x[i] = frand();
    for (size_t i = 0; i < n_out; i++)
        bias[i] = frand();
    for (size_t i = 0; i < n * ldy; i++)
        y0[i] = frand();
    /* reference in double, only over the middle column range */
    size_t o0 = n_out > 40 ? 3 : 0, o1 = n_out > 40 ? n_out - 1 : n_out;
    for (int isa = 0; isa < nisa(); isa++) {
        memcpy(y, y0, n * ldy * sizeof *y);
        pii_rt_plan pl = plan_of(isa);
        pii_rt_gemm(&pl, &W, n, x, ldx, use_bias ? bias : NULL, y, ldy, o0, o1, acc);
        for (size_t t = 0; t < n; t++)
            for (size_t o = 0; o < n_out; o++) {
                float got = y[t * ldy + o];
                if (o < o0 || o >= o1) {
                    if (got != y0[t * ldy + o])
                        fail_msg("isa %d wrote outside [o0,o1) at t=%zu o=%zu", isa, t, o);
                    continue;
                }
                double ref = 0, mag = 0;
                for (size_t i = 0; i < n_in; i++) {
                    double w = lay == PII_RT_OI ? vals[o * n_in + i] : vals[i * n_out + o];
                    ref += (double)x[t * ldx + i] * w;
                    mag += fabs((double)x[t * ldx + i] * w);
                }
                if (use_bias)
                    ref += bias[o];
                if (acc)
                    ref += y0[t * ldy + o];
                double tol = 2e-5 * (mag + 1) + 1e-6;
                if (fabs(got - ref) > tol)
                    fail_msg("%s %s isa %d n=%zu in=%zu out=%zu t=%zu o=%zu: got %.9g ref %.9g",
                             pii_dtype_name(dt), lay == PII_RT_OI ? "OI" : "IO", isa, n, n_in,
                             n_out, t, o, got, ref);
            }
    }
    free(vals);
    free(wb);
    free(x);
    free(bias);
    free(y0);
    free(y);
}

static void test_gemm_all(void **state)
{
    (void)state;
    const pii_dtype dts[] = {PII_DT_F32, PII_DT_F16, PII_DT_BF16, PII_DT_Q8_0};
    const size_t ns[] = {1, 2, 3, 5, 8, 13, 70};
    const size_t ins[] = {64, 96, 40};
    const size_t outs[] = {32, 33, 100};
    for (size_t a = 0; a < 4; a++)
        for (int lay = 0; lay < 2; lay++) {
            if (!pii_rt_gemm_supported(dts[a], (pii_rt_layout)lay))
                continue;
            for (size_t b = 0; b < sizeof ns / sizeof ns[0]; b++)
                for (size_t c = 0; c < 3; c++)
                    for (size_t d = 0; d < 3; d++) {
                        if (dts[a] == PII_DT_Q8_0 && ins[c] % 32)
                            continue;
                        check_gemm(dts[a], (pii_rt_layout)lay, ns[b], ins[c], outs[d], (int)(b & 1),
                                   (int)(c == 1));
                    }
        }
}

static void test_gemm_big(void **state)
{
    (void)state;
    check_gemm(PII_DT_BF16, PII_RT_IO, 67, 640, 1280, 1, 0);
    check_gemm(PII_DT_BF16, PII_RT_OI, 67, 896, 640, 1, 1);
    check_gemm(PII_DT_Q8_0, PII_RT_OI, 9, 640, 640, 1, 0);
}

static void test_mat_view(void **state)
{
    (void)state;
    uint8_t buf[2 * 3 * 4 * 2];
    pii_rt_tensor t = {"w", "f", buf, sizeof buf, 24, {2, 3, 4, 0}, 3, PII_DT_BF16};
    pii_rt_mat m;
    assert_int_equal(pii_rt_mat_view(&m, &t, PII_RT_IO, 1, 2, 2), PII_OK);
    assert_ptr_equal(m.data, buf + 3 * 8 + 4);
    assert_int_equal(m.ld, 8);
    assert_int_equal(m.n_in, 3);
    assert_int_equal(m.n_out, 2);
    assert_int_equal(pii_rt_mat_view(&m, &t, PII_RT_IO, 2, 0, 0), PII_ERANGE);
    assert_int_equal(pii_rt_mat_view(&m, &t, PII_RT_IO, 0, 3, 2), PII_ERANGE);
    t.dtype = PII_DT_I32;
    assert_int_equal(pii_rt_mat_view(&m, &t, PII_RT_OI, 0, 0, 0), PII_EDTYPE);
}

/* ---- attention --------------------------------------------------------------- */

/* Random attention inputs of n tokens: q [n][H*hd], k and v [n][Hkv*hd], kt
 * (k transposed), sinks [H], and a scratch for radius R; free with
 * attn_in_free. */
typedef struct attn_in {
    float *q, *k, *v, *kt, *sinks, *scratch;
} attn_in;

static attn_in attn_in_make(int H, int Hkv, int hd, int R, size_t n)
{
    size_t qw = (size_t)H * hd, kw = (size_t)Hkv * hd;
    attn_in t = {malloc(n * qw * 4),    malloc(n * kw * 4),
                 malloc(n * kw * 4),    malloc(kw * n * 4),
                 malloc((size_t)H * 4), malloc(pii_rt_attn_scratch(R, H, Hkv) * 4)};
    for (size_t i = 0; i < n * qw; i++)
        t.q[i] = frand() * 2;
    for (size_t i = 0; i < n * kw; i++) {
        t.k[i] = frand() * 2;
        t.v[i] = frand();
    }
    for (int h = 0; h < H; h++)
        t.sinks[h] = frand() * 3;
    pii_rt_transpose(t.k, kw, n, kw, t.kt, n);
    return t;
}

static void attn_in_free(attn_in *t)
{
    free(t->q);
    free(t->k);
    free(t->v);
    free(t->kt);
    free(t->sinks);
    free(t->scratch);
}

static void check_attn(int H, int Hkv, int hd, int R, size_t n, size_t d0, size_t d1)
{
    size_t qw = (size_t)H * hd, kw = (size_t)Hkv * hd;
    attn_in t = attn_in_make(H, Hkv, hd, R, n);
    const float *q = t.q, *k = t.k, *v = t.v, *sinks = t.sinks;
    float *o = malloc(n * qw * 4), *scratch = t.scratch;
    pii_rt_attn a = {q, t.kt, v, o, sinks, qw, n, kw, qw, H, Hkv, hd, R, NULL};
    double *p = malloc((size_t)(2 * R + 1) * sizeof *p);
    for (int isa = 0; isa < nisa(); isa++) {
        pii_rt_plan pl = plan_of(isa);
        for (size_t i = 0; i < n * qw; i++)
            o[i] = NAN;
        pii_rt_attn_band(&pl, &a, d0, d1, d0, d1, scratch);
        for (size_t i = d0; i < d1; i++)
            for (int h = 0; h < H; h++) {
                int g = h / (H / Hkv);
                size_t lo = i >= d0 + (size_t)R ? i - (size_t)R : d0;
                size_t hi = i + (size_t)R + 1 < d1 ? i + (size_t)R + 1 : d1;
                double M = sinks[h];
                for (size_t j = lo; j < hi; j++) {
                    double s = 0;
                    for (int d = 0; d < hd; d++)
                        s +=
                            (double)q[i * qw + (size_t)h * hd + d] * k[j * kw + (size_t)g * hd + d];
                    p[j - lo] = s;
                    M = s > M ? s : M;
                }
                double sum = exp(sinks[h] - M);
                for (size_t j = lo; j < hi; j++)
                    sum += (p[j - lo] = exp(p[j - lo] - M));
                for (int d = 0; d < hd; d++) {
                    double ref = 0;
                    for (size_t j = lo; j < hi; j++)
                        ref += p[j - lo] / sum * v[j * kw + (size_t)g * hd + d];
                    float got = o[i * qw + (size_t)h * hd + d];
                    if (!(fabs(got - ref) <= 2e-5))
                        fail_msg("attn isa %d i=%zu h=%d d=%d got %.9g ref %.9g", isa, i, h, d, got,
                                 ref);
                }
            }
    }
    free(o);
    free(p);
    attn_in_free(&t);
}

static void test_attn(void **state)
{
    (void)state;
    check_attn(14, 2, 64, 128, 300, 0, 300);  /* full shape, both band edges */
    check_attn(14, 2, 64, 128, 300, 17, 161); /* a packed document inside */
    check_attn(4, 2, 16, 3, 20, 5, 6);        /* one-token document */
    check_attn(6, 3, 32, 5, 40, 2, 37);
    check_attn(2, 1, 12, 4, 30, 0, 30); /* hd not a multiple of the vector */
}

/* The blocked SIMD attention (issue 20) on queries [i0, i1) of document
 * [d0, d1): every path within 2e-5 of the scalar kernel, rows outside
 * [i0, i1) untouched, and bit-identical to calling it one query at a time
 * and to a split of [i0, i1) at a point that is not a block multiple (the
 * share of a thread). */
static void check_attn_blk(int H, int Hkv, int hd, int R, size_t n, size_t d0, size_t d1, size_t i0,
                           size_t i1)
{
    size_t qw = (size_t)H * hd, kw = (size_t)Hkv * hd;
    attn_in t = attn_in_make(H, Hkv, hd, R, n);
    float *o = malloc(n * qw * 4), *o1 = malloc(n * qw * 4), *ref = malloc(n * qw * 4);
    float *scratch = t.scratch;
    pii_rt_attn a = {t.q, t.kt, t.v, o, t.sinks, qw, n, kw, qw, H, Hkv, hd, R, NULL};
    pii_rt_plan ps = plan_of(PII_RT_ISA_SCALAR);
    a.o = ref;
    pii_rt_attn_band(&ps, &a, d0, d1, i0, i1, scratch);
    for (int isa = 0; isa < nisa(); isa++) {
        pii_rt_plan pl = plan_of(isa);
        for (size_t i = 0; i < n * qw; i++)
            o[i] = o1[i] = NAN;
        a.o = o;
        pii_rt_attn_band(&pl, &a, d0, d1, i0, i1, scratch);
        for (size_t i = 0; i < n; i++)
            for (size_t c = 0; c < qw; c++) {
                float got = o[i * qw + c];
                if (i < i0 || i >= i1) {
                    if (!isnan(got))
                        fail_msg("attn isa %d wrote row %zu outside [%zu,%zu)", isa, i, i0, i1);
                } else if (!(fabsf(got - ref[i * qw + c]) <= 2e-5f))
                    fail_msg("attn isa %d H=%d Hkv=%d hd=%d R=%d i=%zu c=%zu got %.9g scalar %.9g",
                             isa, H, Hkv, hd, R, i, c, got, ref[i * qw + c]);
            }
        a.o = o1;
        for (size_t i = i0; i < i1; i++)
            pii_rt_attn_band(&pl, &a, d0, d1, i, i + 1, scratch);
        if (memcmp(o + i0 * qw, o1 + i0 * qw, (i1 - i0) * qw * 4))
            fail_msg("attn isa %d: blocked differs from one query at a time", isa);
        size_t m = i0 + (i1 - i0) * 3 / 7;
        pii_rt_attn_band(&pl, &a, d0, d1, i0, m, scratch);
        pii_rt_attn_band(&pl, &a, d0, d1, m, i1, scratch);
        if (memcmp(o + i0 * qw, o1 + i0 * qw, (i1 - i0) * qw * 4))
            fail_msg("attn isa %d: split at %zu differs", isa, m);
    }
    free(o);
    free(o1);
    free(ref);
    attn_in_free(&t);
}

static void test_attn_blocked(void **state)
{
    (void)state;
    check_attn_blk(4, 2, 32, 128, 600, 0, 600, 0, 600);   /* built-in shape, G=2 */
    check_attn_blk(4, 2, 32, 128, 600, 17, 561, 33, 530); /* clipped band, odd share */
    check_attn_blk(4, 2, 32, 128, 12, 3, 4, 3, 4);        /* documents of 1, 2, 3 tokens */
    check_attn_blk(4, 2, 32, 128, 12, 3, 5, 3, 5);
    check_attn_blk(4, 2, 32, 128, 12, 3, 6, 3, 6);
    check_attn_blk(4, 2, 32, 128, 12, 3, 6, 4, 5);   /* one query of three */
    check_attn_blk(2, 2, 32, 7, 50, 1, 47, 2, 45);   /* G=1 */
    check_attn_blk(8, 2, 16, 9, 70, 0, 70, 3, 67);   /* G=4 */
    check_attn_blk(6, 2, 32, 11, 64, 5, 64, 6, 61);  /* G=3: rows not a tile multiple */
    check_attn_blk(4, 2, 48, 20, 80, 0, 80, 1, 79);  /* three vectors of the head */
    check_attn_blk(2, 1, 256, 4, 24, 0, 24, 0, 23);  /* widest head */
    check_attn_blk(4, 2, 32, 0, 20, 0, 20, 0, 19);   /* radius 0: one key */
    check_attn_blk(4, 2, 32, 1, 20, 2, 20, 2, 20);   /* radius below the block */
    check_attn_blk(4, 2, 32, 40, 30, 0, 30, 0, 30);  /* radius beyond the document */
    check_attn_blk(16, 1, 32, 33, 90, 0, 90, 7, 90); /* G=16 */
}

/* The int16 attention (pii_rt.h, pii_rt_kvq) on queries [i0, i1) of document
 * [d0, d1): keys quantized to the same integers on every path and in any
 * split of the rows; every path within `tol` of the attention computed in
 * double from the float inputs and within 1e-4 of the scalar path; rows
 * outside [i0, i1) untouched; bit-identical to one query at a time and to a
 * split of the queries.  Returns the largest error against double. */
static double check_attn_q16(int H, int Hkv, int hd, int R, size_t n, size_t d0, size_t d1,
                             size_t i0, size_t i1, double tol)
{
    size_t qw = (size_t)H * hd, kw = (size_t)Hkv * hd;
    attn_in t = attn_in_make(H, Hkv, hd, R, n);
    const size_t ld = pii_rt_kvq_ld(n), nq = ld * kw, nsc = ld * (size_t)Hkv;
    pii_rt_kvq kv = {calloc(nq, 2), calloc(nq, 2), calloc(nsc, 4), calloc(nsc, 4), ld};
    pii_rt_kvq k2 = {calloc(nq, 2), calloc(nq, 2), calloc(nsc, 4), calloc(nsc, 4), ld};
    float *o = malloc(n * qw * 4), *o1 = malloc(n * qw * 4), *sc = malloc(n * qw * 4);
    double *p = malloc((size_t)(2 * R + 1) * sizeof *p), worst = 0;
    pii_rt_plan ps = plan_of(PII_RT_ISA_SCALAR);
    pii_rt_kvq_rows(&ps, &kv, Hkv, hd, t.k, kw, t.v, kw, 0, n);
    pii_rt_attn a = {t.q, t.kt, t.v, sc, t.sinks, qw, n, kw, qw, H, Hkv, hd, R, &kv};
    pii_rt_attn_band(&ps, &a, d0, d1, i0, i1, t.scratch);
    for (int isa = 0; isa < nisa(); isa++) {
        pii_rt_plan pl = plan_of(isa);
        size_t m = n * 5 / 9;
        pii_rt_kvq_rows(&pl, &k2, Hkv, hd, t.k, kw, t.v, kw, m, n);
        pii_rt_kvq_rows(&pl, &k2, Hkv, hd, t.k, kw, t.v, kw, 0, m);
        if (memcmp(kv.kq, k2.kq, nq * 2) || memcmp(kv.vq, k2.vq, nq * 2) ||
            memcmp(kv.ks, k2.ks, nsc * 4) || memcmp(kv.vs, k2.vs, nsc * 4))
            fail_msg("kvq isa %d: keys quantized differently from the scalar path", isa);
        for (size_t i = 0; i < n * qw; i++)
            o[i] = o1[i] = NAN;
        a.o = o;
        pii_rt_attn_band(&pl, &a, d0, d1, i0, i1, t.scratch);
        for (size_t i = 0; i < n; i++)
            for (int h = 0; h < H; h++) {
                if (i < i0 || i >= i1) {
                    for (int d = 0; d < hd; d++)
                        if (!isnan(o[i * qw + (size_t)h * hd + d]))
                            fail_msg("attn q16 isa %d wrote row %zu outside [%zu,%zu)", isa, i, i0,
                                     i1);
                    continue;
                }
                int g = h / (H / Hkv);
                size_t lo = i >= d0 + (size_t)R ? i - (size_t)R : d0;
                size_t hi = i + (size_t)R + 1 < d1 ? i + (size_t)R + 1 : d1;
                double M = t.sinks[h];
                for (size_t j = lo; j < hi; j++) {
                    double s = 0;
                    for (int d = 0; d < hd; d++)
                        s += (double)t.q[i * qw + (size_t)h * hd + d] *
                             t.k[j * kw + (size_t)g * hd + d];
                    p[j - lo] = s;
                    M = s > M ? s : M;
                }
                double sum = exp(t.sinks[h] - M);
                for (size_t j = lo; j < hi; j++)
                    sum += (p[j - lo] = exp(p[j - lo] - M));
                for (int d = 0; d < hd; d++) {
                    double ref = 0;
                    for (size_t j = lo; j < hi; j++)
                        ref += p[j - lo] / sum * t.v[j * kw + (size_t)g * hd + d];
                    size_t c = i * qw + (size_t)h * hd + d;
                    double e = fabs(o[c] - ref);
                    worst = e > worst ? e : worst;
                    if (!(e <= tol) || !(fabsf(o[c] - sc[c]) <= 1e-4f))
                        fail_msg("attn q16 isa %d H=%d hd=%d R=%d i=%zu h=%d d=%d got %.9g ref "
                                 "%.9g scalar %.9g",
                                 isa, H, hd, R, i, h, d, o[c], ref, sc[c]);
                }
            }
        a.o = o1;
        for (size_t i = i0; i < i1; i++)
            pii_rt_attn_band(&pl, &a, d0, d1, i, i + 1, t.scratch);
        if (memcmp(o + i0 * qw, o1 + i0 * qw, (i1 - i0) * qw * 4))
            fail_msg("attn q16 isa %d: blocked differs from one query at a time", isa);
        size_t mq = i0 + (i1 - i0) * 3 / 7;
        pii_rt_attn_band(&pl, &a, d0, d1, i0, mq, t.scratch);
        pii_rt_attn_band(&pl, &a, d0, d1, mq, i1, t.scratch);
        if (memcmp(o + i0 * qw, o1 + i0 * qw, (i1 - i0) * qw * 4))
            fail_msg("attn q16 isa %d: split at %zu differs", isa, mq);
    }
    pii_rt_kvq *kk[2] = {&kv, &k2};
    for (int j = 0; j < 2; j++) {
        free(kk[j]->kq);
        free(kk[j]->vq);
        free(kk[j]->ks);
        free(kk[j]->vs);
    }
    free(o);
    free(o1);
    free(sc);
    free(p);
    attn_in_free(&t);
    return worst;
}

static void test_attn_q16(void **state)
{
    (void)state;
    double w = 0, e;
#define Q16(...) (e = check_attn_q16(__VA_ARGS__), w = e > w ? e : w)
    Q16(4, 2, 32, 128, 600, 0, 600, 0, 600, 6e-3);   /* built-in shape */
    Q16(4, 2, 32, 128, 600, 17, 561, 33, 530, 6e-3); /* clipped band, odd share */
    Q16(14, 2, 64, 128, 300, 0, 300, 0, 300, 6e-3);  /* full shape */
    Q16(4, 2, 32, 128, 12, 3, 4, 3, 4, 6e-3);        /* documents of 1, 2, 3 tokens */
    Q16(4, 2, 32, 128, 12, 3, 5, 3, 5, 6e-3);
    Q16(4, 2, 32, 128, 13, 4, 7, 4, 7, 6e-3);
    Q16(2, 2, 32, 7, 51, 1, 48, 2, 45, 6e-3);   /* G=1, odd n */
    Q16(6, 2, 32, 11, 64, 5, 64, 6, 61, 6e-3);  /* G=3 */
    Q16(4, 2, 48, 20, 80, 0, 80, 1, 79, 6e-3);  /* three vectors of the head */
    Q16(2, 1, 256, 4, 24, 0, 24, 0, 23, 6e-3);  /* widest head */
    Q16(2, 1, 12, 4, 30, 0, 30, 0, 30, 6e-3);   /* hd not a vector multiple: scalar */
    Q16(4, 2, 32, 0, 20, 0, 20, 0, 19, 6e-3);   /* radius 0: one key */
    Q16(16, 1, 32, 33, 90, 0, 90, 7, 90, 6e-3); /* G=16 */
#undef Q16
    printf("int16 attention: largest error against double %.3g\n", w);
}

/* ---- row kernels --------------------------------------------------------------- */

static void test_rmsnorm_swiglu(void **state)
{
    (void)state;
    enum { D = 640 + 8 };
    float x[D], g[D], y[D], u[D], gg[D], gs[D];
    for (int j = 0; j < D; j++) {
        x[j] = frand() * 3;
        g[j] = 1 + frand() * 0.25f;
        u[j] = frand() * 12;
        gg[j] = frand() * 12;
    }
    for (int isa = 0; isa < nisa(); isa++) {
        pii_rt_plan pl = plan_of(isa);
        for (size_t d = 640; d <= D; d += 8) {
            pii_rt_rmsnorm(&pl, 1, d, x, d, g, 1e-5f, y, d);
            double ss = 0;
            for (size_t j = 0; j < d; j++)
                ss += (double)x[j] * x[j];
            double r = 1 / sqrt(ss / (double)d + 1e-5);
            for (size_t j = 0; j < d; j++)
                assert_true(fabs(y[j] - g[j] * x[j] * r) <= 1e-5 * (fabs(g[j] * x[j] * r) + 1));
        }
        memcpy(gs, gg, sizeof gs);
        pii_rt_swiglu(&pl, gs, u, D - 3, 1.702f, 7.0f);
        for (int j = 0; j < D - 3; j++) {
            double a = gg[j] < 7 ? gg[j] : 7, b = u[j] < -7 ? -7 : u[j] > 7 ? 7 : u[j];
            double ref = a / (1 + exp(-1.702 * a)) * (b + 1);
            if (!(fabs(gs[j] - ref) <= 2e-6 * fabs(ref) + 1e-6))
                fail_msg("swiglu isa %d j=%d got %.9g ref %.9g", isa, j, gs[j], ref);
        }
    }
}

/* ---- RoPE, routing ------------------------------------------------------------- */

static void test_rope(void **state)
{
    (void)state;
    pii_rt_rope r = {150000.0, 32.0, 32.0, 1.0, 4096.0, 0.0, 1, 0};
    double om[32], ms;
    pii_rt_rope_freqs(&r, 64, om, &ms);
    /* reference values from the spec, section 3.2 */
    assert_true(fabs(ms - 1.3465735902799727) < 1e-15);
    const struct {
        int i;
        double w;
    } ref[] = {{0, 1},
               {1, 0.6890443059},
               {8, 0.05081327482},
               {9, 0.03170569618},
               {12, 0.006794959490},
               {17, 1.293187012e-4},
               {18, 3.830881237e-5},
               {31, 3.023511428e-7}};
    for (size_t k = 0; k < sizeof ref / sizeof ref[0]; k++)
        assert_true(fabs(om[ref[k].i] / ref[k].w - 1) < 1e-9);
    float cs[3 * 32 * 2];
    pii_rt_rope_table(cs, 3, 64, om, 2.0, 1);
    assert_true(fabs(cs[(2 * 32 + 1) * 2] - 2 * cos(2 * om[1])) < 1e-6);
    assert_true(fabs(cs[(2 * 32 + 1) * 2 + 1] - 2 * sin(2 * om[1])) < 1e-6);
    float x[4] = {1, 2, 3, 4}, c2[4] = {0, 1, 0.5f, 0.5f};
    pii_rt_rope_apply(x, 1, 4, c2);
    assert_true(x[0] == -2 && x[1] == 1 && x[2] == -0.5f && x[3] == 3.5f);
}

static void test_topk_group(void **state)
{
    (void)state;
    float lg[3][6] = {{0, 5, 1, 5, -1, 2}, {3, 3, 3, 3, 3, 3}, {-1, -2, -3, -4, -5, -6}};
    int32_t idx[3][3];
    float w[3][3];
    pii_rt_topk_softmax(3, 6, 3, &lg[0][0], 6, &idx[0][0], &w[0][0]);
    assert_int_equal(idx[0][0], 1);
    assert_int_equal(idx[0][1], 3);
    assert_int_equal(idx[0][2], 5);
    assert_int_equal(idx[1][0], 0);
    assert_int_equal(idx[1][1], 1);
    assert_int_equal(idx[1][2], 2);
    assert_int_equal(idx[2][0], 0);
    assert_int_equal(idx[2][2], 2);
    double e3 = exp(-3.0);
    assert_true(fabs(w[0][0] - 1 / (2 + e3)) < 1e-6 && fabs(w[0][2] - e3 / (2 + e3)) < 1e-6);
    assert_true(fabs(w[1][1] - 1.0 / 3) < 1e-6);
    uint32_t cnt[6], off[7], grp[9], pos[9];
    pii_rt_moe_group(3, 6, 3, &idx[0][0], cnt, off, grp, pos);
    assert_int_equal(off[6], 9);
    assert_int_equal(cnt[0], 2); /* tokens 1 and 2 */
    assert_int_equal(grp[off[0]], 1 * 3 + 0);
    assert_int_equal(grp[off[0] + 1], 2 * 3 + 0);
    for (uint32_t s = 0; s < 9; s++)
        assert_int_equal(grp[pos[s]], s);
}

static void test_dtype_roundtrip(void **state)
{
    (void)state;
    for (uint32_t h = 0; h < 65536; h++) {
        float f = pii_rt_f16_to_f32((uint16_t)h);
        if (isnan(f))
            continue;
        assert_int_equal(pii_rt_f32_to_f16(f), h);
        float b = pii_rt_bf16_to_f32((uint16_t)h);
        if (!isnan(b))
            assert_int_equal(pii_rt_f32_to_bf16(b), h);
    }
    assert_int_equal(pii_rt_f32_to_bf16(1.00390625f), 0x3f80); /* tie to even */
    assert_int_equal(pii_rt_f32_to_bf16(1.01171875f), 0x3f82);
    assert_int_equal(pii_rt_f32_to_f16(65520.0f), 0x7c00);
    assert_int_equal(pii_rt_f32_to_f16(5.9604645e-8f), 0x0001);
    assert_int_equal(pii_rt_f32_to_f16(2.9802322e-8f), 0x0000); /* tie to even: 0 */
}

/* ---- pool ------------------------------------------------------------------------ */

typedef struct pool_ctx {
    int *slots; /* [nth][rounds] */
    int rounds;
} pool_ctx;

static void pool_fn(void *vctx, int ith, int nth)
{
    pool_ctx *c = vctx;
    (void)nth;
    for (int r = 0; r < c->rounds; r++)
        c->slots[ith * c->rounds + r] = r + 1;
}

typedef struct bar_ctx {
    pii_rt_pool *p;
    volatile int *v;
    int *bad;
} bar_ctx;

static void bar_fn(void *vctx, int ith, int nth)
{
    bar_ctx *c = vctx;
    for (int r = 0; r < 200; r++) {
        c->v[ith] = r;
        pii_rt_pool_barrier(c->p);
        for (int j = 0; j < nth; j++)
            if (c->v[j] != r)
                c->bad[ith] = 1;
        pii_rt_pool_barrier(c->p);
    }
}

static void test_pool(void **state)
{
    (void)state;
    for (int n = 1; n <= 4; n++) {
        pii_err e;
        pii_rt_pool *p = pii_rt_pool_create(n, &e);
        assert_non_null(p);
        assert_int_equal(pii_rt_pool_size(p), n);
        int store[1 + 4 * 3] = {0};
        pool_ctx c = {store + 1, 3};
        for (int k = 0; k < 50; k++)
            pii_rt_pool_run(p, pool_fn, &c);
        for (int i = 0; i < n * 3; i++)
            assert_int_equal(store[1 + i], i % 3 + 1);
        volatile int v[4];
        int bad[4] = {0};
        bar_ctx bc = {p, v, bad};
        pii_rt_pool_run(p, bar_fn, &bc);
        for (int i = 0; i < n; i++)
            assert_int_equal(bad[i], 0);
        pii_rt_pool_free(p);
    }
    pii_rt_pool_free(NULL);
    size_t lo, hi, prev = 0;
    for (int i = 0; i < 3; i++) {
        pii_rt_split(100, 16, i, 3, &lo, &hi);
        assert_int_equal(lo, prev);
        assert_true(lo % 16 == 0);
        prev = hi;
    }
    assert_int_equal(prev, 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dtype_roundtrip),
        cmocka_unit_test(test_gemm_all),
        cmocka_unit_test(test_gemm_big),
        cmocka_unit_test(test_mat_view),
        cmocka_unit_test(test_attn),
        cmocka_unit_test(test_attn_blocked),
        cmocka_unit_test(test_attn_q16),
        cmocka_unit_test(test_rmsnorm_swiglu),
        cmocka_unit_test(test_rope),
        cmocka_unit_test(test_topk_group),
        cmocka_unit_test(test_pool),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
