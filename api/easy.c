/* easy.c — the easy layer of libpiiredact (api/include/piiredact.h).
 *
 * A handle is the redactor pii_redactor_build (api/build.c) makes from a
 * pii_config — the one assembly the command (src/pipeline.c) uses too.  A
 * pii_easy_options or an option string is turned into a pii_config first.
 * Where the command prints a message and picks an exit status, this returns
 * a pii_err and writes the message into the caller's buffer. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PII_STATIC_LINKING_ONLY /* the full layers, linked statically */
#include "piiredact.h"

#ifndef PII_VERSION
#define PII_VERSION "0.0.0"
#endif

struct pii_easy {
    pii_build b;
};

struct pii_easy_stream {
    pii_stream *st;
    pii_easy_write_fn write;
    void *ud;
};

const char *pii_version(void)
{
    return PII_VERSION;
}

void pii_easy_options_init(pii_easy_options *o)
{
    memset(o, 0, sizeof *o);
    o->size = sizeof *o;
    o->use_model = 1;
    o->use_rules = 1;
    o->isa = -1;
}

void pii_free(void *p)
{
    free(p);
}

static void *fail(pii_err e, pii_err *err, char *msg, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Sets *err (err may be NULL); returns NULL for the caller. */
static void *none(pii_err e, pii_err *err)
{
    if (err)
        *err = e;
    return NULL;
}

/* Sets *err and the message (printf-style); returns NULL for the caller. */
static void *fail(pii_err e, pii_err *err, char *msg, size_t cap, const char *fmt, ...)
{
    if (err)
        *err = e;
    if (msg && cap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, cap, fmt, ap);
        va_end(ap);
    }
    return NULL;
}

void pii_easy_free(pii_easy *h)
{
    if (!h)
        return;
    pii_build_free(&h->b);
    free(h);
}

pii_easy *pii_easy_create_config(const pii_config *c, pii_err *err, char *msg, size_t msgcap)
{
    if (msg && msgcap)
        msg[0] = 0;
    if (!c)
        return fail(PII_EINVAL, err, msg, msgcap, "no configuration");
    pii_easy *h = calloc(1, sizeof *h);
    pii_build_diag *d = malloc(sizeof *d);
    pii_err e = h && d ? pii_redactor_build(c, &h->b, d) : PII_ENOMEM;
    if (e) {
        /* the first line of the builder's message */
        const char *m = d ? d->msg : pii_strerror(e);
        fail(e, err, msg, msgcap, "%.*s", (int)strcspn(m, "\n"), m);
        free(h);
        free(d);
        return NULL;
    }
    free(d);
    if (err)
        *err = PII_OK;
    return h;
}

/* A handle from c once filled (e: how filling went; prefix starts its
 * message); frees c. */
static pii_easy *build_and_free(pii_config *c, pii_err e, const char *prefix, pii_err *err,
                                char *msg, size_t cap)
{
    pii_easy *h = NULL;
    if (e)
        fail(e, err, msg, cap, "%s%s", prefix,
             pii_config_message(c)[0] ? pii_config_message(c) : pii_strerror(e));
    else
        h = pii_easy_create_config(c, err, msg, cap);
    pii_config_free(c);
    return h;
}

/* The options struct as configuration keys. */
static pii_err options_config(const pii_easy_options *o, pii_config *c)
{
    char num[32];
    pii_err e = PII_OK;
    if (o->model)
        e = pii_config_set(c, "model", o->model);
    if (!e && !o->use_model)
        e = pii_config_set(c, "rules-only", "1");
    if (!e && !o->use_rules)
        e = pii_config_set(c, "model-only", "1");
    if (!e && o->labels)
        e = pii_config_set(c, "labels", o->labels);
    if (!e && o->exclude_labels)
        e = pii_config_set(c, "exclude-labels", o->exclude_labels);
    for (size_t i = 0; !e && i < o->n_operators; i++)
        e = pii_config_set(c, "operator", o->operators[i]);
    for (size_t i = 0; !e && i < o->n_thresholds; i++)
        e = pii_config_set(c, "threshold", o->thresholds[i]);
    if (!e && o->threads) {
        snprintf(num, sizeof num, "%d", o->threads);
        e = pii_config_set(c, "threads", num);
    }
    if (!e && o->allow_file)
        e = pii_config_set(c, "allow", o->allow_file);
    if (!e && o->deny_file)
        e = pii_config_set(c, "deny", o->deny_file);
    if (!e && o->key)
        e = pii_config_set_key(c, o->key, o->key_len);
    if (!e && o->isa >= 0)
        e = pii_config_set(c, "isa", pii_rt_isa_name((pii_rt_isa)o->isa));
    return e;
}

pii_easy *pii_easy_create(const pii_easy_options *opts, pii_err *err, char *msg, size_t msgcap)
{
    pii_easy_options o;
    pii_easy_options_init(&o);
    if (msg && msgcap)
        msg[0] = 0;
    if (opts) {
        /* A caller compiled against an older, shorter struct: read only
         * what it has; the rest keeps its default. */
        if (opts->size < sizeof(size_t) || opts->size > sizeof o)
            return fail(PII_EINVAL, err, msg, msgcap,
                        "options: size %zu (use pii_easy_options_init)", opts->size);
        memcpy(&o, opts, opts->size);
        o.size = sizeof o;
    }
    if ((o.n_operators && !o.operators) || (o.n_thresholds && !o.thresholds))
        return fail(PII_EINVAL, err, msg, msgcap, "options: a count without its array");
    pii_config *c = pii_config_create();
    if (!c)
        return fail(PII_ENOMEM, err, msg, msgcap, "%s", pii_strerror(PII_ENOMEM));
    return build_and_free(c, options_config(&o, c), "options: ", err, msg, msgcap);
}

pii_easy *pii_easy_create_args(const char *args, pii_err *err, char *msg, size_t msgcap)
{
    if (msg && msgcap)
        msg[0] = 0;
    pii_config *c = pii_config_create();
    if (!c)
        return fail(PII_ENOMEM, err, msg, msgcap, "%s", pii_strerror(PII_ENOMEM));
    return build_and_free(c, pii_config_parse(c, args), "", err, msg, msgcap);
}

/* ---- one buffer -------------------------------------------------------- */

typedef struct collect {
    pii_buf out;
    pii_span *spans;
    size_t n, cap;
    int want_spans;
} collect;

static pii_err collect_write(void *ud, const uint8_t *p, size_t n)
{
    return pii_buf_append(&((collect *)ud)->out, p, n);
}

static pii_err collect_span(void *ud, const pii_span *s, const uint8_t *value, size_t len,
                            uint64_t cp_start, uint64_t cp_end)
{
    collect *c = ud;
    (void)value, (void)len, (void)cp_start, (void)cp_end;
    if (!c->want_spans)
        return PII_OK;
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 16;
        pii_span *v = realloc(c->spans, cap * sizeof *v);
        if (!v)
            return PII_ENOMEM;
        c->spans = v;
        c->cap = cap;
    }
    c->spans[c->n++] = *s;
    return PII_OK;
}

pii_err pii_easy_redact_buffer(const pii_easy *h, const void *in, size_t len, char **out,
                               size_t *out_len, pii_span **spans, size_t *n_spans)
{
    if (out)
        *out = NULL;
    if (out_len)
        *out_len = 0;
    if (spans)
        *spans = NULL;
    if (n_spans)
        *n_spans = 0;
    if (!h || !out || !out_len || (!in && len) || (!spans != !n_spans))
        return PII_EINVAL;
    collect c;
    memset(&c, 0, sizeof c);
    c.want_spans = spans != NULL;
    pii_sink sink = {.write = collect_write, .span = collect_span, .ud = &c};
    pii_err e = PII_OK;
    pii_stream *st = pii_stream_create(h->b.red, &sink, &e);
    if (st) {
        e = pii_stream_feed(st, in, len);
        if (!e)
            e = pii_stream_end_doc(st);
        pii_stream_free(st);
    }
    if (!e)
        e = pii_buf_append(&c.out, "", 1); /* the NUL after the text */
    if (e) {
        pii_buf_free(&c.out);
        free(c.spans);
        return e;
    }
    *out = (char *)c.out.p;
    *out_len = c.out.n - 1;
    if (spans) {
        *spans = c.spans;
        *n_spans = c.n;
    }
    return PII_OK;
}

/* ---- streams ----------------------------------------------------------- */

static pii_err stream_write(void *ud, const uint8_t *p, size_t n)
{
    pii_easy_stream *s = ud;
    return s->write(s->ud, p, n);
}

pii_easy_stream *pii_easy_stream_open(const pii_easy *h, pii_easy_write_fn write, void *ud,
                                      pii_err *err)
{
    if (!h || !write)
        return none(PII_EINVAL, err);
    pii_easy_stream *s = calloc(1, sizeof *s);
    if (!s)
        return none(PII_ENOMEM, err);
    s->write = write;
    s->ud = ud;
    pii_sink sink = {.write = stream_write, .ud = s};
    pii_err e = PII_OK;
    if (!(s->st = pii_stream_create(h->b.red, &sink, &e))) {
        free(s);
        return none(e, err);
    }
    if (err)
        *err = PII_OK;
    return s;
}

pii_err pii_easy_stream_feed(pii_easy_stream *s, const void *data, size_t len)
{
    if (!s || (!data && len))
        return PII_EINVAL;
    return pii_stream_feed(s->st, data, len);
}

pii_err pii_easy_stream_finish(pii_easy_stream *s)
{
    return s ? pii_stream_end_doc(s->st) : PII_EINVAL;
}

void pii_easy_stream_free(pii_easy_stream *s)
{
    if (!s)
        return;
    pii_stream_free(s->st);
    free(s);
}
