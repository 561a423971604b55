/* pii_tok.h — the o200k_base byte-level BPE tokenizer (spec §4).
 *
 * What it does: splits UTF-8 text into pre-tokens with the o200k regex
 * (a hand-written scanner, classes generated from tiktoken itself), then
 * BPE-encodes each pre-token by rank.  Ids and byte offsets are identical
 * to tiktoken's `o200k_base` `encode_ordinary`, with three documented
 * extensions for input tiktoken cannot see or would handle unboundedly
 * (docs/TOKENIZER.md):
 *  - Invalid UTF-8: each byte that is not part of a well-formed sequence
 *    (RFC 3629: no overlongs, surrogates or code points above U+10FFFF) is
 *    a pre-token of its own, encoded by its single-byte token, and acts like
 *    the end of the text for the pre-tokens around it.
 *  - Long pre-tokens: a pre-token is matched inside a window of
 *    PII_TOK_MAX_PIECE bytes from its start, the window end acting like the
 *    end of the text.  Text whose runs (letters/marks, whitespace, other
 *    symbols) are all shorter than about PII_TOK_MAX_PIECE bytes is
 *    unaffected; longer runs become pieces of at most PII_TOK_MAX_PIECE
 *    bytes cut at character boundaries, deterministically from the piece
 *    start, so streaming and one-shot encodings stay identical and BPE cost
 *    stays O(n log n) per piece.
 *  - Special-token text such as "<|endoftext|>" is plain text: input can
 *    never produce a special id.  Special ids are only looked up by name.
 *
 * Offsets are UTF-8 byte offsets [start, end) into the encoded buffer; the
 * tokens of one call tile it exactly (token i ends where i+1 starts, the
 * first starts at 0, the last ends at len).  pii_tok_widen() gives the
 * widened character offsets of spec §4.
 *
 * Ownership and threads: a pii_tok is immutable and may be shared by any
 * number of threads.  The built-in pii_tok_o200k() is static (no start-up
 * work, never freed).  A pii_tok_enc holds one thread's cache and scratch;
 * it must not be used by two threads at once, and must not outlive its
 * pii_tok.  Encoding allocates nothing except to grow the caller's
 * pii_tok_buf.  All *_free(NULL) are no-ops.
 *
 * Limits: one encode call handles any length (offsets are size_t); token
 * ids are below 2^31; loaded vocabularies hold ids below 2^22 (4,194,304;
 * a larger id is refused as a format error before anything is allocated
 * for it) of at most 4 GiB of bytes in all.
 */
#ifndef PII_TOK_H
#define PII_TOK_H

#include <stddef.h>
#include <stdint.h>

#include "pii_error.h"

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API of libpiiredact.so */
#endif

/* Largest pre-token, in bytes (see the contract above). */
#define PII_TOK_MAX_PIECE 4096

typedef struct pii_tok pii_tok;
typedef struct pii_tok_enc pii_tok_enc;

/* A byte (or character) range, half-open. */
typedef struct pii_tok_span {
    size_t start, end;
} pii_tok_span;

/* Caller-owned growable output.  Zero-initialise it (PII_TOK_BUF_INIT);
 * encoders append to it and grow it with realloc; reset n to reuse it;
 * release it with pii_tok_buf_free. */
typedef struct pii_tok_buf {
    int32_t *ids;       /* [cap] token ids                     */
    pii_tok_span *offs; /* [cap] byte offsets, same index as ids */
    size_t n;           /* tokens held                         */
    size_t cap;         /* allocated entries of both arrays    */
} pii_tok_buf;
#define PII_TOK_BUF_INIT                                                                           \
    {                                                                                              \
        NULL, NULL, 0, 0                                                                           \
    }

void pii_tok_buf_free(pii_tok_buf *b);

/* ---- vocabularies ---------------------------------------------------------- */

/* The built-in o200k_base table (199,998 mergeable tokens plus the 21
 * special tokens of the Privacy Filter's tokenizer.json, ids
 * 199998..200018).  Never NULL, never freed. */
const pii_tok *pii_tok_o200k(void);

/* Hugging Face tokenizer.json: model.type "BPE" with GPT-2 byte-to-unicode
 * keys, ids taken as merge ranks (checked against model.merges, which must
 * be in non-decreasing rank order); added_tokens become special tokens.  The
 * pre-tokenizer must be the o200k regex (PII_EUNSUPPORTED otherwise).
 * errbuf (may be NULL) receives a message naming the file and the problem. */
pii_err pii_tok_load_hf_json(const char *path, pii_tok **out, char *errbuf, size_t errlen);

/* tiktoken rank file: lines "<base64 bytes> <rank>".  No special tokens. */
pii_err pii_tok_load_tiktoken(const char *path, pii_tok **out, char *errbuf, size_t errlen);

/* GGUF tokenizer.ggml.tokens, already read by the caller: n strings in
 * GPT-2 byte-to-unicode form, index = id.  types (may be NULL) is
 * tokenizer.ggml.token_type: 1 = normal BPE token, 3 = control, 4 =
 * user-defined, others skipped; control and user-defined tokens become
 * special tokens.  Without types, a string of the form "<|...|>" is taken
 * as special.  The strings are copied. */
pii_err pii_tok_load_gguf_tokens(const char *const *tokens, const size_t *lens,
                                 const int32_t *types, size_t n, pii_tok **out, char *errbuf,
                                 size_t errlen);

/* Frees a loaded tokenizer; a no-op for NULL and for pii_tok_o200k(). */
void pii_tok_free(pii_tok *tok);

/* Number of ids: largest mergeable or special id + 1. */
size_t pii_tok_vocab_size(const pii_tok *tok);

/* Bytes of a mergeable token (not NUL-terminated) or the name of a special
 * token; NULL for an id that has neither.  *len receives the length. */
const uint8_t *pii_tok_token_bytes(const pii_tok *tok, int32_t id, size_t *len);

/* Whether id is a special token. */
int pii_tok_is_special(const pii_tok *tok, int32_t id);

/* Id of a special token by name ("<|endoftext|>"), or -1. */
int32_t pii_tok_special_id(const pii_tok *tok, const char *name);

/* Checks that two vocabularies agree on every id both define (bytes of
 * mergeable tokens, names of special tokens).  PII_OK, or
 * PII_ETOKENIZER with a message naming the first differing id.  *n_common
 * (may be NULL) receives the number of ids compared. */
pii_err pii_tok_compare(const pii_tok *a, const pii_tok *b, size_t *n_common, char *errbuf,
                        size_t errlen);

/* ---- encoding --------------------------------------------------------------- */

/* A per-thread encoder: piece cache and BPE scratch (about 2.5 MiB).
 * NULL when out of memory. */
pii_tok_enc *pii_tok_enc_create(const pii_tok *tok);
void pii_tok_enc_free(pii_tok_enc *enc);

/* Appends the tokens of text[0..len) to out, offsets relative to text.
 * Errors: PII_ENOMEM (out then holds the tokens of a prefix of the text,
 * whole pre-tokens only), PII_EINVAL (NULL enc/out, or NULL text with
 * len > 0). */
pii_err pii_tok_encode(pii_tok_enc *enc, const void *text, size_t len, pii_tok_buf *out);

/* Streaming: text[0..len) is the next part of a longer text and starts at
 * a pre-token boundary of it (the start of the text, or where the previous
 * call stopped).  Appends the tokens of the longest prefix that is stable
 * (see pii_tok_stable_len) and sets *consumed to its length; the caller
 * keeps text[*consumed..len) and calls again with more bytes appended.
 * With last != 0 the text ends at len: everything is encoded, exactly as
 * pii_tok_encode.  Concatenating the outputs (offsets shifted by the bytes
 * consumed before) gives exactly pii_tok_encode of the whole text.
 * *consumed >= len - PII_TOK_MAX_PIECE when len is large: the held-back
 * tail is less than one window. */
pii_err pii_tok_encode_stream(pii_tok_enc *enc, const void *text, size_t len, int last,
                              pii_tok_buf *out, size_t *consumed);

/* The stable prefix of a text that continues after len bytes: returns the
 * largest p <= len (found by the rule below) such that, for every
 * continuation `rest`,
 *   (1) p is a pre-token boundary of text[0..len) + rest, and the
 *       pre-tokens of text[0..len) + rest that lie in [0, p) are exactly
 *       the pre-tokens of text[0..p) encoded on its own;
 *   (2) the pre-tokens from p on are those of (text[p..len) + rest) on its
 *       own (the scanner has no state but its position).
 * Rule: p is the start of the first pre-token whose match had to look at
 * bytes at or past len (a run reaching the end, an incomplete UTF-8
 * sequence, a possible contraction suffix, the look-ahead of `\s+(?!\S)`).
 * text must start at a pre-token boundary.  Vocabulary-independent. */
size_t pii_tok_stable_len(const void *text, size_t len);

/* Pre-tokens only (testing and diagnostics): appends the byte ranges of the
 * pre-tokens of text[0..len) (a complete text) to *spans (grown with
 * realloc; *cap its capacity), returns the new count via *n.  PII_ENOMEM. */
pii_err pii_tok_pretokenize(const void *text, size_t len, pii_tok_span **spans, size_t *n,
                            size_t *cap);

/* ---- offsets ----------------------------------------------------------------- */

/* Widens byte ranges to whole characters (spec §4 "Offsets"): a range
 * covers every character whose bytes overlap it, an invalid byte counting as
 * one character.  For each input range i, out_bytes[i] (may be NULL)
 * receives the widened byte range and out_chars[i] (may be NULL) the same
 * range in character (code point) indices, as HF and opf report them.
 * Ranges must lie in [0, len) with start < end, and both their starts and
 * their ends must be non-decreasing (token offsets are).  Linear in
 * len + n.  PII_EINVAL otherwise. */
pii_err pii_tok_widen(const void *text, size_t len, const pii_tok_span *byte_offs, size_t n,
                      pii_tok_span *out_bytes, pii_tok_span *out_chars);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif

#endif
