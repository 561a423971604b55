/* records_csv.c — CSV records: fields split at the input's separator
 * (quoted fields with "" inside), the header that names the selected
 * columns, the first record's checks, and each selected field redacted
 * through pii_rec_redact_value. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "records_int.h"

typedef struct cfield {
    size_t a, b; /* body (inside the quotes when quoted) */
    int quoted;
} cfield;

/* Next field at rec[*k]; *k ends on the separator or at body.  A CR in an
 * unquoted field that does not end the record is refused: it is how a file
 * with CR-only line ends (classic Mac) looks, and read as one record its
 * columns would not be the ones selected. */
static pii_err csv_field(pii_rec_stream *rs, const uint8_t *rec, size_t body, size_t *k, cfield *f)
{
    size_t i = *k;
    if (i < body && rec[i] == '"') {
        size_t q = i + 1;
        for (;;) {
            const uint8_t *nq = q < body ? memchr(rec + q, '"', body - q) : NULL;
            if (!nq)
                return pii_rec_fail(rs, PII_EFORMAT,
                                    "quoted field not closed (it starts at byte %zu)", i);
            q = (size_t)(nq - rec);
            if (q + 1 < body && rec[q + 1] == '"') {
                q += 2;
                continue;
            }
            break;
        }
        *f = (cfield){i + 1, q, 1};
        i = q + 1;
        if (i < body && rec[i] != (uint8_t)rs->delim)
            return pii_rec_fail(rs, PII_EFORMAT,
                                "unexpected character after a closing quote at byte %zu", i);
    } else {
        const uint8_t *c = i < body ? memchr(rec + i, rs->delim, body - i) : NULL;
        size_t j = c ? (size_t)(c - rec) : body;
        const uint8_t *cr = j > i ? memchr(rec + i, '\r', j - i) : NULL;
        if (cr)
            return pii_rec_fail(
                rs, PII_EFORMAT,
                "a CR that does not end a line at byte %zu (CR-only line ends are not "
                "supported: convert them to LF)",
                (size_t)(cr - rec));
        *f = (cfield){i, j, 0};
        i = j;
    }
    *k = i;
    return PII_OK;
}

static pii_err csv_header(pii_rec_stream *rs, const uint8_t *rec, size_t body, size_t skip)
{
    const pii_rec_spec *sp = rs->spec;
    size_t k = skip, col = 0;
    unsigned char *found = calloc(sp->nnames ? sp->nnames : 1, 1);
    pii_err e = found ? PII_OK : PII_ENOMEM;
    for (; !e; col++) {
        cfield f;
        if ((e = csv_field(rs, rec, body, &k, &f)))
            break;
        if ((e = pii_rec_decode(f.quoted ? 'q' : 'u', rec + f.a, f.b - f.a, &rs->dec)))
            break;
        for (size_t i = 0; i < sp->nnames; i++) {
            size_t l = strlen(sp->names[i]);
            if (l != rs->dec.n || memcmp(sp->names[i], rs->dec.p, l) != 0)
                continue;
            found[i] = 1;
            if (col >= rs->capcolsel) {
                size_t cap = 2 * col + 8;
                unsigned char *v = realloc(rs->colsel, cap);
                if (!v) {
                    e = PII_ENOMEM;
                    break;
                }
                rs->colsel = v;
                rs->capcolsel = cap;
            }
            if (col >= rs->ncolsel) {
                memset(rs->colsel + rs->ncolsel, 0, col + 1 - rs->ncolsel);
                rs->ncolsel = col + 1;
            }
            rs->colsel[col] = 1;
        }
        if (k >= body)
            break;
        k++;
    }
    for (size_t i = 0; !e && i < sp->nnames; i++)
        if (!found[i]) {
            snprintf(rs->detail, sizeof rs->detail, "column \"%.100s\" is not in the header",
                     sp->names[i]);
            e = PII_ENOTFOUND;
        }
    free(found);
    return e;
}

static const char *delim_name(int c)
{
    return c == '\t' ? "TAB" : c == ';' ? "';'" : c == '|' ? "'|'" : "','";
}

/* The first record of an input: its fields must reach every selected
 * column index, and a record without the separator that holds another one
 * (";" "TAB" "|") means the file is separated differently — unless the
 * separator was chosen explicitly. */
static pii_err csv_first(pii_rec_stream *rs, const uint8_t *rec, size_t body, size_t skip)
{
    const pii_rec_spec *sp = rs->spec;
    size_t k = skip, nf = 0;
    int other = 0;
    pii_err e;
    for (;; nf++) {
        cfield f;
        if ((e = csv_field(rs, rec, body, &k, &f)))
            return e;
        for (size_t i = f.a; !f.quoted && !other && i < f.b; i++)
            if (rec[i] != rs->delim && (rec[i] == ';' || rec[i] == '\t' || rec[i] == '|'))
                other = rec[i];
        if (k >= body)
            break;
        k++;
    }
    nf++;
    if (nf == 1 && other && !sp->delim_given) {
        snprintf(rs->detail, sizeof rs->detail,
                 "the first record has no %s but has %s: set the separator with --csv-delimiter",
                 delim_name(rs->delim), delim_name(other));
        return PII_EFORMAT;
    }
    for (size_t i = 0; i < sp->nidx; i++)
        if (sp->idx[i] >= nf) {
            snprintf(rs->detail, sizeof rs->detail,
                     "column %zu is past the last column of the first record (%zu column%s)",
                     sp->idx[i] + 1, nf, nf == 1 ? "" : "s");
            return PII_ENOTFOUND;
        }
    return PII_OK;
}

pii_err pii_rec_csv_record(pii_rec_stream *rs, const uint8_t *rec, size_t n, size_t skip)
{
    size_t body = n;
    if (body && rec[body - 1] == '\n') {
        body--;
        if (body && rec[body - 1] == '\r')
            body--;
    }
    pii_err e;
    if (rs->record == 1 && (e = csv_first(rs, rec, body, skip)))
        return e;
    if (rs->header_pending) {
        rs->header_pending = 0;
        if ((e = csv_header(rs, rec, body, skip)))
            return e;
        return pii_rec_emit(rs, rec, n);
    }
    rs->out.n = 0;
    size_t k = skip, copied = 0;
    for (size_t col = 0;; col++) {
        cfield f;
        if ((e = csv_field(rs, rec, body, &k, &f)))
            return e;
        if ((rs->spec->all || (col < rs->ncolsel && rs->colsel[col])) && f.b > f.a) {
            int changed;
            size_t at;
            rs->col = col;
            if ((e = pii_rec_redact_value(rs, f.quoted ? 'q' : 'u', rec, &copied, f.a, f.b - f.a,
                                          &changed, &at)))
                return e;
        }
        if (k >= body)
            break;
        k++;
    }
    if (copied == 0)
        return pii_rec_emit(rs, rec, n);
    e = pii_buf_append(&rs->out, rec + copied, n - copied);
    if (!e)
        e = pii_rec_emit(rs, rs->out.p, rs->out.n);
    return e;
}
