/* test_tok_corpus.c — the differential corpus: every string of
 * tests/fixtures/tok/corpus.jsonl (expected ids and token byte lengths from
 * tiktoken o200k_base, tools/tokenizer/gen-corpus.cjs) must encode to the
 * same ids and byte offsets.  Also checks that the streaming encoder, fed
 * each string in small chunks, gives the same tokens. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "pii_tok.h"

#define CORPUS "tests/fixtures/tok/corpus.jsonl"

typedef struct entry {
    char *text;
    size_t len;
    int32_t *ids;
    size_t *lens;
    size_t n;
    char kind[16];
} entry;

static entry *corpus;
static size_t n_corpus;

static int load(void **state)
{
    (void)state;
    FILE *f = fopen(CORPUS, "r");
    if (!f) {
        fprintf(stderr, "cannot open %s (run from the repository root)\n", CORPUS);
        return -1;
    }
    char *line = NULL;
    size_t cap = 0, alloc = 0;
    ssize_t got;
    while ((got = getline(&line, &cap, f)) > 0) {
        json_object *o = json_tokener_parse(line);
        if (!o)
            return -1;
        if (n_corpus == alloc) {
            alloc = alloc ? alloc * 2 : 1024;
            corpus = realloc(corpus, alloc * sizeof *corpus);
        }
        entry *e = &corpus[n_corpus++];
        json_object *t, *ids, *lens, *k;
        if (!json_object_object_get_ex(o, "text", &t) ||
            !json_object_object_get_ex(o, "ids", &ids) ||
            !json_object_object_get_ex(o, "lens", &lens) || !json_object_object_get_ex(o, "k", &k))
            return -1;
        e->len = (size_t)json_object_get_string_len(t);
        e->text = malloc(e->len + 1);
        memcpy(e->text, json_object_get_string(t), e->len + 1);
        snprintf(e->kind, sizeof e->kind, "%s", json_object_get_string(k));
        e->n = json_object_array_length(ids);
        e->ids = malloc((e->n + 1) * sizeof *e->ids);
        e->lens = malloc((e->n + 1) * sizeof *e->lens);
        for (size_t i = 0; i < e->n; i++) {
            e->ids[i] = json_object_get_int(json_object_array_get_idx(ids, i));
            e->lens[i] = (size_t)json_object_get_int(json_object_array_get_idx(lens, i));
        }
        json_object_put(o);
    }
    free(line);
    fclose(f);
    return n_corpus >= 5000 ? 0 : -1;
}

static int unload(void **state)
{
    (void)state;
    for (size_t i = 0; i < n_corpus; i++) {
        free(corpus[i].text);
        free(corpus[i].ids);
        free(corpus[i].lens);
    }
    free(corpus);
    return 0;
}

/* Number of mismatching tokens (ids or offsets) of entry e against out. */
static size_t diff(const entry *e, const pii_tok_buf *out, size_t base, size_t *first)
{
    size_t bad = 0, pos = 0;
    *first = SIZE_MAX;
    size_t n = out->n - base;
    if (n != e->n)
        bad++;
    for (size_t i = 0; i < e->n && i < n; i++) {
        if (out->ids[base + i] != e->ids[i] || out->offs[base + i].start != pos ||
            out->offs[base + i].end != pos + e->lens[i]) {
            if (*first == SIZE_MAX)
                *first = i;
            bad++;
        }
        pos += e->lens[i];
    }
    return bad;
}

static void test_corpus_one_shot(void **state)
{
    (void)state;
    pii_tok_enc *enc = pii_tok_enc_create(pii_tok_o200k());
    assert_non_null(enc);
    pii_tok_buf out = PII_TOK_BUF_INIT;
    size_t mismatched = 0, tokens = 0;
    for (size_t i = 0; i < n_corpus; i++) {
        out.n = 0;
        assert_int_equal(pii_tok_encode(enc, corpus[i].text, corpus[i].len, &out), PII_OK);
        size_t first;
        if (diff(&corpus[i], &out, 0, &first)) {
            if (mismatched < 20)
                fprintf(stderr, "mismatch: corpus line %zu (%s), token %zu\n", i + 1,
                        corpus[i].kind, first);
            mismatched++;
        }
        tokens += corpus[i].n;
    }
    fprintf(stderr, "corpus: %zu strings, %zu tokens, %zu mismatched strings\n", n_corpus, tokens,
            mismatched);
    assert_int_equal(mismatched, 0);
    pii_tok_buf_free(&out);
    pii_tok_enc_free(enc);
}

/* Feeds each string in chunks of 1..17 bytes through the streaming encoder
 * (keeping the unconsumed tail), which must give the one-shot tokens. */
static void test_corpus_streamed(void **state)
{
    (void)state;
    pii_tok_enc *enc = pii_tok_enc_create(pii_tok_o200k());
    pii_tok_buf out = PII_TOK_BUF_INIT, part = PII_TOK_BUF_INIT;
    size_t mismatched = 0;
    for (size_t i = 0; i < n_corpus; i += 3) {
        const entry *e = &corpus[i];
        out.n = 0;
        size_t done = 0, avail = 0, step = 1 + i % 17;
        while (done < e->len) {
            avail = avail + step < e->len ? avail + step : e->len;
            int last = avail == e->len;
            size_t used;
            part.n = 0;
            assert_int_equal(
                pii_tok_encode_stream(enc, e->text + done, avail - done, last, &part, &used),
                PII_OK);
            if (last)
                assert_int_equal(used, avail - done);
            for (size_t k = 0; k < part.n; k++) {
                pii_tok_span s = {part.offs[k].start + done, part.offs[k].end + done};
                if (out.n == out.cap) {
                    out.cap = out.cap ? out.cap * 2 : 64;
                    out.ids = realloc(out.ids, out.cap * sizeof *out.ids);
                    out.offs = realloc(out.offs, out.cap * sizeof *out.offs);
                }
                out.ids[out.n] = part.ids[k];
                out.offs[out.n++] = s;
            }
            done += used;
        }
        size_t first;
        if (diff(e, &out, 0, &first)) {
            if (mismatched < 20)
                fprintf(stderr, "stream mismatch: corpus line %zu (%s), token %zu\n", i + 1,
                        e->kind, first);
            mismatched++;
        }
    }
    assert_int_equal(mismatched, 0);
    pii_tok_buf_free(&out);
    pii_tok_buf_free(&part);
    pii_tok_enc_free(enc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_one_shot),
        cmocka_unit_test(test_corpus_streamed),
    };
    return cmocka_run_group_tests_name("tok_corpus", tests, load, unload);
}
