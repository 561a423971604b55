/* test_quant_kernels.c — the quantized weight types (Q8_ROW, Q4_G32 IO
 * panels): quantizers, the documented layout, and every kernel path.
 *
 * Tolerances (stated once):
 *  - every SIMD path (AVX2, AVX-512 VNNI) equals the scalar path exactly,
 *    for int16 and int8 activations (bit for bit: integer sums are exact
 *    and the float steps are the same operations in the same order); so
 *    does pii_rt_gemm_qx on rows quantized once by pii_rt_qx_rows, on
 *    every path including scalar;
 *  - the scalar path equals a double-precision evaluation of the
 *    documented semantics (activation quantization, int sums, scales)
 *    within 1e-5 relative to the sum of |terms| plus 1e-6;
 *  - against the unquantized f32 product, per-row cosine >= 0.9995 (Q8)
 *    and >= 0.99 (Q4) on random data;
 *  - quantizers: Q8 |w - s q| <= s/2 per element; Q4 RMS error per group
 *    <= range/15 (round-to-nearest on a 16-level grid gives range/(15 sqrt 12)
 *    for uniform data). */
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

static uint64_t rng = 0x5eed5eed12345678ull;

static uint64_t next_u64(void)
{
    return unit_splitmix64(&rng);
}

static float frand(void) /* [-1, 1) */
{
    return unit_frand(&rng);
}

/* Independent decode of the documented layout: w[i][o] (IO order). */
static float f32_at(const uint8_t *p)
{
    float v;
    memcpy(&v, p, 4);
    return v;
}

static void decode(pii_dtype qt, const uint8_t *s, size_t ni, size_t no, float *w)
{
    for (size_t o = 0; o < no; o++) {
        size_t c = o % 64;
        if (qt == PII_DT_Q8_ROW) {
            const uint8_t *pan = s + o / 64 * (256 + 64 * ni);
            float sc = f32_at(pan + c * 4);
            for (size_t i = 0; i < ni; i++)
                w[i * no + o] = sc * (float)(int8_t)pan[256 + i / 4 * 256 + c * 4 + i % 4];
        } else {
            const uint8_t *pan = s + o / 64 * (ni / 32 * 1280);
            for (size_t i = 0; i < ni; i++) {
                const uint8_t *g = pan + i / 32 * 1280;
                size_t k = i % 32, r = k / 8, j = k % 8;
                uint8_t b = g[r * 256 + c * 4 + (j % 4)];
                int q = j < 4 ? (b & 15) : (b >> 4);
                float d = pii_rt_f16_to_f32((uint16_t)(g[1024 + c * 2] | g[1025 + c * 2] << 8));
                float m = pii_rt_f16_to_f32((uint16_t)(g[1152 + c * 2] | g[1153 + c * 2] << 8));
                w[i * no + o] = d * (float)q + m;
            }
        }
    }
}

/* A random quantized matrix (from an f32 IO source); w0 gets the source. */
static uint8_t *make_q(pii_dtype qt, size_t ni, size_t no, float *w0, pii_rt_mat *m)
{
    for (size_t k = 0; k < ni * no; k++)
        w0[k] = frand() * (0.05f + 0.5f * (float)((k % no) % 7)); /* column-varying ranges */
    pii_rt_mat src = {w0, NULL, no * 4, (uint32_t)no, (uint32_t)ni, PII_DT_F32, PII_RT_IO};
    uint64_t nb = pii_rt_qmat_bytes(qt, ni, no);
    assert_true(nb > 0);
    uint8_t *b = malloc(nb);
    assert_int_equal(pii_rt_quantize(&src, qt, b, nb, m), PII_OK);
    return b;
}

static void test_sizes(void **st)
{
    (void)st;
    assert_int_equal(pii_rt_qmat_bytes(PII_DT_Q8_ROW, 640, 1280), 20 * (256 + 64 * 640));
    assert_int_equal(pii_rt_qmat_bytes(PII_DT_Q8_ROW, 640, 100), 2 * (256 + 64 * 640));
    assert_int_equal(pii_rt_qmat_bytes(PII_DT_Q4_G32, 640, 640), 10 * 20 * 1280);
    assert_int_equal(pii_rt_qmat_bytes(PII_DT_Q8_ROW, 6, 10), 0);  /* n_in % 4 */
    assert_int_equal(pii_rt_qmat_bytes(PII_DT_Q4_G32, 48, 10), 0); /* n_in % 32 */
    assert_int_equal(pii_rt_qmat_bytes(PII_DT_BF16, 64, 10), 0);
    assert_int_equal(pii_rt_qmat_bytes(PII_DT_Q8_ROW, 65536, 10), 0);
    pii_rt_mat m;
    uint8_t buf[16];
    assert_int_equal(pii_rt_qmat_view(&m, PII_DT_Q8_ROW, buf, sizeof buf, 64, 64), PII_ESHAPE);
    assert_true(pii_rt_gemm_supported(PII_DT_Q8_ROW, PII_RT_IO));
    assert_true(pii_rt_gemm_supported(PII_DT_Q4_G32, PII_RT_IO));
}

static void test_quantizers(void **st)
{
    (void)st;
    const size_t ni = 96, no = 100;
    float *w0 = malloc(ni * no * 4), *w = malloc(ni * no * 4);
    pii_rt_mat m;
    uint8_t *b = make_q(PII_DT_Q8_ROW, ni, no, w0, &m);
    decode(PII_DT_Q8_ROW, b, ni, no, w);
    for (size_t o = 0; o < no; o++) {
        float amax = 0;
        for (size_t i = 0; i < ni; i++)
            amax = fmaxf(amax, fabsf(w0[i * no + o]));
        /* the scale search never does worse than plain amax / 127 rounding */
        float s = amax / 127.0f;
        double se = 0, se127 = 0;
        for (size_t i = 0; i < ni; i++) {
            double e = (double)w[i * no + o] - w0[i * no + o];
            double e127 = (double)s * rint(w0[i * no + o] / s) - w0[i * no + o];
            se += e * e;
            se127 += e127 * e127;
            assert_true(fabs(e) <= s * 1.0001f + 1e-12f);
        }
        assert_true(se <= se127 * (1 + 1e-6) + 1e-18);
    }
    free(b);
    /* columns already on an int8 grid (k * 2^-9, largest |k| 124..127) come
     * back exactly (own random stream: the later tests keep their data) */
    uint64_t saved = rng;
    rng = 0x9a1d9a1d9a1d9a1dull;
    for (size_t i = 0; i < ni; i++)
        for (size_t o = 0; o < no; o++) {
            int kmax = 124 + (int)(o % 4), k = (int)(next_u64() % (2 * (unsigned)kmax + 1)) - kmax;
            if (i == o % ni)
                k = o & 1 ? kmax : -kmax;
            w0[i * no + o] = ldexpf((float)k, -9);
        }
    {
        pii_rt_mat src = {w0, NULL, no * 4, (uint32_t)no, (uint32_t)ni, PII_DT_F32, PII_RT_IO};
        uint64_t nb = pii_rt_qmat_bytes(PII_DT_Q8_ROW, ni, no);
        b = malloc(nb);
        assert_int_equal(pii_rt_quantize(&src, PII_DT_Q8_ROW, b, nb, NULL), PII_OK);
        decode(PII_DT_Q8_ROW, b, ni, no, w);
        assert_memory_equal(w, w0, ni * no * 4);
        free(b);
    }
    rng = saved;
    b = make_q(PII_DT_Q4_G32, ni, no, w0, &m);
    decode(PII_DT_Q4_G32, b, ni, no, w);
    for (size_t o = 0; o < no; o++)
        for (size_t g = 0; g < ni / 32; g++) {
            float lo = INFINITY, hi = -INFINITY;
            double se = 0;
            for (size_t i = g * 32; i < g * 32 + 32; i++) {
                lo = fminf(lo, w0[i * no + o]);
                hi = fmaxf(hi, w0[i * no + o]);
                double e = (double)w[i * no + o] - w0[i * no + o];
                se += e * e;
            }
            assert_true(sqrt(se / 32) <= (hi - lo) / 15.0 + 1e-6);
        }
    free(b);
    /* the same matrix from a transposed (OI) bf16 source quantizes identically
     * to its IO bf16 twin */
    uint16_t *io = malloc(ni * no * 2), *oi = malloc(ni * no * 2);
    for (size_t i = 0; i < ni; i++)
        for (size_t o = 0; o < no; o++) {
            uint16_t h = pii_rt_f32_to_bf16(frand());
            io[i * no + o] = h;
            oi[o * ni + i] = h;
        }
    pii_rt_mat a = {io, NULL, no * 2, (uint32_t)no, (uint32_t)ni, PII_DT_BF16, PII_RT_IO};
    pii_rt_mat c = {oi, NULL, ni * 2, (uint32_t)no, (uint32_t)ni, PII_DT_BF16, PII_RT_OI};
    for (int k = 0; k < 2; k++) {
        pii_dtype qt = k ? PII_DT_Q4_G32 : PII_DT_Q8_ROW;
        uint64_t nb = pii_rt_qmat_bytes(qt, ni, no);
        uint8_t *b1 = malloc(nb), *b2 = malloc(nb);
        assert_int_equal(pii_rt_quantize(&a, qt, b1, nb, NULL), PII_OK);
        assert_int_equal(pii_rt_quantize(&c, qt, b2, nb, NULL), PII_OK);
        assert_memory_equal(b1, b2, nb);
        assert_int_equal(pii_rt_quantize(&a, qt, b1, nb - 1, NULL), PII_ETOOBIG);
        free(b1);
        free(b2);
    }
    free(io);
    free(oi);
    free(w0);
    free(w);
}

/* Double evaluation of the documented semantics. */
/* The activation mode under test (each call builds its plan from it). */
static pii_rt_qact g_act = PII_RT_QACT_I16;

static void gemm_on(int isa, pii_rt_qact act, const pii_rt_mat *W, size_t n, const float *x,
                    size_t ldx, const float *bias, float *y, size_t ldy, size_t o0, size_t o1,
                    int acc)
{
    pii_rt_plan p;
    /* isa PII_RT_ISA_COUNT: the AVX-512 path of a CPU without VNNI */
    int novnni = isa == PII_RT_ISA_COUNT;
    assert_int_equal(pii_rt_plan_init(&p, novnni ? PII_RT_ISA_AVX512 : isa, act), PII_OK);
    if (novnni)
        p.vnni = 0;
    pii_rt_gemm(&p, W, n, x, ldx, bias, y, ldy, o0, o1, acc);
}

/* The paths to compare with scalar: each ISA the CPU has, and AVX-512
 * without VNNI where it has AVX-512. */
static int last_path(void)
{
    int best = (int)pii_rt_isa_detect();
    return best == PII_RT_ISA_AVX512 ? PII_RT_ISA_COUNT : best;
}

/* pii_rt_gemm_qx after pii_rt_qx_rows on one path, activations act, rows
 * ldq = n_in + 5 int16 slots apart (a stride the kernels' own buffers never
 * use); q, s and sq returned. */
static void gemm_qx_on(int isa, pii_rt_qact act, const pii_rt_mat *W, size_t n, const float *x,
                       size_t ldx, const float *bias, float *y, size_t ldy, size_t o0, size_t o1,
                       int acc, int16_t *q, float *s, int32_t *sq)
{
    pii_rt_plan p;
    int novnni = isa == PII_RT_ISA_COUNT;
    assert_int_equal(pii_rt_plan_init(&p, novnni ? PII_RT_ISA_AVX512 : isa, act), PII_OK);
    if (novnni)
        p.vnni = 0;
    assert_true(pii_rt_qx_usable(&p, W));
    const size_t ldq = W->n_in + 5;
    for (size_t k = 0; k < n * ldq; k++)
        q[k] = 0x5555; /* the padding must be written */
    for (size_t t = 0; t < n; t++)
        sq[t] = 0x55555555;
    pii_rt_qx_rows(&p, n, W->n_in, x, ldx, q, ldq, s, sq);
    for (size_t t = 0; t < n; t++) {
        if (act == PII_RT_QACT_I8) { /* int8 values, zero past n_in, and their sum */
            const int8_t *r = (const int8_t *)(q + t * ldq);
            int32_t sum = 0;
            for (size_t i = 0; i < 2 * ldq; i++) {
                if (i >= W->n_in)
                    assert_int_equal(r[i], 0);
                sum += r[i];
            }
            assert_int_equal(sq[t], sum);
        } else {
            for (size_t i = W->n_in; i < ldq; i++)
                assert_int_equal(q[t * ldq + i], 0);
        }
    }
    pii_rt_gemm_qx(&p, W, n, q, ldq, s, sq, bias, y, ldy, o0, o1, acc);
}

static void reference(pii_dtype qt, const uint8_t *b, size_t ni, size_t no, size_t n,
                      const float *x, const float *bias, double *y, double *mag)
{
    float *w = malloc(ni * no * 4);
    decode(qt, b, ni, no, w);
    int16_t *q = malloc(ni * sizeof *q);
    for (size_t t = 0; t < n; t++) {
        float amax = 0;
        for (size_t i = 0; i < ni; i++)
            amax = fmaxf(amax, fabsf(x[t * ni + i]));
        const float Q = g_act == PII_RT_QACT_I8 ? 127.0f : 8191.0f;
        float s = amax > 0 ? amax / Q : 0, inv = amax > 0 ? Q / amax : 0;
        for (size_t i = 0; i < ni; i++) {
            float v = rintf(x[t * ni + i] * inv);
            q[i] = (int16_t)(v > Q ? Q : v < -Q ? -Q : v);
        }
        for (size_t o = 0; o < no; o++) {
            double a = 0, mg = 0;
            for (size_t i = 0; i < ni; i++) {
                a += (double)q[i] * w[i * no + o];
                mg += fabs((double)q[i] * w[i * no + o]);
            }
            y[t * no + o] = a * s + (bias ? bias[o] : 0);
            mag[t * no + o] = mg * s + (bias ? fabs(bias[o]) : 0);
        }
    }
    free(q);
    free(w);
}

static void check_paths(pii_dtype qt, size_t ni, size_t no, size_t n)
{
    float *w0 = malloc(ni * no * 4);
    pii_rt_mat m;
    uint8_t *b = make_q(qt, ni, no, w0, &m);
    float *x = malloc(n * ni * 4), *bias = malloc(no * 4);
    for (size_t k = 0; k < n * ni; k++)
        x[k] = frand() * (1 + (float)(k / ni % 3));
    if (n > 2)
        memset(x + ni, 0, ni * 4); /* an all-zero row */
    for (size_t o = 0; o < no; o++)
        bias[o] = frand();
    double *yr = malloc(n * no * 8), *mag = malloc(n * no * 8);
    reference(qt, b, ni, no, n, x, bias, yr, mag);
    float *ys = malloc(n * no * 4), *yv = malloc(n * no * 4), *yf = malloc(n * no * 4);
    const size_t ranges[][2] = {
        {0, no}, {3, no > 77 ? 77 : no}, {no / 2, no}, {no > 64 ? 64 : 0, no}};
    for (int acc = 0; acc < 2; acc++)
        for (size_t rgi = 0; rgi < 4; rgi++) {
            size_t o0 = ranges[rgi][0], o1 = ranges[rgi][1];
            if (o1 <= o0)
                continue;
            const float *bi = rgi & 1 ? NULL : bias;
            for (size_t k = 0; k < n * no; k++)
                ys[k] = yv[k] = (float)k * 0.001f;
            gemm_on(PII_RT_ISA_SCALAR, g_act, &m, n, x, ni, bi, ys, no, o0, o1, acc);
            /* scalar against the double semantics */
            for (size_t t = 0; t < n; t++)
                for (size_t o = 0; o < no; o++) {
                    double init = (double)(float)((float)(t * no + o) * 0.001f);
                    double want;
                    if (o < o0 || o >= o1)
                        want = init;
                    else
                        want = yr[t * no + o] - (bi ? 0 : (bias[o])) + (acc ? init : 0);
                    double tol = 1e-5 * (mag[t * no + o] + fabs(init)) + 1e-6;
                    if (fabs(ys[t * no + o] - want) > tol)
                        fail_msg("qt %d ni %zu no %zu t %zu o %zu: %g vs %g", qt, ni, no, t, o,
                                 (double)ys[t * no + o], want);
                }
            /* int16 or int8 activations quantized once
             * (pii_rt_qx_rows), every path: the same bits as pii_rt_gemm,
             * and the same q, s and row sums */
            if (qt == PII_DT_Q8_ROW && (g_act == PII_RT_QACT_I16 || g_act == PII_RT_QACT_I8)) {
                int16_t *q0 = malloc(n * (ni + 5) * 2), *q1 = malloc(n * (ni + 5) * 2);
                float *s0 = malloc(n * 4), *s1 = malloc(n * 4);
                int32_t *sq0 = malloc(n * 4), *sq1 = malloc(n * 4);
                for (int isa = 0; isa <= last_path(); isa++) {
                    for (size_t k = 0; k < n * no; k++)
                        yv[k] = (float)k * 0.001f;
                    gemm_qx_on(isa, g_act, &m, n, x, ni, bi, yv, no, o0, o1, acc, isa ? q1 : q0,
                               isa ? s1 : s0, isa ? sq1 : sq0);
                    if (memcmp(ys, yv, n * no * 4))
                        fail_msg("gemm_qx act %d isa %d ni %zu no %zu n %zu [%zu,%zu) acc %d "
                                 "differs",
                                 (int)g_act, isa, ni, no, n, o0, o1, acc);
                    if (isa && (memcmp(q0, q1, n * (ni + 5) * 2) || memcmp(s0, s1, n * 4) ||
                                (g_act == PII_RT_QACT_I8 && memcmp(sq0, sq1, n * 4))))
                        fail_msg("qx_rows act %d isa %d ni %zu n %zu: q, s or sq differs from "
                                 "scalar",
                                 (int)g_act, isa, ni, n);
                }
                free(q0);
                free(q1);
                free(s0);
                free(s1);
                free(sq0);
                free(sq1);
            }
            for (int isa = 1; isa <= last_path(); isa++) {
                for (size_t k = 0; k < n * no; k++)
                    yv[k] = (float)k * 0.001f;
                gemm_on(isa, g_act, &m, n, x, ni, bi, yv, no, o0, o1, acc);
                if (memcmp(ys, yv, n * no * 4)) {
                    for (size_t k = 0; k < n * no; k++)
                        if (ys[k] != yv[k])
                            fail_msg("isa %s act %s qt %d ni %zu no %zu n %zu [%zu,%zu) acc %d: "
                                     "y[%zu] %.9g vs scalar %.9g",
                                     isa == PII_RT_ISA_COUNT ? "avx512-novnni"
                                                             : pii_rt_isa_name((pii_rt_isa)isa),
                                     pii_rt_qact_name(g_act), qt, ni, no, n, o0, o1, acc, k,
                                     (double)yv[k], (double)ys[k]);
                }
            }
        }
    /* fidelity against the unquantized product */
    pii_rt_mat src = {w0, NULL, no * 4, (uint32_t)no, (uint32_t)ni, PII_DT_F32, PII_RT_IO};
    gemm_on(PII_RT_ISA_SCALAR, g_act, &src, n, x, ni, NULL, yf, no, 0, no, 0);
    gemm_on(-1, g_act, &m, n, x, ni, NULL, yv, no, 0, no, 0);
    for (size_t t = 0; t < n; t++) {
        double ab = 0, aa = 0, bb = 0;
        for (size_t o = 0; o < no; o++) {
            ab += (double)yf[t * no + o] * yv[t * no + o];
            aa += (double)yf[t * no + o] * yf[t * no + o];
            bb += (double)yv[t * no + o] * yv[t * no + o];
        }
        if (aa == 0 && bb == 0)
            continue;
        double cs = ab / sqrt(aa * bb);
        if (cs < (qt == PII_DT_Q8_ROW ? 0.9995 : 0.99))
            fail_msg("qt %d ni %zu no %zu row %zu: cosine %.6f", qt, ni, no, t, cs);
    }
    free(w0);
    free(b);
    free(x);
    free(bias);
    free(yr);
    free(mag);
    free(ys);
    free(yv);
    free(yf);
}

static void test_q8_paths(void **st)
{
    (void)st;
    /* 2052: wider than the int16 SIMD kernels take (scalar fallback) */
    const size_t shapes[][2] = {{4, 1},     {36, 17},   {64, 64},  {96, 100},
                                {640, 200}, {128, 640}, {2052, 70}};
    for (int a = 0; a < 2; a++) {
        g_act = a ? PII_RT_QACT_I8 : PII_RT_QACT_I16;
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
            for (size_t n = 1; n <= 13; n += 3)
                check_paths(PII_DT_Q8_ROW, shapes[s][0], shapes[s][1], n);
    }
    g_act = PII_RT_QACT_I16;
}

static void test_q4_paths(void **st)
{
    (void)st;
    const size_t shapes[][2] = {{32, 1},    {32, 17},   {64, 64},  {96, 100},
                                {640, 200}, {128, 640}, {2080, 70}};
    for (int a = 0; a < 2; a++) {
        g_act = a ? PII_RT_QACT_I8 : PII_RT_QACT_I16;
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
            for (size_t n = 1; n <= 13; n += 3)
                check_paths(PII_DT_Q4_G32, shapes[s][0], shapes[s][1], n);
    }
    g_act = PII_RT_QACT_I16;
    pii_rt_plan pl;
    assert_int_equal(pii_rt_plan_init(&pl, -1, (pii_rt_qact)7), PII_EINVAL);
    assert_int_equal(pii_rt_plan_init(&pl, PII_RT_ISA_COUNT, PII_RT_QACT_I16), PII_EINVAL);
    if (pii_rt_isa_detect() < PII_RT_ISA_AVX512)
        assert_int_equal(pii_rt_plan_init(&pl, PII_RT_ISA_AVX512, PII_RT_QACT_I16),
                         PII_EUNSUPPORTED);
    assert_int_equal(pii_rt_plan_init(&pl, -1, PII_RT_QACT_I8), PII_OK);
    assert_int_equal(pl.isa, pii_rt_isa_detect());
    assert_int_equal(pl.qact, PII_RT_QACT_I8);
    assert_string_equal(pii_rt_qact_name(PII_RT_QACT_I8), "int8");
}

/* The residue pass (int16+8): a product of x plus one of its int16
 * rounding residue (no bias, acc) against the f32-exact product, relative to
 * sum |w x|: within 1e-7 with an int16 residue pass and 2e-6 with an int8
 * one (int16+8), at least 100x / 20x closer than one int16 pass, and the
 * same on every ISA path.  The residue pass runs with int8 activations
 * through a second plan, as the encoder's workspace does. */
static void test_residue(void **st)
{
    (void)st;
    const size_t ni = 640, no = 200, n = 7;
    float *w0 = malloc(ni * no * 4), *w = malloc(ni * no * 4);
    pii_rt_mat m;
    uint8_t *b = make_q(PII_DT_Q8_ROW, ni, no, w0, &m);
    decode(PII_DT_Q8_ROW, b, ni, no, w);
    float *x = malloc(n * ni * 4), *r = malloc(n * ni * 4);
    float *y1 = malloc(n * no * 4), *y2 = malloc(n * no * 4), *y3 = malloc(n * no * 4);
    for (size_t k = 0; k < n * ni; k++)
        x[k] = frand() * (k % 11 == 0 ? 20.0f : 1.0f);
    memcpy(r, x, n * ni * 4);
    for (size_t t = 0; t < n; t++)
        pii_rt_q16_residue(r + t * ni, ni);
    double e1 = 0, e2[2] = {0, 0};
    const int best = (int)pii_rt_isa_detect();
    for (int ra = 0; ra < 2; ra++)
        for (int isa = best; isa >= 0; isa--) {
            gemm_on(isa, PII_RT_QACT_I16, &m, n, x, ni, NULL, y1, no, 0, no, 0);
            gemm_on(isa, PII_RT_QACT_I16, &m, n, x, ni, NULL, y2, no, 0, no, 0);
            gemm_on(isa, ra ? PII_RT_QACT_I8 : PII_RT_QACT_I16, &m, n, r, ni, NULL, y2, no, 0, no,
                    1);
            if (isa != best) {
                assert_memory_equal(y2, y3, n * no * 4);
                continue;
            }
            memcpy(y3, y2, n * no * 4);
            for (size_t t = 0; t < n; t++)
                for (size_t o = 0; o < no; o++) {
                    double want = 0, mag = 0;
                    for (size_t i = 0; i < ni; i++) {
                        want += (double)w[i * no + o] * x[t * ni + i];
                        mag += fabs((double)w[i * no + o] * x[t * ni + i]);
                    }
                    e1 = fmax(e1, fabs(y1[t * no + o] - want) / mag);
                    e2[ra] = fmax(e2[ra], fabs(y2[t * no + o] - want) / mag);
                }
        }
    printf("max error relative to sum |w x|: int16 one pass %.3g, int16 + int16 residue %.3g, "
           "int16 + int8 residue %.3g\n",
           e1, e2[0], e2[1]);
    assert_true(e2[0] <= 1e-7);
    assert_true(e2[0] * 100 <= e1);
    assert_true(e2[1] <= 2e-6);
    assert_true(e2[1] * 20 <= e1);
    /* residue of an all-zero row: zero */
    memset(r, 0, ni * 4);
    pii_rt_q16_residue(r, ni);
    for (size_t i = 0; i < ni; i++)
        assert_true(r[i] == 0.0f);
    /* the activation modes by name */
    pii_rt_qact a;
    assert_int_equal(pii_rt_qact_parse("int16+8", &a), PII_OK);
    assert_int_equal(a, PII_RT_QACT_I16R8);
    assert_int_equal(pii_rt_qact_parse("int8", &a), PII_OK);
    assert_int_equal(a, PII_RT_QACT_I8);
    assert_int_equal(pii_rt_qact_parse("int4", &a), PII_EINVAL);
    assert_int_equal(pii_rt_qact_parse(NULL, &a), PII_EINVAL);
    assert_string_equal(pii_rt_qact_name(PII_RT_QACT_I16R8), "int16+8");
    free(w0);
    free(w);
    free(b);
    free(x);
    free(r);
    free(y1);
    free(y2);
    free(y3);
}

/* Expert stacks: matrices back to back, addressed with pii_rt_mat_offset. */
static void test_stack(void **st)
{
    (void)st;
    const size_t ni = 64, no = 96, E = 3, n = 5;
    uint64_t nb = pii_rt_qmat_bytes(PII_DT_Q8_ROW, ni, no);
    uint8_t *stack = malloc(E * nb);
    float *w0 = malloc(ni * no * 4), *x = malloc(n * ni * 4);
    float *y1 = malloc(n * no * 4), *y2 = malloc(n * no * 4);
    for (size_t k = 0; k < n * ni; k++)
        x[k] = frand();
    for (size_t e = 0; e < E; e++) {
        pii_rt_mat m;
        uint8_t *b = make_q(PII_DT_Q8_ROW, ni, no, w0, &m);
        memcpy(stack + e * nb, b, nb);
        gemm_on(-1, g_act, &m, n, x, ni, NULL, y1, no, 0, no, 0);
        pii_rt_mat s0;
        assert_int_equal(pii_rt_qmat_view(&s0, PII_DT_Q8_ROW, stack, E * nb, ni, no), PII_OK);
        pii_rt_mat se = pii_rt_mat_offset(&s0, e * nb);
        gemm_on(-1, g_act, &se, n, x, ni, NULL, y2, no, 0, no, 0);
        assert_memory_equal(y1, y2, n * no * 4);
        free(b);
    }
    free(stack);
    free(w0);
    free(x);
    free(y1);
    free(y2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sizes),    cmocka_unit_test(test_quantizers),
        cmocka_unit_test(test_q8_paths), cmocka_unit_test(test_q4_paths),
        cmocka_unit_test(test_stack),    cmocka_unit_test(test_residue),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
