/* tok_offsets.c — widening byte ranges to whole characters (spec §4).
 *
 * A character is a well-formed UTF-8 sequence, or one invalid byte (the
 * same decoding as the pre-tokenizer).  Two cursors walk the text once:
 * one for range starts, one for range ends (both non-decreasing). */
#include "tok_internal.h"

typedef struct cursor {
    const uint8_t *t;
    size_t len;
    size_t pos;    /* byte start of the current character */
    size_t chr;    /* its character index */
    unsigned clen; /* its length in bytes */
} cursor;

static unsigned char_len(const uint8_t *t, size_t len, size_t pos)
{
    uint32_t cp;
    int k = pii_utf8_decode(t + pos, len - pos, &cp);
    return k > 0 ? (unsigned)k : 1;
}

/* Moves c to the character that contains byte b (b >= c->pos). */
static void advance(cursor *c, size_t b)
{
    while (c->pos + c->clen <= b) {
        c->pos += c->clen;
        c->chr++;
        c->clen = char_len(c->t, c->len, c->pos);
    }
}

pii_err pii_tok_widen(const void *text, size_t len, const pii_tok_span *byte_offs, size_t n,
                      pii_tok_span *out_bytes, pii_tok_span *out_chars)
{
    if ((!text && len) || (!byte_offs && n))
        return PII_EINVAL;
    for (size_t i = 0; i < n; i++) {
        if (byte_offs[i].start >= byte_offs[i].end || byte_offs[i].end > len)
            return PII_EINVAL;
        if (i && (byte_offs[i].start < byte_offs[i - 1].start ||
                  byte_offs[i].end < byte_offs[i - 1].end))
            return PII_EINVAL;
    }
    if (!n)
        return PII_OK;
    cursor a = {text, len, 0, 0, char_len(text, len, 0)};
    cursor z = a;
    for (size_t i = 0; i < n; i++) {
        advance(&a, byte_offs[i].start);
        advance(&z, byte_offs[i].end - 1);
        if (out_bytes) {
            out_bytes[i].start = a.pos;
            out_bytes[i].end = z.pos + z.clen;
        }
        if (out_chars) {
            out_chars[i].start = a.chr;
            out_chars[i].end = z.chr + 1;
        }
    }
    return PII_OK;
}
