/* tok_internal.h — shared pieces of tokenizer/ (not installed).
 *
 * Legend: n = bytes in a piece, V = ids in a vocabulary (mergeable tokens
 * take ids 0..V-1 and an id is the token's merge rank).
 *
 * The vocabulary table ("blob") is one contiguous, position-independent
 * block so that the built-in o200k table can be produced at build time
 * (tools/tokenizer/mkvocab.c) and linked into the binary as it is, and a
 * loaded vocabulary uses the very same layout in malloc'd memory:
 *
 *   tok_blob_hdr                       header, below
 *   uint32_t off[V + 1]                token i = bytes[off[i] .. off[i+1]); empty = no token
 *   tok_slot slot[1 << hash_bits]      open addressing, linear probing: the
 *                                      token's head word (tok_word) and
 *                                      meta = bits 63..40 hash tag,
 *                                      39..32 min(len, 255), 31..0 id + 1
 *                                      (0 = empty slot); a token of at most 8
 *                                      bytes is found without reading bytes[]
 *   uint8_t  bytes[]                   token bytes in id order
 *   int32_t  bpair[65536]              id of each two-byte token (a << 8 | b), -1
 *   uint64_t pair[1 << pair_bits]      the merge table (when pair_bits > 0): for
 *                                      every token T that BPE of T's own bytes
 *                                      turns into T, one entry
 *                                      (A+1) << 42 | B << 21 | T with A, B the
 *                                      parts of that run's last merge
 *                                      (0 = empty), keyed by tok_pair_hash
 *
 * BPE asks "is concat(A, B) a token, and which?" for adjacent parts A, B.
 * The merge table answers from the two ids, without touching any bytes, and
 * holds one pair per token instead of every split, which is exact:
 * suppose BPE of any piece merges adjacent parts A, B into T, and let R be
 * their byte range.  Every earlier merge inside R was also the lowest
 * (rank, position) among the pairs inside R, and no part crossed R's ends,
 * so the merges inside R are exactly those of BPE run on R's bytes alone,
 * which therefore reaches [A, B] and then [T].  So (A, B) is T's pair in the
 * table.  A pair that is not in the table is never merged, and so never
 * the lowest candidate: dropping it changes nothing.  The table exists when
 * every id is below 2^21; otherwise BPE hashes the bytes of each pair.
 *
 * tok_blob.c is compiled both into the library and into the host tool, so it
 * must not depend on anything but libc.
 */
#ifndef PII_TOK_INTERNAL_H
#define PII_TOK_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pii_core.h"
#include "pii_error.h"
#include "pii_tok.h"

/* ---- code point classes (tok_unicode_tab.c, generated) ---------------- */
enum {
    TOK_C_UP = 1,    /* [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]  */
    TOK_C_LO = 2,    /* [\p{Ll}\p{Lm}\p{Lo}\p{M}]        */
    TOK_C_L = 4,     /* \p{L}                            */
    TOK_C_N = 8,     /* \p{N}                            */
    TOK_C_WS = 16,   /* \s (White_Space)                 */
    TOK_C_CRLF = 32, /* \r or \n                         */
    TOK_C_BAD = 64,  /* scanner only: invalid UTF-8 byte */
    TOK_C_END = 128, /* scanner only: end of text/window */
};
extern const uint8_t pii_tok__ucls1[0x110000 >> 7];
extern const uint8_t pii_tok__ucls2[];

static inline unsigned tok_ucls(uint32_t cp)
{
    return pii_tok__ucls2[(size_t)pii_tok__ucls1[cp >> 7] * 128 + (cp & 127)];
}

/* UTF-8: pii_utf8_decode (pii_core.h), the project's one decoder. */

/* ---- hashing --------------------------------------------------------------
 * Fixed (unseeded) hash: the built-in table is hashed at build time. */
static inline uint64_t tok_rd64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}
static inline uint32_t tok_rd32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}
/* Head word of p[0..n): for n <= 8 a word that, with n, identifies the
 * bytes (first and last four bytes, or first, middle and last byte); for
 * longer strings the first eight bytes. */
static inline uint64_t tok_word(const uint8_t *p, size_t n)
{
    if (n > 8)
        return tok_rd64(p);
    if (n >= 4)
        return (uint64_t)tok_rd32(p) | ((uint64_t)tok_rd32(p + n - 4) << 32);
    if (n > 0)
        return (uint64_t)p[0] | ((uint64_t)p[n >> 1] << 8) | ((uint64_t)p[n - 1] << 16);
    return 0;
}

static inline uint64_t tok_hash(const uint8_t *p, size_t n)
{
    const uint64_t K = 0x9E3779B97F4A7C15ull;
    uint64_t h = (uint64_t)n * K;
    if (n <= 8) {
        h ^= tok_word(p, n);
    } else {
        const uint8_t *q = p + n - 8;
        while (p < q) {
            h = (h ^ tok_rd64(p)) * K;
            h ^= h >> 31;
            p += 8;
        }
        h ^= tok_rd64(q);
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    return h;
}

/* a[0..n) == b[0..n), inline for the short strings of token lookups. */
static inline int tok_eq(const uint8_t *a, const uint8_t *b, size_t n)
{
    if (n >= 8) {
        if (n <= 16)
            return tok_rd64(a) == tok_rd64(b) && tok_rd64(a + n - 8) == tok_rd64(b + n - 8);
        return memcmp(a, b, n) == 0;
    }
    if (n >= 4)
        return tok_rd32(a) == tok_rd32(b) && tok_rd32(a + n - 4) == tok_rd32(b + n - 4);
    return n == 0 || (a[0] == b[0] && a[n >> 1] == b[n >> 1] && a[n - 1] == b[n - 1]);
}

/* ---- the blob ------------------------------------------------------------ */
#define TOK_BLOB_MAGIC "PIITOKB3"
#define TOK_PAIR_MAX_ID (1u << 21)
/* Loaded vocabularies: every id (ordinary or special) is below this.  Real
 * BPE vocabularies hold up to a few hundred thousand ids; the bound keeps a
 * file that names one huge id from allocating gigabytes of empty rows. */
#define TOK_MAX_IDS (1u << 22)
#define TOK_BLOB_ENDIAN 0x01020304u
#define TOK_TAG_MASK 0xFFFFFF0000000000ull

typedef struct tok_slot {
    uint64_t word; /* tok_word of the token */
    uint64_t meta; /* tag | min(len, 255) << 32 | (id + 1); 0 = empty */
} tok_slot;

typedef struct tok_blob_hdr {
    char magic[8];
    uint32_t endian;    /* TOK_BLOB_ENDIAN as written by the producer */
    uint32_t n_ids;     /* V */
    uint32_t n_tokens;  /* ids that hold a token (<= V) */
    uint32_t max_len;   /* longest token, bytes */
    uint32_t hash_bits; /* slot count = 1 << hash_bits */
    uint32_t pair_bits; /* merge table slots = 1 << pair_bits, 0 = no table */
    uint64_t off_pos, slot_pos, bytes_pos, bpair_pos, pair_pos, total; /* from the blob start */
    uint64_t n_pairs;                                                  /* merge table entries */
    int32_t byte_id[256]; /* id of each single byte, -1 if none */
} tok_blob_hdr;

/* Builds a blob from V token strings (tok[i] may be NULL / len 0 for an id
 * without a token).  Duplicate strings keep the lowest id.  *out is
 * malloc'd (64-byte aligned start), *size its length.  Errors: PII_ENOMEM,
 * PII_ETOOBIG (over 2^32-2 ids or 4 GiB of bytes). */
pii_err pii_tok__blob_build(const uint8_t *const *tok, const size_t *len, size_t n_ids, void **out,
                            size_t *size, size_t *n_dup);

/* ---- the tokenizer object ------------------------------------------------ */
typedef struct tok_special {
    uint32_t id;
    uint32_t len;
    const char *name;
} tok_special;

struct pii_tok {
    const tok_blob_hdr *hdr;
    const uint32_t *off;  /* [V+1] */
    const tok_slot *slot; /* [mask+1] */
    const uint8_t *bytes; /* token bytes */
    const int32_t *bpair; /* [65536] two-byte tokens */
    const uint64_t *pair; /* merge table, NULL if none */
    uint64_t mask;        /* slot count - 1 */
    uint64_t pair_mask;   /* merge table slots - 1 */
    uint32_t n_ids;       /* V */
    uint32_t max_len;     /* longest mergeable token */
    uint32_t vocab_size;  /* V and special ids: max id + 1 */
    uint32_t n_special;
    const tok_special *special; /* [n_special], sorted by id */
    int builtin;                /* static; pii_tok_free is a no-op */
    void *blob_mem;             /* owned blob (loaded vocabularies) */
    void *special_mem;          /* owned specials + names */
};

/* Points t's table fields into a blob (checks the header). */
pii_err pii_tok__view(pii_tok *t, const void *blob, size_t size);

/* Makes a loaded tokenizer from V token strings and ns specials (names are
 * copied).  Checks that all 256 single bytes have a token.  errbuf gets the
 * reason on failure (prefixed with what). */
pii_err pii_tok__make(const uint8_t *const *tok, const size_t *len, size_t n_ids,
                      const tok_special *specials, size_t ns, pii_tok **out, const char *what,
                      char *errbuf, size_t errlen);

/* snprintf into errbuf when it is not NULL. */
void pii_tok__err(char *errbuf, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* id of the token with bytes p[0..n), given h = tok_hash(p, n); -1 if none. */
static inline int32_t tok_find_h(const pii_tok *t, const uint8_t *p, size_t n, uint64_t h)
{
    uint64_t key = (h & TOK_TAG_MASK) | ((uint64_t)(n < 255 ? n : 255) << 32);
    uint64_t w = tok_word(p, n);
    uint64_t i = h & t->mask;
    for (;;) {
        const tok_slot *s = &t->slot[i];
        uint64_t m = s->meta;
        if (!m)
            return -1;
        if ((m & ~0xFFFFFFFFull) == key && s->word == w) {
            uint32_t id = (uint32_t)m - 1;
            if (n <= 8)
                return (int32_t)id;
            uint32_t o = t->off[id];
            if (t->off[id + 1] - o == n && tok_eq(t->bytes + o + 8, p + 8, n - 8))
                return (int32_t)id;
        }
        i = (i + 1) & t->mask;
    }
}

static inline uint64_t tok_pair_hash(uint32_t a, uint32_t b)
{
    uint64_t h = ((uint64_t)a << 32 | b) * 0x9E3779B97F4A7C15ull;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 32;
    return h;
}

/* Id of the token concat(a, b) from the merge table, or -1. */
static inline int32_t tok_pair(const pii_tok *t, uint32_t a, uint32_t b)
{
    uint64_t key = (uint64_t)(a + 1) << 21 | b;
    uint64_t i = tok_pair_hash(a, b) & t->pair_mask;
    for (;;) {
        uint64_t e = t->pair[i];
        if ((e >> 21) == key)
            return (int32_t)(e & (TOK_PAIR_MAX_ID - 1));
        if (!e)
            return -1;
        i = (i + 1) & t->pair_mask;
    }
}

static inline int32_t tok_find(const pii_tok *t, const uint8_t *p, size_t n)
{
    if (n == 0 || n > t->max_len)
        return -1;
    return tok_find_h(t, p, n, tok_hash(p, n));
}

/* ---- pre-tokenizer (tok_pretok.c) ------------------------------------------ */
typedef struct tok_scan {
    const uint8_t *t; /* text */
    size_t len;       /* bytes of text available */
    int final;        /* 1: len is the end of the text; 0: more may follow */
    /* per piece */
    size_t lim;  /* window end: min(len, start + PII_TOK_MAX_PIECE) */
    int soft;    /* reading at len is a read of bytes not yet seen */
    int touched; /* the last piece's match depended on unseen bytes */
} tok_scan;

void pii_tok__scan_init(tok_scan *sc, const void *text, size_t len, int final);

/* End of the pre-token that starts at s (s < sc->len); sets sc->touched. */
size_t pii_tok__piece_end(tok_scan *sc, size_t s);

/* Where the stable prefix ends when the first touched piece starts at s and
 * the two pieces before it are [a, m) and [m, s) (a = m = s when absent):
 * s, or a for the one pattern that a cut at s would merge. */
size_t pii_tok__stable_back(const tok_scan *sc, size_t a, size_t m, size_t s);

#endif
