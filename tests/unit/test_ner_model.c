/* test_ner_model.c — the detector on a real (random-weight, tiny) Privacy
 * Filter model: window stitching on a 5,000+ token input, streaming in
 * random chunks, packing, against single passes.
 *
 * The model comes from pii_model_synth_write_hf (what `pii-redact mkmodel`
 * writes) with small widths but the real depth and attention radius: 8
 * layers x radius 128, so the receptive field is the real one (1024
 * tokens) and --window 2100 is the tightest legal window. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pii_model.h"
#include "pii_ner.h"
#include "pii_tok.h"
#include "pii_model_synth.h"
#include "unit_util.h"

/* Logit tolerance between a windowed and a single pass: the windows see
 * the same tokens at shifted positions, so only RoPE angle rounding and
 * summation order differ. */
#define LOGIT_TOL 1e-3f

/* Under ASan the encoder is ~20x slower: the sanitizer build runs the
 * cheaper half (window 3000 only; streams over 2 windows of 3000). */
#if defined(__SANITIZE_ADDRESS__)
#define SAN_BUILD 1
#else
#define SAN_BUILD 0
#endif

static uint64_t rng_state = 777;
static uint64_t rng(void)
{
    return unit_splitmix64(&rng_state);
}

static char model_dir[64];
static pii_model *model;

static int setup(void **st)
{
    (void)st;
    snprintf(model_dir, sizeof model_dir, "/tmp/ner_model_XXXXXX");
    if (!mkdtemp(model_dir))
        return -1;
    pii_model_synth s;
    pii_model_synth_default(&s);
    s.cfg.d_model = 32;
    s.cfg.n_layers = 8;
    s.cfg.n_heads = 2;
    s.cfg.n_kv_heads = 1;
    s.cfg.head_dim = 16;
    s.cfg.d_expert = 32;
    s.cfg.n_experts = 4;
    s.cfg.top_k = 2;
    s.cfg.window = 128;
    s.embed_rows = 512;
    s.seed = 7;
    s.dtype = PII_DT_F32;
    char msg[256];
    if (pii_model_synth_write_hf(&s, model_dir, msg, sizeof msg)) {
        fprintf(stderr, "synth: %s\n", msg);
        return -1;
    }
    pii_err err;
    model = pii_model_load(model_dir, NULL, &err, msg, sizeof msg);
    if (!model) {
        fprintf(stderr, "load: %s\n", msg);
        return -1;
    }
    return 0;
}

static int teardown(void **st)
{
    (void)st;
    pii_model_free(model);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", model_dir);
    return system(cmd) == 0 ? 0 : -1;
}

static pii_ner *make_threads(size_t window, size_t pack, int threads)
{
    pii_ner_params p = pii_ner_default_params();
    p.window = window;
    p.pack_tokens = pack;
    p.threads = threads;
    char msg[256];
    pii_err err;
    pii_ner *n = pii_ner_create(model, NULL, &p, &err, msg, sizeof msg);
    if (!n)
        fprintf(stderr, "ner: %s\n", msg);
    assert_non_null(n);
    return n;
}

static pii_ner *make(size_t window, size_t pack)
{
    return make_threads(window, pack, 1);
}

static char *random_text(size_t nbytes)
{
    static const char *const words[] = {"Alice",
                                        "Smith",
                                        "lives",
                                        "at",
                                        "123",
                                        "Main",
                                        "Street",
                                        "and",
                                        "uses",
                                        "alice@example.com",
                                        "call",
                                        "+44",
                                        "20",
                                        "7946",
                                        "0958",
                                        "on",
                                        "2026-04-23",
                                        "Zo\xC3\xAB",
                                        "\xF0\x9F\x91\x8B\xF0\x9F\x8F\xBD",
                                        "\xE5\x8C\x97\xE4\xBA\xAC",
                                        "the",
                                        "of",
                                        "\r\n",
                                        "token",
                                        "sk-proj-abc123",
                                        "https://example.org/x",
                                        "\xC2\xA0",
                                        "IBAN",
                                        "DE89"};
    size_t nw = sizeof words / sizeof words[0];
    char *t = malloc(nbytes + 64);
    size_t n = 0;
    while (n < nbytes) {
        const char *w = words[rng() % nw];
        size_t l = strlen(w);
        memcpy(t + n, w, l);
        n += l;
        t[n++] = rng() % 9 ? ' ' : '\n';
    }
    t[n] = '\0';
    return t;
}

static void spans_equal(const pii_spanvec *a, const pii_spanvec *b)
{
    assert_int_equal(a->n, b->n);
    for (size_t i = 0; i < a->n; i++) {
        assert_int_equal(a->v[i].start, b->v[i].start);
        assert_int_equal(a->v[i].end, b->v[i].end);
        assert_string_equal(a->v[i].label, b->v[i].label);
        assert_true(fabsf(a->v[i].score - b->v[i].score) < 1e-4f);
    }
}

static void test_windows(void **st)
{
    (void)st;
    char *text = random_text(15600);
    size_t len = strlen(text);
    pii_ner *single = make(100000, 0);
    assert_int_equal(pii_ner_halo(single), 1024);
    pii_ner_result ref;
    assert_int_equal(pii_ner_analyze(single, (const uint8_t *)text, len, &ref), PII_OK);
    fprintf(stderr, "windows: %zu tokens, %zu spans in a single pass\n", ref.n, ref.spans.n);
    assert_true(ref.n >= 5000);
    assert_true(ref.spans.n > 0);
    size_t C = pii_ner_labels_count(pii_ner_get_labels(single));
    size_t windows[] = {3000, 2100};
    for (size_t w = 0; w < (SAN_BUILD ? 1u : 2u); w++) {
        pii_ner *n = make(windows[w], 0);
        pii_ner_result r;
        assert_int_equal(pii_ner_analyze(n, (const uint8_t *)text, len, &r), PII_OK);
        assert_int_equal(r.n, ref.n);
        assert_memory_equal(r.ids, ref.ids, r.n * sizeof *r.ids);
        float maxd = 0;
        for (size_t i = 0; i < r.n * C; i++) {
            float d = fabsf(r.logits[i] - ref.logits[i]);
            if (d > maxd)
                maxd = d;
        }
        size_t lab_diff = 0;
        for (size_t i = 0; i < r.n; i++)
            lab_diff += r.labels[i] != ref.labels[i];
        fprintf(stderr, "windows: --window %zu: max |logit diff| %.3g, %zu label diffs\n",
                windows[w], (double)maxd, lab_diff);
        assert_true(maxd <= LOGIT_TOL);
        assert_int_equal(lab_diff, 0);
        spans_equal(&r.spans, &ref.spans);
        pii_ner_result_free(&r);
        pii_ner_free(n);
    }
    pii_ner_result_free(&ref);
    pii_ner_free(single);
    free(text);
}

static void test_stream(void **st)
{
    (void)st;
    char *text = random_text(SAN_BUILD ? 12000 : 8000);
    size_t len = strlen(text);
    pii_ner *n = make(SAN_BUILD ? 3000 : 2100, 0);
    pii_spanvec ref = {0}, got = {0};
    assert_int_equal(pii_ner_detect(n, (const uint8_t *)text, len, &ref), PII_OK);
    pii_detector det = pii_ner_detector(n);
    size_t maxchunk[] = {1, 700, 5000};
    for (int c = 0; c < 3; c++) {
        pii_err err;
        void *s = det.cls->open(det.shared, &err);
        assert_non_null(s);
        got.n = 0;
        uint64_t keep = 0, pos = 0, done = 0;
        for (;;) {
            size_t k = maxchunk[c] == 1 ? 1 : 1 + (size_t)(rng() % maxchunk[c]);
            if (k > len - pos)
                k = (size_t)(len - pos);
            pos += k;
            int eod = pos == len;
            uint64_t nd, nk;
            assert_int_equal(det.cls->scan(s, (const uint8_t *)text + keep, (size_t)(pos - keep),
                                           keep, eod, &got, &nd, &nk),
                             PII_OK);
            assert_true(nd >= done && nk >= keep && nk <= nd);
            done = nd;
            keep = nk;
            if (eod)
                break;
        }
        spans_equal(&got, &ref);
        det.cls->close(s);
    }
    free(ref.v);
    free(got.v);
    pii_ner_free(n);
    free(text);
}

static void test_packing(void **st)
{
    (void)st;
    enum { ND = 40 };
    char *docs[ND];
    size_t lens[ND];
    for (int i = 0; i < ND; i++) {
        docs[i] = random_text(i % 13 == 0 ? 0 : 20 + rng() % 300);
        lens[i] = strlen(docs[i]);
    }
    pii_ner *packed = make(4096, 4096);
    pii_ner *single = make(4096, 0);
    pii_spanvec a[ND], b[ND];
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    assert_int_equal(pii_ner_detect_batch(packed, (const uint8_t *const *)docs, lens, ND, a),
                     PII_OK);
    size_t total = 0;
    for (int i = 0; i < ND; i++) {
        assert_int_equal(pii_ner_detect(single, (const uint8_t *)docs[i], lens[i], &b[i]), PII_OK);
        spans_equal(&a[i], &b[i]);
        total += a[i].n;
        free(a[i].v);
        free(b[i].v);
        free(docs[i]);
    }
    fprintf(stderr, "packing: %d documents, %zu spans, identical\n", ND, total);
    pii_ner_free(packed);
    pii_ner_free(single);
}

/* Three threads: the windows of one document run in shared passes, one
 * window per thread (and a lone or short last window on all threads);
 * logits, labels and spans are the one-thread run's, bit for bit, whole
 * and streamed. */
static void test_threads(void **st)
{
    (void)st;
    char *text = random_text(16000);
    size_t len = strlen(text);
    pii_ner *one = make_threads(3000, 0, 1);
    pii_ner *three = make_threads(3000, 0, 3);
    pii_ner_result a, b;
    assert_int_equal(pii_ner_analyze(one, (const uint8_t *)text, len, &a), PII_OK);
    assert_int_equal(pii_ner_analyze(three, (const uint8_t *)text, len, &b), PII_OK);
    fprintf(stderr, "threads: %zu tokens\n", a.n);
    assert_true(a.n > 3000 + 2 * (3000 - 2048)); /* four windows or more */
    assert_int_equal(a.n, b.n);
    size_t C = pii_ner_labels_count(pii_ner_get_labels(one));
    assert_memory_equal(a.logits, b.logits, a.n * C * sizeof *a.logits);
    assert_memory_equal(a.labels, b.labels, a.n * sizeof *a.labels);
    assert_int_equal(a.spans.n, b.spans.n);
    for (size_t i = 0; i < a.spans.n; i++) {
        assert_int_equal(a.spans.v[i].start, b.spans.v[i].start);
        assert_int_equal(a.spans.v[i].end, b.spans.v[i].end);
        assert_string_equal(a.spans.v[i].label, b.spans.v[i].label);
        assert_true(a.spans.v[i].score == b.spans.v[i].score);
    }
    /* streamed in 20,000-byte slices through the three-thread detector */
    pii_detector det = pii_ner_detector(three);
    pii_err err;
    void *s = det.cls->open(det.shared, &err);
    assert_non_null(s);
    pii_spanvec got = {0};
    uint64_t keep = 0, pos = 0, nd, nk;
    while (pos < len) {
        pos = pos + 20000 < len ? pos + 20000 : len;
        assert_int_equal(det.cls->scan(s, (const uint8_t *)text + keep, (size_t)(pos - keep), keep,
                                       pos == len, &got, &nd, &nk),
                         PII_OK);
        keep = nk;
    }
    assert_int_equal(got.n, a.spans.n);
    for (size_t i = 0; i < got.n; i++) {
        assert_int_equal(got.v[i].start, a.spans.v[i].start);
        assert_int_equal(got.v[i].end, a.spans.v[i].end);
        assert_true(got.v[i].score == a.spans.v[i].score);
    }
    fprintf(stderr, "threads: %zu tokens, %zu spans, identical with 1 and 3 threads\n", a.n,
            a.spans.n);
    det.cls->close(s);
    free(got.v);
    pii_ner_result_free(&a);
    pii_ner_result_free(&b);
    pii_ner_free(one);
    pii_ner_free(three);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_windows),
        cmocka_unit_test(test_stream),
        cmocka_unit_test(test_packing),
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
