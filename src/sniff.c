/* sniff.c — binary input detection (see sniff.h). */
#include <string.h>

#include "pii_core.h"
#include "sniff.h"

/* C0 controls that text holds: NUL (runs of it: issue 42 H5), BS, TAB, LF,
 * VT, FF, CR; and ESC (colours in logs). */
static int text_control(uint8_t c)
{
    return c == 0 || (c >= 0x08 && c <= 0x0d) || c == 0x1b;
}

int pii_sniff_binary(const uint8_t *p, size_t n)
{
    if (n > PII_SNIFF_BYTES)
        n = PII_SNIFF_BYTES;
    if (!memchr(p, 0, n))
        return 0;
    const uint8_t *q = p, *end = p + n;
    while (q < end) {
        if (*q < 0x80) {
            if ((*q < 0x20 && !text_control(*q)) || *q == 0x7f)
                return 1;
            q++;
            continue;
        }
        size_t k = pii_utf8_valid(q, end);
        if (k == 0) {
            /* a sequence cut by the end of the sniffed bytes is text when
             * some continuation completes it */
            if (end - q < 4 && n == PII_SNIFF_BYTES) {
                static const uint8_t fill[] = {0x80, 0x90, 0xa0};
                for (size_t f = 0; f < sizeof fill; f++) {
                    uint8_t t[4];
                    memset(t, fill[f], sizeof t);
                    memcpy(t, q, (size_t)(end - q));
                    if (pii_utf8_valid(t, t + 4) > (size_t)(end - q))
                        return 0;
                }
            }
            return 1;
        }
        q += k;
    }
    return 0;
}
