/* records_value.c — one selected value of a record (records_value.h): its
 * units and decoded text, the document fed for it to the inner stream, and
 * its rebuilt raw form with each span's replacement escaped for where it
 * stands (JSON string, quoted or unquoted CSV field). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops_internal.h"
#include "records_int.h"

/* ---- units: one escape or one UTF-8 sequence --------------------------- */

/* Length of a valid UTF-8 sequence at p (1..4), or 1 for an invalid or cut
 * byte (the same rule as the stream's code-point counting). */
static size_t u8len(const uint8_t *p, const uint8_t *end)
{
    size_t k = pii_utf8_valid(p, end);
    return k ? k : 1;
}

int pii_rec_hexval(uint8_t c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static uint32_t hex4(const uint8_t *p)
{
    return (uint32_t)(pii_rec_hexval(p[0]) << 12 | pii_rec_hexval(p[1]) << 8 |
                      pii_rec_hexval(p[2]) << 4 | pii_rec_hexval(p[3]));
}

static size_t put_utf8(uint32_t cp, uint8_t *o)
{
    if (cp < 0x80) {
        o[0] = (uint8_t)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (uint8_t)(0xC0 | cp >> 6);
        o[1] = (uint8_t)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) { /* lone surrogates too: invalid UTF-8, passed on */
        o[0] = (uint8_t)(0xE0 | cp >> 12);
        o[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (uint8_t)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (uint8_t)(0xF0 | cp >> 18);
    o[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (uint8_t)(0x80 | (cp & 0x3F));
    return 4;
}

/* One unit of a raw value at raw[k] (already validated): its raw length,
 * and its decoded bytes in d[0..*dl).  kind: 'j' JSON string body, 'q'
 * quoted CSV field body, 'u' unquoted CSV field, 'n' JSON number (taken
 * verbatim like 'u'; a changed number is written back as a JSON string). */
size_t pii_rec_unit(int kind, const uint8_t *raw, size_t n, size_t k, uint8_t d[4], size_t *dl)
{
    const uint8_t *p = raw + k;
    if (kind == 'j' && p[0] == '\\') {
        uint8_t c = p[1];
        if (c != 'u') {
            static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
            d[0] = (uint8_t)to[strchr(from, c) - from];
            *dl = 1;
            return 2;
        }
        uint32_t cp = hex4(p + 2);
        if (cp >= 0xD800 && cp <= 0xDBFF && k + 12 <= n && p[6] == '\\' && p[7] == 'u') {
            uint32_t lo = hex4(p + 8);
            if (lo >= 0xDC00 && lo <= 0xDFFF) {
                *dl = put_utf8(0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00), d);
                return 12;
            }
        }
        *dl = put_utf8(cp, d);
        return 6;
    }
    if (kind == 'q' && p[0] == '"') { /* "" */
        d[0] = '"';
        *dl = 1;
        return 2;
    }
    size_t l = u8len(p, raw + n);
    memcpy(d, p, l);
    *dl = l;
    return l;
}

pii_err pii_rec_decode(int kind, const uint8_t *raw, size_t n, pii_buf *out)
{
    out->n = 0;
    if (kind == 'u' || kind == 'n' || !memchr(raw, kind == 'j' ? '\\' : '"', n))
        return pii_buf_append(out, raw, n);
    uint8_t d[4];
    size_t dl;
    for (size_t k = 0; k < n;) {
        k += pii_rec_unit(kind, raw, n, k, d, &dl);
        pii_err e = pii_buf_append(out, d, dl);
        if (e)
            return e;
    }
    return PII_OK;
}

/* ---- escaping replacement text ------------------------------------------ */

static pii_err json_escape(const uint8_t *p, size_t n, pii_buf *o)
{
    pii_err e = PII_OK;
    for (size_t i = 0; i < n && !e;) {
        uint8_t c = p[i];
        char esc[8];
        const char *r = NULL;
        size_t l = u8len(p + i, p + n);
        if (c == '"')
            r = "\\\"";
        else if (c == '\\')
            r = "\\\\";
        else if (c == '\n')
            r = "\\n";
        else if (c == '\r')
            r = "\\r";
        else if (c == '\t')
            r = "\\t";
        else if (c < 0x20) {
            snprintf(esc, sizeof esc, "\\u%04x", c);
            r = esc;
        } else if (c >= 0x80 && l == 1)
            r = "\\ufffd"; /* not representable in JSON text */
        if (r)
            e = pii_buf_append(o, r, strlen(r));
        else
            e = pii_buf_append(o, p + i, l);
        i += l;
    }
    return e;
}

static pii_err csv_double_quotes(const uint8_t *p, size_t n, pii_buf *o)
{
    pii_err e = PII_OK;
    size_t run = 0;
    for (size_t i = 0; i < n && !e; i++) {
        if (p[i] == '"') {
            e = pii_buf_append(o, p + run, i + 1 - run);
            if (!e)
                e = pii_buf_append(o, "\"", 1);
            run = i + 1;
        }
    }
    if (!e)
        e = pii_buf_append(o, p + run, n - run);
    return e;
}

/* ---- redacting one value ------------------------------------------------ */

/* Writes the pending widened span: the raw bytes before it, then its
 * escaped replacement. */
static pii_err flush_span(pii_rec_stream *rs)
{
    vctx *v = &rs->v;
    fspan *f = &v->last;
    const uint8_t *val = v->dec + f->s.start, *dend = v->dec + v->dn;
    size_t vlen = (size_t)(f->s.end - f->s.start);
    pii_err e = PII_OK;
    v->have = 0;
    if (rs->sink.span) {
        uint64_t c0, c1;
        while (v->cpos < f->s.start)
            v->cpos += u8len(v->dec + v->cpos, dend), v->ccount++;
        c0 = v->ccount;
        while (v->cpos < f->s.end)
            v->cpos += u8len(v->dec + v->cpos, dend), v->ccount++;
        c1 = v->ccount;
        if ((e = rs->sink.span(rs->sink.ud, &f->s, val, vlen, c0, c1)))
            return e;
    }
    e = pii_ops__output(rs->ops, &f->s, val, vlen, &rs->rep);
    if (!e && !v->started) {
        /* the record up to this value, then the value's own output */
        e = pii_buf_append(&rs->out, v->rec + *v->copied, v->a - *v->copied);
        v->fstart = rs->out.n;
        v->started = 1;
        if (!e && v->kind == 'n') /* a number with a span becomes a string */
            e = pii_buf_append(&rs->out, "\"", 1);
    }
    if (!e)
        e = pii_buf_append(&rs->out, v->raw + v->pos, f->raw0 - v->pos);
    if (!e && (v->kind == 'j' || v->kind == 'n'))
        e = json_escape(rs->rep.p, rs->rep.n, &rs->out);
    else if (!e && v->kind == 'q')
        e = csv_double_quotes(rs->rep.p, rs->rep.n, &rs->out);
    else if (!e)
        e = pii_buf_append(&rs->out, rs->rep.p, rs->rep.n);
    for (size_t k = 0; v->kind == 'u' && k < rs->rep.n; k++)
        v->need_quotes |= rs->rep.p[k] == (uint8_t)rs->delim || rs->rep.p[k] == '"' ||
                          rs->rep.p[k] == '\n' || rs->rep.p[k] == '\r';
    v->pos = f->raw1;
    return e;
}

/* The inner stream's span callback: widens the span to whole units
 * (escapes, UTF-8 sequences), merges it into the pending one when they
 * now overlap, else writes the pending one and keeps this one. */
pii_err pii_rec_collect(void *ud, const pii_span *s, const uint8_t *val, size_t len, uint64_t c0,
                        uint64_t c1)
{
    (void)val, (void)len, (void)c0, (void)c1;
    pii_rec_stream *rs = ud;
    vctx *v = &rs->v;
    size_t rl, dl;
    uint8_t tmp[4];
    if (s->end > v->plen + v->dn + 1 || s->start >= s->end)
        return PII_EINTERNAL;
    if (s->end <= v->plen || s->start >= v->plen + v->dn)
        return PII_OK; /* in the key before the value, or the LF after it */
    pii_span clip = *s;
    clip.start = s->start > v->plen ? s->start - v->plen : 0;
    clip.end = s->end - v->plen;
    if (clip.end > v->dn)
        clip.end = v->dn;
    s = &clip;
    if (!v->have || s->start >= v->last.s.end) {
        pii_err e = v->have ? flush_span(rs) : PII_OK;
        if (e)
            return e;
        for (; v->r < v->n; v->r += rl, v->d += dl) {
            rl = pii_rec_unit(v->kind, v->raw, v->n, v->r, tmp, &dl);
            if (v->d + dl > s->start)
                break;
        }
        v->last = (fspan){*s, v->r, v->r};
        v->last.s.start = v->d;
        v->have = 1;
    }
    for (; v->r < v->n && v->d < s->end; v->r += rl, v->d += dl)
        rl = pii_rec_unit(v->kind, v->raw, v->n, v->r, tmp, &dl);
    if (v->d > v->last.s.end) {
        v->last.s.end = v->d;
        v->last.raw1 = v->r;
    } else if (v->last.raw1 < v->r) {
        v->last.raw1 = v->r;
    }
    return PII_OK;
}

/* First pass (rs->gathering): notes the decoded value v->dec[0..dn) of
 * the raw value raw for the announcement, a pointer to it when it is the
 * raw value itself (in `in`, which does not move during a batch), else a
 * copy.  A value past the caps ends the batch's gathering; so does a copy
 * that cannot be allocated (the values so far are still announced). */
static pii_err gather_value(pii_rec_stream *rs, const uint8_t *raw)
{
    const vctx *v = &rs->v;
    if (rs->gfull)
        return PII_OK;
    size_t len = rs->pre.n + v->dn + 1;
    if (rs->gn == PII_STREAM_QUEUE_DOCS || len > PII_STREAM_QUEUE_BYTES - rs->gbytes) {
        rs->gfull = 1;
        return PII_OK;
    }
    (void)raw;
    /* always a copy: the document redact_value feeds */
    size_t off = rs->gbuf.n;
    if (pii_buf_append(&rs->gbuf, rs->pre.p, rs->pre.n) ||
        pii_buf_append(&rs->gbuf, v->dec, v->dn) || pii_buf_append(&rs->gbuf, "\n", 1)) {
        rs->gbuf.n = off;
        rs->gfull = 1;
        return PII_OK;
    }
    rs->gdoc[rs->gn] = NULL;
    rs->goff[rs->gn] = off;
    rs->glen[rs->gn++] = len;
    rs->gbytes += len;
    return PII_OK;
}

/* The prefix of the document fed for the value in hand (rs->pre): for a
 * member of an object (rs->keyctx), its key (decoded, at most 64 bytes, no
 * control character) and ": "; else nothing. */
/* Values up to this size are fed as one copied document ("KEY: VALUE" and
 * a LF); larger ones in place, in three pieces. */
#define REC_LINE_COPY_MAX ((size_t)1 << 20)

static pii_err key_prefix(pii_rec_stream *rs)
{
    rs->pre.n = 0;
    if (!rs->keyctx || rs->nk == 0)
        return PII_OK;
    size_t n = rs->koff[rs->nk] - rs->koff[rs->nk - 1];
    if (n == 0 || n > 64) /* an empty key: rs->keys.p may still be NULL */
        return PII_OK;
    const uint8_t *k = rs->keys.p + rs->koff[rs->nk - 1];
    for (size_t i = 0; i < n; i++)
        if (k[i] < 0x20 || k[i] == 0x7f)
            return PII_OK;
    pii_err e = pii_buf_append(&rs->pre, k, n);
    return e ? e : pii_buf_append(&rs->pre, ": ", 2);
}

/* Feeds the value in hand (rs->v, its prefix rs->pre) to the inner stream
 * as one document, whose spans come back through pii_rec_collect.  The value
 * is read as a line of text — an object member's after its key, "KEY:
 * VALUE" and a LF — so that it is found as the same words would be in text
 * mode (issue 41: a name alone in a field, a phone number or a password
 * that only its key names); spans are cut to the value (pii_rec_collect). */
static pii_err feed_value(pii_rec_stream *rs)
{
    const vctx *v = &rs->v;
    size_t flen = v->plen + v->dn + 1;
    pii_err e;
    pii_stream_new_input(rs->st); /* the guard sees each decoded value alone */
    if (rs->gnext < rs->gn) {     /* announced: feed its copy, the same bytes */
        const uint8_t *feed = rs->gdoc[rs->gnext];
        if (rs->glen[rs->gnext] != flen || (v->plen && memcmp(feed, rs->pre.p, v->plen) != 0) ||
            memcmp(feed + v->plen, v->dec, v->dn) != 0 || feed[flen - 1] != '\n')
            return PII_EINTERNAL;
        rs->gnext++;
        e = pii_stream_feed(rs->st, feed, flen);
    } else if (flen <= REC_LINE_COPY_MAX) {
        /* one contiguous document, as the announced copies are: detectors
         * that finalise at the end of what they are given see the same cuts */
        rs->line.n = 0;
        if (!(e = pii_buf_append(&rs->line, rs->pre.p, v->plen)) &&
            !(e = pii_buf_append(&rs->line, v->dec, v->dn)) &&
            !(e = pii_buf_append(&rs->line, "\n", 1)))
            e = pii_stream_feed(rs->st, rs->line.p, flen);
    } else {
        /* a large value: the key, the value and the LF fed as they are (the
         * rule tier and the model give the same output for any cuts), so
         * no copy of a value of any size is made */
        if (!(e = v->plen ? pii_stream_feed(rs->st, rs->pre.p, v->plen) : PII_OK) &&
            !(e = pii_stream_feed(rs->st, v->dec, v->dn)))
            e = pii_stream_feed(rs->st, "\n", 1);
    }
    return e ? e : pii_stream_end_doc(rs->st);
}

/* Ends the rebuilt value in rs->out once its spans are written: the raw
 * bytes after the last one, a number's closing quote, and quotes around an
 * unquoted CSV field whose replacement text needs them. */
static pii_err finish_value(pii_rec_stream *rs)
{
    vctx *v = &rs->v;
    pii_err e = pii_buf_append(&rs->out, v->raw + v->pos, v->n - v->pos);
    if (!e && v->kind == 'n')
        e = pii_buf_append(&rs->out, "\"", 1);
    if (!e && v->need_quotes) {
        rs->rep.n = 0;
        e = pii_buf_append(&rs->rep, rs->out.p + v->fstart, rs->out.n - v->fstart);
        rs->out.n = v->fstart;
        if (!e)
            e = pii_buf_append(&rs->out, "\"", 1);
        if (!e)
            e = csv_double_quotes(rs->rep.p, rs->rep.n, &rs->out);
        if (!e)
            e = pii_buf_append(&rs->out, "\"", 1);
    }
    return e;
}

pii_err pii_rec_redact_value(pii_rec_stream *rs, int kind, const uint8_t *rec, size_t *copied,
                             size_t a, size_t n, int *changed, size_t *vstart)
{
    const uint8_t *raw = rec + a;
    *changed = 0;
    vctx *v = &rs->v;
    *v = (vctx){.kind = kind, .raw = raw, .n = n, .rec = rec, .copied = copied, .a = a};
    pii_err e = PII_OK;
    if (kind == 'u' || kind == 'n' || kind == 't' || !memchr(raw, kind == 'j' ? '\\' : '"', n)) {
        v->dec = raw; /* no escape: the raw value is the decoded one, no copy */
        v->dn = n;
    } else {
        if ((e = pii_rec_decode(kind, raw, n, &rs->dec)))
            return e;
        v->dec = rs->dec.p;
        v->dn = rs->dec.n;
    }
    if (v->dn == 0 || rs->checking)
        return PII_OK;
    if ((e = key_prefix(rs)))
        return e;
    v->plen = rs->pre.n;
    if (rs->gathering)
        return gather_value(rs, raw);
    if ((e = feed_value(rs)) || (v->have && (e = flush_span(rs))))
        return e;
    if (!v->started)
        return PII_OK;
    if ((e = finish_value(rs)))
        return e;
    *copied = a + n;
    *vstart = v->fstart;
    *changed = 1;
    return PII_OK;
}
