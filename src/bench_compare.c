/* bench_compare.c — `pii-redact bench --compare REF`: the fidelity of a
 * model (quantized, another kernel path) against a reference (bench.h).
 *
 * Two measurements, each on the layer it is about:
 *   logits cosine  an encoder measurement: every non-empty corpus line is
 *                  tokenized (built-in o200k) and both models run the same
 *                  packed forward passes (pii_model_forward); per token the
 *                  cosine of the two logits rows.
 *   spans          the engine's own decoding: each model behind a pii_ner
 *                  (the model detector the stream runs; no calibration
 *                  file, so both decode with the same all-zero biases),
 *                  pii_ner_detect_batch over the same lines; a line agrees
 *                  when both give the same (start, end, label) list.
 * Token ids must be inside the model's vocabulary (the engine's rule too):
 * a model with a smaller vocabulary than o200k is refused.
 *
 * Shapes: n tokens of a pass, C labels; logits [n][C]. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "pii_ner.h"
#include "pii_tok.h"

#define CMP_PACK 2048 /* tokens per packed forward pass (at least the longest line) */
#define CMP_BATCH 256 /* lines per pii_ner_detect_batch call */

typedef struct fid {
    double cos_min, cos_sum;
    size_t tokens, docs, same;
    size_t ge999, ge99; /* tokens with cosine >= 0.999, >= 0.99 */
} fid;

static double share_pct(size_t k, size_t n)
{
    return n ? 100.0 * (double)k / (double)n : 0;
}

static int spans_same(const pii_spanvec *a, const pii_spanvec *b)
{
    if (a->n != b->n)
        return 0;
    for (size_t i = 0; i < a->n; i++)
        if (a->v[i].start != b->v[i].start || a->v[i].end != b->v[i].end ||
            strcmp(a->v[i].label, b->v[i].label) != 0)
            return 0;
    return 1;
}

/* The non-empty lines, without their line ends. */
typedef struct lines {
    const uint8_t **p;
    size_t *len, *ntok, n, maxtok, tokens;
} lines;

/* Cosine of every token's logits rows over the packed passes. */
static pii_err cosines(const pii_model *m, const pii_model *ref, pii_rt_pool *pool, const lines *ln,
                       fid *f)
{
    const size_t C = (size_t)pii_model_cfg(m)->n_labels;
    const int vm = pii_model_cfg(m)->vocab_size, vr = pii_model_cfg(ref)->vocab_size;
    const size_t cap = ln->maxtok > CMP_PACK ? ln->maxtok : CMP_PACK;
    pii_err e = PII_OK;
    pii_model_ws *wa = pii_model_ws_create(m, cap, pool, &e);
    pii_model_ws *wb = wa ? pii_model_ws_create(ref, cap, pool, &e) : NULL;
    pii_tok_enc *enc = pii_tok_enc_create(pii_tok_o200k());
    int32_t *ids = malloc(cap * sizeof *ids);
    size_t *lens = malloc(cap * sizeof *lens);
    float *la = malloc(cap * C * sizeof *la), *lb = malloc(cap * C * sizeof *lb);
    pii_tok_buf tb = PII_TOK_BUF_INIT;
    if (!wb || !enc || !ids || !lens || !la || !lb)
        e = e ? e : PII_ENOMEM;
    for (size_t d = 0; d < ln->n && !e;) {
        size_t n = 0, nd = 0;
        /* one pass: whole lines while they fit (a line never exceeds cap) */
        while (d < ln->n && n + ln->ntok[d] <= cap) {
            tb.n = 0;
            if ((e = pii_tok_encode(enc, ln->p[d], ln->len[d], &tb)))
                break;
            for (size_t j = 0; j < tb.n; j++) {
                if (tb.ids[j] >= vm || tb.ids[j] >= vr) {
                    fprintf(stderr,
                            "pii-redact bench: --compare: a model's vocabulary (%d) is "
                            "smaller than the tokenizer's\n",
                            vm < vr ? vm : vr);
                    e = PII_ERANGE;
                    break;
                }
                ids[n + j] = tb.ids[j];
            }
            n += tb.n;
            lens[nd++] = tb.n;
            d++;
        }
        if (e || !n)
            continue;
        if ((e = pii_model_forward(m, wa, ids, n, lens, nd, la, NULL)) ||
            (e = pii_model_forward(ref, wb, ids, n, lens, nd, lb, NULL)))
            break;
        for (size_t t = 0; t < n; t++) {
            const float *a = la + t * C, *b = lb + t * C;
            double ab = 0, aa = 0, bb = 0;
            for (size_t c = 0; c < C; c++) {
                ab += (double)a[c] * b[c];
                aa += (double)a[c] * a[c];
                bb += (double)b[c] * b[c];
            }
            double cs = aa > 0 && bb > 0 ? ab / sqrt(aa * bb) : (aa == bb ? 1 : 0);
            f->cos_min = cs < f->cos_min ? cs : f->cos_min;
            f->cos_sum += cs;
            f->ge999 += cs >= 0.999;
            f->ge99 += cs >= 0.99;
            f->tokens++;
        }
    }
    pii_tok_buf_free(&tb);
    pii_tok_enc_free(enc);
    pii_model_ws_free(wa);
    pii_model_ws_free(wb);
    free(ids);
    free(lens);
    free(la);
    free(lb);
    return e;
}

/* Lines whose engine spans agree, CMP_BATCH lines at a time. */
static pii_err agreement(const pii_model *m, const pii_model *ref, int threads, const lines *ln,
                         fid *f)
{
    pii_ner_params np = pii_ner_default_params();
    np.no_calibration = 1;
    np.threads = threads;
    pii_err e = PII_OK;
    char msg[256] = "";
    pii_ner *na = pii_ner_create(m, NULL, &np, &e, msg, sizeof msg);
    pii_ner *nb = na ? pii_ner_create(ref, NULL, &np, &e, msg, sizeof msg) : NULL;
    pii_spanvec *sa = calloc(CMP_BATCH, sizeof *sa), *sb = calloc(CMP_BATCH, sizeof *sb);
    if (!nb)
        fprintf(stderr, "pii-redact bench: --compare: model tier: %s%s%s\n", pii_strerror(e),
                msg[0] ? ": " : "", msg);
    else if (!sa || !sb)
        e = PII_ENOMEM;
    for (size_t d0 = 0; d0 < ln->n && !e; d0 += CMP_BATCH) {
        size_t k = ln->n - d0 < CMP_BATCH ? ln->n - d0 : CMP_BATCH;
        for (size_t i = 0; i < k; i++) {
            pii_spanvec_clear(&sa[i]);
            pii_spanvec_clear(&sb[i]);
        }
        if ((e = pii_ner_detect_batch(na, ln->p + d0, ln->len + d0, k, sa)) ||
            (e = pii_ner_detect_batch(nb, ln->p + d0, ln->len + d0, k, sb)))
            break;
        for (size_t i = 0; i < k; i++) {
            f->same += spans_same(&sa[i], &sb[i]);
            f->docs++;
        }
    }
    for (size_t i = 0; i < CMP_BATCH && sa && sb; i++) {
        pii_spanvec_free(&sa[i]);
        pii_spanvec_free(&sb[i]);
    }
    free(sa);
    free(sb);
    pii_ner_free(na);
    pii_ner_free(nb);
    return e;
}

int bench_compare(const bench_compare_args *a, pii_rt_pool *pool, const pii_model *m,
                  const pii_model *ref, const bench_corpus *c)
{
    if (pii_model_cfg(m)->n_labels != pii_model_cfg(ref)->n_labels) {
        fprintf(stderr, "pii-redact bench: the models have different label counts\n");
        return PII_EXIT_USAGE;
    }
    lines ln = {0};
    ln.p = malloc((c->n + 1) * sizeof *ln.p);
    ln.len = malloc((c->n + 1) * sizeof *ln.len);
    ln.ntok = malloc((c->n + 1) * sizeof *ln.ntok);
    pii_tok_enc *enc = pii_tok_enc_create(pii_tok_o200k());
    pii_tok_buf tb = PII_TOK_BUF_INIT;
    pii_err e = ln.p && ln.len && ln.ntok && enc ? PII_OK : PII_ENOMEM;
    for (size_t i = 0; i < c->n && !e; i++) {
        const char *t;
        size_t l;
        bench_corpus_text(c, i, &t, &l);
        if (!l)
            continue;
        tb.n = 0;
        if ((e = pii_tok_encode(enc, t, l, &tb)))
            break;
        ln.p[ln.n] = (const uint8_t *)t;
        ln.len[ln.n] = l;
        ln.ntok[ln.n++] = tb.n;
        ln.maxtok = tb.n > ln.maxtok ? tb.n : ln.maxtok;
        ln.tokens += tb.n;
    }
    pii_tok_buf_free(&tb);
    pii_tok_enc_free(enc);
    fid f = {.cos_min = 1};
    int status = PII_EXIT_OK;
    if (!e && (e = cosines(m, ref, pool, &ln, &f)) == PII_OK)
        e = agreement(m, ref, a->threads, &ln, &f);
    free(ln.p);
    free(ln.len);
    free(ln.ntok);
    if (e) {
        if (e != PII_ERANGE)
            fprintf(stderr, "pii-redact bench: --compare: %s\n", pii_strerror(e));
        return pii_exit_for(e);
    }
    double same_pct = share_pct(f.same, f.docs);
    double cmean = f.tokens ? f.cos_sum / (double)f.tokens : 0;
    if (a->json) {
        printf("{");
        bench_json_num("cos_min", f.cos_min, 0);
        bench_json_num("cos_mean", cmean, 0);
        bench_json_num("tokens_cos_ge_0999_pct", share_pct(f.ge999, f.tokens), 0);
        bench_json_num("tokens_cos_ge_099_pct", share_pct(f.ge99, f.tokens), 0);
        bench_json_num("spans_identical_pct", same_pct, 0);
        bench_json_num("sentences", (double)f.docs, 0);
        bench_json_num("tokens", (double)f.tokens, 0);
        printf("\"weights_dtype\":\"%s\",\"ref_dtype\":\"%s\",\"act\":\"%s\",\"attn\":\"%s\"}\n",
               bench_dtype_label(pii_model_expert_dtype(m)),
               bench_dtype_label(pii_model_expert_dtype(ref)),
               pii_rt_qact_name(pii_model_plan(m)->qact),
               pii_model_attn_int16(m) ? "int16" : "f32");
    } else {
        printf("fidelity:    %s (%s, attention %s) against %s (%s)\n", a->model_name,
               bench_dtype_label(pii_model_expert_dtype(m)),
               pii_model_attn_int16(m) ? "int16" : "f32", a->ref_name,
               bench_dtype_label(pii_model_expert_dtype(ref)));
        printf("sentences:   %zu (%zu tokens)\n", f.docs, f.tokens);
        printf("cosine:      min %.6f, mean %.6f; tokens >= 0.999: %.3f%%, >= 0.99: %.3f%%\n",
               f.cos_min, cmean, share_pct(f.ge999, f.tokens), share_pct(f.ge99, f.tokens));
        printf("spans:       identical on %.2f%% of sentences (the engine's detector)\n", same_pct);
    }
    if ((a->min_cos > 0 && f.cos_min < a->min_cos) ||
        (a->min_spans > 0 && same_pct < a->min_spans)) {
        fprintf(stderr,
                "pii-redact bench: fidelity below the gate (cos_min %.6f < %g or "
                "spans %.2f%% < %g%%)\n",
                f.cos_min, a->min_cos, same_pct, a->min_spans);
        status = 1;
    }
    return status;
}
