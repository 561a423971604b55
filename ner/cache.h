/* cache.h — a stream's result cache (cache.c; not public).
 *
 * Documents up to NER_CACHE_DOC_MAX bytes that the lookahead met, keyed by
 * their bytes (the model is deterministic and a document's spans depend on
 * its bytes alone): NER_CACHE_SLOTS entries in an open-addressed table
 * probed NER_CACHE_PROBE slots deep; a full probe run evicts its first
 * entry that is not being computed.  Bound: NER_CACHE_SLOTS x
 * (NER_CACHE_DOC_MAX + spans), at most 8 MiB of keys.
 *
 * One lookahead call: find each document (a hit is copied out at once, as
 * a later claim in the same call may evict it), claim a slot for each miss
 * (the entry is then pending: later copies in the call share its miss
 * index), compute the misses, and settle the claims with their spans.
 * A ner_cache belongs to one stream (one thread). */
#ifndef PII_NER_CACHE_H
#define PII_NER_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "pii_core.h"

#define NER_CACHE_SLOTS 4096u
#define NER_CACHE_PROBE 8u
#define NER_CACHE_DOC_MAX 2048u

typedef struct ner_centry {
    uint64_t hash;
    uint8_t *key; /* NULL: empty */
    size_t klen;
    pii_span *v;
    size_t n;
    size_t pending; /* SIZE_MAX, or the miss index while being computed */
} ner_centry;

typedef struct ner_cache {
    ner_centry *e; /* [NER_CACHE_SLOTS]; NULL until pii_ner_cache_init */
} ner_cache;

/* Allocates the table on first use (a no-op after). */
pii_err pii_ner_cache_init(ner_cache *c);
void pii_ner_cache_free(ner_cache *c);
uint64_t pii_ner_cache_hash(const uint8_t *p, size_t n);
/* The entry holding p[0..n) (hash h), or NULL; *slot: where to claim it
 * (NULL when every candidate is being computed). */
ner_centry *pii_ner_cache_find(ner_cache *c, uint64_t h, const uint8_t *p, size_t n,
                               ner_centry **slot);
/* Claims slot for p[0..n) (hash h), pending as miss `miss`; the entry it
 * held is dropped.  Out of memory: the slot is left empty. */
void pii_ner_cache_claim(ner_centry *slot, uint64_t h, const uint8_t *p, size_t n, size_t miss);
/* Settles every pending claim: entry of miss m takes a copy of out[m]
 * (m < nout); on failure (failed, no such miss, out of memory) it is
 * dropped. */
void pii_ner_cache_settle(ner_cache *c, int failed, const pii_spanvec *out, size_t nout);

/* *dst = a copy of v[0..n) (NULL when n == 0), *dn = n. */
pii_err pii_ner_spans_dup(pii_span **dst, size_t *dn, const pii_span *v, size_t n);

#endif
