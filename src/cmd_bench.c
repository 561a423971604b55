/* cmd_bench.c — `pii-redact bench`: encoder speed on a corpus, the
 * machine's own peak measured in the same run, and quantization fidelity.
 *
 * Modes (see --help and docs/PERFORMANCE.md):
 *   throughput  sentences packed back to back into forward passes of at
 *               most --pack tokens (positions restart and attention stays
 *               inside each sentence); per pass: tokenize, forward,
 *               log-softmax, Viterbi, token spans.
 *   latency     one sentence per forward pass, the same steps, each timed.
 *   --length N  inputs of exactly N tokens cut from the tokenized corpus
 *               (tokens/s against input length; no tokenizing in the loop).
 *   --compare REF  fidelity: runs MODEL and REF on every sentence and
 *               reports the per-token logits cosine and the share of
 *               sentences with identical Viterbi spans.
 *
 * Peak: a register-only loop on every pool thread — f32 FMA (AVX-512 or
 * AVX2) and int8 dot products (AVX-512 VNNI vpdpbusd) — timed around the
 * pool run; FLOPs = 2 per multiply-add.
 *
 * Timings start after a warm-up pass (all experts' pages mapped), so they
 * are steady-state figures; load_s is the model load alone and first_s
 * load plus the warm-up. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "model_cli.h"
#include "pii_default_model.h"
#include "pii_ner.h"
#include "pii_tok.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

static const mc_opt opts[] = {
    {"model", 'm', "PATH", "model directory, .safetensors, index .json or .gguf"},
    {"corpus", 0, "FILE",
     "one sentence per line (default samples/sentences.txt, else the installed "
     "share/pii-redact/sentences.txt)"},
    {"threads", 't', "N", "worker threads (default: all cores)"},
    {"mode", 0, "MODE", "throughput (packed passes, default) or latency (one at a time)"},
    {"seconds", 0, "S", "measure for about S seconds (default 10)"},
    {"length", 0, "N", "inputs of exactly N tokens cut from the corpus"},
    {"pack", 0, "N", "throughput: tokens per packed forward pass (default 2048)"},
    {"limit", 0, "N", "use only the first N sentences of the corpus"},
    {"compare", 0, "REF", "fidelity: logits cosine and span agreement against REF"},
    {"min-cos", 0, "X", "with --compare: exit 1 when a token's cosine is below X"},
    {"min-spans", 0, "P", "with --compare: exit 1 when under P% of sentences agree"},
    {"ref-isa", 0, "NAME", "with --compare: run REF on this kernel path (noise floor)"},
    {"isa", 0, "NAME", "kernel path: scalar, avx2 or avx512 (default: best)"},
    {"act", 0, "A",
     "activations of int8/int4 weights: int16 (default), int8, or int16+8 (the experts "
     "add an int8 pass over the int16 rounding residue: near-f32 accuracy, ~1.7x their "
     "time)"},
    {"no-peak", 0, NULL, "skip the peak FMA/VNNI measurement"},
    {"json", 0, NULL, "print one JSON object"},
    {"help", 'h', NULL, "show this help and exit"},
};
#define NOPTS (sizeof opts / sizeof opts[0])
#define CMD "bench"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU time of the whole process (all threads): on a shared machine,
 * tokens per CPU-second shows what the code does when it gets the cores. */
static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- peak loops -------------------------------------------------------------- */

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

/* Operations per second of all pool threads together (best of 3). */
static double peak_rate(pii_rt_pool *pool, int kind)
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
        double t0 = now_s();
        pii_rt_pool_run(pool, peak_task, &c);
        double dt = now_s() - t0;
        if (dt > 0.05 || c.iters > (1L << 40)) {
            c.iters = (long)((double)c.iters * 0.15 / dt) + 1;
            break;
        }
        c.iters *= 4;
    }
    for (int r = 0; r < 3; r++) {
        double t0 = now_s();
        pii_rt_pool_run(pool, peak_task, &c);
        double dt = now_s() - t0;
        double ops = (double)c.iters * PEAK_CHAINS * lanes * 2 * pii_rt_pool_size(pool);
        if (ops / dt > best)
            best = ops / dt;
    }
    return best;
}

/* ---- corpus ---------------------------------------------------------------------- */

/* The default corpus: samples/sentences.txt in a source tree, else the copy
 * `make install` puts in PREFIX/share/pii-redact/, found from the running
 * command's own path (PREFIX/bin/pii-redact), so a DESTDIR or relocated
 * install finds it too. */
static const char *default_corpus(char *buf, size_t cap)
{
    static const char rel[] = "samples/sentences.txt";
    char exe[4096];
    if (access(rel, R_OK) == 0)
        return rel;
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash = n > 0 ? (exe[n] = 0, strrchr(exe, '/')) : NULL;
    if (slash) {
        *slash = 0;
        int k = snprintf(buf, cap, "%s/../share/pii-redact/sentences.txt", exe);
        if (k > 0 && (size_t)k < cap && access(buf, R_OK) == 0)
            return buf;
    }
    return rel;
}

typedef struct corpus {
    char *buf;
    const char **line;
    size_t *len;
    size_t n;
} corpus;

static int corpus_load(const char *path, size_t limit, corpus *c)
{
    memset(c, 0, sizeof *c);
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap + 1);
    while (b) {
        if (n == cap) {
            char *nb = cap < (1u << 30) ? realloc(b, cap * 2 + 1) : NULL;
            if (!nb) {
                free(b);
                b = NULL;
                break;
            }
            b = nb;
            cap *= 2;
        }
        size_t k = fread(b + n, 1, cap - n, f);
        if (!k)
            break;
        n += k;
    }
    fclose(f);
    if (!b)
        return -1;
    b[n] = 0;
    size_t nl = 0;
    for (size_t i = 0; i < n; i++)
        nl += b[i] == '\n';
    c->buf = b;
    c->line = malloc((nl + 1) * sizeof *c->line);
    c->len = malloc((nl + 1) * sizeof *c->len);
    if (!c->line || !c->len)
        return -1;
    for (size_t s = 0; s < n;) {
        size_t e = s;
        while (e < n && b[e] != '\n')
            e++;
        size_t l = e;
        if (l > s && b[l - 1] == '\r')
            l--;
        if (l > s && (!limit || c->n < limit)) {
            c->line[c->n] = b + s;
            c->len[c->n] = l - s;
            c->n++;
        }
        s = e + 1;
    }
    return 0;
}

static void corpus_free(corpus *c)
{
    free(c->buf);
    free(c->line);
    free(c->len);
}

/* ---- the runner ---------------------------------------------------------------------- */

typedef struct runner {
    const pii_model *m;
    pii_model_ws *ws;
    pii_tok_enc *enc;
    pii_ner_labels *L;
    pii_ner_viterbi *V;
    int32_t *ids, *labels;
    float *logits;
    pii_ner_tspan *spans;
    size_t cap; /* tokens */
    size_t C;
    int vocab;
    uint64_t nspans;
} runner;

static pii_err runner_init(runner *r, const pii_model *m, pii_rt_pool *pool, size_t cap)
{
    memset(r, 0, sizeof *r);
    r->m = m;
    const pii_model_config *c = pii_model_cfg(m);
    r->C = (size_t)c->n_labels;
    r->vocab = c->vocab_size;
    r->cap = cap;
    pii_err e = PII_OK;
    const char **names = malloc(r->C * sizeof *names);
    if (!names)
        return PII_ENOMEM;
    for (size_t i = 0; i < r->C; i++)
        names[i] = pii_model_label(m, (int)i);
    r->L = pii_ner_labels_create(names, r->C, &e, NULL, 0);
    free(names);
    if (!r->L)
        return e;
    if (!(r->V = pii_ner_viterbi_create(r->L, NULL, &e)))
        return e;
    if (!(r->ws = pii_model_ws_create(m, cap, pool, &e)))
        return e;
    r->enc = pii_tok_enc_create(pii_tok_o200k());
    r->ids = malloc(cap * sizeof *r->ids);
    r->labels = malloc(cap * sizeof *r->labels);
    r->logits = malloc(cap * r->C * sizeof *r->logits);
    r->spans = malloc(cap * sizeof *r->spans);
    if (!r->enc || !r->ids || !r->labels || !r->logits || !r->spans)
        return PII_ENOMEM;
    return PII_OK;
}

static void runner_free(runner *r)
{
    pii_model_ws_free(r->ws);
    pii_tok_enc_free(r->enc);
    pii_ner_viterbi_free(r->V);
    pii_ner_labels_free(r->L);
    free(r->ids);
    free(r->labels);
    free(r->logits);
    free(r->spans);
}

/* Token ids of a text (built-in o200k), folded into the model's vocabulary
 * (small test models have tiny vocabularies). */
static pii_err tokenize(runner *r, const char *text, size_t len, pii_tok_buf *tb)
{
    tb->n = 0;
    pii_err e = pii_tok_encode(r->enc, text, len, tb);
    if (e)
        return e;
    for (size_t i = 0; i < tb->n; i++)
        if (tb->ids[i] >= r->vocab)
            tb->ids[i] %= r->vocab;
    return PII_OK;
}

/* Decodes rows [t0, t0+n) of r->logits (in place to log-probs): Viterbi,
 * then token spans (counted, and returned in r->spans at t0). */
static size_t decode_doc(runner *r, size_t t0, size_t n)
{
    if (!n)
        return 0;
    float *lg = r->logits + t0 * r->C;
    pii_ner_log_softmax(lg, n, r->C, lg);
    pii_ner_viterbi_decode(r->V, lg, n, r->labels + t0);
    size_t ns = pii_ner_labels_to_spans(r->L, r->labels + t0, n, r->spans + t0);
    r->nspans += ns;
    return ns;
}

/* ---- statistics ----------------------------------------------------------------------- */

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double pct(const double *sorted, size_t n, double p)
{
    if (!n)
        return NAN;
    double k = p / 100.0 * (double)(n - 1);
    size_t i = (size_t)k;
    double f = k - (double)i;
    return i + 1 < n ? sorted[i] * (1 - f) + sorted[i + 1] * f : sorted[n - 1];
}

static double peak_rss_mb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0;
}

static const char *dtype_label(pii_dtype t)
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

static void json_num(const char *key, double v, int last)
{
    if (isfinite(v))
        printf("\"%s\":%.6g%s", key, v, last ? "" : ",");
    else
        printf("\"%s\":null%s", key, last ? "" : ",");
}

/* ---- fidelity ---------------------------------------------------------------------------- */

static double share_pct(size_t k, size_t n)
{
    return n ? 100.0 * (double)k / (double)n : 0;
}

typedef struct fid {
    double cos_min, cos_sum;
    size_t tokens, docs, same;
    size_t ge999, ge99; /* tokens with cosine >= 0.999, >= 0.99 */
} fid;

static int spans_equal(const pii_ner_tspan *a, size_t na, const pii_ner_tspan *b, size_t nb)
{
    if (na != nb)
        return 0;
    for (size_t i = 0; i < na; i++)
        if (a[i].cat != b[i].cat || a[i].tok_start != b[i].tok_start ||
            a[i].tok_end != b[i].tok_end)
            return 0;
    return 1;
}

/* ---- main -------------------------------------------------------------------------------------
 */

typedef struct bench_opts {
    const char *model, *corpus, *compare, *ref_isa;
    int threads, latency, json, peak;
    double seconds, min_cos, min_spans;
    size_t length, pack, limit;
} bench_opts;

static int parse(int argc, char **argv, bench_opts *o)
{
    const char *val;
    int i = 1, k;
    unsigned long long u;
    while ((k = mc_next(CMD, argc, argv, &i, opts, NOPTS, &val)) != MC_END) {
        if (k == MC_ERR)
            return PII_EXIT_USAGE;
        if (k == MC_POS) {
            fprintf(stderr, "pii-redact bench: unexpected argument '%s'\n", val);
            return PII_EXIT_USAGE;
        }
        const char *nm = opts[k].name;
        if (!strcmp(nm, "help")) {
            mc_usage(stdout,
                     "pii-redact bench [-m MODEL] [--corpus FILE] [--threads N] "
                     "[--mode MODE] [--seconds S] [--json]",
                     "Measures the encoder: sentences/s, tokens/s, effective GFLOP/s (model\n"
                     "FLOPs per token x tokens / time), latency percentiles per sentence in\n"
                     "latency mode, load time, peak RSS, and the machine's own f32 FMA and int8\n"
                     "VNNI peak on the same threads, before and after the run (pct_of_peak:\n"
                     "against the better of the two int8 peaks for int8/int4 weights, else of\n"
                     "the f32 peaks; contended: the two differ by over 10%, or a throughput\n"
                     "run got under 85% of its threads' CPU time).  Each pass covers tokenizing,\n"
                     "the forward pass, log-softmax, Viterbi and token spans.  --compare REF\n"
                     "reports logits cosine and Viterbi span agreement against a reference\n"
                     "model instead.  JSON keys: sentences_per_s tokens_per_s gflops p50_ms\n"
                     "p90_ms p99_ms load_s peak_rss_mb threads isa weights_dtype peak_gflops\n"
                     "peak_gops pct_of_peak peak_gflops_after peak_gops_after cpu_share\n"
                     "contended (and more).",
                     opts, NOPTS);
            return -1;
        }
        if (!strcmp(nm, "model"))
            o->model = val;
        else if (!strcmp(nm, "corpus"))
            o->corpus = val;
        else if (!strcmp(nm, "compare"))
            o->compare = val;
        else if (!strcmp(nm, "ref-isa")) {
            pii_rt_isa ri;
            if (pii_rt_isa_parse(val, &ri) || ri > pii_rt_isa_detect()) {
                fprintf(stderr, "pii-redact bench: --ref-isa: unknown or unsupported path\n");
                return PII_EXIT_USAGE;
            }
            o->ref_isa = val;
        } else if (!strcmp(nm, "json"))
            o->json = 1;
        else if (!strcmp(nm, "no-peak"))
            o->peak = 0;
        else if (!strcmp(nm, "mode")) {
            if (!strcmp(val, "latency"))
                o->latency = 1;
            else if (!strcmp(val, "throughput"))
                o->latency = 0;
            else {
                fprintf(stderr, "pii-redact bench: --mode: expected throughput or latency\n");
                return PII_EXIT_USAGE;
            }
        } else if (!strcmp(nm, "act")) {
            pii_rt_qact a;
            if (pii_rt_qact_parse(val, &a)) {
                fprintf(stderr, "pii-redact bench: --act: expected int16, int8 or int16+8\n");
                return PII_EXIT_USAGE;
            }
            mc_qact(a);
        } else if (!strcmp(nm, "isa")) {
            if (mc_isa(CMD, val))
                return PII_EXIT_USAGE;
        } else if (!strcmp(nm, "seconds") || !strcmp(nm, "min-cos") || !strcmp(nm, "min-spans")) {
            char *end;
            double d = strtod(val, &end);
            if (end == val || *end || !(d >= 0) || d > 1e6) {
                fprintf(stderr, "pii-redact bench: --%s: expected a number, got '%s'\n", nm, val);
                return PII_EXIT_USAGE;
            }
            if (nm[0] == 's')
                o->seconds = d;
            else if (!strcmp(nm, "min-cos"))
                o->min_cos = d;
            else
                o->min_spans = d;
        } else {
            if (mc_uint(CMD, nm, val, 1u << 24, &u))
                return PII_EXIT_USAGE;
            if (!strcmp(nm, "threads"))
                o->threads = (int)(u > 1024 ? 1024 : u);
            else if (!strcmp(nm, "length"))
                o->length = (size_t)u;
            else if (!strcmp(nm, "pack"))
                o->pack = (size_t)u;
            else if (!strcmp(nm, "limit"))
                o->limit = (size_t)u;
        }
    }
    return 0;
}

/* A unit of work: documents [d0, d1) of the input list. */
typedef struct input {
    /* text documents (corpus lines) or pre-tokenized chunks (--length) */
    const corpus *cp;
    int32_t *chunk_ids; /* --length: nchunks * length ids */
    size_t length, ndocs;
} input;

/* Fills r->ids with documents [d0, d1); lens[] gets their lengths.
 * Returns the total or (size_t)-1 on a tokenizer error. */
static size_t fill(runner *r, const input *in, size_t d0, size_t d1, size_t *lens, pii_tok_buf *tb)
{
    size_t t = 0;
    for (size_t d = d0; d < d1; d++) {
        size_t n;
        if (in->chunk_ids) {
            n = in->length;
            memcpy(r->ids + t, in->chunk_ids + d * n, n * sizeof *r->ids);
        } else {
            if (tokenize(r, in->cp->line[d], in->cp->len[d], tb))
                return (size_t)-1;
            n = tb->n < r->cap - t ? tb->n : r->cap - t; /* passes were planned to fit */
            memcpy(r->ids + t, tb->ids, n * sizeof *r->ids);
        }
        lens[d - d0] = n;
        t += n;
    }
    return t;
}

int pii_cmd_bench(int argc, char **argv)
{
    char corpus_path[4200];
    bench_opts o = {.seconds = 10, .peak = 1, .pack = 2048};
    int st = parse(argc, argv, &o);
    if (st)
        return st < 0 ? PII_EXIT_OK : st;
    if (!o.corpus)
        o.corpus = default_corpus(corpus_path, sizeof corpus_path);
    const char *dm_cfg;
    const void *dm_st;
    size_t dm_cl, dm_sl;
    if (!o.model && !pii_default_model_image(&dm_cfg, &dm_cl, &dm_st, &dm_sl)) {
        fprintf(stderr, "pii-redact bench: no default model is built in; pass -m MODEL\n");
        return PII_EXIT_USAGE;
    }
    corpus cp;
    if (corpus_load(o.corpus, o.limit, &cp) || cp.n == 0) {
        fprintf(stderr, "pii-redact bench: %s: cannot read sentences\n", o.corpus);
        corpus_free(&cp);
        return PII_EXIT_IO;
    }
    pii_err e = PII_OK;
    int status = PII_EXIT_OK;
    pii_rt_pool *pool = NULL;
    pii_model *m = NULL, *ref = NULL;
    runner r, rr;
    memset(&r, 0, sizeof r);
    memset(&rr, 0, sizeof rr);
    pii_tok_buf tb = PII_TOK_BUF_INIT;
    input in = {&cp, NULL, 0, cp.n};
    size_t *lens = NULL, *pass_d0 = NULL;
    double *lat = NULL;
    if (o.threads != 1 && !(pool = pii_rt_pool_create(o.threads, &e))) {
        status = PII_EXIT_FAIL;
        goto out;
    }
    const int nth = pii_rt_pool_size(pool);
    double peak_f = 0, peak_i = 0;
    if (o.peak && !o.compare) {
        peak_f = peak_rate(pool, 0);
        peak_i = peak_rate(pool, 1);
    }
    double t_load = now_s();
    if (o.model) {
        if (!(m = mc_load(CMD, o.model, 0, &status)))
            goto out;
    } else {
        char msg[512];
        pii_model_params mp;
        mc_params(&mp);
        if (!(m = pii_default_model_load(&mp, &e, msg, sizeof msg))) {
            fprintf(stderr, "pii-redact bench: default model: %s\n",
                    msg[0] ? msg : pii_strerror(e));
            status = PII_EXIT_MODEL;
            goto out;
        }
        o.model = "(default, built in)";
    }
    t_load = now_s() - t_load;
    if (o.compare) { /* the reference runs on --ref-isa (default: the same path) */
        int keep = mc_isa_choice();
        if (o.ref_isa)
            mc_isa(CMD, o.ref_isa);
        ref = mc_load(CMD, o.compare, 0, &status);
        mc_isa_choice_set(keep);
        if (!ref)
            goto out;
    }

    /* tokenize once: lengths for planning, and the --length chunks */
    pii_tok_enc *enc0 = pii_tok_enc_create(pii_tok_o200k());
    size_t *toklen = malloc(cp.n * sizeof *toklen);
    size_t total_tok = 0, maxlen = 1;
    if (!enc0 || !toklen) {
        pii_tok_enc_free(enc0);
        free(toklen);
        status = PII_EXIT_FAIL;
        goto out;
    }
    for (size_t d = 0; d < cp.n; d++) {
        tb.n = 0;
        if ((e = pii_tok_encode(enc0, cp.line[d], cp.len[d], &tb)))
            break;
        toklen[d] = tb.n;
        total_tok += tb.n;
        maxlen = tb.n > maxlen ? tb.n : maxlen;
    }
    if (!e && o.length) {
        size_t nch = total_tok / o.length;
        if (nch == 0) {
            fprintf(stderr, "pii-redact bench: the corpus has fewer than %zu tokens\n", o.length);
            e = PII_EINVAL;
        } else if (!(in.chunk_ids = malloc(nch * o.length * sizeof(int32_t)))) {
            e = PII_ENOMEM;
        } else {
            size_t t = 0;
            int vocab = pii_model_cfg(m)->vocab_size;
            for (size_t d = 0; d < cp.n && t < nch * o.length && !e; d++) {
                tb.n = 0;
                e = pii_tok_encode(enc0, cp.line[d], cp.len[d], &tb);
                for (size_t j = 0; j < tb.n && t < nch * o.length; j++)
                    in.chunk_ids[t++] = tb.ids[j] % vocab;
            }
            in.length = o.length;
            in.ndocs = nch;
            maxlen = o.length;
        }
    }
    pii_tok_enc_free(enc0);
    if (e) {
        free(toklen);
        if (status == PII_EXIT_OK)
            status = pii_exit_for(e);
        goto out;
    }

    /* passes: consecutive documents up to `pack` tokens (latency: one each) */
    size_t pack = o.latency ? maxlen : (o.pack > maxlen ? o.pack : maxlen);
    size_t npass = 0;
    pass_d0 = malloc((in.ndocs + 1) * sizeof *pass_d0);
    lens = malloc((in.ndocs + 1) * sizeof *lens);
    if (!pass_d0 || !lens) {
        free(toklen);
        status = PII_EXIT_FAIL;
        goto out;
    }
    for (size_t d = 0, acc = 0; d < in.ndocs; d++) {
        size_t n = in.chunk_ids ? in.length : toklen[d];
        if (npass == 0 || o.latency || acc + n > pack) {
            pass_d0[npass++] = d;
            acc = 0;
        }
        acc += n;
    }
    pass_d0[npass] = in.ndocs;
    free(toklen);
    /* warm-up size: enough tokens to touch every expert */
    size_t warm = pack > 2048 ? pack : 2048;
    if (warm > total_tok && !in.chunk_ids)
        warm = total_tok > maxlen ? total_tok : maxlen;
    if ((e = runner_init(&r, m, pool, warm)) || (ref && (e = runner_init(&rr, ref, pool, warm)))) {
        fprintf(stderr, "pii-redact bench: %s\n", pii_strerror(e));
        status = pii_exit_for(e);
        goto out;
    }

    if (o.compare) {
        /* fidelity: every document once, packed; cosine per token and
         * identical span lists per document */
        fid f = {.cos_min = 1};
        const size_t C = r.C;
        if (rr.C != C) {
            fprintf(stderr, "pii-redact bench: the models have different label counts\n");
            status = PII_EXIT_USAGE;
            goto out;
        }
        for (size_t p = 0; p < npass; p++) {
            size_t d0 = pass_d0[p], d1 = pass_d0[p + 1];
            size_t n = fill(&r, &in, d0, d1, lens, &tb);
            if (n == (size_t)-1 ||
                (e = pii_model_forward(m, r.ws, r.ids, n, lens, d1 - d0, r.logits, NULL)))
                break;
            memcpy(rr.ids, r.ids, n * sizeof *r.ids);
            e = pii_model_forward(ref, rr.ws, rr.ids, n, lens, d1 - d0, rr.logits, NULL);
            if (e)
                break;
            for (size_t t = 0; t < n; t++) {
                const float *a = r.logits + t * C, *b = rr.logits + t * C;
                double ab = 0, aa = 0, bb = 0;
                for (size_t c = 0; c < C; c++) {
                    ab += (double)a[c] * b[c];
                    aa += (double)a[c] * a[c];
                    bb += (double)b[c] * b[c];
                }
                double cs = aa > 0 && bb > 0 ? ab / sqrt(aa * bb) : (aa == bb ? 1 : 0);
                f.cos_min = cs < f.cos_min ? cs : f.cos_min;
                f.cos_sum += cs;
                f.ge999 += cs >= 0.999;
                f.ge99 += cs >= 0.99;
                f.tokens++;
            }
            for (size_t d = d0, t = 0; d < d1; t += lens[d - d0], d++) {
                size_t na = decode_doc(&r, t, lens[d - d0]);
                size_t nb = decode_doc(&rr, t, lens[d - d0]);
                f.same += spans_equal(r.spans + t, na, rr.spans + t, nb);
                f.docs++;
            }
        }
        if (e) {
            fprintf(stderr, "pii-redact bench: forward pass: %s\n", pii_strerror(e));
            status = pii_exit_for(e);
            goto out;
        }
        double same_pct = f.docs ? 100.0 * (double)f.same / (double)f.docs : 0;
        double cmean = f.tokens ? f.cos_sum / (double)f.tokens : 0;
        if (o.json) {
            printf("{");
            json_num("cos_min", f.cos_min, 0);
            json_num("cos_mean", cmean, 0);
            json_num("tokens_cos_ge_0999_pct", share_pct(f.ge999, f.tokens), 0);
            json_num("tokens_cos_ge_099_pct", share_pct(f.ge99, f.tokens), 0);
            json_num("spans_identical_pct", same_pct, 0);
            json_num("sentences", (double)f.docs, 0);
            json_num("tokens", (double)f.tokens, 0);
            printf("\"weights_dtype\":\"%s\",\"ref_dtype\":\"%s\",\"act\":\"%s\"}\n",
                   dtype_label(pii_model_expert_dtype(m)), dtype_label(pii_model_expert_dtype(ref)),
                   pii_rt_qact_name(pii_model_plan(m)->qact));
        } else {
            printf("fidelity:    %s (%s) against %s (%s)\n", o.model,
                   dtype_label(pii_model_expert_dtype(m)), o.compare,
                   dtype_label(pii_model_expert_dtype(ref)));
            printf("sentences:   %zu (%zu tokens)\n", f.docs, f.tokens);
            printf("cosine:      min %.6f, mean %.6f; tokens >= 0.999: %.3f%%, >= 0.99: %.3f%%\n",
                   f.cos_min, cmean, share_pct(f.ge999, f.tokens), share_pct(f.ge99, f.tokens));
            printf("spans:       identical on %.2f%% of sentences\n", same_pct);
        }
        if ((o.min_cos > 0 && f.cos_min < o.min_cos) ||
            (o.min_spans > 0 && same_pct < o.min_spans)) {
            fprintf(stderr,
                    "pii-redact bench: fidelity below the gate (cos_min %.6f < %g or "
                    "spans %.2f%% < %g%%)\n",
                    f.cos_min, o.min_cos, same_pct, o.min_spans);
            status = 1;
        }
        goto out;
    }

    /* warm-up: one pass over the first `warm` tokens, documents packed */
    double t_first = now_s();
    {
        size_t d1 = 0, n = 0;
        while (d1 < in.ndocs &&
               n + (in.chunk_ids ? in.length : (size_t)1) <= warm) { /* plan by real lengths */
            size_t l = in.chunk_ids ? in.length : 0;
            if (!in.chunk_ids) {
                tokenize(&r, cp.line[d1], cp.len[d1], &tb);
                l = tb.n;
            }
            if (n + l > warm)
                break;
            n += l;
            d1++;
        }
        if (d1 == 0)
            d1 = 1;
        n = fill(&r, &in, 0, d1, lens, &tb);
        if (n == (size_t)-1 ||
            (e = pii_model_forward(m, r.ws, r.ids, n, lens, d1, r.logits, NULL))) {
            fprintf(stderr, "pii-redact bench: forward pass: %s\n",
                    pii_strerror(e ? e : PII_ETOKENIZER));
            status = PII_EXIT_MODEL;
            goto out;
        }
    }
    t_first = now_s() - t_first + t_load;

    /* the timed loop */
    size_t latcap = 1024, nlat = 0;
    lat = malloc(latcap * sizeof *lat);
    if (!lat) {
        status = PII_EXIT_FAIL;
        goto out;
    }
    uint64_t docs = 0, toks = 0, passes = 0;
    double flops = 0;
    const double t0 = now_s(), c0 = cpu_s();
    double el = 0;
    for (size_t p = 0;; p = (p + 1) % npass) {
        double ta = now_s();
        size_t d0 = pass_d0[p], d1 = pass_d0[p + 1];
        size_t n = fill(&r, &in, d0, d1, lens, &tb);
        if (n == (size_t)-1) {
            e = PII_ETOKENIZER;
            break;
        }
        if ((e = pii_model_forward(m, r.ws, r.ids, n, lens, d1 - d0, r.logits, NULL)))
            break;
        for (size_t d = d0, t = 0; d < d1; t += lens[d - d0], d++) {
            decode_doc(&r, t, lens[d - d0]);
            flops += (double)lens[d - d0] * pii_model_flops_per_token(m, lens[d - d0]);
        }
        double tb_ = now_s();
        if (o.latency) {
            if (nlat == latcap) {
                double *nl = realloc(lat, 2 * latcap * sizeof *lat);
                if (!nl) {
                    e = PII_ENOMEM;
                    break;
                }
                lat = nl;
                latcap *= 2;
            }
            lat[nlat++] = (tb_ - ta) * 1e3;
        }
        docs += d1 - d0;
        toks += n;
        passes++;
        el = tb_ - t0;
        if (el >= o.seconds)
            break;
    }
    if (e) {
        fprintf(stderr, "pii-redact bench: forward pass: %s\n", pii_strerror(e));
        status = pii_exit_for(e);
        goto out;
    }
    const double cpu = cpu_s() - c0;
    /* The peak again right after the run: a process that took a core
     * during the run shows as a disagreement between the two (or as a CPU
     * share under the threads' worth).  The share of peak is taken against
     * the better of the two, and the run is flagged as contended. */
    double peak_f2 = 0, peak_i2 = 0;
    if (o.peak && !o.compare) {
        peak_f2 = peak_rate(pool, 0);
        peak_i2 = peak_rate(pool, 1);
    }
    const double cpu_share = el > 0 ? cpu / (el * nth) : NAN;
    qsort(lat, nlat, sizeof *lat, cmp_d);
    double p50 = o.latency ? pct(lat, nlat, 50) : NAN, p90 = o.latency ? pct(lat, nlat, 90) : NAN,
           p99 = o.latency ? pct(lat, nlat, 99) : NAN;
    double gfl = flops / el / 1e9;
    pii_dtype wdt = pii_model_expert_dtype(m);
    int qint = wdt == PII_DT_Q8_ROW || wdt == PII_DT_Q4_G32;
    double pk1 = qint ? peak_i : peak_f, pk2 = qint ? peak_i2 : peak_f2;
    double ref_peak = pk1 > pk2 ? pk1 : pk2;
    double pctp = ref_peak > 0 ? 100.0 * flops / el / ref_peak : NAN;
    double pk_lo = pk1 < pk2 ? pk1 : pk2;
    int peak_disagree = ref_peak > 0 && pk_lo < 0.9 * ref_peak;
    int cpu_short = !o.latency && cpu_share < 0.85;
    int contended = peak_disagree || cpu_short;
    char isa[32];
    snprintf(isa, sizeof isa, "%s%s", pii_rt_isa_name(pii_model_plan(m)->isa),
             qint && pii_model_plan(m)->vnni ? "+vnni" : "");
    double rss = peak_rss_mb();
    if (o.json) {
        printf("{");
        json_num("sentences_per_s", (double)docs / el, 0);
        json_num("tokens_per_s", (double)toks / el, 0);
        json_num("gflops", gfl, 0);
        json_num("p50_ms", p50, 0);
        json_num("p90_ms", p90, 0);
        json_num("p99_ms", p99, 0);
        json_num("load_s", t_load, 0);
        json_num("first_s", t_first, 0);
        json_num("peak_rss_mb", rss, 0);
        json_num("threads", nth, 0);
        printf("\"isa\":\"%s\",\"weights_dtype\":\"%s\",", isa, dtype_label(wdt));
        json_num("peak_gflops", peak_f / 1e9, 0);
        json_num("peak_gops", peak_i / 1e9, 0);
        json_num("pct_of_peak", pctp, 0);
        json_num("peak_gflops_after", peak_f2 / 1e9, 0);
        json_num("peak_gops_after", peak_i2 / 1e9, 0);
        json_num("cpu_share", cpu_share, 0);
        printf("\"contended\":%s,", contended ? "true" : "false");
        printf("\"mode\":\"%s\",\"act\":\"%s\",", o.latency ? "latency" : "throughput",
               qint ? pii_rt_qact_name(pii_model_plan(m)->qact) : "f32");
        json_num("length", (double)o.length, 0);
        json_num("pack", (double)(o.latency ? 0 : pack), 0);
        json_num("sentences", (double)docs, 0);
        json_num("tokens", (double)toks, 0);
        json_num("passes", (double)passes, 0);
        json_num("seconds", el, 0);
        json_num("cpu_s", cpu, 0);
        json_num("mean_tokens", docs ? (double)toks / (double)docs : 0, 0);
        json_num("spans", (double)r.nspans, 1);
        printf("}\n");
    } else {
        printf("model:        %s (%s weights)\n", o.model, dtype_label(wdt));
        printf("mode:         %s%s", o.latency ? "latency (one input per pass)" : "throughput",
               o.latency ? "" : " (packed passes)");
        if (!o.latency)
            printf(", up to %zu tokens per pass", pack);
        printf("\n");
        if (o.length)
            printf("inputs:       %zu tokens each (cut from %s)\n", o.length, o.corpus);
        else
            printf("inputs:       %s, %zu sentences\n", o.corpus, cp.n);
        printf("threads:      %d, isa %s%s%s\n", nth, isa, qint ? ", activations " : "",
               qint ? pii_rt_qact_name(pii_model_plan(m)->qact) : "");
        printf("measured:     %llu inputs, %llu tokens, %llu passes in %.2f s\n",
               (unsigned long long)docs, (unsigned long long)toks, (unsigned long long)passes, el);
        printf("throughput:   %.1f inputs/s, %.0f tokens/s (%.0f tokens per CPU-second)\n",
               (double)docs / el, (double)toks / el, (double)toks / cpu);
        printf("compute:      %.1f GFLOP/s effective", gfl);
        if (ref_peak > 0)
            printf(" = %.1f%% of the %s peak", pctp, qint ? "int8 VNNI" : "f32 FMA");
        printf("\n");
        if (o.latency)
            printf("latency:      p50 %.2f ms, p90 %.2f ms, p99 %.2f ms\n", p50, p90, p99);
        if (peak_f > 0 || peak_i > 0)
            printf("peak:         %.1f GFLOP/s f32 FMA, %.1f GOPS int8 VNNI (%d threads) before "
                   "the run; %.1f and %.1f after\n",
                   peak_f / 1e9, peak_i / 1e9, nth, peak_f2 / 1e9, peak_i2 / 1e9);
        printf("cpu share:    %.0f%% of %d threads x wall time\n", 100.0 * cpu_share, nth);
        if (contended)
            printf("contended:    yes: %s%s%s; the share of peak and the rates understate "
                   "this machine\n",
                   peak_disagree ? "the peak before and after the run differ by over 10%" : "",
                   peak_disagree && cpu_short ? ", and " : "",
                   cpu_short ? "the run got under 85% of its threads' CPU time" : "");
        printf("load:         %.3f s (first logits after %.3f s)\n", t_load, t_first);
        printf("peak RSS:     %.0f MB\n", rss);
    }
out:
    runner_free(&r);
    runner_free(&rr);
    pii_tok_buf_free(&tb);
    pii_model_free(m);
    pii_model_free(ref);
    pii_rt_pool_free(pool);
    free(in.chunk_ids);
    free(lens);
    free(pass_d0);
    free(lat);
    corpus_free(&cp);
    return status;
}
