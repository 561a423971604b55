/* fuzz_tok.c — the built-in o200k tokenizer on arbitrary bytes (invalid
 * UTF-8, NUL, overlong sequences, surrogates, endless runs).
 *
 * Input: byte 0 seeds the chunking, the rest is the text.  Checked:
 *  - pii_tok_encode succeeds; token offsets tile the text exactly; every id
 *    is a mergeable (never special) token whose bytes are the text it
 *    covers;
 *  - pii_tok_encode_stream fed in random chunks gives exactly the one-shot
 *    ids and offsets, and holds back less than one window once the pending
 *    text is large;
 *  - pii_tok_stable_len(text) = p: encoding text[0..p) alone gives exactly
 *    the one-shot tokens that end at or before p, and p is one of their
 *    boundaries;
 *  - pii_tok_pretokenize tiles the text; pii_tok_widen accepts the token
 *    offsets and widens each to whole characters that contain it.
 *
 * FUZZ_ARGS: -max_len=6144
 */
#include <string.h>

#include "fuzz.h"
#include "pii_tok.h"

static pii_tok_enc *g_enc;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    g_enc = pii_tok_enc_create(pii_tok_o200k());
    FUZZ_CHECK(g_enc);
    return 0;
}

static void check_tiling(const pii_tok_buf *b, const uint8_t *text, size_t len)
{
    const pii_tok *tok = pii_tok_o200k();
    size_t at = 0;
    for (size_t i = 0; i < b->n; i++) {
        FUZZ_CHECK(b->offs[i].start == at && b->offs[i].end > at && b->offs[i].end <= len);
        FUZZ_CHECK(!pii_tok_is_special(tok, b->ids[i]));
        size_t n;
        const uint8_t *bytes = pii_tok_token_bytes(tok, b->ids[i], &n);
        FUZZ_CHECK(bytes && n == b->offs[i].end - at && memcmp(bytes, text + at, n) == 0);
        at = b->offs[i].end;
    }
    FUZZ_CHECK(at == len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint64_t seed = size ? data[0] : 0;
    if (size) {
        data++;
        size--;
    }
    pii_tok_buf one = PII_TOK_BUF_INIT;
    FUZZ_CHECK(pii_tok_encode(g_enc, data, size, &one) == PII_OK);
    check_tiling(&one, data, size);

    /* streaming in random chunks */
    static const size_t avgs[4] = {3, 13, 300, 5000};
    size_t avg = avgs[seed & 3];
    pii_tok_buf st = PII_TOK_BUF_INIT;
    size_t pos = 0, avail = 0;
    while (pos < size || avail < size) {
        size_t add = (size_t)(fuzz_rand(&seed) % (2 * avg + 1));
        avail = add < size - avail ? avail + add : size;
        size_t from = st.n, consumed = 0;
        int last = avail == size;
        FUZZ_CHECK(pii_tok_encode_stream(g_enc, data + pos, avail - pos, last, &st, &consumed) ==
                   PII_OK);
        FUZZ_CHECK(consumed <= avail - pos);
        if (last)
            FUZZ_CHECK(consumed == avail - pos);
        if (avail - pos > PII_TOK_MAX_PIECE)
            FUZZ_CHECK(consumed >= avail - pos - PII_TOK_MAX_PIECE);
        for (size_t i = from; i < st.n; i++) {
            st.offs[i].start += pos;
            st.offs[i].end += pos;
        }
        pos += consumed;
        if (last)
            break;
    }
    FUZZ_CHECK(st.n == one.n);
    for (size_t i = 0; i < one.n; i++)
        FUZZ_CHECK(st.ids[i] == one.ids[i] && st.offs[i].start == one.offs[i].start &&
                   st.offs[i].end == one.offs[i].end);

    /* the stable prefix */
    size_t p = pii_tok_stable_len(data, size);
    FUZZ_CHECK(p <= size);
    pii_tok_buf pre = PII_TOK_BUF_INIT;
    FUZZ_CHECK(pii_tok_encode(g_enc, data, p, &pre) == PII_OK);
    size_t k = 0;
    while (k < one.n && one.offs[k].end <= p)
        k++;
    FUZZ_CHECK(pre.n == k && (k == 0 ? p == 0 : one.offs[k - 1].end == p));
    for (size_t i = 0; i < k; i++)
        FUZZ_CHECK(pre.ids[i] == one.ids[i] && pre.offs[i].end == one.offs[i].end);

    /* pre-tokens tile the text */
    pii_tok_span *sp = NULL;
    size_t nsp = 0, capsp = 0;
    FUZZ_CHECK(pii_tok_pretokenize(data, size, &sp, &nsp, &capsp) == PII_OK);
    size_t at = 0;
    for (size_t i = 0; i < nsp; i++) {
        FUZZ_CHECK(sp[i].start == at && sp[i].end > at);
        at = sp[i].end;
    }
    FUZZ_CHECK(at == size);
    free(sp);

    /* widened offsets contain the token and start/end on characters */
    if (one.n) {
        pii_tok_span *wb = malloc(one.n * sizeof *wb), *wc = malloc(one.n * sizeof *wc);
        FUZZ_CHECK(wb && wc);
        FUZZ_CHECK(pii_tok_widen(data, size, one.offs, one.n, wb, wc) == PII_OK);
        for (size_t i = 0; i < one.n; i++) {
            FUZZ_CHECK(wb[i].start <= one.offs[i].start && wb[i].end >= one.offs[i].end);
            FUZZ_CHECK(wb[i].end <= size && wc[i].start < wc[i].end);
            if (i)
                FUZZ_CHECK(wc[i].start >= wc[i - 1].start && wc[i].end >= wc[i - 1].end);
        }
        free(wb);
        free(wc);
    }
    pii_tok_buf_free(&one);
    pii_tok_buf_free(&st);
    pii_tok_buf_free(&pre);
    return 0;
}
