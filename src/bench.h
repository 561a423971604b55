/* bench.h — the parts of `pii-redact bench` (src/cmd_bench.c) that live in
 * files of their own: the machine's peak (bench_peak.c) and the encoder
 * fidelity of --compare (bench_compare.c), with the few helpers they share.
 * CLI only, not part of the library. */
#ifndef PII_BENCH_H
#define PII_BENCH_H

#include <stddef.h>

#include "pii_model.h"
#include "pii_rt.h"

double bench_now_s(void); /* CLOCK_MONOTONIC */
/* CPU time of the whole process (all threads). */
double bench_cpu_s(void);

/* ---- peak (bench_peak.c) ---------------------------------------------------
 * A register-only loop on every pool thread — f32 FMA (AVX-512 or AVX2) and
 * int8 dot products (AVX-512 VNNI vpdpbusd) — timed around the pool run;
 * operations = 2 per multiply-add.  kind 0: f32 FMA, 1: int8 VNNI.  Returns
 * operations per second of all the pool's threads together (best of 3), 0
 * when the CPU lacks the instructions.  pool NULL: the calling thread. */
double bench_peak_rate(pii_rt_pool *pool, int kind);

/* ---- corpus (cmd_bench.c) ----------------------------------------------------
 * The file's bytes and its lines as `pii-redact --lines` splits them: line i
 * is buf[start[i], start[i+1]) with its '\n' (the last may have none), empty
 * lines included; --limit N keeps the first N lines. */
typedef struct bench_corpus {
    char *buf;
    size_t len;    /* bytes of the kept lines */
    size_t *start; /* [n + 1] */
    size_t n;
} bench_corpus;

/* Line i without its "\n" or "\r\n". */
void bench_corpus_text(const bench_corpus *c, size_t i, const char **text, size_t *len);

/* ---- fidelity (bench_compare.c) ----------------------------------------------
 * --compare REF: m and ref on every non-empty line of the corpus; prints the
 * report (JSON or text) and returns the exit status (1 below a gate).
 * pool: the forward passes' threads (NULL: the calling thread). */
typedef struct bench_compare_args {
    const char *model_name, *ref_name;
    int threads; /* 0: all cores */
    int json;
    double min_cos, min_spans;
} bench_compare_args;
int bench_compare(const bench_compare_args *a, pii_rt_pool *pool, const pii_model *m,
                  const pii_model *ref, const bench_corpus *c);

/* ---- output ------------------------------------------------------------------ */
const char *bench_dtype_label(pii_dtype t);
void bench_json_num(const char *key, double v, int last); /* null when not finite */

#endif
