/* sniff.c — binary input detection (see sniff.h). */
#include <string.h>

#include "sniff.h"

int pii_sniff_binary(const uint8_t *p, size_t n)
{
    return memchr(p, 0, n < PII_SNIFF_BYTES ? n : PII_SNIFF_BYTES) != NULL;
}
