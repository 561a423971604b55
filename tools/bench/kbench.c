/* kbench.c — kernel micro-benchmark (development tool, not built by make):
 * one expert-shaped GEMM through pii_rt_gemm on a given dtype, single
 * thread, GFLOP/s per CPU-second.
 *   cc -O2 -Iinclude tools/bench/kbench.c libpiiredact.a -lm -pthread -o build/kbench
 *   build/kbench DTYPE ROWS N_IN N_OUT [EXPERTS] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pii_rt.h"

static double cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    const char *dt = argc > 1 ? argv[1] : "bf16";
    size_t rows = argc > 2 ? atoi(argv[2]) : 16, nin = argc > 3 ? atoi(argv[3]) : 640,
           nout = argc > 4 ? atoi(argv[4]) : 1280, E = argc > 5 ? atoi(argv[5]) : 1;
    pii_dtype t = !strcmp(dt, "f32") ? PII_DT_F32 : PII_DT_BF16;
    pii_dtype qt = !strcmp(dt, "q8") ? PII_DT_Q8_ROW : !strcmp(dt, "q4") ? PII_DT_Q4_G32 : 0;
    pii_rt_plan plan;
    if (pii_rt_plan_init(&plan, argc > 6 ? atoi(argv[6]) : -1,
                         getenv("KB_A8") ? PII_RT_QACT_I8 : PII_RT_QACT_I16)) {
        fprintf(stderr, "kbench: unsupported isa\n");
        return 2;
    }
    size_t es = t == PII_DT_F32 ? 4 : 2;
    uint8_t *w = malloc(E * nin * nout * es);
    for (size_t i = 0; i < E * nin * nout * es; i++)
        w[i] = (uint8_t)(rand() & 0x3f);
    float *x = malloc(rows * nin * 4), *y = malloc(rows * nout * 4);
    for (size_t i = 0; i < rows * nin; i++)
        x[i] = (float)rand() / RAND_MAX;
    pii_rt_mat m = {w, NULL, nout * es, (uint32_t)nout, (uint32_t)nin, t, PII_RT_IO};
    if (qt) {
        size_t nb = pii_rt_qmat_bytes(qt, nin, nout);
        uint8_t *qb = malloc(E * nb);
        for (size_t e = 0; e < E; e++) {
            pii_rt_mat src = pii_rt_mat_offset(&m, e * nin * nout * es);
            pii_rt_quantize(&src, qt, qb + e * nb, nb, NULL);
        }
        pii_rt_qmat_view(&m, qt, qb, E * nb, nin, nout);
        es = 0;
        m.ld = m.ld; /* panel bytes */
        es = nb;     /* stride per expert below */
    }
    double best = 0;
    for (int rep = 0; rep < 5; rep++) {
        double t0 = cpu();
        int it = 0;
        do {
            for (size_t e = 0; e < E; e++) {
                pii_rt_mat me = pii_rt_mat_offset(&m, qt ? e * es : e * nin * nout * es);
                pii_rt_gemm(&plan, &me, rows, x, nin, NULL, y, nout, 0, nout, 0);
            }
            it++;
        } while (cpu() - t0 < 0.3);
        double dt_ = cpu() - t0;
        double g = 2.0 * rows * nin * nout * E * it / dt_ / 1e9;
        if (g > best)
            best = g;
    }
    printf("%s(%s) rows=%zu %zux%zu E=%zu: %.1f GFLOP/s per CPU-second\n", dt,
           pii_rt_qact_name(plan.qact), rows, nin, nout, E, best);
    return 0;
}
