/* bench_peak.c — the machine's own peak for `pii-redact bench` (bench.h):
 * register-only f32 FMA and int8 VNNI loops on every pool thread, and the
 * clocks and output helpers the bench files share. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "bench.h"
#include "model_cli.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

double bench_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU time of the whole process (all threads): on a shared machine,
 * tokens per CPU-second shows what the code does when it gets the cores. */
double bench_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- peak loops ---------------------------------------------------------- */

typedef struct peak_ctx {
    long iters;
    int kind; /* 0 f32 FMA, 1 int8 VNNI */
    volatile float sinkf;
    volatile int sinki;
} peak_ctx;

#define PEAK_CHAINS 16

#if defined(__x86_64__)
__attribute__((target("avx512f"))) static void peak_fma512(peak_ctx *c)
{
    __m512 a[PEAK_CHAINS];
    volatile float vb = 0.999999f, vc = 1e-3f;
    __m512 b = _mm512_set1_ps(vb), cc = _mm512_set1_ps(vc);
    for (int k = 0; k < PEAK_CHAINS; k++)
        a[k] = _mm512_set1_ps((float)k);
    for (long it = 0; it < c->iters; it++)
#pragma GCC unroll 16
        for (int k = 0; k < PEAK_CHAINS; k++)
            a[k] = _mm512_fmadd_ps(a[k], b, cc);
    __m512 s = a[0];
    for (int k = 1; k < PEAK_CHAINS; k++)
        s = _mm512_add_ps(s, a[k]);
    c->sinkf = _mm512_reduce_add_ps(s);
}

__attribute__((target("avx2,fma"))) static void peak_fma256(peak_ctx *c)
{
    __m256 a[PEAK_CHAINS];
    volatile float vb = 0.999999f, vc = 1e-3f;
    __m256 b = _mm256_set1_ps(vb), cc = _mm256_set1_ps(vc);
    for (int k = 0; k < PEAK_CHAINS; k++)
        a[k] = _mm256_set1_ps((float)k);
    for (long it = 0; it < c->iters; it++)
#pragma GCC unroll 16
        for (int k = 0; k < PEAK_CHAINS; k++)
            a[k] = _mm256_fmadd_ps(a[k], b, cc);
    __m256 s = a[0];
    for (int k = 1; k < PEAK_CHAINS; k++)
        s = _mm256_add_ps(s, a[k]);
    float f[8];
    _mm256_storeu_ps(f, s);
    c->sinkf = f[0] + f[7];
}

__attribute__((target("avx512f,avx512bw,avx512vnni"))) static void peak_vnni512(peak_ctx *c)
{
    __m512i a[PEAK_CHAINS];
    volatile int vb = 0x01020304, vc = 0x05060708;
    __m512i b = _mm512_set1_epi32(vb), cc = _mm512_set1_epi32(vc);
    for (int k = 0; k < PEAK_CHAINS; k++)
        a[k] = _mm512_set1_epi32(k);
    for (long it = 0; it < c->iters; it++)
#pragma GCC unroll 16
        for (int k = 0; k < PEAK_CHAINS; k++)
            a[k] = _mm512_dpbusd_epi32(a[k], b, cc);
    __m512i s = a[0];
    for (int k = 1; k < PEAK_CHAINS; k++)
        s = _mm512_add_epi32(s, a[k]);
    uint32_t lane[16], sum = 0; /* wrapping sum: the value is only a sink */
    _mm512_storeu_si512(lane, s);
    for (int k = 0; k < 16; k++)
        sum += lane[k];
    c->sinki = (int)(sum & 0x7fffffff);
}
#endif

static int have_avx512(void)
{
#if defined(__x86_64__)
    return mc_isa_active() >= PII_RT_ISA_AVX512;
#else
    return 0;
#endif
}

static int have_vnni(void)
{
#if defined(__x86_64__)
    __builtin_cpu_init();
    return have_avx512() && __builtin_cpu_supports("avx512vnni");
#else
    return 0;
#endif
}

static void peak_task(void *vctx, int ith, int nth)
{
    (void)ith;
    (void)nth;
    peak_ctx *c = vctx;
#if defined(__x86_64__)
    if (c->kind == 0) {
        if (have_avx512())
            peak_fma512(c);
        else if (mc_isa_active() >= PII_RT_ISA_AVX2)
            peak_fma256(c);
    } else if (have_vnni()) {
        peak_vnni512(c);
    }
#else
    (void)c;
#endif
}

double bench_peak_rate(pii_rt_pool *pool, int kind)
{
    double lanes;
    if (kind == 0)
        lanes = have_avx512() ? 16 : mc_isa_active() >= PII_RT_ISA_AVX2 ? 8 : 0;
    else
        lanes = have_vnni() ? 64 : 0;
    if (lanes == 0)
        return 0;
    peak_ctx c = {.iters = 1000, .kind = kind};
    double best = 0;
    /* calibrate to ~0.15 s per run */
    for (;;) {
        double t0 = bench_now_s();
        pii_rt_pool_run(pool, peak_task, &c);
        double dt = bench_now_s() - t0;
        if (dt > 0.05 || c.iters > (1L << 40)) {
            c.iters = (long)((double)c.iters * 0.15 / dt) + 1;
            break;
        }
        c.iters *= 4;
    }
    for (int r = 0; r < 3; r++) {
        double t0 = bench_now_s();
        pii_rt_pool_run(pool, peak_task, &c);
        double dt = bench_now_s() - t0;
        double ops = (double)c.iters * PEAK_CHAINS * lanes * 2 * pii_rt_pool_size(pool);
        if (ops / dt > best)
            best = ops / dt;
    }
    return best;
}

/* ---- output ---------------------------------------------------------------- */

const char *bench_dtype_label(pii_dtype t)
{
    switch (t) {
    case PII_DT_F32:
        return "f32";
    case PII_DT_F16:
        return "f16";
    case PII_DT_BF16:
        return "bf16";
    case PII_DT_Q8_0:
        return "q8_0";
    case PII_DT_Q8_ROW:
        return "int8";
    case PII_DT_Q4_G32:
        return "int4";
    default:
        return pii_dtype_name(t);
    }
}

void bench_json_num(const char *key, double v, int last)
{
    if (isfinite(v))
        printf("\"%s\":%.6g%s", key, v, last ? "" : ",");
    else
        printf("\"%s\":null%s", key, last ? "" : ",");
}
