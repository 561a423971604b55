/* bench_forward.c — encoder forward-pass timing (developer tool, not part of
 * the library or the CLI; issue 8's `pii-redact bench` is the user-facing
 * one).  Usage:
 *   bench_forward -m MODEL [-n N[,N...]] [-t THREADS] [-r REPS] [--isa NAME]
 * For each N: one document of N pseudo-random ids, best of REPS passes after
 * one warm-up.  Prints wall time and process CPU time (on a shared machine
 * the CPU time is the stable figure), tokens/s and effective GFLOP/s
 * (pii_model_flops_per_token), then load time and peak RSS. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "pii_model.h"

static double clk(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    const char *model = NULL, *ns = "16,128,512,2048";
    int threads = 1, reps = 3;
    pii_model_params prm;
    pii_model_default_params(&prm);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-m") && i + 1 < argc)
            model = argv[++i];
        else if (!strcmp(argv[i], "-n") && i + 1 < argc)
            ns = argv[++i];
        else if (!strcmp(argv[i], "-t") && i + 1 < argc)
            threads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-r") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--isa") && i + 1 < argc) {
            pii_rt_isa isa;
            if (pii_rt_isa_parse(argv[++i], &isa) || isa > pii_rt_isa_detect()) {
                fprintf(stderr, "bad or unsupported --isa\n");
                return 2;
            }
            prm.isa = (int)isa;
        } else {
            fprintf(stderr, "usage: %s -m MODEL [-n N,...] [-t THREADS] [-r REPS] [--isa NAME]\n",
                    argv[0]);
            return 2;
        }
    }
    if (!model) {
        fprintf(stderr, "-m MODEL is required\n");
        return 2;
    }
    pii_err e;
    char msg[512];
    double t0 = clk(CLOCK_MONOTONIC);
    pii_model *m = pii_model_load(model, &prm, &e, msg, sizeof msg);
    double tload = clk(CLOCK_MONOTONIC) - t0;
    if (!m) {
        fprintf(stderr, "%s\n", msg);
        return 4;
    }
    pii_rt_pool *pool = threads != 1 ? pii_rt_pool_create(threads, &e) : NULL;
    const pii_model_config *c = pii_model_cfg(m);
    printf("model %s: experts %s, isa %s, threads %d, load %.3f s\n", model,
           pii_dtype_name(pii_model_expert_dtype(m)), pii_rt_isa_name(pii_model_plan(m)->isa),
           pii_rt_pool_size(pool), tload);
    printf("%8s %10s %10s %10s %12s %10s\n", "tokens", "wall_s", "tok/s", "GFLOP/s", "cpu_s",
           "tok/cpu_s");
    for (const char *p = ns; *p;) {
        size_t n = strtoul(p, (char **)&p, 10);
        if (*p == ',')
            p++;
        if (!n)
            break;
        pii_model_ws *ws = pii_model_ws_create(m, n, pool, &e);
        int32_t *ids = malloc(n * sizeof *ids);
        float *lg = malloc(n * (size_t)c->n_labels * sizeof *lg);
        if (!ws || !ids || !lg)
            return 5;
        uint64_t s = 88172645463325252ull;
        for (size_t i = 0; i < n; i++) {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            ids[i] = (int32_t)(s % (uint64_t)(c->vocab_size < 199998 ? c->vocab_size : 199998));
        }
        double bw = 1e30, bc = 1e30;
        for (int r = 0; r <= reps; r++) {
            double w0 = clk(CLOCK_MONOTONIC), c0 = clk(CLOCK_PROCESS_CPUTIME_ID);
            if (pii_model_forward(m, ws, ids, n, NULL, 0, lg, NULL))
                return 5;
            double w = clk(CLOCK_MONOTONIC) - w0, cp = clk(CLOCK_PROCESS_CPUTIME_ID) - c0;
            if (r == 0)
                continue; /* warm-up: page faults on the mapping */
            bw = w < bw ? w : bw;
            bc = cp < bc ? cp : bc;
        }
        double fl = pii_model_flops_per_token(m, n) * (double)n;
        printf("%8zu %10.4f %10.0f %10.1f %12.4f %10.0f\n", n, bw, (double)n / bw, fl / bw / 1e9,
               bc, (double)n / bc);
        pii_model_ws_free(ws);
        free(ids);
        free(lg);
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("peak RSS %.0f MB\n", (double)ru.ru_maxrss / 1024.0);
    pii_rt_pool_free(pool);
    pii_model_free(m);
    return 0;
}
