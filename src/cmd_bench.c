/* cmd_bench.c — `pii-redact bench`: the speed of the engine users run, the
 * machine's own peak measured in the same run, and quantization fidelity.
 *
 * Design (issue 20: bench measures exactly what users run).  The timed
 * modes build the redactor the command builds (pii_pipeline_build, the
 * same options: the model detector and, unless --model-only, the rule
 * tier) and feed it through a pii_stream, as the command does:
 *   throughput  one round = `pii-redact --lines CORPUS` without the model
 *               load: the corpus bytes in 64 KiB reads, each read's
 *               complete lines put as documents (PII_STREAM_END_DOC) and
 *               the read ended with a flush (src/main.c run_fd), so the
 *               model detector packs the queued lines into shared forward
 *               passes of up to --pack tokens per thread (the engine's
 *               pack_tokens; default: 4096).
 *   latency     one line per document, put and flushed (one forward pass
 *               for a sentence), each timed from put to written.
 *   document    one round = `pii-redact CORPUS` without the load: the
 *               corpus bytes (its first --limit lines) as one document in
 *               64 KiB reads, each put with a flush, ended at the end; the
 *               engine cuts it into exact windows and spreads them over the
 *               threads.  Whole rounds only (--seconds stops between
 *               rounds); the warm-up is a document of the corpus's first
 *               lines (WARM_BYTES), or with --output the whole corpus.
 * Every round has a fresh stream (the model detector's cache of identical
 * short documents lives in a stream: a second round in the same stream
 * would be answered from it), created and freed inside the timed region.
 * The redacted text goes to a sink that counts bytes, spans and documents
 * (--output FILE also keeps the text of the untimed warm-up round, which
 * then covers the whole corpus: it equals `pii-redact --lines CORPUS`).
 * Tokens are the engine tokenizer's tokens of each document as put (the
 * line with its '\n'), counted once before the timed region; a document
 * counts when the sink has seen its end.  GFLOP/s = the model's FLOPs per
 * token at each document's length x tokens / time.
 *   --length N  inputs of N tokens: the corpus lines joined by spaces and
 *               tokenized, cut every N tokens, and each cut's bytes made a
 *               line of its own, fed as above; the engine may tokenize a
 *               cut differently at its edges and the newline adds a token,
 *               so mean_tokens reports the real length.
 *   --compare REF  fidelity (bench_compare.c): logits cosine on the
 *               encoder (pii_model_forward), span agreement through the
 *               engine's detector (pii_ner_detect_batch).
 * There is no decoding here: Viterbi, spans and operators are the engine's.
 *
 * Peak (bench_peak.c): a register-only loop on every pool thread, before
 * and after the run; the two disagreeing by over 10%, or a throughput run
 * getting under 85% of its threads' CPU time, marks the run contended.
 *
 * Timings start after the warm-up round (all experts' pages mapped), so
 * they are steady-state figures; load_s is the pipeline build (model load,
 * rule compile) alone and first_s load plus the warm-up. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bench.h"
#include "cli.h"
#include "drive.h"
#include "model_cli.h"
#include "opts.h"
#include "pii_default_model.h"
#include "pii_ner.h"
#include "pii_file.h"
#include "pii_redact.h"
#include "pii_tok.h"
#include "pipeline.h"

#define WARM_TOKENS 2048         /* warm-up: enough tokens to touch every expert */
#define WARM_BYTES (16u * 1024u) /* --mode document: the warm-up document's size */

static const mc_opt opts[] = {
    {"model", 'm', "PATH", "model directory, .safetensors, index .json or .gguf"},
    {"corpus", 0, "FILE",
     "one sentence per line (default samples/sentences.txt, else the installed "
     "share/pii-redact/sentences.txt)"},
    {"threads", 't', "N", "worker threads (default: all cores)"},
    {"mode", 0, "MODE",
     "throughput (lines queued and flushed as --lines does, default), document (the "
     "corpus as one input, as pii-redact FILE reads it) or latency (one "
     "line per flush, each timed)"},
    {"seconds", 0, "S",
     "measure for about S seconds (default 10): no line is put after S, and what is "
     "queued then is flushed and counted"},
    {"rounds", 0, "N", "measure exactly N rounds over the corpus instead of --seconds"},
    {"length", 0, "N", "inputs of N tokens cut from the corpus (one a line)"},
    {"pack", 0, "N",
     "tokens per packed forward pass and thread (the engine's pack_tokens; default: "
     "4096)"},
    {"limit", 0, "N", "use only the first N lines of the corpus"},
    {"model-only", 0, NULL, "time the model detector alone (default: model and rule tier)"},
    {"output", 'o', "FILE", "write the redacted text of one whole round to FILE"},
    {"compare", 0, "REF", "fidelity: logits cosine and span agreement against REF"},
    {"min-cos", 0, "X", "with --compare: exit 1 when a token's cosine is below X"},
    {"min-spans", 0, "P", "with --compare: exit 1 when under P% of sentences agree"},
    {"ref-isa", 0, "NAME", "with --compare: run REF on this kernel path (noise floor)"},
    {"isa", 0, "NAME", "kernel path: scalar, avx2 or avx512 (default: best)"},
    {"act", 0, "A",
     "activations of int8/int4 weights: int16 (default), int8, or int16+8 (the experts "
     "add an int8 pass over the int16 rounding residue: near-f32 accuracy, ~1.7x their "
     "time)"},
    {"attn", 0, "A", "attention of int8 models: auto (default: int16 with VNNI), int16 or f32"},
    {"no-peak", 0, NULL, "skip the peak FMA/VNNI measurement"},
    {"json", 0, NULL, "print one JSON object"},
    {"help", 'h', NULL, "show this help and exit"},
};
#define NOPTS (sizeof opts / sizeof opts[0])
#define CMD "bench"

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

/* 0, or the errno value of what failed (ENOMEM when memory ran out). */
static int corpus_load(const char *path, size_t limit, bench_corpus *c)
{
    memset(c, 0, sizeof *c);
    FILE *f = fopen(path, "rb");
    if (!f)
        return errno ? errno : EIO;
    char *b;
    size_t n;
    pii_err re = pii_file_read_all(f, (size_t)1 << 30, &b, &n); /* under 1 GiB */
    int err = errno;
    fclose(f);
    if (re)
        return re == PII_EIO ? (err ? err : EIO) : ENOMEM;
    c->buf = b;
    size_t nl = 0;
    for (size_t i = 0; i < n; i++)
        nl += b[i] == '\n';
    if (!(c->start = malloc((nl + 2) * sizeof *c->start)))
        return ENOMEM;
    /* lines as --lines splits them: up to and with each '\n', then the rest */
    size_t s = 0;
    while (s < n && (!limit || c->n < limit)) {
        const char *e = memchr(b + s, '\n', n - s);
        c->start[c->n++] = s;
        s = e ? (size_t)(e - b) + 1 : n;
    }
    c->start[c->n] = s;
    c->len = s;
    return 0;
}

static void corpus_free(bench_corpus *c)
{
    free(c->buf);
    free(c->start);
}

void bench_corpus_text(const bench_corpus *c, size_t i, const char **text, size_t *len)
{
    size_t s = c->start[i], e = c->start[i + 1];
    if (e > s && c->buf[e - 1] == '\n')
        e--;
    if (e > s && c->buf[e - 1] == '\r')
        e--;
    *text = c->buf + s;
    *len = e - s;
}

/* ---- what the engine is fed ---------------------------------------------------------- */

/* Documents back to back, each a line with its '\n' (the last may have
 * none): document i is buf[start[i], start[i+1]). */
typedef struct feed {
    const uint8_t *buf;
    const size_t *start; /* [ndocs + 1] */
    size_t ndocs;
    size_t *tok;      /* [ndocs] the engine tokenizer's tokens of each document */
    double *flops;    /* [ndocs] the model's FLOPs for it                       */
    uint64_t tokens;  /* all documents' */
    uint8_t *own_buf; /* --length: the cuts (else NULL, buf is the corpus's) */
    size_t *own_start;
} feed;

static void feed_free(feed *f)
{
    free(f->tok);
    free(f->flops);
    free(f->own_buf);
    free(f->own_start);
}

/* --length N: the corpus lines joined by spaces, tokenized, cut every n
 * tokens; each cut's bytes and a '\n' make one document. */
static pii_err feed_cut(feed *f, const bench_corpus *c, pii_tok_enc *enc, size_t n)
{
    pii_err e = PII_OK;
    pii_tok_buf tb = PII_TOK_BUF_INIT;
    uint8_t *text = malloc(c->len + 1);
    size_t tl = 0;
    if (!text)
        return PII_ENOMEM;
    for (size_t i = 0; i < c->n; i++) {
        const char *t;
        size_t l;
        bench_corpus_text(c, i, &t, &l);
        if (!l)
            continue;
        if (tl)
            text[tl++] = ' ';
        memcpy(text + tl, t, l);
        tl += l;
    }
    if ((e = pii_tok_encode(enc, text, tl, &tb)))
        goto out;
    size_t nch = tb.n / n;
    if (nch == 0) {
        fprintf(stderr, "pii-redact bench: the corpus has fewer than %zu tokens\n", n);
        e = PII_EINVAL;
        goto out;
    }
    if (!(f->own_buf = malloc(tl + nch)) || !(f->own_start = malloc((nch + 1) * sizeof(size_t)))) {
        e = PII_ENOMEM;
        goto out;
    }
    size_t o = 0;
    for (size_t k = 0; k < nch; k++) {
        size_t b0 = tb.offs[k * n].start, b1 = tb.offs[k * n + n - 1].end;
        f->own_start[k] = o;
        memcpy(f->own_buf + o, text + b0, b1 - b0);
        o += b1 - b0;
        f->own_buf[o++] = '\n';
    }
    f->own_start[nch] = o;
    f->buf = f->own_buf;
    f->start = f->own_start;
    f->ndocs = nch;
out:
    pii_tok_buf_free(&tb);
    free(text);
    return e;
}

/* Tokens and FLOPs of each document, with the engine's tokenizer. */
static pii_err feed_count(feed *f, pii_tok_enc *enc, const pii_model *m)
{
    pii_tok_buf tb = PII_TOK_BUF_INIT;
    pii_err e = PII_OK;
    f->tok = malloc((f->ndocs + 1) * sizeof *f->tok);
    f->flops = malloc((f->ndocs + 1) * sizeof *f->flops);
    if (!f->tok || !f->flops)
        return PII_ENOMEM;
    for (size_t d = 0; d < f->ndocs && !e; d++) {
        tb.n = 0;
        e = pii_tok_encode(enc, f->buf + f->start[d], f->start[d + 1] - f->start[d], &tb);
        f->tok[d] = tb.n;
        f->flops[d] = (double)tb.n * pii_model_flops_per_token(m, tb.n);
        f->tokens += tb.n;
    }
    pii_tok_buf_free(&tb);
    return e;
}

/* ---- the sink: counts what the engine writes ---------------------------------------- */

typedef struct tally {
    const feed *in;
    size_t next; /* the round's next document to end */
    uint64_t bytes, spans, docs, tokens;
    double flops;
    FILE *out; /* --output, warm-up round only */
} tally;

static pii_err t_write(void *ud, const uint8_t *p, size_t n)
{
    tally *t = ud;
    t->bytes += n;
    if (t->out && fwrite(p, 1, n, t->out) != n)
        return PII_EWRITE;
    return PII_OK;
}

static pii_err t_span(void *ud, const pii_span *s, const uint8_t *value, size_t len,
                      uint64_t cp_start, uint64_t cp_end)
{
    (void)s;
    (void)value;
    (void)len;
    (void)cp_start;
    (void)cp_end;
    ((tally *)ud)->spans++;
    return PII_OK;
}

static pii_err t_end_doc(void *ud)
{
    tally *t = ud;
    if (t->next < t->in->ndocs) {
        t->tokens += t->in->tok[t->next];
        t->flops += t->in->flops[t->next];
    }
    t->next++;
    t->docs++;
    return PII_OK;
}

/* ---- rounds ---------------------------------------------------------------------------- */

/* The command's driver (drive.h) hooks of a timed round: every block ends
 * with a flush (counted); with a deadline, a line is begun only before it
 * (what is queued then is flushed and counted). */
typedef struct round_ctl {
    double deadline;
    uint64_t *flushes;
} round_ctl;

static int past_deadline(void *ud, uint64_t at)
{
    (void)at;
    return bench_now_s() >= ((const round_ctl *)ud)->deadline;
}

static void count_flush(void *ud, const uint8_t *p, size_t n)
{
    (void)p;
    (void)n;
    ++*((round_ctl *)ud)->flushes;
}

/* The bytes buf[from, to) as `pii-redact --lines FILE` puts them: PII_DRIVE_BLOCK
 * blocks through the command's driver (drive.h, as src/main.c run_fd reads
 * a file), each block's complete lines put as documents and the block
 * ended with a flush, an unfinished last line ended at the end.  No line
 * is begun at or past `deadline` (what was put is then flushed).  Without
 * `lines`, as `pii-redact FILE` puts them: one document, never stopped.
 * Returns 1 when it stopped early, 0 at the end, -1 on an error (*err). */
static int round_file(pii_stream *st, const uint8_t *buf, size_t from, size_t to, int lines,
                      double deadline, uint64_t *flushes, pii_err *err)
{
    round_ctl ctl = {deadline, flushes};
    pii_drive d = {.st = st,
                   .lines = lines,
                   .flush = 1,
                   .doc = lines ? past_deadline : NULL,
                   .block = count_flush,
                   .ud = &ctl};
    pii_err e = PII_OK;
    pii_drive_begin(&d);
    for (size_t off = from; off < to && !e && !d.stopped; off += PII_DRIVE_BLOCK)
        e = pii_drive_put(&d, buf + off, to - off < PII_DRIVE_BLOCK ? to - off : PII_DRIVE_BLOCK);
    if (!e && !d.stopped)
        e = pii_drive_end(&d);
    if (e) {
        *err = e;
        return -1;
    }
    return d.stopped;
}

typedef struct lat_log {
    double *ms;
    size_t n, cap;
} lat_log;

/* One document per flush, each timed from its put to its last byte
 * written: each line is one block of the command's driver (drive.h), as
 * `pii-redact --lines` puts a line that arrives alone on a pipe.  Returns
 * as round_file. */
static int round_latency(pii_stream *st, const feed *f, double deadline, lat_log *lg,
                         uint64_t *flushes, pii_err *err)
{
    pii_drive d = {.st = st, .lines = 1, .flush = 1};
    pii_drive_begin(&d);
    for (size_t d0 = 0; d0 < f->ndocs; d0++) {
        const uint8_t *p = f->buf + f->start[d0];
        size_t n = f->start[d0 + 1] - f->start[d0];
        if (lg->n == lg->cap) {
            size_t nc = lg->cap ? 2 * lg->cap : 1024;
            double *nm = realloc(lg->ms, nc * sizeof *nm);
            if (!nm) {
                *err = PII_ENOMEM;
                return -1;
            }
            lg->ms = nm;
            lg->cap = nc;
        }
        double ta = bench_now_s();
        pii_err e = pii_drive_put(&d, p, n);
        if (!e && d0 + 1 == f->ndocs) /* a last line without '\n' */
            e = pii_drive_end(&d);
        if (e) {
            *err = e;
            return -1;
        }
        double tb = bench_now_s();
        ++*flushes;
        lg->ms[lg->n++] = (tb - ta) * 1e3;
        if (tb >= deadline)
            return 1;
    }
    return 0;
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

/* ---- options ---------------------------------------------------------------------------- */

typedef struct bench_opts {
    const char *model, *corpus, *compare, *ref_isa, *output;
    const char *threads_arg, *pack_arg; /* as given: the pipeline parses them */
    int threads, latency, document, json, peak, model_only;
    double seconds, min_cos, min_spans;
    size_t length, pack, limit, rounds;
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
                     "Times the engine users run: the redactor `pii-redact` builds (the model\n"
                     "detector and the rule tier; --model-only: the model alone) fed through a\n"
                     "stream.  throughput: each round is `pii-redact --lines CORPUS` without the\n"
                     "load (lines queued, packed into shared forward passes, flushed every 64 KiB\n"
                     "read), in a fresh stream; document: each round is `pii-redact CORPUS` (the\n"
                     "corpus one input, cut into windows over the threads); latency: one line\n"
                     "per flush, each timed.  Reports sentences/s, tokens/s (the engine\n"
                     "tokenizer's tokens of the inputs as fed: the lines with their newlines, or\n"
                     "the whole text), effective GFLOP/s (model FLOPs per token x tokens / time),\n"
                     "latency percentiles, load time, peak RSS, and the machine's own f32 FMA and\n"
                     "int8 VNNI peak on the same threads, before and after the run (pct_of_peak:\n"
                     "against the better of the two int8 peaks for int8/int4 weights, else of\n"
                     "the f32 peaks; contended: the two differ by over 10%, or a throughput run\n"
                     "got under 85% of its threads' CPU time).  --compare REF reports logits\n"
                     "cosine (encoder) and the engine's span agreement against a reference model\n"
                     "instead.  JSON keys: pipeline (model+rules or model) sentences_per_s\n"
                     "tokens_per_s gflops p50_ms p90_ms p99_ms load_s peak_rss_mb threads isa\n"
                     "weights_dtype peak_gflops peak_gops pct_of_peak peak_gflops_after\n"
                     "peak_gops_after cpu_share contended sentences tokens corpus_sentences\n"
                     "corpus_tokens (and more).",
                     opts, NOPTS);
            return -1;
        }
        if (!strcmp(nm, "model"))
            o->model = val;
        else if (!strcmp(nm, "corpus"))
            o->corpus = val;
        else if (!strcmp(nm, "compare"))
            o->compare = val;
        else if (!strcmp(nm, "output"))
            o->output = val;
        else if (!strcmp(nm, "model-only"))
            o->model_only = 1;
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
            o->latency = !strcmp(val, "latency");
            o->document = !strcmp(val, "document");
            if (!o->latency && !o->document && strcmp(val, "throughput")) {
                fprintf(stderr,
                        "pii-redact bench: --mode: expected throughput, document or latency\n");
                return PII_EXIT_USAGE;
            }
        } else if (!strcmp(nm, "act")) {
            pii_rt_qact a;
            if (pii_rt_qact_parse(val, &a)) {
                fprintf(stderr, "pii-redact bench: --act: expected int16, int8 or int16+8\n");
                return PII_EXIT_USAGE;
            }
            mc_qact(a);
        } else if (!strcmp(nm, "attn")) {
            if (mc_attn_opt(CMD, val))
                return PII_EXIT_USAGE;
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
            if (nm[0] == 's' && !(d > 0)) {
                fprintf(stderr,
                        "pii-redact bench: --seconds: expected more than 0 seconds, got '%s'\n",
                        val);
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
            if (!strcmp(nm, "threads")) {
                o->threads = (int)(u > 1024 ? 1024 : u);
                o->threads_arg = val;
            } else if (!strcmp(nm, "length"))
                o->length = (size_t)u;
            else if (!strcmp(nm, "pack")) {
                if (!u) {
                    fprintf(stderr, "pii-redact bench: --pack: expected at least 1\n");
                    return PII_EXIT_USAGE;
                }
                o->pack = (size_t)u;
                o->pack_arg = val;
            } else if (!strcmp(nm, "limit"))
                o->limit = (size_t)u;
            else if (!strcmp(nm, "rounds"))
                o->rounds = (size_t)u;
        }
    }
    return 0;
}

/* ---- fidelity: two models on the encoder and the detector ------------------------------ */

static int run_compare(const bench_opts *o, const bench_corpus *cp)
{
    int status = PII_EXIT_OK;
    pii_err e = PII_OK;
    pii_model *m = NULL, *ref = NULL;
    pii_rt_pool *pool = NULL;
    const char *name = o->model;
    if (o->threads != 1 && !(pool = pii_rt_pool_create(o->threads, &e)))
        return PII_EXIT_FAIL;
    if (o->model) {
        m = mc_load(CMD, o->model, 0, &status);
    } else {
        char msg[512];
        pii_model_params mp;
        mc_params(&mp);
        if (!(m = pii_default_model_load(&mp, &e, msg, sizeof msg))) {
            fprintf(stderr, "pii-redact bench: default model: %s\n",
                    msg[0] ? msg : pii_strerror(e));
            status = PII_EXIT_MODEL;
        }
        name = "(default, built in)";
    }
    if (m) { /* the reference runs on --ref-isa (default: the same path) */
        int keep = mc_isa_choice();
        if (o->ref_isa)
            mc_isa(CMD, o->ref_isa);
        ref = mc_load(CMD, o->compare, 0, &status);
        mc_isa_choice_set(keep);
    }
    if (m && ref) {
        bench_compare_args a = {name, o->compare, o->threads, o->json, o->min_cos, o->min_spans};
        status = bench_compare(&a, pool, m, ref, cp);
    }
    pii_model_free(m);
    pii_model_free(ref);
    pii_rt_pool_free(pool);
    return status;
}

/* ---- main -------------------------------------------------------------------------------- */

int pii_cmd_bench(int argc, char **argv)
{
    char corpus_path[4200];
    bench_opts o = {.seconds = 10, .peak = 1};
    int st = parse(argc, argv, &o);
    if (st)
        return st < 0 ? PII_EXIT_OK : st;
    const int corpus_given = o.corpus != NULL;
    if (!o.corpus)
        o.corpus = default_corpus(corpus_path, sizeof corpus_path);
    const char *dm_cfg;
    const void *dm_st;
    size_t dm_cl, dm_sl;
    if (!o.model && !pii_default_model_image(&dm_cfg, &dm_cl, &dm_st, &dm_sl)) {
        fprintf(stderr, "pii-redact bench: no default model is built in; pass -m MODEL\n");
        return PII_EXIT_USAGE;
    }
    bench_corpus cp;
    int cerr = corpus_load(o.corpus, o.limit, &cp);
    if (cerr || cp.n == 0) {
        if (!cerr)
            fprintf(stderr, "pii-redact bench: %s: no sentences in it\n", o.corpus);
        else
            fprintf(stderr, "pii-redact bench: %s: %s%s\n", o.corpus, strerror(cerr),
                    corpus_given ? ""
                                 : " (the default corpus: samples/sentences.txt in the source "
                                   "tree or PREFIX/share/pii-redact/sentences.txt beside an "
                                   "installed pii-redact; give one with --corpus FILE, one "
                                   "sentence a line)");
        corpus_free(&cp);
        return PII_EXIT_IO;
    }
    if (o.document && o.length) {
        fprintf(stderr, "pii-redact bench: --length cuts lines: not with --mode document\n");
        corpus_free(&cp);
        return PII_EXIT_USAGE;
    }
    if (o.compare) {
        st = run_compare(&o, &cp);
        corpus_free(&cp);
        return st;
    }

    pii_err e = PII_OK;
    int status = PII_EXIT_OK;
    pii_rt_pool *pool = NULL;
    pii_pipeline pl;
    memset(&pl, 0, sizeof pl);
    feed fd;
    memset(&fd, 0, sizeof fd);
    pii_tok_enc *enc = NULL;
    pii_stream *sm = NULL;
    lat_log lg = {0};
    FILE *out = NULL;
    if (o.threads != 1 && !(pool = pii_rt_pool_create(o.threads, &e))) {
        status = PII_EXIT_FAIL;
        goto out;
    }
    const int nth = pii_rt_pool_size(pool);
    double peak_f = 0, peak_i = 0;
    if (o.peak) {
        peak_f = bench_peak_rate(pool, 0);
        peak_i = bench_peak_rate(pool, 1);
    }

    /* the redactor of `pii-redact [--model-only] [--lines] [-m MODEL]
     * [--threads N]`, plus the engine's pack_tokens for --pack */
    pii_opts po;
    memset(&po, 0, sizeof po);
    po.act = -1;  /* --act went to mc_qact already */
    po.attn = -1; /* and --attn to mc_attn */
    po.lines = !o.document;
    po.model_path = o.model;
    po.model_only = o.model_only;
    po.threads = o.threads_arg;
    po.pack = o.pack_arg;
    double t_load = bench_now_s();
    if ((st = pii_pipeline_build(&po, &pl)) >= 0) {
        status = st;
        goto out;
    }
    t_load = bench_now_s() - t_load;
    if (!pl.model || !pl.ner) {
        fprintf(stderr, "pii-redact bench: no model to time\n");
        status = PII_EXIT_MODEL;
        goto out;
    }
    const pii_model *m = pl.model;
    if (!o.model)
        o.model = "(default, built in)";
    const size_t pack = o.pack ? o.pack : pii_ner_pack_tokens(pl.ner);

    /* the documents and their tokens (the engine's tokenizer) */
    if (!(enc = pii_tok_enc_create(pl.tok ? pl.tok : pii_tok_o200k()))) {
        status = PII_EXIT_FAIL;
        goto out;
    }
    size_t doc_start[2] = {cp.start[0], cp.start[cp.n]};
    if (o.length) {
        e = feed_cut(&fd, &cp, enc, o.length);
    } else if (o.document) { /* the corpus, one document */
        fd.buf = (const uint8_t *)cp.buf;
        fd.start = doc_start;
        fd.ndocs = 1;
    } else {
        fd.buf = (const uint8_t *)cp.buf;
        fd.start = cp.start;
        fd.ndocs = cp.n;
    }
    if (e || (e = feed_count(&fd, enc, m))) {
        if (e != PII_EINVAL)
            fprintf(stderr, "pii-redact bench: %s\n", pii_strerror(e));
        status = pii_exit_for(e);
        goto out;
    }
    if (o.output && !(out = fopen(o.output, "wb"))) {
        fprintf(stderr, "pii-redact bench: %s: cannot write\n", o.output);
        status = PII_EXIT_IO;
        goto out;
    }

    /* warm-up: the first WARM_TOKENS (at least one document), or with
     * --output the whole corpus, written to it; --mode document: the
     * corpus's first lines up to WARM_BYTES as one document (at least one
     * line), or with --output the whole corpus */
    double t_first = bench_now_s();
    tally tl = {.in = &fd, .out = out};
    pii_sink sink = {t_write, t_span, t_end_doc, &tl};
    uint64_t flushes = 0;
    {
        size_t dw = 0, tw = 0;
        while (dw < fd.ndocs && (out || dw == 0 || tw < WARM_TOKENS))
            tw += fd.tok[dw++];
        size_t w0 = fd.start[0], w1 = fd.start[dw];
        if (o.document && !out) {
            size_t l = 1;
            while (l < fd.ndocs && fd.start[l] - fd.start[0] < WARM_BYTES)
                l++;
            w1 = fd.start[l];
        }
        if (!(sm = pii_stream_create(pl.red, &sink, &e)) ||
            round_file(sm, fd.buf, w0, w1, !o.document, INFINITY, &flushes, &e) < 0)
            goto engine_fail;
        pii_stream_free(sm);
        sm = NULL;
        if (out) {
            int bad = fclose(out) != 0;
            out = NULL;
            if (bad) {
                fprintf(stderr, "pii-redact bench: %s: write error\n", o.output);
                status = PII_EXIT_IO;
                goto out;
            }
        }
    }
    t_first = bench_now_s() - t_first + t_load;

    /* the timed rounds */
    tally tt = {.in = &fd};
    sink.ud = &tt;
    flushes = 0;
    uint64_t rounds = 0;
    const double t0 = bench_now_s(), c0 = bench_cpu_s();
    const double deadline = o.rounds ? INFINITY : t0 + o.seconds;
    for (;;) {
        tt.next = 0;
        if (!(sm = pii_stream_create(pl.red, &sink, &e)))
            goto engine_fail;
        int r = o.latency ? round_latency(sm, &fd, deadline, &lg, &flushes, &e)
                          : round_file(sm, fd.buf, fd.start[0], fd.start[fd.ndocs], !o.document,
                                       deadline, &flushes, &e);
        pii_stream_free(sm);
        sm = NULL;
        if (r < 0)
            goto engine_fail;
        rounds += r == 0;
        if (r > 0 || (o.rounds && rounds >= o.rounds) || (!o.rounds && bench_now_s() >= deadline))
            break;
    }
    const double el = bench_now_s() - t0;
    const double cpu = bench_cpu_s() - c0;
    /* The peak again right after the run: a process that took a core
     * during the run shows as a disagreement between the two (or as a CPU
     * share under the threads' worth).  The share of peak is taken against
     * the better of the two, and the run is flagged as contended. */
    double peak_f2 = 0, peak_i2 = 0;
    if (o.peak) {
        peak_f2 = bench_peak_rate(pool, 0);
        peak_i2 = bench_peak_rate(pool, 1);
    }
    const double cpu_share = el > 0 ? cpu / (el * nth) : NAN;
    if (lg.n) /* throughput mode has no samples (lg.ms NULL) */
        qsort(lg.ms, lg.n, sizeof *lg.ms, cmp_d);
    double p50 = o.latency ? pct(lg.ms, lg.n, 50) : NAN,
           p90 = o.latency ? pct(lg.ms, lg.n, 90) : NAN,
           p99 = o.latency ? pct(lg.ms, lg.n, 99) : NAN;
    const uint64_t docs = tt.docs, toks = tt.tokens;
    double gfl = tt.flops / el / 1e9;
    pii_dtype wdt = pii_model_expert_dtype(m);
    int qint = wdt == PII_DT_Q8_ROW || wdt == PII_DT_Q4_G32;
    double pk1 = qint ? peak_i : peak_f, pk2 = qint ? peak_i2 : peak_f2;
    double ref_peak = pk1 > pk2 ? pk1 : pk2;
    double pctp = ref_peak > 0 ? 100.0 * tt.flops / el / ref_peak : NAN;
    double pk_lo = pk1 < pk2 ? pk1 : pk2;
    int peak_disagree = ref_peak > 0 && pk_lo < 0.9 * ref_peak;
    int cpu_short = !o.latency && cpu_share < 0.85;
    int contended = peak_disagree || cpu_short;
    const char *pipe = pl.rules ? "model+rules" : "model";
    char isa[32];
    snprintf(isa, sizeof isa, "%s%s", pii_rt_isa_name(pii_model_plan(m)->isa),
             qint && pii_model_plan(m)->vnni ? "+vnni" : "");
    double rss = peak_rss_mb();
    if (o.json) {
        printf("{\"pipeline\":\"%s\",", pipe);
        bench_json_num("sentences_per_s", (double)docs / el, 0);
        bench_json_num("tokens_per_s", (double)toks / el, 0);
        bench_json_num("gflops", gfl, 0);
        bench_json_num("p50_ms", p50, 0);
        bench_json_num("p90_ms", p90, 0);
        bench_json_num("p99_ms", p99, 0);
        bench_json_num("load_s", t_load, 0);
        bench_json_num("first_s", t_first, 0);
        bench_json_num("peak_rss_mb", rss, 0);
        bench_json_num("threads", nth, 0);
        printf("\"isa\":\"%s\",\"weights_dtype\":\"%s\",", isa, bench_dtype_label(wdt));
        bench_json_num("peak_gflops", peak_f / 1e9, 0);
        bench_json_num("peak_gops", peak_i / 1e9, 0);
        bench_json_num("pct_of_peak", pctp, 0);
        bench_json_num("peak_gflops_after", peak_f2 / 1e9, 0);
        bench_json_num("peak_gops_after", peak_i2 / 1e9, 0);
        bench_json_num("cpu_share", cpu_share, 0);
        printf("\"contended\":%s,", contended ? "true" : "false");
        printf("\"mode\":\"%s\",\"act\":\"%s\",\"attn\":\"%s\",",
               o.latency    ? "latency"
               : o.document ? "document"
                            : "throughput",
               qint ? pii_rt_qact_name(pii_model_plan(m)->qact) : "f32",
               pii_model_attn_int16(m) ? "int16" : "f32");
        bench_json_num("length", (double)o.length, 0);
        bench_json_num("pack", (double)(o.latency ? 0 : pack), 0);
        bench_json_num("sentences", (double)docs, 0);
        bench_json_num("tokens", (double)toks, 0);
        bench_json_num("corpus_sentences", (double)fd.ndocs, 0);
        bench_json_num("corpus_tokens", (double)fd.tokens, 0);
        bench_json_num("rounds", (double)rounds, 0);
        bench_json_num("flushes", (double)flushes, 0);
        bench_json_num("output_bytes", (double)tt.bytes, 0);
        bench_json_num("seconds", el, 0);
        bench_json_num("cpu_s", cpu, 0);
        bench_json_num("mean_tokens", docs ? (double)toks / (double)docs : 0, 0);
        bench_json_num("spans", (double)tt.spans, 1);
        printf("}\n");
    } else {
        printf("model:        %s (%s weights)\n", o.model, bench_dtype_label(wdt));
        printf("pipeline:     %s, the stream engine of pii-redact%s\n",
               pl.rules ? "model detector and rule tier" : "model detector alone",
               o.document ? "" : " --lines");
        printf("mode:         %s",
               o.latency    ? "latency (one input per flush)"
               : o.document ? "document (the corpus one input, in windows over the threads)"
                            : "throughput");
        if (!o.latency && !o.document)
            printf(" (lines queued, packed up to %zu tokens per pass and thread)", pack);
        printf("\n");
        if (o.length)
            printf("inputs:       %zu cuts of %zu tokens from %s (%.1f tokens each as fed)\n",
                   fd.ndocs, o.length, o.corpus,
                   fd.ndocs ? (double)fd.tokens / (double)fd.ndocs : 0.0);
        else
            printf("inputs:       %s, %zu lines, %llu tokens\n", o.corpus, cp.n,
                   (unsigned long long)fd.tokens);
        printf("threads:      %d, isa %s%s%s, attention %s\n", nth, isa,
               qint ? ", activations " : "", qint ? pii_rt_qact_name(pii_model_plan(m)->qact) : "",
               pii_model_attn_int16(m) ? "int16" : "f32");
        printf("measured:     %llu sentences, %llu tokens, %llu rounds, %llu flushes in %.2f s\n",
               (unsigned long long)docs, (unsigned long long)toks, (unsigned long long)rounds,
               (unsigned long long)flushes, el);
        printf("throughput:   %.1f sentences/s, %.0f tokens/s (%.0f tokens per CPU-second)\n",
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
        printf("load:         %.3f s (first round after %.3f s)\n", t_load, t_first);
        printf("peak RSS:     %.0f MB\n", rss);
    }
    goto out;
engine_fail:
    fprintf(stderr, "pii-redact bench: redaction stopped: %s\n", pii_strerror(e));
    status = pii_exit_for(e);
out:
    pii_stream_free(sm);
    if (out)
        fclose(out);
    pii_tok_enc_free(enc);
    feed_free(&fd);
    free(lg.ms);
    pii_pipeline_free(&pl);
    pii_rt_pool_free(pool);
    corpus_free(&cp);
    return status;
}
