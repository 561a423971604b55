/* records_json.c — JSON records (JSON Lines, one JSON document): a
 * recursive-descent parser over the record in place that validates it,
 * tracks the key path, marks the selectors it meets and redacts each
 * selected string (numbers and keys when asked) through pii_rec_redact_value;
 * the record's output is its raw bytes with the changed values replaced. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "records_int.h"

#define MAX_DEPTH 512

typedef struct jp {
    const uint8_t *p;
    size_t n, i;
    int depth;
    size_t copied;
} jp;

static void j_ws(jp *j)
{
    while (j->i < j->n &&
           (j->p[j->i] == ' ' || j->p[j->i] == '\t' || j->p[j->i] == '\r' || j->p[j->i] == '\n'))
        j->i++;
}

/* Validates the string starting at the quote p[i]; *end = its closing quote. */
static pii_err j_strend(pii_rec_stream *rs, jp *j, size_t *end)
{
    size_t k = j->i + 1;
    while (k < j->n) {
        uint8_t c = j->p[k];
        if (c == '"') {
            *end = k;
            return PII_OK;
        }
        if (c < 0x20)
            return pii_rec_fail(rs, PII_EJSON, "control character in a string at byte %zu", k);
        if (c != '\\') {
            k++;
            continue;
        }
        if (k + 1 >= j->n)
            break;
        c = j->p[k + 1];
        if (c == 'u') {
            if (k + 6 > j->n)
                break;
            for (size_t h = 2; h < 6; h++)
                if (pii_rec_hexval(j->p[k + h]) < 0)
                    return pii_rec_fail(rs, PII_EJSON, "bad \\u escape at byte %zu", k);
            k += 6;
        } else if (strchr("\"\\/bfnrt", c) && c) {
            k += 2;
        } else {
            return pii_rec_fail(rs, PII_EJSON, "bad escape at byte %zu", k);
        }
    }
    return pii_rec_fail(rs, PII_EJSON, "string not closed (it starts at byte %zu)", j->i);
}

/* Does the current key path match a selector? */
static int j_selected(const pii_rec_stream *rs)
{
    for (size_t p = 0; p < rs->spec->npaths; p++)
        if (pii_rec_path_hit(&rs->spec->paths[p], rs->keys.p, rs->koff, rs->nk))
            return 1;
    return 0;
}

/* Notes which selectors match the key just entered (any kind of value). */
static void j_mark(pii_rec_stream *rs)
{
    if (rs->gathering)
        return; /* the second pass marks */
    for (size_t p = 0; p < rs->spec->npaths; p++)
        if (!rs->pmatch[p] && pii_rec_path_hit(&rs->spec->paths[p], rs->keys.p, rs->koff, rs->nk))
            rs->pmatch[p] = 1;
}

static pii_err j_value(pii_rec_stream *rs, jp *j);

static pii_err j_string_value(pii_rec_stream *rs, jp *j)
{
    size_t end;
    pii_err e = j_strend(rs, j, &end);
    if (e)
        return e;
    size_t a = j->i + 1;
    if (end > a && j_selected(rs)) {
        int changed;
        size_t at;
        rs->keyctx = 1;
        e = pii_rec_redact_value(rs, 'j', j->p, &j->copied, a, end - a, &changed, &at);
        rs->keyctx = 0;
        if (e)
            return e;
    }
    j->i = end + 1;
    return PII_OK;
}

static pii_err push_key(pii_rec_stream *rs, const uint8_t *raw, size_t n)
{
    if (rs->nk + 2 > rs->capk) {
        size_t cap = rs->capk ? 2 * rs->capk : 16;
        size_t *v = realloc(rs->koff, cap * sizeof *v);
        if (!v)
            return PII_ENOMEM;
        rs->koff = v;
        if (!(v = realloc(rs->kso, cap * sizeof *v)))
            return PII_ENOMEM;
        rs->kso = v;
        rs->capk = cap;
    }
    size_t base = rs->keys.n, sbase = rs->kshow.n;
    uint8_t d[4];
    size_t dl;
    for (size_t k = 0; k < n;) {
        k += pii_rec_unit('j', raw, n, k, d, &dl);
        pii_err e = pii_buf_append(&rs->keys, d, dl);
        if (e)
            return e;
    }
    pii_err e = rs->keys.n > base ? pii_buf_append(&rs->kshow, rs->keys.p + base, rs->keys.n - base)
                                  : PII_OK; /* keys.p is NULL while every key was empty */
    if (e)
        return e;
    rs->koff[rs->nk] = base;
    rs->kso[rs->nk] = sbase;
    rs->nk++;
    rs->koff[rs->nk] = rs->keys.n;
    rs->kso[rs->nk] = rs->kshow.n;
    return PII_OK;
}

/* Sets how the innermost key is shown in field paths. */
static pii_err show_key(pii_rec_stream *rs, const uint8_t *p, size_t n)
{
    rs->kshow.n = rs->kso[rs->nk - 1];
    pii_err e = n ? pii_buf_append(&rs->kshow, p, n) : PII_OK;
    rs->kso[rs->nk] = rs->kshow.n;
    return e;
}

/* Takes the byte c at the parse position, if it is there. */
static int j_eat(jp *j, uint8_t c)
{
    if (j->i >= j->n || j->p[j->i] != c)
        return 0;
    j->i++;
    return 1;
}

/* A scanned key (PII_REC_SCAN_KEYS), the string j->p(j->i, end), at its own
 * path (selected as its value is).  The field of its spans is the object's
 * path and "*"; below a redacted key, the field shows the replacement,
 * never the key (selectors still see the key). */
static pii_err j_scan_key(pii_rec_stream *rs, jp *j, size_t end)
{
    int changed;
    size_t a = j->i + 1, at;
    pii_err e;
    if ((e = show_key(rs, (const uint8_t *)"*", 1)) ||
        (e = pii_rec_redact_value(rs, 'j', j->p, &j->copied, a, end - a, &changed, &at)))
        return e;
    if (changed && (e = pii_rec_decode('j', rs->out.p + at, rs->out.n - at, &rs->dec)))
        return e;
    size_t k0 = rs->koff[rs->nk - 1], kn = rs->koff[rs->nk] - k0;
    /* a scanned key is not empty, so keys.p is not NULL */
    return changed ? show_key(rs, rs->dec.p, rs->dec.n) : show_key(rs, rs->keys.p + k0, kn);
}

/* One member of an object, its key at j->i: the key (entered into the key
 * path), ':' and the value. */
static pii_err j_member(pii_rec_stream *rs, jp *j)
{
    pii_err e;
    size_t end;
    if (j->i >= j->n || j->p[j->i] != '"')
        return pii_rec_fail(rs, PII_EJSON, "expected a key at byte %zu", j->i);
    if ((e = j_strend(rs, j, &end)) || (e = push_key(rs, j->p + j->i + 1, end - j->i - 1)))
        return e;
    if ((rs->spec->scan & PII_REC_SCAN_KEYS) && end > j->i + 1 && j_selected(rs) &&
        (e = j_scan_key(rs, j, end)))
        return e;
    j->i = end + 1;
    j_ws(j);
    if (!j_eat(j, ':'))
        return pii_rec_fail(rs, PII_EJSON, "expected ':' at byte %zu", j->i);
    if ((e = j_value(rs, j)))
        return e;
    rs->keys.n = rs->koff[--rs->nk];
    rs->kshow.n = rs->kso[rs->nk];
    return PII_OK;
}

/* An object or an array at j->i ('{' or '['): its members or elements. */
static pii_err j_container(pii_rec_stream *rs, jp *j)
{
    int object = j->p[j->i] == '{';
    uint8_t close = object ? '}' : ']';
    pii_err e;
    j->i++;
    j_ws(j);
    if (j_eat(j, close))
        return PII_OK;
    for (;;) {
        if (object)
            j_ws(j);
        if ((e = object ? j_member(rs, j) : j_value(rs, j)))
            return e;
        j_ws(j);
        if (j_eat(j, ','))
            continue;
        if (j_eat(j, close))
            return PII_OK;
        return pii_rec_fail(
            rs, PII_EJSON,
            object ? "expected ',' or '}' at byte %zu" : "expected ',' or ']' at byte %zu", j->i);
    }
}

static int isdig(const jp *j)
{
    return j->i < j->n && j->p[j->i] >= '0' && j->p[j->i] <= '9';
}

static pii_err j_number(pii_rec_stream *rs, jp *j)
{
    size_t at = j->i;
    if (j->p[j->i] == '-')
        j->i++;
    if (j->i < j->n && j->p[j->i] == '0')
        j->i++;
    else if (isdig(j))
        while (isdig(j))
            j->i++;
    else
        return pii_rec_fail(rs, PII_EJSON, "bad number at byte %zu", at);
    if (j->i < j->n && j->p[j->i] == '.') {
        j->i++;
        if (!isdig(j))
            return pii_rec_fail(rs, PII_EJSON, "bad number at byte %zu", at);
        while (isdig(j))
            j->i++;
    }
    if (j->i < j->n && (j->p[j->i] == 'e' || j->p[j->i] == 'E')) {
        j->i++;
        if (j->i < j->n && (j->p[j->i] == '+' || j->p[j->i] == '-'))
            j->i++;
        if (!isdig(j))
            return pii_rec_fail(rs, PII_EJSON, "bad number at byte %zu", at);
        while (isdig(j))
            j->i++;
    }
    return PII_OK;
}

static pii_err j_value(pii_rec_stream *rs, jp *j)
{
    j_mark(rs);
    j_ws(j);
    if (j->i >= j->n)
        return pii_rec_fail(rs, PII_EJSON, "unexpected end of the record at byte %zu", j->i);
    uint8_t c = j->p[j->i];
    pii_err e;
    static const char *const lits[] = {"true", "false", "null"};
    switch (c) {
    case '{':
    case '[':
        if (++j->depth > MAX_DEPTH)
            return pii_rec_fail(rs, PII_EJSON, "nested deeper than 512 levels at byte %zu", j->i);
        e = j_container(rs, j);
        j->depth--;
        return e;
    case '"':
        return j_string_value(rs, j);
    case 't':
    case 'f':
    case 'n':
        for (int k = 0; k < 3; k++) {
            size_t l = strlen(lits[k]);
            if (lits[k][0] == c && j->n - j->i >= l && memcmp(j->p + j->i, lits[k], l) == 0) {
                j->i += l;
                return PII_OK;
            }
        }
        break;
    default:
        if (c == '-' || (c >= '0' && c <= '9')) {
            size_t a = j->i;
            if ((e = j_number(rs, j)))
                return e;
            if ((rs->spec->scan & PII_REC_SCAN_NUMBERS) && j_selected(rs)) {
                int changed;
                size_t at;
                rs->keyctx = 1;
                e = pii_rec_redact_value(rs, 'n', j->p, &j->copied, a, j->i - a, &changed, &at);
                rs->keyctx = 0;
                if (e)
                    return e;
            }
            return PII_OK;
        }
    }
    return pii_rec_fail(rs, PII_EJSON, "unexpected character at byte %zu", j->i);
}

static pii_err jsonl_parse(pii_rec_stream *rs, const uint8_t *rec, size_t n, size_t skip);

/* A record that does not parse, with PII_REC_BAD_TEXT: the whole line
 * (without its line end) is redacted as one text document and written,
 * its replacements unescaped (the line was not JSON). */
static pii_err jsonl_as_text(pii_rec_stream *rs, const uint8_t *rec, size_t n, size_t body)
{
    size_t copied = 0, at;
    int changed;
    rs->out.n = 0;
    rs->nbad++;
    pii_err e = pii_rec_redact_value(rs, 't', rec, &copied, 0, body, &changed, &at);
    if (e)
        return e;
    if (copied == 0)
        return pii_rec_emit(rs, rec, n);
    e = pii_buf_append(&rs->out, rec + copied, n - copied);
    return e ? e : pii_rec_emit(rs, rs->out.p, rs->out.n);
}

/* rec[0..n) is one line with its LF (if any); skip = BOM bytes. */
pii_err pii_rec_jsonl_record(pii_rec_stream *rs, const uint8_t *rec, size_t n, size_t skip)
{
    if (rs->spec->bad == PII_REC_BAD_TEXT && !rs->gathering) {
        /* parse first, writing nothing, so a bad line leaves no part of
         * itself (output, spans) behind */
        uint64_t values = rs->values;
        rs->checking = 1;
        pii_err e = jsonl_parse(rs, rec, n, skip);
        rs->checking = 0;
        rs->values = values;
        if (e == PII_EJSON)
            return jsonl_as_text(rs, rec, n, n && rec[n - 1] == '\n' ? n - 1 : n);
        if (e)
            return e;
    }
    return jsonl_parse(rs, rec, n, skip);
}

static pii_err jsonl_parse(pii_rec_stream *rs, const uint8_t *rec, size_t n, size_t skip)
{
    size_t body = n && rec[n - 1] == '\n' ? n - 1 : n;
    jp j = {rec, body, skip, 0, 0};
    rs->out.n = 0;
    rs->nk = 0;
    rs->keys.n = 0;
    rs->kshow.n = 0;
    j_ws(&j);
    if (j.i < body) {
        rs->values++;
        pii_err e = j_value(rs, &j);
        if (e)
            return e;
        j_ws(&j);
        if (j.i != body)
            return pii_rec_fail(rs, PII_EJSON, "unexpected data after the JSON value at byte %zu",
                                j.i);
    }
    if (j.copied == 0)
        return pii_rec_emit(rs, rec, n);
    pii_err e = pii_buf_append(&rs->out, rec + j.copied, n - j.copied);
    if (!e)
        e = pii_rec_emit(rs, rs->out.p, rs->out.n);
    return e;
}
