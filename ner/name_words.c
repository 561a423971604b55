/* name_words.c — reading words for the name recognizers (name_words.h).
 *
 * Words: maximal runs of letters, marks and digits of scripts written with
 * spaces (the widening's word characters), joined across an inner
 * apostrophe or hyphen ("O'Brien", "Morgan-Short").  A name's word (one a
 * span may teach) starts with an upper-case letter, has two characters or
 * more, no digit, is not a title ("Mr", "Dr", "Sir", ...), an honorific or
 * a Roman numeral, and fits NER_NAME_BYTES. */
#include <string.h>
#include <utf8proc.h>

#include "honorific.h"
#include "name_words.h"

size_t pii_ner_nw_cp_at(const ner_text *tx, uint64_t pos, uint32_t *cp)
{
    size_t off = (size_t)(pos - tx->base);
    int k = pii_utf8_decode(tx->p + off, tx->len - off, cp);
    return k > 0 ? (size_t)k : 0;
}

/* Do the bytes at pos start a UTF-8 character that the view cuts short
 * (more bytes may complete it)? */
int pii_ner_nw_cut_char(const ner_text *tx, uint64_t pos)
{
    size_t off = (size_t)(pos - tx->base), have = tx->len - off;
    uint8_t b = tx->p[off];
    size_t need = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC2 ? 2 : 1;
    if (need <= have)
        return 0;
    for (size_t i = 1; i < have; i++)
        if ((tx->p[off + i] & 0xC0) != 0x80)
            return 0;
    return 1;
}

static int joiner(uint32_t cp)
{
    return cp == '\'' || cp == 0x2019 || cp == '-' || cp == 0x2010;
}

int pii_ner_nw_upper(uint32_t cp)
{
    utf8proc_category_t c = utf8proc_category((utf8proc_int32_t)cp);
    return c == UTF8PROC_CATEGORY_LU || c == UTF8PROC_CATEGORY_LT;
}

/* End of the word that starts at ws (a word character).  *open = 1 when
 * the word reaches the last byte in view, so more bytes may extend it. */
uint64_t pii_ner_nw_word_end(const ner_text *tx, uint64_t ws, int *open)
{
    const uint64_t end = tx->base + tx->len;
    uint64_t p = ws;
    *open = 0;
    for (uint8_t c; p < end && (c = tx->p[p - tx->base]) < 0x80 &&
                    ((uint8_t)((c | 0x20) - 'a') < 26 || (uint8_t)(c - '0') < 10);)
        p++; /* ASCII letters and digits: pii_ner_word_cp's, without decoding */
    for (;;) {
        uint32_t cp;
        size_t n = p < end ? pii_ner_nw_cp_at(tx, p, &cp) : 0;
        if (p >= end || (!n && pii_ner_nw_cut_char(tx, p))) {
            *open = 1; /* the word may go on past the view */
            return p;
        }
        if (n && pii_ner_word_cp(cp)) {
            p += n;
            continue;
        }
        if (n && joiner(cp)) {
            uint32_t c2;
            size_t n2 = p + n < end ? pii_ner_nw_cp_at(tx, p + n, &c2) : 0;
            if (n2 && pii_ner_word_cp(c2)) {
                p += n + n2;
                continue;
            }
            if (p + n >= end || (!n2 && pii_ner_nw_cut_char(tx, p + n)))
                *open = 1; /* "O'" at the end of the view */
            return p;
        }
        return p;
    }
}

/* The character that ends right before pos, or 0 at the view's start or
 * after a byte that ends no whole character. */
static uint32_t cp_before(const ner_text *tx, uint64_t pos)
{
    uint64_t q = pos;
    for (int i = 0; i < 4 && q > tx->base; i++) {
        q--;
        if ((tx->p[q - tx->base] & 0xC0) != 0x80)
            break;
    }
    if (q == pos)
        return 0;
    uint32_t cp;
    size_t k = pii_ner_nw_cp_at(tx, q, &cp);
    return k && q + k == pos ? cp : 0;
}

/* Does a word start at pos: a word character with no word character, and
 * no joiner after one ("O'|Brien"), right before it? */
int pii_ner_nw_word_starts(const ner_text *tx, uint64_t pos)
{
    uint32_t cp = cp_before(tx, pos);
    if (cp && pii_ner_word_cp(cp))
        return 0;
    if (cp && joiner(cp)) {
        uint64_t j = pos - (cp < 0x80 ? 1 : 3); /* ' and - are 1 byte, ’ and ‐ 3 */
        uint32_t c2 = cp_before(tx, j);
        if (c2 && pii_ner_word_cp(c2))
            return 0;
    }
    return 1;
}

/* Does w[0..n) end in a pii_ner_nw_possessive "'s" / "’s"?  Its length, or 0. */
size_t pii_ner_nw_possessive(const uint8_t *w, size_t n)
{
    static const char *const poss[] = {"'s", "\xE2\x80\x99s", "'S", "\xE2\x80\x99S"};
    for (size_t k = 0; k < 4; k++) {
        size_t l = strlen(poss[k]);
        if (n > l && !memcmp(w + n - l, poss[k], l))
            return l;
    }
    return 0;
}

/* Is [p, p + n) a whole word, or one before a pii_ner_nw_possessive "'s", whose word
 * ends by hi?  p must start a word (pii_ner_nw_word_starts). */
int pii_ner_nw_whole_word(const ner_text *tx, uint64_t p, size_t n, uint64_t hi)
{
    int open;
    uint64_t we = pii_ner_nw_word_end(tx, p, &open);
    return we <= hi &&
           (we == p + n || (we > p + n && pii_ner_nw_possessive(tx->p + (p - tx->base),
                                                                (size_t)(we - p)) == we - p - n));
}

/* The byte at pos: 1 and *b set, 0 when the view ends there (more may
 * come: -1 unless eod). */
int pii_ner_nw_byte_at(const ner_text *tx, uint64_t pos, int eod, uint8_t *b)
{
    if (pos >= tx->base + tx->len)
        return eod ? 0 : -1;
    *b = tx->p[pos - tx->base];
    return 1;
}

/* Has [ws, we) a lower-case letter? */
int pii_ner_nw_has_lower(const ner_text *tx, uint64_t ws, uint64_t we)
{
    for (uint64_t p = ws; p < we;) {
        uint32_t cp;
        size_t m = pii_ner_nw_cp_at(tx, p, &cp);
        if (m && utf8proc_category((utf8proc_int32_t)cp) == UTF8PROC_CATEGORY_LL)
            return 1;
        p += m ? m : 1;
    }
    return 0;
}

/* A word at ws that starts with an upper-case letter: 1 and *we (its
 * end), 0 when none, -1 when more bytes are needed (the word may go on, or
 * it crosses lim). */
int pii_ner_nw_cap_word(const ner_text *tx, uint64_t ws, uint64_t lim, int eod, uint64_t *we)
{
    uint32_t cp;
    uint8_t b;
    int r = pii_ner_nw_byte_at(tx, ws, eod, &b);
    if (r <= 0)
        return r;
    size_t k = pii_ner_nw_cp_at(tx, ws, &cp);
    if (!k)
        return !eod && pii_ner_nw_cut_char(tx, ws) ? -1 : 0;
    if (!pii_ner_nw_upper(cp) || !pii_ner_word_cp(cp))
        return 0;
    int open;
    uint64_t e = pii_ner_nw_word_end(tx, ws, &open);
    if ((open && !eod) || e > lim)
        return -1;
    *we = e;
    return 1;
}

/* Do the bytes at pos spell lit?  1, 0, or -1 when the view ends first
 * (more bytes may come). */
int pii_ner_nw_lit_at(const ner_text *tx, uint64_t pos, const char *lit, int eod)
{
    const uint64_t end = tx->base + tx->len;
    for (size_t i = 0; lit[i]; i++) {
        if (pos + i >= end)
            return eod ? 0 : -1;
        if (tx->p[pos + i - tx->base] != (uint8_t)lit[i])
            return 0;
    }
    return 1;
}

int pii_ner_nw_ascii_ieq(const uint8_t *w, size_t n, const char *t)
{
    for (size_t i = 0; i < n; i++) { /* no strlen: most words differ at once */
        uint8_t c = w[i];
        if (c >= 'A' && c <= 'Z')
            c = (uint8_t)(c + 32);
        if (!t[i] || c != (uint8_t)t[i])
            return 0;
    }
    return t[n] == '\0';
}

/* Is w[0..n) one of the k words of t, byte for byte? */
int pii_ner_nw_word_in(const char *const *t, size_t k, const uint8_t *w, size_t n)
{
    for (size_t i = 0; n && i < k; i++) /* the first byte before strlen */
        if ((uint8_t)t[i][0] == w[0] && strlen(t[i]) == n && !memcmp(t[i], w, n))
            return 1;
    return 0;
}

/* Titles and forms of address that stand beside a name but are none. */
int pii_ner_nw_title(const uint8_t *w, size_t n)
{
    uint8_t low[16];
    if (n == 0 || n >= sizeof low)
        return 0;
    for (size_t i = 0; i < n; i++)
        low[i] = w[i] >= 'A' && w[i] <= 'Z' ? (uint8_t)(w[i] + 32) : w[i];
    return pii_ner_lex_title(low, n); /* ner/data/titles.txt */
}

static int roman(const uint8_t *w, size_t n)
{
    if (n > 4)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!strchr("IVXL", w[i]))
            return 0;
    return 1;
}

/* May the word [ws, we) be taught? */
int pii_ner_nw_teachable(const ner_text *tx, uint64_t ws, uint64_t we)
{
    size_t n = (size_t)(we - ws);
    const uint8_t *w = tx->p + (ws - tx->base);
    if (n >= NER_NAME_BYTES || pii_ner_nw_title(w, n) || pii_ner_honorific_word(w, n) ||
        roman(w, n))
        return 0;
    size_t chars = 0;
    for (uint64_t p = ws; p < we;) {
        uint32_t cp;
        size_t k = pii_ner_nw_cp_at(tx, p, &cp);
        if (!k)
            return 0;
        if (p == ws && !pii_ner_nw_upper(cp))
            return 0;
        if (utf8proc_category((utf8proc_int32_t)cp) == UTF8PROC_CATEGORY_ND)
            return 0;
        chars++;
        p += k;
    }
    return chars >= 2;
}

/* A family name at ws: a capitalised word with a lower-case letter, not in
 * the stop list, pii_ner_nw_teachable.  1 and *ne (the name's end, before a
 * pii_ner_nw_possessive) and *we (the word's end), 0 when none, -1 when more bytes
 * are needed. */
int pii_ner_nw_family(const ner_text *tx, uint64_t ws, uint64_t lim, int eod, uint64_t *ne,
                      uint64_t *we)
{
    uint64_t e;
    int r = pii_ner_nw_cap_word(tx, ws, lim, eod, &e);
    if (r <= 0)
        return r;
    const uint8_t *w = tx->p + (ws - tx->base);
    size_t n = (size_t)(e - ws), pl = pii_ner_nw_possessive(w, n);
    if (!pii_ner_nw_teachable(tx, ws, e - pl) || pii_ner_lex_name_stop(w, n - pl))
        return 0;
    if (!pii_ner_nw_has_lower(tx, ws, e - pl))
        return 0;
    *ne = e - pl;
    *we = e;
    return 1;
}
