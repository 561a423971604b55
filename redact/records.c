/* records.c — the record stream of pii_records.h: JSON Lines and CSV field
 * redaction (the modules it uses: records_int.h).
 *
 * Input bytes collect in `in` until a record is complete (JSONL: a LF;
 * CSV: a LF outside quotes, found by a small state machine that survives
 * across feeds).  A complete record is passed through the wide-text guard
 * and parsed in place (records_json.c, records_csv.c); each selected value
 * is fed to the inner pii_stream as one document (its decoded text after
 * its key: records_value.c), and each span it reports is widened to whole
 * escapes/UTF-8 sequences ("units"), mapped back to raw offsets by walking
 * the raw value unit by unit, and written at once: the record's output
 * `out` is the raw record with those raw ranges replaced.  Memory
 * is the record, its output and small buffers, whatever the number of
 * spans.  A record with no span is written straight from `in`.
 *
 * Values share forward passes: when the inner stream has a lookahead (the
 * model), drain() takes the complete records held in `in` a batch at a
 * time.  A first pass parses them without writing anything (`gathering`:
 * emit, selector marks and the record counters are left alone) and
 * collects their non-empty selected values, decoded, in order, at most
 * PII_STREAM_QUEUE_DOCS of them and PII_STREAM_QUEUE_BYTES in all, of whole
 * records (a record that would pass a cap starts the next batch, unless it
 * is the first: it then announces what fits and feeds the rest live); they
 * are put ahead to the inner stream (pii_stream_put, PII_STREAM_AHEAD, then
 * a flush: the model computes them together over its thread pool).  The
 * second pass is the one-record-at-a-time processing above, unchanged,
 * except that each value is fed from its announced copy (the bytes are compared first; the two
 * passes parse the same bytes the same way, so a difference is an internal error).  A record the
 * first pass finds failing (it does not parse, passes the size limit, or the wide-text guard, run
 * on a copy of its state, refuses it) is the last of the batch: the second pass meets the same
 * error in the same record after writing the earlier ones, exactly as before.  Output, spans,
 * errors and their order are those of the unbatched processing; only the
 * cost changes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "records_int.h"

#define PII_REC_HOLD_MAX (16u * 1024u * 1024u) /* output held for the selector check */

enum { CS_START, CS_UNQ, CS_Q, CS_QQ }; /* CSV record-end scanner states */

/* ---- the stream ------------------------------------------------------- */

static pii_err open_inner(pii_rec_stream *rs)
{
    pii_sink in = {NULL, pii_rec_collect, NULL, rs};
    pii_err e;
    pii_stream_free(rs->st);
    rs->st = pii_stream_create(rs->r, &in, &e);
    rs->lookahead = rs->st && pii_stream_lookahead(rs->st);
    rs->gn = rs->gnext = 0;
    return rs->st ? PII_OK : e;
}

static pii_err begin_input(pii_rec_stream *rs)
{
    const pii_rec_spec *sp = rs->spec;
    rs->in.n = rs->start = rs->scan = 0;
    rs->in_base = 0;
    rs->cstate = CS_START;
    rs->bom = -1;
    rs->record = 0;
    rs->delim = sp->delim;
    rs->hold.n = 0;
    rs->values = 0;
    rs->holding = sp->npaths > 0;
    if (sp->npaths) {
        free(rs->pmatch);
        if (!(rs->pmatch = calloc(sp->npaths, 1)))
            return PII_ENOMEM;
    }
    pii_wide_init(&rs->wide);
    if (rs->st)
        pii_stream_new_input(rs->st);
    rs->header_pending = sp->fmt == PII_REC_CSV && sp->nnames > 0;
    size_t need = 0;
    for (size_t i = 0; i < sp->nidx; i++)
        if (sp->idx[i] + 1 > need)
            need = sp->idx[i] + 1;
    if (need > rs->capcolsel) {
        unsigned char *v = realloc(rs->colsel, need);
        if (!v)
            return PII_ENOMEM;
        rs->colsel = v;
        rs->capcolsel = need;
    }
    if (need)
        memset(rs->colsel, 0, need);
    for (size_t i = 0; i < sp->nidx; i++)
        rs->colsel[sp->idx[i]] = 1;
    rs->ncolsel = need;
    return PII_OK;
}

pii_rec_stream *pii_rec_stream_create(const pii_rec_spec *spec, const pii_redactor *r, pii_ops *ops,
                                      const pii_sink *sink, pii_err *err)
{
    pii_err e = PII_OK;
    pii_rec_stream *rs = calloc(1, sizeof *rs);
    if (!rs) {
        e = PII_ENOMEM;
        goto out;
    }
    rs->spec = spec;
    rs->r = r;
    rs->ops = ops;
    if (sink)
        rs->sink = *sink;
    if (!(rs->gdoc = malloc(PII_STREAM_QUEUE_DOCS * sizeof *rs->gdoc)) ||
        !(rs->glen = malloc(PII_STREAM_QUEUE_DOCS * sizeof *rs->glen)) ||
        !(rs->goff = malloc(PII_STREAM_QUEUE_DOCS * sizeof *rs->goff)))
        e = PII_ENOMEM;
    if (e || (e = open_inner(rs)) || (e = begin_input(rs))) {
        pii_rec_stream_free(rs);
        rs = NULL;
    }
out:
    if (err)
        *err = e;
    return rs;
}

void pii_rec_stream_set_input_name(pii_rec_stream *rs, const char *name)
{
    pii_stream_set_input_name(rs->st, name);
}

void pii_rec_stream_free(pii_rec_stream *rs)
{
    if (!rs)
        return;
    pii_stream_free(rs->st);
    free(rs->pmatch);
    free(rs->hold.p);
    free(rs->in.p);
    free(rs->out.p);
    free(rs->dec.p);
    free(rs->line.p);
    free(rs->pre.p);
    free(rs->rep.p);
    free(rs->keys.p);
    free(rs->koff);
    free(rs->kshow.p);
    free(rs->kso);
    free(rs->colsel);
    free(rs->gbuf.p);
    free(rs->gdoc);
    free(rs->glen);
    free(rs->goff);
    free(rs);
}

uint64_t pii_rec_stream_record(const pii_rec_stream *rs)
{
    return rs->record;
}

size_t pii_rec_stream_field(const pii_rec_stream *rs, char *buf, size_t cap)
{
    size_t n = 0;
    if (rs->spec->fmt == PII_REC_CSV) {
        int k = snprintf(buf, cap, "%zu", rs->col + 1);
        return k < 0 ? 0 : (size_t)k;
    }
    for (size_t k = 0; k < rs->nk; k++) {
        if (k) {
            if (n + 1 < cap)
                buf[n] = '.';
            n++;
        }
        for (size_t i = rs->kso[k]; i < rs->kso[k + 1]; i++) {
            uint8_t c = rs->kshow.p[i];
            if (c == '.' || c == '\\') {
                if (n + 1 < cap)
                    buf[n] = '\\';
                n++;
            }
            if (n + 1 < cap)
                buf[n] = (char)c;
            n++;
        }
    }
    if (cap)
        buf[n < cap ? n : cap - 1] = '\0';
    return n;
}

uint64_t pii_rec_stream_bad_records(const pii_rec_stream *rs)
{
    return rs ? rs->nbad : 0;
}

const char *pii_rec_stream_detail(const pii_rec_stream *rs)
{
    return rs->detail;
}

pii_err pii_rec_fail(pii_rec_stream *rs, pii_err e, const char *fmt, size_t at)
{
    if (fmt)
        snprintf(rs->detail, sizeof rs->detail, fmt, at);
    return e;
}

/* Fails the input when a JSONL selector has matched no key in the records
 * read so far (at PII_REC_PROBE_RECORDS, at the end of the input, or when
 * the held output would pass PII_REC_HOLD_MAX); else releases the output
 * held so far. */
static pii_err j_unmatched(pii_rec_stream *rs)
{
    const pii_rec_spec *sp = rs->spec;
    if (!IS_JSON(sp->fmt) || !rs->holding)
        return PII_OK;
    for (size_t p = 0; rs->values && p < sp->npaths; p++)
        if (!rs->pmatch[p]) {
            snprintf(rs->detail, sizeof rs->detail,
                     "selector \"%.60s\" matched no key in %s%llu record%s", sp->paths[p].text,
                     rs->record >= PII_REC_PROBE_RECORDS ? "first " : "",
                     (unsigned long long)rs->record, rs->record == 1 ? "" : "s");
            return PII_ENOTFOUND;
        }
    rs->holding = 0;
    pii_err e =
        rs->hold.n && rs->sink.write ? rs->sink.write(rs->sink.ud, rs->hold.p, rs->hold.n) : PII_OK;
    rs->hold.n = 0;
    return e;
}

/* A file whose selector matches nothing writes nothing. */
pii_err pii_rec_emit(pii_rec_stream *rs, const uint8_t *p, size_t n)
{
    if (rs->gathering || rs->checking)
        return PII_OK; /* the second pass writes */
    if (rs->holding) {
        int all = 1;
        for (size_t i = 0; i < rs->spec->npaths; i++)
            all &= rs->pmatch[i];
        if (!all && rs->hold.n + n <= PII_REC_HOLD_MAX)
            return pii_buf_append(&rs->hold, p, n);
        pii_err e = j_unmatched(rs);
        if (e)
            return e;
    }
    return rs->sink.write ? rs->sink.write(rs->sink.ud, p, n) : PII_OK;
}

/* Finds the end of the record starting at in[start]; scanning resumes at
 * rs->scan.  Returns 1 and *end (one past its LF) when found. */
static int record_end(pii_rec_stream *rs, size_t *end)
{
    const uint8_t *p = rs->in.p;
    size_t n = rs->in.n;
    if (rs->spec->fmt == PII_REC_JSON) { /* one record: the whole input */
        rs->scan = n;
        return 0;
    }
    if (rs->spec->fmt == PII_REC_JSONL) {
        const uint8_t *nl = rs->scan < n ? memchr(p + rs->scan, '\n', n - rs->scan) : NULL;
        if (!nl) {
            rs->scan = n;
            return 0;
        }
        *end = (size_t)(nl - p) + 1;
        rs->scan = *end;
        return 1;
    }
    int st = rs->cstate;
    for (size_t k = rs->scan; k < n; k++) {
        uint8_t c = p[k];
        switch (st) {
        case CS_START:
        case CS_UNQ:
            if (c == '"' && st == CS_START)
                st = CS_Q;
            else if (c == (uint8_t)rs->delim)
                st = CS_START;
            else if (c != '\n')
                st = CS_UNQ;
            break;
        case CS_Q:
            if (c == '"')
                st = CS_QQ;
            break;
        case CS_QQ:
            st = c == '"' ? CS_Q : c == (uint8_t)rs->delim ? CS_START : CS_UNQ;
            break;
        }
        if (c == '\n' && st != CS_Q) {
            rs->cstate = CS_START;
            rs->scan = *end = k + 1;
            return 1;
        }
    }
    rs->cstate = st;
    rs->scan = n;
    return 0;
}

/* A record longer than PII_REC_MAX_RECORD (its final LF not counted):
 * drain() refuses such a record while it is still incomplete, so one that
 * arrives whole in one feed must be refused too (the verdict must not depend
 * on how the input was cut into feeds). */
static pii_err too_big(pii_rec_stream *rs)
{
    snprintf(rs->detail, sizeof rs->detail, "a record is longer than %u bytes", PII_REC_MAX_RECORD);
    return PII_ETOOBIG;
}

static pii_err one_record(pii_rec_stream *rs, size_t end)
{
    const uint8_t *rec = rs->in.p + rs->start;
    size_t n = end - rs->start;
    size_t skip = (rs->record == 0 && rs->bom == 1) ? 3 : 0;
    rs->record++;
    if ((n && rec[n - 1] == '\n' ? n - 1 : n) > PII_REC_MAX_RECORD)
        return too_big(rs);
    /* The wide-text guard sees the input record by record, before the
     * record is parsed: its verdict and every parse error then come in
     * input order whatever the feed boundaries (guarding the raw feeds
     * instead made a wide window late in a feed pre-empt a parse error in
     * an earlier record of the same feed, but not when the feeds were cut
     * between them). */
    if (pii_redactor_wide_guard(rs->r) && pii_wide_feed(&rs->wide, rec, n)) {
        snprintf(rs->detail, sizeof rs->detail,
                 "UTF-16 or UTF-32 text at byte %llu; convert the input to UTF-8",
                 (unsigned long long)rs->wide.hit_at);
        return PII_EENCODING;
    }
    pii_err e = IS_JSON(rs->spec->fmt) ? pii_rec_jsonl_record(rs, rec, n, skip)
                                       : pii_rec_csv_record(rs, rec, n, skip);
    if (!e && rs->sink.end_doc)
        e = rs->sink.end_doc(rs->sink.ud);
    if (!e && rs->record >= PII_REC_PROBE_RECORDS)
        e = j_unmatched(rs);
    rs->start = end;
    return e;
}

/* First pass over the record in[a, b), which will be record number
 * recno (the second pass counts them): collects its selected values unless it would fail
 * (the second pass then fails on it).  Returns 1 to go on with the next
 * record, 0 to end the batch after this one, -1 to end it before this one
 * (its values would pass a cap: they go to the next batch whole, unless
 * they are the batch's first, which then takes as many as fit).  w: the
 * wide-text guard's state before the record (a copy: the second pass
 * guards for real). */
static int gather_record(pii_rec_stream *rs, size_t a, size_t b, uint64_t recno, pii_wide *w)
{
    const uint8_t *rec = rs->in.p + a;
    size_t n = b - a;
    if ((n && rec[n - 1] == '\n' ? n - 1 : n) > PII_REC_MAX_RECORD)
        return 0;
    if (pii_redactor_wide_guard(rs->r) && pii_wide_feed(w, rec, n))
        return 0;
    uint64_t record = rs->record, values = rs->values;
    size_t gn = rs->gn, gbytes = rs->gbytes, gbn = rs->gbuf.n;
    char detail[sizeof rs->detail];
    memcpy(detail, rs->detail, sizeof detail);
    size_t skip = (recno == 1 && rs->bom == 1) ? 3 : 0;
    rs->record = recno;
    rs->gathering = 1;
    pii_err e = IS_JSON(rs->spec->fmt) ? pii_rec_jsonl_record(rs, rec, n, skip)
                                       : pii_rec_csv_record(rs, rec, n, skip);
    rs->gathering = 0;
    rs->record = record;
    rs->values = values;
    memcpy(rs->detail, detail, sizeof detail);
    if (e)
        return 0;
    if (rs->gfull && gn) {
        rs->gn = gn; /* drop this record's values */
        rs->gbytes = gbytes;
        rs->gbuf.n = gbn;
        return -1;
    }
    return !rs->gfull;
}

/* Finds the next batch of complete records (at most GATHER_RECORDS; at
 * the end of the input also the last one without a line end), their ends
 * in rs->gend, and with a lookahead announces their values.  Returns the
 * number of records.  The CSV header is a batch of its own (the columns
 * it selects are known once it is processed). */
static size_t batch(pii_rec_stream *rs, int eof)
{
    size_t nr = 0, a = rs->start, end;
    int gather = rs->lookahead;
    pii_wide w = rs->wide;
    rs->gn = rs->gnext = rs->gbytes = 0;
    rs->gbuf.n = 0;
    rs->gfull = 0;
    while (nr < GATHER_RECORDS) {
        if (!record_end(rs, &end)) {
            if (!eof || a >= rs->in.n)
                break;
            rs->scan = end = rs->in.n;
        }
        if (rs->header_pending) {
            rs->gend[nr++] = end;
            break;
        }
        int go = gather ? gather_record(rs, a, end, rs->record + nr + 1, &w) : 1;
        if (go < 0) { /* rescan it in the next batch (a record starts in CS_START) */
            rs->scan = a;
            rs->cstate = CS_START;
            break;
        }
        rs->gend[nr++] = end;
        if (!go || end == rs->in.n)
            break;
        a = end;
    }
    if (rs->gn) {
        for (size_t i = 0; i < rs->gn; i++)
            if (rs->goff[i] != SIZE_MAX)
                rs->gdoc[i] = rs->gbuf.p + rs->goff[i];
        /* on failure nothing is announced: the values are fed live (a
         * detector's failure is sticky in the stream and comes back from
         * the first feed, in record order) */
        pii_err e = PII_OK;
        for (size_t i = 0; !e && i < rs->gn; i++)
            e = pii_stream_put(rs->st, rs->gdoc[i], rs->glen[i], PII_STREAM_AHEAD);
        if (e || pii_stream_put(rs->st, NULL, 0, PII_STREAM_FLUSH))
            rs->gn = 0;
    }
    return nr;
}

static pii_err drain(pii_rec_stream *rs, int eof)
{
    pii_err e = PII_OK;
    if (rs->bom < 0 && (rs->in.n >= 3 || eof)) {
        rs->bom = rs->in.n >= 3 && memcmp(rs->in.p, "\xEF\xBB\xBF", 3) == 0;
        if (rs->bom)
            rs->scan = 3;
    }
    if (rs->bom < 0)
        return PII_OK;
    for (size_t nr; (nr = batch(rs, eof));) {
        for (size_t i = 0; i < nr; i++)
            if ((e = one_record(rs, rs->gend[i])))
                return e;
        if (rs->gnext != rs->gn)
            return PII_EINTERNAL; /* the passes disagree */
    }
    if (rs->in.n - rs->start > PII_REC_MAX_RECORD) {
        rs->record++;
        return too_big(rs);
    }
    if (rs->start) {
        memmove(rs->in.p, rs->in.p + rs->start, rs->in.n - rs->start);
        rs->in_base += rs->start;
        rs->in.n -= rs->start;
        rs->scan -= rs->start;
        rs->start = 0;
    }
    return PII_OK;
}

pii_err pii_rec_stream_feed(pii_rec_stream *rs, const void *data, size_t len)
{
    if (rs->failed)
        return rs->failed;
    pii_err e = pii_buf_append(&rs->in, data, len);
    if (!e)
        e = drain(rs, 0);
    return rs->failed = e;
}

pii_err pii_rec_stream_end(pii_rec_stream *rs)
{
    if (rs->failed)
        return rs->failed;
    pii_err e = drain(rs, 1);
    if (!e && rs->record)
        e = j_unmatched(rs);
    if (e)
        return rs->failed = e;
    return begin_input(rs);
}

pii_err pii_rec_stream_set_delimiter(pii_rec_stream *rs, int c)
{
    if (!rs || rs->spec->fmt != PII_REC_CSV || !pii_rec_delim_ok(c) || rs->in.n || rs->record)
        return PII_EINVAL;
    rs->delim = (char)c;
    return PII_OK;
}

uint64_t pii_rec_stream_span_offset(const pii_rec_stream *rs)
{
    return rs->in_base + (uint64_t)(rs->v.raw - rs->in.p) + rs->v.last.raw0;
}

pii_err pii_rec_stream_reset(pii_rec_stream *rs)
{
    pii_err e = PII_OK;
    if (rs->failed)
        e = open_inner(rs); /* the inner stream may have failed too */
    rs->failed = e;
    rs->detail[0] = '\0';
    if (!e)
        e = begin_input(rs);
    return rs->failed = e;
}
