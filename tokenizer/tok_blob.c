/* tok_blob.c — builds and views the vocabulary table (layout in
 * tok_internal.h).  Also compiled into the build-time tool
 * tools/tokenizer/mkvocab.c, so it uses libc only. */
#include <stdlib.h>

#include "tok_internal.h"

static size_t align64(size_t x)
{
    return (x + 63) & ~(size_t)63;
}

static pii_err blob_base(const uint8_t *const *tok, const size_t *len, size_t n_ids, size_t extra,
                         void **out, size_t *size, size_t *n_dup)
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
    size_t bytes_pos = align64(slot_pos + nslot * sizeof(tok_slot));
    size_t bpair_pos = align64(bytes_pos + (size_t)total_bytes + 8); /* +8: slack for word loads */
    size_t pair_pos = bpair_pos + 65536 * sizeof(int32_t);
    size_t total = pair_pos + extra;
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
    h->bpair_pos = bpair_pos;
    h->pair_pos = pair_pos;
    h->total = total;
    uint32_t *off = (uint32_t *)(b + off_pos);
    tok_slot *slot = (tok_slot *)(b + slot_pos);
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
        while (slot[j].meta) {
            uint64_t e = slot[j].meta;
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
        slot[j].meta = key | (uint64_t)(i + 1);
        slot[j].word = tok_word(p, l);
        ntok++;
    }
    h->n_tokens = (uint32_t)ntok;
    for (int c = 0; c < 256; c++)
        h->byte_id[c] = -1;
    for (size_t i = 0; i < n_ids; i++)
        if (off[i + 1] - off[i] == 1 && h->byte_id[bytes[off[i]]] < 0)
            h->byte_id[bytes[off[i]]] = (int32_t)i;
    pii_tok t;
    memset(&t, 0, sizeof t);
    pii_tok__view(&t, b, total);
    int32_t *bp = (int32_t *)(b + bpair_pos);
    for (unsigned x = 0; x < 65536; x++) {
        uint8_t two[2] = {(uint8_t)(x >> 8), (uint8_t)x};
        bp[x] = tok_find(&t, two, 2);
    }
    *out = b;
    *size = total;
    return PII_OK;
}

/* Byte-level BPE of p[0..n) by the reference rule (ranks found by hashing
 * the bytes of each concatenation; lowest rank, leftmost first).  Returns 1
 * when it ends in a single part, with *a, *b the two parts of its last
 * merge.  st/id: scratch of n + 1 entries. */
static int last_merge(const pii_tok *t, const uint8_t *p, uint32_t n, uint32_t *st, int32_t *id,
                      uint32_t *a, uint32_t *b)
{
    for (uint32_t i = 0; i < n; i++) {
        st[i] = i;
        id[i] = t->hdr->byte_id[p[i]];
    }
    st[n] = n;
    uint32_t m = n;
    while (m > 1) {
        int32_t best = -1;
        uint32_t bi = 0;
        for (uint32_t i = 0; i + 1 < m; i++) {
            int32_t r = tok_find(t, p + st[i], st[i + 2] - st[i]);
            if (r >= 0 && (best < 0 || r < best)) {
                best = r;
                bi = i;
            }
        }
        if (best < 0)
            return 0;
        *a = (uint32_t)id[bi];
        *b = (uint32_t)id[bi + 1];
        id[bi] = best;
        memmove(st + bi + 1, st + bi + 2, (m - bi - 1) * sizeof *st);
        memmove(id + bi + 1, id + bi + 2, (m - bi - 2) * sizeof *id);
        m--;
    }
    return 1;
}

/* Calls f(ctx, a, b, t) for every token t that byte-level BPE of its own
 * bytes turns into t, with a, b the parts of the last merge. */
static pii_err each_pair(const pii_tok *t, void (*f)(void *, uint32_t, uint32_t, uint32_t),
                         void *ctx)
{
    uint32_t *st = malloc(((size_t)t->max_len + 1) * sizeof *st);
    int32_t *id = malloc(((size_t)t->max_len + 1) * sizeof *id);
    if (!st || !id) {
        free(st);
        free(id);
        return PII_ENOMEM;
    }
    for (uint32_t tid = 0; tid < t->n_ids; tid++) {
        uint32_t o = t->off[tid], l = t->off[tid + 1] - o, a, b;
        if (l < 2)
            continue;
        const uint8_t *p = t->bytes + o;
        if (tok_find(t, p, l) != (int32_t)tid)
            continue; /* a duplicate: its lower id stands for it */
        if (last_merge(t, p, l, st, id, &a, &b))
            f(ctx, a, b, tid);
    }
    free(st);
    free(id);
    return PII_OK;
}

typedef struct pair_fill {
    uint64_t *slot, mask, n;
} pair_fill;

static void put_pair(void *ctx, uint32_t a, uint32_t b, uint32_t id)
{
    pair_fill *pf = ctx;
    uint64_t key = (uint64_t)(a + 1) << 21 | b;
    uint64_t i = tok_pair_hash(a, b) & pf->mask;
    while (pf->slot[i]) {
        if ((pf->slot[i] >> 21) == key)
            return; /* cannot happen: a, b make one token */
        i = (i + 1) & pf->mask;
    }
    pf->slot[i] = key << 21 | id;
    pf->n++;
}

pii_err pii_tok__blob_build(const uint8_t *const *tok, const size_t *len, size_t n_ids, void **out,
                            size_t *size, size_t *n_dup)
{
    /* At most one merge pair per token: size the merge table for that. */
    size_t psize = 0;
    unsigned bits = 0;
    if (n_ids < TOK_PAIR_MAX_ID) {
        uint64_t n_tok = 0;
        for (size_t i = 0; i < n_ids; i++)
            n_tok += tok[i] && len[i] > 1;
        bits = 4;
        while (((uint64_t)1 << bits) < 2 * n_tok + 16)
            bits++;
        psize = ((size_t)1 << bits) * sizeof(uint64_t);
    }
    void *b;
    size_t bsize;
    pii_err err = blob_base(tok, len, n_ids, psize, &b, &bsize, n_dup);
    if (err || !psize) {
        *out = b;
        *size = bsize;
        return err;
    }
    /* The pairs come from BPE over the finished token table (the view has
     * no merge table yet, so it hashes bytes: the reference rule). */
    pii_tok t;
    memset(&t, 0, sizeof t);
    pii_tok__view(&t, b, bsize);
    tok_blob_hdr *h = b;
    pair_fill pf = {(uint64_t *)((uint8_t *)b + h->pair_pos), ((uint64_t)1 << bits) - 1, 0};
    if ((err = each_pair(&t, put_pair, &pf)) != PII_OK) {
        free(b);
        return err;
    }
    h->pair_bits = bits;
    h->n_pairs = pf.n;
    *out = b;
    *size = bsize;
    return PII_OK;
}

pii_err pii_tok__view(pii_tok *t, const void *blob, size_t size)
{
    const tok_blob_hdr *h = blob;
    if (size < sizeof *h || memcmp(h->magic, TOK_BLOB_MAGIC, 8) != 0 ||
        h->endian != TOK_BLOB_ENDIAN || h->total > size || h->hash_bits > 40 || h->pair_bits > 40)
        return PII_EFORMAT;
    const uint8_t *b = blob;
    t->hdr = h;
    t->off = (const uint32_t *)(b + h->off_pos);
    t->slot = (const tok_slot *)(b + h->slot_pos);
    t->bytes = b + h->bytes_pos;
    t->mask = ((uint64_t)1 << h->hash_bits) - 1;
    t->bpair = (const int32_t *)(b + h->bpair_pos);
    t->pair = h->pair_bits ? (const uint64_t *)(b + h->pair_pos) : NULL;
    t->pair_mask = h->pair_bits ? ((uint64_t)1 << h->pair_bits) - 1 : 0;
    t->n_ids = h->n_ids;
    t->max_len = h->max_len;
    return PII_OK;
}
