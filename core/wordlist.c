/* wordlist.c — sorted word lists held as text (see pii_wordlist.h). */
#include "pii_wordlist.h"

#include <string.h>

static uint8_t fold_byte(uint8_t c, int fold)
{
    return (fold && c >= 'A' && c <= 'Z') ? (uint8_t)(c + 32) : c;
}

/* Compares the line at l (ending in '\n') with w[0..n) by bytes. */
static int line_cmp(const char *l, const uint8_t *w, size_t n, int fold)
{
    size_t i = 0;
    for (; i < n && l[i] != '\n'; i++) {
        uint8_t c = fold_byte(w[i], fold);
        if ((uint8_t)l[i] != c)
            return (uint8_t)l[i] < c ? -1 : 1;
    }
    if (i == n)
        return l[i] == '\n' ? 0 : 1;
    return -1; /* the line is a proper prefix of w */
}

int pii_wordlist_has(const char *b, const char *e, const uint8_t *w, size_t n, int fold)
{
    if (n == 0 || !b)
        return 0;
    /* invariant: the word, if present, is a line starting in [lo, hi) */
    const char *lo = b, *hi = e;
    while (lo < hi) {
        const char *m = lo + (hi - lo) / 2;
        while (m > lo && m[-1] != '\n')
            m--; /* the start of m's line */
        int c = line_cmp(m, w, n, fold);
        if (c == 0)
            return 1;
        if (c < 0) {
            const char *nl = memchr(m, '\n', (size_t)(e - m));
            lo = nl ? nl + 1 : e;
        } else {
            hi = m;
        }
    }
    return 0;
}

long pii_wordlist_check(const char *b, const char *e, size_t max_len)
{
    if (!b)
        return -1;
    long n = 0;
    const char *prev = NULL;
    size_t plen = 0;
    while (b < e) {
        const char *nl = memchr(b, '\n', (size_t)(e - b));
        if (!nl || nl == b || (size_t)(nl - b) > max_len)
            return -1;
        size_t len = (size_t)(nl - b);
        if (prev) {
            int c = memcmp(prev, b, plen < len ? plen : len);
            if (c > 0 || (c == 0 && plen >= len))
                return -1;
        }
        prev = b;
        plen = len;
        b = nl + 1;
        n++;
    }
    return n;
}

static int fold_ascii(int c, int fold)
{
    return fold && c >= 'A' && c <= 'Z' ? c + 32 : c;
}

size_t pii_word_distance(const char *a, size_t la, const char *b, size_t lb, int fold)
{
    size_t row[65];
    if (la > 64 || lb > 64)
        return (size_t)-1;
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (fold_ascii((unsigned char)a[i - 1], fold) !=
                                  fold_ascii((unsigned char)b[j - 1], fold));
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}
