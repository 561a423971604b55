/* decode.c — label space, log-softmax, argmax, operating points (spec §6).
 *
 * Legend: n tokens, C labels, K categories; matrices row-major [n][C]. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json.h>

#include "pii_json.h"
#include "pii_ner.h"

/* ---- errbuf helper -------------------------------------------------- */

static void seterr(char *buf, size_t cap, const char *fmt, ...)
{
    if (!buf || cap == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, cap, fmt, ap);
    va_end(ap);
}

/* ---- label space ---------------------------------------------------- */

struct pii_ner_labels {
    size_t C, K;
    char **name;    /* [C] owned copies of id2label                  */
    uint8_t *tag;   /* [C] pii_ner_tag                               */
    int32_t *cat;   /* [C] category index, -1 for O                  */
    char **catname; /* [K] owned category names, first-appearance order */
};

void pii_ner_labels_free(pii_ner_labels *L)
{
    if (!L)
        return;
    if (L->name)
        for (size_t i = 0; i < L->C; i++)
            free(L->name[i]);
    if (L->catname)
        for (size_t k = 0; k < L->K; k++)
            free(L->catname[k]);
    free(L->name);
    free(L->tag);
    free(L->cat);
    free(L->catname);
    free(L);
}

static char *dupstr(const char *s)
{
    size_t n = strlen(s);
    char *d = malloc(n + 1);
    if (d)
        memcpy(d, s, n + 1);
    return d;
}

pii_ner_labels *pii_ner_labels_create(const char *const *names, size_t n, pii_err *err,
                                      char *errbuf, size_t errcap)
{
    pii_err e = PII_OK;
    pii_ner_labels *L = NULL;
    if (!names || n == 0 || n > 65535) {
        e = PII_EINVAL;
        seterr(errbuf, errcap, "label space must have 1..65535 labels (got %zu)", n);
        goto fail;
    }
    L = calloc(1, sizeof *L);
    if (!L)
        goto oom;
    L->C = n;
    L->name = calloc(n, sizeof *L->name);
    L->tag = calloc(n, 1);
    L->cat = calloc(n, sizeof *L->cat);
    L->catname = calloc(n, sizeof *L->catname);
    if (!L->name || !L->tag || !L->cat || !L->catname)
        goto oom;
    for (size_t i = 0; i < n; i++) {
        const char *s = names[i];
        if (!s) {
            e = PII_EFORMAT;
            seterr(errbuf, errcap, "label %zu is missing", i);
            goto fail;
        }
        for (size_t j = 0; j < i; j++)
            if (strcmp(L->name[j], s) == 0) {
                e = PII_EFORMAT;
                seterr(errbuf, errcap, "labels %zu and %zu are both \"%.64s\"", j, i, s);
                goto fail;
            }
        if (!(L->name[i] = dupstr(s)))
            goto oom;
        if (strcmp(s, "O") == 0) {
            L->tag[i] = PII_NER_O;
            L->cat[i] = -1;
            continue;
        }
        const char *tags = "BIES";
        const char *tp = s[0] ? strchr(tags, s[0]) : NULL;
        if (!tp || (s[1] != '-' && s[1] != '_') || s[2] == '\0') {
            e = PII_EFORMAT;
            seterr(errbuf, errcap,
                   "label %zu \"%.64s\" is neither \"O\" nor B-/I-/E-/S-<category> (or B_...)", i,
                   s);
            goto fail;
        }
        L->tag[i] = (uint8_t)(PII_NER_B + (tp - tags));
        const char *cn = s + 2;
        size_t k;
        for (k = 0; k < L->K; k++)
            if (strcmp(L->catname[k], cn) == 0)
                break;
        if (k == L->K) {
            if (!(L->catname[k] = dupstr(cn)))
                goto oom;
            L->K++;
        }
        L->cat[i] = (int32_t)k;
    }
    if (err)
        *err = PII_OK;
    return L;
oom:
    e = PII_ENOMEM;
    seterr(errbuf, errcap, "out of memory building the label space");
fail:
    pii_ner_labels_free(L);
    if (err)
        *err = e;
    return NULL;
}

size_t pii_ner_labels_count(const pii_ner_labels *L)
{
    return L->C;
}

const char *pii_ner_labels_name(const pii_ner_labels *L, size_t id)
{
    return id < L->C ? L->name[id] : NULL;
}

pii_ner_tag pii_ner_labels_tag(const pii_ner_labels *L, size_t id)
{
    return id < L->C ? (pii_ner_tag)L->tag[id] : PII_NER_O;
}

int pii_ner_labels_category_of(const pii_ner_labels *L, size_t id)
{
    return id < L->C ? L->cat[id] : -1;
}

size_t pii_ner_labels_ncat(const pii_ner_labels *L)
{
    return L->K;
}

const char *pii_ner_labels_category(const pii_ner_labels *L, size_t cat)
{
    return cat < L->K ? L->catname[cat] : NULL;
}

int pii_ner_labels_find_category(const pii_ner_labels *L, const char *name)
{
    for (size_t k = 0; k < L->K; k++)
        if (strcmp(L->catname[k], name) == 0)
            return (int)k;
    return -1;
}

/* ---- emissions -------------------------------------------------------- */

void pii_ner_log_softmax(const float *logits, size_t n, size_t C, float *out)
{
    for (size_t t = 0; t < n; t++) {
        const float *x = logits + t * C;
        float *y = out + t * C;
        float m = -INFINITY;
        for (size_t c = 0; c < C; c++)
            if (x[c] > m)
                m = x[c];
        float s = 0.0f;
        for (size_t c = 0; c < C; c++)
            s += expf(x[c] - m);
        float lse = m + logf(s);
        for (size_t c = 0; c < C; c++)
            y[c] = x[c] - lse;
    }
}

void pii_ner_argmax(const float *e, size_t n, size_t C, int32_t *labels)
{
    for (size_t t = 0; t < n; t++) {
        const float *x = e + t * C;
        size_t best = 0;
        for (size_t c = 1; c < C; c++)
            if (x[c] > x[best])
                best = c;
        labels[t] = (int32_t)best;
    }
}

/* ---- operating points ------------------------------------------------- */

const char *const pii_ner_bias_keys[PII_NER_NBIAS] = {
    "transition_bias_background_stay",    "transition_bias_background_to_start",
    "transition_bias_inside_to_continue", "transition_bias_inside_to_end",
    "transition_bias_end_to_background",  "transition_bias_end_to_start",
};

#define BIAS_PREFIX "transition_bias_"

int pii_ner_bias_index(const char *key)
{
    if (!key)
        return -1;
    size_t pl = strlen(BIAS_PREFIX);
    for (int i = 0; i < PII_NER_NBIAS; i++) {
        if (strcmp(key, pii_ner_bias_keys[i]) == 0 || strcmp(key, pii_ner_bias_keys[i] + pl) == 0)
            return i;
    }
    return -1;
}

static int json_number(json_object *o, double *v)
{
    if (!o)
        return 0;
    json_type t = json_object_get_type(o);
    if (t != json_type_double && t != json_type_int)
        return 0;
    *v = json_object_get_double(o);
    return isfinite(*v);
}

/* Appends "unknown key K (ignored)" notes to warn, counting them. */
typedef struct warnbuf {
    char *buf;
    size_t cap, len;
    int count;
} warnbuf;

static void warn_key(warnbuf *w, const char *where, const char *key)
{
    w->count++;
    if (!w->buf || !w->cap || w->count > 4) /* the first few by name, then a count */
        return;
    int k = snprintf(w->buf + w->len, w->cap - w->len, "%sunknown key \"%.48s\" in %s ignored",
                     w->len ? "; " : "calibration: ", key, where);
    if (k > 0)
        w->len = w->len + (size_t)k < w->cap ? w->len + (size_t)k : w->cap - 1;
}

/* The six biases of one object: each key once (full or short name);
 * other keys are warned about and ignored; all six are required. */
static pii_err read_biases(json_object *biases, const char *where, const char *point,
                           pii_ner_biases *out, warnbuf *w, char *errbuf, size_t errcap)
{
    pii_ner_biases b = {{0}};
    int seen[PII_NER_NBIAS] = {0};
    json_object_object_foreach(biases, key, val)
    {
        int i = pii_ner_bias_index(key);
        double d;
        if (i < 0) {
            warn_key(w, where, key);
            continue;
        }
        if (seen[i]) {
            seterr(errbuf, errcap, "calibration: bias \"%s\" is given twice", pii_ner_bias_keys[i]);
            return PII_EFORMAT;
        }
        if (!json_number(val, &d)) {
            seterr(errbuf, errcap, "calibration: bias \"%.64s\" is not a finite number", key);
            return PII_EFORMAT;
        }
        b.v[i] = (float)d;
        seen[i] = 1;
    }
    for (int j = 0; j < PII_NER_NBIAS; j++)
        if (!seen[j]) {
            seterr(errbuf, errcap, "calibration: operating point \"%.64s\" lacks \"%s\"", point,
                   pii_ner_bias_keys[j]);
            return PII_EFORMAT;
        }
    *out = b;
    return PII_OK;
}

pii_err pii_ner_calibration_parse_ex(const char *json, size_t len, const char *point,
                                     pii_ner_biases *out, char *warn, size_t warncap, char *errbuf,
                                     size_t errcap)
{
    if (!json || !out)
        return PII_EINVAL;
    if (!point)
        point = "default";
    warnbuf w = {warn, warncap, 0, 0};
    if (warn && warncap)
        warn[0] = '\0';
    pii_err e = PII_OK;
    char why[128];
    if ((e = pii_json_check(json, len, &pii_json_small_limits, why, sizeof why))) {
        seterr(errbuf, errcap, "calibration: refused before parsing: %s", why);
        return e;
    }
    json_tokener *tk = json_tokener_new();
    if (!tk)
        return PII_ENOMEM;
    json_object *root = json_tokener_parse_ex(tk, json, (int)len);
    enum json_tokener_error je = json_tokener_get_error(tk);
    if (!root && je == json_tokener_success) { /* json-c: an allocation failed */
        json_tokener_free(tk);
        seterr(errbuf, errcap, "calibration: out of memory while parsing the JSON");
        return PII_ENOMEM;
    }
    if (!root || je != json_tokener_success || json_tokener_get_parse_end(tk) < len) {
        /* trailing whitespace is fine, anything else is not */
        size_t end = root ? json_tokener_get_parse_end(tk) : 0;
        int trailing_ok = root != NULL;
        for (size_t i = end; trailing_ok && i < len; i++)
            if (!strchr(" \t\r\n", json[i]))
                trailing_ok = 0;
        if (!trailing_ok) {
            seterr(errbuf, errcap, "calibration: %s",
                   root ? "trailing data after the JSON value" : json_tokener_error_desc(je));
            json_object_put(root);
            json_tokener_free(tk);
            return PII_EJSON;
        }
    }
    json_tokener_free(tk);

    json_object *ops = NULL, *op = NULL, *biases = NULL, *single = NULL;
    if (!json_object_is_type(root, json_type_object)) {
        e = PII_EFORMAT;
        seterr(errbuf, errcap, "calibration: not a JSON object");
        goto done;
    }
    json_object_object_get_ex(root, "operating_points", &ops);
    json_object_object_get_ex(root, "operating_point", &single);
    if (ops && single) {
        e = PII_EFORMAT;
        seterr(errbuf, errcap,
               "calibration: both \"operating_points\" and \"operating_point\": which one is meant "
               "is unclear");
        goto done;
    }
    {
        json_object_object_foreach(root, key, val)
        {
            (void)val;
            if (strcmp(key, "operating_points") && strcmp(key, "operating_point"))
                warn_key(&w, "the document", key);
        }
    }
    if (single) { /* {"operating_point": {"transition_biases": {...}}}: one point */
        if (!json_object_is_type(single, json_type_object) ||
            !json_object_object_get_ex(single, "transition_biases", &biases) ||
            !json_object_is_type(biases, json_type_object)) {
            e = PII_EFORMAT;
            seterr(errbuf, errcap,
                   "calibration: \"operating_point\" has no \"transition_biases\" object");
            goto done;
        }
        if (strcmp(point, "default") != 0) {
            e = PII_ENOTFOUND;
            seterr(errbuf, errcap,
                   "calibration: no operating point \"%.64s\" (the file has one, unnamed: "
                   "\"operating_point\")",
                   point);
            goto done;
        }
        json_object_object_foreach(single, key, val)
        {
            (void)val;
            if (strcmp(key, "transition_biases"))
                warn_key(&w, "\"operating_point\"", key);
        }
        e = read_biases(biases, "\"transition_biases\"", point, out, &w, errbuf, errcap);
        goto done;
    }
    if (!ops || !json_object_is_type(ops, json_type_object)) {
        e = PII_EFORMAT;
        seterr(errbuf, errcap,
               "calibration: no \"operating_points\" (opf) or \"operating_point\" object");
        goto done;
    }
    if (!json_object_object_get_ex(ops, point, &op)) {
        e = PII_ENOTFOUND;
        char names[256];
        size_t nn = 0;
        names[0] = '\0';
        json_object_object_foreach(ops, key, val)
        {
            (void)val;
            int k = snprintf(names + nn, sizeof names - nn, "%s%s", nn ? ", " : "", key);
            if (k < 0 || (size_t)k >= sizeof names - nn)
                break;
            nn += (size_t)k;
        }
        seterr(errbuf, errcap, "calibration: no operating point \"%.64s\" (available: %s)", point,
               nn ? names : "none");
        goto done;
    }
    if (!json_object_is_type(op, json_type_object) ||
        !json_object_object_get_ex(op, "biases", &biases) ||
        !json_object_is_type(biases, json_type_object)) {
        e = PII_EFORMAT;
        seterr(errbuf, errcap, "calibration: operating point \"%.64s\" has no \"biases\" object",
               point);
        goto done;
    }
    {
        json_object_object_foreach(op, key, val)
        {
            (void)val;
            if (strcmp(key, "biases"))
                warn_key(&w, "the operating point", key);
        }
    }
    e = read_biases(biases, "\"biases\"", point, out, &w, errbuf, errcap);
done:
    if (w.count > 4 && w.buf && w.cap && w.len < w.cap)
        snprintf(w.buf + w.len, w.cap - w.len, "; %d unknown keys in all", w.count);
    json_object_put(root);
    return e;
}

pii_err pii_ner_calibration_parse(const char *json, size_t len, const char *point,
                                  pii_ner_biases *out, char *errbuf, size_t errcap)
{
    return pii_ner_calibration_parse_ex(json, len, point, out, NULL, 0, errbuf, errcap);
}

pii_err pii_ner_calibration_load(const char *path, const char *point, pii_ner_biases *out,
                                 char *errbuf, size_t errcap)
{
    return pii_ner_calibration_load_ex(path, point, out, NULL, 0, errbuf, errcap);
}

pii_err pii_ner_calibration_load_ex(const char *path, const char *point, pii_ner_biases *out,
                                    char *warn, size_t warncap, char *errbuf, size_t errcap)
{
    if (warn && warncap)
        warn[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (!f) {
        seterr(errbuf, errcap, "%s: %s", path, strerror(errno));
        return errno == ENOENT ? PII_ENOTFOUND : PII_EIO;
    }
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    const size_t limit = (size_t)16 << 20; /* calibration files are tiny */
    pii_err e = PII_OK;
    while (buf) {
        if (n == cap) {
            if (cap >= limit) {
                e = PII_ETOOBIG;
                seterr(errbuf, errcap, "%s: larger than 16 MiB", path);
                break;
            }
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0) {
            if (ferror(f)) {
                e = PII_EIO;
                seterr(errbuf, errcap, "%s: read error", path);
            }
            break;
        }
    }
    fclose(f);
    if (!buf)
        return PII_ENOMEM;
    if (e == PII_OK) {
        char inner[200];
        inner[0] = '\0';
        e = pii_ner_calibration_parse_ex(buf, n, point, out, warn, warncap, inner, sizeof inner);
        if (e != PII_OK)
            seterr(errbuf, errcap, "%s: %s", path, inner);
    }
    free(buf);
    return e;
}
