/* store_index.c — the tensor store's table, shared by the safetensors
 * reader (store.c) and the GGUF reader (gguf.c): adding tensors, the name
 * index, lookup by name, element counts and the error message helper.
 * Both readers call down into this file; neither calls the other's
 * internals (store.c only dispatches to pii_rt_gguf_parse). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pii_core.h"
#include "rt_store.h"

pii_err pii_rt_fail(char *errbuf, size_t cap, pii_err e, const char *file, const char *fmt, ...)
{
    if (errbuf && cap) {
        int k = snprintf(errbuf, cap, "%s: ", file ? file : "?");
        if (k < 0)
            k = 0;
        if ((size_t)k < cap) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(errbuf + k, cap - (size_t)k, fmt, ap);
            va_end(ap);
        }
    }
    return e;
}

uint64_t pii_rt_nelem(const int64_t *shape, int ndim, int *ok)
{
    uint64_t n = 1;
    *ok = 1;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] < 0) {
            *ok = 0;
            return 0;
        }
        uint64_t d = (uint64_t)shape[i];
        if (d && n > UINT64_MAX / d) {
            *ok = 0;
            return 0;
        }
        n *= d;
    }
    return n;
}

/* ---- name index ---------------------------------------------------------- */

static uint64_t hash_name(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    while (*s) {
        h ^= (uint8_t)*s++;
        h *= 1099511628211ull;
    }
    return h;
}

pii_err pii_rt_store_add(pii_rt_store *s, const char *name, size_t namelen, pii_rt_tensor *t,
                         char *errbuf, size_t cap)
{
    if (s->nt >= PII_RT_MAX_TENSORS)
        return pii_rt_fail(errbuf, cap, PII_ETOOBIG, t->file, "more than %u tensors",
                           PII_RT_MAX_TENSORS);
    if (PII_VEC_RESERVE(s->t, s->tcap, s->nt + 1))
        return PII_ENOMEM;
    char *nm = malloc(namelen + 1);
    if (!nm)
        return PII_ENOMEM;
    memcpy(nm, name, namelen);
    nm[namelen] = 0;
    t->name = nm;
    s->t[s->nt++] = *t;
    return PII_OK;
}

/* Builds the hash index; detects duplicate names. */
pii_err pii_rt_store_index(pii_rt_store *s, char *errbuf, size_t cap)
{
    free(s->hash);
    s->hcap = 16;
    while (s->hcap < s->nt * 2)
        s->hcap *= 2;
    s->hash = calloc(s->hcap, sizeof *s->hash);
    if (!s->hash)
        return PII_ENOMEM;
    for (size_t i = 0; i < s->nt; i++) {
        size_t h = hash_name(s->t[i].name) & (s->hcap - 1);
        while (s->hash[h]) {
            if (!strcmp(s->t[s->hash[h] - 1].name, s->t[i].name))
                return pii_rt_fail(errbuf, cap, PII_EFORMAT, s->t[i].file,
                                   "tensor '%s' appears twice", s->t[i].name);
            h = (h + 1) & (s->hcap - 1);
        }
        s->hash[h] = (uint32_t)(i + 1);
    }
    return PII_OK;
}

const pii_rt_tensor *pii_rt_store_find(const pii_rt_store *s, const char *name)
{
    if (!s || !s->hash)
        return NULL;
    size_t h = hash_name(name) & (s->hcap - 1);
    while (s->hash[h]) {
        const pii_rt_tensor *t = &s->t[s->hash[h] - 1];
        if (!strcmp(t->name, name))
            return t;
        h = (h + 1) & (s->hcap - 1);
    }
    return NULL;
}
