/* serve_api.c — the endpoints of `pii-redact serve` (docs/SERVER.md):
 *
 *   GET  /health       {"status":"ok","version":...}
 *   POST /redact       text/plain: the redacted text, the bytes the command
 *                      writes for it; JSON {"text", "pseudonyms", "session"}:
 *                      {"text", "spans", "mapping"?, "session"?}
 *   POST /restore      {"text", "mapping" | "session"} → {"text", "restored"}
 *   POST /analyze      Presidio's analyzer: {"text", "language", "entities",
 *                      "score_threshold"} → [{"entity_type","start","end",
 *                      "score",...}], offsets in code points
 *   POST /anonymize    Presidio's anonymizer: {"text", "analyzer_results",
 *                      "anonymizers"} → {"text", "items"}
 *   POST /deanonymize  {"text", "mapping" | "session"} → {"text", "items"}
 *
 * Error replies are {"error": "..."}; they never quote the request's text. */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pii_core.h"
#include "pii_sha256.h"
#include "serve.h"

#define JSON_CT "application/json"
#define MAX_ITEMS 100000 /* analyzer_results of one /anonymize request */

/* ---- replies ------------------------------------------------------------ */

static void reply_json(pii_srv_reply *r, int status, json_object *o)
{
    size_t n = 0;
    const char *s = json_object_to_json_string_length(
        o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &n);
    pii_buf_free(&r->body);
    r->status = status;
    r->ctype = JSON_CT;
    if (!s || pii_buf_append(&r->body, s, n) != PII_OK) {
        r->status = 500;
        pii_buf_free(&r->body);
    }
    json_object_put(o);
}

void pii_srv_error(pii_srv_reply *r, int status, const char *msg)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "error", json_object_new_string(msg));
    reply_json(r, status, o);
}

/* A buffer's bytes as a string argument (never NULL). */
static const char *bp(const pii_buf *b)
{
    return b->p ? (const char *)b->p : "";
}

/* ---- the Presidio names ------------------------------------------------- */

static const struct {
    const char *entity, *label;
} presidio_names[] = {
    /* the first name of each label is the one /analyze reports */
    {"PERSON", "private_person"},
    {"EMAIL_ADDRESS", "private_email"},
    {"PHONE_NUMBER", "private_phone"},
    {"LOCATION", "private_address"},
    {"ADDRESS", "private_address"},
    {"DATE_TIME", "private_date"},
    {"URL", "private_url"},
    {"ACCOUNT_NUMBER", "account_number"},
    {"CREDIT_CARD", "account_number"},
    {"IBAN_CODE", "account_number"},
    {"US_SSN", "account_number"},
    {"US_BANK_NUMBER", "account_number"},
    {"US_ITIN", "account_number"},
    {"US_PASSPORT", "account_number"},
    {"US_DRIVER_LICENSE", "account_number"},
    {"UK_NHS", "account_number"},
    {"UK_NINO", "account_number"},
    {"SECRET", "secret"},
    {"API_KEY", "secret"},
    {"PASSWORD", "secret"},
};
#define N_NAMES (sizeof presidio_names / sizeof presidio_names[0])

/* The Presidio entity type of a span: cards and IBANs by their rule. */
static const char *entity_of(const char *label, const char *rule)
{
    if (rule && (strcmp(rule, "card") == 0 || strcmp(rule, "card_run") == 0))
        return "CREDIT_CARD";
    if (rule && strcmp(rule, "iban") == 0)
        return "IBAN_CODE";
    for (size_t i = 0; i < N_NAMES; i++)
        if (strcmp(presidio_names[i].label, label) == 0)
            return presidio_names[i].entity;
    return label; /* a deny list's own label */
}

/* The label an entity name asks for (a Presidio name or a label); NULL when
 * no detector of ours reports it. */
static const char *label_of(const char *entity)
{
    for (size_t i = 0; i < N_NAMES; i++)
        if (strcmp(presidio_names[i].entity, entity) == 0)
            return presidio_names[i].label;
    return pii_category_index(entity) >= 0 ? entity : NULL;
}

/* ---- code points ---------------------------------------------------------- */

/* off[k]: byte offset of code point k of t[0..n), k = 0..*ncp (off[*ncp] =
 * n).  Characters as the stream counts them (pii_utf8_valid: an invalid
 * byte is one).  NULL when out of memory. */
static size_t *cp_offsets(const uint8_t *t, size_t n, size_t *ncp)
{
    size_t *off = malloc((n + 1) * sizeof *off), k = 0;
    if (!off)
        return NULL;
    for (size_t i = 0; i < n;) {
        off[k++] = i;
        size_t l = pii_utf8_valid(t + i, t + n);
        i += l ? l : 1;
    }
    off[k] = n;
    *ncp = k;
    return off;
}

static size_t cp_count(const uint8_t *t, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; k++) {
        size_t l = pii_utf8_valid(t + i, t + n);
        i += l ? l : 1;
    }
    return k;
}

/* ---- one redaction ---------------------------------------------------------- */

typedef struct found {
    uint64_t start, end, cp_start, cp_end;
    const char *label, *rule;
    float score;
    pii_source source;
} found;

typedef struct scan {
    pii_buf out;
    found *f;
    size_t n, cap;
} scan;

static pii_err on_write(void *ud, const uint8_t *p, size_t n)
{
    return pii_buf_append(&((scan *)ud)->out, p, n);
}

static pii_err on_span(void *ud, const pii_span *s, const uint8_t *v, size_t len, uint64_t cs,
                       uint64_t ce)
{
    scan *sc = ud;
    (void)v;
    (void)len;
    if (PII_VEC_RESERVE(sc->f, sc->cap, sc->n + 1))
        return PII_ENOMEM;
    sc->f[sc->n++] = (found){s->start, s->end, cs, ce, s->label, s->rule, s->score, s->source};
    return PII_OK;
}

static void scan_free(scan *sc)
{
    pii_buf_free(&sc->out);
    free(sc->f);
    memset(sc, 0, sizeof *sc);
}

/* Redacts text[0..n) as one document, as the command does for one input. */
static pii_err run(const pii_srv *s, const uint8_t *text, size_t n, scan *sc)
{
    memset(sc, 0, sizeof *sc);
    pii_sink sink = {on_write, on_span, NULL, sc};
    pii_err e;
    pii_stream *st = pii_stream_create(s->red, &sink, &e);
    if (!st)
        return e;
    e = pii_stream_put(st, text, n, PII_STREAM_FLUSH);
    if (e == PII_OK)
        e = pii_stream_end_doc(st);
    pii_stream_free(st);
    if (e != PII_OK)
        scan_free(sc);
    return e;
}

static int status_for(pii_err e)
{
    switch (e) {
    case PII_EENCODING:
    case PII_EUTF8:
        return 422;
    case PII_ETOOBIG:
        return 413;
    default:
        return 500;
    }
}

static void fail_run(pii_srv_reply *r, pii_err e)
{
    char msg[160];
    snprintf(msg, sizeof msg, "redaction failed: %s", pii_strerror(e));
    pii_srv_error(r, status_for(e), msg);
}

/* ---- JSON requests ------------------------------------------------------------ */

/* The body as a JSON object (UTF-8 checked); NULL after an error reply. */
static json_object *parse_body(const uint8_t *body, size_t n, pii_srv_reply *r)
{
    if (n > (size_t)INT32_MAX - 1) {
        pii_srv_error(r, 413, "request body too large");
        return NULL;
    }
    json_tokener *tok = json_tokener_new();
    if (!tok) {
        pii_srv_error(r, 500, "out of memory");
        return NULL;
    }
    json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
    json_object *o = json_tokener_parse_ex(tok, (const char *)body, (int)n);
    int ok = o && json_tokener_get_error(tok) == json_tokener_success;
    size_t used = tok->char_offset > 0 ? (size_t)tok->char_offset : 0;
    json_tokener_free(tok);
    while (ok && used < n && strchr(" \t\r\n", body[used]))
        used++;
    if (!ok || used != n || !json_object_is_type(o, json_type_object)) {
        json_object_put(o);
        pii_srv_error(r, 400, "the body is not a JSON object (UTF-8)");
        return NULL;
    }
    return o;
}

/* A string member: 1 and *p, *n when present; 0 when absent; -1 after an
 * error reply when it is not a string. */
static int get_str(json_object *o, const char *key, const uint8_t **p, size_t *n, pii_srv_reply *r)
{
    json_object *v;
    if (!json_object_object_get_ex(o, key, &v) || json_object_is_type(v, json_type_null))
        return 0;
    if (!json_object_is_type(v, json_type_string)) {
        char msg[96];
        snprintf(msg, sizeof msg, "\"%s\" must be a string", key);
        pii_srv_error(r, 400, msg);
        return -1;
    }
    *p = (const uint8_t *)json_object_get_string(v);
    *n = (size_t)json_object_get_string_len(v);
    return 1;
}

/* The required "text" member; 0 after an error reply. */
static int get_text(json_object *o, const uint8_t **p, size_t *n, pii_srv_reply *r)
{
    int k = get_str(o, "text", p, n, r);
    if (k == 0)
        pii_srv_error(r, 400, "\"text\" is missing");
    return k == 1;
}

/* ---- /redact ----------------------------------------------------------------- */

static json_object *span_obj(const found *f)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "label", json_object_new_string(f->label));
    json_object_object_add(o, "start", json_object_new_int64((int64_t)f->cp_start));
    json_object_object_add(o, "end", json_object_new_int64((int64_t)f->cp_end));
    json_object_object_add(o, "byte_start", json_object_new_int64((int64_t)f->start));
    json_object_object_add(o, "byte_end", json_object_new_int64((int64_t)f->end));
    json_object_object_add(o, "source", json_object_new_string(pii_source_name(f->source)));
    json_object_object_add(o, "rule", f->rule ? json_object_new_string(f->rule) : NULL);
    json_object_object_add(o, "score", json_object_new_double((double)f->score));
    return o;
}

static json_object *mapping_obj(const pii_pseudo *m)
{
    json_object *arr = json_object_new_array();
    for (size_t i = 0; i < pii_pseudo_count(m); i++) {
        const char *ph, *label;
        const uint8_t *v;
        size_t len;
        pii_pseudo_entry(m, i, &ph, &label, &v, &len);
        json_object *o = json_object_new_object();
        json_object_object_add(o, "placeholder", json_object_new_string(ph));
        json_object_object_add(o, "label", json_object_new_string(label));
        json_object_object_add(o, "value", json_object_new_string_len((const char *)v, (int)len));
        json_object_array_add(arr, o);
    }
    return arr;
}

/* text with each span replaced by its placeholder in m. */
static pii_err pseudonymize(pii_pseudo *m, const uint8_t *text, size_t n, const scan *sc,
                            pii_buf *out)
{
    size_t at = 0;
    pii_err e = PII_OK;
    for (size_t i = 0; e == PII_OK && i < sc->n; i++) {
        const found *f = &sc->f[i];
        e = pii_buf_append(out, text + at, (size_t)f->start - at);
        if (e == PII_OK)
            e = pii_pseudo_name(m, f->label, text + f->start, (size_t)(f->end - f->start), out);
        at = (size_t)f->end;
    }
    if (e == PII_OK)
        e = pii_buf_append(out, text + at, n - at);
    return e;
}

/* The map a request names: "session" (locked: release after use, *locked
 * set) or "mapping" (a new map, *owned set), else a new empty map (owned)
 * when allow_new.  NULL after an error reply. */
static pii_pseudo *request_map(const pii_srv *s, json_object *o, int allow_new, int *owned,
                               int *locked, pii_srv_reply *r)
{
    const uint8_t *sid;
    size_t sn;
    json_object *mp;
    *owned = *locked = 0;
    int k = get_str(o, "session", &sid, &sn, r);
    if (k < 0)
        return NULL;
    if (k == 1) {
        if (!s->sess) {
            pii_srv_error(r, 400, "sessions are off (--session-ttl 0)");
            return NULL;
        }
        pii_pseudo *m = pii_sess_acquire(s->sess, (const char *)sid);
        if (!m) {
            pii_srv_error(r, 404, "unknown or expired session");
            return NULL;
        }
        *locked = 1;
        return m;
    }
    pii_pseudo *m = pii_pseudo_create(NULL);
    if (!m) {
        pii_srv_error(r, 500, "out of memory");
        return NULL;
    }
    *owned = 1;
    if (json_object_object_get_ex(o, "mapping", &mp) && !json_object_is_type(mp, json_type_null)) {
        /* the "mapping" array /redact returned, or a map file's object */
        json_object *wrap = NULL;
        if (json_object_is_type(mp, json_type_array)) {
            wrap = json_object_new_object();
            json_object_object_add(wrap, "version", json_object_new_int(1));
            json_object_object_add(wrap, "entries", json_object_get(mp));
            mp = wrap;
        }
        const char *js = json_object_to_json_string_ext(mp, JSON_C_TO_STRING_PLAIN);
        pii_err e = js ? pii_pseudo_load_json(m, (const uint8_t *)js, strlen(js)) : PII_ENOMEM;
        json_object_put(wrap);
        if (e) {
            pii_pseudo_free(m);
            pii_srv_error(r, 400, "\"mapping\" is not a pseudonym mapping");
            return NULL;
        }
        return m;
    }
    if (!allow_new) {
        pii_pseudo_free(m);
        pii_srv_error(r, 400, "give \"mapping\" or \"session\"");
        return NULL;
    }
    return m;
}

static void done_map(const pii_srv *s, pii_pseudo *m, int owned, int locked)
{
    if (owned)
        pii_pseudo_free(m);
    if (locked)
        pii_sess_release(s->sess);
}

static void redact_plain(const pii_srv *s, const uint8_t *body, size_t n, pii_srv_reply *r)
{
    scan sc;
    pii_err e = run(s, body, n, &sc);
    if (e) {
        fail_run(r, e);
        return;
    }
    r->status = 200;
    r->ctype = "text/plain; charset=utf-8";
    pii_buf_free(&r->body);
    r->body = sc.out;
    sc.out = (pii_buf){0};
    scan_free(&sc);
}

static void redact_json(const pii_srv *s, json_object *o, pii_srv_reply *r)
{
    const uint8_t *text;
    size_t n;
    if (!get_text(o, &text, &n, r))
        return;
    json_object *ps, *sv;
    int pseudo = json_object_object_get_ex(o, "pseudonyms", &ps) && json_object_get_boolean(ps);
    int new_sess = json_object_object_get_ex(o, "session", &sv) &&
                   json_object_is_type(sv, json_type_boolean) && json_object_get_boolean(sv);
    scan sc;
    pii_err e = run(s, text, n, &sc);
    if (e) {
        fail_run(r, e);
        return;
    }
    json_object *res = json_object_new_object();
    char sid[33] = "";
    pii_pseudo *m = NULL;
    int owned = 0, locked = 0;
    if (pseudo) {
        if (new_sess) {
            json_object_object_del(o, "session");
            if (!s->sess) {
                pii_srv_error(r, 400, "sessions are off (--session-ttl 0)");
                goto out;
            }
            if ((e = pii_sess_new(s->sess, sid))) {
                pii_srv_error(r, 503, "too many sessions");
                goto out;
            }
            json_object_object_add(o, "session", json_object_new_string(sid));
        }
        if (!(m = request_map(s, o, 1, &owned, &locked, r)))
            goto out;
        pii_buf pt = {0};
        e = pseudonymize(m, text, n, &sc, &pt);
        if (e) {
            pii_buf_free(&pt);
            pii_srv_error(r, e == PII_ETOOBIG ? 413 : 500, "pseudonyms failed");
            goto out;
        }
        json_object_object_add(res, "text", json_object_new_string_len(bp(&pt), (int)pt.n));
        pii_buf_free(&pt);
        json_object_object_add(res, "mapping", mapping_obj(m));
        json_object *sidv;
        if (locked && json_object_object_get_ex(o, "session", &sidv))
            json_object_object_add(res, "session", json_object_get(sidv));
    } else {
        json_object_object_add(res, "text", json_object_new_string_len(bp(&sc.out), (int)sc.out.n));
    }
    json_object *spans = json_object_new_array();
    for (size_t i = 0; i < sc.n; i++)
        json_object_array_add(spans, span_obj(&sc.f[i]));
    json_object_object_add(res, "spans", spans);
    reply_json(r, 200, res);
    res = NULL;
out:
    json_object_put(res);
    done_map(s, m, owned, locked);
    scan_free(&sc);
}

/* ---- /restore and /deanonymize -------------------------------------------- */

typedef struct hit {
    const char *label;
    size_t start, end;
} hit;

typedef struct hitvec {
    hit *v;
    size_t n, cap;
} hitvec;

static pii_err on_hit(void *ud, const char *label, size_t start, size_t end)
{
    hitvec *h = ud;
    if (PII_VEC_RESERVE(h->v, h->cap, h->n + 1))
        return PII_ENOMEM;
    h->v[h->n++] = (hit){label, start, end};
    return PII_OK;
}

static void restore(const pii_srv *s, json_object *o, int presidio, pii_srv_reply *r)
{
    const uint8_t *text;
    size_t n, count = 0;
    if (!get_text(o, &text, &n, r))
        return;
    int owned, locked;
    pii_pseudo *m = request_map(s, o, 0, &owned, &locked, r);
    if (!m)
        return;
    pii_buf out = {0};
    hitvec hv = {0};
    pii_err e = pii_pseudo_restore(m, text, n, &out, &count, presidio ? on_hit : NULL, &hv);
    if (e) {
        pii_srv_error(r, 500, "restore failed");
    } else {
        json_object *res = json_object_new_object();
        json_object_object_add(res, "text", json_object_new_string_len(bp(&out), (int)out.n));
        if (presidio) {
            json_object *items = json_object_new_array();
            size_t cp = 0, at = 0; /* code points of out[0..at) */
            for (size_t i = 0; i < hv.n; i++) {
                cp += cp_count(out.p + at, hv.v[i].start - at);
                size_t cs = cp;
                cp += cp_count(out.p + hv.v[i].start, hv.v[i].end - hv.v[i].start);
                at = hv.v[i].end;
                json_object *it = json_object_new_object();
                json_object_object_add(it, "start", json_object_new_int64((int64_t)cs));
                json_object_object_add(it, "end", json_object_new_int64((int64_t)cp));
                json_object_object_add(it, "entity_type",
                                       json_object_new_string(entity_of(hv.v[i].label, NULL)));
                json_object_object_add(
                    it, "text",
                    json_object_new_string_len((const char *)out.p + hv.v[i].start,
                                               (int)(hv.v[i].end - hv.v[i].start)));
                json_object_object_add(it, "operator", json_object_new_string("deanonymize"));
                json_object_array_add(items, it);
            }
            json_object_object_add(res, "items", items);
        } else {
            json_object_object_add(res, "restored", json_object_new_int64((int64_t)count));
        }
        reply_json(r, 200, res);
    }
    free(hv.v);
    pii_buf_free(&out);
    done_map(s, m, owned, locked);
    /* "forget": true ends the session once its answer is restored */
    json_object *fg, *sid;
    if (!e && locked && json_object_object_get_ex(o, "forget", &fg) &&
        json_object_get_boolean(fg) && json_object_object_get_ex(o, "session", &sid))
        pii_sess_drop(s->sess, json_object_get_string(sid));
}

/* ---- /analyze ------------------------------------------------------------------ */

static void analyze(const pii_srv *s, json_object *o, pii_srv_reply *r)
{
    const uint8_t *text, *lang;
    size_t n, ln;
    if (!get_text(o, &text, &n, r) || get_str(o, "language", &lang, &ln, r) < 0)
        return;
    /* entities: the labels asked for; absent, null or [] (as Presidio): all */
    int want[PII_NCAT] = {0}, filter = 0;
    json_object *ents, *th;
    if (json_object_object_get_ex(o, "entities", &ents) &&
        !json_object_is_type(ents, json_type_null)) {
        if (!json_object_is_type(ents, json_type_array)) {
            pii_srv_error(r, 400, "\"entities\" must be a list of names");
            return;
        }
        size_t ne = json_object_array_length(ents);
        filter = ne > 0;
        for (size_t i = 0; i < ne; i++) {
            json_object *e = json_object_array_get_idx(ents, i);
            if (!json_object_is_type(e, json_type_string)) {
                pii_srv_error(r, 400, "\"entities\" must be a list of names");
                return;
            }
            const char *name = json_object_get_string(e), *l = label_of(name);
            int k = l ? pii_category_index(l) : -1;
            if (k >= 0)
                want[k] = 1;
            else if (strcmp(name, "ALL") == 0)
                filter = 0;
        }
    }
    double thr = 0;
    if (json_object_object_get_ex(o, "score_threshold", &th) &&
        !json_object_is_type(th, json_type_null)) {
        if (!json_object_is_type(th, json_type_double) && !json_object_is_type(th, json_type_int)) {
            pii_srv_error(r, 400, "\"score_threshold\" must be a number");
            return;
        }
        thr = json_object_get_double(th);
        if (!(thr >= 0 && thr <= 1)) {
            pii_srv_error(r, 400, "\"score_threshold\" must be in 0..1");
            return;
        }
    }
    scan sc;
    pii_err e = run(s, text, n, &sc);
    if (e) {
        fail_run(r, e);
        return;
    }
    json_object *arr = json_object_new_array();
    for (size_t i = 0; i < sc.n; i++) {
        const found *f = &sc.f[i];
        int k = pii_category_index(f->label);
        if (filter && (k < 0 || !want[k]))
            continue;
        if ((double)f->score < thr)
            continue;
        json_object *it = json_object_new_object();
        json_object_object_add(it, "entity_type",
                               json_object_new_string(entity_of(f->label, f->rule)));
        json_object_object_add(it, "start", json_object_new_int64((int64_t)f->cp_start));
        json_object_object_add(it, "end", json_object_new_int64((int64_t)f->cp_end));
        json_object_object_add(it, "score", json_object_new_double((double)f->score));
        json_object_object_add(it, "analysis_explanation", NULL);
        json_object *meta = json_object_new_object();
        json_object_object_add(
            meta, "recognizer_name",
            json_object_new_string(f->rule ? f->rule : pii_source_name(f->source)));
        json_object_object_add(meta, "recognizer_identifier",
                               json_object_new_string(pii_source_name(f->source)));
        json_object_object_add(it, "recognition_metadata", meta);
        json_object_array_add(arr, it);
    }
    scan_free(&sc);
    reply_json(r, 200, arr);
}

/* ---- /anonymize ---------------------------------------------------------------- */

typedef struct item {
    size_t start, end; /* code points */
    const char *type;  /* in the request */
    double score;
} item;

static int by_start(const void *a, const void *b)
{
    const item *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->end > y->end ? -1 : x->end < y->end;
}

/* The operator object for an entity type: its own, else "DEFAULT", else NULL. */
static json_object *op_for(json_object *ops, const char *type)
{
    json_object *op;
    if (ops && json_object_object_get_ex(ops, type, &op))
        return op;
    if (ops && json_object_object_get_ex(ops, "DEFAULT", &op))
        return op;
    return NULL;
}

static const char *op_str(json_object *op, const char *key)
{
    json_object *v;
    return op && json_object_object_get_ex(op, key, &v) && json_object_is_type(v, json_type_string)
               ? json_object_get_string(v)
               : NULL;
}

/* Appends the anonymized value of v[0..len) (code points off[..]) to out;
 * *opname is the operator's name.  0 after an error reply. */
static int apply(const pii_srv *s, json_object *op, const char *type, const uint8_t *v, size_t len,
                 pii_buf *out, const char **opname, pii_srv_reply *r)
{
    const char *kind = op ? op_str(op, "type") : "replace";
    char buf[160];
    if (!kind) {
        pii_srv_error(r, 400, "an anonymizer needs a \"type\"");
        return 0;
    }
    *opname = kind;
    if (strcmp(kind, "replace") == 0) {
        const char *nv = op_str(op, "new_value");
        if (nv)
            return pii_buf_append(out, nv, strlen(nv)) == PII_OK;
        int k = snprintf(buf, sizeof buf, "<%s>", type);
        return k > 0 && (size_t)k < sizeof buf && pii_buf_append(out, buf, (size_t)k) == PII_OK;
    }
    if (strcmp(kind, "redact") == 0)
        return 1;
    if (strcmp(kind, "keep") == 0)
        return pii_buf_append(out, v, len) == PII_OK;
    if (strcmp(kind, "mask") == 0) {
        json_object *cv, *fe;
        const char *mc = op_str(op, "masking_char");
        size_t ncp, *off = cp_offsets(v, len, &ncp);
        if (!off)
            return 0;
        long long count = json_object_object_get_ex(op, "chars_to_mask", &cv)
                              ? json_object_get_int64(cv)
                              : (long long)ncp;
        int from_end =
            json_object_object_get_ex(op, "from_end", &fe) && json_object_get_boolean(fe);
        uint32_t c;
        if (!mc || !*mc ||
            pii_utf8_decode((const uint8_t *)mc, strlen(mc), &c) != (int)strlen(mc) || count < 0) {
            free(off);
            pii_srv_error(r, 400,
                          "mask needs \"masking_char\" (one character) and \"chars_to_mask\" >= 0");
            return 0;
        }
        size_t k = (size_t)count < ncp ? (size_t)count : ncp;
        size_t m0 = from_end ? ncp - k : 0, m1 = from_end ? ncp : k; /* masked code points */
        pii_err e = pii_buf_append(out, v, off[m0]);
        for (size_t i = m0; e == PII_OK && i < m1; i++)
            e = pii_buf_append(out, mc, strlen(mc));
        if (e == PII_OK)
            e = pii_buf_append(out, v + off[m1], len - off[m1]);
        free(off);
        return e == PII_OK;
    }
    if (strcmp(kind, "hash") == 0) {
        const char *ht = op_str(op, "hash_type");
        if (ht && strcmp(ht, "sha256") != 0) {
            pii_srv_error(r, 400, "hash: only \"sha256\" (HMAC-SHA256 with the server's key)");
            return 0;
        }
        if (!s->key) {
            pii_srv_error(r, 400, "hash needs a key: start the server with --key-file");
            return 0;
        }
        static const char hex[] = "0123456789abcdef";
        uint8_t mac[PII_SHA256_LEN];
        pii_hmac_sha256(s->key, s->keylen, v, len, mac);
        for (int i = 0; i < PII_SHA256_LEN; i++) {
            buf[2 * i] = hex[mac[i] >> 4];
            buf[2 * i + 1] = hex[mac[i] & 15];
        }
        return pii_buf_append(out, buf, 64) == PII_OK;
    }
    snprintf(buf, sizeof buf,
             "anonymizer type \"%.40s\" is not supported (replace, redact, mask, hash, keep)",
             kind);
    pii_srv_error(r, 400, buf);
    return 0;
}

static void anonymize(const pii_srv *s, json_object *o, pii_srv_reply *r)
{
    const uint8_t *text;
    size_t n;
    json_object *res_in, *ops = NULL;
    if (!get_text(o, &text, &n, r))
        return;
    if (!json_object_object_get_ex(o, "analyzer_results", &res_in) ||
        !json_object_is_type(res_in, json_type_array)) {
        pii_srv_error(r, 400, "\"analyzer_results\" must be a list");
        return;
    }
    if (json_object_object_get_ex(o, "anonymizers", &ops) &&
        !json_object_is_type(ops, json_type_object)) {
        if (!json_object_is_type(ops, json_type_null)) {
            pii_srv_error(r, 400, "\"anonymizers\" must be an object");
            return;
        }
        ops = NULL;
    }
    size_t ni = json_object_array_length(res_in), ncp;
    if (ni > MAX_ITEMS) {
        pii_srv_error(r, 413, "too many analyzer_results");
        return;
    }
    size_t *off = cp_offsets(text, n, &ncp);
    item *it = calloc(ni ? ni : 1, sizeof *it);
    pii_buf out = {0};
    json_object *items = NULL;
    if (!off || !it) {
        pii_srv_error(r, 500, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < ni; i++) {
        json_object *x = json_object_array_get_idx(res_in, i), *a, *b, *t, *sc;
        if (!json_object_object_get_ex(x, "start", &a) ||
            !json_object_object_get_ex(x, "end", &b) ||
            !json_object_object_get_ex(x, "entity_type", &t) ||
            !json_object_is_type(a, json_type_int) || !json_object_is_type(b, json_type_int) ||
            !json_object_is_type(t, json_type_string)) {
            pii_srv_error(r, 400,
                          "each analyzer result needs integer \"start\", \"end\" and a string "
                          "\"entity_type\"");
            goto done;
        }
        int64_t s0 = json_object_get_int64(a), s1 = json_object_get_int64(b);
        if (s0 < 0 || s1 < s0 || (uint64_t)s1 > ncp) {
            pii_srv_error(r, 400, "an analyzer result's start/end are not in the text");
            goto done;
        }
        it[i] = (item){(size_t)s0, (size_t)s1, json_object_get_string(t),
                       json_object_object_get_ex(x, "score", &sc) ? json_object_get_double(sc) : 0};
    }
    /* Conflicts: a result inside a kept one goes; overlapping ones are
     * merged into one covering both (the higher score's type), so nothing
     * asked for is left out. */
    qsort(it, ni, sizeof *it, by_start);
    size_t nk = 0;
    for (size_t i = 0; i < ni; i++) {
        if (it[i].start == it[i].end)
            continue;
        if (nk && it[i].start < it[nk - 1].end) {
            item *k = &it[nk - 1];
            if (it[i].end > k->end) {
                k->end = it[i].end;
                if (it[i].score > k->score) {
                    k->type = it[i].type;
                    k->score = it[i].score;
                }
            }
            continue;
        }
        it[nk++] = it[i];
    }
    items = json_object_new_array();
    size_t at = 0, out_cp = 0;
    for (size_t i = 0; i < nk; i++) {
        size_t b0 = off[it[i].start], b1 = off[it[i].end];
        const char *opname = "replace";
        if (pii_buf_append(&out, text + at, b0 - at)) {
            pii_srv_error(r, 500, "out of memory");
            goto done;
        }
        out_cp += it[i].start - (i ? it[i - 1].end : 0);
        size_t before = out.n;
        if (!apply(s, op_for(ops, it[i].type), it[i].type, text + b0, b1 - b0, &out, &opname, r)) {
            if (r->status == 0)
                pii_srv_error(r, 500, "out of memory");
            goto done;
        }
        size_t rep_cp = cp_count(out.p + before, out.n - before);
        json_object *x = json_object_new_object();
        json_object_object_add(x, "start", json_object_new_int64((int64_t)out_cp));
        json_object_object_add(x, "end", json_object_new_int64((int64_t)(out_cp + rep_cp)));
        json_object_object_add(x, "entity_type", json_object_new_string(it[i].type));
        json_object_object_add(
            x, "text",
            json_object_new_string_len((const char *)out.p + before, (int)(out.n - before)));
        json_object_object_add(x, "operator", json_object_new_string(opname));
        json_object_array_add(items, x);
        out_cp += rep_cp;
        at = b1;
    }
    if (pii_buf_append(&out, text + at, n - at)) {
        pii_srv_error(r, 500, "out of memory");
        goto done;
    }
    json_object *res = json_object_new_object();
    json_object_object_add(res, "text", json_object_new_string_len(bp(&out), (int)out.n));
    json_object_object_add(res, "items", items);
    items = NULL;
    reply_json(r, 200, res);
done:
    json_object_put(items);
    pii_buf_free(&out);
    free(off);
    free(it);
}

/* ---- routing -------------------------------------------------------------------- */

static void restore_native(const pii_srv *s, json_object *o, pii_srv_reply *r)
{
    restore(s, o, 0, r);
}

static void deanonymize(const pii_srv *s, json_object *o, pii_srv_reply *r)
{
    restore(s, o, 1, r);
}

/* The POST endpoints with a JSON body (/redact also takes plain text). */
static const struct {
    const char *path;
    void (*fn)(const pii_srv *, json_object *, pii_srv_reply *);
} routes[] = {
    {"/redact", redact_json},  {"/restore", restore_native},  {"/analyze", analyze},
    {"/anonymize", anonymize}, {"/deanonymize", deanonymize},
};

static int is_json(const char *ctype)
{
    return ctype && strncasecmp(ctype, "application/json", 16) == 0;
}

void pii_srv_handle(const pii_srv *s, const char *method, const char *path, const char *ctype,
                    const uint8_t *body, size_t n, pii_srv_reply *r)
{
    r->status = 0;
    r->ctype = JSON_CT;
    r->allow = NULL;
    if (strcmp(path, "/health") == 0) {
        if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0) {
            pii_srv_error(r, 405, "use GET");
            r->allow = "GET, HEAD";
            return;
        }
        json_object *o = json_object_new_object();
        json_object_object_add(o, "status", json_object_new_string("ok"));
        json_object_object_add(o, "version", json_object_new_string(PII_VERSION));
        reply_json(r, 200, o);
        return;
    }
    void (*fn)(const pii_srv *, json_object *, pii_srv_reply *) = NULL;
    for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++)
        if (strcmp(path, routes[i].path) == 0)
            fn = routes[i].fn;
    if (!fn) {
        pii_srv_error(r, 404, "no such endpoint");
        return;
    }
    if (strcmp(method, "POST") != 0) {
        pii_srv_error(r, 405, "use POST");
        r->allow = "POST";
        return;
    }
    if (fn == redact_json && !is_json(ctype)) {
        redact_plain(s, body, n, r);
        return;
    }
    json_object *o = parse_body(body, n, r);
    if (!o)
        return;
    fn(s, o, r);
    json_object_put(o);
}
