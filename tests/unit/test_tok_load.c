/* test_tok_load.c — loaders: the built-in vocabulary written out as a
 * tiktoken rank file, as a Hugging Face tokenizer.json and as a GGUF token
 * list must load back into a tokenizer that agrees with it id for id and
 * encodes identically; malformed files are refused with a message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "pii_tok.h"

#define N_MERGEABLE 199998

static char dir[256];

static int setup(void **state)
{
    (void)state;
    const char *t = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/pii_tok_load_XXXXXX", t && *t ? t : "/tmp");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *path_of(const char *name)
{
    static char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return p;
}

static void write_file(const char *path, const char *s, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(s, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

/* Same ids and offsets as the built-in on a few texts. */
static void same_encoding(const pii_tok *t)
{
    static const char *texts[] = {
        "Alice Smith lives at 123 Main Street and uses alice@example.com",
        "Zo\xc3\xab paid \xc2\xa3"
        "20 and waved \xf0\x9f\x91\x8b\xf0\x9f\x8f\xbd.",
        "export OPENAI_API_KEY='sk-proj-abc123abc123abc123abc123abc123abc123'",
        "\xe4\xb8\xad\xe6\x96\x87 \xd0\xbf\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82 <|endoftext|>",
    };
    pii_tok_enc *a = pii_tok_enc_create(pii_tok_o200k()), *b = pii_tok_enc_create(t);
    pii_tok_buf x = PII_TOK_BUF_INIT, y = PII_TOK_BUF_INIT;
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        x.n = y.n = 0;
        assert_int_equal(pii_tok_encode(a, texts[i], strlen(texts[i]), &x), PII_OK);
        assert_int_equal(pii_tok_encode(b, texts[i], strlen(texts[i]), &y), PII_OK);
        assert_int_equal(x.n, y.n);
        assert_memory_equal(x.ids, y.ids, x.n * sizeof *x.ids);
        assert_memory_equal(x.offs, y.offs, x.n * sizeof *x.offs);
    }
    pii_tok_buf_free(&x);
    pii_tok_buf_free(&y);
    pii_tok_enc_free(a);
    pii_tok_enc_free(b);
}

/* ---- tiktoken --------------------------------------------------------------- */

static size_t b64(const uint8_t *p, size_t n, char *out)
{
    static const char A[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16;
        if (i + 1 < n)
            v |= (uint32_t)p[i + 1] << 8;
        if (i + 2 < n)
            v |= p[i + 2];
        out[o++] = A[v >> 18];
        out[o++] = A[(v >> 12) & 63];
        out[o++] = i + 1 < n ? A[(v >> 6) & 63] : '=';
        out[o++] = i + 2 < n ? A[v & 63] : '=';
    }
    return o;
}

static void test_tiktoken_roundtrip(void **state)
{
    (void)state;
    const pii_tok *o = pii_tok_o200k();
    FILE *f = fopen(path_of("o200k.tiktoken"), "wb");
    assert_non_null(f);
    char line[600];
    /* reverse order: ranks need not be sorted */
    for (int32_t id = N_MERGEABLE - 1; id >= 0; id--) {
        size_t len;
        const uint8_t *b = pii_tok_token_bytes(o, id, &len);
        size_t n = b64(b, len, line);
        fprintf(f, "%.*s %d\n", (int)n, line, id);
    }
    fclose(f);
    pii_tok *t = NULL;
    char err[256] = "";
    assert_int_equal(pii_tok_load_tiktoken(path_of("o200k.tiktoken"), &t, err, sizeof err), PII_OK);
    size_t common;
    assert_int_equal(pii_tok_compare(o, t, &common, err, sizeof err), PII_OK);
    assert_int_equal(common, N_MERGEABLE);
    assert_int_equal(pii_tok_vocab_size(t), N_MERGEABLE);
    same_encoding(t);
    pii_tok_free(t);

    /* malformed */
    static const struct {
        const char *text;
        pii_err err;
        const char *msg;
    } bad[] = {
        {"YWI= x\n", PII_EFORMAT, ":1:"},
        {"!!!! 3\n", PII_EFORMAT, ":1:"},
        {"YWI= 1\nYWJj 1\n", PII_EFORMAT, "used twice"},
        {"YWI= 99999999999\n", PII_EFORMAT, ":1:"},
        /* one huge rank must not allocate rows up to it (fuzzer find) */
        {"YWI= 2000000000\n", PII_EFORMAT, "below 4194304"},
        {"YWI= 4194304\n", PII_EFORMAT, "below 4194304"},
        {"YWI= 4194303\n", PII_EFORMAT, "has no token"},
        {"YWI= 1\n", PII_EFORMAT, "has no token"},
        {"", PII_EFORMAT, "has no token"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_file(path_of("bad.tiktoken"), bad[i].text, strlen(bad[i].text));
        t = NULL;
        err[0] = 0;
        assert_int_equal(pii_tok_load_tiktoken(path_of("bad.tiktoken"), &t, err, sizeof err),
                         bad[i].err);
        assert_null(t);
        assert_non_null(strstr(err, bad[i].msg));
    }
    assert_int_equal(pii_tok_load_tiktoken(path_of("missing"), &t, err, sizeof err), PII_ENOTFOUND);
}

/* ---- byte-level strings (GPT-2 mapping) ------------------------------------------- */

static size_t put_cp(uint32_t c, char *o)
{
    if (c < 0x80) {
        o[0] = (char)c;
        return 1;
    }
    o[0] = (char)(0xC0 | (c >> 6));
    o[1] = (char)(0x80 | (c & 63));
    return 2;
}

/* Byte-level form of b[0..n) into out; JSON-escapes '"' and '\\' when json. */
static size_t byte_level(const uint8_t *b, size_t n, char *out, int json)
{
    static uint32_t map[256];
    if (!map['!']) {
        uint32_t k = 0;
        for (unsigned c = 0; c < 256; c++) {
            int printable = (c >= 0x21 && c <= 0x7E) || (c >= 0xA1 && c <= 0xAC) || c >= 0xAE;
            map[c] = printable ? c : 256 + k++;
        }
    }
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (json && (b[i] == '"' || b[i] == '\\'))
            out[o++] = '\\';
        o += put_cp(map[b[i]], out + o);
    }
    return o;
}

/* ---- Hugging Face ------------------------------------------------------------------ */

static const char o200k_regex_json[] =
    "[^\\\\r\\\\n\\\\p{L}\\\\p{N}]?[\\\\p{Lu}\\\\p{Lt}\\\\p{Lm}\\\\p{Lo}\\\\p{M}]*[\\\\p{Ll}\\\\p{"
    "Lm}\\\\p{Lo}\\\\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\\\\r\\\\n\\\\p{L}\\\\p{N}]?[\\\\p{Lu}"
    "\\\\p{Lt}\\\\p{Lm}\\\\p{Lo}\\\\p{M}]+[\\\\p{Ll}\\\\p{Lm}\\\\p{Lo}\\\\p{M}]*(?i:'s|'t|'re|'ve|'"
    "m|'ll|'d)?|\\\\p{N}{1,3}| "
    "?[^\\\\s\\\\p{L}\\\\p{N}]+[\\\\r\\\\n/]*|\\\\s*[\\\\r\\\\n]+|\\\\s+(?!"
    "\\\\S)|\\\\s+";

/* Writes the built-in vocabulary as tokenizer.json.  mode 0: good (merges
 * for ids 256..2255), 1: merges out of order, 2: another regex. */
static void write_hf(const char *path, int mode)
{
    const pii_tok *o = pii_tok_o200k();
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fprintf(f, "{\"version\":\"1.0\",\"added_tokens\":[");
    for (int32_t id = N_MERGEABLE; id < 200019; id++) {
        size_t len;
        const uint8_t *b = pii_tok_token_bytes(o, id, &len);
        fprintf(f, "%s{\"id\":%d,\"content\":\"%.*s\",\"special\":true}",
                id > N_MERGEABLE ? "," : "", id, (int)len, (const char *)b);
    }
    fprintf(f,
            "],\"pre_tokenizer\":{\"type\":\"Sequence\",\"pretokenizers\":[{\"type\":\"Split\","
            "\"pattern\":{\"Regex\":\"%s\"},\"behavior\":\"Isolated\",\"invert\":false},"
            "{\"type\":\"ByteLevel\",\"add_prefix_space\":false,\"trim_offsets\":true,"
            "\"use_regex\":false}]},",
            mode == 2 ? "\\\\s+" : o200k_regex_json);
    fprintf(f, "\"model\":{\"type\":\"BPE\",\"ignore_merges\":true,\"vocab\":{");
    static char s[1200], s2[1200];
    for (int32_t id = 0; id < N_MERGEABLE; id++) {
        size_t len;
        const uint8_t *b = pii_tok_token_bytes(o, id, &len);
        size_t n = byte_level(b, len, s, 1);
        fprintf(f, "%s\"%.*s\":%d", id ? "," : "", (int)n, s, id);
    }
    fprintf(f, "},\"merges\":[");
    int first = 1;
    for (int32_t k = 0; k < 2000; k++) {
        int32_t id = mode == 1 ? 2255 - k : 256 + k;
        size_t len;
        const uint8_t *b = pii_tok_token_bytes(o, id, &len);
        /* a split into two tokens (one exists for every merged token) */
        for (size_t cut = 1; cut < len; cut++) {
            /* both halves must be tokens (of lower id) */
            int32_t l = -1, r = -1;
            for (int32_t j = 0; j < id && (l < 0 || r < 0); j++) {
                size_t jl;
                const uint8_t *jb = pii_tok_token_bytes(o, j, &jl);
                if (l < 0 && jl == cut && memcmp(jb, b, cut) == 0)
                    l = j;
                if (r < 0 && jl == len - cut && memcmp(jb, b + cut, len - cut) == 0)
                    r = j;
            }
            if (l < 0 || r < 0)
                continue;
            size_t n1 = byte_level(b, cut, s, 1), n2 = byte_level(b + cut, len - cut, s2, 1);
            if (k % 2)
                fprintf(f, "%s[\"%.*s\",\"%.*s\"]", first ? "" : ",", (int)n1, s, (int)n2, s2);
            else
                fprintf(f, "%s\"%.*s %.*s\"", first ? "" : ",", (int)n1, s, (int)n2, s2);
            first = 0;
            break;
        }
    }
    fprintf(f, "]}}\n");
    fclose(f);
}

static void test_hf_json(void **state)
{
    (void)state;
    write_hf(path_of("tokenizer.json"), 0);
    pii_tok *t = NULL;
    char err[256] = "";
    pii_err e = pii_tok_load_hf_json(path_of("tokenizer.json"), &t, err, sizeof err);
    if (e)
        fprintf(stderr, "load: %s\n", err);
    assert_int_equal(e, PII_OK);
    size_t common;
    assert_int_equal(pii_tok_compare(pii_tok_o200k(), t, &common, err, sizeof err), PII_OK);
    assert_int_equal(common, 200019);
    assert_int_equal(pii_tok_special_id(t, "<|endoftext|>"), 199999);
    assert_int_equal(pii_tok_vocab_size(t), 200019);
    same_encoding(t);
    pii_tok_free(t);

    write_hf(path_of("t1.json"), 1);
    assert_int_equal(pii_tok_load_hf_json(path_of("t1.json"), &t, err, sizeof err),
                     PII_EUNSUPPORTED);
    assert_non_null(strstr(err, "rank order"));
    write_hf(path_of("t2.json"), 2);
    assert_int_equal(pii_tok_load_hf_json(path_of("t2.json"), &t, err, sizeof err),
                     PII_EUNSUPPORTED);
    assert_non_null(strstr(err, "o200k regex"));

    static const struct {
        const char *text;
        pii_err err;
        const char *msg;
    } bad[] = {
        {"{\"model\":", PII_EJSON, "truncated"},
        {"[1,2]", PII_EFORMAT, "model"},
        {"{\"model\":{\"type\":\"WordPiece\"}}", PII_EUNSUPPORTED, "BPE"},
        {"{\"model\":{\"type\":\"BPE\",\"vocab\":{}}}", PII_EUNSUPPORTED, "o200k regex"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_file(path_of("bad.json"), bad[i].text, strlen(bad[i].text));
        t = NULL;
        err[0] = 0;
        assert_int_equal(pii_tok_load_hf_json(path_of("bad.json"), &t, err, sizeof err),
                         bad[i].err);
        assert_null(t);
        assert_non_null(strstr(err, bad[i].msg));
    }
}

/* ---- GGUF token lists ------------------------------------------------------------------- */

static void test_gguf_tokens(void **state)
{
    (void)state;
    const pii_tok *o = pii_tok_o200k();
    size_t n = 200019;
    char **toks = calloc(n, sizeof *toks);
    size_t *lens = calloc(n, sizeof *lens);
    int32_t *types = calloc(n, sizeof *types);
    for (size_t i = 0; i < n; i++) {
        size_t len;
        const uint8_t *b = pii_tok_token_bytes(o, (int32_t)i, &len);
        toks[i] = malloc(2 * len + 1);
        if (i < N_MERGEABLE) {
            lens[i] = byte_level(b, len, toks[i], 0);
            types[i] = 1;
        } else {
            memcpy(toks[i], b, len);
            lens[i] = len;
            types[i] = 3;
        }
    }
    for (int with_types = 0; with_types < 2; with_types++) {
        pii_tok *t = NULL;
        char err[256] = "";
        assert_int_equal(pii_tok_load_gguf_tokens((const char *const *)toks, lens,
                                                  with_types ? types : NULL, n, &t, err,
                                                  sizeof err),
                         PII_OK);
        size_t common;
        assert_int_equal(pii_tok_compare(o, t, &common, err, sizeof err), PII_OK);
        assert_int_equal(common, n);
        assert_true(pii_tok_is_special(t, 200018));
        same_encoding(t);
        pii_tok_free(t);
    }
    /* a mismatch is reported with the id */
    pii_tok *t = NULL;
    char err[256] = "";
    char *saved = toks[1000];
    toks[1000] = "zzzzq";
    lens[1000] = 5;
    assert_int_equal(
        pii_tok_load_gguf_tokens((const char *const *)toks, lens, types, n, &t, err, sizeof err),
        PII_OK);
    assert_int_equal(pii_tok_compare(o, t, NULL, err, sizeof err), PII_ETOKENIZER);
    assert_non_null(strstr(err, "1000"));
    pii_tok_free(t);
    /* the same length, other bytes: said so (issue 18: "differs (mergeable
     * 1 bytes vs mergeable 1 bytes)") */
    size_t ol = 0;
    assert_non_null(pii_tok_token_bytes(o, 1000, &ol));
    char same[64];
    assert_true(ol > 0 && ol < sizeof same);
    memset(same, '~', ol);
    same[ol] = '\0';
    toks[1000] = same;
    lens[1000] = ol;
    t = NULL;
    assert_int_equal(
        pii_tok_load_gguf_tokens((const char *const *)toks, lens, types, n, &t, err, sizeof err),
        PII_OK);
    assert_int_equal(pii_tok_compare(o, t, NULL, err, sizeof err), PII_ETOKENIZER);
    assert_non_null(strstr(err, "same length"));
    pii_tok_free(t);
    /* a string that is not byte-level */
    toks[1000] = "\xe4\xb8\xad";
    lens[1000] = 3;
    t = NULL;
    assert_int_equal(
        pii_tok_load_gguf_tokens((const char *const *)toks, lens, types, n, &t, err, sizeof err),
        PII_EFORMAT);
    assert_null(t);
    assert_non_null(strstr(err, "[1000]"));
    toks[1000] = saved;
    for (size_t i = 0; i < n; i++)
        free(toks[i]);
    free(toks);
    free(lens);
    free(types);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tiktoken_roundtrip),
        cmocka_unit_test(test_hf_json),
        cmocka_unit_test(test_gguf_tokens),
    };
    return cmocka_run_group_tests_name("tok_load", tests, setup, teardown);
}
