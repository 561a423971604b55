/* tok_encode.c — byte-level BPE by rank, the piece cache, the encode loop.
 *
 * Legend: n = bytes in a piece (n <= PII_TOK_MAX_PIECE), m = parts left.
 *
 * BPE (tiktoken's rule): a piece that is itself a token is that token.
 * Otherwise start from single bytes and repeatedly merge the adjacent pair
 * whose concatenation has the lowest rank, leftmost on ties, until no
 * adjacent concatenation is a token.  Pieces up to BPE_SMALL bytes use the
 * quadratic scan over a flat array (fast for short words); longer ones a
 * linked list and a binary min-heap keyed (rank << 32 | start), which picks
 * the same pair (lowest rank, then leftmost start) in O(n log n).  Heap
 * entries are never removed: an entry is stale when rk[start] no longer
 * equals its rank (rk changes with every merge that touches the pair, and a
 * pair's concatenation only grows, so a changed pair never has its old rank
 * again).
 */
#include <stdlib.h>

#include "tok_internal.h"

#define BPE_SMALL 48
#define RANK_NONE 0xFFFFFFFFu
#define CACHE_BITS 14
#define CACHE_MAXP 56 /* longest cached piece, bytes */
#define CACHE_MAXT 12 /* most tokens of a cached piece */

typedef struct cache_slot {
    uint64_t h;
    uint8_t plen; /* 0 = empty */
    uint8_t ntok;
    uint8_t tlen[CACHE_MAXT]; /* token lengths in bytes */
    int32_t ids[CACHE_MAXT];
    uint8_t bytes[CACHE_MAXP];
} cache_slot;
_Static_assert(sizeof(cache_slot) <= 128, "cache slot grew");

struct pii_tok_enc {
    const pii_tok *tok;
    cache_slot *cache; /* [1 << CACHE_BITS] */
    /* BPE scratch, PII_TOK_MAX_PIECE + 1 entries each */
    uint32_t *st;   /* part starts (flat) / next part start (list) */
    uint32_t *prv;  /* previous part start (list) */
    uint32_t *rk;   /* rank of the pair starting at part i */
    int32_t *id;    /* token id of part i */
    uint64_t *heap; /* [3 * PII_TOK_MAX_PIECE] */
};

void pii_tok_buf_free(pii_tok_buf *b)
{
    if (!b)
        return;
    free(b->ids);
    free(b->offs);
    b->ids = NULL;
    b->offs = NULL;
    b->n = b->cap = 0;
}

static pii_err buf_reserve(pii_tok_buf *b, size_t more)
{
    if (b->cap - b->n >= more)
        return PII_OK;
    size_t nc = b->cap ? b->cap : 256;
    while (nc - b->n < more) {
        if (nc > SIZE_MAX / 2 / sizeof(pii_tok_span))
            return PII_ENOMEM;
        nc *= 2;
    }
    int32_t *ids = realloc(b->ids, nc * sizeof *ids);
    if (!ids)
        return PII_ENOMEM;
    b->ids = ids;
    pii_tok_span *offs = realloc(b->offs, nc * sizeof *offs);
    if (!offs)
        return PII_ENOMEM;
    b->offs = offs;
    b->cap = nc;
    return PII_OK;
}

pii_tok_enc *pii_tok_enc_create(const pii_tok *tok)
{
    if (!tok)
        return NULL;
    pii_tok_enc *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->tok = tok;
    size_t np = PII_TOK_MAX_PIECE + 1;
    e->cache = calloc((size_t)1 << CACHE_BITS, sizeof *e->cache);
    e->st = malloc(np * sizeof *e->st);
    e->prv = malloc(np * sizeof *e->prv);
    e->rk = malloc(np * sizeof *e->rk);
    e->id = malloc(np * sizeof *e->id);
    e->heap = malloc(3 * (size_t)PII_TOK_MAX_PIECE * sizeof *e->heap);
    if (!e->cache || !e->st || !e->prv || !e->rk || !e->id || !e->heap) {
        pii_tok_enc_free(e);
        return NULL;
    }
    return e;
}

void pii_tok_enc_free(pii_tok_enc *e)
{
    if (!e)
        return;
    free(e->cache);
    free(e->st);
    free(e->prv);
    free(e->rk);
    free(e->id);
    free(e->heap);
    free(e);
}

/* Rank of merging adjacent parts a and b, which cover p[0..n): the id of
 * their concatenation, RANK_NONE if it is not a token.  From the merge
 * table when the vocabulary has one, else by hashing the bytes. */
static inline uint32_t merge_rank(const pii_tok *t, int32_t a, int32_t b, const uint8_t *p,
                                  size_t n)
{
    if (t->pair)
        return (uint32_t)tok_pair(t, (uint32_t)a, (uint32_t)b); /* -1 -> RANK_NONE */
    return (uint32_t)tok_find(t, p, n);
}

/* Flat quadratic merge.  Leaves parts [st[i], st[i+1]) with ids id[i];
 * returns m. */
static size_t bpe_small(pii_tok_enc *e, const uint8_t *p, size_t n)
{
    const pii_tok *t = e->tok;
    const int32_t *byte_id = t->hdr->byte_id;
    uint32_t *st = e->st, *rk = e->rk;
    int32_t *id = e->id;
    for (size_t i = 0; i < n; i++) {
        st[i] = (uint32_t)i;
        id[i] = byte_id[p[i]];
    }
    st[n] = (uint32_t)n;
    for (size_t i = 0; i + 1 < n; i++)
        rk[i] = (uint32_t)t->bpair[p[i] << 8 | p[i + 1]];
    rk[n - 1] = RANK_NONE;
    size_t m = n;
    while (m > 1) {
        uint32_t best = RANK_NONE;
        size_t bi = 0;
        for (size_t i = 0; i + 1 < m; i++)
            if (rk[i] < best) {
                best = rk[i];
                bi = i;
            }
        if (best == RANK_NONE)
            break;
        id[bi] = (int32_t)best;
        memmove(st + bi + 1, st + bi + 2, (m - bi - 1) * sizeof *st);
        memmove(id + bi + 1, id + bi + 2, (m - bi - 2) * sizeof *id);
        memmove(rk + bi + 1, rk + bi + 2, (m - bi - 2) * sizeof *rk);
        m--;
        rk[bi] = bi + 1 < m ? merge_rank(t, id[bi], id[bi + 1], p + st[bi], st[bi + 2] - st[bi])
                            : RANK_NONE;
        if (bi > 0)
            rk[bi - 1] = merge_rank(t, id[bi - 1], id[bi], p + st[bi - 1], st[bi + 1] - st[bi - 1]);
    }
    return m;
}

static inline void heap_push(uint64_t *h, size_t *hn, uint64_t v)
{
    size_t i = (*hn)++;
    while (i > 0) {
        size_t up = (i - 1) >> 1;
        if (h[up] <= v)
            break;
        h[i] = h[up];
        i = up;
    }
    h[i] = v;
}

static inline uint64_t heap_pop(uint64_t *h, size_t *hn)
{
    uint64_t top = h[0], v = h[--(*hn)];
    size_t n = *hn, i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && h[c + 1] < h[c])
            c++;
        if (h[c] >= v)
            break;
        h[i] = h[c];
        i = c;
    }
    if (n)
        h[i] = v;
    return top;
}

/* Heap merge for long pieces.  Parts form a list: st[i] = start of the part
 * after the part starting at i (n at the end), prv[i] the one before.
 * Leaves the result as a list from 0. */
static void bpe_heap(pii_tok_enc *e, const uint8_t *p, size_t n)
{
    const pii_tok *t = e->tok;
    const int32_t *byte_id = t->hdr->byte_id;
    uint32_t *nx = e->st, *pv = e->prv, *rk = e->rk;
    int32_t *id = e->id;
    uint64_t *h = e->heap;
    size_t hn = 0;
    for (size_t i = 0; i < n; i++) {
        nx[i] = (uint32_t)(i + 1);
        pv[i] = (uint32_t)i - 1;
        id[i] = byte_id[p[i]];
    }
    for (size_t i = 0; i < n; i++) {
        rk[i] = i + 1 < n ? (uint32_t)t->bpair[p[i] << 8 | p[i + 1]] : RANK_NONE;
        if (rk[i] != RANK_NONE)
            heap_push(h, &hn, (uint64_t)rk[i] << 32 | i);
    }
    while (hn) {
        uint64_t top = heap_pop(h, &hn);
        uint32_t r = (uint32_t)(top >> 32), i = (uint32_t)top;
        if (rk[i] != r)
            continue; /* stale */
        uint32_t j = nx[i], k = nx[j];
        id[i] = (int32_t)r;
        rk[j] = RANK_NONE;
        nx[i] = k;
        if (k < n)
            pv[k] = i;
        rk[i] = k < n ? merge_rank(t, id[i], id[k], p + i, nx[k] - i) : RANK_NONE;
        if (rk[i] != RANK_NONE)
            heap_push(h, &hn, (uint64_t)rk[i] << 32 | i);
        if (i > 0) {
            uint32_t a = pv[i];
            rk[a] = merge_rank(t, id[a], id[i], p + a, k - a);
            if (rk[a] != RANK_NONE)
                heap_push(h, &hn, (uint64_t)rk[a] << 32 | a);
        }
    }
}

static inline void emit(pii_tok_buf *out, int32_t id, size_t s, size_t e)
{
    size_t k = out->n++;
    out->ids[k] = id;
    out->offs[k].start = s;
    out->offs[k].end = e;
}

/* Encodes the piece p[0..n) found at offset base; out has room for n more. */
static void encode_piece(pii_tok_enc *e, const uint8_t *p, size_t n, size_t base, pii_tok_buf *out)
{
    const pii_tok *t = e->tok;
    if (n == 1) {
        emit(out, t->hdr->byte_id[p[0]], base, base + 1);
        return;
    }
    uint64_t h = 0;
    if (n <= t->max_len || n <= CACHE_MAXP)
        h = tok_hash(p, n);
    if (n <= t->max_len) {
        int32_t id = tok_find_h(t, p, n, h);
        if (id >= 0) {
            emit(out, id, base, base + n);
            return;
        }
    }
    cache_slot *cs = NULL;
    if (n <= CACHE_MAXP) {
        cs = &e->cache[(h >> 7) & (((size_t)1 << CACHE_BITS) - 1)];
        if (cs->h == h && cs->plen == n && memcmp(cs->bytes, p, n) == 0) {
            size_t s = base;
            for (unsigned i = 0; i < cs->ntok; i++) {
                emit(out, cs->ids[i], s, s + cs->tlen[i]);
                s += cs->tlen[i];
            }
            return;
        }
    }
    size_t first = out->n;
    if (n <= BPE_SMALL) {
        size_t m = bpe_small(e, p, n);
        for (size_t i = 0; i < m; i++)
            emit(out, e->id[i], base + e->st[i], base + e->st[i + 1]);
    } else {
        bpe_heap(e, p, n);
        for (uint32_t i = 0; i < n; i = e->st[i])
            emit(out, e->id[i], base + i, base + e->st[i]);
    }
    size_t nt = out->n - first;
    if (cs && nt <= CACHE_MAXT) {
        cs->h = h;
        cs->plen = (uint8_t)n;
        cs->ntok = (uint8_t)nt;
        memcpy(cs->bytes, p, n);
        for (size_t i = 0; i < nt; i++) {
            cs->ids[i] = out->ids[first + i];
            cs->tlen[i] = (uint8_t)(out->offs[first + i].end - out->offs[first + i].start);
        }
    }
}

static pii_err encode_run(pii_tok_enc *enc, const uint8_t *text, size_t len, int final,
                          pii_tok_buf *out, size_t *consumed)
{
    tok_scan sc;
    pii_tok__scan_init(&sc, text, len, final);
    size_t s = 0, a = 0, m = 0;      /* the two pieces before s: [a, m), [m, s) */
    size_t na = out->n, nm = out->n; /* out->n when they started */
    pii_err err = PII_OK;
    while (s < len) {
        size_t e = pii_tok__piece_end(&sc, s);
        if (sc.touched) {
            size_t q = pii_tok__stable_back(&sc, a, m, s);
            if (q != s) {
                out->n = na; /* q == a: take back the two pieces */
                s = q;
            }
            break;
        }
        if (out->cap - out->n < e - s && (err = buf_reserve(out, e - s)) != PII_OK)
            break;
        a = m;
        na = nm;
        m = s;
        nm = out->n;
        encode_piece(enc, text + s, e - s, s, out);
        s = e;
    }
    if (consumed)
        *consumed = s;
    return err;
}

pii_err pii_tok_encode(pii_tok_enc *enc, const void *text, size_t len, pii_tok_buf *out)
{
    if (!enc || !out || (!text && len))
        return PII_EINVAL;
    return encode_run(enc, text, len, 1, out, NULL);
}

pii_err pii_tok_encode_stream(pii_tok_enc *enc, const void *text, size_t len, int last,
                              pii_tok_buf *out, size_t *consumed)
{
    if (consumed)
        *consumed = 0;
    if (!enc || !out || !consumed || (!text && len))
        return PII_EINVAL;
    return encode_run(enc, text, len, last != 0, out, consumed);
}
