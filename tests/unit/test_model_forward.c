/* test_model_forward.c — the encoder on small random models written by the
 * synth generator: every file format and dtype gives the same logits,
 * packed passes equal one-document passes, every kernel path agrees with
 * the scalar one, threads do not change results, the compact embedding row
 * map and memory loading work.
 *
 * Tolerances: formats holding identical values (F32/BF16/F16 safetensors,
 * F16/Q8_0 GGUF: the generator's values are exact in all of them) must give
 * bit-identical logits on the same kernel path, except where the kernel
 * layout differs (HF experts are [in, out], GGUF [out, in]: summation order
 * differs), where |diff| <= 1e-4.  Packing and threading: bit-identical.
 * SIMD vs scalar: |diff| <= 1e-4 (logits are O(1..10)). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "pii_model.h"
#include "pii_model_synth.h"

static char tmpdir[64];

static void synth_small(pii_model_synth *s)
{
    pii_model_synth_default(s);
    pii_model_config *c = &s->cfg;
    c->vocab_size = 500;
    c->d_model = 64;
    c->n_layers = 2;
    c->n_heads = 4;
    c->n_kv_heads = 2;
    c->head_dim = 16;
    c->d_expert = 32;
    c->n_experts = 8;
    c->top_k = 2;
    c->window = 5;
    c->n_labels = 9;
    c->pad_id = -1;
    s->seed = 7;
}

static char *path(const char *name)
{
    static char buf[4][256];
    static int k;
    char *b = buf[k++ % 4];
    snprintf(b, 256, "%s/%s", tmpdir, name);
    return b;
}

/* Q8_0 GGUF experts as stored (exact) unless `repack`; activations of
 * int8 weights g_qact. */
static int g_qact = PII_RT_QACT_I16;
static pii_model *load_p(const char *p, int repack)
{
    pii_err e;
    char msg[512];
    pii_model_params prm;
    pii_model_default_params(&prm);
    prm.gguf_q8_0_exact = !repack;
    prm.qact = g_qact;
    pii_model *m = pii_model_load(p, &prm, &e, msg, sizeof msg);
    if (!m)
        fail_msg("load %s: %s", p, msg);
    return m;
}

static pii_model *load(const char *p)
{
    return load_p(p, 0);
}

/* The path run() uses: -1 the model's own plan, else this ISA's. */
static int g_isa = -1;

static void set_isa(int isa)
{
    pii_rt_plan p;
    assert_int_equal(pii_rt_plan_init(&p, isa, PII_RT_QACT_I16), PII_OK);
    g_isa = isa;
}

static float *run(const pii_model *m, const int32_t *ids, size_t n, const size_t *lens, size_t nd,
                  pii_rt_pool *pool, pii_model_trace *tr)
{
    pii_err e;
    pii_model_ws *ws = pii_model_ws_create(m, n, pool, &e);
    assert_non_null(ws);
    if (g_isa >= 0) {
        pii_rt_plan p;
        assert_int_equal(pii_rt_plan_init(&p, g_isa, pii_model_plan(m)->qact), PII_OK);
        pii_model_ws_set_plan(ws, &p);
    }
    float *lg = malloc(n * (size_t)pii_model_cfg(m)->n_labels * sizeof *lg);
    assert_int_equal(pii_model_forward(m, ws, ids, n, lens, nd, lg, tr), PII_OK);
    pii_model_ws_free(ws);
    return lg;
}

static void ids_for(int32_t *ids, size_t n, int V, uint32_t seed)
{
    for (size_t i = 0; i < n; i++)
        ids[i] = (int32_t)((i * 2654435761u + seed * 40503u) % (uint32_t)V);
}

static size_t total_len(const size_t *lens, size_t nd)
{
    size_t n = 0;
    for (size_t d = 0; d < nd; d++)
        n += lens[d];
    return n;
}

/* The ids of documents lens[0..nd) back to back (ids_for with seed over a
 * 500-token vocabulary); *n gets their count.  The caller frees them. */
static int32_t *docs_ids(const size_t *lens, size_t nd, uint32_t seed, size_t *n)
{
    *n = total_len(lens, nd);
    int32_t *ids = malloc(*n * sizeof *ids);
    ids_for(ids, *n, 500, seed);
    return ids;
}

static double maxdiff(const float *a, const float *b, size_t n)
{
    double m = 0;
    for (size_t i = 0; i < n; i++) {
        double d = fabs((double)a[i] - b[i]);
        if (!(d <= m))
            m = isnan(d) ? INFINITY : d;
    }
    return m;
}

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/pii_model_test_XXXXXX");
    if (!mkdtemp(tmpdir))
        return -1;
    pii_model_synth s;
    synth_small(&s);
    char msg[256];
    const struct {
        const char *name;
        pii_dtype dt;
    } hf[] = {{"f32", PII_DT_F32}, {"bf16", PII_DT_BF16}, {"f16", PII_DT_F16}};
    for (int i = 0; i < 3; i++) {
        s.dtype = hf[i].dt;
        if (pii_model_synth_write_hf(&s, path(hf[i].name), msg, sizeof msg))
            return -1;
    }
    s.dtype = PII_DT_BF16;
    s.gguf_experts = PII_DT_F16;
    if (pii_model_synth_write_gguf(&s, path("m16.gguf"), msg, sizeof msg))
        return -1;
    s.gguf_experts = PII_DT_Q8_0;
    if (pii_model_synth_write_gguf(&s, path("m8.gguf"), msg, sizeof msg))
        return -1;
    s.embed_rows = 37;
    if (pii_model_synth_write_hf(&s, path("compact"), msg, sizeof msg))
        return -1;
    /* experts wider than one task's column chunk (EXPERT_CHUNK, 256) */
    synth_small(&s);
    s.cfg.d_expert = 320;
    s.dtype = PII_DT_BF16;
    if (pii_model_synth_write_hf(&s, path("wide"), msg, sizeof msg))
        return -1;
    s.gguf_experts = PII_DT_Q8_0;
    if (pii_model_synth_write_gguf(&s, path("wide8.gguf"), msg, sizeof msg))
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

/* F32, BF16, F16 safetensors and F16/Q8_0 GGUF: the same model. */
static void test_formats_agree(void **state)
{
    (void)state;
    enum { N = 40 };
    int32_t ids[N];
    ids_for(ids, N, 500, 1);
    pii_model *m32 = load(path("f32"));
    const size_t C = (size_t)pii_model_cfg(m32)->n_labels;
    assert_int_equal(C, 9);
    float *ref = run(m32, ids, N, NULL, 0, NULL, NULL);
    for (size_t i = 0; i < N * C; i++)
        assert_true(isfinite(ref[i]));
    const char *others[] = {"bf16", "f16", "m16.gguf", "m8.gguf"};
    for (int k = 0; k < 4; k++) {
        pii_model *m = load(path(others[k]));
        float *lg = run(m, ids, N, NULL, 0, NULL, NULL);
        double d = maxdiff(ref, lg, N * C);
        if (k < 2 ? d != 0 : d > 1e-4)
            fail_msg("%s differs from f32 by %g", others[k], d);
        free(lg);
        pii_model_free(m);
    }
    free(ref);
    pii_model_free(m32);
}

/* The packed pass of documents lens[0..nd) (ids back to back, on pool or
 * none) against each document run alone: bit for bit.  Returns the packed
 * logits (caller frees). */
static float *packed_equals_alone(const pii_model *m, const int32_t *ids, const size_t *lens,
                                  size_t nd, pii_rt_pool *pool, const char *what)
{
    const size_t C = (size_t)pii_model_cfg(m)->n_labels;
    float *packed = run(m, ids, total_len(lens, nd), lens, nd, pool, NULL);
    size_t off = 0;
    for (size_t d = 0; d < nd; d++) {
        if (lens[d]) {
            float *one = run(m, ids + off, lens[d], NULL, 0, pool, NULL);
            double df = maxdiff(one, packed + off * C, lens[d] * C);
            if (df != 0)
                fail_msg("%s, document %zu: packed differs by %g", what, d, df);
            free(one);
        }
        off += lens[d];
    }
    return packed;
}

/* Packed documents == each document alone; threads change nothing.  The
 * 50-token pass has more than 8 rows per expert (column-chunk tasks, gate
 * and up apart); each document alone has fewer (whole-expert tasks, gate|up
 * as one product, model/forward.c): the two task layouts agree bit for
 * bit. */
static void test_packing_threads(void **state)
{
    (void)state;
    pii_model *m = load(path("bf16"));
    const size_t C = (size_t)pii_model_cfg(m)->n_labels;
    const size_t lens[] = {1, 13, 0, 4, 30, 2};
    const size_t nd = sizeof lens / sizeof lens[0];
    size_t n;
    int32_t *ids = docs_ids(lens, nd, 3, &n);
    float *packed = packed_equals_alone(m, ids, lens, nd, NULL, "bf16");
    for (int nt = 2; nt <= 3; nt++) {
        pii_err e;
        pii_rt_pool *pool = pii_rt_pool_create(nt, &e);
        float *th = run(m, ids, n, lens, nd, pool, NULL);
        assert_true(maxdiff(th, packed, n * C) == 0);
        free(th);
        pii_rt_pool_free(pool);
    }
    /* bad document lengths */
    pii_err e;
    pii_model_ws *ws = pii_model_ws_create(m, n, NULL, &e);
    size_t bad[] = {3, 3};
    assert_int_equal(pii_model_forward(m, ws, ids, n, bad, 2, packed, NULL), PII_EINVAL);
    assert_int_equal(pii_model_forward(m, ws, ids, n + 1, NULL, 0, packed, NULL), PII_ETOOBIG);
    int32_t badid = 500;
    assert_int_equal(pii_model_forward(m, ws, &badid, 1, NULL, 0, packed, NULL), PII_ERANGE);
    pii_model_ws_free(ws);
    free(ids);
    free(packed);
    pii_model_free(m);
}

/* Phases 9 and 10 of a layer (gate, up, SwiGLU; down) run as one sweep over
 * row blocks of each expert when every task is a whole expert, and as two
 * column-split phases otherwise: both give the same bits.  With 8 experts,
 * top 2 and 320-wide experts, a pass of up to 32 tokens has whole-expert
 * tasks (swept), the 50-token pack has two column chunks per expert (not
 * swept); bf16 experts and int8 ones (GGUF Q8_0 repacked: activations
 * quantized once, int16 and int8), one and three threads. */
static void test_expert_sweep(void **state)
{
    (void)state;
    const char *models[] = {"wide", "wide8.gguf", "wide8.gguf"};
    const size_t lens[] = {1, 13, 0, 4, 30, 2};
    const size_t nd = sizeof lens / sizeof lens[0];
    size_t n;
    int32_t *ids = docs_ids(lens, nd, 5, &n);
    for (int k = 0; k < 3; k++) {
        g_qact = k == 2 ? PII_RT_QACT_I8 : PII_RT_QACT_I16;
        pii_model *m = load_p(path(models[k]), 1);
        g_qact = PII_RT_QACT_I16;
        assert_int_equal(pii_model_plan(m)->qact, k == 2 ? PII_RT_QACT_I8 : PII_RT_QACT_I16);
        assert_int_equal(pii_model_cfg(m)->d_expert, 320);
        pii_err e;
        pii_rt_pool *pool = pii_rt_pool_create(3, &e);
        float *dispatched = NULL;
        for (int p = 0; p < 2; p++) {
            float *y = packed_equals_alone(m, ids, lens, nd, p ? pool : NULL, models[k]);
            free(p ? y : dispatched);
            dispatched = p ? dispatched : y;
        }
        /* the scalar path (which quantizes its own way and never reads the
         * row sums) within 1e-4 of the dispatched one: the f32 parts sum
         * in another order */
        set_isa(PII_RT_ISA_SCALAR);
        float *scalar = run(m, ids, n, lens, nd, NULL, NULL);
        set_isa(-1);
        double d = maxdiff(dispatched, scalar, n * (size_t)pii_model_cfg(m)->n_labels);
        if (d > 1e-4)
            fail_msg("%s, activations %d: scalar differs by %g", models[k], k == 2 ? 8 : 16, d);
        free(dispatched);
        free(scalar);
        pii_rt_pool_free(pool);
        pii_model_free(m);
    }
    free(ids);
}

/* pii_model_forward_kept: the kept rows of each document are bit-identical
 * to pii_model_forward's, on every model format (float, int8 GGUF), packed,
 * with and without a thread pool, for kept ranges at the edges, inside, empty
 * and whole; the other rows are finite.  (2 layers, window 5: a row more
 * than 5 tokens outside a range is skipped from layer 1 on, more than 10
 * from layer 0 on.) */
static void test_forward_kept(void **state)
{
    (void)state;
    const char *models[] = {"f32", "bf16", "m8.gguf"};
    const size_t lens[] = {40, 1, 23, 0, 31};
    const size_t klo[] = {11, 0, 0, 0, 20}, khi[] = {29, 1, 9, 0, 31};
    const size_t nd = sizeof lens / sizeof lens[0];
    size_t n;
    int32_t *ids = docs_ids(lens, nd, 11, &n);
    for (size_t mi = 0; mi < 3; mi++) {
        pii_model *m = load(path(models[mi]));
        const size_t C = (size_t)pii_model_cfg(m)->n_labels;
        float *full = run(m, ids, n, lens, nd, NULL, NULL);
        for (int nt = 1; nt <= 3; nt += 2) {
            pii_err e;
            pii_rt_pool *pool = nt > 1 ? pii_rt_pool_create(nt, &e) : NULL;
            pii_model_ws *ws = pii_model_ws_create(m, n, pool, &e);
            assert_non_null(ws);
            float *lg = malloc(n * C * sizeof *lg);
            assert_int_equal(pii_model_forward_kept(m, ws, ids, n, lens, nd, klo, khi, lg, NULL),
                             PII_OK);
            size_t off = 0;
            for (size_t d = 0; d < nd; d++) {
                for (size_t i = 0; i < lens[d]; i++) {
                    const float *a = lg + (off + i) * C, *b = full + (off + i) * C;
                    for (size_t c = 0; c < C; c++)
                        assert_true(isfinite(a[c]));
                    if (i >= klo[d] && i < khi[d] && memcmp(a, b, C * sizeof *a) != 0)
                        fail_msg("%s, %d threads: document %zu row %zu differs", models[mi], nt, d,
                                 i);
                }
                off += lens[d];
            }
            /* NULL ranges: the whole pass */
            assert_int_equal(pii_model_forward_kept(m, ws, ids, n, lens, nd, NULL, NULL, lg, NULL),
                             PII_OK);
            assert_memory_equal(lg, full, n * C * sizeof *lg);
            free(lg);
            pii_model_ws_free(ws);
            pii_rt_pool_free(pool);
        }
        free(full);
        pii_model_free(m);
    }
    free(ids);
}

/* Every ISA against scalar, on HF (IO experts) and GGUF Q8_0 (OI experts),
 * with the expert choices identical. */
static void test_isa_paths(void **state)
{
    (void)state;
    enum { N = 50 };
    int32_t ids[N];
    ids_for(ids, N, 500, 5);
    const char *models[] = {"bf16", "m8.gguf"};
    for (int k = 0; k < 2; k++) {
        pii_model *m = load(path(models[k]));
        const pii_model_config *c = pii_model_cfg(m);
        const size_t C = (size_t)c->n_labels, EK = (size_t)c->n_layers * N * (size_t)c->top_k;
        int32_t *ex0 = malloc(EK * sizeof *ex0), *ex = malloc(EK * sizeof *ex);
        pii_model_trace t0 = {ex0, NULL, NULL, NULL}, t1 = {ex, NULL, NULL, NULL};
        set_isa(PII_RT_ISA_SCALAR);
        float *ref = run(m, ids, N, NULL, 0, NULL, &t0);
        for (int isa = 1; isa <= (int)pii_rt_isa_detect(); isa++) {
            set_isa(isa);
            float *lg = run(m, ids, N, NULL, 0, NULL, &t1);
            double d = maxdiff(ref, lg, N * C);
            if (d > 1e-4)
                fail_msg("%s: %s differs from scalar by %g", models[k],
                         pii_rt_isa_name((pii_rt_isa)isa), d);
            assert_memory_equal(ex0, ex, EK * sizeof *ex);
            free(lg);
        }
        set_isa(-1);
        free(ref);
        free(ex0);
        free(ex);
        pii_model_free(m);
    }
}

/* The compact embedding: row_map[t] = t % 37 over a 37-row table equals a
 * full table whose row t holds the compact row t % 37.  Checked through the
 * hidden state after the embedding and the routing spread. */
static void test_row_map_and_trace(void **state)
{
    (void)state;
    pii_model *m = load(path("compact"));
    const pii_model_config *c = pii_model_cfg(m);
    const size_t D = (size_t)c->d_model, L = (size_t)c->n_layers, K = (size_t)c->top_k;
    int32_t ids[3] = {5, 42, 79}; /* rows 5, 5, 5 */
    float *hid = malloc((L + 1) * 3 * D * sizeof *hid);
    int32_t *ex = malloc(L * 3 * K * sizeof *ex);
    float *w = malloc(L * 3 * K * sizeof *w);
    pii_model_trace tr = {ex, w, NULL, hid};
    float *lg = run(m, ids, 3, NULL, 0, NULL, &tr);
    assert_memory_equal(hid, hid + D, D * sizeof *hid);
    assert_memory_equal(hid, hid + 2 * D, D * sizeof *hid);
    for (size_t i = 0; i < L * 3; i++) {
        float s = 0;
        for (size_t j = 0; j < K; j++)
            s += w[i * K + j];
        assert_true(fabsf(s - 1) < 1e-5f);
        assert_true(w[i * K] >= w[i * K + 1]);
    }
    free(lg);
    free(hid);
    free(ex);
    free(w);
    pii_model_free(m);
    /* routing is spread: over 200 tokens of the bf16 model, every expert
     * is chosen at least once in every layer */
    m = load(path("bf16"));
    c = pii_model_cfg(m);
    enum { N = 200 };
    int32_t id2[N];
    ids_for(id2, N, 500, 11);
    int32_t *e2 = malloc((size_t)c->n_layers * N * (size_t)c->top_k * sizeof *e2);
    pii_model_trace t2 = {e2, NULL, NULL, NULL};
    lg = run(m, id2, N, NULL, 0, NULL, &t2);
    for (int l = 0; l < c->n_layers; l++) {
        int seen[8] = {0};
        for (size_t i = 0; i < N * (size_t)c->top_k; i++)
            seen[e2[(size_t)l * N * (size_t)c->top_k + i]]++;
        for (int e = 0; e < 8; e++)
            assert_true(seen[e] > 0);
    }
    free(e2);
    free(lg);
    pii_model_free(m);
}

static char *slurp(const char *p, size_t *len)
{
    FILE *f = fopen(p, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n);
    assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return b;
}

/* Loading from memory gives the file's logits. */
static void test_load_mem(void **state)
{
    (void)state;
    size_t sl, cl;
    char *st = slurp(path("bf16/model.safetensors"), &sl);
    char *cj = slurp(path("bf16/config.json"), &cl);
    pii_err e;
    char msg[256];
    pii_model *mm = pii_model_load_mem(cj, cl, st, sl, NULL, &e, msg, sizeof msg);
    if (!mm)
        fail_msg("load_mem: %s", msg);
    assert_null(pii_model_dir(mm));
    pii_model *mf = load(path("bf16"));
    int32_t ids[17];
    ids_for(ids, 17, 500, 9);
    float *a = run(mm, ids, 17, NULL, 0, NULL, NULL), *b = run(mf, ids, 17, NULL, 0, NULL, NULL);
    assert_memory_equal(a, b, 17 * 9 * sizeof *a);
    assert_string_equal(pii_model_label(mm, 0), "O");
    assert_string_equal(pii_model_label(mm, 1), "B-category_0");
    assert_null(pii_model_label(mm, 9));
    free(a);
    free(b);
    pii_model_free(mm);
    pii_model_free(mf);
    free(st);
    free(cj);
    pii_model_free(NULL);
    pii_model_ws_free(NULL);
}

/* Q8_0 GGUF experts repacked to int8 at load (the default): Q8_ROW views,
 * logits within the int8 tolerance of the exact Q8_0 run (per-token cosine
 * >= 0.9999), the same from a file and from memory (where nothing is
 * released), and the scalar path within 1e-4 of the dispatched one. */
static void test_gguf_q8_0_repack(void **state)
{
    (void)state;
    enum { N = 40 };
    int32_t ids[N];
    ids_for(ids, N, 500, 4);
    pii_model *mx = load_p(path("m8.gguf"), 0), *mr = load_p(path("m8.gguf"), 1);
    assert_int_equal(pii_model_expert_dtype(mx), PII_DT_Q8_0);
    assert_int_equal(pii_model_expert_dtype(mr), PII_DT_Q8_ROW);
    const size_t C = (size_t)pii_model_cfg(mr)->n_labels;
    float *a = run(mx, ids, N, NULL, 0, NULL, NULL), *b = run(mr, ids, N, NULL, 0, NULL, NULL);
    double worst = 1;
    for (size_t t = 0; t < N; t++) {
        double ab = 0, aa = 0, bb = 0;
        for (size_t j = 0; j < C; j++) {
            ab += (double)a[t * C + j] * b[t * C + j];
            aa += (double)a[t * C + j] * a[t * C + j];
            bb += (double)b[t * C + j] * b[t * C + j];
        }
        double cs = ab / sqrt(aa * bb);
        worst = cs < worst ? cs : worst;
    }
    printf("repacked Q8_0: worst token cosine %.7f\n", worst);
    if (!(worst >= 0.9999))
        fail_msg("repacked Q8_0: worst token cosine %.6f", worst);
    size_t len;
    char *img = slurp(path("m8.gguf"), &len);
    pii_err e;
    char msg[256];
    pii_model *mm = pii_model_load_mem(NULL, 0, img, len, NULL, &e, msg, sizeof msg);
    if (!mm)
        fail_msg("load_mem: %s", msg);
    float *c = run(mm, ids, N, NULL, 0, NULL, NULL);
    assert_memory_equal(b, c, N * C * sizeof *b);
    set_isa(PII_RT_ISA_SCALAR);
    float *s = run(mr, ids, N, NULL, 0, NULL, NULL);
    set_isa(-1);
    double d = maxdiff(b, s, N * C); /* the f32 parts sum in another order */
    if (d > 1e-4)
        fail_msg("repacked Q8_0: scalar differs by %g", d);
    free(a);
    free(b);
    free(c);
    free(s);
    free(img);
    pii_model_free(mx);
    pii_model_free(mr);
    pii_model_free(mm);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_formats_agree), cmocka_unit_test(test_packing_threads),
        cmocka_unit_test(test_isa_paths),     cmocka_unit_test(test_row_map_and_trace),
        cmocka_unit_test(test_load_mem),      cmocka_unit_test(test_gguf_q8_0_repack),
        cmocka_unit_test(test_forward_kept),  cmocka_unit_test(test_expert_sweep),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
