/* fuzz_tokjson.c — loading tokenizers people bring: Hugging Face
 * tokenizer.json, tiktoken rank files and GGUF token lists.
 *
 * Input: the file contents.  Each input is written to a scratch file and
 * given to pii_tok_load_hf_json and pii_tok_load_tiktoken; its lines are
 * also given to pii_tok_load_gguf_tokens as a token list (every third
 * token typed control).  Checked: a loader either succeeds or returns an
 * error with a NUL-terminated message and no tokenizer; a loaded tokenizer
 * encodes a sample text and the input itself into tokens that tile them,
 * with ids below its vocabulary size; comparing it with o200k terminates.
 *
 * FUZZ_ARGS: -max_len=65536
 */
#include <string.h>

#include "fuzz.h"
#include "pii_tok.h"

#include "fuzz_util.inc"

static char g_path[256];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    snprintf(g_path, sizeof g_path, "%s", fuzz_tmpfile("tok.in", "", 0, 0600));
    return 0;
}

static void use(pii_tok *t, const uint8_t *data, size_t size)
{
    static const char sample[] =
        "Hello world, mail bob@example.com \xff\xfe caf\xc3\xa9 <|endoftext|>";
    pii_tok_enc *enc = pii_tok_enc_create(t);
    if (!enc)
        return;
    const struct {
        const void *p;
        size_t n;
    } texts[2] = {{sample, sizeof sample - 1}, {data, size < 512 ? size : 512}};
    for (int k = 0; k < 2; k++) {
        pii_tok_buf b = PII_TOK_BUF_INIT;
        pii_err e = pii_tok_encode(enc, texts[k].p, texts[k].n, &b);
        FUZZ_CHECK(e == PII_OK || e == PII_ENOMEM || e == PII_ETOKENIZER);
        size_t at = 0;
        for (size_t i = 0; i < b.n; i++) {
            FUZZ_CHECK(b.offs[i].start == at && b.offs[i].end > at);
            FUZZ_CHECK(b.ids[i] >= 0 && (size_t)b.ids[i] < pii_tok_vocab_size(t));
            at = b.offs[i].end;
        }
        if (e == PII_OK)
            FUZZ_CHECK(at == texts[k].n);
        pii_tok_buf_free(&b);
    }
    pii_tok_enc_free(enc);
    char err[128];
    size_t common = 0;
    pii_tok_compare(pii_tok_o200k(), t, &common, err, sizeof err);
}

static void check_load(pii_err e, pii_tok *t, const char *err, size_t cap)
{
    FUZZ_CHECK(memchr(err, 0, cap) != NULL);
    if (e != PII_OK)
        FUZZ_CHECK(t == NULL);
    else
        FUZZ_CHECK(t != NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fopen(g_path, "wb");
    FUZZ_CHECK(f && fwrite(data, 1, size, f) == size && fclose(f) == 0);

    char err[200];
    pii_tok *t = NULL;
    memset(err, 'x', sizeof err);
    err[sizeof err - 1] = 0;
    pii_err e = pii_tok_load_hf_json(g_path, &t, err, sizeof err);
    check_load(e, t, err, sizeof err);
    if (t)
        use(t, data, size);
    pii_tok_free(t);

    t = NULL;
    e = pii_tok_load_tiktoken(g_path, &t, err, sizeof err);
    check_load(e, t, err, sizeof err);
    if (t)
        use(t, data, size);
    pii_tok_free(t);

    /* lines as a GGUF token list */
    size_t n = 0;
    for (size_t i = 0; i < size; i++)
        n += data[i] == '\n';
    n++;
    const char **tok = malloc(n * sizeof *tok);
    size_t *len = malloc(n * sizeof *len);
    int32_t *types = malloc(n * sizeof *types);
    FUZZ_CHECK(tok && len && types);
    size_t k = 0, at = 0;
    for (size_t i = 0; i <= size; i++)
        if (i == size || data[i] == '\n') {
            tok[k] = (const char *)data + at;
            len[k] = i - at;
            types[k] = k % 3 == 2 ? 3 : 1;
            k++;
            at = i + 1;
        }
    t = NULL;
    e = pii_tok_load_gguf_tokens(tok, len, (size & 1) ? types : NULL, n, &t, err, sizeof err);
    check_load(e, t, err, sizeof err);
    if (t)
        use(t, data, size);
    pii_tok_free(t);
    free(tok);
    free(len);
    free(types);
    return 0;
}
