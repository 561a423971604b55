/* test_fault_limits.c — hostile sizes are refused before anything sized by
 * them is allocated.
 *
 * The allocation wrappers (mk/fuzz.mk FAULT_WRAP) record the largest single
 * request while counting (pii_fault_max_alloc).  For every weight file and
 * config.json of the fuzz corpora (tests/fuzz/safetensors, gguf, config),
 * opening it must never request more than a small multiple of the file's
 * own size; the hand-made headers that claim terabytes (huge header length,
 * tensor offsets, counts, strings, arrays, dimensions) must be refused with
 * a format/size error, never PII_ENOMEM.  The record reader and the stream
 * engine stop at their documented limits with bounded buffers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <dirent.h>

#include "pii_fault.h"
#include "pii_model.h"
#include "pii_records.h"
#include "pii_redact.h"
#include "pii_rt.h"

#define MIB (1024u * 1024u)

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    long n = ftell(f);
    assert_true(n >= 0);
    rewind(f);
    uint8_t *b = malloc((size_t)n + 1);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return b;
}

/* Allocation bound for opening an image of `len` bytes: tables proportional
 * to what the file holds, never to what it claims. */
static uint64_t bound(size_t len)
{
    uint64_t b = 16 * (uint64_t)len;
    return b > MIB ? b : MIB;
}

static const char tiny_config[] =
    "{\"vocab_size\":12,\"hidden_size\":8,\"num_hidden_layers\":1,\"num_attention_heads\":2,"
    "\"num_key_value_heads\":1,\"head_dim\":4,\"intermediate_size\":4,\"num_local_experts\":3,"
    "\"num_experts_per_tok\":2,\"sliding_window\":2,\"id2label\":{\"0\":\"O\",\"1\":\"B-c\","
    "\"2\":\"I-c\",\"3\":\"E-c\",\"4\":\"S-c\"}}";

typedef void (*open_fn)(const uint8_t *p, size_t n, pii_err *store_err, pii_err *model_err);

static void open_image(const uint8_t *p, size_t n, pii_err *se, pii_err *me)
{
    char err[256];
    pii_rt_store *st = NULL;
    *se = pii_rt_store_open_mem(p, n, "<test>", &st, err, sizeof err);
    pii_rt_store_free(st);
    pii_model *m =
        pii_model_load_mem(tiny_config, sizeof tiny_config - 1, p, n, NULL, me, err, sizeof err);
    pii_model_free(m);
}

static uint8_t *g_tiny_st;
static size_t g_tiny_len;

static void open_config(const uint8_t *p, size_t n, pii_err *se, pii_err *me)
{
    char err[256];
    *se = PII_OK;
    pii_model *m =
        pii_model_load_mem((const char *)p, n, g_tiny_st, g_tiny_len, NULL, me, err, sizeof err);
    pii_model_free(m);
}

/* Opens every file of a corpus folder; returns how many were refused. */
static size_t corpus(const char *dir, open_fn fn, const char *const *must_refuse)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    size_t files = 0, refused = 0;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t n;
        uint8_t *p = slurp(path, &n);
        pii_err se, me;
        pii_fault_reset();
        pii_fault_count_all();
        fn(p, n, &se, &me);
        uint64_t max = pii_fault_max_alloc();
        pii_fault_reset();
        if (max > bound(n))
            fail_msg("%s (%zu bytes): an allocation of %llu bytes", path, n,
                     (unsigned long long)max);
        if (se == PII_ENOMEM || me == PII_ENOMEM)
            fail_msg("%s: out of memory instead of a format error", path);
        for (const char *const *m = must_refuse; *m; m++)
            if (strcmp(*m, e->d_name) == 0) {
                if (se == PII_OK && me == PII_OK)
                    fail_msg("%s: hostile file accepted", path);
                refused++;
            }
        free(p);
        files++;
    }
    closedir(d);
    assert_true(files > 0);
    return refused;
}

static void test_safetensors(void **state)
{
    (void)state;
    static const char *const hostile[] = {"huge-header-len", "header-past-eof", "tb-offsets",
                                          "shape-overflow",  "negative-shape",  "size-mismatch",
                                          "bad-dtype",       "five-dims",       NULL};
    assert_int_equal(corpus("tests/fuzz/safetensors", open_image, hostile), 8);
}

static void test_gguf(void **state)
{
    (void)state;
    static const char *const hostile[] = {
        "huge-counts", "huge-string",     "huge-array", "tb-tensor", "dims-overflow",
        "bad-align",   "offset-past-eof", "v1",         NULL};
    assert_int_equal(corpus("tests/fuzz/gguf", open_image, hostile), 8);
}

static void test_config(void **state)
{
    (void)state;
    size_t n;
    g_tiny_st = slurp("tests/fuzz/safetensors/synth-f32.safetensors", &n);
    g_tiny_len = n;
    static const char *const hostile[] = {"huge-vocab.json",
                                          "huge-dims.json",
                                          "negative.json",
                                          "labels-huge-id.json",
                                          "kv-not-divisor.json",
                                          "deep.json",
                                          NULL};
    assert_int_equal(corpus("tests/fuzz/config", open_config, hostile), 6);
    free(g_tiny_st);
}

static pii_err drop(void *ud, const uint8_t *p, size_t n)
{
    (void)ud, (void)p, (void)n;
    return PII_OK;
}

/* A JSON Lines record larger than PII_REC_MAX_RECORD is refused with
 * PII_ETOOBIG after buffering at most the limit; nothing of it is written. */
static void test_record_limit(void **state)
{
    (void)state;
    pii_err e;
    pii_rec_spec *spec = pii_rec_spec_create(PII_REC_JSONL, &e);
    assert_int_equal(pii_rec_spec_add(spec, "message"), PII_OK);
    pii_redactor *r = pii_redactor_create(&e);
    size_t written = 0;
    pii_sink sink = {drop, NULL, NULL, &written};
    pii_rec_stream *rs = pii_rec_stream_create(spec, r, NULL, &sink, &e);
    assert_non_null(rs);
    static char chunk[1 << 16];
    memset(chunk, 'a', sizeof chunk);
    pii_fault_count_all();
    e = pii_rec_stream_feed(rs, "{\"message\":\"", 12);
    size_t fed = 12;
    while (!e && fed < 3 * (size_t)PII_REC_MAX_RECORD) {
        e = pii_rec_stream_feed(rs, chunk, sizeof chunk);
        fed += sizeof chunk;
    }
    uint64_t max = pii_fault_max_alloc();
    pii_fault_reset();
    assert_int_equal(e, PII_ETOOBIG);
    assert_true(fed <= (size_t)PII_REC_MAX_RECORD + 2 * sizeof chunk);
    assert_true(max <= 2 * (uint64_t)PII_REC_MAX_RECORD);
    assert_int_equal(pii_rec_stream_record(rs), 1);
    pii_rec_stream_free(rs);
    pii_redactor_free(r);
    pii_rec_spec_free(spec);
}

/* A detector that never decides anything makes the stream hold its input:
 * the stream fails closed at its hold limit instead of growing. */
static void *open_lazy(const void *shared, pii_err *err)
{
    (void)shared;
    *err = PII_OK;
    return malloc(1);
}

static pii_err scan_lazy(void *st, const uint8_t *buf, size_t len, uint64_t base, int eod,
                         pii_spanvec *out, uint64_t *done, uint64_t *keep)
{
    (void)st, (void)buf, (void)out;
    *done = *keep = eod ? base + len : 0;
    return PII_OK;
}

static void test_stream_hold_limit(void **state)
{
    (void)state;
    static const pii_detector_class lazy = {"lazy", open_lazy, scan_lazy, NULL, free, NULL};
    pii_err e;
    pii_redactor *r = pii_redactor_create(&e);
    pii_detector d = {&lazy, NULL};
    assert_int_equal(pii_redactor_add_detector(r, d), PII_OK);
    size_t written = 0;
    pii_sink sink = {drop, NULL, NULL, &written};
    pii_stream *s = pii_stream_create(r, &sink, &e);
    static char chunk[1 << 20];
    memset(chunk, 'x', sizeof chunk);
    pii_fault_count_all();
    size_t fed = 0;
    e = PII_OK;
    while (!e && fed < (size_t)1 << 30) {
        e = pii_stream_feed(s, chunk, sizeof chunk);
        fed += sizeof chunk;
    }
    uint64_t max = pii_fault_max_alloc();
    pii_fault_reset();
    assert_int_equal(e, PII_ETOOBIG);
    assert_true(fed <= 64u * MIB);
    assert_true(max <= 128u * MIB);
    assert_true(pii_stream_buffered(s) <= 64u * MIB);
    pii_stream_free(s);
    pii_redactor_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_safetensors),
        cmocka_unit_test(test_gguf),
        cmocka_unit_test(test_config),
        cmocka_unit_test(test_record_limit),
        cmocka_unit_test(test_stream_hold_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
