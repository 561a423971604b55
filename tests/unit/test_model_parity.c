/* test_model_parity.c — the encoder against the independent PyTorch
 * reference (tests/fixtures/parity, see its README).  For every case the
 * model is regenerated from its .cfg by the deterministic synth generator
 * (the same bytes `pii-redact mkmodel` wrote when the fixture was made) in
 * F32, BF16 and F16 safetensors and in F16 and Q8_0 GGUF (all hold the same
 * values), and run on every kernel path (scalar forced included) and with
 * two threads.
 *
 * Gate (issue 9): per token row, cosine(ours, reference) >= 0.99999;
 * identical argmax; identical top-k expert sets per token and layer, except
 * where the reference's router margin (k-th minus (k+1)-th logit) is below
 * 1e-4, where f32 rounding may legitimately swap the set (counted and
 * printed; none in the committed fixtures).  The maximum absolute logit
 * difference is printed and must stay below 1e-3. */
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

#define FIX "tests/fixtures/parity/"

static char tmpdir[64];

static void *slurp(const char *p, size_t *len)
{
    FILE *f = fopen(p, "rb");
    if (!f)
        fail_msg("cannot open %s", p);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc(*len + 1);
    assert_int_equal(fread(b, 1, *len, f), *len);
    b[*len] = 0;
    fclose(f);
    return b;
}

typedef struct pcase {
    pii_model_synth syn;
    int tokens;
    int f32_angles; /* "angles f32": stock-HF float32 RoPE angles */
    int32_t *ids;
    float *logits; /* [n][C] */
    uint16_t *exp; /* [L][n][k] ascending */
    float *margin; /* [L][n] */
} pcase;

static void load_case(const char *name, pcase *pc)
{
    char p[256];
    size_t len;
    snprintf(p, sizeof p, FIX "%s.cfg", name);
    char *cfg = slurp(p, &len);
    memset(pc, 0, sizeof *pc);
    pii_model_synth_default(&pc->syn);
    pii_model_config *c = &pc->syn.cfg;
    c->pad_id = -1;
    pc->syn.dtype = PII_DT_F32;
    char *save = NULL;
    for (char *line = strtok_r(cfg, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char key[64];
        unsigned long long v;
        if (!strcmp(line, "angles f32")) {
            pc->f32_angles = 1;
            continue;
        }
        if (line[0] == '#' || !strcmp(line, "angles f64"))
            continue;
        if (sscanf(line, "%63s %llu", key, &v) != 2)
            fail_msg("%s: bad line '%s'", p, line);
        int x = (int)v;
        if (!strcmp(key, "layers"))
            c->n_layers = x;
        else if (!strcmp(key, "d-model"))
            c->d_model = x;
        else if (!strcmp(key, "heads"))
            c->n_heads = x;
        else if (!strcmp(key, "kv-heads"))
            c->n_kv_heads = x;
        else if (!strcmp(key, "head-dim"))
            c->head_dim = x;
        else if (!strcmp(key, "intermediate"))
            c->d_expert = x;
        else if (!strcmp(key, "experts"))
            c->n_experts = x;
        else if (!strcmp(key, "top-k"))
            c->top_k = x;
        else if (!strcmp(key, "vocab"))
            c->vocab_size = x;
        else if (!strcmp(key, "labels"))
            c->n_labels = x;
        else if (!strcmp(key, "window"))
            c->window = x;
        else if (!strcmp(key, "embed-rows"))
            pc->syn.embed_rows = x;
        else if (!strcmp(key, "seed"))
            pc->syn.seed = v;
        else if (!strcmp(key, "tokens"))
            pc->tokens = x;
        else
            fail_msg("%s: unknown key %s", p, key);
    }
    free(cfg);
    const size_t n = (size_t)pc->tokens, C = (size_t)c->n_labels;
    const size_t LK = (size_t)c->n_layers * n * (size_t)c->top_k;
    snprintf(p, sizeof p, FIX "%s.ids", name);
    char *ids = slurp(p, &len);
    pc->ids = malloc(n * sizeof *pc->ids);
    char *s = ids;
    for (size_t i = 0; i < n; i++)
        pc->ids[i] = (int32_t)strtol(s, &s, 10);
    free(ids);
    snprintf(p, sizeof p, FIX "%s.logits.f32", name);
    pc->logits = slurp(p, &len);
    assert_int_equal(len, n * C * 4);
    snprintf(p, sizeof p, FIX "%s.experts.u16", name);
    pc->exp = slurp(p, &len);
    assert_int_equal(len, LK * 2);
    snprintf(p, sizeof p, FIX "%s.margin.f32", name);
    pc->margin = slurp(p, &len);
    assert_int_equal(len, (size_t)c->n_layers * n * 4);
}

static void free_case(pcase *pc)
{
    free(pc->ids);
    free(pc->logits);
    free(pc->exp);
    free(pc->margin);
}

/* Compares one run; returns the max abs difference. */
static double compare(const char *what, const pcase *pc, const float *lg, const int32_t *ex)
{
    const pii_model_config *c = &pc->syn.cfg;
    const size_t n = (size_t)pc->tokens, C = (size_t)c->n_labels, K = (size_t)c->top_k;
    double maxd = 0, mincos = 1;
    for (size_t t = 0; t < n; t++) {
        const float *a = lg + t * C, *b = pc->logits + t * C;
        double ab = 0, aa = 0, bb = 0;
        size_t am = 0, bm = 0;
        for (size_t j = 0; j < C; j++) {
            ab += (double)a[j] * b[j];
            aa += (double)a[j] * a[j];
            bb += (double)b[j] * b[j];
            double d = fabs((double)a[j] - b[j]);
            maxd = d > maxd || isnan(d) ? d : maxd;
            am = a[j] > a[am] ? j : am;
            bm = b[j] > b[bm] ? j : bm;
        }
        double cs = ab / sqrt(aa * bb);
        mincos = cs < mincos ? cs : mincos;
        if (!(cs >= 0.99999))
            fail_msg("%s: token %zu cosine %.9f", what, t, cs);
        if (am != bm)
            fail_msg("%s: token %zu argmax %zu vs reference %zu", what, t, am, bm);
    }
    size_t fragile = 0;
    for (size_t l = 0; l < (size_t)c->n_layers; l++)
        for (size_t t = 0; t < n; t++) {
            int32_t s[64];
            memcpy(s, ex + (l * n + t) * K, K * sizeof *s);
            for (size_t a = 1; a < K; a++)
                for (size_t b = a; b > 0 && s[b] < s[b - 1]; b--) {
                    int32_t tmp = s[b];
                    s[b] = s[b - 1];
                    s[b - 1] = tmp;
                }
            const uint16_t *r = pc->exp + (l * n + t) * K;
            int same = 1;
            for (size_t a = 0; a < K; a++)
                same &= s[a] == r[a];
            if (!same) {
                if (pc->margin[l * n + t] < 1e-4f) {
                    fragile++;
                    continue;
                }
                fail_msg("%s: layer %zu token %zu: expert set differs (margin %g)", what, l, t,
                         (double)pc->margin[l * n + t]);
            }
        }
    if (maxd > 1e-3)
        fail_msg("%s: max abs diff %g", what, maxd);
    printf("  %-28s max|diff| %.3g  min cosine %.9f  fragile sets %zu\n", what, maxd, mincos,
           fragile);
    return maxd;
}

static void run_case(const char *name)
{
    pcase pc;
    load_case(name, &pc);
    const pii_model_config *c = &pc.syn.cfg;
    const size_t n = (size_t)pc.tokens, C = (size_t)c->n_labels;
    const size_t LK = (size_t)c->n_layers * n * (size_t)c->top_k;
    char msg[256], path[256];
    const struct {
        const char *tag;
        pii_dtype dt;
        int gguf;
    } fmts[] = {{"f32", PII_DT_F32, 0},
                {"bf16", PII_DT_BF16, 0},
                {"f16", PII_DT_F16, 0},
                {"gguf-f16", PII_DT_F16, 1},
                {"gguf-q8_0", PII_DT_Q8_0, 1}};
    float *lg = malloc(n * C * sizeof *lg);
    int32_t *ex = malloc(LK * sizeof *ex);
    printf("%s: %zu tokens, %d layers, d_model %d, %d experts top-%d, %d labels%s%s\n", name, n,
           c->n_layers, c->d_model, c->n_experts, c->top_k, c->n_labels,
           pc.syn.embed_rows ? ", compact embedding" : "", pc.f32_angles ? ", f32 angles" : "");
    pii_model_params prm;
    pii_model_default_params(&prm);
    prm.rope_f32_angles = pc.f32_angles;
    for (size_t f = 0; f < sizeof fmts / sizeof fmts[0]; f++) {
        pii_model_synth s = pc.syn;
        pii_err e;
        if (fmts[f].gguf && s.embed_rows)
            continue; /* GGUF has no compact-embedding form */
        if (fmts[f].gguf) {
            s.gguf_experts = fmts[f].dt;
            snprintf(path, sizeof path, "%s/%s-%s.gguf", tmpdir, name, fmts[f].tag);
            e = pii_model_synth_write_gguf(&s, path, msg, sizeof msg);
        } else {
            s.dtype = fmts[f].dt;
            snprintf(path, sizeof path, "%s/%s-%s", tmpdir, name, fmts[f].tag);
            e = pii_model_synth_write_hf(&s, path, msg, sizeof msg);
        }
        if (e)
            fail_msg("synth %s: %s", path, msg);
        prm.gguf_q8_0_exact = 1; /* the stored values, not the int8 repack */
        pii_model *m = pii_model_load(path, &prm, &e, msg, sizeof msg);
        if (!m)
            fail_msg("load %s: %s", path, msg);
        for (int isa = 0; isa <= (int)pii_rt_isa_detect() + 1; isa++) {
            int threads = isa > (int)pii_rt_isa_detect(); /* last round: best ISA, 2 threads */
            pii_rt_plan pl;
            assert_int_equal(pii_rt_plan_init(&pl, threads ? -1 : isa, PII_RT_QACT_I16), PII_OK);
            pii_rt_pool *pool = threads ? pii_rt_pool_create(2, &e) : NULL;
            pii_model_ws *ws = pii_model_ws_create(m, n, pool, &e);
            assert_non_null(ws);
            pii_model_ws_set_plan(ws, &pl);
            pii_model_trace tr = {ex, NULL, NULL, NULL};
            assert_int_equal(pii_model_forward(m, ws, pc.ids, n, NULL, 0, lg, &tr), PII_OK);
            char what[64];
            snprintf(what, sizeof what, "%s %s%s", fmts[f].tag,
                     pii_rt_isa_name(pii_model_ws_plan(ws)->isa), threads ? " x2" : "");
            compare(what, &pc, lg, ex);
            pii_model_ws_free(ws);
            pii_rt_pool_free(pool);
        }
        pii_model_free(m);
    }
    free(lg);
    free(ex);
    free_case(&pc);
}

static void test_tiny(void **state)
{
    (void)state;
    run_case("tiny");
}

static void test_wide(void **state)
{
    (void)state;
    run_case("wide");
}

static void test_long(void **state)
{
    (void)state;
    run_case("long");
}

static void test_compact(void **state)
{
    (void)state;
    run_case("compact");
}

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/pii_parity_XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tiny),
        cmocka_unit_test(test_wide),
        cmocka_unit_test(test_long),
        cmocka_unit_test(test_compact),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
