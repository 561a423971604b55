/* vec.c — the growable-array helper (pii_core.h, PII_VEC_RESERVE). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pii_core.h"

pii_err pii_vec_grow(void *pp, size_t *cap, size_t need, size_t esz)
{
    if (need <= *cap)
        return PII_OK;
    size_t nc = *cap ? *cap : 16;
    while (nc < need) {
        if (nc > SIZE_MAX / 2)
            return PII_ENOMEM;
        nc *= 2;
    }
    if (esz && nc > SIZE_MAX / esz)
        return PII_ENOMEM;
    void *p;
    memcpy(&p, pp, sizeof p); /* *pp is a T *, read and written as bytes */
    void *q = realloc(p, nc * esz);
    if (!q)
        return PII_ENOMEM;
    memcpy(pp, &q, sizeof q);
    *cap = nc;
    return PII_OK;
}
