/* test_rt_store.c — hostile weight files.  Every corrupted file must give a
 * clean error (never a crash or an out-of-bounds read: run under ASan with
 * `make check SAN=1`) whose message names the file, and the tensor where
 * one is involved.  Also: the good paths (sharded index, GGUF metadata,
 * memory images) and model-level checks (missing tensor, wrong shape). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "pii_model.h"
#include "pii_rt.h"
#include "pii_rt_write.h"
#include "pii_model_synth.h"

static char dir[64];

static char *pth(const char *name)
{
    static char buf[8][300];
    static int k;
    char *b = buf[k++ % 8];
    snprintf(b, 300, "%s/%s", dir, name);
    return b;
}

static uint8_t *slurp(const char *p, size_t *len)
{
    FILE *f = fopen(p, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(*len ? *len : 1);
    assert_int_equal(fread(b, 1, *len, f), *len);
    fclose(f);
    return b;
}

static void spit(const char *p, const void *b, size_t len)
{
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, len, f), len);
    fclose(f);
}

/* A small safetensors file: three tensors of different dtypes. */
static void write_st(const char *p)
{
    pii_err e;
    pii_rt_st_writer *w = pii_rt_st_writer_create(&e);
    int64_t s1[2] = {3, 4}, s2[1] = {5}, s3[3] = {2, 2, 2};
    assert_int_equal(pii_rt_st_writer_meta(w, "format", "pt"), PII_OK);
    assert_int_equal(pii_rt_st_writer_add(w, "a.weight", PII_DT_BF16, 2, s1), PII_OK);
    assert_int_equal(pii_rt_st_writer_add(w, "b.bias", PII_DT_F32, 1, s2), PII_OK);
    assert_int_equal(pii_rt_st_writer_add(w, "c", PII_DT_F16, 3, s3), PII_OK);
    FILE *f = fopen(p, "wb");
    assert_int_equal(pii_rt_st_writer_begin(w, f), PII_OK);
    uint8_t data[24 + 20 + 16];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 7);
    assert_int_equal(pii_rt_st_writer_data(w, data, 10), PII_OK);
    assert_int_equal(pii_rt_st_writer_data(w, data + 10, sizeof data - 10), PII_OK);
    assert_int_equal(pii_rt_st_writer_data(w, data, 1), PII_EINVAL); /* too much */
    assert_int_equal(pii_rt_st_writer_end(w), PII_OK);
    fclose(f);
    pii_rt_st_writer_free(w);
}

static void write_gguf(const char *p)
{
    pii_err e;
    pii_rt_gguf_writer *w = pii_rt_gguf_writer_create(&e);
    const char *labs[3] = {"O", "B-x", "E-x"};
    assert_int_equal(pii_rt_gguf_writer_kv_str(w, "general.architecture", "test"), PII_OK);
    assert_int_equal(pii_rt_gguf_writer_kv_u32(w, "test.n", 7), PII_OK);
    assert_int_equal(pii_rt_gguf_writer_kv_f32(w, "test.eps", 1e-5f), PII_OK);
    assert_int_equal(pii_rt_gguf_writer_kv_bool(w, "test.flag", 1), PII_OK);
    assert_int_equal(pii_rt_gguf_writer_kv_strs(w, "test.labels", labs, 3), PII_OK);
    int64_t s1[2] = {2, 32}, s2[1] = {3};
    assert_int_equal(pii_rt_gguf_writer_add(w, "q.weight", PII_DT_Q8_0, 2, s1), PII_OK);
    assert_int_equal(pii_rt_gguf_writer_add(w, "f.bias", PII_DT_F32, 1, s2), PII_OK);
    FILE *f = fopen(p, "wb");
    assert_int_equal(pii_rt_gguf_writer_begin(w, f), PII_OK);
    uint8_t q[68] = {0};
    q[1] = 0x3c; /* d = 1.0 */
    q[2] = 5;
    q[35] = 0x3c;
    q[36] = (uint8_t)-3;
    float fb[3] = {1, 2, 3};
    assert_int_equal(pii_rt_gguf_writer_data(w, q, sizeof q), PII_OK);
    assert_int_equal(pii_rt_gguf_writer_data(w, fb, sizeof fb), PII_OK);
    assert_int_equal(pii_rt_gguf_writer_end(w), PII_OK);
    fclose(f);
    pii_rt_gguf_writer_free(w);
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/pii_rt_store_XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    write_st(pth("good.safetensors"));
    write_gguf(pth("good.gguf"));
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Opens p expecting failure with a message that names the file (and, when
 * given, the tensor).  Returns the error. */
static pii_err expect_fail(const char *p, const char *must)
{
    pii_rt_store *s = NULL;
    char msg[512] = "";
    pii_err e = pii_rt_store_open(p, &s, msg, sizeof msg);
    if (e == PII_OK)
        fail_msg("%s opened although corrupt", p);
    assert_null(s);
    if (!strstr(msg, p))
        fail_msg("message does not name the file: %s", msg);
    if (must && !strstr(msg, must))
        fail_msg("message does not name '%s': %s", must, msg);
    return e;
}

static void test_st_good(void **state)
{
    (void)state;
    pii_rt_store *s;
    char msg[256];
    assert_int_equal(pii_rt_store_open(pth("good.safetensors"), &s, msg, sizeof msg), PII_OK);
    assert_int_equal(pii_rt_store_count(s), 3);
    assert_int_equal(pii_rt_store_format(s), PII_RT_FMT_SAFETENSORS);
    const pii_rt_tensor *t = pii_rt_store_find(s, "b.bias");
    assert_non_null(t);
    assert_int_equal(t->dtype, PII_DT_F32);
    assert_int_equal(t->ndim, 1);
    assert_int_equal(t->shape[0], 5);
    assert_int_equal(t->nbytes, 20);
    assert_int_equal(((const uint8_t *)t->data)[0], (uint8_t)(24 * 7));
    assert_string_equal(pii_rt_store_st_meta(s, "format"), "pt");
    assert_null(pii_rt_store_find(s, "nope"));
    pii_rt_store_free(s);
    pii_rt_store_free(NULL);
}

/* pii_rt_store_release drops pages of a file mapping, which read back from
 * the file unchanged; on a borrowed memory image (here a large malloc, i.e.
 * anonymous memory that MADV_DONTNEED would zero) it changes nothing. */
static void test_release(void **state)
{
    (void)state;
    enum { N = 5 * 4096 }; /* 80 KB of f32: whole pages inside, ends ragged */
    pii_err e;
    pii_rt_st_writer *w = pii_rt_st_writer_create(&e);
    int64_t sh[1] = {N}, sh2[1] = {3};
    assert_int_equal(pii_rt_st_writer_add(w, "pad", PII_DT_F32, 1, sh2), PII_OK);
    assert_int_equal(pii_rt_st_writer_add(w, "big", PII_DT_F32, 1, sh), PII_OK);
    FILE *f = fopen(pth("big.safetensors"), "wb");
    assert_int_equal(pii_rt_st_writer_begin(w, f), PII_OK);
    float v[N + 3];
    for (size_t i = 0; i < N + 3; i++)
        v[i] = (float)i * 0.5f;
    assert_int_equal(pii_rt_st_writer_data(w, v, sizeof v), PII_OK);
    assert_int_equal(pii_rt_st_writer_end(w), PII_OK);
    fclose(f);
    pii_rt_st_writer_free(w);
    char msg[256];
    size_t len;
    uint8_t *img = slurp(pth("big.safetensors"), &len);
    pii_rt_store *st[2];
    assert_int_equal(pii_rt_store_open(pth("big.safetensors"), &st[0], msg, sizeof msg), PII_OK);
    assert_int_equal(pii_rt_store_open_mem(img, len, "<mem>", &st[1], msg, sizeof msg), PII_OK);
    for (int k = 0; k < 2; k++) {
        const pii_rt_tensor *t = pii_rt_store_find(st[k], "big");
        assert_non_null(t);
        assert_memory_equal(t->data, v + 3, sizeof v - 3 * sizeof(float));
        pii_rt_store_release(st[k], t->data, (size_t)t->nbytes);
        pii_rt_store_release(st[k], v, sizeof v); /* not the store's: ignored */
        assert_memory_equal(t->data, v + 3, sizeof v - 3 * sizeof(float));
        assert_memory_equal(pii_rt_store_find(st[k], "pad")->data, v, 3 * sizeof(float));
        pii_rt_store_free(st[k]);
    }
    free(img);
}

/* Every truncation of the file is an error naming it; truncations inside
 * the data name the tensor. */
static void test_st_truncated(void **state)
{
    (void)state;
    size_t len;
    uint8_t *b = slurp(pth("good.safetensors"), &len);
    uint64_t hl = 0;
    for (int i = 7; i >= 0; i--)
        hl = hl << 8 | b[i];
    for (size_t cut = 0; cut < len; cut++) {
        spit(pth("cut.safetensors"), b, cut);
        pii_err e = expect_fail(pth("cut.safetensors"), cut >= 8 + hl ? "tensor '" : NULL);
        assert_true(e == PII_ETRUNC || e == PII_EJSON || e == PII_EFORMAT);
        /* and from memory */
        pii_rt_store *s;
        char msg[256];
        assert_int_not_equal(pii_rt_store_open_mem(b, cut, "<img>", &s, msg, sizeof msg), PII_OK);
        assert_non_null(strstr(msg, "<img>"));
    }
    free(b);
}

static void set_hlen(uint8_t *b, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> (8 * i));
}

static void test_st_header_lies(void **state)
{
    (void)state;
    size_t len;
    uint8_t *b = slurp(pth("good.safetensors"), &len);
    uint8_t *c = malloc(len);
    const struct {
        uint64_t v;
        pii_err want;
    } lies[] = {{len, PII_ETRUNC},
                {len - 7, PII_ETRUNC},
                {(uint64_t)1 << 40, PII_ETOOBIG},
                {UINT64_MAX, PII_ETOOBIG},
                {0, PII_ETRUNC},
                {1, PII_ETRUNC},
                {5, PII_EJSON}};
    for (size_t k = 0; k < sizeof lies / sizeof lies[0]; k++) {
        memcpy(c, b, len);
        set_hlen(c, lies[k].v);
        spit(pth("lie.safetensors"), c, len);
        assert_int_equal(expect_fail(pth("lie.safetensors"), NULL), lies[k].want);
    }
    free(b);
    free(c);
}

/* Header JSON variants: each a clean error naming the tensor. */
static void test_st_bad_headers(void **state)
{
    (void)state;
    const struct {
        const char *json;
        const char *name;
        pii_err want;
    } cases[] = {
        {"{\"t\":{\"dtype\":\"Q9\",\"shape\":[2],\"data_offsets\":[0,2]}}", "'t'", PII_EDTYPE},
        {"{\"t\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,8]}}", "'t'", PII_ESHAPE},
        {"{\"t\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
         "\"u\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,8]}}",
         "overlap", PII_EFORMAT},
        {"{\"t\":{\"dtype\":\"F32\",\"shape\":[-2],\"data_offsets\":[0,8]}}", "'t'", PII_EFORMAT},
        {"{\"t\":{\"dtype\":\"F32\",\"shape\":[4294967296,4294967296,4294967296],"
         "\"data_offsets\":[0,8]}}",
         "'t'", PII_ETOOBIG},
        {"{\"t\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[8,0]}}", "'t'", PII_EFORMAT},
        {"{\"t\":{\"dtype\":\"F32\",\"shape\":[2]}}", "'t'", PII_EFORMAT},
        {"{\"t\":{\"dtype\":\"F32\",\"shape\":[1,1,1,1,1],\"data_offsets\":[0,4]}}", "'t'",
         PII_EUNSUPPORTED},
        {"{\"t\":{\"dtype\":\"F32\",\"shape\":[1000],\"data_offsets\":[0,4000]}}", "'t'",
         PII_ETRUNC},
        {"{\"t\":5}", "'t'", PII_EFORMAT},
        {"[1,2,3]", NULL, PII_EFORMAT},
        {"{\"t\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}} xx", NULL, PII_EJSON},
        {"{\"t\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}", NULL, PII_EJSON},
        {"{\"__metadata__\":7}", NULL, PII_EFORMAT},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        size_t jl = strlen(cases[k].json);
        size_t len = 8 + jl + 8;
        uint8_t *b = calloc(1, len);
        set_hlen(b, jl);
        memcpy(b + 8, cases[k].json, jl);
        spit(pth("hdr.safetensors"), b, len);
        pii_err e = expect_fail(pth("hdr.safetensors"), cases[k].name);
        if (e != cases[k].want)
            fail_msg("case %zu: got %s want %s", k, pii_errname(e), pii_errname(cases[k].want));
        free(b);
    }
}

/* Random corruption of the header bytes: never a crash. */
static void test_st_fuzz(void **state)
{
    (void)state;
    size_t len;
    uint8_t *b = slurp(pth("good.safetensors"), &len);
    uint8_t *c = malloc(len);
    uint64_t r = 42;
    for (int it = 0; it < 3000; it++) {
        memcpy(c, b, len);
        int flips = 1 + it % 4;
        for (int f = 0; f < flips; f++) {
            r = r * 6364136223846793005ull + 1442695040888963407ull;
            size_t at = (size_t)(r >> 33) % (len < 200 ? len : 200);
            c[at] = (uint8_t)(r >> 20);
        }
        pii_rt_store *s = NULL;
        char msg[256];
        if (pii_rt_store_open_mem(c, len, "<fuzz>", &s, msg, sizeof msg) == PII_OK) {
            for (size_t i = 0; i < pii_rt_store_count(s); i++) {
                const pii_rt_tensor *t = pii_rt_store_at(s, i);
                volatile uint8_t sum = 0;
                for (uint64_t j = 0; j < t->nbytes; j++) /* ASan checks the bounds */
                    sum ^= ((const uint8_t *)t->data)[j];
                (void)sum;
            }
            pii_rt_store_free(s);
        }
    }
    free(b);
    free(c);
}

/* ---- sharded ------------------------------------------------------------------ */

static void test_sharded(void **state)
{
    (void)state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "mkdir -p %s/sh && cp %s %s/sh/p1.safetensors", dir,
             pth("good.safetensors"), dir);
    assert_int_equal(system(cmd), 0);
    /* a second shard with one tensor */
    pii_err e;
    pii_rt_st_writer *w = pii_rt_st_writer_create(&e);
    int64_t sh[1] = {2};
    assert_int_equal(pii_rt_st_writer_add(w, "d", PII_DT_F32, 1, sh), PII_OK);
    FILE *f = fopen(pth("sh/p2.safetensors"), "wb");
    assert_int_equal(pii_rt_st_writer_begin(w, f), PII_OK);
    float v[2] = {1, 2};
    assert_int_equal(pii_rt_st_writer_data(w, v, 8), PII_OK);
    assert_int_equal(pii_rt_st_writer_end(w), PII_OK);
    fclose(f);
    pii_rt_st_writer_free(w);
    const char *good = "{\"metadata\":{},\"weight_map\":{\"a.weight\":\"p1.safetensors\","
                       "\"b.bias\":\"p1.safetensors\",\"c\":\"p1.safetensors\","
                       "\"d\":\"p2.safetensors\"}}";
    spit(pth("sh/model.safetensors.index.json"), good, strlen(good));
    pii_rt_store *s;
    char msg[512];
    assert_int_equal(pii_rt_store_open(pth("sh"), &s, msg, sizeof msg), PII_OK);
    assert_int_equal(pii_rt_store_count(s), 4);
    assert_int_equal(pii_rt_store_nfiles(s), 2);
    assert_non_null(pii_rt_store_find(s, "d"));
    pii_rt_store_free(s);
    const char *bad[] = {
        "{\"weight_map\":{\"a.weight\":\"p2.safetensors\",\"d\":\"p2.safetensors\"}}",
        "{\"weight_map\":{\"x\":\"p1.safetensors\"}}",
        "{\"weight_map\":{\"a.weight\":\"../p1.safetensors\"}}",
        "{\"weight_map\":{\"a.weight\":\"missing.safetensors\"}}",
        "{\"weight_map\":{}}",
        "{\"weight_map\":[]}",
        "{\"weight_map\":",
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        spit(pth("sh/bad.index.json"), bad[k], strlen(bad[k]));
        msg[0] = 0;
        assert_int_not_equal(pii_rt_store_open(pth("sh/bad.index.json"), &s, msg, sizeof msg),
                             PII_OK);
        assert_non_null(strstr(msg, dir));
    }
}

/* ---- GGUF ------------------------------------------------------------------------ */

static void test_gguf_good(void **state)
{
    (void)state;
    pii_rt_store *s;
    char msg[256];
    assert_int_equal(pii_rt_store_open(pth("good.gguf"), &s, msg, sizeof msg), PII_OK);
    assert_int_equal(pii_rt_store_format(s), PII_RT_FMT_GGUF);
    const pii_rt_tensor *t = pii_rt_store_find(s, "q.weight");
    assert_non_null(t);
    assert_int_equal(t->dtype, PII_DT_Q8_0);
    assert_int_equal(t->shape[0], 2);
    assert_int_equal(t->shape[1], 32);
    assert_int_equal(t->nbytes, 68);
    float row[32];
    pii_rt_to_f32(PII_DT_Q8_0, (const uint8_t *)t->data + 34, 32, row);
    assert_true(row[0] == -3.0f && row[1] == 0.0f);
    t = pii_rt_store_find(s, "f.bias");
    assert_true(((uintptr_t)t->data - (uintptr_t)pii_rt_store_find(s, "q.weight")->data) % 32 == 0);
    int64_t iv;
    double dv;
    const char *sp;
    size_t sl;
    assert_int_equal(pii_rt_store_kv_int(s, "test.n", &iv), PII_OK);
    assert_int_equal(iv, 7);
    assert_int_equal(pii_rt_store_kv_num(s, "test.eps", &dv), PII_OK);
    assert_true(dv > 0.99e-5 && dv < 1.01e-5);
    assert_int_equal(pii_rt_store_kv_int(s, "test.flag", &iv), PII_OK);
    assert_int_equal(iv, 1);
    assert_int_equal(pii_rt_store_kv_str(s, "general.architecture", &sp, &sl), PII_OK);
    assert_int_equal(sl, 4);
    assert_memory_equal(sp, "test", 4);
    assert_int_equal(pii_rt_store_kv_int(s, "general.architecture", &iv), PII_EFORMAT);
    assert_int_equal(pii_rt_store_kv_int(s, "none", &iv), PII_ENOTFOUND);
    pii_rt_kvtype et;
    uint64_t cnt;
    const void *data;
    assert_int_equal(pii_rt_store_kv_arr(s, "test.labels", &et, &cnt, &data), PII_OK);
    assert_int_equal(et, PII_KV_STRING);
    assert_int_equal(cnt, 3);
    const char *ptr[3];
    uint32_t lens[3];
    assert_int_equal(pii_rt_store_kv_strings(s, "test.labels", ptr, lens, 3), PII_OK);
    assert_int_equal(lens[1], 3);
    assert_memory_equal(ptr[1], "B-x", 3);
    pii_rt_store_free(s);
}

static void test_gguf_corrupt(void **state)
{
    (void)state;
    size_t len;
    uint8_t *b = slurp(pth("good.gguf"), &len);
    /* the file ends with the last tensor's alignment padding: cutting only
     * padding leaves a valid file */
    pii_rt_store *g;
    char gm[256];
    assert_int_equal(pii_rt_store_open_mem(b, len, "g", &g, gm, sizeof gm), PII_OK);
    const pii_rt_tensor *last = pii_rt_store_find(g, "f.bias");
    size_t need = (size_t)((const uint8_t *)last->data - b) + last->nbytes;
    size_t dstart = (size_t)((const uint8_t *)pii_rt_store_find(g, "q.weight")->data - b);
    pii_rt_store_free(g);
    for (size_t cut = 0; cut < need; cut++) {
        spit(pth("cut.gguf"), b, cut);
        expect_fail(pth("cut.gguf"), cut >= dstart ? "tensor '" : NULL);
    }
    /* lying counts and fields */
    uint8_t *c = malloc(len);
    const struct {
        size_t at;
        uint8_t v;
        pii_err want;
    } edits[] = {
        {4, 9, PII_EUNSUPPORTED}, /* version 9 */
        {15, 0x7f, PII_ETOOBIG},  /* tensor count huge */
        {23, 0x7f, PII_ETOOBIG},  /* kv count huge */
        {12, 0xff, PII_ETOOBIG},  /* tensor count 255+ > file */
        {31, 0x40, PII_ETRUNC},   /* first key length huge */
    };
    for (size_t k = 0; k < sizeof edits / sizeof edits[0]; k++) {
        memcpy(c, b, len);
        c[edits[k].at] = edits[k].v;
        spit(pth("edit.gguf"), c, len);
        pii_err e = expect_fail(pth("edit.gguf"), NULL);
        if (k != 3 && e != edits[k].want)
            fail_msg("edit %zu: got %s", k, pii_errname(e));
    }
    /* random flips anywhere in the metadata and tensor table */
    uint64_t r = 7;
    for (int it = 0; it < 3000; it++) {
        memcpy(c, b, len);
        for (int f = 0; f < 1 + it % 3; f++) {
            r = r * 6364136223846793005ull + 1442695040888963407ull;
            c[4 + (size_t)(r >> 33) % (len < 250 ? len - 4 : 246)] = (uint8_t)(r >> 20);
        }
        pii_rt_store *s = NULL;
        char msg[256];
        if (pii_rt_store_open_mem(c, len, "<fuzz>", &s, msg, sizeof msg) == PII_OK) {
            for (size_t i = 0; i < pii_rt_store_kv_count(s); i++) {
                const char *k = pii_rt_store_kv_key(s, i), *sp;
                size_t sl;
                int64_t iv;
                double dv;
                pii_rt_kvtype et;
                uint64_t cnt;
                const void *d;
                (void)pii_rt_store_kv_int(s, k, &iv);
                (void)pii_rt_store_kv_num(s, k, &dv);
                (void)pii_rt_store_kv_str(s, k, &sp, &sl);
                if (pii_rt_store_kv_arr(s, k, &et, &cnt, &d) == PII_OK && et == PII_KV_STRING &&
                    cnt < 100) {
                    const char *pp[100];
                    uint32_t ll[100];
                    (void)pii_rt_store_kv_strings(s, k, pp, ll, cnt);
                }
            }
            for (size_t i = 0; i < pii_rt_store_count(s); i++) {
                const pii_rt_tensor *t = pii_rt_store_at(s, i);
                volatile uint8_t sum = 0;
                for (uint64_t j = 0; j < t->nbytes; j++)
                    sum ^= ((const uint8_t *)t->data)[j];
                (void)sum;
            }
            pii_rt_store_free(s);
        }
    }
    free(b);
    free(c);
}

/* ---- model level ----------------------------------------------------------------- */

/* Rewrites src's tensors into dst, dropping `drop` and giving `reshape` a
 * wrong (but size-consistent) shape. */
static void rewrite(const char *src, const char *dst, const char *drop, const char *reshape)
{
    pii_rt_store *s;
    char msg[256];
    assert_int_equal(pii_rt_store_open(src, &s, msg, sizeof msg), PII_OK);
    pii_err e;
    pii_rt_st_writer *w = pii_rt_st_writer_create(&e);
    for (size_t i = 0; i < pii_rt_store_count(s); i++) {
        const pii_rt_tensor *t = pii_rt_store_at(s, i);
        if (drop && !strcmp(t->name, drop))
            continue;
        int64_t sh[4] = {t->shape[0], t->shape[1], t->shape[2], t->shape[3]};
        int nd = t->ndim;
        if (reshape && !strcmp(t->name, reshape)) {
            if (nd == 1) {
                nd = 2;
                sh[1] = 1;
            } else {
                sh[0] = t->shape[1];
                sh[1] = t->shape[0];
            }
        }
        assert_int_equal(pii_rt_st_writer_add(w, t->name, t->dtype, nd, sh), PII_OK);
    }
    FILE *f = fopen(dst, "wb");
    assert_int_equal(pii_rt_st_writer_begin(w, f), PII_OK);
    for (size_t i = 0; i < pii_rt_store_count(s); i++) {
        const pii_rt_tensor *t = pii_rt_store_at(s, i);
        if (!(drop && !strcmp(t->name, drop)))
            assert_int_equal(pii_rt_st_writer_data(w, t->data, t->nbytes), PII_OK);
    }
    assert_int_equal(pii_rt_st_writer_end(w), PII_OK);
    fclose(f);
    pii_rt_st_writer_free(w);
    pii_rt_store_free(s);
}

static void expect_model_fail(const char *p, const char *name, pii_err want)
{
    pii_err e;
    char msg[512] = "";
    pii_model *m = pii_model_load(p, NULL, &e, msg, sizeof msg);
    if (m)
        fail_msg("model %s loaded although broken (expected %s)", p, name ? name : "");
    if (e != want)
        fail_msg("model %s: got %s (%s), want %s", p, pii_errname(e), msg, pii_errname(want));
    if (!strstr(msg, dir) || (name && !strstr(msg, name)))
        fail_msg("message does not name the file and '%s': %s", name ? name : "", msg);
}

static void test_model_level(void **state)
{
    (void)state;
    pii_model_synth syn;
    pii_model_synth_default(&syn);
    pii_model_config *c = &syn.cfg;
    c->vocab_size = 100;
    c->d_model = 32;
    c->n_layers = 1;
    c->n_heads = 2;
    c->n_kv_heads = 1;
    c->head_dim = 16;
    c->d_expert = 32;
    c->n_experts = 4;
    c->top_k = 2;
    c->n_labels = 5;
    c->pad_id = -1;
    char msg[256];
    assert_int_equal(pii_model_synth_write_hf(&syn, pth("m"), msg, sizeof msg), PII_OK);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "mkdir -p %s/bad && cp %s/m/config.json %s/bad/", dir, dir, dir);
    assert_int_equal(system(cmd), 0);
    char src[300], dst[300];
    snprintf(src, sizeof src, "%s", pth("m/model.safetensors"));
    snprintf(dst, sizeof dst, "%s", pth("bad/model.safetensors"));
    rewrite(src, dst, "model.layers.0.self_attn.sinks", NULL);
    expect_model_fail(pth("bad"), "model.layers.0.self_attn.sinks", PII_ENOTFOUND);
    rewrite(src, dst, NULL, "model.layers.0.self_attn.k_proj.weight");
    expect_model_fail(pth("bad"), "model.layers.0.self_attn.k_proj.weight", PII_ESHAPE);
    rewrite(src, dst, NULL, "model.layers.0.mlp.experts.gate_up_proj");
    expect_model_fail(pth("bad"), "model.layers.0.mlp.experts.gate_up_proj", PII_ESHAPE);
    rewrite(src, dst, NULL, "score.bias");
    expect_model_fail(pth("bad"), "score.bias", PII_ESHAPE);
    rewrite(src, dst, "model.embed_tokens.weight", NULL);
    expect_model_fail(pth("bad"), "model.embed_tokens.weight", PII_ENOTFOUND);
    /* truncated model file at several offsets */
    size_t len;
    uint8_t *b = slurp(src, &len);
    for (size_t k = 1; k < 40; k++) {
        spit(dst, b, len * k / 40);
        pii_err e;
        char m2[512];
        pii_model *m = pii_model_load(pth("bad"), NULL, &e, m2, sizeof m2);
        assert_null(m);
        assert_non_null(strstr(m2, "bad/model.safetensors"));
    }
    free(b);
    /* configuration errors name config.json */
    spit(dst, "", 0);
    rewrite(src, dst, NULL, NULL);
    const char *cfgs[] = {"{\"hidden_size\":32}", "{", "[]",
                          "{\"vocab_size\":100,\"hidden_size\":32,\"num_hidden_layers\":1,"
                          "\"num_attention_heads\":3,\"num_key_value_heads\":2,\"head_dim\":16,"
                          "\"intermediate_size\":32,\"num_local_experts\":4,"
                          "\"num_experts_per_tok\":2}",
                          "{\"vocab_size\":100,\"hidden_size\":32,\"num_hidden_layers\":1000000,"
                          "\"num_attention_heads\":2,\"head_dim\":16,\"intermediate_size\":32,"
                          "\"num_local_experts\":4,\"num_experts_per_tok\":2}"};
    for (size_t k = 0; k < sizeof cfgs / sizeof cfgs[0]; k++) {
        spit(pth("bad/config.json"), cfgs[k], strlen(cfgs[k]));
        pii_err e;
        char m2[512];
        assert_null(pii_model_load(pth("bad"), NULL, &e, m2, sizeof m2));
        assert_non_null(strstr(m2, "config.json"));
    }
}

/* Issue 18 (Low): overlapping GGUF tensors, a .gguf file without the
 * magic, and a FIFO named as a model file. */
static void test_gguf_issue18(void **state)
{
    (void)state;
    size_t len;
    uint8_t *b = slurp(pth("good.gguf"), &len);
    /* "f.bias": u64 name length, name, u32 ndim (1), u64 dim, u32 type,
     * u64 offset -> point it at q.weight's bytes (offset 0) */
    uint8_t *at = NULL;
    for (size_t i = 8; i + 6 <= len && !at; i++)
        if (!memcmp(b + i, "f.bias", 6) && b[i - 8] == 6)
            at = b + i + 6 + 4 + 8 + 4;
    assert_non_null(at);
    memset(at, 0, 8);
    pii_rt_store *g = NULL;
    char m[256];
    assert_int_equal(pii_rt_store_open_mem(b, len, "g", &g, m, sizeof m), PII_EFORMAT);
    assert_non_null(strstr(m, "overlap"));
    assert_null(g);
    free(b);
    /* bad magic in a .gguf file: said as such */
    b = slurp(pth("good.gguf"), &len);
    b[0] = 'X';
    spit(pth("bad.gguf"), b, len);
    assert_int_equal(pii_rt_store_open(pth("bad.gguf"), &g, m, sizeof m), PII_EFORMAT);
    assert_non_null(strstr(m, "not a GGUF file"));
    free(b);
    /* a FIFO: refused at once, no hang in open() */
    assert_int_equal(mkfifo(pth("fifo.gguf"), 0600), 0);
    assert_int_not_equal(pii_rt_store_open(pth("fifo.gguf"), &g, m, sizeof m), PII_OK);
    assert_non_null(strstr(m, "not a regular file"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_st_good),        cmocka_unit_test(test_st_truncated),
        cmocka_unit_test(test_st_header_lies), cmocka_unit_test(test_st_bad_headers),
        cmocka_unit_test(test_st_fuzz),        cmocka_unit_test(test_sharded),
        cmocka_unit_test(test_gguf_good),      cmocka_unit_test(test_gguf_corrupt),
        cmocka_unit_test(test_gguf_issue18),   cmocka_unit_test(test_model_level),
        cmocka_unit_test(test_release),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
