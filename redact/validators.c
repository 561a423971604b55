/* validators.c — checks run on rule matches (contract in validators.h). */
#include <math.h>
#include <string.h>

#include "validators.h"

static int is_digit(uint8_t c)
{
    return c >= '0' && c <= '9';
}

static int is_upper(uint8_t c)
{
    return c >= 'A' && c <= 'Z';
}

static int is_lower(uint8_t c)
{
    return c >= 'a' && c <= 'z';
}

static int is_alpha(uint8_t c)
{
    return is_upper(c) || is_lower(c);
}

static uint8_t lower(uint8_t c)
{
    return is_upper(c) ? (uint8_t)(c + 32) : c;
}

int pii_val_eq_ci(const uint8_t *p, size_t n, const char *s)
{
    size_t m = strlen(s);
    if (m != n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (lower(p[i]) != (uint8_t)s[i])
            return 0;
    return 1;
}

static int contains(const uint8_t *p, size_t n, const char *s)
{
    size_t m = strlen(s);
    for (size_t i = 0; i + m <= n; i++)
        if (memcmp(p + i, s, m) == 0)
            return 1;
    return 0;
}

/* ---- building blocks -------------------------------------------------- */

int pii_val_luhn(const char *d, size_t n)
{
    unsigned sum = 0;
    int dbl = 0;
    if (n == 0)
        return 0;
    for (size_t i = n; i-- > 0;) {
        if (d[i] < '0' || d[i] > '9')
            return 0;
        unsigned v = (unsigned)(d[i] - '0');
        if (dbl) {
            v *= 2;
            if (v > 9)
                v -= 9;
        }
        sum += v;
        dbl = !dbl;
    }
    return sum % 10 == 0;
}

int pii_val_iban_mod97(const char *c, size_t n)
{
    unsigned r = 0;
    if (n < 5)
        return 0;
    /* The first four characters move to the end. */
    for (size_t k = 0; k < n; k++) {
        char ch = c[(k + 4) % n];
        if (ch >= '0' && ch <= '9')
            r = (r * 10 + (unsigned)(ch - '0')) % 97;
        else if (ch >= 'A' && ch <= 'Z')
            r = (r * 100 + (unsigned)(ch - 'A' + 10)) % 97;
        else
            return 0;
    }
    return r == 1;
}

int pii_val_real_date(int y, int m, int d)
{
    static const int mdays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (y < 1 || y > 9999 || m < 1 || m > 12 || d < 1)
        return 0;
    int lim = mdays[m - 1];
    if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
        lim = 29;
    return d <= lim;
}

double pii_val_entropy(const uint8_t *p, size_t n)
{
    unsigned cnt[256] = {0};
    if (n == 0)
        return 0.0;
    for (size_t i = 0; i < n; i++)
        cnt[p[i]]++;
    double h = 0.0;
    for (int c = 0; c < 256; c++) {
        if (!cnt[c])
            continue;
        double f = (double)cnt[c] / (double)n;
        h -= f * log2(f);
    }
    return h;
}

/* ---- email ------------------------------------------------------------ */

/* File extensions that are not top-level domains: "icon@2x.png". */
static const char *const file_exts[] = {"png", "jpg",  "jpeg", "gif",  "svg", "webp", "bmp",  "ico",
                                        "tif", "tiff", "heic", "avif", "psd", "css",  "js",   "mjs",
                                        "jsx", "tsx",  "json", "yaml", "yml", "xml",  "html", "htm",
                                        "txt", "log",  "lock", "zip",  "gz",  "tgz",  "tar",  NULL};

/* Is the UTF-8 sequence at p[0..n) a Han, Hiragana or Katakana character?
 * Those run into an address in Chinese and Japanese text ("邮箱wang@x.cn"):
 * the address starts at "w" (rule email_cjk), never at the kanji. */
static int cjk_at(const uint8_t *p, size_t n)
{
    uint32_t c;
    if (n >= 3 && (p[0] & 0xf0) == 0xe0)
        c = (uint32_t)(p[0] & 0x0f) << 12 | (uint32_t)(p[1] & 0x3f) << 6 | (p[2] & 0x3f);
    else if (n >= 4 && (p[0] & 0xf8) == 0xf0)
        c = (uint32_t)(p[0] & 0x07) << 18 | (uint32_t)(p[1] & 0x3f) << 12 |
            (uint32_t)(p[2] & 0x3f) << 6 | (p[3] & 0x3f);
    else
        return 0;
    return (c >= 0x2e80 && c <= 0x2fdf) || (c >= 0x3005 && c <= 0x3007) ||
           (c >= 0x3021 && c <= 0x3029) || (c >= 0x3038 && c <= 0x303b) ||
           (c >= 0x3040 && c <= 0x30ff) || (c >= 0x31f0 && c <= 0x31ff) ||
           (c >= 0x3400 && c <= 0x4dbf) || (c >= 0x4e00 && c <= 0x9fff) ||
           (c >= 0xf900 && c <= 0xfaff) || (c >= 0xff66 && c <= 0xff9f) ||
           (c >= 0x20000 && c <= 0x323af);
}

int pii_val_email(const uint8_t *p, size_t n)
{
    size_t at = n;
    for (size_t i = 0; i < n; i++)
        if (p[i] == '@') {
            at = i;
            break;
        }
    if (at == 0 || at >= n - 1 || at > 64 || n - at - 1 > 253)
        return 0;
    if (p[0] == '.' || p[at - 1] == '.')
        return 0;
    for (size_t i = 1; i < at; i++)
        if (p[i] == '.' && p[i - 1] == '.')
            return 0;
    for (size_t i = 0; i < at; i++)
        if (p[i] >= 0xe0 && cjk_at(p + i, at - i))
            return 0; /* the local part takes no Han or kana */
    /* Domain labels: non-empty, at most 63 bytes, no '-' at either end. */
    size_t ls = at + 1, tld = ls;
    for (size_t i = at + 1; i <= n; i++) {
        if (i == n || p[i] == '.') {
            size_t l = i - ls;
            if (l == 0 || l > 63 || p[ls] == '-' || p[i - 1] == '-')
                return 0;
            tld = ls;
            ls = i + 1;
        }
    }
    for (int k = 0; file_exts[k]; k++)
        if (pii_val_eq_ci(p + tld, n - tld, file_exts[k]))
            return 0;
    return 1;
}

/* ---- URL -------------------------------------------------------------- */

int pii_val_url(const uint8_t *p, size_t n)
{
    size_t i = 0;
    /* Skip "scheme://" or nothing ("www."). */
    for (size_t k = 0; k + 2 < n && k < 8; k++)
        if (p[k] == ':' && p[k + 1] == '/' && p[k + 2] == '/') {
            i = k + 3;
            break;
        }
    /* Authority ends at '/', '?', '#' or the end; userinfo ends at '@'. */
    size_t a_end = i;
    while (a_end < n && p[a_end] != '/' && p[a_end] != '?' && p[a_end] != '#')
        a_end++;
    size_t h = i;
    for (size_t k = i; k < a_end; k++)
        if (p[k] == '@')
            h = k + 1;
    /* Port. */
    size_t h_end = h;
    while (h_end < a_end && p[h_end] != ':')
        h_end++;
    if (h_end == h)
        return 0;
    if (h_end < a_end) {
        unsigned long port = 0;
        size_t k = h_end + 1;
        if (k == a_end)
            return 0;
        for (; k < a_end; k++) {
            if (!is_digit(p[k]))
                return 0;
            port = port * 10 + (unsigned long)(p[k] - '0');
            if (port > 65535)
                return 0;
        }
    }
    if (a_end == n)
        return 1;
    /* A path, query or fragment must not end in sentence punctuation, and a
     * closing bracket at the end must be balanced inside the URL. */
    uint8_t last = p[n - 1];
    if (strchr(".,;:!?*'\"", last) && last != 0)
        return 0;
    if (last == ')' || last == ']') {
        uint8_t open = last == ')' ? '(' : '[';
        long bal = 0;
        for (size_t k = a_end; k < n; k++) {
            if (p[k] == open)
                bal++;
            else if (p[k] == last)
                bal--;
        }
        if (bal < 0)
            return 0;
    }
    return 1;
}

/* ---- IBAN ------------------------------------------------------------- */

static const struct {
    char cc[3];
    unsigned char len;
} iban_lens[] = {
    {"AD", 24}, {"AE", 23}, {"AL", 28}, {"AT", 20}, {"AZ", 28}, {"BA", 20}, {"BE", 16}, {"BG", 22},
    {"BH", 22}, {"BI", 27}, {"BR", 29}, {"BY", 28}, {"CH", 21}, {"CR", 22}, {"CY", 28}, {"CZ", 24},
    {"DE", 22}, {"DJ", 27}, {"DK", 18}, {"DO", 28}, {"EE", 20}, {"EG", 29}, {"ES", 24}, {"FI", 18},
    {"FK", 18}, {"FO", 18}, {"FR", 27}, {"GB", 22}, {"GE", 22}, {"GI", 23}, {"GL", 18}, {"GR", 27},
    {"GT", 28}, {"HR", 21}, {"HU", 28}, {"IE", 22}, {"IL", 23}, {"IQ", 23}, {"IS", 26}, {"IT", 27},
    {"JO", 30}, {"KW", 30}, {"KZ", 20}, {"LB", 28}, {"LC", 32}, {"LI", 21}, {"LT", 20}, {"LU", 20},
    {"LV", 21}, {"LY", 25}, {"MC", 27}, {"MD", 24}, {"ME", 22}, {"MK", 19}, {"MN", 20}, {"MR", 27},
    {"MT", 31}, {"MU", 30}, {"NI", 28}, {"NL", 18}, {"NO", 15}, {"OM", 23}, {"PK", 24}, {"PL", 28},
    {"PS", 29}, {"PT", 25}, {"QA", 29}, {"RO", 24}, {"RS", 22}, {"RU", 33}, {"SA", 24}, {"SC", 31},
    {"SD", 18}, {"SE", 24}, {"SI", 19}, {"SK", 24}, {"SM", 27}, {"SO", 23}, {"ST", 25}, {"SV", 28},
    {"TL", 23}, {"TN", 24}, {"TR", 26}, {"UA", 29}, {"VA", 22}, {"VG", 24}, {"XK", 20},
};

int pii_val_iban(const uint8_t *p, size_t n)
{
    char c[40];
    size_t m = 0, group = 0;
    int spaced = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] == ' ') {
            /* Printed form: groups of four. */
            if (group != 4)
                return 0;
            spaced = 1;
            group = 0;
            continue;
        }
        if (m >= sizeof c)
            return 0;
        c[m++] = (char)p[i];
        group++;
    }
    if (spaced && (group == 0 || group > 4))
        return 0;
    size_t want = 0;
    for (size_t k = 0; k < sizeof iban_lens / sizeof iban_lens[0]; k++)
        if (c[0] == iban_lens[k].cc[0] && c[1] == iban_lens[k].cc[1])
            want = iban_lens[k].len;
    if (want == 0 || m != want)
        return 0;
    return pii_val_iban_mod97(c, m);
}

/* ---- payment cards ---------------------------------------------------- */

static unsigned prefix_num(const char *d, int k)
{
    unsigned v = 0;
    for (int i = 0; i < k; i++)
        v = v * 10 + (unsigned)(d[i] - '0');
    return v;
}

static int card_issuer_ok(const char *d, size_t n)
{
    unsigned p1 = prefix_num(d, 1), p2 = prefix_num(d, 2), p3 = prefix_num(d, 3),
             p4 = prefix_num(d, 4);
    if (p1 == 4) /* Visa */
        return n == 13 || n == 16 || n == 19;
    if ((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) /* Mastercard */
        return n == 16;
    if (p2 == 34 || p2 == 37) /* American Express */
        return n == 15;
    if (p4 >= 2200 && p4 <= 2204) /* Mir */
        return n >= 16;
    if (p4 == 6011 || (p3 >= 644 && p3 <= 649) || p2 == 65) /* Discover */
        return n >= 16;
    if (p2 == 62) /* UnionPay (includes Discover's 622126-622925) */
        return n >= 16;
    if (p4 >= 3528 && p4 <= 3589) /* JCB */
        return n >= 16;
    if ((p3 >= 300 && p3 <= 305) || p4 == 3095 || p2 == 36 || p2 == 38 || p2 == 39)
        return n >= 14; /* Diners Club */
    if (p4 == 5018 || p4 == 5020 || p4 == 5038 || p4 == 5893 || p4 == 6304 || p4 == 6759 ||
        (p4 >= 6761 && p4 <= 6763)) /* Maestro */
        return n >= 13;
    return 0;
}

int pii_val_card(const uint8_t *p, size_t n)
{
    char d[24];
    size_t nd = 0, ng = 0, glen[24];
    uint8_t sep = 0;
    size_t cur = 0;
    for (size_t i = 0; i < n; i++) {
        if (is_digit(p[i])) {
            if (nd >= 19)
                return 0;
            d[nd++] = (char)p[i];
            cur++;
        } else {
            if (sep && p[i] != sep)
                return 0; /* mixed separators */
            sep = p[i];
            glen[ng++] = cur;
            cur = 0;
        }
    }
    glen[ng++] = cur;
    if (nd < 13)
        return 0;
    if (ng > 1) {
        int ok = 1;
        for (size_t g = 0; g + 1 < ng; g++)
            if (glen[g] != 4)
                ok = 0;
        if (glen[ng - 1] < 1 || glen[ng - 1] > 4)
            ok = 0;
        /* American Express 4-6-5 and Diners 4-6-4. */
        if (ng == 3 && glen[0] == 4 && glen[1] == 6 && (glen[2] == 5 || glen[2] == 4))
            ok = 1;
        if (!ok)
            return 0;
    }
    return card_issuer_ok(d, nd) && pii_val_luhn(d, nd);
}

/* ---- digit groups (accounts, phones) ------------------------------------ */

typedef struct groups {
    size_t n;        /* number of digit runs          */
    size_t len[40];  /* digits in each run            */
    size_t digits;   /* total digits                  */
    uint8_t sep[40]; /* separator before run i (i>0)  */
    int same_sep;    /* one separator kind throughout */
} groups;

/* Splits p into runs of digits; anything else is a separator.  Returns 0 if
 * there are too many runs or two separators in a row (other than around a
 * parenthesis). */
/* Bytes of a Unicode dash at p (U+2010..U+2013, U+2212), or 0. */
static size_t udash_len(const uint8_t *p, size_t n)
{
    if (n >= 3 && p[0] == 0xE2 && p[1] == 0x80 && p[2] >= 0x90 && p[2] <= 0x93)
        return 3;
    if (n >= 3 && p[0] == 0xE2 && p[1] == 0x88 && p[2] == 0x92)
        return 3;
    return 0;
}

static int split_groups(const uint8_t *p, size_t n, groups *g)
{
    memset(g, 0, sizeof *g);
    g->same_sep = 1;
    size_t i = 0;
    uint8_t first_sep = 0;
    while (i < n) {
        if (is_digit(p[i])) {
            if (g->n >= 40)
                return 0;
            size_t s = i;
            while (i < n && is_digit(p[i]))
                i++;
            g->len[g->n++] = i - s;
            g->digits += i - s;
        } else {
            size_t s = i;
            while (i < n && !is_digit(p[i]))
                i++;
            /* The separator of this gap: the first non-parenthesis byte; a
             * Unicode dash (U+2010-2013, U+2212) counts as one '-'. */
            uint8_t sp = 0;
            size_t plain = 0;
            for (size_t k = s; k < i; k++)
                if (p[k] != '(' && p[k] != ')') {
                    uint8_t c = p[k];
                    size_t u = udash_len(p + k, i - k);
                    if (u) {
                        c = '-';
                        k += u - 1;
                    }
                    if (!sp)
                        sp = c;
                    plain++;
                }
            if (plain > 1)
                return 0;
            if (g->n < 40)
                g->sep[g->n] = sp ? sp : '(';
            if (sp) {
                if (first_sep && sp != first_sep)
                    g->same_sep = 0;
                if (!first_sep)
                    first_sep = sp;
            }
        }
    }
    return 1;
}

static int date_shaped(const groups *g)
{
    if (g->n != 3)
        return 0;
    if (g->len[0] == 4 && g->len[1] <= 2 && g->len[2] <= 2)
        return 1;
    if (g->len[0] <= 2 && g->len[1] <= 2 && g->len[2] == 4)
        return 1;
    return 0;
}

static int all_same_digit(const uint8_t *p, size_t n)
{
    uint8_t d = 0;
    for (size_t i = 0; i < n; i++)
        if (is_digit(p[i])) {
            if (d && p[i] != d)
                return 0;
            d = p[i];
        }
    return 1;
}

int pii_val_account(const uint8_t *p, size_t n)
{
    groups g;
    if (!split_groups(p, n, &g) || !g.same_sep)
        return 0;
    if (g.digits < 6 || g.digits > 34 || date_shaped(&g) || all_same_digit(p, n))
        return 0;
    return 1;
}

int pii_val_id_ja(const uint8_t *p, size_t n)
{
    size_t digits = 0;
    for (size_t i = 0; i < n; i++)
        digits += is_digit(p[i]);
    if (digits < 3 || all_same_digit(p, n))
        return 0;
    /* yyyy-mm-dd, yyyy/m/d */
    if (n >= 8 && n <= 10 && digits == n - 2 && is_digit(p[0]) && is_digit(p[3]) &&
        (p[4] == '-' || p[4] == '/'))
        return 0;
    return 1;
}

/* ---- national identifiers (account_number, docs/LABELS.md) ------------- */

/* The digits of p[0..n) (other bytes skipped) into d; their count, or 0
 * when there are more than cap. */
static size_t digits_of(const uint8_t *p, size_t n, char *d, size_t cap)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (is_digit(p[i])) {
            if (m == cap)
                return 0;
            d[m++] = (char)p[i];
        }
    return m;
}

int pii_val_ssn(const uint8_t *p, size_t n)
{
    char d[9];
    if (digits_of(p, n, d, sizeof d) != 9)
        return 0;
    int area = (d[0] - '0') * 100 + (d[1] - '0') * 10 + (d[2] - '0');
    int group = (d[3] - '0') * 10 + (d[4] - '0');
    int serial = (d[5] - '0') * 1000 + (d[6] - '0') * 100 + (d[7] - '0') * 10 + (d[8] - '0');
    if (serial == 0)
        return 0;
    if (area >= 900) /* ITIN: 9xx-[50-65|70-88|90-92|94-99]-xxxx */
        return (group >= 50 && group <= 65) || (group >= 70 && group <= 88) ||
               (group >= 90 && group <= 92) || group >= 94;
    return area != 0 && area != 666 && group != 0;
}

int pii_val_uk_nino(const uint8_t *p, size_t n)
{
    static const char *const bad[] = {"BG", "GB", "KN", "NK", "NT", "TN", "ZZ"};
    if (n < 9)
        return 0;
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        if (p[0] == (uint8_t)bad[k][0] && p[1] == (uint8_t)bad[k][1])
            return 0;
    char d[6];
    return digits_of(p, n, d, sizeof d) == 6;
}

int pii_val_es_dni(const uint8_t *p, size_t n)
{
    static const char letters[] = "TRWAGMYFPDXBNJZSQVHLCKE";
    unsigned long v = 0;
    size_t nd = 0;
    uint8_t last = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = p[i];
        if (is_digit(c)) {
            v = v * 10 + (unsigned long)(c - '0');
            nd++;
        } else if (i == 0 && (c == 'X' || c == 'Y' || c == 'Z')) {
            v = (unsigned long)(c - 'X'); /* NIE: X=0, Y=1, Z=2 */
        } else if (is_upper(c)) {
            last = c;
        }
    }
    if (!last || (nd != 8 && nd != 7))
        return 0;
    return letters[v % 23] == (char)last;
}

int pii_val_it_cf(const uint8_t *p, size_t n)
{
    /* values of the characters in odd positions (1st, 3rd, ...), 0-9 then A-Z */
    static const uint8_t odd[36] = {1,  0, 5, 7,  9,  13, 15, 17, 19, 21, 1,  0,
                                    5,  7, 9, 13, 15, 17, 19, 21, 2,  4,  18, 20,
                                    11, 3, 6, 8,  12, 14, 16, 10, 22, 25, 24, 23};
    if (n != 16)
        return 0;
    unsigned sum = 0;
    for (size_t i = 0; i < 15; i++) {
        uint8_t c = p[i];
        unsigned k;
        if (is_digit(c))
            k = (unsigned)(c - '0');
        else if (is_upper(c))
            k = 10u + (unsigned)(c - 'A');
        else
            return 0;
        if (i % 2 == 0)
            sum += odd[k];
        else
            sum += k < 10 ? k : k - 10;
    }
    return p[15] == (uint8_t)('A' + sum % 26);
}

int pii_val_fr_nir(const uint8_t *p, size_t n)
{
    char d[15];
    size_t m = 0;
    int corse = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = p[i];
        if (c == ' ')
            continue;
        if (m == sizeof d)
            return 0;
        if (c == 'A' || c == 'B') { /* Corsica 2A / 2B */
            corse = c == 'A' ? 1 : 2;
            c = '0';
        }
        d[m++] = (char)c;
    }
    if (m != 15)
        return 0;
    unsigned long long v = 0;
    for (size_t i = 0; i < 13; i++)
        v = v * 10 + (unsigned long long)(d[i] - '0');
    if (corse)
        v -= corse == 1 ? 1000000ull : 2000000ull; /* 2A -> 19, 2B -> 18 */
    unsigned key = (unsigned)((d[13] - '0') * 10 + (d[14] - '0'));
    return key == 97u - (unsigned)(v % 97u);
}

/* An identifier after a context word: 5-24 letters and digits, at least two
 * digits, not a date, not one repeated digit. */
int pii_val_id_context(const uint8_t *p, size_t n)
{
    size_t digits = 0, alnum = 0;
    for (size_t i = 0; i < n; i++) {
        digits += is_digit(p[i]);
        alnum += is_digit(p[i]) || is_alpha(p[i]);
    }
    if (alnum < 5 || digits < 2 || all_same_digit(p, n))
        return 0;
    groups g;
    if (digits == alnum && split_groups(p, n, &g) && date_shaped(&g))
        return 0;
    return 1;
}

/* ---- dates ------------------------------------------------------------ */

static int num(const uint8_t *p, size_t n, int *out)
{
    int v = 0;
    if (n == 0 || n > 4)
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (!is_digit(p[i]))
            return 0;
        v = v * 10 + (p[i] - '0');
    }
    *out = v;
    return 1;
}

int pii_val_date_iso(const uint8_t *p, size_t n)
{
    int y, m, d;
    if (n != 10 || p[4] != p[7])
        return 0;
    if (!num(p, 4, &y) || !num(p + 5, 2, &m) || !num(p + 8, 2, &d))
        return 0;
    return pii_val_real_date(y, m, d);
}

int pii_val_date_numeric(const uint8_t *p, size_t n)
{
    size_t s1 = 0, s2 = 0;
    while (s1 < n && is_digit(p[s1]))
        s1++;
    s2 = s1 + 1;
    while (s2 < n && is_digit(p[s2]))
        s2++;
    if (s1 == 0 || s2 >= n || p[s1] != p[s2] || n - s2 - 1 != 4)
        return 0;
    int a, b, y;
    if (!num(p, s1, &a) || !num(p + s1 + 1, s2 - s1 - 1, &b) || !num(p + s2 + 1, 4, &y))
        return 0;
    if (p[s1] == '.')
        return pii_val_real_date(y, b, a); /* dd.mm.yyyy */
    return pii_val_real_date(y, b, a) || pii_val_real_date(y, a, b);
}

/* Month names (lower case) in English, French, German and Spanish. */
static const struct {
    const char *name;
    int month;
} months[] = {
    {"january", 1},    {"jan", 1},       {"janvier", 1},   {"januar", 1},    {"jänner", 1},
    {"enero", 1},      {"february", 2},  {"feb", 2},       {"février", 2},   {"fevrier", 2},
    {"februar", 2},    {"febrero", 2},   {"march", 3},     {"mar", 3},       {"mars", 3},
    {"märz", 3},       {"maerz", 3},     {"marzo", 3},     {"april", 4},     {"apr", 4},
    {"avril", 4},      {"abril", 4},     {"may", 5},       {"mai", 5},       {"mayo", 5},
    {"june", 6},       {"jun", 6},       {"juin", 6},      {"juni", 6},      {"junio", 6},
    {"july", 7},       {"jul", 7},       {"juillet", 7},   {"juli", 7},      {"julio", 7},
    {"august", 8},     {"aug", 8},       {"août", 8},      {"aout", 8},      {"agosto", 8},
    {"september", 9},  {"sep", 9},       {"sept", 9},      {"septembre", 9}, {"septiembre", 9},
    {"setiembre", 9},  {"october", 10},  {"oct", 10},      {"octobre", 10},  {"oktober", 10},
    {"octubre", 10},   {"november", 11}, {"nov", 11},      {"novembre", 11}, {"noviembre", 11},
    {"december", 12},  {"dec", 12},      {"décembre", 12}, {"decembre", 12}, {"dezember", 12},
    {"diciembre", 12},
};

/* Lower-cases ASCII and the Latin-1 capitals encoded as C3 80..9E. */
static size_t fold(const uint8_t *p, size_t n, char *out, size_t cap)
{
    size_t m = 0;
    for (size_t i = 0; i < n && m + 1 < cap; i++) {
        uint8_t c = p[i];
        if (i > 0 && p[i - 1] == 0xC3 && c >= 0x80 && c <= 0x9E && c != 0x97)
            c = (uint8_t)(c + 0x20);
        out[m++] = (char)lower(c);
    }
    out[m] = 0;
    return m;
}

static int month_of(const uint8_t *p, size_t n)
{
    char w[24];
    if (n >= sizeof w)
        return 0;
    fold(p, n, w, sizeof w);
    for (size_t k = 0; k < sizeof months / sizeof months[0]; k++)
        if (strcmp(w, months[k].name) == 0)
            return months[k].month;
    return 0;
}

int pii_val_date_text(const uint8_t *p, size_t n)
{
    int day = 0, month = 0, year = 0;
    size_t i = 0;
    while (i < n) {
        if (is_digit(p[i])) {
            size_t s = i;
            while (i < n && is_digit(p[i]))
                i++;
            int v;
            if (!num(p + s, i - s, &v))
                return 0;
            if (i - s == 4 && !year)
                year = v;
            else if (i - s <= 2 && !day)
                day = v;
            else
                return 0;
        } else if (is_alpha(p[i]) || p[i] >= 0x80) {
            size_t s = i;
            while (i < n && (is_alpha(p[i]) || p[i] >= 0x80))
                i++;
            int m = month_of(p + s, i - s);
            if (m && !month)
                month = m;
            else if (!(pii_val_eq_ci(p + s, i - s, "st") || pii_val_eq_ci(p + s, i - s, "nd") ||
                       pii_val_eq_ci(p + s, i - s, "rd") || pii_val_eq_ci(p + s, i - s, "th") ||
                       pii_val_eq_ci(p + s, i - s, "er") || pii_val_eq_ci(p + s, i - s, "of") ||
                       pii_val_eq_ci(p + s, i - s, "de")))
                return 0;
        } else {
            i++;
        }
    }
    return day && month && year && pii_val_real_date(year, month, day);
}

/* ---- phones ------------------------------------------------------------ */

/* Length of the main number: p[0..n) without a trailing extension
 * ("x12", " ext. 12", "#12"). */
static size_t strip_ext(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] == 'x' || p[i] == 'X' || p[i] == 'e' || p[i] == 'E' || p[i] == '#') {
            size_t e = i;
            while (e > 0 && p[e - 1] == ' ')
                e--;
            return e;
        }
    return n;
}

static int parens_ok(const uint8_t *p, size_t n)
{
    int depth = 0, pairs = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '(') {
            if (depth)
                return 0;
            depth = 1;
            pairs++;
        } else if (p[i] == ')') {
            if (!depth)
                return 0;
            depth = 0;
        }
    }
    return depth == 0 && pairs <= 2;
}

int pii_val_phone_intl(const uint8_t *p, size_t n)
{
    n = strip_ext(p, n);
    if (n < 2 || p[0] != '+' || !parens_ok(p, n))
        return 0;
    groups g;
    if (!split_groups(p + 1, n - 1, &g))
        return 0;
    size_t digits = g.digits;
    /* "+44 (0)20 ...": the trunk zero in parentheses is not dialled. */
    for (size_t i = 0; i + 2 < n; i++)
        if (p[i] == '(' && p[i + 1] == '0' && p[i + 2] == ')')
            digits--;
    if (digits < 8 || digits > 15)
        return 0;
    if (g.n > 1) {
        if (g.len[g.n - 1] < 2)
            return 0;
        for (size_t k = 0; k < g.n; k++)
            if (g.len[k] > 12)
                return 0;
    }
    return 1;
}

/* "0044 20 7946 0958": the international prefix 00 instead of '+'.  As
 * phone_intl (8-15 digits after the prefix, the last group >= 2 digits, no
 * group > 12), and at least three groups after it, so that a zero-padded
 * number ("001234567890", "0012 345678") is no phone. */
int pii_val_phone_intl00(const uint8_t *p, size_t n)
{
    n = strip_ext(p, n);
    if (n < 3 || p[0] != '0' || p[1] != '0' || !parens_ok(p, n))
        return 0;
    groups g;
    if (!split_groups(p + 2, n - 2, &g) || g.n < 3)
        return 0;
    size_t digits = g.digits;
    for (size_t i = 0; i + 2 < n; i++)
        if (p[i] == '(' && p[i + 1] == '0' && p[i + 2] == ')')
            digits--;
    if (digits < 8 || digits > 15 || g.len[0] > 3 || g.len[g.n - 1] < 2)
        return 0;
    for (size_t k = 0; k < g.n; k++)
        if (g.len[k] > 12)
            return 0;
    return 1;
}

int pii_val_phone_national(const uint8_t *p, size_t n)
{
    n = strip_ext(p, n);
    if (!parens_ok(p, n))
        return 0;
    groups g;
    if (!split_groups(p, n, &g) || !g.same_sep)
        return 0;
    if (g.digits < 9 || g.digits > 12 || g.n < 2 || g.n > 5)
        return 0;
    for (size_t k = 0; k < g.n; k++)
        if (g.len[k] < 2)
            return 0;
    if (g.len[0] > 5)
        return 0;
    if (g.n == 2 && g.len[0] == 5 && g.len[1] == 4 && g.sep[1] == '-')
        return 0; /* a US ZIP+4 code: 02110-1301 */
    int dotted = 0;
    for (size_t k = 1; k < g.n; k++)
        if (g.sep[k] == '.')
            dotted = 1;
    if (dotted) { /* French style only: 0d.dd.dd.dd.dd */
        if (g.n != 5)
            return 0;
        for (size_t k = 0; k < 5; k++)
            if (g.len[k] != 2)
                return 0;
    }
    return 1;
}

int pii_val_phone_loose(const uint8_t *p, size_t n)
{
    n = strip_ext(p, n);
    if (!parens_ok(p, n))
        return 0;
    size_t s = (n && p[0] == '+') ? 1 : 0;
    groups g;
    if (!split_groups(p + s, n - s, &g))
        return 0;
    if (g.digits < 7 || g.digits > 15 || date_shaped(&g) || all_same_digit(p, n))
        return 0;
    /* An IPv4 address: four dotted runs of at most three digits. */
    if (g.n == 4 && g.sep[1] == '.' && g.sep[2] == '.' && g.sep[3] == '.' && g.len[0] <= 3 &&
        g.len[1] <= 3 && g.len[2] <= 3 && g.len[3] <= 3)
        return 0;
    if (g.n > 1 && g.len[g.n - 1] < 2)
        return 0;
    return 1;
}

/* ---- secrets ------------------------------------------------------------ */

static const char *const non_values[] = {
    "null",          "none",         "nil",         "true",
    "false",         "undefined",    "empty",       "required",
    "optional",      "string",       "str",         "text",
    "password",      "passwd",       "secret",      "redacted",
    "removed",       "hidden",       "masked",      "omitted",
    "your_password", "yourpassword", "placeholder", "changeit_placeholder",
    "example",       "token",        "value",       NULL};

static int is_non_value(const uint8_t *p, size_t n)
{
    for (int k = 0; non_values[k]; k++)
        if (pii_val_eq_ci(p, n, non_values[k]))
            return 1;
    uint8_t c0 = p[0];
    if (c0 == '$' || c0 == '{' || c0 == '<' || c0 == '[' || c0 == '(')
        return 1; /* a reference or a template, not a value */
    if (c0 == '%' && (n < 3 || p[1] == '(' || p[1] == '{' || p[n - 1] == '%'))
        return 1; /* %(name)s, %{VAR}, %VAR%; a password may start with '%' */
    if (contains(p, n, "://"))
        return 1;
    int same = 1;
    for (size_t i = 1; i < n; i++)
        if (p[i] != c0)
            same = 0;
    return same; /* "********", "xxxxxxxx" */
}

int pii_val_secret_password(const uint8_t *p, size_t n)
{
    if (n < 6 || is_non_value(p, n))
        return 0;
    return 1;
}

/* A file path ("/var/lib/app", "~/.ssh/id_rsa"), not base64 that starts
 * with '/': no '+' or '=', and a segment of two or more lower-case letters,
 * digits and "._-" ("var", ".ssh"), which random base64 rarely has. */
static int file_path(const uint8_t *p, size_t n)
{
    if (!(p[0] == '/' || (n > 1 && (p[0] == '~' || p[0] == '.') && p[1] == '/')))
        return 0;
    if (memchr(p, '+', n) || memchr(p, '=', n))
        return 0;
    size_t i = 0;
    while (i < n) {
        while (i < n && p[i] == '/')
            i++;
        size_t s = i;
        int lower = 1;
        while (i < n && p[i] != '/') {
            uint8_t c = p[i];
            if (!(is_lower(c) || is_digit(c) || c == '.' || c == '_' || c == '-' || c == '~'))
                lower = 0;
            i++;
        }
        if (lower && i - s >= 2)
            return 1;
    }
    return 0;
}

int pii_val_secret_token(const uint8_t *p, size_t n)
{
    if (n < 12 || is_non_value(p, n))
        return 0;
    if (file_path(p, n))
        return 0;
    size_t up = 0, lo = 0, dg = 0;
    for (size_t i = 0; i < n; i++) {
        if (is_upper(p[i]))
            up++;
        else if (is_lower(p[i]))
            lo++;
        else if (is_digit(p[i]))
            dg++;
    }
    if (up + lo == 0)
        return 0; /* plain numbers: durations, counts, ports */
    double h = pii_val_entropy(p, n);
    if (h < 3.0)
        return 0;
    /* Identifiers ("user_session_v2", "created_at") have few digits and one
     * case; random values mix. */
    if (dg >= 2 || (up && lo && dg))
        return 1;
    return n >= 20 && h >= 4.0 && up && lo;
}

int pii_val_openai_key(const uint8_t *p, size_t n)
{
    /* Skip "sk-" and an optional "proj-"/"svcacct-"/"admin-". */
    size_t i = 3;
    if (n > 8 && memcmp(p + 3, "proj-", 5) == 0)
        i = 8;
    else if (n > 11 && memcmp(p + 3, "svcacct-", 8) == 0)
        i = 11;
    else if (n > 9 && memcmp(p + 3, "admin-", 6) == 0)
        i = 9;
    const uint8_t *r = p + i;
    size_t m = n - i, dg = 0, al = 0;
    for (size_t k = 0; k < m; k++) {
        if (is_digit(r[k]))
            dg++;
        else if (is_alpha(r[k]))
            al++;
    }
    return m >= 20 && dg >= 2 && al >= 2 && pii_val_entropy(r, m) >= 3.5;
}

static int b64_val(uint8_t c)
{
    if (is_upper(c))
        return c - 'A';
    if (is_lower(c))
        return c - 'a' + 26;
    if (is_digit(c))
        return c - '0' + 52;
    if (c == '+' || c == '-')
        return 62;
    if (c == '/' || c == '_')
        return 63;
    return -1;
}

/* Decodes standard or URL-safe base64 (padding optional) into out; returns
 * the decoded length, or -1. */
static long b64_decode(const uint8_t *p, size_t n, uint8_t *out, size_t cap)
{
    unsigned acc = 0;
    int bits = 0;
    size_t m = 0;
    while (n && p[n - 1] == '=')
        n--;
    for (size_t i = 0; i < n; i++) {
        int v = b64_val(p[i]);
        if (v < 0)
            return -1;
        acc = (acc << 6) | (unsigned)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            if (m >= cap)
                return -1;
            out[m++] = (uint8_t)(acc >> bits);
        }
    }
    return (long)m;
}

/* The header is read whole, however long (an "x5c" certificate chain makes
 * it kilobytes): its first decoded byte is '{' and it names "alg" or "typ".
 * A match without a '.' is a header that reached the rule's cap (4096
 * characters after "eyJ"), whose value grows over the rest of the token. */
int pii_val_jwt(const uint8_t *p, size_t n)
{
    static const char alg[] = "\"alg\"", typ[] = "\"typ\"";
    size_t dot = 0;
    while (dot < n && p[dot] != '.')
        dot++;
    if (dot == n && n < 3 + 4096)
        return 0;
    unsigned acc = 0;
    int bits = 0;
    size_t m = 0;
    uint8_t last[5] = {0}; /* the last five decoded bytes */
    for (size_t i = 0; i < dot; i++) {
        int v = b64_val(p[i]);
        if (v < 0)
            return 0;
        acc = ((acc << 6) | (unsigned)v) & 0xFFFFFF;
        bits += 6;
        if (bits < 8)
            continue;
        bits -= 8;
        uint8_t c = (uint8_t)(acc >> bits);
        if (m++ == 0 && c != '{')
            return 0;
        memmove(last, last + 1, 4);
        last[4] = c;
        if (m >= 5 && (memcmp(last, alg, 5) == 0 || memcmp(last, typ, 5) == 0))
            return 1;
    }
    return 0;
}

int pii_val_basic_auth(const uint8_t *p, size_t n)
{
    uint8_t out[800];
    long m = b64_decode(p, n, out, sizeof out);
    if (m < 3)
        return 0;
    for (long i = 0; i < m; i++)
        if (out[i] == ':')
            return i > 0;
    return 0;
}

/* ---- logins ------------------------------------------------------------- */

/* System, service and placeholder accounts: no person. */
static const char *const not_persons[] = {
    "root",      "admin",    "administrator", "user",    "users",     "guest",    "anonymous",
    "nobody",    "system",   "service",       "daemon",  "postgres",  "mysql",    "redis",
    "www-data",  "nginx",    "apache",        "ubuntu",  "debian",    "ec2-user", "centos",
    "azureuser", "pi",       "git",           "jenkins", "runner",    "vagrant",  "docker",
    "app",       "deploy",   "build",         "ci",      "test",      "demo",     "default",
    "null",      "none",     "true",          "false",   "unknown",   "shared",   "public",
    "me",        "self",     "bot",           "api",     "svc",       "backup",   "operator",
    "ftp",       "mail",     "sshd",          "node",    "builder",   "worker",   "dev",
    "staging",   "prod",     "production",    "local",   "localhost", "example",  "username",
    "john.doe",  "jane.doe", "foo",           "bar",     "changeme",  "admin1",   "tester",
    NULL};

int pii_val_login(const uint8_t *p, size_t n)
{
    if (n < 2)
        return 0;
    for (int k = 0; not_persons[k]; k++)
        if (pii_val_eq_ci(p, n, not_persons[k]))
            return 0;
    /* svc-*, bot-*, *-bot, *-svc, *_service: service accounts */
    if ((n > 4 && (pii_val_eq_ci(p, 4, "svc-") || pii_val_eq_ci(p, 4, "svc_") ||
                   pii_val_eq_ci(p, 4, "bot-"))) ||
        (n > 4 && (pii_val_eq_ci(p + n - 4, 4, "-bot") || pii_val_eq_ci(p + n - 4, 4, "-svc"))) ||
        (n > 8 && pii_val_eq_ci(p + n - 8, 8, "_service")))
        return 0;
    return 1;
}

/* handle_context: "@name" names a person — not a code or metadata word
 * (CSS at-rules, annotations and decorators, JSDoc tags, "@timestamp" and
 * other log fields), not a group mention, at least one letter, and not a
 * system or service account (pii_val_login). */
int pii_val_handle(const uint8_t *p, size_t n)
{
    static const char *const not_handles[] = {
        "media",      "import",   "charset", "font-face",    "keyframes",
        "supports",   "page",     "layer",   "apply",        "tailwind",
        "override",   "param",    "return",  "returns",      "throws",
        "see",        "since",    "author",  "type",         "typedef",
        "property",   "example",  "todo",    "deprecated",   "version",
        "timestamp",  "context",  "id",      "value",        "graph",
        "vocab",      "language", "list",    "set",          "index",
        "echo",       "include",  "extends", "section",      "yield",
        "if",         "else",     "foreach", "endif",        "component",
        "injectable", "input",    "output",  "test",         "here",
        "channel",    "everyone", "all",     "team",         "devops",
        "ops",        "oncall",   "admins",  "staticmethod", "classmethod",
        "dataclass",  "pytest",   "click",   "property",     "abstractmethod",
        "app",        "router",   "mock",    "patch",        NULL};
    if (n < 3 || p[0] != '@')
        return 0;
    p++;
    n--;
    int letter = 0;
    for (size_t i = 0; i < n; i++)
        letter |= is_upper(p[i]) || is_lower(p[i]);
    if (!letter)
        return 0;
    for (int k = 0; not_handles[k]; k++)
        if (pii_val_eq_ci(p, n, not_handles[k]))
            return 0;
    return pii_val_login(p, n);
}
