/* tok_encode.c — byte-level BPE by rank, the piece cache, the encode loop.
 *
 * Legend: n = bytes in a piece (n <= PII_TOK_MAX_PIECE), m = parts left.
 *
 * BPE (tiktoken's rule): a piece that is itself a token is that token.
 * Otherwise start from single bytes and repeatedly merge the adjacent pair
 * whose concatenation has the lowest rank, leftmost on ties, until no
 * adjacent concatenation is a token.  A pair's rank comes from the merge
 * table (tok_internal.h), or from hashing its bytes when the vocabulary has
 * no table.
 *
 * Pieces up to BPE_SMALL bytes use tiktoken's quadratic loop over a flat
 * array ("lanes", run interleaved across the pieces of a chunk: see
 * run_lanes); longer ones a linked list and a binary min-heap keyed
 * (rank << 32 | start), which picks the same pair (lowest rank, then
 * leftmost start) in O(n log n).  Heap entries are never removed: an entry
 * is stale when rk[start] no longer equals its rank (rk changes with every
 * merge that touches the pair, and a pair's concatenation only grows, so a
 * changed pair never has its old rank again).
 *
 * Memory: the encoder owns all scratch (sized for PII_TOK_MAX_PIECE and
 * CHUNK at creation); encoding allocates only to grow the caller's buffer.
 */
#include <stdlib.h>

#include "tok_internal.h"

#define BPE_SMALL 48 /* longest piece for the flat merge loop */
#define RANK_NONE 0xFFFFFFFFu
#define CACHE_BITS 14
#define CACHE_MAXP 56 /* longest cached piece, bytes */
#define CACHE_MAXT 12 /* most tokens of a cached piece */
#define CHUNK 64      /* pieces scanned ahead and encoded together */

typedef struct cache_slot {
    uint64_t h;
    uint8_t plen; /* 0 = empty */
    uint8_t ntok;
    uint8_t tlen[CACHE_MAXT]; /* token lengths in bytes */
    int32_t ids[CACHE_MAXT];
    uint8_t bytes[CACHE_MAXP];
} cache_slot;
_Static_assert(sizeof(cache_slot) <= 128, "cache slot grew");

/* A piece of the current chunk and how its tokens are found. */
enum { P_ONE, P_MISS, P_CACHED, P_LANE, P_HEAP };
typedef struct piece {
    size_t s, e;
    uint64_t h;
    int kind;
    int32_t id;           /* P_ONE: the piece is this token */
    const cache_slot *cs; /* P_CACHED */
    uint32_t lane;        /* P_LANE */
} piece;

/* The flat BPE state of one short piece (see run_lanes). */
typedef struct lane {
    const uint8_t *p;
    uint32_t m;           /* parts left */
    uint32_t np;          /* pending lookups */
    uint32_t tgt[2];      /* rk index each pending lookup fills */
    int32_t pa[2], pb[2]; /* their pairs */
    uint32_t st[BPE_SMALL + 1];
    uint32_t rk[BPE_SMALL];
    int32_t id[BPE_SMALL];
} lane;

struct pii_tok_enc {
    const pii_tok *tok;
    cache_slot *cache; /* [1 << CACHE_BITS] */
    /* BPE scratch, PII_TOK_MAX_PIECE + 1 entries each */
    uint32_t *st;     /* part starts (flat) / next part start (list) */
    uint32_t *prv;    /* previous part start (list) */
    uint32_t *rk;     /* rank of the pair starting at part i */
    int32_t *id;      /* token id of part i */
    uint64_t *heap;   /* [3 * PII_TOK_MAX_PIECE] */
    struct piece *pc; /* [CHUNK] pieces of the current chunk */
    struct lane *ln;  /* [CHUNK] BPE lanes */
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
    e->pc = malloc(CHUNK * sizeof *e->pc);
    e->ln = malloc(CHUNK * sizeof *e->ln);
    if (!e->cache || !e->st || !e->prv || !e->rk || !e->id || !e->heap || !e->pc || !e->ln) {
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
    free(e->pc);
    free(e->ln);
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
/* Flat BPE of the short pieces of a chunk, interleaved.  Each lane runs
 * tiktoken's loop: find the lowest-rank pair (leftmost on ties), merge it,
 * look up the two pairs the merge created.  Those lookups mostly miss the
 * CPU caches, and a lane cannot go on without them; so the lanes take turns
 * one merge at a time, each prefetching the merge-table slots it will read
 * on its next turn while the other lanes work. */
static void run_lanes(pii_tok_enc *e, size_t nl)
{
    const pii_tok *t = e->tok;
    const int32_t *byte_id = t->hdr->byte_id;
    uint32_t act[CHUNK], na = 0;
    for (uint32_t k = 0; k < nl; k++) {
        lane *l = &e->ln[k];
        const uint8_t *p = l->p;
        uint32_t n = l->m;
        for (uint32_t i = 0; i < n; i++) {
            l->st[i] = i;
            l->id[i] = byte_id[p[i]];
        }
        l->st[n] = n;
        for (uint32_t i = 0; i + 1 < n; i++)
            l->rk[i] = (uint32_t)t->bpair[p[i] << 8 | p[i + 1]];
        l->rk[n - 1] = RANK_NONE;
        l->np = 0;
        act[na++] = k;
    }
    while (na) {
        for (uint32_t x = 0; x < na;) {
            lane *l = &e->ln[act[x]];
            for (uint32_t j = 0; j < l->np; j++) {
                uint32_t g = l->tgt[j];
                l->rk[g] =
                    merge_rank(t, l->pa[j], l->pb[j], l->p + l->st[g], l->st[g + 2] - l->st[g]);
            }
            l->np = 0;
            uint32_t m = l->m, best = RANK_NONE, bi = 0;
            for (uint32_t i = 0; i + 1 < m; i++)
                if (l->rk[i] < best) {
                    best = l->rk[i];
                    bi = i;
                }
            if (best == RANK_NONE) {
                act[x] = act[--na]; /* this lane is done */
                continue;
            }
            l->id[bi] = (int32_t)best;
            /* drop part bi + 1 (short arrays: a loop beats a memmove call) */
            for (uint32_t i = bi + 1; i + 1 < m; i++) {
                l->st[i] = l->st[i + 1];
                l->id[i] = l->id[i + 1];
                l->rk[i] = l->rk[i + 1];
            }
            l->st[m - 1] = l->st[m];
            l->m = --m;
            if (bi + 1 < m) {
                l->tgt[l->np] = bi;
                l->pa[l->np] = l->id[bi];
                l->pb[l->np++] = l->id[bi + 1];
            } else {
                l->rk[bi] = RANK_NONE;
            }
            if (bi > 0) {
                l->tgt[l->np] = bi - 1;
                l->pa[l->np] = l->id[bi - 1];
                l->pb[l->np++] = l->id[bi];
            }
            if (t->pair)
                for (uint32_t j = 0; j < l->np; j++)
                    __builtin_prefetch(
                        &t->pair[tok_pair_hash((uint32_t)l->pa[j], (uint32_t)l->pb[j]) &
                                 t->pair_mask]);
            x++;
        }
    }
}

/* Pass 1a for one piece: its hash, and a prefetch of its vocabulary slot
 * for pass 1b. */
static inline void hash_piece(const pii_tok *t, const uint8_t *text, piece *pc)
{
    size_t n = pc->e - pc->s;
    if (n > 1 && (n <= t->max_len || n <= CACHE_MAXP)) {
        pc->h = tok_hash(text + pc->s, n);
        if (n <= t->max_len)
            __builtin_prefetch(&t->slot[pc->h & t->mask]);
    }
}

/* Pass 1b for one piece: the whole-piece lookup.  A miss prefetches the
 * piece's cache slot for pass 1c. */
static void lookup_piece(pii_tok_enc *e, const uint8_t *text, piece *pc)
{
    const pii_tok *t = e->tok;
    const uint8_t *p = text + pc->s;
    size_t n = pc->e - pc->s;
    if (n == 1) {
        pc->kind = P_ONE;
        pc->id = t->hdr->byte_id[p[0]];
        return;
    }
    if (n <= t->max_len) {
        int32_t id = tok_find_h(t, p, n, pc->h);
        if (id >= 0) {
            pc->kind = P_ONE;
            pc->id = id;
            return;
        }
    }
    pc->kind = P_MISS;
    if (n <= CACHE_MAXP)
        __builtin_prefetch(&e->cache[(pc->h >> 7) & (((size_t)1 << CACHE_BITS) - 1)]);
}

/* Pass 1c for a piece that is not a token: the cache, else a lane (short)
 * or the heap (long). */
static void classify(pii_tok_enc *e, const uint8_t *text, piece *pc, size_t *nl)
{
    const uint8_t *p = text + pc->s;
    size_t n = pc->e - pc->s;
    uint64_t h = pc->h;
    if (n <= CACHE_MAXP) {
        const cache_slot *cs = &e->cache[(h >> 7) & (((size_t)1 << CACHE_BITS) - 1)];
        if (cs->h == h && cs->plen == n && memcmp(cs->bytes, p, n) == 0) {
            pc->kind = P_CACHED;
            pc->cs = cs;
            return;
        }
    }
    if (n <= BPE_SMALL) {
        pc->kind = P_LANE;
        pc->lane = (uint32_t)*nl;
        e->ln[*nl].p = p;
        e->ln[*nl].m = (uint32_t)n;
        (*nl)++;
    } else {
        pc->kind = P_HEAP;
    }
}

/* Pass 3 for one piece: its tokens, in order; out has room for them. */
static void emit_piece(pii_tok_enc *e, const uint8_t *text, const piece *pc, pii_tok_buf *out)
{
    size_t base = pc->s, n = pc->e - pc->s;
    switch (pc->kind) {
    case P_ONE:
        emit(out, pc->id, base, pc->e);
        break;
    case P_CACHED: {
        const cache_slot *cs = pc->cs;
        for (unsigned i = 0; i < cs->ntok; i++) {
            emit(out, cs->ids[i], base, base + cs->tlen[i]);
            base += cs->tlen[i];
        }
        break;
    }
    case P_LANE: {
        const lane *l = &e->ln[pc->lane];
        for (uint32_t i = 0; i < l->m; i++)
            emit(out, l->id[i], base + l->st[i], base + l->st[i + 1]);
        break;
    }
    default:
        bpe_heap(e, text + base, n);
        for (uint32_t i = 0; i < n; i = e->st[i])
            emit(out, e->id[i], base + i, base + e->st[i]);
    }
}

/* Pass 4 for one piece that BPE computed: remember its tokens. */
static void cache_store(pii_tok_enc *e, const uint8_t *text, const piece *pc,
                        const pii_tok_buf *out, size_t first, size_t nt)
{
    size_t n = pc->e - pc->s;
    if ((pc->kind != P_LANE && pc->kind != P_HEAP) || n > CACHE_MAXP || nt > CACHE_MAXT)
        return;
    cache_slot *cs = &e->cache[(pc->h >> 7) & (((size_t)1 << CACHE_BITS) - 1)];
    cs->h = pc->h;
    cs->plen = (uint8_t)n;
    cs->ntok = (uint8_t)nt;
    memcpy(cs->bytes, text + pc->s, n);
    for (size_t i = 0; i < nt; i++) {
        cs->ids[i] = out->ids[first + i];
        cs->tlen[i] = (uint8_t)(out->offs[first + i].end - out->offs[first + i].start);
    }
}

/* The encode loop, up to CHUNK pieces at a time: scan and hash (1a), look
 * up (1b), the cache (1c),
 * BPE of the short pieces, interleaved (pass 2), emit in order (pass 3),
 * fill the cache (pass 4: after pass 3, so that the cache slots that pass 1
 * found stay valid until their pieces are emitted). */
static pii_err encode_run(pii_tok_enc *enc, const uint8_t *text, size_t len, int final,
                          pii_tok_buf *out, size_t *consumed)
{
    tok_scan sc;
    pii_tok__scan_init(&sc, text, len, final);
    size_t s = 0, a = 0, m = 0;      /* the two pieces before s: [a, m), [m, s) */
    size_t na = out->n, nm = out->n; /* out->n when they started */
    size_t first[CHUNK];
    int touched = 0;
    pii_err err = PII_OK;
    while (s < len && !touched) {
        size_t np = 0, nl = 0, scan = s;
        while (np < CHUNK && scan < len) {
            size_t e = pii_tok__piece_end(&sc, scan);
            if (sc.touched) {
                touched = 1; /* nothing from here on is final */
                break;
            }
            piece *pc = &enc->pc[np++];
            pc->s = scan;
            pc->e = e;
            hash_piece(enc->tok, text, pc);
            scan = e;
        }
        for (size_t i = 0; i < np; i++)
            lookup_piece(enc, text, &enc->pc[i]);
        for (size_t i = 0; i < np; i++)
            if (enc->pc[i].kind == P_MISS)
                classify(enc, text, &enc->pc[i], &nl);
        if (out->cap - out->n < scan - s && (err = buf_reserve(out, scan - s)) != PII_OK)
            break;
        run_lanes(enc, nl);
        for (size_t i = 0; i < np; i++) {
            a = m;
            na = nm;
            m = s;
            nm = first[i] = out->n;
            emit_piece(enc, text, &enc->pc[i], out);
            s = enc->pc[i].e;
        }
        for (size_t i = 0; i < np; i++)
            cache_store(enc, text, &enc->pc[i], out, first[i],
                        (i + 1 < np ? first[i + 1] : out->n) - first[i]);
    }
    if (touched && !err) {
        size_t r = pii_tok__stable_back(&sc, a, m, s);
        if (r != s) {
            out->n = na; /* r == a: take back the two pieces */
            s = r;
        }
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
