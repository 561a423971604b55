/* wide.c — the wide-text guard: refuses UTF-16 and UTF-32 text.
 *
 * The detectors read UTF-8.  UTF-16/UTF-32 text fed to them as bytes hides
 * every value (an e-mail becomes "m\0a\0r\0...") and would be written back
 * unscanned.  The guard is fed the same bytes as the stream and fails when
 * they show a wide encoding (see pii_redact.h for the exact patterns).
 * Cost: one memchr for NUL per feed, then a few compares per NUL. */
#include <string.h>

#include "pii_redact.h"

void pii_wide_init(pii_wide *w)
{
    memset(w, 0, sizeof *w);
}

/* printable ASCII, TAB, LF, CR: what ASCII text looks like */
static int ptext(uint8_t c)
{
    return (c >= 0x20 && c < 0x7f) || c == '\t' || c == '\n' || c == '\r';
}

/* Byte at index i of the concatenation carry[0..nc) ++ p[0..n), i >= 0. */
static uint8_t at(const pii_wide *w, const uint8_t *p, size_t i)
{
    return i < w->ncarry ? w->carry[i] : p[i - w->ncarry];
}

/* Checks the windows that start at index s of the concatenation (total
 * length len): four UTF-16 units "P 00" in a row, or three UTF-32 units
 * "P 00 00 00" in a row (the last one's zeros not needed). */
static int hit_at(const pii_wide *w, const uint8_t *p, size_t s, size_t len)
{
    int ok = s + 8 <= len;
    for (size_t k = 0; ok && k < 4; k++)
        ok = ptext(at(w, p, s + 2 * k)) && at(w, p, s + 2 * k + 1) == 0;
    if (ok)
        return 1;
    ok = s + 9 <= len;
    for (size_t k = 0; ok && k < 9; k++)
        ok = k % 4 == 0 ? ptext(at(w, p, s + k)) : at(w, p, s + k) == 0;
    return ok;
}

static int bom_at_start(const uint8_t *b, size_t n)
{
    if (n >= 2 && ((b[0] == 0xFF && b[1] == 0xFE) || (b[0] == 0xFE && b[1] == 0xFF)))
        return 1;
    return n >= 4 && b[0] == 0 && b[1] == 0 && b[2] == 0xFE && b[3] == 0xFF;
}

pii_err pii_wide_feed(pii_wide *w, const void *data, size_t n)
{
    const uint8_t *p = data;
    if (w->hit)
        return PII_EENCODING;
    if (n == 0)
        return PII_OK;
    size_t len = w->ncarry + n;
    /* A byte-order mark of UTF-16/UTF-32 at the start of the input (the
     * first 4 bytes, which may arrive in pieces). */
    if (w->pos < 4) { /* then the carry holds every byte so far (4 < 8) */
        uint8_t head[4];
        size_t k = len < 4 ? len : 4;
        for (size_t i = 0; i < k; i++)
            head[i] = at(w, p, i);
        if (bom_at_start(head, k)) {
            w->hit = 1;
            w->hit_at = 0;
            return PII_EENCODING;
        }
    }
    /* Windows starting in the carried bytes (they straddle the boundary). */
    for (size_t s = 0; s < w->ncarry; s++)
        if (hit_at(w, p, s, len)) {
            w->hit = 1;
            w->hit_at = w->pos - w->ncarry + s;
            return PII_EENCODING;
        }
    /* Windows wholly inside p contain a NUL inside p: find each NUL and try
     * the windows that can hold it (they start at most 8 bytes earlier). */
    size_t from = 0, next_s = w->ncarry; /* windows from next_s on not tried yet */
    for (const uint8_t *z; from < n && (z = memchr(p + from, 0, n - from));
         from = (size_t)(z - p) + 1) {
        size_t zi = w->ncarry + (size_t)(z - p);
        size_t s0 = zi >= PII_WIDE_CARRY ? zi - PII_WIDE_CARRY : 0;
        if (s0 < next_s)
            s0 = next_s;
        for (size_t s = s0; s <= zi; s++)
            if (hit_at(w, p, s, len)) {
                w->hit = 1;
                w->hit_at = w->pos - w->ncarry + s;
                return PII_EENCODING;
            }
        next_s = zi + 1;
    }
    /* Carry the last bytes. */
    uint8_t keep[PII_WIDE_CARRY];
    size_t k = len < PII_WIDE_CARRY ? len : PII_WIDE_CARRY;
    for (size_t i = 0; i < k; i++)
        keep[i] = at(w, p, len - k + i);
    memcpy(w->carry, keep, k);
    w->ncarry = k;
    w->pos += n;
    return PII_OK;
}
