/* records_select.c — the selectors of a record stream: pii_rec_spec
 * (pii_records.h) and key-path matching (records_select.h). */
#include <stdlib.h>
#include <string.h>

#include "records_select.h"

pii_rec_spec *pii_rec_spec_create(pii_rec_format fmt, pii_err *err)
{
    pii_rec_spec *s = NULL;
    pii_err e = PII_OK;
    if (fmt != PII_REC_JSONL && fmt != PII_REC_JSON && fmt != PII_REC_CSV)
        e = PII_EINVAL;
    else if (!(s = calloc(1, sizeof *s)))
        e = PII_ENOMEM;
    else
        s->fmt = fmt, s->delim = ',';
    if (err)
        *err = e;
    return s;
}

void pii_rec_spec_free(pii_rec_spec *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->npaths; i++) {
        for (size_t k = 0; k < s->paths[i].nseg; k++)
            free(s->paths[i].seg[k].s);
        free(s->paths[i].seg);
        free(s->paths[i].text);
    }
    free(s->paths);
    free(s->idx);
    for (size_t i = 0; i < s->nnames; i++)
        free(s->names[i]);
    free(s->names);
    free(s);
}

pii_rec_format pii_rec_spec_format(const pii_rec_spec *s)
{
    return s->fmt;
}

pii_err pii_rec_spec_set_scan(pii_rec_spec *s, unsigned what)
{
    if (!s || !IS_JSON(s->fmt) || (what & ~(PII_REC_SCAN_NUMBERS | PII_REC_SCAN_KEYS)))
        return PII_EINVAL;
    s->scan = what;
    return PII_OK;
}

pii_err pii_rec_spec_set_bad(pii_rec_spec *s, pii_rec_bad how)
{
    if (!s || !IS_JSON(s->fmt) || (how != PII_REC_BAD_FAIL && how != PII_REC_BAD_TEXT))
        return PII_EINVAL;
    s->bad = how;
    return PII_OK;
}

int pii_rec_delim_ok(int c)
{
    return c == ',' || c == ';' || c == '\t' || c == '|';
}

pii_err pii_rec_spec_set_delimiter(pii_rec_spec *s, int c)
{
    if (!s || s->fmt != PII_REC_CSV || !pii_rec_delim_ok(c))
        return PII_EINVAL;
    s->delim = (char)c;
    s->delim_given = 1;
    return PII_OK;
}

/* Splits "a.b\.c.*" into segments. */
static pii_err parse_path(const char *sel, jpath *out)
{
    size_t len = strlen(sel);
    jpath p = {NULL, 0, NULL};
    pii_err e = PII_OK;
    size_t i = 0;
    for (;;) {
        char *buf = malloc(len + 1);
        seg *v = realloc(p.seg, (p.nseg + 1) * sizeof *v);
        if (!buf || !v) {
            free(buf);
            if (v)
                p.seg = v;
            e = PII_ENOMEM;
            break;
        }
        p.seg = v;
        size_t n = 0;
        int escaped = 0;
        while (i < len && sel[i] != '.') {
            if (sel[i] == '\\') {
                if (i + 1 == len) {
                    e = PII_EINVAL;
                    break;
                }
                i++;
                escaped = 1;
            }
            buf[n++] = sel[i++];
        }
        p.seg[p.nseg++] = (seg){buf, n, !escaped && n == 1 && buf[0] == '*'};
        if (e)
            break;
        if (n == 0) {
            e = PII_EINVAL;
            break;
        }
        if (i == len)
            break;
        i++; /* the dot */
        if (i == len) {
            e = PII_EINVAL; /* trailing dot: empty last key */
            break;
        }
    }
    if (e) {
        for (size_t k = 0; k < p.nseg; k++)
            free(p.seg[k].s);
        free(p.seg);
        return e;
    }
    *out = p;
    return PII_OK;
}

pii_err pii_rec_spec_add(pii_rec_spec *s, const char *sel)
{
    if (!s || !sel || !*sel)
        return PII_EINVAL;
    if (IS_JSON(s->fmt)) {
        jpath p;
        pii_err e = parse_path(sel, &p);
        if (e)
            return e;
        jpath *v = realloc(s->paths, (s->npaths + 1) * sizeof *v);
        if (!v || !(p.text = strdup(sel))) {
            if (v)
                s->paths = v;
            for (size_t k = 0; k < p.nseg; k++)
                free(p.seg[k].s);
            free(p.seg);
            return PII_ENOMEM;
        }
        s->paths = v;
        s->paths[s->npaths++] = p;
        return PII_OK;
    }
    if (strcmp(sel, "*") == 0) {
        s->all = 1;
        return PII_OK;
    }
    size_t n = strlen(sel), k = 0;
    while (k < n && sel[k] >= '0' && sel[k] <= '9')
        k++;
    if (k == n) {
        size_t val = 0;
        for (k = 0; k < n; k++) {
            if (val > (SIZE_MAX - 9) / 10 || val > 100000000)
                return PII_ERANGE;
            val = val * 10 + (size_t)(sel[k] - '0');
        }
        if (val == 0)
            return PII_EINVAL; /* indexes are 1-based */
        size_t *v = realloc(s->idx, (s->nidx + 1) * sizeof *v);
        if (!v)
            return PII_ENOMEM;
        s->idx = v;
        s->idx[s->nidx++] = val - 1;
        return PII_OK;
    }
    char *copy = strdup(sel);
    char **v = copy ? realloc(s->names, (s->nnames + 1) * sizeof *v) : NULL;
    if (!v) {
        free(copy);
        return PII_ENOMEM;
    }
    s->names = v;
    s->names[s->nnames++] = copy;
    return PII_OK;
}

static int seg_eq(const seg *s, const uint8_t *k, size_t n)
{
    return s->star || (s->n == n && memcmp(s->s, k, n) == 0);
}

/* (issue 42 M3: "user" on {"user":{"email":...}} scanned nothing) */
int pii_rec_path_hit(const jpath *jpth, const uint8_t *keys, const size_t *koff, size_t nk)
{
    size_t s = 0, k = 0;
    for (; s < jpth->nseg; s++, k++) {
        const seg *g = &jpth->seg[s];
        if (g->star && s + 1 == jpth->nseg)
            return 1; /* final "*": this key and anything below */
        if (k == nk)
            break;
        /* keys is still NULL when every key so far was empty */
        const uint8_t *key = keys ? keys + koff[k] : (const uint8_t *)"";
        if (!seg_eq(g, key, koff[k + 1] - koff[k]))
            break;
    }
    return s == jpth->nseg && k <= nk;
}
