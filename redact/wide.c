/* wide.c — the wide-text guard: refuses UTF-16 and UTF-32 text.
 *
 * The detectors read UTF-8.  UTF-16/UTF-32 text fed to them as bytes hides
 * every value (an e-mail becomes "m\0a\0r\0...") and would be written back
 * unscanned.  The guard is fed the same bytes as the stream and fails when
 * they show a wide encoding (see pii_redact.h for the exact patterns).
 *
 * Every window of the contract holds some "trigger" bytes: NULs (the ASCII
 * patterns), C0 control bytes (the small-script pattern), NUL/C0 bytes and
 * a byte that is never UTF-8 after the one before it (the CJK pattern).
 * The feed keeps the input positions of the last few trigger bytes, so a
 * window is examined only when enough of them lie in it; windows are
 * examined in the order in which they end, so the window reported (the
 * first to end; among those ending together, the first rule) does not
 * depend on how the input is cut into feeds.  Cost for text without C0
 * control bytes: a few compares per byte. */
#include <string.h>

#include "pii_redact.h"

enum { W_U16 = 8, W_U32 = 9, W_SMALL = 32, W_CJK = 128 };

void pii_wide_init(pii_wide *w)
{
    memset(w, 0, sizeof *w);
}

/* printable ASCII, TAB, LF, CR: what ASCII text looks like */
static int ptext(uint8_t c)
{
    return (c >= 0x20 && c < 0x7f) || c == '\t' || c == '\n' || c == '\r';
}

/* C0 controls that text does not hold (TAB, LF, CR excluded): the high
 * bytes of U+0100..U+1FFF in UTF-16 */
static int ctl(uint8_t c)
{
    return c >= 0x01 && c < 0x20 && c != '\t' && c != '\n' && c != '\r';
}

/* NUL and the C0 controls text does not hold, form feed and escape also
 * excluded (they occur in source files and coloured logs) */
static int zbyte(uint8_t c)
{
    return c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != 0x1b;
}

/* b (after a) is never well-formed UTF-8: a continuation byte after an
 * ASCII byte, or C0, C1, F5..FF */
static int bad_pair(uint8_t a, uint8_t b)
{
    return (b >= 0x80 && b <= 0xBF && a < 0x80) || b == 0xC0 || b == 0xC1 || b >= 0xF5;
}

/* Records input position q (+1, so that 0 means none) as the newest of a
 * ring of the last k positions (ring[0] the oldest). */
static void push_pos(uint64_t *ring, size_t k, uint64_t q)
{
    memmove(ring, ring + 1, (k - 1) * sizeof *ring);
    ring[k - 1] = q + 1;
}

/* The 16-bit code unit k of a window, little- or big-endian. */
static unsigned unit16(const uint8_t *b, size_t k, int be, uint8_t *lo, uint8_t *hi)
{
    *lo = b[2 * k + (be ? 1 : 0)];
    *hi = b[2 * k + (be ? 0 : 1)];
    return (unsigned)*hi << 8 | *lo;
}

/* Small scripts (Greek, Cyrillic, Hebrew, Arabic, ...): 16 units whose
 * high bytes are 0 or one control byte h, at least 8 of them h with at
 * least 4 different low bytes; a unit with high byte 0 is ASCII text or
 * Latin-1 (low byte >= A0). */
static int small_script(const uint8_t *b, int be)
{
    uint8_t h = 0, lows[16];
    size_t nh = 0, ndiff = 0;
    for (size_t k = 0; k < W_SMALL / 2; k++) {
        uint8_t lo, hi;
        unit16(b, k, be, &lo, &hi);
        if (hi == 0) {
            if (!ptext(lo) && lo < 0xA0)
                return 0;
            continue;
        }
        if (!h && ctl(hi))
            h = hi;
        if (hi != h)
            return 0;
        size_t i = 0;
        while (i < nh && lows[i] != lo)
            i++;
        ndiff += i == nh;
        lows[nh++] = lo;
    }
    return nh >= 8 && ndiff >= 4;
}

/* CJK, kana, Hangul and the punctuation around them: 64 units whose high
 * bytes are 20..9F (U+2000..U+9FFF), AC..D7 (Hangul syllables), 00 with
 * an ASCII text low byte, or FF with a low byte 01..EF (full-width forms);
 * the unit changes at least 8 times. */
static int cjk(const uint8_t *b, int be)
{
    size_t changes = 0;
    unsigned prev = 0;
    for (size_t k = 0; k < W_CJK / 2; k++) {
        uint8_t lo, hi;
        unsigned u = unit16(b, k, be, &lo, &hi);
        int ok = (hi >= 0x20 && hi <= 0x9F) || (hi >= 0xAC && hi <= 0xD7) ||
                 (hi == 0 && ptext(lo)) || (hi == 0xFF && lo >= 0x01 && lo <= 0xEF);
        if (!ok)
            return 0;
        changes += k && u != prev;
        prev = u;
    }
    return changes >= 8;
}

/* Byte at index i of the concatenation carry[0..ncarry) ++ p[0..n). */
static uint8_t at(const pii_wide *w, const uint8_t *p, size_t i)
{
    return i < w->ncarry ? w->carry[i] : p[i - w->ncarry];
}

/* Copies bytes [s, s + len) of the concatenation into b. */
static void gather(const pii_wide *w, const uint8_t *p, size_t s, size_t len, uint8_t *b)
{
    size_t k = 0;
    for (; k < len && s + k < w->ncarry; k++)
        b[k] = w->carry[s + k];
    if (k < len)
        memcpy(b + k, p + (s + k - w->ncarry), len - k);
}

/* Does a window of the contract end at concatenation index e (exclusive),
 * input position q = its last byte?  *start: the window's first index. */
static int hit_ending(const pii_wide *w, const uint8_t *p, size_t e, uint64_t q, size_t *start)
{
    uint8_t b[W_CJK];
    /* four ASCII characters in UTF-16: 4 NULs among the last 8 bytes */
    if (e >= W_U16 && w->nul[2] && w->nul[2] + W_U16 > q + 1) {
        gather(w, p, e - W_U16, W_U16, b);
        int ok = 1;
        for (size_t k = 0; ok && k < 4; k++)
            ok = ptext(b[2 * k]) && b[2 * k + 1] == 0;
        if (ok) {
            *start = e - W_U16;
            return 1;
        }
    }
    /* three in UTF-32: 6 NULs among the last 9 */
    if (e >= W_U32 && w->nul[0] && w->nul[0] + W_U32 > q + 1) {
        gather(w, p, e - W_U32, W_U32, b);
        int ok = 1;
        for (size_t k = 0; ok && k < W_U32; k++)
            ok = k % 4 == 0 ? ptext(b[k]) : b[k] == 0;
        if (ok) {
            *start = e - W_U32;
            return 1;
        }
    }
    /* small scripts: 8 control bytes among the last 32 */
    if (e >= W_SMALL && w->ctl[0] && w->ctl[0] + W_SMALL > q + 1) {
        gather(w, p, e - W_SMALL, W_SMALL, b);
        if (small_script(b, 0) || small_script(b, 1)) {
            *start = e - W_SMALL;
            return 1;
        }
    }
    /* CJK: 3 NUL/control bytes and a byte that is not UTF-8 after the one
     * before it (both in the window) among the last 128 */
    if (e >= W_CJK && w->zb[0] && w->zb[0] + W_CJK > q + 1 && w->bad && w->bad + W_CJK > q + 2) {
        gather(w, p, e - W_CJK, W_CJK, b);
        if (cjk(b, 0) || cjk(b, 1)) {
            *start = e - W_CJK;
            return 1;
        }
    }
    return 0;
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
    if (w->pos < 4) { /* then the carry holds every byte so far */
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
    /* Byte by byte: note the triggers, then try the windows ending here. */
    uint64_t base = w->pos - w->ncarry; /* input position of index 0 */
    for (size_t i = w->ncarry; i < len; i++) {
        uint64_t q = base + i;
        if (w->nul[5] + W_U32 <= q + 1 && w->ctl[7] + W_SMALL <= q + 1 &&
            w->zb[2] + W_CJK <= q + 1) {
            /* no window can end in a run of bytes 20..7F from here on */
            while (i < len && (uint8_t)(p[i - w->ncarry] - 0x20) < 0x60)
                i++;
            if (i == len)
                break;
            q = base + i;
        }
        uint8_t c = p[i - w->ncarry];
        if (c < 0x20) {
            if (c == 0)
                push_pos(w->nul, 6, q);
            if (ctl(c))
                push_pos(w->ctl, 8, q);
            if (zbyte(c))
                push_pos(w->zb, 3, q);
        } else if (c >= 0x80 && i > 0 && bad_pair(at(w, p, i - 1), c)) {
            w->bad = q + 1;
        }
        size_t s; /* a window can end here only if its newest trigger is in it */
        if ((w->nul[5] && w->nul[5] + W_U32 > q + 1) ||
            (w->ctl[7] && w->ctl[7] + W_SMALL > q + 1) || (w->zb[2] && w->zb[2] + W_CJK > q + 1)) {
            if (hit_ending(w, p, i + 1, q, &s)) {
                w->hit = 1;
                w->hit_at = base + s;
                return PII_EENCODING;
            }
        }
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
