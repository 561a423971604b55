/* cache.c — a stream's result cache (cache.h). */
#include <stdlib.h>
#include <string.h>

#include "cache.h"

pii_err pii_ner_cache_init(ner_cache *c)
{
    if (c->e)
        return PII_OK;
    if (!(c->e = calloc(NER_CACHE_SLOTS, sizeof *c->e)))
        return PII_ENOMEM;
    for (size_t i = 0; i < NER_CACHE_SLOTS; i++)
        c->e[i].pending = SIZE_MAX;
    return PII_OK;
}

void pii_ner_cache_free(ner_cache *c)
{
    if (c->e)
        for (size_t i = 0; i < NER_CACHE_SLOTS; i++) {
            free(c->e[i].key);
            free(c->e[i].v);
        }
    free(c->e);
    c->e = NULL;
}

uint64_t pii_ner_cache_hash(const uint8_t *p, size_t n)
{
    uint64_t h = 0x9e3779b97f4a7c15ull ^ (n * 0xff51afd7ed558ccdull);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
        h ^= h >> 29;
    }
    uint64_t w = 0;
    memcpy(&w, p + i, n - i);
    h = (h ^ w) * 0x94d049bb133111ebull;
    return h ^ (h >> 31);
}

ner_centry *pii_ner_cache_find(ner_cache *cache, uint64_t h, const uint8_t *p, size_t n,
                               ner_centry **slot)
{
    ner_centry *free_slot = NULL, *first = NULL;
    for (size_t k = 0; k < NER_CACHE_PROBE; k++) {
        ner_centry *c = &cache->e[(h + k) & (NER_CACHE_SLOTS - 1)];
        if (!c->key) {
            if (!free_slot)
                free_slot = c;
            continue;
        }
        if (c->hash == h && c->klen == n && memcmp(c->key, p, n) == 0)
            return c;
        if (!first && c->pending == SIZE_MAX)
            first = c;
    }
    *slot = free_slot ? free_slot : first;
    return NULL;
}

void pii_ner_cache_claim(ner_centry *slot, uint64_t h, const uint8_t *p, size_t n, size_t miss)
{
    free(slot->key);
    free(slot->v);
    slot->v = NULL;
    slot->n = 0;
    if ((slot->key = malloc(n ? n : 1))) {
        memcpy(slot->key, p, n);
        slot->klen = n;
        slot->hash = h;
        slot->pending = miss;
    }
}

void pii_ner_cache_settle(ner_cache *cache, int failed, const pii_spanvec *out, size_t nout)
{
    for (size_t i = 0; cache->e && i < NER_CACHE_SLOTS; i++) {
        ner_centry *c = &cache->e[i];
        if (!c->key || c->pending == SIZE_MAX)
            continue;
        size_t m = c->pending;
        c->pending = SIZE_MAX;
        if (failed || m >= nout || pii_ner_spans_dup(&c->v, &c->n, out[m].v, out[m].n)) {
            free(c->key);
            c->key = NULL;
        }
    }
}

pii_err pii_ner_spans_dup(pii_span **dst, size_t *dn, const pii_span *v, size_t n)
{
    *dst = NULL;
    *dn = 0;
    if (!n)
        return PII_OK;
    if (!(*dst = malloc(n * sizeof *v)))
        return PII_ENOMEM;
    memcpy(*dst, v, n * sizeof *v);
    *dn = n;
    return PII_OK;
}
