/* ops.c — the redaction operators and pii_buf.
 *
 * Operators (one per label, with a default):
 *   placeholder  the template with "{LABEL}" replaced by the placeholder
 *                name (pii_label_upper) and "{label}" by the label itself;
 *                default template "<{LABEL}>".
 *   mask         one mask character (any code point, written in UTF-8) per
 *                code point of the value; the last keep_last code points
 *                stay visible, but never more than half of them (rounded
 *                down), so a short value is never shown whole.  Code points
 *                are well-formed UTF-8 sequences; every byte of an invalid
 *                sequence counts as one.
 *   remove       nothing.
 *   hash         lower-case hex of HMAC-SHA256(key, value bytes), the first
 *                hash_hex digits (1..64, default 16).
 *   pseudonym    "<PRIVATE_PERSON_3>": per label, values are numbered from 1
 *                in order of first appearance; the same bytes get the same
 *                number for the lifetime of the pii_ops.  At most
 *                `pseudonym_limit` values are remembered per label (default
 *                65536); a new value beyond that gets "<PRIVATE_PERSON_OVERFLOW>"
 *                while known values keep their numbers.  Values are stored as
 *                16-byte SHA-256 prefixes (keyed by the hash key when one is
 *                set), never as text: about 40 bytes per value.  With a
 *                pii_pseudo map attached (pii_ops_set_pseudo_map), the map
 *                numbers them instead (pii_pseudo.h: reversible, a lone
 *                surname shares its full name's placeholder).
 * Threads: configure (set, set_key, set_pseudonym_limit) before use; after
 * pii_ops_check, pii_ops_apply may run from several threads at once (the
 * pseudonym tables are behind a mutex). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pii_pseudo.h"
#include "pii_redact.h"
#include "pii_sha256.h"
#include "ops_internal.h"

#define DEFAULT_TEMPLATE "<{LABEL}>"
#define DEFAULT_PSEUDONYM_LIMIT 65536
#define MAX_KEEP_LAST 1024

/* ---- pii_buf ----------------------------------------------------------- */

pii_err pii_buf_append(pii_buf *b, const void *data, size_t n)
{
    if (n == 0)
        return PII_OK;
    if (!b || !data)
        return PII_EINVAL;
    if (n > SIZE_MAX - b->n)
        return PII_ENOMEM;
    if (PII_VEC_RESERVE(b->p, b->cap, b->n + n))
        return PII_ENOMEM;
    memcpy(b->p + b->n, data, n);
    b->n += n;
    return PII_OK;
}

void pii_buf_free(pii_buf *b)
{
    if (!b)
        return;
    free(b->p);
    b->p = NULL;
    b->n = b->cap = 0;
}

/* ---- UTF-8 ------------------------------------------------------------- */

/* Length of the well-formed UTF-8 sequence at p[0..n), or 0. */
static size_t utf8_len(const uint8_t *p, size_t n)
{
    return pii_utf8_valid(p, p + n);
}

/* Writes code point cp as UTF-8; returns its length, 0 if not a scalar. */
static size_t utf8_put(uint32_t cp, uint8_t out[4])
{
    if (cp < 0x80) {
        out[0] = (uint8_t)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (uint8_t)(0xC0 | cp >> 6);
        out[1] = (uint8_t)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp >= 0xD800 && cp <= 0xDFFF)
        return 0;
    if (cp < 0x10000) {
        out[0] = (uint8_t)(0xE0 | cp >> 12);
        out[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
        out[2] = (uint8_t)(0x80 | (cp & 0x3F));
        return 3;
    }
    if (cp <= 0x10FFFF) {
        out[0] = (uint8_t)(0xF0 | cp >> 18);
        out[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3F));
        out[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
        out[3] = (uint8_t)(0x80 | (cp & 0x3F));
        return 4;
    }
    return 0;
}

/* Decodes one code point from s (NUL-terminated); returns its length or 0. */
static size_t utf8_get(const char *s, uint32_t *cp)
{
    size_t n = strlen(s);
    int k = n ? pii_utf8_decode((const uint8_t *)s, n, cp) : 0;
    return k > 0 ? (size_t)k : 0;
}

/* ---- parsing ------------------------------------------------------------ */

void pii_op_default(pii_op *op, pii_op_kind kind)
{
    memset(op, 0, sizeof *op);
    op->kind = kind;
    op->tmpl = NULL; /* DEFAULT_TEMPLATE */
    op->mask_char = '*';
    op->keep_last = 0;
    op->hash_hex = 16;
}

static int parse_uint(const char *s, unsigned lo, unsigned hi, unsigned *out)
{
    unsigned long v = 0;
    if (!*s)
        return 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return 0;
        v = v * 10 + (unsigned long)(*s - '0');
        if (v > hi)
            return 0;
    }
    if (v < lo)
        return 0;
    *out = (unsigned)v;
    return 1;
}

pii_err pii_op_parse(const char *spec, pii_op *op)
{
    if (!spec || !op)
        return PII_EINVAL;
    if (strcmp(spec, "placeholder") == 0) {
        pii_op_default(op, PII_OP_PLACEHOLDER);
    } else if (strncmp(spec, "placeholder:", 12) == 0) {
        pii_op_default(op, PII_OP_PLACEHOLDER);
        op->tmpl = spec + 12; /* borrowed from spec */
    } else if (strcmp(spec, "mask") == 0) {
        pii_op_default(op, PII_OP_MASK);
    } else if (strncmp(spec, "mask:", 5) == 0) {
        pii_op_default(op, PII_OP_MASK);
        uint32_t cp;
        size_t l = utf8_get(spec + 5, &cp);
        uint8_t tmp[4];
        if (l == 0 || cp == 0 || utf8_put(cp, tmp) == 0)
            return PII_EINVAL;
        op->mask_char = cp;
        const char *rest = spec + 5 + l;
        if (*rest) {
            if (*rest != ':' || !parse_uint(rest + 1, 0, MAX_KEEP_LAST, &op->keep_last))
                return PII_EINVAL;
        }
    } else if (strcmp(spec, "remove") == 0) {
        pii_op_default(op, PII_OP_REMOVE);
    } else if (strcmp(spec, "hash") == 0) {
        pii_op_default(op, PII_OP_HASH);
    } else if (strncmp(spec, "hash:", 5) == 0) {
        pii_op_default(op, PII_OP_HASH);
        if (!parse_uint(spec + 5, 1, 64, &op->hash_hex))
            return PII_EINVAL;
    } else if (strcmp(spec, "pseudonym") == 0) {
        pii_op_default(op, PII_OP_PSEUDONYM);
    } else {
        return PII_EINVAL;
    }
    return PII_OK;
}

/* ---- the operator set ----------------------------------------------------- */

typedef struct op_slot {
    char *label; /* NULL for the default                       */
    pii_op op;   /* op.tmpl points to tmpl (owned) or is NULL  */
    char *tmpl;
} op_slot;

/* Open addressing; an entry is a 16-byte digest prefix and a number (0:
 * empty slot). */
typedef struct pseudo_map {
    char *label;
    uint8_t (*key)[16];
    uint32_t *num;
    size_t cap, n;
} pseudo_map;

struct pii_ops {
    op_slot def;
    op_slot *over;
    size_t nover;
    uint8_t *key;
    size_t keylen;
    size_t pseudo_limit;
    pthread_mutex_t mu;
    pseudo_map *maps;
    size_t nmaps;
    pii_pseudo *map; /* borrowed: reversible pseudonyms (pii_pseudo.h) */
};

static pii_err slot_set(op_slot *s, const pii_op *op)
{
    char *t = NULL;
    if (op->tmpl && !(t = strdup(op->tmpl)))
        return PII_ENOMEM;
    free(s->tmpl);
    s->tmpl = t;
    s->op = *op;
    s->op.tmpl = t;
    return PII_OK;
}

pii_ops *pii_ops_create(const pii_op *def, pii_err *err)
{
    pii_ops *o = calloc(1, sizeof *o);
    pii_op d;
    pii_err e = PII_ENOMEM;
    if (def)
        d = *def;
    else
        pii_op_default(&d, PII_OP_PLACEHOLDER);
    if (!o)
        goto fail;
    if (pthread_mutex_init(&o->mu, NULL) != 0) {
        free(o);
        o = NULL;
        goto fail;
    }
    o->pseudo_limit = DEFAULT_PSEUDONYM_LIMIT;
    if ((e = slot_set(&o->def, &d)) != PII_OK) {
        pii_ops_free(o);
        o = NULL;
        goto fail;
    }
    if (err)
        *err = PII_OK;
    return o;
fail:
    if (err)
        *err = e;
    return NULL;
}

pii_err pii_ops_set(pii_ops *o, const char *label, const pii_op *op)
{
    if (!o || !label || !*label || !op)
        return PII_EINVAL;
    for (size_t i = 0; i < o->nover; i++)
        if (strcmp(o->over[i].label, label) == 0)
            return slot_set(&o->over[i], op);
    op_slot *v = realloc(o->over, (o->nover + 1) * sizeof *v);
    if (!v)
        return PII_ENOMEM;
    o->over = v;
    op_slot *s = &o->over[o->nover];
    memset(s, 0, sizeof *s);
    if (!(s->label = strdup(label)))
        return PII_ENOMEM;
    pii_err e = slot_set(s, op);
    if (e != PII_OK) {
        free(s->label);
        return e;
    }
    o->nover++;
    return PII_OK;
}

pii_err pii_ops_set_key(pii_ops *o, const uint8_t *key, size_t len)
{
    if (!o || (len && !key))
        return PII_EINVAL;
    uint8_t *k = NULL;
    if (len) {
        if (!(k = malloc(len)))
            return PII_ENOMEM;
        memcpy(k, key, len);
    }
    if (o->key) {
        memset(o->key, 0, o->keylen);
        free(o->key);
    }
    o->key = k;
    o->keylen = len;
    return PII_OK;
}

static pii_err op_check(const pii_ops *o, const pii_op *op)
{
    uint8_t tmp[4];
    switch (op->kind) {
    case PII_OP_PLACEHOLDER:
    case PII_OP_REMOVE:
    case PII_OP_PSEUDONYM:
        return PII_OK;
    case PII_OP_MASK:
        if (op->mask_char == 0 || utf8_put(op->mask_char, tmp) == 0 ||
            op->keep_last > MAX_KEEP_LAST)
            return PII_EINVAL;
        return PII_OK;
    case PII_OP_HASH:
        if (op->hash_hex < 1 || op->hash_hex > 64)
            return PII_EINVAL;
        return o->keylen ? PII_OK : PII_ENOKEY;
    }
    return PII_EINVAL;
}

pii_err pii_ops_check(const pii_ops *o)
{
    if (!o)
        return PII_EINVAL;
    pii_err e = op_check(o, &o->def.op);
    for (size_t i = 0; e == PII_OK && i < o->nover; i++)
        e = op_check(o, &o->over[i].op);
    return e;
}

void pii_ops_set_pseudonym_limit(pii_ops *o, size_t max_values)
{
    if (o)
        o->pseudo_limit = max_values;
}

void pii_ops_set_pseudo_map(pii_ops *o, pii_pseudo *m)
{
    if (o)
        o->map = m;
}

void pii_ops_free(pii_ops *o)
{
    if (!o)
        return;
    free(o->def.tmpl);
    for (size_t i = 0; i < o->nover; i++) {
        free(o->over[i].label);
        free(o->over[i].tmpl);
    }
    free(o->over);
    if (o->key) {
        memset(o->key, 0, o->keylen);
        free(o->key);
    }
    for (size_t i = 0; i < o->nmaps; i++) {
        free(o->maps[i].label);
        free(o->maps[i].key);
        free(o->maps[i].num);
    }
    free(o->maps);
    pthread_mutex_destroy(&o->mu);
    free(o);
}

/* ---- applying ------------------------------------------------------------- */

static const pii_op *op_for(const pii_ops *o, const char *label)
{
    if (label)
        for (size_t i = 0; i < o->nover; i++)
            if (strcmp(o->over[i].label, label) == 0)
                return &o->over[i].op;
    return &o->def.op;
}

/* The placeholder name of a label, as a malloc-free bounded string. */
static size_t upper_name(const char *label, char *buf, size_t cap)
{
    size_t n = pii_label_upper(label ? label : "", buf, cap);
    return n < cap ? n : cap - 1;
}

static pii_err apply_template(const char *tmpl, const char *label, pii_buf *out)
{
    char name[256];
    const char *t = tmpl ? tmpl : DEFAULT_TEMPLATE;
    pii_err e = PII_OK;
    while (*t && e == PII_OK) {
        if (strncmp(t, "{LABEL}", 7) == 0) {
            size_t n = upper_name(label, name, sizeof name);
            e = pii_buf_append(out, name, n);
            t += 7;
        } else if (strncmp(t, "{label}", 7) == 0) {
            e = pii_buf_append(out, label ? label : "", label ? strlen(label) : 0);
            t += 7;
        } else {
            const char *b = strchr(t + 1, '{');
            size_t n = b ? (size_t)(b - t) : strlen(t);
            e = pii_buf_append(out, t, n);
            t += n;
        }
    }
    return e;
}

static pii_err apply_mask(const pii_op *op, const uint8_t *v, size_t len, pii_buf *out)
{
    uint8_t mc[4];
    size_t ml = utf8_put(op->mask_char, mc);
    if (ml == 0)
        return PII_EINVAL;
    /* Count code points. */
    size_t cps = 0;
    for (size_t i = 0; i < len; cps++) {
        size_t l = utf8_len(v + i, len - i);
        i += l ? l : 1;
    }
    size_t keep = op->keep_last;
    if (keep > cps / 2)
        keep = cps / 2;
    size_t masked = cps - keep, i = 0;
    pii_err e = PII_OK;
    for (size_t k = 0; k < masked && e == PII_OK; k++) {
        size_t l = utf8_len(v + i, len - i);
        i += l ? l : 1;
        e = pii_buf_append(out, mc, ml);
    }
    if (e == PII_OK)
        e = pii_buf_append(out, v + i, len - i);
    return e;
}

static pii_err apply_hash(const pii_ops *o, const pii_op *op, const uint8_t *v, size_t len,
                          pii_buf *out)
{
    static const char hex[] = "0123456789abcdef";
    uint8_t mac[PII_SHA256_LEN];
    char txt[64];
    if (!o->keylen)
        return PII_ENOKEY;
    if (op->hash_hex < 1 || op->hash_hex > 64)
        return PII_EINVAL;
    pii_hmac_sha256(o->key, o->keylen, v, len, mac);
    for (int i = 0; i < PII_SHA256_LEN; i++) {
        txt[2 * i] = hex[mac[i] >> 4];
        txt[2 * i + 1] = hex[mac[i] & 15];
    }
    return pii_buf_append(out, txt, op->hash_hex);
}

static pseudo_map *map_for(pii_ops *o, const char *label)
{
    for (size_t i = 0; i < o->nmaps; i++)
        if (strcmp(o->maps[i].label, label) == 0)
            return &o->maps[i];
    pseudo_map *m = realloc(o->maps, (o->nmaps + 1) * sizeof *m);
    if (!m)
        return NULL;
    o->maps = m;
    m = &o->maps[o->nmaps];
    memset(m, 0, sizeof *m);
    if (!(m->label = strdup(label)))
        return NULL;
    o->nmaps++;
    return m;
}

static int map_grow(pseudo_map *m)
{
    size_t nc = m->cap ? m->cap * 2 : 64;
    uint8_t(*k)[16] = calloc(nc, sizeof *k);
    uint32_t *num = calloc(nc, sizeof *num);
    if (!k || !num) {
        free(k);
        free(num);
        return 0;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->num[i])
            continue;
        size_t h;
        memcpy(&h, m->key[i], sizeof h);
        for (h &= nc - 1; num[h]; h = (h + 1) & (nc - 1))
            ;
        memcpy(k[h], m->key[i], 16);
        num[h] = m->num[i];
    }
    free(m->key);
    free(m->num);
    m->key = k;
    m->num = num;
    m->cap = nc;
    return 1;
}

/* The number of value digest d in m, adding it if new and below the limit;
 * 0 on overflow, -1 when out of memory. */
static long map_number(pseudo_map *m, const uint8_t d[16], size_t limit)
{
    size_t h;
    if (m->cap) {
        memcpy(&h, d, sizeof h);
        for (h &= m->cap - 1; m->num[h]; h = (h + 1) & (m->cap - 1))
            if (memcmp(m->key[h], d, 16) == 0)
                return (long)m->num[h];
    }
    if (m->n >= limit || m->n >= UINT32_MAX - 1)
        return 0;
    if ((m->n + 1) * 2 > m->cap && !map_grow(m))
        return -1;
    memcpy(&h, d, sizeof h);
    for (h &= m->cap - 1; m->num[h]; h = (h + 1) & (m->cap - 1))
        ;
    memcpy(m->key[h], d, 16);
    m->num[h] = (uint32_t)++m->n;
    return (long)m->n;
}

static pii_err apply_pseudonym(pii_ops *o, const char *label, const uint8_t *v, size_t len,
                               pii_buf *out)
{
    uint8_t d[PII_SHA256_LEN];
    if (o->map) {
        pthread_mutex_lock(&o->mu);
        pii_err e = pii_pseudo_name(o->map, label ? label : "", v, len, out);
        pthread_mutex_unlock(&o->mu);
        return e;
    }
    if (o->keylen)
        pii_hmac_sha256(o->key, o->keylen, v, len, d);
    else
        pii_sha256(v, len, d);
    const char *l = label ? label : "";
    pthread_mutex_lock(&o->mu);
    pseudo_map *m = map_for(o, l);
    long num = m ? map_number(m, d, o->pseudo_limit) : -1;
    pthread_mutex_unlock(&o->mu);
    if (num < 0)
        return PII_ENOMEM;
    char name[256], tail[32];
    size_t n = upper_name(l, name, sizeof name);
    if (num == 0)
        snprintf(tail, sizeof tail, "_OVERFLOW>");
    else
        snprintf(tail, sizeof tail, "_%ld>", num);
    pii_err e = pii_buf_append(out, "<", 1);
    if (e == PII_OK)
        e = pii_buf_append(out, name, n);
    if (e == PII_OK)
        e = pii_buf_append(out, tail, strlen(tail));
    return e;
}

pii_err pii_ops_apply(pii_ops *o, const pii_span *s, const uint8_t *value, size_t len, pii_buf *out)
{
    if (!o || !s || !out || (len && !value))
        return PII_EINVAL;
    const pii_op *op = op_for(o, s->label);
    switch (op->kind) {
    case PII_OP_PLACEHOLDER:
        return apply_template(op->tmpl, s->label, out);
    case PII_OP_MASK:
        return apply_mask(op, value, len, out);
    case PII_OP_REMOVE:
        return PII_OK;
    case PII_OP_HASH:
        return apply_hash(o, op, value, len, out);
    case PII_OP_PSEUDONYM:
        return apply_pseudonym(o, s->label, value, len, out);
    }
    return PII_EINVAL;
}

/* ---- introspection (ops_internal.h) ----------------------------------------- */

size_t pii_ops__count(const pii_ops *o)
{
    return o ? 1 + o->nover : 0;
}

const pii_op *pii_ops__at(const pii_ops *o, size_t i, const char **label)
{
    if (i == 0) {
        *label = NULL;
        return &o->def.op;
    }
    *label = o->over[i - 1].label;
    return &o->over[i - 1].op;
}

pii_err pii_ops__output(pii_ops *o, const pii_span *s, const uint8_t *value, size_t len,
                        pii_buf *out)
{
    out->n = 0;
    if (o)
        return pii_ops_apply(o, s, value, len, out);
    char name[128];
    size_t n = pii_label_upper(s->label, name, sizeof name);
    if (n >= sizeof name)
        n = sizeof name - 1;
    pii_err e = pii_buf_append(out, "<", 1);
    if (!e)
        e = pii_buf_append(out, name, n);
    if (!e)
        e = pii_buf_append(out, ">", 1);
    return e;
}

pii_err pii_ops__render(const char *tmpl, const char *label, pii_buf *out)
{
    return apply_template(tmpl, label, out);
}
