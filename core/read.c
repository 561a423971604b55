/* read.c — the one bounded reader (pii_read.h). */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "pii_read.h"

pii_err pii_read_all(int fd, size_t max, char **out, size_t *len)
{
    size_t n = 0, cap = 1 << 16;
    char *b = malloc(cap + 1);
    if (!b)
        return PII_ENOMEM;
    for (;;) {
        if (n == cap) {
            if (cap > max) /* a full buffer beyond max: too big */
                break;
            char *nb = realloc(b, cap * 2 + 1);
            if (!nb) {
                free(b);
                return PII_ENOMEM;
            }
            b = nb;
            cap *= 2;
        }
        ssize_t r = read(fd, b + n, cap - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int err = errno;
            free(b);
            errno = err;
            return PII_EIO;
        }
        if (r == 0)
            break;
        n += (size_t)r;
        if (n > max)
            break;
    }
    if (n > max) {
        free(b);
        return PII_ETOOBIG;
    }
    b[n] = '\0';
    *out = b;
    *len = n;
    return PII_OK;
}
