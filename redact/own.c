/* own.c — the tool's own output, found again (contract in own.h). */
#include <stdlib.h>
#include <string.h>

#include "ops_internal.h"
#include "own.h"

const char pii_own_label[] = "(own output)";

#define OWN_MAX_LIT 64
#define OWN_MAX_MASK 8

struct pii_own {
    pii_buf lit[OWN_MAX_LIT]; /* rendered placeholder templates */
    size_t nlit;
    uint8_t mask[OWN_MAX_MASK][4]; /* mask characters in UTF-8 */
    size_t masklen[OWN_MAX_MASK], masktail[OWN_MAX_MASK];
    size_t nmask;
    uint64_t hexlens; /* bit k - 1: hashes of k hex digits */
};

static const char *const std_labels[] = {"private_person", "private_address", "private_date",
                                         "private_email",  "private_phone",   "private_url",
                                         "account_number", "secret"};

static size_t put_utf8(uint32_t cp, uint8_t out[4])
{
    if (cp < 0x80) {
        out[0] = (uint8_t)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (uint8_t)(0xC0 | (cp >> 6));
        out[1] = (uint8_t)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (uint8_t)(0xE0 | (cp >> 12));
        out[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (uint8_t)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (uint8_t)(0xF0 | (cp >> 18));
    out[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (uint8_t)(0x80 | (cp & 0x3F));
    return 4;
}

static pii_err add_lit(pii_own *o, const char *tmpl, const char *label)
{
    if (o->nlit == OWN_MAX_LIT)
        return PII_OK; /* the generic <NAME> shape still applies */
    pii_buf *b = &o->lit[o->nlit];
    b->n = 0;
    pii_err e = pii_ops__render(tmpl, label, b);
    if (e)
        return e;
    if (b->n < 3 || b->n > PII_OWN_MAX)
        return PII_OK; /* too short to tell from text, or too long to hold */
    for (size_t k = 0; k < o->nlit; k++)
        if (o->lit[k].n == b->n && memcmp(o->lit[k].p, b->p, b->n) == 0)
            return PII_OK;
    o->nlit++;
    return PII_OK;
}

static pii_err add_op(pii_own *o, const pii_ops *ops, const pii_op *op, const char *label)
{
    switch (op->kind) {
    case PII_OP_PLACEHOLDER:
        if (!op->tmpl)
            return PII_OK; /* "<{LABEL}>": the generic shape */
        if (label)
            return add_lit(o, op->tmpl, label);
        for (size_t k = 0; k < sizeof std_labels / sizeof std_labels[0]; k++) {
            pii_err e = add_lit(o, op->tmpl, std_labels[k]);
            if (e)
                return e;
        }
        for (size_t i = 1; ops && i < pii_ops__count(ops); i++) {
            const char *l;
            pii_ops__at(ops, i, &l);
            pii_err e = add_lit(o, op->tmpl, l);
            if (e)
                return e;
        }
        return PII_OK;
    case PII_OP_MASK:
        if (o->nmask < OWN_MAX_MASK) {
            o->masklen[o->nmask] = put_utf8(op->mask_char, o->mask[o->nmask]);
            o->masktail[o->nmask] = op->keep_last;
            o->nmask++;
        }
        return PII_OK;
    case PII_OP_HASH:
        if (op->hash_hex >= 8 && op->hash_hex <= 64)
            o->hexlens |= 1ull << (op->hash_hex - 1);
        return PII_OK;
    default:
        return PII_OK;
    }
}

pii_own *pii_own_create(const pii_ops *ops, pii_err *err)
{
    pii_own *o = calloc(1, sizeof *o);
    pii_err e = o ? PII_OK : PII_ENOMEM;
    for (size_t i = 0; !e && ops && i < pii_ops__count(ops); i++) {
        const char *label;
        const pii_op *op = pii_ops__at(ops, i, &label);
        e = add_op(o, ops, op, label);
    }
    if (e) {
        pii_own_free(o);
        o = NULL;
    }
    if (err)
        *err = e;
    return o;
}

void pii_own_free(pii_own *o)
{
    if (!o)
        return;
    for (size_t k = 0; k < OWN_MAX_LIT; k++)
        free(o->lit[k].p);
    free(o);
}

/* ---- the detector ------------------------------------------------------------ */

typedef struct own_state {
    const pii_own *o;
    uint64_t pos, keep;
} own_state;

static void *own_open(const void *shared, pii_err *err)
{
    own_state *st = calloc(1, sizeof *st);
    *err = st ? PII_OK : PII_ENOMEM;
    if (st)
        st->o = shared;
    return st;
}

static void own_reset(void *p)
{
    own_state *st = p;
    st->pos = st->keep = 0;
}

static int is_upper(uint8_t c)
{
    return c >= 'A' && c <= 'Z';
}

static int is_alnum(uint8_t c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || is_upper(c);
}

/* The outcome of a shape at b[i]: the end of the token (> i), 0 for none,
 * or SIZE_MAX when the bytes end before it is decided. */
#define UNDECIDED ((size_t)-1)

static size_t at_placeholder(const uint8_t *b, size_t i, size_t n, int eod)
{
    size_t j = i + 1;
    if (j >= n)
        return eod ? 0 : UNDECIDED;
    if (!is_upper(b[j]))
        return 0;
    while (j < n && j - i < 64 && (is_upper(b[j]) || (b[j] >= '0' && b[j] <= '9') || b[j] == '_'))
        j++;
    if (j >= n)
        return eod ? 0 : UNDECIDED;
    return b[j] == '>' ? j + 1 : 0;
}

static size_t at_mask(const pii_own *o, const uint8_t *b, size_t i, size_t n, int eod)
{
    for (size_t k = 0; k < o->nmask; k++) {
        size_t m = o->masklen[k], j = i, runs = 0;
        while (j + m <= n && memcmp(b + j, o->mask[k], m) == 0) {
            j += m;
            runs++;
        }
        if (j + m > n && !eod && (j == n || memcmp(b + j, o->mask[k], n - j) == 0))
            return runs >= 2 && j - i >= PII_OWN_MAX ? j : UNDECIDED; /* a long run: in parts */
        if (runs < 2)
            continue;
        /* the visible tail of keep_last characters (ASCII letters, digits) */
        size_t t = 0;
        while (t < o->masktail[k] && j < n && is_alnum(b[j]))
            j++, t++;
        if (j >= n && !eod && t < o->masktail[k])
            return UNDECIDED;
        return j;
    }
    return 0;
}

static size_t at_hex(const pii_own *o, const uint8_t *b, size_t i, size_t n, int eod,
                     int before_alnum)
{
    if (before_alnum || !is_alnum(b[i]))
        return 0;
    size_t j = i;
    int hex = 1, letter = 0;
    while (j < n && is_alnum(b[j]) && j - i <= 64) {
        if (!((b[j] >= '0' && b[j] <= '9') || (b[j] >= 'a' && b[j] <= 'f')))
            hex = 0;
        letter |= b[j] >= 'a';
        j++;
    }
    if (j >= n && !eod)
        return UNDECIDED;
    size_t len = j - i;
    if (!hex || !letter || len == 0 || len > 64 || !(o->hexlens >> (len - 1) & 1))
        return 0;
    return j;
}

static size_t at_lit(const pii_own *o, const uint8_t *b, size_t i, size_t n, int eod)
{
    for (size_t k = 0; k < o->nlit; k++) {
        const pii_buf *l = &o->lit[k];
        if ((uint8_t)l->p[0] != b[i])
            continue;
        size_t m = n - i < l->n ? n - i : l->n;
        if (memcmp(b + i, l->p, m) != 0)
            continue;
        if (m == l->n)
            return i + m;
        if (!eod)
            return UNDECIDED;
    }
    return 0;
}

static pii_err own_scan(void *p, const uint8_t *buf, size_t len, uint64_t base, int eod,
                        pii_spanvec *out, uint64_t *done, uint64_t *keep)
{
    own_state *st = p;
    const pii_own *o = st->o;
    if (base > st->keep || (len && !buf))
        return PII_EINVAL;
    size_t i = st->pos > base ? (size_t)(st->pos - base) : 0;
    int only_lt = !o->nmask && !o->hexlens && !o->nlit; /* the default operator */
    while (i < len) {
        if (only_lt) {
            const uint8_t *q = memchr(buf + i, '<', len - i);
            if (!q) {
                i = len;
                break;
            }
            i = (size_t)(q - buf);
        }
        uint8_t c = buf[i];
        int before = i > 0 ? is_alnum(buf[i - 1]) : 0;
        size_t e = 0;
        if (c == '<')
            e = at_placeholder(buf, i, len, eod);
        if (!e && o->nmask)
            e = at_mask(o, buf, i, len, eod);
        if (!e && o->hexlens)
            e = at_hex(o, buf, i, len, eod, before);
        if (!e && o->nlit)
            e = at_lit(o, buf, i, len, eod);
        if (e == UNDECIDED)
            break;
        if (e) {
            pii_span sp = {base + i, base + e, pii_own_label, NULL, 1.0f, PII_SRC_RULE};
            pii_err err = pii_spanvec_push(out, &sp);
            if (err)
                return err;
            i = e;
        } else if (o->hexlens && is_alnum(c)) {
            /* inside a word no hash starts; at_hex has decided this word
             * (a run that reached the buffer end short of 65 bytes was
             * left undecided), so the walk may stop anywhere in it */
            while (i < len && is_alnum(buf[i]))
                i++;
        } else {
            i++;
        }
    }
    st->pos = base + i;
    uint64_t k = st->pos > base ? st->pos - 1 : base; /* one byte of left context */
    if (k < st->keep)
        k = st->keep;
    if (eod)
        k = st->pos = base + len;
    st->keep = k;
    *done = st->pos;
    *keep = k;
    return PII_OK;
}

static const pii_detector_class own_cls = {"own", own_open, own_scan, own_reset, free, NULL};

pii_detector pii_own_detector(const pii_own *o)
{
    pii_detector d = {&own_cls, o};
    return d;
}
