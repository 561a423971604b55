/* spans.c — labels → token spans → byte spans (spec §6.3–6.5).
 *
 * Legend: n tokens, C labels, K categories; e[n][C] log-probs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "ner_internal.h"
#include "pii_ner.h"

/* ---- characters --------------------------------------------------------- */

/* Length of the valid UTF-8 sequence at p[i] (1..4) with its code point, or
 * 0 when the bytes at i do not start one (a lone byte is then a character
 * of its own). */
static size_t utf8_at(const uint8_t *p, size_t len, size_t i, uint32_t *cp)
{
    int k = pii_utf8_decode(p + i, len - i, cp);
    return k > 0 ? (size_t)k : 0;
}

size_t pii_ner_char_start(const uint8_t *p, size_t len, size_t pos)
{
    if (pos >= len || (p[pos] & 0xC0) != 0x80)
        return pos;
    for (size_t k = 1; k <= 3 && k <= pos; k++) {
        uint32_t cp;
        size_t n = utf8_at(p, len, pos - k, &cp);
        if (n > k)
            return pos - k;
        if ((p[pos - k] & 0xC0) != 0x80)
            break; /* a non-continuation byte that does not cover pos */
    }
    return pos;
}

size_t pii_ner_char_end(const uint8_t *p, size_t len, size_t pos)
{
    if (pos >= len)
        return pos;
    size_t s = pii_ner_char_start(p, len, pos);
    uint32_t cp;
    size_t n = utf8_at(p, len, s, &cp);
    return s + (n ? n : 1);
}

int pii_ner_isspace(uint32_t c)
{
    if (c <= 0x20)
        return (c >= 0x09 && c <= 0x0D) || c >= 0x1C;
    if (c < 0x85)
        return 0;
    return c == 0x85 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 ||
           c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

/* ---- §6.3 state machine ------------------------------------------------- */

void pii_ner_sm_init(ner_sm *sm, const pii_ner_labels *L, size_t max_span)
{
    memset(sm, 0, sizeof *sm);
    sm->L = L;
    sm->max_span = max_span;
}

static int sm_close(ner_sm *sm, uint64_t end, ner_tsp *out)
{
    if (!sm->open)
        return 0;
    out->cat = sm->cat;
    out->ts = sm->start;
    out->te = end;
    out->psum = sm->psum;
    sm->open = 0;
    return 1;
}

int pii_ner_sm_push(ner_sm *sm, int32_t label, double prob, ner_tsp out[2])
{
    uint64_t t = sm->t++;
    int k = 0;
    pii_ner_tag tag = pii_ner_labels_tag(sm->L, (size_t)label);
    int cat = pii_ner_labels_category_of(sm->L, (size_t)label);
    int same = sm->open && cat >= 0 && (uint32_t)cat == sm->cat;
    /* The length bound: a span already max_span tokens long is closed here
     * and the continuation starts a new span. */
    if (same && sm->max_span && t - sm->start >= sm->max_span) {
        k += sm_close(sm, t, &out[k]);
        same = 0;
    }
    switch (tag) {
    case PII_NER_O:
        k += sm_close(sm, t, &out[k]);
        break;
    case PII_NER_S:
        k += sm_close(sm, t, &out[k]);
        out[k].cat = (uint32_t)cat;
        out[k].ts = t;
        out[k].te = t + 1;
        out[k].psum = prob;
        k++;
        break;
    case PII_NER_B:
        k += sm_close(sm, t, &out[k]);
        sm->open = 1;
        sm->cat = (uint32_t)cat;
        sm->start = t;
        sm->psum = prob;
        break;
    case PII_NER_I:
        if (same) {
            sm->psum += prob;
        } else {
            k += sm_close(sm, t, &out[k]);
            sm->open = 1;
            sm->cat = (uint32_t)cat;
            sm->start = t;
            sm->psum = prob;
        }
        break;
    case PII_NER_E:
        if (same) {
            sm->psum += prob;
            k += sm_close(sm, t + 1, &out[k]);
        } else {
            k += sm_close(sm, t, &out[k]);
            out[k].cat = (uint32_t)cat;
            out[k].ts = t;
            out[k].te = t + 1;
            out[k].psum = prob;
            k++;
        }
        break;
    }
    return k;
}

int pii_ner_sm_finish(ner_sm *sm, ner_tsp out[1])
{
    return sm_close(sm, sm->t, out);
}

size_t pii_ner_labels_to_spans(const pii_ner_labels *L, const int32_t *labels, size_t n,
                               pii_ner_tspan *out)
{
    ner_sm sm;
    pii_ner_sm_init(&sm, L, 0);
    ner_tsp tmp[2];
    size_t k = 0;
    for (size_t t = 0; t <= n; t++) {
        int m = t < n ? pii_ner_sm_push(&sm, labels[t], 0.0, tmp) : pii_ner_sm_finish(&sm, tmp);
        for (int i = 0; i < m; i++) {
            out[k].cat = tmp[i].cat;
            out[k].tok_start = tmp[i].ts;
            out[k].tok_end = tmp[i].te;
            k++;
        }
    }
    return k;
}

/* ---- byte spans ------------------------------------------------------------ */

/* Absolute-offset character helpers over a text window. */
static uint64_t tx_char_start(const ner_text *tx, uint64_t pos)
{
    return tx->base + pii_ner_char_start(tx->p, tx->len, (size_t)(pos - tx->base));
}

static uint64_t tx_char_end(const ner_text *tx, uint64_t pos)
{
    return tx->base + pii_ner_char_end(tx->p, tx->len, (size_t)(pos - tx->base));
}

/* ASCII punctuation a value of the category never starts with.  o200k glues
 * punctuation to the word after it ("=j" in "user=jane@x.org", ":\"" before a
 * quoted name), so a span of whole tokens can begin with it.  Phone numbers
 * may start with "(" or "["; secrets and unknown categories keep every byte. */
static const char *lead_junk(const char *cat)
{
    static const struct {
        const char *cat, *junk;
    } t[] = {
        {"private_person", "=:;,<>\"`|([{*"},  {"private_email", "=:;,<>\"'`|([{*"},
        {"private_url", "=:;,<>\"'`|([{*"},    {"private_address", "=:;,<>\"'`|([{*"},
        {"private_date", "=:;,<>\"'`|[{*"},    {"private_phone", "=:;,<>\"'`|{*"},
        {"account_number", "=:;,<>\"'`|([{*"},
    };
    if (!cat)
        return "";
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (!strcmp(cat, t[i].cat))
            return t[i].junk;
    return "";
}

static int ascii_alnum(uint8_t c)
{
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

/* Categories whose values are numbers: a word of lowercase ASCII letters at
 * either edge of such a span ("cc" in "my cc 4111 1111 1111 1111", "expires"
 * after it) is a word of the sentence the model took in, never part of the
 * value (an IBAN's letter groups are upper case). */
static int words_trimmed(const char *cat)
{
    return cat && (!strcmp(cat, "account_number") || !strcmp(cat, "private_phone"));
}

static int ascii_lower(uint8_t c)
{
    return c >= 'a' && c <= 'z';
}

static int ascii_blank(uint8_t c)
{
    return c == ' ' || c == '\t';
}

/* Drops, from both ends of [*s, *e), each whole word of lowercase ASCII
 * letters (optionally ending in one of ".,:;") that is followed (at the
 * start) or preceded (at the end) by blanks and more of the span. */
static void trim_words(const ner_text *tx, uint64_t *s, uint64_t *e)
{
    const uint8_t *p = tx->p;
    size_t i = (size_t)(*s - tx->base), j = (size_t)(*e - tx->base);
    for (;;) { /* leading words */
        size_t k = i;
        while (k < j && ascii_lower(p[k]))
            k++;
        if (k == i)
            break;
        if (k < j && p[k] && strchr(".,:;", p[k]))
            k++;
        if (k == j || !ascii_blank(p[k]))
            break;
        while (k < j && ascii_blank(p[k]))
            k++;
        if (k == j)
            break;
        i = k;
    }
    for (;;) { /* trailing words */
        size_t k = j;
        if (k > i && p[k - 1] && strchr(".,:;", p[k - 1]))
            k--;
        size_t w = k;
        while (k > i && ascii_lower(p[k - 1]))
            k--;
        if (k == w || k == i || !ascii_blank(p[k - 1]))
            break;
        while (k > i && ascii_blank(p[k - 1]))
            k--;
        if (k == i)
            break;
        j = k;
    }
    *s = tx->base + i;
    *e = tx->base + j;
}

/* Letters, marks and digits of scripts written with spaces between words.
 * Han, kana, Thai, Lao, Khmer and Myanmar run words together, so a word
 * edge there cannot be found from the characters and no widening happens. */
int pii_ner_word_cp(uint32_t cp)
{
    if (cp < 0x80)
        return ascii_alnum((uint8_t)cp);
    if ((cp >= 0x0E00 && cp <= 0x0EFF) || (cp >= 0x1000 && cp <= 0x109F) ||
        (cp >= 0x1780 && cp <= 0x17FF) || (cp >= 0x2E80 && cp <= 0x9FFF) ||
        (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFF66 && cp <= 0xFF9F) || cp >= 0x20000)
        return 0;
    switch (utf8proc_category((utf8proc_int32_t)cp)) {
    case UTF8PROC_CATEGORY_LU:
    case UTF8PROC_CATEGORY_LL:
    case UTF8PROC_CATEGORY_LT:
    case UTF8PROC_CATEGORY_LM:
    case UTF8PROC_CATEGORY_LO:
    case UTF8PROC_CATEGORY_MN:
    case UTF8PROC_CATEGORY_MC:
    case UTF8PROC_CATEGORY_ND:
        return 1;
    default:
        return 0;
    }
}

/* Does [s, e) hold a letter (any script), or a digit when digits count?
 * A person's name always has a letter, a date or an address a letter or a
 * digit: a span of emoji or punctuation alone is no such value. */
static int has_alnum(const ner_text *tx, uint64_t s, uint64_t e, int digits)
{
    while (s < e) {
        uint32_t cp;
        size_t n = utf8_at(tx->p, tx->len, (size_t)(s - tx->base), &cp);
        if (!n) {
            s++;
            continue;
        }
        utf8proc_category_t c = utf8proc_category((utf8proc_int32_t)cp);
        if ((c >= UTF8PROC_CATEGORY_LU && c <= UTF8PROC_CATEGORY_LO) ||
            (digits && c == UTF8PROC_CATEGORY_ND))
            return 1;
        s += n;
    }
    return 0;
}

/* Is every word of [s, e) a form of address, an abbreviated rank or an
 * interjection ("Sir", "Madam", "Dear Mam", "/Madam", "Maj", "Oh", "Gotta")?  A greeting or a title
 * alone names nobody.  Words are runs of word characters, an apostrophe inside one ("Ma'am")
 * included. */
static int address_only(const ner_text *tx, uint64_t s, uint64_t e)
{
    static const char *const forms[] = {
        "sir", "sirs", "madam", "madame", "mam", "ma'am", "maam", "mr", "mrs", "ms", "mx", "miss",
        "mister", "messrs", "mesdames", "monsieur", "dear", "dr", "prof",
        /* abbreviated ranks and offices ("said Maj. Gen. Gary Volesky") */
        "maj", "col", "gen", "capt", "lt", "sgt", "cpl", "pvt", "adm", "cmdr", "rev", "hon", "sen",
        "rep", "gov", "supt", "insp", "det", "esq", "jr", "sr",
        /* interjections and informal contractions ("Gotta call mom", "Oh?") */
        "oh", "ohh", "hm", "hmm", "uh", "um", "umm", "ah", "ahh", "eh", "er", "ok", "okay", "yeah",
        "yep", "yup", "nope", "yes", "no", "pardon", "gonna", "gotta", "kinda", "wanna", "imma",
        "lol", "lmao", "omg", "hey", "hi", "hello", "thanks", "wow", "yay", "ugh", "haha", "sorry",
        "please", "bye"};
    int words = 0;
    while (s < e) {
        uint32_t cp;
        size_t n = utf8_at(tx->p, tx->len, (size_t)(s - tx->base), &cp);
        if (!n || !pii_ner_word_cp(cp)) {
            s += n ? n : 1;
            continue;
        }
        char w[16];
        size_t wl = 0;
        int ascii = 1;
        while (s < e) {
            n = utf8_at(tx->p, tx->len, (size_t)(s - tx->base), &cp);
            if (!n)
                break;
            int apos = (cp == '\'' || cp == 0x2019) && wl && s + n < e;
            if (!pii_ner_word_cp(cp) && !apos)
                break;
            if (cp >= 0x80 && !apos)
                ascii = 0;
            if (wl < sizeof w - 1)
                w[wl] = apos ? '\'' : (char)(cp >= 'A' && cp <= 'Z' ? cp + 32 : cp);
            wl++;
            s += n;
        }
        if (!ascii || wl >= sizeof w)
            return 0;
        w[wl] = '\0';
        size_t i = 0;
        while (i < sizeof forms / sizeof forms[0] && strcmp(w, forms[i]))
            i++;
        if (i == sizeof forms / sizeof forms[0])
            return 0;
        words++;
    }
    return words > 0;
}

/* The code point that ends just before byte offset pos (0 when none). */
static uint32_t cp_before(const ner_text *tx, uint64_t pos, uint64_t *start)
{
    uint32_t cp = 0;
    if (pos <= tx->base)
        return 0;
    uint64_t cs = tx_char_start(tx, pos - 1);
    size_t n = utf8_at(tx->p, tx->len, (size_t)(cs - tx->base), &cp);
    if (!n || cs + n != pos)
        return 0;
    if (start)
        *start = cs;
    return cp;
}

/* Person, address and date spans: drops closing punctuation that is not
 * part of the value from the end — ",;:!?" always; ")]}>" without an
 * opener in the span; a closing quote; a possessive "'s" / "’s" of a
 * person; a full stop after a word of four or more letters (a sentence
 * end: "Smith." — "Jr.", "St.", "Ave." and initials keep theirs). */
static void trim_closing(const ner_text *tx, const char *cat, uint64_t s, uint64_t *ep)
{
    const uint8_t *p = tx->p;
    uint64_t e = *ep;
    int person = !strcmp(cat, "private_person");
    while (e > s) {
        uint64_t cs = e;
        uint32_t cp = cp_before(tx, e, &cs);
        if (cs < s)
            break;
        int drop = 0;
        if (cp && (strchr(",;:!?", (int)cp) && cp < 0x80))
            drop = 1;
        else if (cp == ')' || cp == ']' || cp == '}' || cp == '>') {
            uint8_t open = cp == ')' ? '(' : cp == ']' ? '[' : cp == '}' ? '{' : '<';
            drop = !memchr(p + (s - tx->base), open, (size_t)(cs - s));
        } else if (cp == '"' || cp == 0x201D || cp == 0x00BB || cp == 0x201C) {
            size_t q = 0;
            for (uint64_t k = s; k < cs; k++)
                q += p[k - tx->base] == '"';
            drop = cp != '"' || q % 2 == 0;
        } else if (person && (cp == '\'' || cp == 0x2019)) {
            drop = 1; /* "Jones'" */
        } else if (person && (cp == 's' || cp == 'S') && cs > s) {
            uint64_t as = cs;
            uint32_t ap = cp_before(tx, cs, &as);
            uint64_t ws = as;
            if ((ap == '\'' || ap == 0x2019) && as > s && pii_ner_word_cp(cp_before(tx, as, &ws))) {
                e = as; /* "Smith's" -> "Smith" */
                continue;
            }
        } else if (cp == '.') {
            uint64_t k = cs, letters = 0, ws;
            uint32_t c;
            while (k > s && (c = cp_before(tx, k, &ws)) && pii_ner_word_cp(c)) {
                letters++;
                k = ws;
            }
            drop = letters >= 4 && !(k > s && p[k - 1 - tx->base] == '.');
        }
        if (!drop)
            break;
        e = cs;
        while (e > s) { /* blanks before the dropped character */
            uint32_t b = cp_before(tx, e, &cs);
            if (!b || !pii_ner_isspace(b))
                break;
            e = cs;
        }
    }
    *ep = e;
}

/* Han, kana, CJK punctuation and the full-width comma, colon, semicolon,
 * ! and ?: never part of an e-mail, phone or account number (full-width
 * digits, letters, + - ( ) are: "０３－１２３４－５６７８"). */
static int cjk_cp(uint32_t cp)
{
    return (cp >= 0x3000 && cp <= 0x30ff) || (cp >= 0x3400 && cp <= 0x4dbf) ||
           (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0xf900 && cp <= 0xfaff) || cp == 0xff0c ||
           cp == 0xff1a || cp == 0xff1b || cp == 0xff01 || cp == 0xff1f;
}

int pii_ner_byte_span(const ner_text *tx, const char *cat, uint64_t first_start, uint64_t last_end,
                      uint64_t *sp, uint64_t *ep)
{
    if (last_end <= first_start)
        return 0;
    uint64_t s = tx_char_start(tx, first_start);
    uint64_t e = tx_char_end(tx, last_end - 1);
    const char *junk = lead_junk(cat);
    /* trim: whole characters only; leading junk punctuation too */
    while (s < e) {
        uint32_t cp;
        size_t i = (size_t)(s - tx->base);
        size_t n = utf8_at(tx->p, tx->len, i, &cp);
        if (!n || !(pii_ner_isspace(cp) || (cp < 0x80 && cp && strchr(junk, (int)cp))))
            break;
        s += n;
    }
    /* an e-mail, phone or account number in Chinese or Japanese text: the
     * characters the model took in before or after the value ("邮箱wang@x.cn",
     * "是13812345678") are no part of it */
    if (cat && (!strcmp(cat, "private_email") || !strcmp(cat, "private_phone") ||
                !strcmp(cat, "account_number"))) {
        while (s < e) {
            uint32_t cp;
            size_t n = utf8_at(tx->p, tx->len, (size_t)(s - tx->base), &cp);
            if (!n || !cjk_cp(cp))
                break;
            s += n;
        }
        while (e > s) {
            uint64_t cs = tx_char_start(tx, e - 1);
            uint32_t cp;
            size_t n = utf8_at(tx->p, tx->len, (size_t)(cs - tx->base), &cp);
            if (!n || cs + n != e || !cjk_cp(cp))
                break;
            e = cs;
        }
    }
    /* a secret keeps every byte, except the "=" or ":" of an assignment
     * glued to its first token ("KEY=value", "token:value") */
    if (cat && !strcmp(cat, "secret") && s > tx->base && s + 1 < e &&
        (tx->p[s - tx->base] == '=' || tx->p[s - tx->base] == ':') &&
        (ascii_alnum(tx->p[s - 1 - tx->base]) || tx->p[s - 1 - tx->base] == '_'))
        s++;
    while (e > s) {
        uint64_t cs = tx_char_start(tx, e - 1);
        uint32_t cp;
        size_t n = utf8_at(tx->p, tx->len, (size_t)(cs - tx->base), &cp);
        if (!n || cs + n != e || !pii_ner_isspace(cp))
            break;
        e = cs;
    }
    if (words_trimmed(cat))
        trim_words(tx, &s, &e);
    if (pii_ner_widens(cat) == NER_WIDEN_WORD) {
        trim_closing(tx, cat, s, &e);
        if (!has_alnum(tx, s, e, strcmp(cat, "private_person") != 0))
            return 0;
        if (!strcmp(cat, "private_person") && address_only(tx, s, e))
            return 0;
    }
    if (e <= s)
        return 0;
    *sp = s;
    *ep = e;
    return 1;
}

int pii_ner_widens(const char *cat)
{
    static const char *const opaque[] = {"secret", "account_number", "private_email", "private_url",
                                         "private_phone"};
    static const char *const words[] = {"private_person", "private_address", "private_date"};
    if (!cat)
        return 0;
    for (size_t i = 0; i < sizeof opaque / sizeof opaque[0]; i++)
        if (!strcmp(cat, opaque[i]))
            return NER_WIDEN_OPAQUE;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (!strcmp(cat, words[i]))
            return NER_WIDEN_WORD;
    return 0;
}

/* Is the character ending at (before) / starting at pos one that widening
 * crosses?  Opaque categories: ASCII letters and digits; words: word_cp. */
static int widen_before(const ner_text *tx, int kind, uint64_t pos, uint64_t *start)
{
    if (kind == NER_WIDEN_OPAQUE) {
        *start = pos - 1;
        return pos > tx->base && ascii_alnum(tx->p[pos - 1 - tx->base]);
    }
    uint32_t cp = cp_before(tx, pos, start);
    return cp && pii_ner_word_cp(cp);
}

/* 1 and the length when the character at pos is crossed; 0 when not; -1
 * when the bytes end inside a character that may be completed later. */
static int widen_at(const ner_text *tx, int kind, uint64_t pos, size_t *len)
{
    size_t i = (size_t)(pos - tx->base);
    if (kind == NER_WIDEN_OPAQUE) {
        *len = 1;
        return ascii_alnum(tx->p[i]);
    }
    uint32_t cp;
    size_t n = utf8_at(tx->p, tx->len, i, &cp);
    if (!n) {
        uint8_t b = tx->p[i];
        size_t need = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC2 ? 2 : 0;
        return need && tx->len - i < need ? -1 : 0;
    }
    *len = n;
    return pii_ner_word_cp(cp);
}

uint64_t pii_ner_widen_left(const ner_text *tx, const char *cat, uint64_t s)
{
    int kind = pii_ner_widens(cat);
    uint64_t end = tx->base + tx->len, cs;
    size_t n;
    if (!kind || s <= tx->base || s >= end || widen_at(tx, kind, s, &n) != 1)
        return s;
    uint64_t lim = s - tx->base > NER_WIDEN_MAX ? s - NER_WIDEN_MAX : tx->base;
    while (s > lim && widen_before(tx, kind, s, &cs) && cs >= lim)
        s = cs;
    return s;
}

/* The country after an address ("…, Leeds LS1 4AP, United Kingdom", a last
 * line "Germany"): from *e, blanks with at most one ',' and then at most one
 * line break (16 bytes at most, at least one byte), a country's name of one
 * to five words (pii_ner_lex_country; a sentence's full stop after it stays
 * out) and, after one or two blanks or ',', an optional postcode of 4-6
 * digits (and "-" 3-4 digits) that ends a word.  Only bytes before lim are
 * read.  Returns 1 when decided (*e moved past the country and postcode, or
 * unchanged), 0 when the bytes in view cannot decide yet. */
static int address_tail(const ner_text *tx, uint64_t *e, uint64_t lim, int eod)
{
    const uint64_t end = tx->base + tx->len, x = *e;
    const uint64_t stop = lim < end ? lim : end;
    const int more = !eod && end < lim; /* bytes past the view may matter */
#define TX(i) (tx->p[(i)-tx->base])
    uint64_t i = x;
    int comma = 0, nl = 0;
    while (i < stop && i - x < 16) {
        uint8_t c = TX(i);
        if (c == ' ' || c == '\t') {
            i++;
        } else if (c == ',' && !comma && !nl) {
            comma = 1;
            i++;
        } else if (c == '\n' && !nl) {
            nl = 1;
            i++;
        } else if (c == '\r' && !nl) {
            if (i + 1 == stop)
                return !more;
            if (TX(i + 1) != '\n')
                break;
            nl = 1;
            i += 2;
        } else {
            break;
        }
    }
    if (i == stop)
        return !more;
    if (i == x || i - x >= 16)
        return 1;
    /* up to five words joined by single spaces; ends[k]: the end of word k */
    uint64_t ends[5], j = i;
    int nw = 0;
    while (nw < 5 && j - i < NER_NAME_BYTES) {
        uint64_t ws = j;
        while (j < stop) {
            uint32_t cp;
            size_t n = utf8_at(tx->p, tx->len, (size_t)(j - tx->base), &cp);
            if (!n || j + n > stop) {
                if (more && tx->len - (size_t)(j - tx->base) < 4)
                    return 0; /* a character still arriving */
                break;
            }
            if (!pii_ner_word_cp(cp) && cp != '.' && cp != '\'' && cp != 0x2019 && cp != '-')
                break;
            j += n;
        }
        if (j == stop && more)
            return 0;
        if (j == ws)
            break;
        ends[nw++] = j;
        if (j == stop || TX(j) != ' ')
            break;
        j++;
    }
    uint64_t ce = x;
    for (int k = nw - 1; k >= 0 && ce == x; k--) {
        size_t n = (size_t)(ends[k] - i);
        if (n >= NER_NAME_BYTES)
            continue;
        if (pii_ner_lex_country(&TX(i), n))
            ce = ends[k];
        else if (n > 1 && TX(ends[k] - 1) == '.' && pii_ner_lex_country(&TX(i), n - 1))
            ce = ends[k] - 1;
    }
    if (ce == x)
        return 1;
    /* the postcode */
    uint64_t d = ce;
    int seps = 0;
    while (d < stop && seps < 2 && (TX(d) == ' ' || TX(d) == ','))
        d++, seps++;
    uint64_t ds = d;
    while (d < stop && d - ds < 7 && TX(d) >= '0' && TX(d) <= '9')
        d++;
    int ok = seps && d - ds >= 4 && d - ds <= 6;
    if (ok && d < stop && TX(d) == '-') {
        uint64_t h = d + 1;
        while (h < stop && h - d - 1 < 5 && TX(h) >= '0' && TX(h) <= '9')
            h++;
        if (h == stop && more)
            return 0;
        if (h - d - 1 >= 3 && h - d - 1 <= 4)
            d = h;
    }
    if (d == stop && more)
        return 0;
    if (ok) {
        size_t n;
        int w = d < stop ? widen_at(tx, NER_WIDEN_WORD, d, &n) : 0;
        if (w < 0 && more)
            return 0;
        if (w != 1) /* the postcode ends a word */
            ce = d;
    }
#undef TX
    *e = ce;
    return 1;
}

uint64_t pii_ner_widen_lim(const char *cat, uint64_t e)
{
    return pii_ner_widens(cat) == NER_WIDEN_OPAQUE ? UINT64_MAX : e + NER_WIDEN_MAX;
}

/* A secret grows to the right over the bytes of a token as well: ASCII
 * letters and digits and "+/=_-~" (base64, base64url, JWT parts without
 * their dots). */
static int token_byte(uint8_t c)
{
    return ascii_alnum(c) || c == '+' || c == '/' || c == '=' || c == '_' || c == '-' || c == '~';
}

static int widen_word_right(const ner_text *tx, const char *cat, uint64_t *e, uint64_t lim, int eod)
{
    int kind = pii_ner_widens(cat);
    if (kind == NER_WIDEN_OPAQUE && !strcmp(cat, "secret")) {
        uint64_t end = tx->base + tx->len, x = *e;
        if (x <= tx->base || x > end || !token_byte(tx->p[x - 1 - tx->base]))
            return 1;
        while (x < lim && x < end && token_byte(tx->p[x - tx->base]))
            x++;
        *e = x;
        return x == end ? eod : 1;
    }
    uint64_t end = tx->base + tx->len, x = *e, cs;
    if (!kind || x <= tx->base || x > end || !widen_before(tx, kind, x, &cs))
        return 1;
    while (x < lim) {
        if (x == end) {
            *e = x;
            return eod;
        }
        size_t n = 0;
        int w = widen_at(tx, kind, x, &n);
        if (w < 0) {
            *e = x;
            return eod;
        }
        if (!w || x + n > lim)
            break;
        x += n;
    }
    *e = x;
    return 1;
}

int pii_ner_widen_right(const ner_text *tx, const char *cat, uint64_t *e, uint64_t lim, int eod)
{
    if (!widen_word_right(tx, cat, e, lim, eod))
        return 0;
    if (cat && !strcmp(cat, "private_address"))
        return address_tail(tx, e, lim, eod);
    return 1;
}

/* ---- §6.4 resolver ----------------------------------------------------------- */

pii_err pii_ner_resolver_add(ner_resolver *r, const pii_span *s)
{
    if (PII_VEC_RESERVE(r->v, r->cap, r->n + 1))
        return PII_ENOMEM;
    r->v[r->n++] = *s;
    return PII_OK;
}

static int span_order(const void *a, const void *b)
{
    const pii_span *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    uint64_t lx = x->end - x->start, ly = y->end - y->start;
    if (lx != ly)
        return lx > ly ? -1 : 1;
    int c = strcmp(x->label, y->label);
    if (c)
        return c;
    /* same bytes, same label: keep the higher score, so the choice never
     * depends on qsort's order */
    if (x->score != y->score)
        return x->score > y->score ? -1 : 1;
    return 0;
}

pii_err pii_ner_resolver_flush(ner_resolver *r, uint64_t boundary, pii_spanvec *out)
{
    if (r->n == 0)
        return PII_OK;
    qsort(r->v, r->n, sizeof *r->v, span_order);
    size_t i = 0;
    for (; i < r->n && r->v[i].start < boundary; i++) {
        if (r->v[i].start < r->last_end)
            continue; /* overlaps a kept span */
        pii_err e = pii_spanvec_push(out, &r->v[i]);
        if (e)
            return e;
        r->last_end = r->v[i].end;
    }
    memmove(r->v, r->v + i, (r->n - i) * sizeof *r->v);
    r->n -= i;
    return PII_OK;
}

void pii_ner_resolver_reset(ner_resolver *r)
{
    r->n = 0;
    r->last_end = 0;
}

void pii_ner_resolver_free(ner_resolver *r)
{
    free(r->v);
    memset(r, 0, sizeof *r);
}

uint64_t pii_ner_resolver_min_start(const ner_resolver *r)
{
    uint64_t m = UINT64_MAX;
    for (size_t i = 0; i < r->n; i++)
        if (r->v[i].start < m)
            m = r->v[i].start;
    return m;
}

/* ---- one-shot extraction ------------------------------------------------------ */

pii_err pii_ner_extract_spans(const pii_ner_labels *L, const pii_ner_span_opts *opts,
                              const uint8_t *text, size_t len, const pii_ner_tok *tok,
                              const float *e, const int32_t *labels, size_t n, pii_spanvec *out)
{
    size_t C = pii_ner_labels_count(L);
    ner_text tx = {text, 0, len};
    ner_sm sm;
    pii_ner_sm_init(&sm, L, opts ? opts->max_span_tokens : 0);
    ner_resolver rs = {0};
    pii_err err = PII_OK;
    for (size_t t = 0; t <= n && !err; t++) {
        ner_tsp ts[2];
        int m;
        if (t < n) {
            if (labels[t] < 0 || (size_t)labels[t] >= C) {
                err = PII_EINVAL;
                break;
            }
            double prob = e ? exp((double)e[t * C + (size_t)labels[t]]) : 1.0;
            m = pii_ner_sm_push(&sm, labels[t], prob, ts);
        } else {
            m = pii_ner_sm_finish(&sm, ts);
        }
        for (int i = 0; i < m && !err; i++) {
            uint64_t s, en;
            if (tok[ts[i].te - 1].end > len || tok[ts[i].ts].start >= len) {
                err = PII_EINVAL;
                break;
            }
            if (!pii_ner_byte_span(&tx, pii_ner_labels_category(L, ts[i].cat), tok[ts[i].ts].start,
                                   tok[ts[i].te - 1].end, &s, &en))
                continue;
            float score = (float)(ts[i].psum / (double)(ts[i].te - ts[i].ts));
            if (opts && opts->cat_threshold && !(score >= opts->cat_threshold[ts[i].cat]))
                continue;
            const char *cat = pii_ner_labels_category(L, ts[i].cat);
            s = pii_ner_widen_left(&tx, cat, s);
            pii_ner_widen_right(&tx, cat, &en, pii_ner_widen_lim(cat, en), 1);
            pii_span sp = {s,    en,    pii_ner_labels_category(L, ts[i].cat),
                           NULL, score, PII_SRC_MODEL};
            err = pii_ner_resolver_add(&rs, &sp);
        }
    }
    if (!err)
        err = pii_ner_resolver_flush(&rs, UINT64_MAX, out);
    pii_ner_resolver_free(&rs);
    return err;
}

/* Does the window w[0..n) (lower-cased ASCII) hold one of the words? */
static int window_has(const uint8_t *w, size_t n, const char *const *words)
{
    for (size_t k = 0; words[k]; k++) {
        size_t m = strlen(words[k]);
        for (size_t i = 0; i + m <= n; i++)
            if (!memcmp(w + i, words[k], m))
                return 1;
    }
    return 0;
}

int pii_ner_digest_span(const ner_text *tx, uint64_t s, uint64_t e)
{
    static const char *const digest[] = {"sha1",   "sha-1", "sha2",     "sha-2",  "sha3",
                                         "sha-3",  "sha5",  "sha-5",    "sha384", "sha-384",
                                         "md5",    "blake", "checksum", "digest", "commit",
                                         "merge:", "hash",  "revision", "@sha",   NULL};
    static const char *const cred[] = {"token", "key",     "secret", "passw",  "pwd",
                                       "auth",  "session", "cookie", "bearer", NULL};
    if (s < tx->base || e > tx->base + tx->len || e - s < 7 || e - s > 128)
        return 0;
    size_t n = (size_t)(e - s), upper = 0;
    const uint8_t *p = tx->p + (s - tx->base);
    for (size_t i = 0; i < n; i++) {
        uint8_t c = p[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')))
            return 0;
        upper += c >= 'A' && c <= 'F';
    }
    /* the same line, up to NER_DIGEST_BACK bytes before the span, lowered */
    uint8_t w[NER_DIGEST_BACK];
    size_t k = 0;
    uint64_t b = s;
    while (b > tx->base && s - b < NER_DIGEST_BACK && tx->p[b - 1 - tx->base] != '\n')
        b--;
    for (uint64_t q = b; q < s; q++) {
        uint8_t c = tx->p[q - tx->base];
        w[k++] = c >= 'A' && c <= 'Z' ? (uint8_t)(c | 0x20) : c;
    }
    if (window_has(w, k, digest))
        return 1;
    /* a bare commit id: 40 lower-case hex digits with no credential word */
    return n == 40 && !upper && !window_has(w, k, cred);
}

int pii_ner_has_fullwidth_at(const ner_text *tx, uint64_t s, uint64_t e)
{
    static const uint8_t at[3] = {0xef, 0xbc, 0xa0}; /* U+FF20 */
    for (uint64_t q = s; q + 3 <= e; q++)
        if (!memcmp(tx->p + (q - tx->base), at, 3))
            return 1;
    return 0;
}

static int email_stop(uint8_t c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '<' || c == '>' || c == '"' ||
           c == '\'' || c == '(' || c == ')' || c == ',' || c == ';' || c == '[' || c == ']';
}

void pii_ner_email_core(const ner_text *tx, uint64_t *s, uint64_t *e)
{
    const uint8_t *p = tx->p + (*s - tx->base);
    size_t n = (size_t)(*e - *s), at = 0;
    while (at < n && p[at] != '@')
        at++;
    if (at == n)
        return; /* a full-width @: left as it is */
    size_t a = at, b = at + 1;
    while (a > 0 && !email_stop(p[a - 1]))
        a--;
    while (b < n && !email_stop(p[b]))
        b++;
    *e = *s + b;
    *s += a;
}
