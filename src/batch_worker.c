/* batch_worker.c — a batch worker's streams: the sink every stream of a
 * worker writes to (counts per label, --check findings, the item's output),
 * the record streams of --jsonl-field/--csv-column and --structured, and
 * an item's failure (see batch_int.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch_int.h"

static pii_err w_write(void *ud, const uint8_t *p, size_t n)
{
    worker *w = ud;
    w->it->bytes_out += n;
    return w->osink.write ? w->osink.write(w->osink.ud, p, n) : PII_OK;
}

static pii_err w_span(void *ud, const pii_span *s, const uint8_t *v, size_t len, uint64_t c0,
                      uint64_t c1)
{
    worker *w = ud;
    bitem *it = w->it;
    size_t i = 0;
    while (i < it->ncounts && strcmp(it->counts[i].label, s->label) != 0)
        i++;
    if (i == it->ncounts) {
        lcount *nv = realloc(it->counts, (it->ncounts + 1) * sizeof *nv);
        if (!nv)
            return PII_ENOMEM;
        it->counts = nv;
        memset(&nv[i], 0, sizeof nv[i]);
        nv[i].label = s->label;
        it->ncounts++;
    }
    if ((unsigned)s->source < 3)
        it->counts[i].n[s->source]++;
    it->findings++;
    atomic_fetch_add(&w->b->findings, 1);
    if (w->b->o->check) {
        pii_err e = batch_scan_span(w, s, v, len);
        if (e)
            return e;
    }
    if (w->rs && w->out && w->osink.span) {
        pii_rec_stream_field(w->rs, w->field, sizeof w->field);
        pii_out_set_record(w->out, pii_rec_stream_record(w->rs), w->field);
    }
    return w->osink.span ? w->osink.span(w->osink.ud, s, v, len, c0, c1) : PII_OK;
}

static pii_err w_end(void *ud)
{
    worker *w = ud;
    if (w->rs)
        w->it->records++;
    return w->osink.end_doc ? w->osink.end_doc(w->osink.ud) : PII_OK;
}

int batch_structured(const pii_opts *o)
{
    if (o->structured)
        return 1;
    return o->recursive && !o->as_text && !o->json_doc && !o->njsonl_fields && !o->ncsv_columns &&
           !o->lines && o->format != PII_FMT_JSON;
}

/* --structured: JSON Lines (every string value and number; a line that is
 * not JSON redacted as text), one JSON document (every string value and
 * number), CSV (every field). */
pii_err batch_auto_specs(batch *b)
{
    static const pii_rec_format fmt[BATCH_AUTO_N] = {PII_REC_JSONL, PII_REC_JSON, PII_REC_CSV};
    pii_err e = PII_OK;
    for (int k = 0; k < BATCH_AUTO_N && !e; k++) {
        if (!(b->auto_spec[k] = pii_rec_spec_create(fmt[k], &e)))
            break;
        e = pii_rec_spec_add(b->auto_spec[k], "*");
        if (!e && fmt[k] != PII_REC_CSV)
            e = pii_rec_spec_set_scan(b->auto_spec[k], PII_REC_SCAN_NUMBERS);
        /* fail closed: JSON that does not parse (a tsconfig.json with
         * comments, one JSON Lines line) is redacted as plain text */
        if (!e && fmt[k] != PII_REC_CSV)
            e = pii_rec_spec_set_bad(b->auto_spec[k], PII_REC_BAD_TEXT);
    }
    return e;
}

/* The format --structured reads a file in (BATCH_AUTO_*), or -1: text. */
int batch_auto_kind(const char *path, int *tab)
{
    *tab = batch_ends_in(path, ".tsv") || batch_ends_in(path, ".tab");
    if (batch_ends_in(path, ".jsonl") || batch_ends_in(path, ".ndjson"))
        return BATCH_AUTO_JSONL;
    if (batch_ends_in(path, ".json"))
        return BATCH_AUTO_JSON;
    if (batch_ends_in(path, ".csv") || *tab)
        return BATCH_AUTO_CSV;
    return -1;
}

void batch_free_rec_streams(worker *w)
{
    int shared = 0;
    for (int k = 0; k < BATCH_AUTO_N; k++) {
        shared |= w->rs && w->rs == w->ars[k];
        pii_rec_stream_free(w->ars[k]);
        w->ars[k] = NULL;
    }
    if (!shared)
        pii_rec_stream_free(w->rs);
    w->rs = NULL;
}

pii_sink batch_sink(worker *w)
{
    pii_sink s = {w->b->dest == DEST_NONE ? NULL : w_write, w_span, w_end, w};
    return s;
}

pii_err batch_open_streams(worker *w)
{
    batch *b = w->b;
    pii_sink s = batch_sink(w);
    pii_err e = PII_OK;
    pii_stream_free(w->st);
    batch_free_rec_streams(w);
    w->st = NULL;
    if (b->spec)
        w->rs = pii_rec_stream_create(b->spec, b->p->red, b->p->ops, &s, &e);
    else
        w->st = pii_stream_create(b->p->red, &s, &e);
    w->cur = w->st;
    w->sc.docs_started = 0; /* a new stream numbers its documents from 0 */
    return e;
}

void batch_fail(worker *w, bitem *it, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    it->status = ST_FAILED;
    free(it->error);
    it->error = strdup(msg);
    batch_msg(w->b, "pii-redact: %s: %s\n",
              it->is_root && strcmp(it->path, "-") == 0 ? "standard input" : it->path, msg);
}

const char *batch_errstr(int err, char *buf, size_t n)
{
    if (strerror_r(err, buf, n) != 0)
        snprintf(buf, n, "error %d", err);
    return buf;
}

int batch_ends_in(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}
