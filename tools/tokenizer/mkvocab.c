/* mkvocab.c — build-time tool: turns a token list (tokenizer/data/NAME.vocab,
 * format in tools/tokenizer/gen-vocab.cjs) into the ready-to-use table blob
 * that tokenizer/tok_o200k_data.c links into the library.
 *
 *   mkvocab IN.vocab OUT.tbl
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenizer/tok_internal.h"

static int fail(const char *what, const char *path)
{
    fprintf(stderr, "mkvocab: %s: %s\n", path, what);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: mkvocab IN.vocab OUT.tbl\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f)
        return fail("cannot open", argv[1]);
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    if (sz < 12)
        return fail("too short", argv[1]);
    uint8_t *d = malloc((size_t)sz);
    if (!d || fread(d, 1, (size_t)sz, f) != (size_t)sz)
        return fail("cannot read", argv[1]);
    fclose(f);
    if (memcmp(d, "PIIVOCAB", 8) != 0)
        return fail("bad magic", argv[1]);
    uint32_t n =
        (uint32_t)d[8] | (uint32_t)d[9] << 8 | (uint32_t)d[10] << 16 | (uint32_t)d[11] << 24;
    const uint8_t **tok = malloc(n * sizeof *tok);
    size_t *len = malloc(n * sizeof *len);
    if (!tok || !len)
        return fail("out of memory", argv[1]);
    size_t p = 12;
    for (uint32_t i = 0; i < n; i++) {
        if (p >= (size_t)sz || p + 1 + d[p] > (size_t)sz)
            return fail("truncated", argv[1]);
        len[i] = d[p];
        tok[i] = d + p + 1;
        p += 1 + d[p];
    }
    if (p != (size_t)sz)
        return fail("trailing bytes", argv[1]);
    void *blob;
    size_t size, ndup;
    if (pii_tok__blob_build(tok, len, n, &blob, &size, &ndup) != PII_OK)
        return fail("cannot build the table", argv[1]);
    if (ndup)
        return fail("duplicate tokens", argv[1]);
    for (int c = 0; c < 256; c++)
        if (((tok_blob_hdr *)blob)->byte_id[c] < 0)
            return fail("a single byte has no token", argv[1]);
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", argv[2]);
    FILE *o = fopen(tmp, "wb");
    if (!o || fwrite(blob, 1, size, o) != size || fclose(o) != 0)
        return fail("cannot write", tmp);
    if (rename(tmp, argv[2]) != 0)
        return fail("cannot rename", tmp);
    return 0;
}
