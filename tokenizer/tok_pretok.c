/* tok_pretok.c — the o200k pre-tokenizer as a hand-written scanner.
 *
 * The regex (tiktoken o200k_base pat_str, alternatives tried in order,
 * leftmost-first, each greedy with backtracking):
 *   1  P?UP*LO+C?     2  P?UP+LO*C?     3  N{1,3}     4  ` ?Q+[\r\n/]*`
 *   5  \s*[\r\n]+     6  \s+(?!\S)      7  \s+
 * with UP = [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}], LO = [\p{Ll}\p{Lm}\p{Lo}\p{M}],
 * P = [^\r\n\p{L}\p{N}], Q = [^\s\p{L}\p{N}], N = \p{N}, and C the
 * contraction suffix (?i:'s|'t|'re|'ve|'m|'ll|'d).  Each alternative is
 * resolved without backtracking by looking at whole runs:
 *  - 1: UP* runs to k; LO+ either starts at k (char k is LO) and runs on, or
 *    backtracking ends the match after the last LO character inside the run.
 *  - 2: reached only when 1 failed, so the run has no LO character and char
 *    k is not LO: the match is the UP run itself.
 *  - 5/6/7 share one scan of the whitespace run: 5 ends after its last
 *    CR/LF; 6 takes the whole run at the end of the text, else gives back
 *    its last character when the run has two or more; 7 takes the run.
 * Case folding of C: tiktoken's (?i) is Unicode-aware, so 's also matches
 * U+017F LATIN SMALL LETTER LONG S (checked by gen-unicode.cjs).
 *
 * Window: a match starting at s sees the text only up to
 * lim = min(len, s + PII_TOK_MAX_PIECE); a character that does not fit is
 * treated as the end of the text.  An invalid UTF-8 byte is also treated as
 * the end of the text for the match before it, and is a one-byte piece.
 *
 * Streaming: when the text may continue (final == 0) and a match reads at
 * position len (or finds an incomplete sequence there) inside its window,
 * sc->touched is set: that piece is not final.
 */
#include <stdlib.h>

#include "tok_internal.h"

#define C_BARRIER (TOK_C_END | TOK_C_BAD)

/* Block 0 of the generated table covers U+0000..U+007F (the generator
 * numbers blocks in order of first use), so its first 128 entries are the
 * ASCII classes. */
#define ascii_cls pii_tok__ucls2

static unsigned cls_multi(tok_scan *sc, size_t p, unsigned *n)
{
    uint32_t cp = 0;
    int k = pii_utf8_decode(sc->t + p, sc->len - p, &cp);
    if (k > 0) {
        if (p + (size_t)k > sc->lim)
            return TOK_C_END; /* does not fit the window */
        *n = (unsigned)k;
        return tok_ucls(cp);
    }
    if (k == 0) {
        *n = 1;
        return TOK_C_BAD;
    }
    /* incomplete at the end of the available bytes */
    if (sc->lim < sc->len)
        return TOK_C_END; /* straddles the window end: definite */
    if (sc->soft) {
        sc->touched = 1;
        return TOK_C_END;
    }
    *n = 1;
    return TOK_C_BAD;
}

/* Class of the character at p; *n its length.  TOK_C_END at the window end
 * (n untouched), TOK_C_BAD with n = 1 for an invalid byte. */
static inline unsigned cls_at(tok_scan *sc, size_t p, unsigned *n)
{
    if (p >= sc->lim) {
        if (p >= sc->len && sc->soft)
            sc->touched = 1;
        return TOK_C_END;
    }
    uint8_t b = sc->t[p];
    if (b < 0x80) {
        *n = 1;
        return ascii_cls[b];
    }
    return cls_multi(sc, p, n);
}

static inline int is_p(unsigned c)
{
    return !(c & (TOK_C_CRLF | TOK_C_L | TOK_C_N | C_BARRIER));
}
static inline int is_q(unsigned c)
{
    return !(c & (TOK_C_WS | TOK_C_L | TOK_C_N | C_BARRIER));
}

/* Scans the UP run from j: returns its end k; *lastlo = end of the last
 * character of the run that is also LO (0 if none); *ck = class at k. */
static inline size_t up_run(tok_scan *sc, size_t j, size_t *lastlo, unsigned *ck)
{
    size_t p = j, ll = 0;
    unsigned n = 1, c;
    for (;;) {
        /* ASCII capitals, the common case */
        while (p < sc->lim && sc->t[p] >= 'A' && sc->t[p] <= 'Z')
            p++;
        c = cls_at(sc, p, &n);
        if (!(c & TOK_C_UP))
            break;
        p += n;
        if (c & TOK_C_LO)
            ll = p;
    }
    *lastlo = ll;
    *ck = c;
    return p;
}

/* End of the LO run that starts at p (char p is LO). */
static inline size_t lo_run(tok_scan *sc, size_t p)
{
    unsigned n = 1;
    for (;;) {
        while (p < sc->lim && sc->t[p] >= 'a' && sc->t[p] <= 'z')
            p++;
        unsigned c = cls_at(sc, p, &n);
        if (!(c & TOK_C_LO))
            return p;
        p += n;
    }
}

/* Optional contraction suffix at e. */
static size_t suffix(tok_scan *sc, size_t e)
{
    unsigned n;
    if (e < sc->lim && sc->t[e] != '\'')
        return e;
    if (cls_at(sc, e, &n) & C_BARRIER)
        return e;
    unsigned c1 = cls_at(sc, e + 1, &n);
    if (c1 & C_BARRIER)
        return e;
    uint8_t b = sc->t[e + 1];
    int second;
    if (n == 2) {
        return (b == 0xC5 && sc->t[e + 2] == 0xBF) ? e + 3 : e; /* U+017F */
    } else if (n != 1) {
        return e;
    }
    switch (b | 0x20) {
    case 's':
    case 't':
    case 'm':
    case 'd':
        return e + 2;
    case 'r':
    case 'v':
        second = 'e';
        break;
    case 'l':
        second = 'l';
        break;
    default:
        return e;
    }
    if (cls_at(sc, e + 2, &n) & C_BARRIER)
        return e;
    return (sc->t[e + 2] | 0x20) == second ? e + 3 : e;
}

/* Alternatives 1 and 2 at s (c0/n0: first character).  0 if both fail. */
static size_t alt12(tok_scan *sc, size_t s, unsigned c0, unsigned n0)
{
    size_t lastlo, k;
    unsigned ck;
    if (is_p(c0)) {
        /* with the optional prefix character taken */
        size_t j = s + n0;
        k = up_run(sc, j, &lastlo, &ck);
        if (ck & TOK_C_LO)
            return lo_run(sc, k); /* 1 */
        if (lastlo)
            return lastlo; /* 1, backtracked */
        /* 1 without the prefix: c0 itself must start UP*LO+ (a mark). */
        if ((c0 & TOK_C_UP) && (c0 & TOK_C_LO))
            return j;
        if (k > j)
            return k; /* 2 with prefix */
        if (c0 & TOK_C_UP)
            return k; /* 2 without prefix */
        return 0;
    }
    if (c0 & TOK_C_UP) {
        k = up_run(sc, s, &lastlo, &ck);
        if (ck & TOK_C_LO)
            return lo_run(sc, k);
        if (lastlo)
            return lastlo;
        return k; /* 2 */
    }
    if (c0 & TOK_C_LO)
        return lo_run(sc, s);
    return 0;
}

size_t pii_tok__piece_end(tok_scan *sc, size_t s)
{
    unsigned n0 = 1, n;
    sc->touched = 0;
    if (sc->len - s > PII_TOK_MAX_PIECE) {
        sc->lim = s + PII_TOK_MAX_PIECE;
        sc->soft = 0;
    } else {
        sc->lim = sc->len;
        sc->soft = !sc->final && sc->len - s < PII_TOK_MAX_PIECE;
    }
    unsigned c0 = cls_at(sc, s, &n0);
    if (c0 & C_BARRIER)
        return s + 1; /* invalid byte (or, when touched, anything) */

    if (c0 & (TOK_C_L | TOK_C_UP | TOK_C_LO) || is_p(c0)) {
        size_t e = alt12(sc, s, c0, n0);
        if (e)
            return suffix(sc, e);
    }
    if (c0 & TOK_C_N) {
        size_t p = s + n0;
        for (int i = 0; i < 2; i++) {
            unsigned c = cls_at(sc, p, &n);
            if (!(c & TOK_C_N))
                break;
            p += n;
        }
        return p;
    }
    /* 4: ` ?Q+[\r\n/]*` */
    size_t q = 0;
    if (is_q(c0)) {
        q = s + n0;
    } else if (sc->t[s] == ' ') {
        unsigned c1 = cls_at(sc, s + 1, &n);
        if (is_q(c1))
            q = s + 1 + n;
    }
    if (q) {
        for (;;) {
            unsigned c = cls_at(sc, q, &n);
            if (!is_q(c))
                break;
            q += n;
        }
        for (;;) {
            unsigned c = cls_at(sc, q, &n);
            if (c & C_BARRIER)
                break;
            uint8_t b = sc->t[q];
            if (b != '\r' && b != '\n' && b != '/')
                break;
            q++;
        }
        return q;
    }
    /* 5, 6, 7: c0 is whitespace */
    size_t p = s, last = s, crlf = 0;
    unsigned c = c0;
    n = n0;
    for (;;) {
        if (c & TOK_C_CRLF)
            crlf = p + n;
        last = p;
        p += n;
        c = cls_at(sc, p, &n);
        if (!(c & TOK_C_WS))
            break;
    }
    if (crlf)
        return crlf; /* 5 */
    if (c & C_BARRIER)
        return p; /* 6 at the end of the text */
    if (last > s)
        return last; /* 6, giving back the last character */
    return p;        /* 7 */
}

static inline void scan_init(tok_scan *sc, const void *text, size_t len, int final)
{
    sc->t = text;
    sc->len = len;
    sc->final = final;
    sc->touched = 0;
}

void pii_tok__scan_init(tok_scan *sc, const void *text, size_t len, int final)
{
    scan_init(sc, text, len, final);
}

/* Class of the whitespace character that ends at e, or 0. */
static unsigned ws_before(const tok_scan *sc, size_t lo, size_t e)
{
    /* back up over at most 3 continuation bytes to the character start */
    size_t b = e - 1;
    while (b > lo && e - b < 4 && (sc->t[b] & 0xC0) == 0x80)
        b--;
    uint32_t cp = 0;
    if (pii_utf8_decode(sc->t + b, e - b, &cp) != (int)(e - b))
        return 0;
    unsigned c = tok_ucls(cp);
    return (c & TOK_C_WS) ? c : 0;
}

size_t pii_tok__stable_back(const tok_scan *sc, size_t a, size_t m, size_t s)
{
    /* The one boundary that a text cut at s would move: a run of two or
     * more whitespace characters followed by a non-space gives back its
     * last character (`\s+(?!\S)`), and when that character cannot start
     * the next pre-token it becomes a piece of its own (`\s+`): pieces
     * [a, m) and [m, s).  Cut at s, the run would be one piece [a, s).
     * Then the stable prefix ends at a. */
    if (a >= m || m >= s)
        return s;
    unsigned c1 = ws_before(sc, m, s);
    if (!c1 || (c1 & TOK_C_CRLF))
        return s;
    unsigned c0 = ws_before(sc, a, m);
    if (!c0 || (c0 & TOK_C_CRLF))
        return s;
    /* [m, s) must be that single character */
    uint32_t cp = 0;
    if (pii_utf8_decode(sc->t + m, s - m, &cp) != (int)(s - m))
        return s;
    return a;
}

size_t pii_tok_stable_len(const void *text, size_t len)
{
    tok_scan sc;
    scan_init(&sc, text, len, 0);
    size_t s = 0, a = 0, m = 0;
    while (s < len) {
        size_t e = pii_tok__piece_end(&sc, s);
        if (sc.touched)
            return pii_tok__stable_back(&sc, a, m, s);
        a = m;
        m = s;
        s = e;
    }
    return len;
}

pii_err pii_tok_pretokenize(const void *text, size_t len, pii_tok_span **spans, size_t *n,
                            size_t *cap)
{
    if (!spans || !n || !cap || (!text && len))
        return PII_EINVAL;
    tok_scan sc;
    scan_init(&sc, text, len, 1);
    size_t s = 0;
    while (s < len) {
        size_t e = pii_tok__piece_end(&sc, s);
        if (PII_VEC_RESERVE(*spans, *cap, *n + 1))
            return PII_ENOMEM;
        (*spans)[*n].start = s;
        (*spans)[*n].end = e;
        (*n)++;
        s = e;
    }
    return PII_OK;
}
