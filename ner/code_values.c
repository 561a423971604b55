/* code_values.c — the model's values that are code (docs/NER.md, "Values in
 * code"): a secret, address, phone, account number or date span of the
 * model that is part of source code, a hex dump or a version number is no
 * personal value and is dropped before it reaches the resolver.
 *
 * Three readings, each looking only at the span and at the bytes of its
 * line before it (at most NER_DIGEST_BACK, which the document keeps in
 * view), so that streamed and one-shot text decide alike:
 *   - a C preprocessor or typedef line ("#define CAST_KEY_LENGTH 16",
 *     "typedef CARD32 GLXContextTag;", the comment of an "#endif"),
 *     outside a string literal: `#define API_KEY "sk_live_…"` keeps its
 *     quoted value;
 *   - a hex dump: the span is bytes written as two hex digits apart
 *     ("FF FF 00 FF"), and with those before it on its line at least
 *     three of them, one with a letter A-F;
 *   - (a phone) a size written width x height ("640x480");
 *   - a version number as a date: the span, with the digits and dots
 *     right before it, is digits and dots alone and no valid day.month
 *     (.year), month.year or year.month(.day) ("0.35.1", "dconf 0.29.2",
 *     "man-pages 6.03"; "6.3", "06.03", "03.2021" and "12.03.2021" stay).
 * Fail closed on values: anything else stays. */
#include <string.h>

#include "ner_internal.h"

static int is_digit(uint8_t c)
{
    return c >= '0' && c <= '9';
}

static int is_hex(uint8_t c)
{
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int is_blank(uint8_t c)
{
    return c == ' ' || c == '\t';
}

/* The start of the line holding byte s, when it is in view and at most
 * NER_DIGEST_BACK bytes before s; 0 when not (a view that starts later than
 * the document does not tell where its first line starts). */
static int line_start(const ner_text *tx, uint64_t s, uint64_t *ls)
{
    uint64_t b = s;
    while (b > tx->base && s - b < NER_DIGEST_BACK && tx->p[b - 1 - tx->base] != '\n')
        b--;
    if (b > tx->base ? tx->p[b - 1 - tx->base] != '\n' : b > 0)
        return 0; /* the line starts further back, or before the view */
    *ls = b;
    return 1;
}

/* Does the line from ls open a C preprocessor directive or a typedef (in
 * the bytes before the span's end e: "#define" may be the span's own), with
 * the span's start s outside a string literal? */
static int c_line(const ner_text *tx, uint64_t ls, uint64_t s, uint64_t e)
{
    static const char *const directive[] = {"define", "undef", "ifdef",   "ifndef", "if", "elif",
                                            "else",   "endif", "include", "pragma", NULL};
    const uint8_t *p = tx->p + (ls - tx->base);
    size_t n = (size_t)(e - ls), i = 0;
    while (i < n && is_blank(p[i]))
        i++;
    int code = 0;
    if (i < n && p[i] == '#') {
        i++;
        while (i < n && is_blank(p[i]))
            i++;
        for (size_t k = 0; directive[k] && !code; k++) {
            size_t m = strlen(directive[k]);
            code = i + m <= n && !memcmp(p + i, directive[k], m) &&
                   (i + m == n || !((p[i + m] | 0x20) >= 'a' && (p[i + m] | 0x20) <= 'z'));
        }
    } else if (i + 8 <= n && !memcmp(p + i, "typedef", 7) && is_blank(p[i + 7])) {
        code = 1;
    }
    if (!code)
        return 0;
    size_t quotes = 0;
    for (size_t k = 0; k < (size_t)(s - ls); k++)
        if (p[k] == '"' && (k == 0 || p[k - 1] != '\\'))
            quotes++;
    return quotes % 2 == 0;
}

/* Is [s, e) bytes of a hex dump (see the top)? */
static int hex_dump(const ner_text *tx, uint64_t ls, uint64_t s, uint64_t e)
{
    const uint8_t *p = tx->p + (s - tx->base);
    size_t n = (size_t)(e - s), tokens = 0, letters = 0;
    for (size_t i = 0; i < n;) {
        if (i + 2 > n || !is_hex(p[i]) || !is_hex(p[i + 1]) || (i + 2 < n && !is_blank(p[i + 2])))
            return 0;
        letters += !is_digit(p[i]) || !is_digit(p[i + 1]);
        tokens++;
        i += 2;
        while (i < n && is_blank(p[i]))
            i++;
    }
    /* the same tokens right before it on its line */
    uint64_t q = s;
    while (q >= ls + 3 && is_blank(tx->p[q - 1 - tx->base])) {
        uint64_t b = q - 1;
        while (b > ls && is_blank(tx->p[b - 1 - tx->base]))
            b--;
        if (b < ls + 2)
            break;
        uint8_t c1 = tx->p[b - 2 - tx->base], c2 = tx->p[b - 1 - tx->base];
        if (!is_hex(c1) || !is_hex(c2) || (b - 2 > ls && !is_blank(tx->p[b - 3 - tx->base])))
            break;
        letters += !is_digit(c1) || !is_digit(c2);
        tokens++;
        q = b - 2;
    }
    return tokens >= 3 && letters > 0;
}

/* Is p[0..n) a size, 2 to 5 digits, "x", 2 to 5 digits ("1920x1080")? */
static int dimensions(const uint8_t *p, size_t n)
{
    size_t a = 0, b;
    while (a < n && is_digit(p[a]))
        a++;
    if (a < 2 || a > 5 || a == n || p[a] != 'x')
        return 0;
    for (b = a + 1; b < n && is_digit(p[b]); b++)
        ;
    return b == n && b - a - 1 >= 2 && b - a - 1 <= 5;
}

/* A day.month(.year) or year.month.day? */
static int valid_dotted_date(const unsigned v[3], const size_t len[3], size_t k)
{
    if (k == 2 && len[0] == 4) /* year.month */
        return v[1] >= 1 && v[1] <= 12 && len[1] <= 2;
    if (k == 2 && len[1] == 4) /* month.year */
        return v[0] >= 1 && v[0] <= 12 && len[0] <= 2;
    if (k == 2) /* day.month; "6.03", a month padded and a day not, is a version */
        return v[0] >= 1 && v[0] <= 31 && v[1] >= 1 && v[1] <= 12 && len[0] <= 2 && len[1] <= 2 &&
               !(len[0] == 1 && len[1] == 2 && v[1] < 10);
    if (len[0] == 4) /* year.month.day */
        return v[1] >= 1 && v[1] <= 12 && v[2] >= 1 && v[2] <= 31 && len[1] <= 2 && len[2] <= 2;
    return v[0] >= 1 && v[0] <= 31 && v[1] >= 1 && v[1] <= 12 && len[0] <= 2 && len[1] <= 2 &&
           (len[2] == 2 || len[2] == 4);
}

/* Is [s, e), with the digits and dots right before it, a version number? */
static int version_number(const ner_text *tx, uint64_t ls, uint64_t s, uint64_t e)
{
    uint64_t b = s;
    while (b > ls && (is_digit(tx->p[b - 1 - tx->base]) || tx->p[b - 1 - tx->base] == '.'))
        b--;
    const uint8_t *p = tx->p + (b - tx->base);
    size_t n = (size_t)(e - b);
    if (n && p[n - 1] == '.')
        n--; /* a full stop after it */
    unsigned v[3] = {0, 0, 0};
    size_t len[3] = {0, 0, 0}, k = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '.') {
            if (!len[k] || ++k == 3)
                return 1; /* an empty part or a fourth one: no date */
        } else if (!is_digit(p[i])) {
            return 0;
        } else if (++len[k] > 4) {
            return 1;
        } else {
            v[k] = v[k] * 10 + (unsigned)(p[i] - '0');
        }
    }
    if (!k || !len[k])
        return 0; /* no dot: a number the model read, left to it */
    return !valid_dotted_date(v, len, k + 1);
}

int pii_ner_code_value(const ner_text *tx, const char *label, uint64_t s, uint64_t e)
{
    int date = !strcmp(label, "private_date");
    if (!date && strcmp(label, "secret") && strcmp(label, "private_address") &&
        strcmp(label, "private_phone") && strcmp(label, "account_number"))
        return 0;
    uint64_t ls;
    if (s < tx->base || e > tx->base + tx->len || s >= e || !line_start(tx, s, &ls))
        return 0;
    if (c_line(tx, ls, s, e) || hex_dump(tx, ls, s, e))
        return 1;
    if (!strcmp(label, "private_phone") && dimensions(tx->p + (s - tx->base), (size_t)(e - s)))
        return 1;
    return date && version_number(tx, ls, s, e);
}
