/* records.c — JSON Lines and CSV field redaction (contract in pii_records.h).
 *
 * Input bytes collect in `in` until a record is complete (JSONL: a LF;
 * CSV: a LF outside quotes, found by a small state machine that survives
 * across feeds).  A complete record is passed through the wide-text guard
 * and parsed in place; each selected value is fed to the inner pii_stream
 * as one document (the raw bytes themselves when the value has no escape,
 * else its decoded form in `dec`), and each span it reports is widened to
 * whole escapes/UTF-8 sequences ("units"), mapped back to raw offsets by
 * walking the raw value unit by unit, and written at once: the record's
 * output `out` is the raw record with those raw ranges replaced.  Memory
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
 * a flush: the model computes them together
 * over its thread pool).  The second pass is the one-record-at-a-time
 * processing above, unchanged, except that each value is fed from its
 * announced copy (the bytes are compared first; the two passes parse the
 * same bytes the same way, so a difference is an internal error).  A record
 * the first pass finds failing (it does not parse, passes the size limit,
 * or the wide-text guard, run on a copy of its state, refuses it) is the
 * last of the batch: the second pass meets the same error in the same
 * record after writing the earlier ones, exactly as before.  Output, spans,
 * errors and their order are those of the unbatched processing; only the
 * cost changes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pii_records.h"

#define MAX_DEPTH 512
#define IS_JSON(f) ((f) == PII_REC_JSONL || (f) == PII_REC_JSON)
#define GATHER_RECORDS 1024u                   /* records per batch of drain() */
#define PII_REC_HOLD_MAX (16u * 1024u * 1024u) /* output held for the selector check */

/* ---- selectors -------------------------------------------------------- */

typedef struct seg {
    char *s;
    size_t n;
    int star; /* unescaped "*" */
} seg;

typedef struct jpath {
    seg *seg;
    size_t nseg;
    char *text; /* the selector as given, for messages */
} jpath;

struct pii_rec_spec {
    pii_rec_format fmt;
    jpath *paths;
    size_t npaths;
    size_t *idx; /* CSV 0-based column indexes */
    size_t nidx;
    char **names; /* CSV column names */
    size_t nnames;
    char delim;      /* CSV field separator, ',' by default */
    int delim_given; /* set by pii_rec_spec_set_delimiter */
    unsigned scan;   /* JSONL: PII_REC_SCAN_* */
    int bad;         /* JSONL: PII_REC_BAD_* */
    int all;         /* CSV: "*", every column */
};

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

static int delim_ok(int c)
{
    return c == ',' || c == ';' || c == '\t' || c == '|';
}

pii_err pii_rec_spec_set_delimiter(pii_rec_spec *s, int c)
{
    if (!s || s->fmt != PII_REC_CSV || !delim_ok(c))
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

/* ---- the stream ------------------------------------------------------- */

enum { CS_START, CS_UNQ, CS_Q, CS_QQ }; /* CSV record-end scanner states */

typedef struct fspan {
    pii_span s;
    size_t raw0, raw1; /* raw range replaced */
} fspan;

/* The value being redacted.  Spans arrive from the inner stream in order
 * and are widened, merged and written out one by one (nothing is kept per
 * span, so memory does not grow with the number of spans). */
typedef struct vctx {
    int kind;           /* see unit() */
    const uint8_t *raw; /* the raw value, raw[0..n) */
    size_t n;
    const uint8_t *dec; /* the decoded value, dec[0..dn) (raw itself when */
    size_t dn;          /* decoding changes nothing)                      */
    size_t r, d;        /* unit walk: raw and decoded offsets             */
    size_t cpos;        /* code-point walk over dec for the span sink     */
    uint64_t ccount;
    size_t pos; /* raw bytes before pos are written               */
    int have;   /* `last` holds a widened span not written yet    */
    fspan last;
    int started;        /* the value's output has begun in rs->out        */
    size_t fstart;      /* where it begins in rs->out                     */
    int need_quotes;    /* 'u': a replacement holds a CSV special         */
    const uint8_t *rec; /* the record, and how much of it is in rs->out   */
    size_t *copied;
    size_t a;    /* the value's offset in rec                      */
    size_t plen; /* the fed document's prefix: "KEY: " (key_prefix) */
} vctx;

struct pii_rec_stream {
    const pii_rec_spec *spec;
    pii_ops *ops;
    pii_sink sink;
    const pii_redactor *r;
    pii_stream *st;
    vctx v;           /* the value being redacted */
    pii_buf in;       /* input not yet written: [start, n) */
    uint64_t in_base; /* bytes of this input dropped before in.p[0] */
    size_t start;     /* first byte of the next record in `in` */
    size_t scan;      /* bytes of `in` scanned for a record end */
    int cstate;       /* CSV scanner state at `scan` */
    int bom;          /* -1 undecided, 0 none, 1 present (input start) */
    pii_buf out;      /* the current record's output */
    pii_buf dec;      /* decoded value */
    pii_buf line;     /* a value with its key prefix and a LF, as fed (redact_value) */
    pii_buf rep;      /* operator output */
    pii_buf keys;     /* JSON key path bytes */
    size_t *koff;     /* key k is keys[koff[k] .. koff[k+1]) (koff[nk] = keys.n) */
    pii_buf kshow;    /* the key path as reported: a redacted key by its replacement */
    size_t *kso;      /* key k is kshow[kso[k] .. kso[k+1]) */
    size_t nk, capk;
    uint64_t record;       /* records begun in this input */
    char delim;            /* CSV: this input's field separator */
    unsigned char *pmatch; /* JSONL: path p matched some key in this input */
    int holding;           /* JSONL: output held until every path matched */
    uint64_t values;       /* JSONL: records of this input that hold a value */
    pii_buf hold;
    unsigned char *colsel; /* CSV: column k is selected */
    size_t ncolsel, capcolsel;
    int header_pending; /* CSV: next record is the header */
    size_t col;         /* CSV: 0-based column being redacted */
    pii_err failed;
    char detail[160];
    pii_wide wide; /* the wide-text guard over the raw input */
    /* values put ahead to `st` (PII_STREAM_AHEAD), see the top comment */
    int lookahead;        /* `st` has a lookahead: gather values ahead */
    int gathering;        /* first pass: parse, collect values, write nothing */
    int checking;         /* PII_REC_BAD_TEXT: parse only, to know a bad record first */
    int keyctx;           /* the value in hand is an object member's (key_prefix) */
    pii_buf pre;          /* its prefix */
    uint64_t nbad;        /* records that did not parse, redacted as text */
    int gfull;            /* the batch's value cap is reached */
    pii_buf gbuf;         /* decoded copies of gathered values */
    const uint8_t **gdoc; /* announced values [0, gn), the next fed is gnext */
    size_t *glen, *goff;  /* goff: offset in gbuf, or SIZE_MAX (gdoc set) */
    size_t gn, gnext, gbytes;
    size_t gend[GATHER_RECORDS]; /* ends (in `in`) of the batch's records */
};

static pii_err collect(void *ud, const pii_span *s, const uint8_t *v, size_t n, uint64_t c0,
                       uint64_t c1);

static pii_err open_inner(pii_rec_stream *rs)
{
    pii_sink in = {NULL, collect, NULL, rs};
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

static pii_err fail(pii_rec_stream *rs, pii_err e, const char *fmt, size_t at)
{
    if (fmt)
        snprintf(rs->detail, sizeof rs->detail, fmt, at);
    return e;
}

/* ---- units: one escape or one UTF-8 sequence --------------------------- */

/* Length of a valid UTF-8 sequence at p (1..4), or 1 for an invalid or cut
 * byte (the same rule as the stream's code-point counting). */
static size_t u8len(const uint8_t *p, const uint8_t *end)
{
    size_t k = pii_utf8_valid(p, end);
    return k ? k : 1;
}

static int hexval(uint8_t c)
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
    return (uint32_t)(hexval(p[0]) << 12 | hexval(p[1]) << 8 | hexval(p[2]) << 4 | hexval(p[3]));
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
static size_t unit(int kind, const uint8_t *raw, size_t n, size_t k, uint8_t d[4], size_t *dl)
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

static pii_err decode(int kind, const uint8_t *raw, size_t n, pii_buf *out)
{
    out->n = 0;
    if (kind == 'u' || kind == 'n' || !memchr(raw, kind == 'j' ? '\\' : '"', n))
        return pii_buf_append(out, raw, n);
    uint8_t d[4];
    size_t dl;
    for (size_t k = 0; k < n;) {
        k += unit(kind, raw, n, k, d, &dl);
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

static pii_err placeholder(const char *label, pii_buf *out)
{
    char name[128];
    size_t k = pii_label_upper(label, name, sizeof name);
    if (k >= sizeof name)
        k = sizeof name - 1;
    pii_err e = pii_buf_append(out, "<", 1);
    if (!e)
        e = pii_buf_append(out, name, k);
    if (!e)
        e = pii_buf_append(out, ">", 1);
    return e;
}

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
    rs->rep.n = 0;
    e = rs->ops ? pii_ops_apply(rs->ops, &f->s, val, vlen, &rs->rep)
                : placeholder(f->s.label, &rs->rep);
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
static pii_err collect(void *ud, const pii_span *s, const uint8_t *val, size_t len, uint64_t c0,
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
            rl = unit(v->kind, v->raw, v->n, v->r, tmp, &dl);
            if (v->d + dl > s->start)
                break;
        }
        v->last = (fspan){*s, v->r, v->r};
        v->last.s.start = v->d;
        v->have = 1;
    }
    for (; v->r < v->n && v->d < s->end; v->r += rl, v->d += dl)
        rl = unit(v->kind, v->raw, v->n, v->r, tmp, &dl);
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

/* Redacts the value rec[a, a + n) of the given kind.  When it has a span,
 * rs->out receives rec[*copied, a) and the value's rebuilt raw form (raw
 * bytes between spans, escaped replacements in them), *copied becomes
 * a + n and *changed 1; the rebuilt value is rs->out[*vstart, out.n). */
static pii_err redact_value(pii_rec_stream *rs, int kind, const uint8_t *rec, size_t *copied,
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
        if ((e = decode(kind, raw, n, &rs->dec)))
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
    /* The value is read as a line of text — an object member's after its
     * key, "KEY: VALUE" and a LF — so that it is found as the same words
     * would be in text mode (issue 41: a name alone in a field, a phone
     * number or a password that only its key names); spans are cut to the
     * value (collect). */
    size_t flen = v->plen + v->dn + 1;
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
    if (e || (e = pii_stream_end_doc(rs->st)))
        return e;
    if (v->have && (e = flush_span(rs)))
        return e;
    if (!v->started)
        return PII_OK;
    e = pii_buf_append(&rs->out, raw + v->pos, n - v->pos);
    if (!e && kind == 'n')
        e = pii_buf_append(&rs->out, "\"", 1);
    if (!e && v->need_quotes) {
        /* An unquoted field whose replacement text needs quotes gets them. */
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
    if (e)
        return e;
    *copied = a + n;
    *vstart = v->fstart;
    *changed = 1;
    return PII_OK;
}

/* ---- JSON Lines -------------------------------------------------------- */

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
            return fail(rs, PII_EJSON, "control character in a string at byte %zu", k);
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
                if (hexval(j->p[k + h]) < 0)
                    return fail(rs, PII_EJSON, "bad \\u escape at byte %zu", k);
            k += 6;
        } else if (strchr("\"\\/bfnrt", c) && c) {
            k += 2;
        } else {
            return fail(rs, PII_EJSON, "bad escape at byte %zu", k);
        }
    }
    return fail(rs, PII_EJSON, "string not closed (it starts at byte %zu)", j->i);
}

static int seg_eq(const seg *s, const uint8_t *k, size_t n)
{
    return s->star || (s->n == n && memcmp(s->s, k, n) == 0);
}

/* Does the current key path match selector p?  A selector that names an
 * object or an array selects everything inside it (issue 42 M3: "user" on
 * {"user":{"email":...}} scanned nothing), so the path only has to start
 * with the selector's keys. */
static int j_path_hit(const pii_rec_stream *rs, const jpath *jpth)
{
    size_t s = 0, k = 0;
    for (; s < jpth->nseg; s++, k++) {
        const seg *g = &jpth->seg[s];
        if (g->star && s + 1 == jpth->nseg)
            return 1; /* final "*": this key and anything below */
        if (k == rs->nk)
            break;
        /* keys.p is still NULL when every key so far was empty */
        const uint8_t *key = rs->keys.p ? rs->keys.p + rs->koff[k] : (const uint8_t *)"";
        if (!seg_eq(g, key, rs->koff[k + 1] - rs->koff[k]))
            break;
    }
    return s == jpth->nseg && k <= rs->nk;
}

/* Does the current key path match a selector? */
static int j_selected(const pii_rec_stream *rs)
{
    for (size_t p = 0; p < rs->spec->npaths; p++)
        if (j_path_hit(rs, &rs->spec->paths[p]))
            return 1;
    return 0;
}

/* Notes which selectors match the key just entered (any kind of value). */
static void j_mark(pii_rec_stream *rs)
{
    if (rs->gathering)
        return; /* the second pass marks */
    for (size_t p = 0; p < rs->spec->npaths; p++)
        if (!rs->pmatch[p] && j_path_hit(rs, &rs->spec->paths[p]))
            rs->pmatch[p] = 1;
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

/* Writes output bytes, or holds them while a JSONL selector is still to
 * be checked (a file whose selector matches nothing writes nothing). */
static pii_err emit(pii_rec_stream *rs, const uint8_t *p, size_t n)
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
        e = redact_value(rs, 'j', j->p, &j->copied, a, end - a, &changed, &at);
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
        k += unit('j', raw, n, k, d, &dl);
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

static pii_err j_object(pii_rec_stream *rs, jp *j)
{
    pii_err e;
    j->i++;
    j_ws(j);
    if (j->i < j->n && j->p[j->i] == '}') {
        j->i++;
        return PII_OK;
    }
    for (;;) {
        j_ws(j);
        if (j->i >= j->n || j->p[j->i] != '"')
            return fail(rs, PII_EJSON, "expected a key at byte %zu", j->i);
        size_t end;
        if ((e = j_strend(rs, j, &end)))
            return e;
        if ((e = push_key(rs, j->p + j->i + 1, end - j->i - 1)))
            return e;
        if ((rs->spec->scan & PII_REC_SCAN_KEYS) && end > j->i + 1 && j_selected(rs)) {
            /* The key itself, at its own path (selected as its value is).
             * The field of its spans is the object's path and "*"; below a
             * redacted key, the field shows the replacement, never the key
             * (selectors still see the key). */
            int changed;
            size_t a = j->i + 1, at;
            if ((e = show_key(rs, (const uint8_t *)"*", 1)) ||
                (e = redact_value(rs, 'j', j->p, &j->copied, a, end - a, &changed, &at)))
                return e;
            if (changed)
                e = decode('j', rs->out.p + at, rs->out.n - at, &rs->dec);
            size_t k0 = rs->koff[rs->nk - 1], kn = rs->koff[rs->nk] - k0;
            if (!e) /* a scanned key is not empty, so keys.p is not NULL */
                e = changed ? show_key(rs, rs->dec.p, rs->dec.n)
                            : show_key(rs, rs->keys.p + k0, kn);
            if (e)
                return e;
        }
        j->i = end + 1;
        j_ws(j);
        if (j->i >= j->n || j->p[j->i] != ':')
            return fail(rs, PII_EJSON, "expected ':' at byte %zu", j->i);
        j->i++;
        if ((e = j_value(rs, j)))
            return e;
        rs->keys.n = rs->koff[--rs->nk];
        rs->kshow.n = rs->kso[rs->nk];
        j_ws(j);
        if (j->i < j->n && j->p[j->i] == ',') {
            j->i++;
            continue;
        }
        if (j->i < j->n && j->p[j->i] == '}') {
            j->i++;
            return PII_OK;
        }
        return fail(rs, PII_EJSON, "expected ',' or '}' at byte %zu", j->i);
    }
}

static pii_err j_array(pii_rec_stream *rs, jp *j)
{
    pii_err e;
    j->i++;
    j_ws(j);
    if (j->i < j->n && j->p[j->i] == ']') {
        j->i++;
        return PII_OK;
    }
    for (;;) {
        if ((e = j_value(rs, j)))
            return e;
        j_ws(j);
        if (j->i < j->n && j->p[j->i] == ',') {
            j->i++;
            continue;
        }
        if (j->i < j->n && j->p[j->i] == ']') {
            j->i++;
            return PII_OK;
        }
        return fail(rs, PII_EJSON, "expected ',' or ']' at byte %zu", j->i);
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
        return fail(rs, PII_EJSON, "bad number at byte %zu", at);
    if (j->i < j->n && j->p[j->i] == '.') {
        j->i++;
        if (!isdig(j))
            return fail(rs, PII_EJSON, "bad number at byte %zu", at);
        while (isdig(j))
            j->i++;
    }
    if (j->i < j->n && (j->p[j->i] == 'e' || j->p[j->i] == 'E')) {
        j->i++;
        if (j->i < j->n && (j->p[j->i] == '+' || j->p[j->i] == '-'))
            j->i++;
        if (!isdig(j))
            return fail(rs, PII_EJSON, "bad number at byte %zu", at);
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
        return fail(rs, PII_EJSON, "unexpected end of the record at byte %zu", j->i);
    uint8_t c = j->p[j->i];
    pii_err e;
    static const char *const lits[] = {"true", "false", "null"};
    switch (c) {
    case '{':
    case '[':
        if (++j->depth > MAX_DEPTH)
            return fail(rs, PII_EJSON, "nested deeper than 512 levels at byte %zu", j->i);
        e = c == '{' ? j_object(rs, j) : j_array(rs, j);
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
                e = redact_value(rs, 'n', j->p, &j->copied, a, j->i - a, &changed, &at);
                rs->keyctx = 0;
                if (e)
                    return e;
            }
            return PII_OK;
        }
    }
    return fail(rs, PII_EJSON, "unexpected character at byte %zu", j->i);
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
    pii_err e = redact_value(rs, 't', rec, &copied, 0, body, &changed, &at);
    if (e)
        return e;
    if (copied == 0)
        return emit(rs, rec, n);
    e = pii_buf_append(&rs->out, rec + copied, n - copied);
    return e ? e : emit(rs, rs->out.p, rs->out.n);
}

/* rec[0..n) is one line with its LF (if any); skip = BOM bytes. */
static pii_err jsonl_record(pii_rec_stream *rs, const uint8_t *rec, size_t n, size_t skip)
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
            return fail(rs, PII_EJSON, "unexpected data after the JSON value at byte %zu", j.i);
    }
    if (j.copied == 0)
        return emit(rs, rec, n);
    pii_err e = pii_buf_append(&rs->out, rec + j.copied, n - j.copied);
    if (!e)
        e = emit(rs, rs->out.p, rs->out.n);
    return e;
}

/* ---- CSV --------------------------------------------------------------- */

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
                return fail(rs, PII_EFORMAT, "quoted field not closed (it starts at byte %zu)", i);
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
            return fail(rs, PII_EFORMAT, "unexpected character after a closing quote at byte %zu",
                        i);
    } else {
        const uint8_t *c = i < body ? memchr(rec + i, rs->delim, body - i) : NULL;
        size_t j = c ? (size_t)(c - rec) : body;
        const uint8_t *cr = j > i ? memchr(rec + i, '\r', j - i) : NULL;
        if (cr)
            return fail(rs, PII_EFORMAT,
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
        if ((e = decode(f.quoted ? 'q' : 'u', rec + f.a, f.b - f.a, &rs->dec)))
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

static pii_err csv_record(pii_rec_stream *rs, const uint8_t *rec, size_t n, size_t skip)
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
        return emit(rs, rec, n);
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
            if ((e = redact_value(rs, f.quoted ? 'q' : 'u', rec, &copied, f.a, f.b - f.a, &changed,
                                  &at)))
                return e;
        }
        if (k >= body)
            break;
        k++;
    }
    if (copied == 0)
        return emit(rs, rec, n);
    e = pii_buf_append(&rs->out, rec + copied, n - copied);
    if (!e)
        e = emit(rs, rs->out.p, rs->out.n);
    return e;
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
    pii_err e =
        IS_JSON(rs->spec->fmt) ? jsonl_record(rs, rec, n, skip) : csv_record(rs, rec, n, skip);
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
    pii_err e =
        IS_JSON(rs->spec->fmt) ? jsonl_record(rs, rec, n, skip) : csv_record(rs, rec, n, skip);
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
    if (!rs || rs->spec->fmt != PII_REC_CSV || !delim_ok(c) || rs->in.n || rs->record)
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
