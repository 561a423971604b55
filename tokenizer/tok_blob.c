/* tok_blob.c — builds and views the vocabulary table (layout in
 * tok_internal.h).  Also compiled into the build-time tool
 * tools/tokenizer/mkvocab.c, so it uses libc only. */
#include <stdlib.h>

#include "tok_internal.h"

static size_t align64(size_t x)
{
    return (x + 63) & ~(size_t)63;
}

pii_err pii_tok__blob_build(const uint8_t *const *tok, const size_t *len, size_t n_ids, void **out,
                            size_t *size, size_t *n_dup)
{
    *out = NULL;
    *size = 0;
    if (n_dup)
        *n_dup = 0;
    if (n_ids > 0x7FFFFFFEu)
        return PII_ETOOBIG;
    uint64_t total_bytes = 0;
    size_t n_tok = 0, max_len = 0;
    for (size_t i = 0; i < n_ids; i++) {
        size_t l = tok[i] ? len[i] : 0;
        total_bytes += l;
        n_tok += l > 0;
        if (l > max_len)
            max_len = l;
    }
    if (total_bytes > 0xFFFFFFFFull)
        return PII_ETOOBIG;
    unsigned bits = 4;
    while (((size_t)1 << bits) < 2 * n_tok)
        bits++;
    size_t nslot = (size_t)1 << bits;
    size_t off_pos = align64(sizeof(tok_blob_hdr));
    size_t slot_pos = align64(off_pos + (n_ids + 1) * sizeof(uint32_t));
    size_t bytes_pos = align64(slot_pos + nslot * sizeof(uint64_t));
    size_t total = align64(bytes_pos + (size_t)total_bytes + 8); /* +8: slack for word loads */
    uint8_t *b = aligned_alloc(64, total);
    if (!b)
        return PII_ENOMEM;
    memset(b, 0, total);
    tok_blob_hdr *h = (tok_blob_hdr *)b;
    memcpy(h->magic, TOK_BLOB_MAGIC, 8);
    h->endian = TOK_BLOB_ENDIAN;
    h->n_ids = (uint32_t)n_ids;
    h->max_len = (uint32_t)max_len;
    h->hash_bits = bits;
    h->off_pos = off_pos;
    h->slot_pos = slot_pos;
    h->bytes_pos = bytes_pos;
    h->total = total;
    uint32_t *off = (uint32_t *)(b + off_pos);
    uint64_t *slot = (uint64_t *)(b + slot_pos);
    uint8_t *bytes = b + bytes_pos;
    uint32_t o = 0;
    for (size_t i = 0; i < n_ids; i++) {
        off[i] = o;
        size_t l = tok[i] ? len[i] : 0;
        if (l)
            memcpy(bytes + o, tok[i], l);
        o += (uint32_t)l;
    }
    off[n_ids] = o;
    size_t mask = nslot - 1, ntok = 0;
    for (size_t i = 0; i < n_ids; i++) {
        size_t l = off[i + 1] - off[i];
        if (!l)
            continue;
        const uint8_t *p = bytes + off[i];
        uint64_t hh = tok_hash(p, l);
        uint64_t key = (hh & TOK_TAG_MASK) | ((uint64_t)(l < 255 ? l : 255) << 32);
        size_t j = hh & mask;
        int dup = 0;
        while (slot[j]) {
            uint64_t e = slot[j];
            if ((e & ~0xFFFFFFFFull) == key) {
                uint32_t id = (uint32_t)e - 1;
                if (off[id + 1] - off[id] == l && memcmp(bytes + off[id], p, l) == 0) {
                    dup = 1;
                    break;
                }
            }
            j = (j + 1) & mask;
        }
        if (dup) {
            if (n_dup)
                (*n_dup)++;
            continue;
        }
        slot[j] = key | (uint64_t)(i + 1);
        ntok++;
    }
    h->n_tokens = (uint32_t)ntok;
    for (int c = 0; c < 256; c++)
        h->byte_id[c] = -1;
    for (size_t i = 0; i < n_ids; i++)
        if (off[i + 1] - off[i] == 1 && h->byte_id[bytes[off[i]]] < 0)
            h->byte_id[bytes[off[i]]] = (int32_t)i;
    *out = b;
    *size = total;
    return PII_OK;
}

pii_err pii_tok__view(pii_tok *t, const void *blob, size_t size)
{
    const tok_blob_hdr *h = blob;
    if (size < sizeof *h || memcmp(h->magic, TOK_BLOB_MAGIC, 8) != 0 ||
        h->endian != TOK_BLOB_ENDIAN || h->total > size || h->hash_bits > 40)
        return PII_EFORMAT;
    const uint8_t *b = blob;
    t->hdr = h;
    t->off = (const uint32_t *)(b + h->off_pos);
    t->slot = (const uint64_t *)(b + h->slot_pos);
    t->bytes = b + h->bytes_pos;
    t->mask = ((uint64_t)1 << h->hash_bits) - 1;
    t->n_ids = h->n_ids;
    t->max_len = h->max_len;
    return PII_OK;
}
