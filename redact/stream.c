/* stream.c — the redactor configuration and the streaming engine.
 *
 * A stream keeps one buffer holding document bytes [bbase, bbase+blen).
 * After every feed it lets each detector scan the buffer, collects the
 * spans they report into `pending`, and writes output up to the decided
 * frontier D = min over detectors of `done`:
 *   - pending spans are grouped into clusters of overlapping spans; a
 *     cluster whose end is <= D can no longer grow (every later span starts
 *     at or after D), so it is replaced by its winner's operator output;
 *   - raw bytes are written up to min(D, start of the first open cluster).
 * The buffer then drops everything before min(write position, each
 * detector's `keep`).  Memory is therefore the detectors' hold-back plus at
 * most one feed slice; PII_STREAM_MAX_HOLD caps it (fail closed beyond).
 *
 * Merge rule (documented in docs/DESIGN.md): overlapping spans unite into
 * one redaction covering their union, so no byte is ever left
 * half-redacted; a model span is first cut to the rule spans of its label
 * that it overlaps where the rule knows the value's edges (trim_cluster),
 * and the tool's own output is cut out of every span (cut_own).  The united
 * span takes the label, source, rule and score of a winner chosen by: deny
 * list first, then the longest span, then the higher score, then rule over
 * model, then the earlier start, then the label name, then the rule id
 * (none first).
 */
#include <stdlib.h>
#include <string.h>

#include "pii_fault.h"
#include "pii_redact.h"
#include "ops_internal.h"
#include "own.h"
#include "validators.h"

#define PII_MAX_DETECTORS 8
#define PII_FEED_SLICE (64u * 1024u)
#define PII_STREAM_MAX_HOLD (32u * 1024u * 1024u)
/* pii_stream_put's queue (pii_redact.h, docs/DESIGN.md "Many documents"). */
#define PII_QUEUE_DOCS ((size_t)PII_STREAM_QUEUE_DOCS)
#define PII_QUEUE_BYTES ((size_t)PII_STREAM_QUEUE_BYTES)

struct pii_redactor {
    pii_detector det[PII_MAX_DETECTORS];
    size_t ndet;
    pii_ops *ops;
    const pii_allow *allow;
    const pii_rules *allow_rules; /* rescan allowed spans (issue 42 M4) */
    char **labels;                /* owned copies */
    size_t nlabels;
    int exclude;
    int select;           /* label selection active */
    int no_wide;          /* the wide-text guard is off */
    pii_span_filter keep; /* NULL: none */
    void *keep_ud;
};

pii_redactor *pii_redactor_create(pii_err *err)
{
    pii_redactor *r = calloc(1, sizeof *r);
    if (err)
        *err = r ? PII_OK : PII_ENOMEM;
    return r;
}

static void free_labels(pii_redactor *r)
{
    for (size_t i = 0; i < r->nlabels; i++)
        free(r->labels[i]);
    free(r->labels);
    r->labels = NULL;
    r->nlabels = 0;
}

void pii_redactor_free(pii_redactor *r)
{
    if (!r)
        return;
    free_labels(r);
    free(r);
}

pii_err pii_redactor_add_detector(pii_redactor *r, pii_detector d)
{
    if (!d.cls || !d.cls->scan || !d.cls->open)
        return PII_EINVAL;
    if (r->ndet == PII_MAX_DETECTORS)
        return PII_ETOOBIG;
    r->det[r->ndet++] = d;
    return PII_OK;
}

void pii_redactor_set_ops(pii_redactor *r, pii_ops *ops)
{
    r->ops = ops;
}

void pii_redactor_set_wide_guard(pii_redactor *r, int on)
{
    r->no_wide = !on;
}

int pii_redactor_wide_guard(const pii_redactor *r)
{
    return !r->no_wide;
}

void pii_redactor_set_allow(pii_redactor *r, const pii_allow *a)
{
    r->allow = a;
}

void pii_redactor_set_span_filter(pii_redactor *r, pii_span_filter keep, void *ud)
{
    r->keep = keep;
    r->keep_ud = ud;
}

void pii_redactor_set_allow_rescan(pii_redactor *r, const pii_rules *rules)
{
    r->allow_rules = rules;
}

pii_err pii_redactor_select_labels(pii_redactor *r, const char *const *labels, size_t n,
                                   int exclude)
{
    free_labels(r);
    r->labels = calloc(n ? n : 1, sizeof *r->labels);
    if (!r->labels)
        return PII_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        r->labels[i] = strdup(labels[i]);
        if (!r->labels[i]) {
            r->nlabels = i;
            free_labels(r);
            return PII_ENOMEM;
        }
    }
    r->nlabels = n;
    r->exclude = exclude;
    r->select = 1;
    return PII_OK;
}

static int label_selected(const pii_redactor *r, const char *label)
{
    if (!r->select)
        return 1;
    for (size_t i = 0; i < r->nlabels; i++)
        if (strcmp(r->labels[i], label) == 0)
            return !r->exclude;
    return r->exclude;
}

/* ---- streams ----------------------------------------------------------- */

typedef struct det_slot {
    const pii_detector_class *cls;
    void *st;
    uint64_t done, keep;
} det_slot;

struct pii_stream {
    const pii_redactor *r;
    pii_sink sink;
    det_slot d[PII_MAX_DETECTORS + 1]; /* the redactor's, then own output's */
    size_t nd;
    pii_own *own; /* the shapes of the operators' output (own.h) */
    uint8_t *buf; /* document bytes [bbase, bbase + blen) */
    size_t blen, bcap;
    uint64_t bbase;
    uint64_t wpos;             /* next document byte to write */
    uint64_t cp_pos, cp_count; /* code points starting before cp_pos */
    pii_spanvec pending;       /* reported, not yet written; start >= wpos */
    pii_spanvec fresh;         /* scratch for one detector call */
    pii_spanvec trim;          /* scratch: one cluster after trim_cluster */
    pii_spanvec cut;           /* scratch: one cluster after cut_own */
    pii_spanvec inner;         /* scratch: the rescan of an allowed span */
    pii_buf rep;               /* operator output scratch */
    pii_err failed;            /* sticky: the stream fails closed */
    const char *input;         /* pii_stream_set_input_name, borrowed */
    pii_wide wide;             /* the wide-text guard over the input */
    int lookahead;             /* some detector has an ahead hook */
    uint64_t fed;              /* bytes of the current document fed */
    uint64_t doc;              /* the current document's number */
    /* pii_stream_put's queue, the one lookahead: qn documents put and not
     * yet computed, at qdoc/qlen[0, qn) — copies in q (PII_STREAM_END_DOC;
     * their pointers are set when they run), or documents the caller holds
     * (qheld: PII_STREAM_AHEAD) — then the open document's first qopen bytes
     * in q; live: the open document is being fed to the engine directly.
     * Computed documents (announced to the detectors together) not fed yet
     * are qdoc/qlen[ah, an): the next ones fed must be exactly those. */
    pii_buf q;
    const uint8_t **qdoc;
    size_t *qlen;
    size_t qn, qopen, ah, an;
    int qheld;
    int live;
};

pii_stream *pii_stream_create(const pii_redactor *r, const pii_sink *sink, pii_err *err)
{
    pii_err e = PII_OK;
    pii_stream *s = calloc(1, sizeof *s);
    if (!s) {
        e = PII_ENOMEM;
        goto out;
    }
    s->r = r;
    pii_wide_init(&s->wide);
    if (sink)
        s->sink = *sink;
    for (size_t i = 0; i < r->ndet; i++) {
        det_slot *d = &s->d[i];
        d->cls = r->det[i].cls;
        d->st = d->cls->open(r->det[i].shared, &e);
        if (!d->st) {
            if (e == PII_OK)
                e = PII_EINTERNAL;
            pii_stream_free(s);
            s = NULL;
            goto out;
        }
        s->nd = i + 1;
        if (d->cls->ahead)
            s->lookahead = 1;
    }
    /* the tool's own output is never redacted again (own.h) */
    if (!(s->own = pii_own_create(r->ops, &e))) {
        pii_stream_free(s);
        s = NULL;
        goto out;
    }
    {
        pii_detector od = pii_own_detector(s->own);
        det_slot *d = &s->d[s->nd];
        d->cls = od.cls;
        if (!(d->st = d->cls->open(od.shared, &e))) {
            pii_stream_free(s);
            s = NULL;
            goto out;
        }
        s->nd++;
    }
    if (s->lookahead && (!(s->qlen = malloc(PII_QUEUE_DOCS * sizeof *s->qlen)) ||
                         !(s->qdoc = malloc(PII_QUEUE_DOCS * sizeof *s->qdoc)))) {
        e = PII_ENOMEM;
        pii_stream_free(s);
        s = NULL;
        goto out;
    }
out:
    if (err)
        *err = e;
    return s;
}

void pii_stream_free(pii_stream *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->nd; i++)
        if (s->d[i].cls->close)
            s->d[i].cls->close(s->d[i].st);
    free(s->buf);
    pii_spanvec_free(&s->pending);
    pii_spanvec_free(&s->fresh);
    pii_spanvec_free(&s->trim);
    pii_spanvec_free(&s->cut);
    pii_own_free(s->own);
    pii_spanvec_free(&s->inner);
    free(s->rep.p);
    free(s->q.p);
    free(s->qlen);
    free(s->qdoc);
    free(s);
}

void pii_stream_new_input(pii_stream *s)
{
    pii_wide_init(&s->wide);
}

void pii_stream_set_input_name(pii_stream *s, const char *name)
{
    s->input = name;
}

size_t pii_stream_buffered(const pii_stream *s)
{
    return s->blen;
}

uint64_t pii_stream_undecided(const pii_stream *s)
{
    return s->bbase + s->blen - s->wpos + s->q.n;
}

/* Code points that start before document offset x (x >= cp_pos's last
 * query).  Invalid bytes count one each. */
static uint64_t cp_at(pii_stream *s, uint64_t x, int eod)
{
    if (s->cp_pos >= x)
        return s->cp_count; /* also keeps NULL + 0 out of an empty stream */
    const uint8_t *end = s->buf + s->blen;
    while (s->cp_pos < x) {
        const uint8_t *p = s->buf + (s->cp_pos - s->bbase);
        size_t k = pii_utf8_seq(p, end);
        if (k == 0) {
            if (!eod)
                return s->cp_count + 1; /* cut at the buffer end: x is inside */
            k = 1;
        }
        s->cp_pos += k;
        s->cp_count++;
    }
    return s->cp_count;
}

/* The code-point offset of a span edge inside a UTF-8 sequence that the
 * buffer end cuts depends on bytes not yet seen (the sequence may complete,
 * or turn out invalid and count byte by byte).  Before the end of the
 * document, nothing at or after such a sequence's start is written, so
 * cp_at never meets one and the offsets do not depend on the chunking. */
static uint64_t cut_tail(const pii_stream *s, uint64_t D)
{
    const uint8_t *end = s->buf + s->blen;
    size_t back = s->blen < 3 ? s->blen : 3;
    for (const uint8_t *p = end - back; p < end; p++)
        if (*p >= 0xC2 && pii_utf8_seq(p, end) == 0) {
            uint64_t at = s->bbase + (uint64_t)(p - s->buf);
            return at < D ? at : D;
        }
    return D;
}

static pii_err emit_raw(pii_stream *s, uint64_t upto)
{
    if (upto <= s->wpos)
        return PII_OK;
    if (s->sink.write) {
        pii_err e = s->sink.write(s->sink.ud, s->buf + (s->wpos - s->bbase), upto - s->wpos);
        if (e)
            return e;
    }
    s->wpos = upto;
    return PII_OK;
}

static pii_err emit_span(pii_stream *s, const pii_span *sp, int eod)
{
    pii_err e = emit_raw(s, sp->start);
    if (e)
        return e;
    const uint8_t *val = s->buf + (sp->start - s->bbase);
    size_t vlen = (size_t)(sp->end - sp->start);
    if (s->sink.span) {
        uint64_t c0 = cp_at(s, sp->start, eod);
        uint64_t c1 = cp_at(s, sp->end, eod);
        e = s->sink.span(s->sink.ud, sp, val, vlen, c0, c1);
        if (e)
            return e;
    }
    if (s->sink.write) {
        if ((e = pii_ops__output(s->r->ops, sp, val, vlen, &s->rep)))
            return e;
        if (s->rep.n) {
            e = s->sink.write(s->sink.ud, s->rep.p, s->rep.n);
            if (e)
                return e;
        }
    }
    s->wpos = sp->end;
    return PII_OK;
}

static int span_order(const void *pa, const void *pb)
{
    const pii_span *a = pa, *b = pb;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    if (a->end != b->end)
        return a->end > b->end ? -1 : 1;
    if (a->source != b->source)
        return a->source > b->source ? -1 : 1;
    return strcmp(a->label, b->label);
}

/* Non-zero if span b beats span a as the face of a merged cluster. */
static int beats(const pii_span *a, const pii_span *b)
{
    int da = a->source == PII_SRC_DENY, db = b->source == PII_SRC_DENY;
    if (da != db)
        return db;
    uint64_t la = a->end - a->start, lb = b->end - b->start;
    if (la != lb)
        return lb > la;
    if (a->score != b->score)
        return b->score > a->score;
    if (a->source != b->source)
        return b->source == PII_SRC_RULE;
    if (a->start != b->start)
        return b->start < a->start;
    int c = strcmp(b->label, a->label);
    if (c)
        return c < 0;
    /* the same span from two rules (a custom rule and a built-in one): the
     * smaller rule id, whatever order the detectors reported them in */
    if (!a->rule || !b->rule)
        return !b->rule && a->rule;
    return strcmp(b->rule, a->rule) < 0;
}

/* The values inside an allowed span sp (pii_redactor_set_allow_rescan):
 * the rules again from its second byte.  The rescan sees no byte before
 * where it starts, so a match there after a word byte, and a match of sp's
 * own label that ends where sp ends, are sp's own value cut short, not
 * another one ("ob@example.com" in an allowed "bob@example.com"); such a
 * match, and one that is allowed itself, is left and searched inside from
 * its second byte.  Every other match is redacted.  Each rescan starts
 * after the one before, so this ends within len scans of sp's bytes. */
static int word_byte(uint8_t c)
{
    return c >= 0x80 || c == '_' || (c >= '0' && c <= '9') ||
           ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

static pii_err allow_inner(pii_stream *s, const pii_span *sp)
{
    const uint8_t *v = s->buf + (sp->start - s->bbase);
    size_t len = (size_t)(sp->end - sp->start), pos = 1;
    pii_err e;
    while (pos < len) {
        pii_spanvec_clear(&s->inner);
        if ((e = pii_rules_scan_all(s->r->allow_rules, v + pos, len - pos, &s->inner)))
            return e;
        size_t next = len;
        for (size_t i = 0; i < s->inner.n; i++) {
            pii_span t = s->inner.v[i];
            size_t a = pos + (size_t)t.start, b = pos + (size_t)t.end;
            if ((a == pos && word_byte(v[pos - 1])) ||
                (b == len && strcmp(t.label, sp->label) == 0) ||
                pii_allow_match(s->r->allow, v + a, b - a)) {
                next = a + 1; /* sp's own value cut short, or allowed: look inside */
                break;
            }
            if (!label_selected(s->r, t.label))
                continue;
            t.start = sp->start + a;
            t.end = sp->start + b;
            if (s->r->keep && !s->r->keep(s->r->keep_ud, &t, s->input))
                continue;
            if ((e = pii_spanvec_push(&s->pending, &t)))
                return e;
        }
        pos = next;
    }
    return PII_OK;
}

/* ---- exact boundaries (issue 41) ---------------------------------------
 * A model span M of an opaque label (secret, account number, phone, e-mail,
 * URL) that overlaps rule spans of its own label (a validated value whose
 * edges the rule knows) is cut to them: what M holds besides
 * the rule spans ("pieces") is dropped when every piece is separated from
 * the rule span it touches by a boundary byte (a blank or =:,;"'<>()[]{}),
 * and each token of a dropped piece that is itself a value (a secret-like
 * token, or for other labels 6 digits or more) stays a span of M's label.
 * A piece glued to a rule span (no boundary between them) may be the same
 * value: then M is kept whole and the cluster unites as before.  So
 * "aws_access_key_id=AKIA... region=eu-west-1" keeps " region=eu-west-1"
 * and the key name between two keys survives, while no value M found is
 * lost. */
static int boundary_byte(uint8_t c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '=' || c == ':' || c == ',' ||
           c == ';' || c == '"' || c == '\'' || c == '<' || c == '>' || c == '(' || c == ')' ||
           c == '[' || c == ']' || c == '{' || c == '}';
}

static int piece_value(const char *label, const uint8_t *p, size_t n)
{
    if (!strcmp(label, "secret"))
        return pii_val_secret_token(p, n);
    size_t d = 0;
    for (size_t i = 0; i < n; i++)
        d += p[i] >= '0' && p[i] <= '9';
    return d >= 6 || memchr(p, '@', n) != NULL;
}

/* Appends the value tokens of the piece [a, b) of m to out. */
static pii_err piece_tokens(const pii_stream *s, const pii_span *m, uint64_t a, uint64_t b,
                            pii_spanvec *out)
{
    const uint8_t *p = s->buf + (a - s->bbase);
    size_t n = (size_t)(b - a), i = 0;
    while (i < n) {
        while (i < n && boundary_byte(p[i]))
            i++;
        size_t t = i;
        while (i < n && !boundary_byte(p[i]))
            i++;
        if (i > t && piece_value(m->label, p + t, i - t)) {
            pii_span sp = *m;
            sp.start = a + t;
            sp.end = a + i;
            pii_err e = pii_spanvec_push(out, &sp);
            if (e)
                return e;
        }
    }
    return PII_OK;
}

/* Non-zero when model span m, cut by the rule spans of its label in v[0,
 * n), leaves only pieces separated from them by boundary bytes. */
static int cuttable(const pii_stream *s, const pii_span *m, const pii_span *v, size_t n)
{
    /* only opaque values have edges a rule knows: a street rule's span is not
     * the whole address ("Flat 2, 14 Elm Grove"), nor a name's or a date's */
    if (!strcmp(m->label, "private_person") || !strcmp(m->label, "private_address") ||
        !strcmp(m->label, "private_date"))
        return 0;
    int any = 0;
    for (size_t k = 0; k < n; k++) {
        const pii_span *r = &v[k];
        if (r->source != PII_SRC_RULE || strcmp(r->label, m->label) != 0 || r->end <= m->start ||
            r->start >= m->end)
            continue;
        any = 1;
        if (r->start > m->start && !boundary_byte(s->buf[r->start - 1 - s->bbase]))
            return 0; /* glued on the left */
        if (r->end < m->end && !boundary_byte(s->buf[r->end - s->bbase]))
            return 0; /* glued on the right */
    }
    return any;
}

/* The cluster v[0, n) with its model spans cut to the rule spans (above),
 * into s->trim, sorted. */
static pii_err trim_cluster(pii_stream *s, const pii_span *v, size_t n)
{
    pii_spanvec_clear(&s->trim);
    pii_err e = PII_OK;
    for (size_t k = 0; k < n && !e; k++) {
        const pii_span *m = &v[k];
        if (m->source != PII_SRC_MODEL || !cuttable(s, m, v, n)) {
            e = pii_spanvec_push(&s->trim, m);
            continue;
        }
        /* the pieces of m outside every rule span of its label, in order */
        uint64_t at = m->start;
        for (size_t r = 0; r < n && !e; r++) {
            const pii_span *x = &v[r];
            if (x->source != PII_SRC_RULE || strcmp(x->label, m->label) != 0 ||
                x->end <= m->start || x->start >= m->end)
                continue;
            if (x->start > at)
                e = piece_tokens(s, m, at, x->start, &s->trim);
            if (x->end > at)
                at = x->end;
        }
        if (!e && at < m->end)
            e = piece_tokens(s, m, at, m->end, &s->trim);
    }
    if (!e && s->trim.n > 1)
        qsort(s->trim.v, s->trim.n, sizeof *s->trim.v, span_order);
    return e;
}

static int blank(uint8_t c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The cluster v[0, n) without the tool's own output: each span less the
 * own regions (pii_own_label) it overlaps.  A piece with no letter or
 * digit is dropped; one glued to own output stays when it holds three or
 * more; one apart from it stays as its value tokens (piece_tokens), or
 * whole for a name, address or date.  Into s->trim,
 * sorted; own regions themselves are never written as redactions. */
static pii_err cut_own(pii_stream *s, const pii_span *v, size_t n)
{
    pii_spanvec_clear(&s->trim);
    for (size_t k = 0; k < n; k++) {
        const pii_span *m = &v[k];
        if (m->label == pii_own_label)
            continue;
        uint64_t at = m->start;
        for (size_t r = 0; r <= n; r++) {
            uint64_t ps = at, pe = m->end;
            if (r < n) {
                const pii_span *x = &v[r];
                if (x->label != pii_own_label || x->end <= at || x->start >= m->end)
                    continue;
                pe = x->start > at ? x->start : at;
                at = x->end;
            } else {
                at = m->end;
            }
            /* a piece keeps a span when it holds a letter or digit; one or
             * two glued to own output ("<PRIVATE_PERSON>'s") do not */
            size_t alnum = 0;
            for (uint64_t b = ps; b < pe && alnum < 3; b++) {
                uint8_t c = s->buf[b - s->bbase];
                alnum +=
                    c >= 0x80 || (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
            }
            int glued = pe > ps && ((ps != m->start && !blank(s->buf[ps - s->bbase])) ||
                                    (pe != m->end && !blank(s->buf[pe - 1 - s->bbase])));
            int words = !strcmp(m->label, "private_person") ||
                        !strcmp(m->label, "private_address") || !strcmp(m->label, "private_date");
            if (alnum && !glued && !words) {
                /* apart from own output: only what is itself a value */
                pii_err e = piece_tokens(s, m, ps, pe, &s->trim);
                if (e)
                    return e;
            } else if (alnum >= 3 || (alnum && !glued)) {
                pii_span sp = *m;
                sp.start = ps;
                sp.end = pe;
                pii_err e = pii_spanvec_push(&s->trim, &sp);
                if (e)
                    return e;
            }
            if (at >= m->end)
                break;
        }
    }
    if (s->trim.n > 1)
        qsort(s->trim.v, s->trim.n, sizeof *s->trim.v, span_order);
    return PII_OK;
}

/* Writes the clusters of the sorted spans v[0, n), each as its winner
 * (beats) over the union. */
static pii_err emit_clusters(pii_stream *s, const pii_span *v, size_t n, int eod)
{
    size_t i = 0;
    while (i < n) {
        pii_span face = v[i];
        uint64_t cend = face.end;
        size_t j = i + 1;
        for (; j < n && v[j].start < cend; j++) {
            if (v[j].end > cend)
                cend = v[j].end;
            if (beats(&face, &v[j]))
                face = v[j];
        }
        face.start = v[i].start;
        face.end = cend;
        pii_err e = emit_span(s, &face, eod);
        if (e)
            return e;
        i = j;
    }
    return PII_OK;
}

static pii_err accept_spans(pii_stream *s, uint64_t end)
{
    for (size_t i = 0; i < s->fresh.n; i++) {
        const pii_span *sp = &s->fresh.v[i];
        if (sp->start >= sp->end || sp->start < s->wpos || sp->end > end || !sp->label)
            return PII_EINTERNAL; /* a detector broke its contract */
        if (sp->label != pii_own_label && !label_selected(s->r, sp->label))
            continue;
        if (sp->label != pii_own_label && s->r->keep && !s->r->keep(s->r->keep_ud, sp, s->input))
            continue;
        if (sp->label != pii_own_label && s->r->allow &&
            pii_allow_match(s->r->allow, s->buf + (sp->start - s->bbase), sp->end - sp->start)) {
            pii_err e = s->r->allow_rules ? allow_inner(s, sp) : PII_OK;
            if (e)
                return e;
            continue;
        }
        pii_err e = pii_spanvec_push(&s->pending, sp);
        if (e)
            return e;
    }
    return PII_OK;
}

static pii_err process(pii_stream *s, int eod)
{
    uint64_t end = s->bbase + s->blen;
    uint64_t D = end;
    pii_err e;

    for (size_t i = 0; i < s->nd; i++) {
        det_slot *d = &s->d[i];
        uint64_t done = d->done, keep = d->keep;
        pii_spanvec_clear(&s->fresh);
        if (pii_fault_hit(PII_FAULT_SCAN))
            return PII_EINJECTED;
        e = d->cls->scan(d->st, s->buf, s->blen, s->bbase, eod, &s->fresh, &done, &keep);
        if (e)
            return e;
        if (done < d->done || done > end || keep > done || keep < s->bbase || (eod && done != end))
            return PII_EINTERNAL;
        d->done = done;
        d->keep = keep;
        if ((e = accept_spans(s, end)))
            return e;
        if (done < D)
            D = done;
    }
    if (!eod && s->sink.span)
        D = cut_tail(s, D);

    /* Write every cluster that can no longer grow, then raw bytes. */
    pii_spanvec *pv = &s->pending;
    if (pv->n > 1)
        qsort(pv->v, pv->n, sizeof *pv->v, span_order);
    size_t i = 0;
    while (i < pv->n) {
        uint64_t cend = pv->v[i].end;
        size_t j = i + 1;
        for (; j < pv->n && pv->v[j].start < cend; j++)
            if (pv->v[j].end > cend)
                cend = pv->v[j].end;
        if (cend > D)
            break;
        /* own output cut out (own.h); with rule and model spans, the
         * rules' edges (trim_cluster) */
        int mixed = 0;
        for (size_t k = i; k < j; k++)
            mixed |= pv->v[k].label == pii_own_label    ? 4
                     : pv->v[k].source == PII_SRC_RULE  ? 1
                     : pv->v[k].source == PII_SRC_MODEL ? 2
                                                        : 0;
        const pii_span *cv = pv->v + i;
        size_t cn = j - i;
        if (mixed & 4) {
            if ((e = cut_own(s, cv, cn)))
                return e;
            cv = s->trim.v;
            cn = s->trim.n;
            if ((mixed & 3) == 3) { /* trim_cluster reads its input from s->cut */
                pii_spanvec t = s->cut;
                s->cut = s->trim;
                s->trim = t;
                cv = s->cut.v;
            }
        }
        if ((mixed & 3) == 3) {
            if ((e = trim_cluster(s, cv, cn)))
                return e;
            cv = s->trim.v;
            cn = s->trim.n;
        }
        if ((e = emit_clusters(s, cv, cn, eod)))
            return e;
        i = j;
    }
    uint64_t limit = i < pv->n && pv->v[i].start < D ? pv->v[i].start : D;
    if (i) {
        memmove(pv->v, pv->v + i, (pv->n - i) * sizeof *pv->v);
        pv->n -= i;
    }
    if ((e = emit_raw(s, limit)))
        return e;
    if (s->sink.span)
        cp_at(s, s->wpos, eod); /* keep the code-point walker near wpos */

    /* Drop what nobody needs any more. */
    uint64_t lo = s->wpos;
    for (size_t k = 0; k < s->nd; k++)
        if (s->d[k].keep < lo)
            lo = s->d[k].keep;
    if (s->sink.span && s->cp_pos < lo)
        lo = s->cp_pos;
    if (lo > s->bbase && s->blen) {
        size_t drop = (size_t)(lo - s->bbase);
        memmove(s->buf, s->buf + drop, s->blen - drop);
        s->blen -= drop;
        s->bbase = lo;
    }
    if (s->blen > PII_STREAM_MAX_HOLD)
        return PII_ETOOBIG;
    return PII_OK;
}

static pii_err append(pii_stream *s, const uint8_t *p, size_t n)
{
    if (n == 0)
        return PII_OK;
    if (s->blen + n > s->bcap) {
        size_t cap = s->bcap ? s->bcap : 4096;
        while (cap < s->blen + n)
            cap *= 2;
        uint8_t *b = realloc(s->buf, cap);
        if (!b)
            return PII_ENOMEM;
        s->buf = b;
        s->bcap = cap;
    }
    memcpy(s->buf + s->blen, p, n);
    s->blen += n;
    return PII_OK;
}

/* Withdraws every announcement (the caller fed another document). */
static pii_err withdraw(pii_stream *s)
{
    for (size_t i = 0; i < s->nd; i++)
        if (s->d[i].cls->ahead) {
            pii_err e = s->d[i].cls->ahead(s->d[i].st, NULL, NULL, 0);
            if (e)
                return e;
        }
    s->ah = s->an = 0;
    return PII_OK;
}

/* Bytes of the current document, checked against its announcement. */
static pii_err feed_doc(pii_stream *s, const uint8_t *p, size_t len)
{
    if (len == 0)
        return PII_OK;
    if (s->an) {
        const uint8_t *a = s->qdoc[s->ah];
        size_t alen = s->qlen[s->ah];
        if (s->fed == 0 && (p != a || len > alen)) {
            pii_err e = withdraw(s); /* not the document announced */
            if (e)
                return e;
        } else if (p != a + s->fed || len > alen - s->fed) {
            return PII_EINVAL; /* began as announced, went on elsewhere */
        }
    }
    s->fed += len;
    while (len) {
        size_t n = len < PII_FEED_SLICE ? len : PII_FEED_SLICE;
        pii_err e = s->r->no_wide ? PII_OK : pii_wide_feed(&s->wide, p, n);
        if (!e)
            e = append(s, p, n);
        if (!e)
            e = process(s, 0);
        if (e)
            return e;
        p += n;
        len -= n;
    }
    return PII_OK;
}

static pii_err end_doc(pii_stream *s)
{
    pii_err e;
    if (s->an) {
        if (s->fed != s->qlen[s->ah]) {
            if (s->fed)
                return PII_EINVAL; /* shorter than announced */
            if ((e = withdraw(s)))
                return e;
        } else if (--s->an == 0) {
            s->ah = 0;
        } else {
            s->ah++;
        }
    }
    e = process(s, 1);
    if (!e && s->pending.n)
        e = PII_EINTERNAL;
    if (!e && s->sink.end_doc)
        e = s->sink.end_doc(s->sink.ud);
    if (e)
        return e;
    for (size_t i = 0; i < s->nd; i++) {
        if (s->d[i].cls->reset)
            s->d[i].cls->reset(s->d[i].st);
        s->d[i].done = s->d[i].keep = 0;
    }
    s->blen = 0;
    s->bbase = s->wpos = s->cp_pos = s->cp_count = 0;
    s->fed = 0;
    s->doc++;
    return PII_OK;
}

/* Computes the queued documents qdoc/qlen[0, qn) together (each detector's
 * lookahead); they become the ones to feed next, [ah, an).  What an earlier
 * announcement left unfed is withdrawn first. */
static pii_err announce(pii_stream *s)
{
    pii_err e = s->an ? withdraw(s) : PII_OK;
    size_t n = s->qn;
    s->qn = 0;
    s->qheld = 0;
    for (size_t i = 0; !e && i < s->nd; i++)
        if (s->d[i].cls->ahead)
            e = s->d[i].cls->ahead(s->d[i].st, s->qdoc, s->qlen, n);
    if (e)
        return e;
    s->ah = 0;
    s->an = n;
    return PII_OK;
}

/* Redacts the queued copies (announced together) and feeds the open
 * document's bytes so far, which then goes on live. */
static pii_err drain(pii_stream *s)
{
    pii_err e = PII_OK;
    size_t n = s->qn;
    if (n) {
        size_t off = 0;
        for (size_t i = 0; i < n; i++) {
            s->qdoc[i] = s->q.p + off;
            off += s->qlen[i];
        }
        if ((e = announce(s)))
            return e;
        for (size_t i = 0; i < n; i++)
            if ((e = feed_doc(s, s->qdoc[i], s->qlen[i])) || (e = end_doc(s)))
                return e;
    }
    if (s->qopen) {
        e = feed_doc(s, s->q.p + s->q.n - s->qopen, s->qopen);
        s->live = 1;
    }
    s->q.n = 0;
    s->qopen = 0;
    return e;
}

/* Runs what the queue holds: copies are redacted and written; documents
 * the caller holds are computed, to be fed next. */
static pii_err settle(pii_stream *s)
{
    if (s->qheld)
        return s->qn ? announce(s) : PII_OK;
    return s->qn || s->q.n ? drain(s) : PII_OK;
}

/* PII_STREAM_AHEAD: queues a document the caller holds. */
static pii_err put_ahead(pii_stream *s, const uint8_t *p, size_t len)
{
    pii_err e;
    if (s->fed || s->live || s->qopen || (s->qheld && s->qn == PII_QUEUE_DOCS))
        return PII_EINVAL;                    /* between documents only; at most a queue's worth */
    if (!s->qheld && s->qn && (e = drain(s))) /* copies put before it go first */
        return s->failed = e;
    if (s->an && (e = withdraw(s))) /* the last announcement's unfed documents */
        return s->failed = e;
    s->qheld = 1;
    s->qdoc[s->qn] = p;
    s->qlen[s->qn++] = len;
    return PII_OK;
}

pii_err pii_stream_put(pii_stream *s, const void *data, size_t len, pii_stream_directive how)
{
    const uint8_t *p = data;
    pii_err e = PII_OK;
    if (s->failed)
        return s->failed;
    if (how == PII_STREAM_AHEAD) {
        if (len && !p)
            return PII_EINVAL;
        return s->lookahead ? put_ahead(s, p, len) : PII_OK;
    }
    if (how != PII_STREAM_CONTINUE && how != PII_STREAM_END_DOC && how != PII_STREAM_FLUSH)
        return PII_EINVAL;
    if (s->qheld && (e = announce(s)))
        return s->failed = e;
    if (!s->lookahead || s->live) { /* straight through */
        if (len)
            e = feed_doc(s, p, len);
        if (!e && how == PII_STREAM_END_DOC) {
            e = end_doc(s);
            s->live = 0;
        }
        return e ? (s->failed = e) : PII_OK;
    }
    if (s->qopen + len > PII_QUEUE_BYTES) { /* a long document: live from here */
        if ((e = drain(s)) || (len && (e = feed_doc(s, p, len))))
            return s->failed = e;
        s->live = 1;
        if (how == PII_STREAM_END_DOC) {
            s->live = 0;
            if ((e = end_doc(s)))
                return s->failed = e;
        }
        return PII_OK;
    }
    if (s->an && (len || how == PII_STREAM_END_DOC) && (e = withdraw(s)))
        return s->failed = e; /* a copy comes before the computed documents */
    if (len && (e = pii_buf_append(&s->q, p, len)))
        return s->failed = e;
    s->qopen += len;
    if (how == PII_STREAM_END_DOC) {
        s->qlen[s->qn++] = s->qopen;
        s->qopen = 0;
    }
    if (how == PII_STREAM_FLUSH || s->qn == PII_QUEUE_DOCS || s->q.n >= PII_QUEUE_BYTES)
        if ((e = drain(s)))
            return s->failed = e;
    return PII_OK;
}

uint64_t pii_stream_doc(const pii_stream *s)
{
    return s->doc;
}

int pii_stream_lookahead(const pii_stream *s)
{
    return s->lookahead;
}

pii_err pii_stream_feed(pii_stream *s, const void *data, size_t len)
{
    if (s->failed)
        return s->failed;
    pii_err e = settle(s);
    if (!e)
        e = feed_doc(s, data, len);
    return e ? (s->failed = e) : PII_OK;
}

pii_err pii_stream_end_doc(pii_stream *s)
{
    if (s->failed)
        return s->failed;
    pii_err e = settle(s);
    if (!e)
        e = end_doc(s);
    s->live = 0;
    return e ? (s->failed = e) : PII_OK;
}
