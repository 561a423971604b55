/* test_fault_stream.c — fail closed, proven by injecting every failure.
 *
 * The redaction pipeline (rule tier, deny-like synthetic detectors, the
 * model detector on a tiny random model, the stream engine, a sink) runs on
 * a text full of distinctive PII.  A clean run gives the reference output.
 * Then, for every N, the N-th allocation / detector scan / forward pass /
 * sink write / span callback is made to fail (once, and from N on), and the
 * run must either
 *   - fail with the injected error, having written a prefix of the
 *     reference output (never a byte that was not scanned), with every
 *     later call on the stream failing too, and no leak (ASan/valgrind), or
 *   - succeed (a failure that the code recovers from) with exactly the
 *     reference output.
 * This binary is linked with the allocation wrap flags (mk/fuzz.mk), so
 * PII_FAULT_ALLOC reaches every malloc/calloc/realloc/strdup of the
 * library. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "pii_fault.h"
#include "pii_model.h"
#include "pii_ner.h"
#include "pii_redact.h"
#include "pii_tok.h"
#include "pii_model_synth.h"

/* ---- the text ------------------------------------------------------------- */

static const char text[] =
    "From: Zorblax Wimbleton <zorblax.wimbleton@example.org>\n"
    "Call +1 415-555-0199 or 030 98765432; card 4111 1111 1111 1111.\n"
    "IBAN DE89 3704 0044 0532 0130 00, key AKIAQUUXWIMBLETON7Z2\n"
    "caf\xc3\xa9 \xff\xfe broken \xe2\x82 utf-8, digits 123456 and k3y9 tokens\n"
    "password=Xq9!vTr0ub4dor&Zorblax see https://www.zorblax-example.com/x?id=42 on 2024-02-29\n";

/* ---- synthetic detectors -------------------------------------------------- */

typedef struct syn {
    int kind; /* 0: digit runs >= 3, 1: alnum runs with a letter and a digit */
    uint64_t pos;
} syn;

static const int kind0 = 0, kind1 = 1;

static void *syn_open(const void *shared, pii_err *err)
{
    syn *s = calloc(1, sizeof *s);
    *err = s ? PII_OK : PII_ENOMEM;
    if (s)
        s->kind = *(const int *)shared;
    return s;
}

static void syn_reset(void *st)
{
    ((syn *)st)->pos = 0;
}

static int is_digit(uint8_t c)
{
    return c >= '0' && c <= '9';
}

static int is_alnum(uint8_t c)
{
    return is_digit(c) || ((c | 32) >= 'a' && (c | 32) <= 'z');
}

static pii_err syn_scan(void *st, const uint8_t *buf, size_t len, uint64_t base, int eod,
                        pii_spanvec *out, uint64_t *done, uint64_t *keep)
{
    syn *s = st;
    int (*in)(uint8_t) = s->kind ? is_alnum : is_digit;
    uint64_t end = base + len, i = s->pos;
    while (i < end) {
        if (!in(buf[i - base])) {
            i++;
            continue;
        }
        uint64_t j = i;
        int letters = 0, digits = 0;
        while (j < end && in(buf[j - base])) {
            digits += is_digit(buf[j - base]);
            letters += !is_digit(buf[j - base]);
            j++;
        }
        if (j == end && !eod)
            break;
        if (s->kind ? letters && digits : j - i >= 3) {
            pii_span sp = {i, j, s->kind ? "secret" : "private_phone", "syn", 1.0f, PII_SRC_RULE};
            pii_err e = pii_spanvec_push(out, &sp);
            if (e)
                return e;
        }
        i = j;
    }
    s->pos = i;
    *done = *keep = i;
    return PII_OK;
}

static const pii_detector_class syn_cls = {"syn", syn_open, syn_scan, syn_reset, free, NULL};

/* ---- the model detector on a tiny random model ------------------------------- */

typedef struct tb {
    pii_model *m;
    const char **labels;
    size_t nlabels;
} tb;

typedef struct tb_ctx {
    pii_model_ws *ws;
    pii_tok_enc *enc;
    pii_tok_buf buf;
} tb_ctx;

static void tb_ctx_free(void *ud, void *c)
{
    (void)ud;
    tb_ctx *x = c;
    if (!x)
        return;
    pii_model_ws_free(x->ws);
    pii_tok_enc_free(x->enc);
    pii_tok_buf_free(&x->buf);
    free(x);
}

static void *tb_ctx_create(void *ud, pii_err *err)
{
    tb *b = ud;
    tb_ctx *x = calloc(1, sizeof *x);
    if (!x) {
        *err = PII_ENOMEM;
        return NULL;
    }
    x->enc = pii_tok_enc_create(pii_tok_o200k());
    x->ws = pii_model_ws_create(b->m, 64, NULL, err);
    if (!x->enc || !x->ws) {
        if (!x->enc)
            *err = PII_ENOMEM;
        tb_ctx_free(ud, x);
        return NULL;
    }
    return x;
}

static pii_err tb_tokenize(void *ud, void *c, const uint8_t *t, size_t len, int last,
                           pii_ner_toks *out, size_t *consumed)
{
    tb *b = ud;
    tb_ctx *x = c;
    x->buf.n = 0;
    size_t used = len;
    pii_err e = pii_tok_encode_stream(x->enc, t, len, last, &x->buf, &used);
    if (e)
        return e;
    int vocab = pii_model_cfg(b->m)->vocab_size;
    for (size_t i = 0; i < x->buf.n; i++)
        if ((e = pii_ner_toks_push(out, x->buf.ids[i] % vocab, x->buf.offs[i].end)))
            return e;
    if (consumed)
        *consumed = used;
    return PII_OK;
}

static pii_err tb_forward(void *ud, void *c, const int32_t *ids, const size_t *lens, size_t nseq,
                          float *logits)
{
    tb *b = ud;
    tb_ctx *x = c;
    size_t n = 0;
    for (size_t i = 0; i < nseq; i++)
        n += lens[i];
    return pii_model_forward(b->m, x->ws, ids, n, lens, nseq, logits, NULL);
}

static tb g_tb;
static pii_ner *g_ner;
static pii_rules *g_rules;
static char g_dir[64];

static int setup(void **state)
{
    (void)state;
    pii_err e;
    char msg[256];
    g_rules = pii_rules_create(&e);
    if (!g_rules)
        return -1;
    snprintf(g_dir, sizeof g_dir, "/tmp/pii-fault.XXXXXX");
    if (!mkdtemp(g_dir))
        return -1;
    pii_model_synth s;
    pii_model_synth_default(&s);
    pii_model_config *c = &s.cfg;
    c->vocab_size = 64;
    c->d_model = 16;
    c->n_layers = 1;
    c->n_heads = 2;
    c->n_kv_heads = 1;
    c->head_dim = 8;
    c->d_expert = 8;
    c->n_experts = 4;
    c->top_k = 2;
    c->window = 3;
    c->n_labels = 33;
    c->pad_id = -1;
    s.seed = 11;
    s.dtype = PII_DT_F32;
    if (pii_model_synth_write_hf(&s, g_dir, msg, sizeof msg))
        return -1;
    g_tb.m = pii_model_load(g_dir, NULL, &e, msg, sizeof msg);
    if (!g_tb.m)
        return -1;
    g_tb.nlabels = (size_t)pii_model_cfg(g_tb.m)->n_labels;
    g_tb.labels = calloc(g_tb.nlabels, sizeof *g_tb.labels);
    for (size_t i = 0; i < g_tb.nlabels; i++)
        g_tb.labels[i] = pii_model_label(g_tb.m, (int)i);
    pii_ner_backend be = {&g_tb,         g_tb.labels, g_tb.nlabels, 3,          NULL,
                          tb_ctx_create, tb_ctx_free, tb_tokenize,  tb_forward, 1};
    pii_ner_params p = pii_ner_default_params();
    p.window = 16;
    p.max_lag = 8;
    g_ner = pii_ner_create_backend(&be, &p, &e, msg, sizeof msg);
    if (!g_ner) {
        fprintf(stderr, "ner: %s\n", msg);
        return -1;
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    pii_ner_free(g_ner);
    free(g_tb.labels);
    pii_model_free(g_tb.m);
    pii_rules_free(g_rules);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* ---- a sink that never allocates ----------------------------------------------- */

typedef struct cap {
    char out[8192];
    size_t n;
    size_t writes, spans;
    size_t fail_write, fail_span; /* n-th call fails (0: never) */
} cap;

static pii_err cap_write(void *ud, const uint8_t *p, size_t n)
{
    cap *c = ud;
    if (c->fail_write && ++c->writes == c->fail_write)
        return PII_EWRITE;
    assert_true(c->n + n <= sizeof c->out);
    memcpy(c->out + c->n, p, n);
    c->n += n;
    return PII_OK;
}

static pii_err cap_span(void *ud, const pii_span *s, const uint8_t *v, size_t len, uint64_t c0,
                        uint64_t c1)
{
    cap *c = ud;
    (void)s, (void)v, (void)len, (void)c0, (void)c1;
    if (c->fail_span && ++c->spans == c->fail_span)
        return PII_EIO;
    return PII_OK;
}

/* ---- one run ------------------------------------------------------------------ */

enum { WITH_RULES = 1, WITH_SYN = 2, WITH_MODEL = 4, LINES = 8 };

/* Builds a redactor and a stream, feeds the text in `chunk`-byte pieces
 * (a document per line with LINES), frees everything.  Returns the first
 * error; after an error, checks that the stream stays failed. */
static pii_err run(int what, size_t chunk, cap *c)
{
    pii_err e = PII_OK, e2;
    pii_stream *st = NULL;
    pii_redactor *r = pii_redactor_create(&e);
    if (!r)
        return e;
    pii_detector d0 = {&syn_cls, &kind0}, d1 = {&syn_cls, &kind1};
    if ((what & WITH_RULES) && (e = pii_redactor_add_detector(r, pii_rules_detector(g_rules))))
        goto out;
    if ((what & WITH_SYN) &&
        ((e = pii_redactor_add_detector(r, d0)) || (e = pii_redactor_add_detector(r, d1))))
        goto out;
    if ((what & WITH_MODEL) && (e = pii_redactor_add_detector(r, pii_ner_detector(g_ner))))
        goto out;
    const char *ex[] = {"private_date"};
    if ((e = pii_redactor_select_labels(r, ex, 1, 1)))
        goto out;
    pii_sink sink = {cap_write, cap_span, NULL, c};
    if (!(st = pii_stream_create(r, &sink, &e)))
        goto out;
    size_t len = sizeof text - 1, off = 0;
    while (off < len && !e) {
        size_t n = len - off < chunk ? len - off : chunk;
        const char *p = text + off, *nl;
        while (n && !e) {
            size_t k = n;
            if ((what & LINES) && (nl = memchr(p, '\n', n)))
                k = (size_t)(nl - p) + 1;
            e = pii_stream_feed(st, p, k);
            if (!e && (what & LINES) && p[k - 1] == '\n')
                e = pii_stream_end_doc(st);
            p += k;
            n -= k;
            off += k;
        }
    }
    if (!e && !(what & LINES))
        e = pii_stream_end_doc(st);
    if (e) {
        /* sticky: nothing more is accepted or written */
        size_t before = c->n;
        e2 = pii_stream_feed(st, "x", 1);
        assert_int_equal(e2, e);
        assert_int_equal(pii_stream_end_doc(st), e);
        assert_int_equal(c->n, before);
    }
out:
    pii_stream_free(st);
    pii_redactor_free(r);
    return e;
}

static void reference(int what, cap *ref)
{
    memset(ref, 0, sizeof *ref);
    pii_fault_reset();
    assert_int_equal(run(what, 1 << 20, ref), PII_OK);
    assert_true(ref->n > 0);
}

static void assert_prefix(const cap *got, const cap *ref)
{
    assert_true(got->n <= ref->n);
    assert_memory_equal(got->out, ref->out, got->n);
}

/* Walks every injection point of `site` for one configuration. */
static void sweep(pii_fault_site site, int what, size_t chunk, pii_err expect, int sticky)
{
    cap ref, got;
    reference(what, &ref);
    /* the clean run must not depend on the chunking */
    memset(&got, 0, sizeof got);
    pii_fault_count_all();
    assert_int_equal(run(what, chunk, &got), PII_OK);
    uint64_t total = pii_fault_count(site);
    pii_fault_reset();
    assert_int_equal(got.n, ref.n);
    assert_memory_equal(got.out, ref.out, ref.n);
    assert_true(total > 0);
    size_t failed = 0;
    for (uint64_t n = 1; n <= total; n++) {
        memset(&got, 0, sizeof got);
        pii_fault_set(site, n, sticky);
        pii_err e = run(what, chunk, &got);
        pii_fault_reset();
        if (e == PII_OK) {
            assert_int_equal(got.n, ref.n);
            assert_memory_equal(got.out, ref.out, ref.n);
        } else {
            if (e != expect)
                fail_msg("%s fault %llu/%llu: error %s, expected %s", pii_fault_site_name(site),
                         (unsigned long long)n, (unsigned long long)total, pii_errname(e),
                         pii_errname(expect));
            assert_prefix(&got, &ref);
            failed++;
        }
    }
    print_message("%s%s sweep (what %d, chunk %zu): %llu points, %zu failed closed\n",
                  pii_fault_site_name(site), sticky ? "+" : "", what, chunk,
                  (unsigned long long)total, failed);
    /* injection points must surface as errors (none silently lost) */
    assert_true(failed > 0);
}

/* ---- tests --------------------------------------------------------------------- */

static void test_hook(void **state)
{
    (void)state;
    pii_fault_reset();
    assert_int_equal(pii_fault_hit(PII_FAULT_SCAN), 0);
    assert_int_equal(pii_fault_count(PII_FAULT_SCAN), 0); /* not counting */
    pii_fault_set(PII_FAULT_SCAN, 2, 0);
    assert_int_equal(pii_fault_hit(PII_FAULT_SCAN), 0);
    assert_int_equal(pii_fault_hit(PII_FAULT_SCAN), 1);
    assert_int_equal(pii_fault_hit(PII_FAULT_SCAN), 0);
    assert_int_equal(pii_fault_count(PII_FAULT_SCAN), 3);
    pii_fault_set(PII_FAULT_WRITE, 1, 1);
    assert_int_equal(pii_fault_hit(PII_FAULT_WRITE), 1);
    assert_int_equal(pii_fault_hit(PII_FAULT_WRITE), 1);
    pii_fault_reset();

    /* allocations go through the wrappers in this binary */
    pii_fault_set(PII_FAULT_ALLOC, 1, 0);
    void *p = malloc(16);
    void *q = malloc(16);
    pii_fault_reset();
    assert_null(p);
    assert_non_null(q);
    free(q);
    pii_fault_set(PII_FAULT_ALLOC, 2, 1);
    char *a = strdup("a"), *b = strdup("b");
    void *c = calloc(1, 8), *d = realloc(NULL, 8);
    pii_fault_reset();
    assert_non_null(a);
    assert_null(b);
    assert_null(c);
    assert_null(d);
    free(a);

    assert_int_equal(pii_fault_parse("alloc:3,write:2+,count"), PII_OK);
    assert_int_equal(pii_fault_hit(PII_FAULT_WRITE), 0);
    assert_int_equal(pii_fault_hit(PII_FAULT_WRITE), 1);
    assert_int_equal(pii_fault_hit(PII_FAULT_WRITE), 1);
    assert_int_equal(pii_fault_hit(PII_FAULT_READ), 0);
    assert_int_equal(pii_fault_count(PII_FAULT_READ), 1);
    pii_fault_reset();
    static const char *const bad[] = {
        "alloc", "alloc:", "alloc:0", "alloc:x", "nope:1", "alloc:1x", "alloc:99999999999999999999",
        ",",     "count,"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(pii_fault_parse(bad[i]), PII_EINVAL);
    assert_int_equal(pii_fault_parse(NULL), PII_OK);
    assert_int_equal(pii_fault_parse(""), PII_OK);
    assert_int_equal(pii_fault_hit(PII_FAULT_ALLOC), 0);
}

static void test_alloc_rules_and_engine(void **state)
{
    (void)state;
    sweep(PII_FAULT_ALLOC, WITH_RULES | WITH_SYN, 7, PII_ENOMEM, 0);
    sweep(PII_FAULT_ALLOC, WITH_RULES | WITH_SYN | LINES, 64, PII_ENOMEM, 1);
}

static void test_alloc_model(void **state)
{
    (void)state;
    sweep(PII_FAULT_ALLOC, WITH_MODEL, 33, PII_ENOMEM, 0);
    sweep(PII_FAULT_ALLOC, WITH_MODEL | WITH_RULES | LINES, 4096, PII_ENOMEM, 1);
}

static void test_failing_detector_scan(void **state)
{
    (void)state;
    sweep(PII_FAULT_SCAN, WITH_RULES | WITH_SYN, 5, PII_EINJECTED, 0);
    sweep(PII_FAULT_SCAN, WITH_RULES | WITH_SYN | WITH_MODEL | LINES, 40, PII_EINJECTED, 1);
}

static void test_failing_forward(void **state)
{
    (void)state;
    sweep(PII_FAULT_FORWARD, WITH_MODEL | WITH_RULES, 1, PII_EINJECTED, 0);
    sweep(PII_FAULT_FORWARD, WITH_MODEL | LINES, 100, PII_EINJECTED, 1);
}

/* Sinks: the n-th write or span callback fails. */
static void test_failing_sink(void **state)
{
    (void)state;
    static const int what[] = {WITH_RULES | WITH_SYN, WITH_RULES | WITH_MODEL | LINES};
    for (size_t w = 0; w < 2; w++) {
        cap ref, got;
        reference(what[w], &ref);
        memset(&got, 0, sizeof got);
        assert_int_equal(run(what[w], 3, &got), PII_OK);
        size_t writes = got.writes, spans = got.spans;
        (void)writes;
        /* count calls: run with counting sinks */
        memset(&got, 0, sizeof got);
        got.fail_write = (size_t)-1;
        got.fail_span = (size_t)-1;
        assert_int_equal(run(what[w], 3, &got), PII_OK);
        writes = got.writes;
        spans = got.spans;
        assert_true(writes > 3 && spans > 3);
        for (size_t n = 1; n <= writes; n++) {
            memset(&got, 0, sizeof got);
            got.fail_write = n;
            assert_int_equal(run(what[w], 3, &got), PII_EWRITE);
            assert_prefix(&got, &ref);
        }
        for (size_t n = 1; n <= spans; n++) {
            memset(&got, 0, sizeof got);
            got.fail_span = n;
            assert_int_equal(run(what[w], 3, &got), PII_EIO);
            assert_prefix(&got, &ref);
        }
    }
}

/* A detector that cannot open makes stream creation fail cleanly. */
static void *bad_open(const void *shared, pii_err *err)
{
    (void)shared;
    *err = PII_EMODEL;
    return NULL;
}

static void test_detector_open_fails(void **state)
{
    (void)state;
    static const pii_detector_class bad = {"bad", bad_open, syn_scan, NULL, free, NULL};
    pii_err e;
    pii_redactor *r = pii_redactor_create(&e);
    pii_detector d0 = {&syn_cls, &kind0}, d1 = {&bad, NULL};
    assert_int_equal(pii_redactor_add_detector(r, d0), PII_OK);
    assert_int_equal(pii_redactor_add_detector(r, d1), PII_OK);
    cap c;
    memset(&c, 0, sizeof c);
    pii_sink sink = {cap_write, NULL, NULL, &c};
    assert_null(pii_stream_create(r, &sink, &e));
    assert_int_equal(e, PII_EMODEL);
    pii_redactor_free(r);
}

/* Construction under allocation failure: every object either builds or
 * fails with PII_ENOMEM, never crashes or leaks. */
static void test_alloc_construction(void **state)
{
    (void)state;
    for (int obj = 0; obj < 4; obj++) {
        uint64_t total = 0;
        for (uint64_t n = 1;; n++) {
            pii_err e = PII_OK;
            char msg[256];
            pii_fault_set(PII_FAULT_ALLOC, n, 0);
            void *o = NULL;
            switch (obj) {
            case 0:
                o = pii_rules_create(&e);
                pii_rules_free(o);
                break;
            case 1:
                o = pii_model_load(g_dir, NULL, &e, msg, sizeof msg);
                pii_model_free(o);
                break;
            case 2:
                o = pii_tok_enc_create(pii_tok_o200k());
                e = o ? PII_OK : PII_ENOMEM;
                pii_tok_enc_free(o);
                break;
            case 3: {
                pii_ner_backend be = {&g_tb,         g_tb.labels, g_tb.nlabels, 3,          NULL,
                                      tb_ctx_create, tb_ctx_free, tb_tokenize,  tb_forward, 1};
                pii_ner_params p = pii_ner_default_params();
                p.window = 16;
                o = pii_ner_create_backend(&be, &p, &e, msg, sizeof msg);
                pii_ner_free(o);
                break;
            }
            }
            total = pii_fault_count(PII_FAULT_ALLOC);
            pii_fault_reset();
            if (o) {
                if (total < n) /* the fault was never reached: done */
                    break;
            } else {
                if (e != PII_ENOMEM)
                    fail_msg("object %d, allocation %llu: %s", obj, (unsigned long long)n,
                             pii_errname(e));
            }
            assert_true(n < 100000);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hook),
        cmocka_unit_test(test_alloc_rules_and_engine),
        cmocka_unit_test(test_alloc_model),
        cmocka_unit_test(test_failing_detector_scan),
        cmocka_unit_test(test_failing_forward),
        cmocka_unit_test(test_failing_sink),
        cmocka_unit_test(test_detector_open_fails),
        cmocka_unit_test(test_alloc_construction),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
