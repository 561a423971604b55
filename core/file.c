/* file.c — pii_file.h: a stream read whole into memory, bounded. */
#include <stdlib.h>

#include "pii_file.h"

pii_err pii_file_read_all(FILE *f, size_t max, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    size_t n = 0, cap = 1 << 14;
    char *b = malloc(cap + 1);
    if (!b)
        return PII_ENOMEM;
    for (;;) {
        if (n == cap) {
            if (cap >= max) {
                free(b);
                return PII_ETOOBIG;
            }
            size_t nc = cap < max - cap ? 2 * cap : max;
            char *nb = realloc(b, nc + 1);
            if (!nb) {
                free(b);
                return PII_ENOMEM;
            }
            b = nb;
            cap = nc;
        }
        size_t k = fread(b + n, 1, cap - n, f);
        n += k;
        if (k == 0)
            break;
    }
    if (n >= max || ferror(f)) {
        free(b);
        return n >= max ? PII_ETOOBIG : PII_EIO;
    }
    b[n] = '\0';
    *out = b;
    *len = n;
    return PII_OK;
}
