/* pseudo.c — reversible pseudonyms: the placeholder map, restore and its
 * JSON form (pii_pseudo.h has the contract). */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pii_pseudo.h"

#define NAME_MAX_LEN 120 /* a placeholder's NAME between '<' and '>', at most */

typedef struct entry {
    char *label, *placeholder, *norm; /* norm: the placeholder as restore compares it */
    uint8_t *value;
    size_t len;
} entry;

struct pii_pseudo {
    entry *e;
    size_t n, cap;
    struct {
        char *label;
        unsigned long next;
    } * cnt; /* the last number of each label */
    size_t ncnt, capcnt;
};

pii_pseudo *pii_pseudo_create(pii_err *err)
{
    pii_pseudo *m = calloc(1, sizeof *m);
    if (err)
        *err = m ? PII_OK : PII_ENOMEM;
    return m;
}

static void entry_free(entry *e)
{
    if (e->value)
        memset(e->value, 0, e->len);
    free(e->value);
    free(e->label);
    free(e->placeholder);
    free(e->norm);
}

void pii_pseudo_free(pii_pseudo *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->n; i++)
        entry_free(&m->e[i]);
    for (size_t i = 0; i < m->ncnt; i++)
        free(m->cnt[i].label);
    free(m->e);
    free(m->cnt);
    free(m);
}

size_t pii_pseudo_count(const pii_pseudo *m)
{
    return m ? m->n : 0;
}

pii_err pii_pseudo_entry(const pii_pseudo *m, size_t i, const char **placeholder,
                         const char **label, const uint8_t **value, size_t *len)
{
    if (!m || i >= m->n)
        return PII_ERANGE;
    if (placeholder)
        *placeholder = m->e[i].placeholder;
    if (label)
        *label = m->e[i].label;
    if (value)
        *value = m->e[i].value;
    if (len)
        *len = m->e[i].len;
    return PII_OK;
}

static int is_sep(uint8_t c)
{
    return c == ' ' || c == '\t' || c == '_' || c == '-' || c == '\n' || c == '\r';
}

/* The compared form of NAME p[0..n) (without '<' '>'): upper case, runs of
 * blanks, '_' and '-' as one '_', none at either end.  Writes at most
 * cap-1 bytes and a NUL; returns 0 when a byte is not [A-Za-z0-9] or a
 * separator, or the result does not fit. */
static int normalize(const uint8_t *p, size_t n, char *buf, size_t cap)
{
    size_t o = 0;
    int sep = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = p[i];
        if (is_sep(c)) {
            sep = o > 0;
            continue;
        }
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
            return 0;
        if (o + 2 + sep >= cap)
            return 0;
        if (sep)
            buf[o++] = '_';
        sep = 0;
        buf[o++] = (char)(c >= 'a' && c <= 'z' ? c - 32 : c);
    }
    buf[o] = '\0';
    return o > 0;
}

static entry *find(const pii_pseudo *m, const char *label, const uint8_t *v, size_t len)
{
    for (size_t i = 0; i < m->n; i++)
        if (m->e[i].len == len && memcmp(m->e[i].value, v, len) == 0 &&
            strcmp(m->e[i].label, label) == 0)
            return &m->e[i];
    return NULL;
}

static int blank(uint8_t c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* For private_person: an earlier name of two or more words whose last word
 * is v[0..len), itself one word. */
static entry *surname_of(const pii_pseudo *m, const char *label, const uint8_t *v, size_t len)
{
    if (strcmp(label, "private_person") != 0 || len == 0)
        return NULL;
    for (size_t i = 0; i < len; i++)
        if (blank(v[i]))
            return NULL;
    for (size_t i = 0; i < m->n; i++) {
        const entry *e = &m->e[i];
        if (strcmp(e->label, label) != 0 || e->len <= len + 1)
            continue;
        size_t end = e->len;
        while (end && blank(e->value[end - 1]))
            end--;
        if (end <= len || !blank(e->value[end - len - 1]) ||
            memcmp(e->value + end - len, v, len) != 0)
            continue;
        return &m->e[i];
    }
    return NULL;
}

/* Adds an entry; placeholder NULL: the label's next number. */
static pii_err add(pii_pseudo *m, const char *label, const char *placeholder, const uint8_t *v,
                   size_t len, entry **out)
{
    char ph[NAME_MAX_LEN + 40], norm[NAME_MAX_LEN + 8];
    if (m->n >= PII_PSEUDO_MAX)
        return PII_ETOOBIG;
    if (!placeholder) {
        size_t k = 0;
        while (k < m->ncnt && strcmp(m->cnt[k].label, label) != 0)
            k++;
        if (k == m->ncnt) {
            if (PII_VEC_RESERVE(m->cnt, m->capcnt, m->ncnt + 1))
                return PII_ENOMEM;
            if (!(m->cnt[k].label = strdup(label)))
                return PII_ENOMEM;
            m->cnt[k].next = 0;
            m->ncnt++;
        }
        char up[NAME_MAX_LEN];
        pii_label_upper(label, up, sizeof up);
        snprintf(ph, sizeof ph, "<%s_%lu>", up, ++m->cnt[k].next);
        placeholder = ph;
    }
    size_t pl = strlen(placeholder);
    if (pl < 3 || placeholder[0] != '<' || placeholder[pl - 1] != '>' ||
        !normalize((const uint8_t *)placeholder + 1, pl - 2, norm, sizeof norm))
        return PII_EFORMAT;
    if (PII_VEC_RESERVE(m->e, m->cap, m->n + 1))
        return PII_ENOMEM;
    entry e = {strdup(label), strdup(placeholder), strdup(norm), malloc(len ? len : 1), len};
    if (!e.label || !e.placeholder || !e.norm || !e.value) {
        entry_free(&e);
        return PII_ENOMEM;
    }
    memcpy(e.value, v, len);
    m->e[m->n] = e;
    *out = &m->e[m->n++];
    return PII_OK;
}

pii_err pii_pseudo_name(pii_pseudo *m, const char *label, const uint8_t *v, size_t len,
                        pii_buf *out)
{
    if (!m || !label || !out || (len && !v))
        return PII_EINVAL;
    entry *e = find(m, label, v, len);
    if (!e)
        e = surname_of(m, label, v, len);
    pii_err err;
    if (!e && (err = add(m, label, NULL, v, len, &e)))
        return err;
    return pii_buf_append(out, e->placeholder, strlen(e->placeholder));
}

/* The entry whose placeholder normalizes as norm, or NULL. */
static const entry *by_norm(const pii_pseudo *m, const char *norm)
{
    for (size_t i = 0; i < m->n; i++)
        if (strcmp(m->e[i].norm, norm) == 0)
            return &m->e[i];
    return NULL;
}

pii_err pii_pseudo_restore(const pii_pseudo *m, const uint8_t *text, size_t len, pii_buf *out,
                           size_t *n, pii_pseudo_hit_fn cb, void *ud)
{
    if (!m || !out || (len && !text))
        return PII_EINVAL;
    size_t done = 0, count = 0, i = 0, base = out->n;
    pii_err e = PII_OK;
    while (e == PII_OK && i < len) {
        const uint8_t *lt = memchr(text + i, '<', len - i);
        if (!lt)
            break;
        size_t a = (size_t)(lt - text), b = a + 1;
        while (b < len && b - a <= NAME_MAX_LEN && text[b] != '>' && text[b] != '<')
            b++;
        char norm[NAME_MAX_LEN + 8];
        const entry *hit = NULL;
        if (b < len && text[b] == '>' && normalize(text + a + 1, b - a - 1, norm, sizeof norm))
            hit = by_norm(m, norm);
        if (!hit) {
            i = a + 1;
            continue;
        }
        e = pii_buf_append(out, text + done, a - done);
        size_t at = out->n - base;
        if (e == PII_OK)
            e = pii_buf_append(out, hit->value, hit->len);
        if (e == PII_OK && cb)
            e = cb(ud, hit->label, at, at + hit->len);
        done = i = b + 1;
        count++;
    }
    if (e == PII_OK)
        e = pii_buf_append(out, text + done, len - done);
    if (n)
        *n = count;
    return e;
}

pii_err pii_pseudo_to_json(const pii_pseudo *m, pii_buf *out)
{
    if (!m || !out)
        return PII_EINVAL;
    json_object *root = json_object_new_object(), *arr = json_object_new_array();
    pii_err e = root && arr ? PII_OK : PII_ENOMEM;
    if (e == PII_OK) {
        json_object_object_add(root, "version", json_object_new_int(1));
        json_object_object_add(root, "entries", arr);
        arr = NULL;
    }
    json_object *entries = root ? json_object_object_get(root, "entries") : NULL;
    for (size_t i = 0; e == PII_OK && i < m->n; i++) {
        json_object *o = json_object_new_object();
        if (!o || json_object_array_add(entries, o)) {
            json_object_put(o);
            e = PII_ENOMEM;
            break;
        }
        json_object_object_add(o, "placeholder", json_object_new_string(m->e[i].placeholder));
        json_object_object_add(o, "label", json_object_new_string(m->e[i].label));
        json_object_object_add(
            o, "value", json_object_new_string_len((const char *)m->e[i].value, (int)m->e[i].len));
    }
    if (e == PII_OK) {
        size_t n = 0;
        const char *s = json_object_to_json_string_length(
            root, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &n);
        e = s ? pii_buf_append(out, s, n) : PII_ENOMEM;
    }
    json_object_put(arr);
    json_object_put(root);
    return e;
}

pii_err pii_pseudo_load_json(pii_pseudo *m, const uint8_t *p, size_t n)
{
    if (!m || (n && !p) || n > (size_t)INT32_MAX)
        return PII_EINVAL;
    json_tokener *tok = json_tokener_new();
    if (!tok)
        return PII_ENOMEM;
    json_object *root = json_tokener_parse_ex(tok, (const char *)p, (int)n);
    int ok =
        root && json_tokener_get_error(tok) == json_tokener_success && tok->char_offset == (int)n;
    json_tokener_free(tok);
    if (!ok) {
        json_object_put(root);
        return PII_EJSON;
    }
    json_object *ver, *arr;
    pii_err e = PII_OK;
    size_t n0 = m->n;
    if (!json_object_object_get_ex(root, "version", &ver) || json_object_get_int(ver) != 1 ||
        !json_object_object_get_ex(root, "entries", &arr) ||
        !json_object_is_type(arr, json_type_array))
        e = PII_EFORMAT;
    for (size_t i = 0; e == PII_OK && i < json_object_array_length(arr); i++) {
        json_object *o = json_object_array_get_idx(arr, i), *ph, *lb, *v;
        if (!json_object_object_get_ex(o, "placeholder", &ph) ||
            !json_object_object_get_ex(o, "label", &lb) ||
            !json_object_object_get_ex(o, "value", &v) ||
            !json_object_is_type(ph, json_type_string) ||
            !json_object_is_type(lb, json_type_string) ||
            !json_object_is_type(v, json_type_string)) {
            e = PII_EFORMAT;
            break;
        }
        entry *x;
        e = add(m, json_object_get_string(lb), json_object_get_string(ph),
                (const uint8_t *)json_object_get_string(v), (size_t)json_object_get_string_len(v),
                &x);
    }
    if (e != PII_OK) {
        while (m->n > n0)
            entry_free(&m->e[--m->n]);
    }
    /* numbering continues after the loaded placeholders "<NAME_N>" */
    for (size_t i = n0; e == PII_OK && i < m->n; i++) {
        const char *ph = m->e[i].placeholder, *us = strrchr(ph, '_');
        unsigned long num = us ? strtoul(us + 1, NULL, 10) : 0;
        size_t k = 0;
        while (k < m->ncnt && strcmp(m->cnt[k].label, m->e[i].label) != 0)
            k++;
        if (k == m->ncnt) {
            if (PII_VEC_RESERVE(m->cnt, m->capcnt, m->ncnt + 1) ||
                !(m->cnt[k].label = strdup(m->e[i].label))) {
                e = PII_ENOMEM;
                break;
            }
            m->cnt[k].next = 0;
            m->ncnt++;
        }
        if (num > m->cnt[k].next)
            m->cnt[k].next = num;
    }
    json_object_put(root);
    return e;
}
