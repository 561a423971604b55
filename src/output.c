/* output.c — writes redacted text, json objects and jsonl spans.
 *
 * text:  redacted bytes as they come; flushed per document in --lines mode.
 * json:  one object per document, {"redacted_text","spans","summary"}; the
 *        text is escaped progressively (a UTF-8 character cut between two
 *        writes is carried over); invalid UTF-8 becomes U+FFFD in JSON.
 *        The spans are held until the document ends: at most
 *        PII_OUT_JSON_MAX_SPANS of them and PII_OUT_JSON_MAX_VALUES bytes of
 *        --show-values values per document (about 150 MB), beyond which the
 *        document fails closed with PII_ETOOBIG (use jsonl, which streams).
 * jsonl: one span object per line, written as soon as the span is final.
 * Original values appear only with --show-values. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "output.h"
#include "pii_fault.h"
#include "pii_json_write.h"

#define PII_OUT_JSON_MAX_SPANS 1000000u
#define PII_OUT_JSON_MAX_VALUES (64u << 20)

typedef struct jspan {
    pii_span s;
    uint64_t start, end; /* in the chosen unit */
    uint8_t *val;
    size_t vlen;
} jspan;

typedef struct count {
    const char *label;
    uint64_t n;
} count;

struct pii_out {
    FILE *fp;
    const pii_opts *o;
    const char *file;
    uint64_t doc; /* documents finished (line number - 1 in --lines mode) */
    uint64_t found;
    int open;         /* json: redacted_text string is open */
    uint8_t carry[4]; /* json: incomplete UTF-8 sequence */
    size_t ncarry;
    uint64_t record;   /* batch records mode: 1-based record, 0 if none */
    const char *field; /* and the field being redacted */
    jspan *spans;
    size_t nspans, capspans;
    size_t valbytes; /* --show-values bytes held */
    int flush_lines; /* --lines: flush each line (not file to file) */
    int out_regular; /* the output is a regular file */
    count *counts;
    size_t ncounts, capcounts;
    const pii_pseudo *map; /* --map-out: json adds "mapping" */
};

static pii_err wr(pii_out *w, const void *p, size_t n)
{
    if (pii_fault_hit(PII_FAULT_WRITE)) {
        errno = EIO;
        return PII_EWRITE;
    }
    if (n && fwrite(p, 1, n, w->fp) != n)
        return PII_EWRITE;
    return PII_OK;
}

static pii_err ws(pii_out *w, const char *s)
{
    return wr(w, s, strlen(s));
}

static pii_err put_w(void *ud, const char *p, size_t n)
{
    return wr(ud, p, n);
}

/* Escapes [p, p+n) into a JSON string body (pii_json_write.h).  With
 * `final` == 0 a valid prefix at the end is returned in *rest for the next
 * call. */
static pii_err json_escape(pii_out *w, const uint8_t *p, size_t n, int final, size_t *rest)
{
    return pii_json_escape(p, n, PII_JSONW_SHORT | PII_JSONW_DEL, final, rest, put_w, w);
}

static pii_err json_str(pii_out *w, const uint8_t *p, size_t n)
{
    pii_err e = ws(w, "\"");
    if (!e)
        e = json_escape(w, p, n, 1, NULL);
    if (!e)
        e = ws(w, "\"");
    return e;
}

static pii_err open_text(pii_out *w)
{
    if (w->open)
        return PII_OK;
    w->open = 1;
    return ws(w, "{\"redacted_text\":\"");
}

static pii_err on_write(void *ud, const uint8_t *p, size_t n)
{
    pii_out *w = ud;
    if (w->o->format == PII_FMT_TEXT)
        return wr(w, p, n);
    pii_err e = open_text(w);
    if (e)
        return e;
    /* Complete a carried-over sequence byte by byte. */
    while (w->ncarry && n) {
        w->carry[w->ncarry++] = *p++;
        n--;
        size_t k = pii_utf8_seq(w->carry, w->carry + w->ncarry);
        if (k) {
            size_t rest;
            if ((e = json_escape(w, w->carry, w->ncarry, 0, &rest)))
                return e;
            memmove(w->carry, w->carry + w->ncarry - rest, rest);
            w->ncarry = rest;
            if (rest)
                continue;
        }
    }
    if (!n)
        return PII_OK;
    size_t rest;
    if ((e = json_escape(w, p, n, 0, &rest)))
        return e;
    memcpy(w->carry, p + n - rest, rest);
    w->ncarry = rest;
    return PII_OK;
}

static pii_err span_obj(pii_out *w, const pii_span *s, uint64_t start, uint64_t end,
                        const uint8_t *val, size_t vlen)
{
    char num[96];
    pii_err e = PII_OK;
    if (w->o->format == PII_FMT_JSONL) {
        e = ws(w, "{");
        if (!e && w->file) {
            e = ws(w, "\"file\":");
            if (!e)
                e = json_str(w, (const uint8_t *)w->file, strlen(w->file));
            if (!e)
                e = ws(w, ",");
        }
        if (!e && w->record) {
            snprintf(num, sizeof num, "\"record\":%llu,\"field\":", (unsigned long long)w->record);
            e = ws(w, num);
            if (!e)
                e = json_str(w, (const uint8_t *)w->field, strlen(w->field));
            if (!e)
                e = ws(w, ",");
        }
        if (!e && w->o->lines) {
            snprintf(num, sizeof num, "\"line\":%llu,", (unsigned long long)w->doc + 1);
            e = ws(w, num);
        }
        if (!e)
            e = ws(w, "\"label\":");
    } else {
        e = ws(w, "{\"label\":");
    }
    if (!e)
        e = json_str(w, (const uint8_t *)s->label, strlen(s->label));
    if (!e) {
        snprintf(num, sizeof num, ",\"start\":%llu,\"end\":%llu,\"source\":\"%s\",\"rule\":",
                 (unsigned long long)start, (unsigned long long)end, pii_source_name(s->source));
        e = ws(w, num);
    }
    if (!e)
        e = s->rule ? json_str(w, (const uint8_t *)s->rule, strlen(s->rule)) : ws(w, "null");
    if (!e) {
        snprintf(num, sizeof num, ",\"score\":%.4g", (double)s->score);
        e = ws(w, num);
    }
    if (!e && val) {
        e = ws(w, ",\"text\":");
        if (!e)
            e = json_str(w, val, vlen);
    }
    if (!e)
        e = ws(w, "}");
    return e;
}

static pii_err on_span(void *ud, const pii_span *s, const uint8_t *value, size_t len,
                       uint64_t cp_start, uint64_t cp_end)
{
    pii_out *w = ud;
    w->found++;
    if (w->o->check)
        return PII_OK;
    uint64_t a = w->o->offsets_cp ? cp_start : s->start;
    uint64_t b = w->o->offsets_cp ? cp_end : s->end;
    if (w->o->format == PII_FMT_JSONL) {
        pii_err e = span_obj(w, s, a, b, w->o->show_values ? value : NULL, len);
        if (!e)
            e = ws(w, "\n");
        return e;
    }
    if (w->o->format != PII_FMT_JSON)
        return PII_OK;
    if (w->nspans >= PII_OUT_JSON_MAX_SPANS ||
        (w->o->show_values && w->valbytes + len > PII_OUT_JSON_MAX_VALUES))
        return PII_ETOOBIG; /* fail closed; jsonl streams instead */
    if (w->nspans == w->capspans) {
        size_t cap = w->capspans ? 2 * w->capspans : 16;
        jspan *v = realloc(w->spans, cap * sizeof *v);
        if (!v)
            return PII_ENOMEM;
        w->spans = v;
        w->capspans = cap;
    }
    jspan *j = &w->spans[w->nspans];
    j->s = *s;
    j->start = a;
    j->end = b;
    j->val = NULL;
    j->vlen = 0;
    if (w->o->show_values) {
        if (!(j->val = malloc(len ? len : 1)))
            return PII_ENOMEM;
        memcpy(j->val, value, len);
        j->vlen = len;
        w->valbytes += len;
    }
    w->nspans++;
    size_t i = 0;
    while (i < w->ncounts && strcmp(w->counts[i].label, s->label) != 0)
        i++;
    if (i == w->ncounts) {
        if (w->ncounts == w->capcounts) {
            size_t cap = w->capcounts ? 2 * w->capcounts : 8;
            count *v = realloc(w->counts, cap * sizeof *v);
            if (!v)
                return PII_ENOMEM;
            w->counts = v;
            w->capcounts = cap;
        }
        w->counts[w->ncounts++] = (count){s->label, 0};
    }
    w->counts[i].n++;
    return PII_OK;
}

static pii_err on_end(void *ud)
{
    pii_out *w = ud;
    pii_err e = PII_OK;
    if (w->o->format == PII_FMT_JSON && !w->o->check) {
        e = open_text(w);
        if (!e && w->ncarry)
            e = json_escape(w, w->carry, w->ncarry, 1, NULL);
        w->ncarry = 0;
        if (!e && w->file) {
            e = ws(w, "\",\"file\":");
            if (!e)
                e = json_str(w, (const uint8_t *)w->file, strlen(w->file));
            if (!e)
                e = ws(w, ",\"spans\":[");
        } else if (!e) {
            e = ws(w, "\",\"spans\":[");
        }
        for (size_t i = 0; !e && i < w->nspans; i++) {
            jspan *j = &w->spans[i];
            if (i)
                e = ws(w, ",");
            if (!e)
                e = span_obj(w, &j->s, j->start, j->end, j->val, j->vlen);
        }
        if (!e)
            e = ws(w, "],\"summary\":{");
        for (size_t i = 0; !e && i < w->ncounts; i++) {
            char num[32];
            if (i)
                e = ws(w, ",");
            if (!e)
                e = json_str(w, (const uint8_t *)w->counts[i].label, strlen(w->counts[i].label));
            snprintf(num, sizeof num, ":%llu", (unsigned long long)w->counts[i].n);
            if (!e)
                e = ws(w, num);
        }
        if (!e && w->map) {
            pii_buf mb = {0};
            e = ws(w, "},\"mapping\":");
            if (!e)
                e = pii_pseudo_to_json(w->map, &mb);
            if (!e)
                e = wr(w, mb.p, mb.n);
            if (mb.p)
                memset(mb.p, 0, mb.n);
            pii_buf_free(&mb);
            if (!e)
                e = ws(w, "}\n");
        } else if (!e) {
            e = ws(w, "}}\n");
        }
        for (size_t i = 0; i < w->nspans; i++)
            free(w->spans[i].val);
        w->nspans = 0;
        w->valbytes = 0;
        w->ncounts = 0;
        w->open = 0;
    }
    w->doc++;
    if (!e && w->o->lines && w->flush_lines && fflush(w->fp) != 0)
        e = PII_EWRITE;
    return e;
}

void pii_out_set_map(pii_out *w, const pii_pseudo *m)
{
    w->map = m;
}

pii_out *pii_out_create(FILE *fp, const pii_opts *o)
{
    pii_out *w = calloc(1, sizeof *w);
    if (w) {
        w->fp = fp;
        w->o = o;
        /* --lines flushes each line for whoever follows the output line by
         * line; from a regular file into a regular file nobody waits for a
         * line and that is one write(2) per line (10 M lines: 13.4 s
         * instead of 1.9 s), so stdio buffers (pii_out_set_input). */
        struct stat st;
        w->out_regular = fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode);
        w->flush_lines = 1;
    }
    return w;
}

void pii_out_free(pii_out *w)
{
    if (!w)
        return;
    for (size_t i = 0; i < w->nspans; i++)
        free(w->spans[i].val);
    free(w->spans);
    free(w->counts);
    free(w);
}

void pii_out_set_record(pii_out *w, uint64_t record, const char *field)
{
    w->record = record;
    w->field = field ? field : "";
}

void pii_out_set_input(pii_out *w, int input_regular)
{
    w->flush_lines = !(w->out_regular && input_regular);
}

void pii_out_set_file(pii_out *w, const char *name)
{
    w->file = name;
    w->doc = 0;
}

pii_sink pii_out_sink(pii_out *w)
{
    pii_sink s = {NULL, on_span, on_end, w};
    if (!w->o->check && w->o->format != PII_FMT_JSONL)
        s.write = on_write;
    return s;
}

uint64_t pii_out_found(const pii_out *w)
{
    return w->found;
}
