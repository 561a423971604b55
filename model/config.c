/* config.c — model configuration from HF config.json or GGUF metadata, and
 * the label space.  Every value is range-checked before it sizes anything. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "model_internal.h"
#include "pii_json.h"

/* Label names reach messages, reports and placeholders: no control
 * characters (a NUL, a newline, an escape sequence; issue 18). */
static int has_control(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
            return 1;
    return 0;
}

/* Bounds: far above any real model, low enough that products stay small. */
#define MAX_LAYERS 256
#define MAX_DIM 65536
#define MAX_HEADS 1024
#define MAX_HD 256
#define MAX_EXPERTS 4096
#define MAX_TOPK 64
#define MAX_LABELS 65536
#define MAX_VOCAB (1 << 24)
#define MAX_WINDOW (1 << 24)

pii_err pii_pf_fail(char *errbuf, size_t cap, pii_err e, const char *file, const char *fmt, ...)
{
    if (errbuf && cap) {
        int k = snprintf(errbuf, cap, "%s: ", file ? file : "?");
        if (k >= 0 && (size_t)k < cap) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(errbuf + k, cap - (size_t)k, fmt, ap);
            va_end(ap);
        }
    }
    return e;
}

void pii_pf_labels_free(char **labels, int n)
{
    if (!labels)
        return;
    for (int i = 0; i < n; i++)
        free(labels[i]);
    free(labels);
}

pii_err pii_pf_labels_default(int n, char ***out)
{
    static const char *const cats[8] = {"account_number", "private_address", "private_date",
                                        "private_email",  "private_person",  "private_phone",
                                        "private_url",    "secret"};
    char **l = calloc((size_t)n, sizeof *l);
    if (!l)
        return PII_ENOMEM;
    for (int i = 0; i < n; i++) {
        char buf[64];
        if (i == 0)
            snprintf(buf, sizeof buf, "O");
        else if (n == 33)
            snprintf(buf, sizeof buf, "%c-%s", "BIES"[(i - 1) % 4], cats[(i - 1) / 4]);
        else
            snprintf(buf, sizeof buf, "%c-category_%d", "BIES"[(i - 1) % 4], (i - 1) / 4);
        if (!(l[i] = strdup(buf))) {
            pii_pf_labels_free(l, n);
            return PII_ENOMEM;
        }
    }
    *out = l;
    return PII_OK;
}

static int check_cfg(const pii_model_config *c, const char **why)
{
#define REQ(cond, msg)                                                                             \
    if (!(cond)) {                                                                                 \
        *why = msg;                                                                                \
        return 0;                                                                                  \
    }
    REQ(c->n_layers >= 1 && c->n_layers <= MAX_LAYERS, "num_hidden_layers out of range");
    REQ(c->d_model >= 1 && c->d_model <= MAX_DIM, "hidden_size out of range");
    REQ(c->n_heads >= 1 && c->n_heads <= MAX_HEADS, "num_attention_heads out of range");
    REQ(c->n_kv_heads >= 1 && c->n_kv_heads <= c->n_heads && c->n_heads % c->n_kv_heads == 0,
        "num_key_value_heads must divide num_attention_heads");
    REQ(c->head_dim >= 2 && c->head_dim <= MAX_HD && c->head_dim % 2 == 0,
        "head_dim must be even and <= 256");
    REQ(c->d_expert >= 1 && c->d_expert <= MAX_DIM, "intermediate_size out of range");
    REQ(c->n_experts >= 1 && c->n_experts <= MAX_EXPERTS, "num_local_experts out of range");
    REQ(c->top_k >= 1 && c->top_k <= c->n_experts && c->top_k <= MAX_TOPK,
        "num_experts_per_tok out of range");
    REQ(c->n_labels >= 1 && c->n_labels <= MAX_LABELS, "label count out of range");
    REQ(c->vocab_size >= 1 && c->vocab_size <= MAX_VOCAB, "vocab_size out of range");
    REQ(c->window >= 0 && c->window <= MAX_WINDOW, "sliding_window out of range");
    REQ(c->rms_eps > 0 && c->rms_eps < 1, "rms_norm_eps out of range");
    REQ(c->swiglu_limit > 0 && isfinite(c->swiglu_limit), "swiglu_limit out of range");
    REQ(c->rope.theta > 1 && isfinite(c->rope.theta), "rope_theta out of range");
    REQ(!c->rope.yarn || (c->rope.factor >= 1 && c->rope.factor < 1e6 && c->rope.orig_ctx >= 1 &&
                          c->rope.beta_fast > 0 && c->rope.beta_slow > 0),
        "YaRN parameters out of range");
#undef REQ
    return 1;
}

static void cfg_defaults(pii_model_config *c)
{
    memset(c, 0, sizeof *c);
    c->rms_eps = 1e-5f;
    c->swiglu_limit = 7.0f;
    c->swiglu_alpha = 1.702f;
    c->pad_id = -1;
    c->window = 128;
    c->rope.theta = 150000.0;
    c->rope.factor = 32.0;
    c->rope.beta_fast = 32.0;
    c->rope.beta_slow = 1.0;
    c->rope.orig_ctx = 4096.0;
    c->rope.yarn = 1;
}

/* ---- config.json ---------------------------------------------------------------- */

typedef struct jctx {
    json_object *root;
    const char *file;
    char *errbuf;
    size_t cap;
    pii_err rc;
} jctx;

/* Integer key: *out unchanged if absent and !required. */
static int jint(jctx *j, json_object *obj, const char *key, int *out, int required)
{
    json_object *v;
    if (!json_object_object_get_ex(obj, key, &v) || json_object_is_type(v, json_type_null)) {
        if (required) {
            j->rc = pii_pf_fail(j->errbuf, j->cap, PII_EMODEL, j->file, "missing key \"%s\"", key);
            return 0;
        }
        return 1;
    }
    if (!json_object_is_type(v, json_type_int)) {
        j->rc =
            pii_pf_fail(j->errbuf, j->cap, PII_EMODEL, j->file, "\"%s\" is not an integer", key);
        return 0;
    }
    int64_t x = json_object_get_int64(v);
    if (x < INT_MIN || x > INT_MAX) {
        j->rc = pii_pf_fail(j->errbuf, j->cap, PII_ERANGE, j->file, "\"%s\" out of range", key);
        return 0;
    }
    *out = (int)x;
    return 1;
}

static int jnum(jctx *j, json_object *obj, const char *key, double *out)
{
    json_object *v;
    if (!obj || !json_object_object_get_ex(obj, key, &v) || json_object_is_type(v, json_type_null))
        return 1;
    if (!json_object_is_type(v, json_type_int) && !json_object_is_type(v, json_type_double)) {
        j->rc = pii_pf_fail(j->errbuf, j->cap, PII_EMODEL, j->file, "\"%s\" is not a number", key);
        return 0;
    }
    *out = json_object_get_double(v);
    return 1;
}

static pii_err parse_labels(jctx *j, json_object *id2, int n, char ***out)
{
    char **l = calloc((size_t)n, sizeof *l);
    if (!l)
        return PII_ENOMEM;
    json_object_object_foreach(id2, key, val)
    {
        char *end;
        errno = 0;
        long id = strtol(key, &end, 10);
        if (errno || *end || end == key || id < 0 || id >= n || l[id] ||
            !json_object_is_type(val, json_type_string)) {
            pii_pf_labels_free(l, n);
            return pii_pf_fail(j->errbuf, j->cap, PII_EMODEL, j->file,
                               "id2label: bad or repeated entry \"%.40s\"", key);
        }
        const char *s = json_object_get_string(val);
        if (!*s || strlen(s) > 256 || has_control(s, strlen(s))) {
            pii_pf_labels_free(l, n);
            return pii_pf_fail(j->errbuf, j->cap, PII_EMODEL, j->file, "id2label[%ld]: bad name",
                               id);
        }
        if (!(l[id] = strdup(s))) {
            pii_pf_labels_free(l, n);
            return PII_ENOMEM;
        }
    }
    for (int i = 0; i < n; i++)
        if (!l[i]) {
            pii_pf_labels_free(l, n);
            return pii_pf_fail(j->errbuf, j->cap, PII_EMODEL, j->file, "id2label has no id %d", i);
        }
    *out = l;
    return PII_OK;
}

/* ---- OpenAI opf native config (original/config.json) ---------------------------------- */

static int jbool(jctx *j, json_object *obj, const char *key, int *out)
{
    json_object *v;
    if (!json_object_object_get_ex(obj, key, &v) || json_object_is_type(v, json_type_null))
        return 1;
    if (!json_object_is_type(v, json_type_boolean)) {
        j->rc = pii_pf_fail(j->errbuf, j->cap, PII_EMODEL, j->file, "\"%s\" is not a boolean", key);
        return 0;
    }
    *out = json_object_get_boolean(v);
    return 1;
}

/* The label list of an opf config: ner_class_names (token labels), else
 * span_class_names expanded to O + B/I/E/S-x, else the built-in v2 list
 * (spec §5) for num_labels.  opf's own rule. */
static pii_err opf_labels(jctx *j, json_object *root, pii_model_config *c, char ***out)
{
    json_object *ner = NULL, *span = NULL;
    if (json_object_object_get_ex(root, "ner_class_names", &ner) &&
        json_object_is_type(ner, json_type_null))
        ner = NULL;
    if (json_object_object_get_ex(root, "span_class_names", &span) &&
        json_object_is_type(span, json_type_null))
        span = NULL;
    json_object *list = ner ? ner : span;
    if (!list)
        return pii_pf_labels_default(c->n_labels, out);
    const char *key = ner ? "ner_class_names" : "span_class_names";
    if (!json_object_is_type(list, json_type_array) || json_object_array_length(list) < 1 ||
        json_object_array_length(list) > MAX_LABELS)
        return pii_pf_fail(j->errbuf, j->cap, PII_EMODEL, j->file, "\"%s\" is not a list of names",
                           key);
    size_t n = json_object_array_length(list);
    for (size_t i = 0; i < n; i++) {
        json_object *v = json_object_array_get_idx(list, i);
        if (!json_object_is_type(v, json_type_string) || !json_object_get_string_len(v) ||
            json_object_get_string_len(v) > 256 ||
            has_control(json_object_get_string(v), (size_t)json_object_get_string_len(v)))
            return pii_pf_fail(j->errbuf, j->cap, PII_EMODEL, j->file, "%s[%zu]: bad name", key, i);
    }
    /* span names: O first, then 4 tags per other name */
    size_t total = n;
    if (!ner) {
        size_t others = 0;
        for (size_t i = 0; i < n; i++)
            others += strcmp(json_object_get_string(json_object_array_get_idx(list, i)), "O") != 0;
        if (others == n)
            return pii_pf_fail(j->errbuf, j->cap, PII_EMODEL, j->file,
                               "span_class_names has no background label \"O\"");
        total = 1 + 4 * others;
    }
    if (total > MAX_LABELS)
        return pii_pf_fail(j->errbuf, j->cap, PII_EMODEL, j->file, "too many labels");
    if (c->n_labels >= 0 && (size_t)c->n_labels != total)
        return pii_pf_fail(j->errbuf, j->cap, PII_EMODEL, j->file,
                           "num_labels %d but %s gives %zu labels", c->n_labels, key, total);
    c->n_labels = (int)total;
    char **l = calloc(total, sizeof *l);
    if (!l)
        return PII_ENOMEM;
    size_t k = 0;
    if (!ner && !(l[k++] = strdup("O")))
        goto oom;
    for (size_t i = 0; i < n; i++) {
        const char *s = json_object_get_string(json_object_array_get_idx(list, i));
        if (ner) {
            if (!(l[k++] = strdup(s)))
                goto oom;
            continue;
        }
        if (!strcmp(s, "O"))
            continue;
        for (int t = 0; t < 4; t++) {
            size_t sl = strlen(s) + 3;
            if (!(l[k] = malloc(sl)))
                goto oom;
            snprintf(l[k++], sl, "%c-%s", "BIES"[t], s);
        }
    }
    *out = l;
    return PII_OK;
oom:
    pii_pf_labels_free(l, (int)total);
    return PII_ENOMEM;
}

/* Keys and meanings: docs/FORMATS.md, "OpenAI opf native checkpoint". */
static pii_err config_opf(jctx *j, json_object *root, pii_model_config *c, char ***labels)
{
    const char *fname = j->file;
    c->n_kv_heads = -1;
    c->head_dim = -1;
    c->n_labels = -1;
    c->vocab_size = -1;
    int left = -1, right = -1, sw = -1, bidir = 1, packed = 0;
    if (!jint(j, root, "hidden_size", &c->d_model, 1) ||
        !jint(j, root, "num_hidden_layers", &c->n_layers, 1) ||
        !jint(j, root, "num_attention_heads", &c->n_heads, 1) ||
        !jint(j, root, "num_key_value_heads", &c->n_kv_heads, 0) ||
        !jint(j, root, "head_dim", &c->head_dim, 0) ||
        !jint(j, root, "intermediate_size", &c->d_expert, 1) ||
        !jint(j, root, "num_experts", &c->n_experts, 1) ||
        !jint(j, root, "experts_per_token", &c->top_k, 1) ||
        !jint(j, root, "vocab_size", &c->vocab_size, 0) ||
        !jint(j, root, "num_labels", &c->n_labels, 0) || !jint(j, root, "sliding_window", &sw, 0) ||
        !jint(j, root, "bidirectional_left_context", &left, 0) ||
        !jint(j, root, "bidirectional_right_context", &right, 0) ||
        !jbool(j, root, "bidirectional_context", &bidir) ||
        !jbool(j, root, "packed_geglu", &packed))
        return j->rc;
    if (!bidir)
        return pii_pf_fail(j->errbuf, j->cap, PII_EUNSUPPORTED, fname,
                           "\"bidirectional_context\": false (causal attention) is not supported");
    if (packed)
        return pii_pf_fail(j->errbuf, j->cap, PII_EUNSUPPORTED, fname,
                           "\"packed_geglu\": true (interleaved gate/up) is not supported");
    if (left < 0 && right < 0 && sw >= 1 && sw % 2 == 1) /* the total band */
        left = right = (sw - 1) / 2;
    if (left < 0)
        left = right;
    if (right < 0)
        right = left;
    if (left < 0)
        return pii_pf_fail(j->errbuf, j->cap, PII_EMODEL, fname,
                           "missing key \"bidirectional_left_context\"");
    if (left != right)
        return pii_pf_fail(j->errbuf, j->cap, PII_EUNSUPPORTED, fname,
                           "bidirectional context %d left, %d right: only a symmetric band is "
                           "supported",
                           left, right);
    if (sw >= 0 && sw != 2 * left + 1)
        return pii_pf_fail(j->errbuf, j->cap, PII_EMODEL, fname,
                           "\"sliding_window\" %d is not left %d + 1 + right %d", sw, left, right);
    c->window = left;
    if (c->n_kv_heads < 0)
        c->n_kv_heads = c->n_heads;
    if (c->head_dim < 0)
        c->head_dim = c->n_heads > 0 ? c->d_model / c->n_heads : 0;
    json_object *enc;
    if (json_object_object_get_ex(root, "encoding", &enc) &&
        !json_object_is_type(enc, json_type_null) &&
        (!json_object_is_type(enc, json_type_string) ||
         strcmp(json_object_get_string(enc), "o200k_base")))
        return pii_pf_fail(j->errbuf, j->cap, PII_EUNSUPPORTED, fname,
                           "\"encoding\" must be \"o200k_base\" (the only tokenizer built in)");
    double eps = c->rms_eps, lim = c->swiglu_limit, theta = c->rope.theta, f = c->rope.factor,
           a = c->rope.beta_slow, b = c->rope.beta_fast, ictx = c->rope.orig_ctx;
    if (!jnum(j, root, "rms_norm_eps", &eps) || !jnum(j, root, "swiglu_limit", &lim) ||
        !jnum(j, root, "rope_theta", &theta) || !jnum(j, root, "rope_scaling_factor", &f) ||
        !jnum(j, root, "rope_ntk_alpha", &a) || !jnum(j, root, "rope_ntk_beta", &b) ||
        !jnum(j, root, "initial_context_length", &ictx))
        return j->rc;
    c->rms_eps = (float)eps;
    c->swiglu_limit = (float)lim;
    c->rope.theta = theta;
    c->rope.factor = f;
    c->rope.beta_fast = b; /* the converter: beta_fast = ntk_beta, beta_slow = ntk_alpha */
    c->rope.beta_slow = a;
    c->rope.orig_ctx = ictx;
    c->rope.truncate = 0;
    c->rope.yarn = f > 1.0; /* opf: plain RoPE unless the scaling factor is above 1 */
    if (!c->rope.yarn)
        c->rope.factor = 1.0;
    if (c->vocab_size < 0)
        c->vocab_size = 200064; /* opf's default; checked against embedding.weight */
    if (c->pad_id < 0 && c->vocab_size > 199999)
        c->pad_id = 199999;
    int n_labels_key = c->n_labels;
    if (n_labels_key < 0)
        c->n_labels = 33; /* opf's default label space (v2), checked against unembedding */
    pii_err e = opf_labels(j, root, c, labels);
    if (e)
        return j->rc = e;
    const char *why;
    if (!check_cfg(c, &why)) {
        pii_pf_labels_free(*labels, c->n_labels);
        *labels = NULL;
        return pii_pf_fail(j->errbuf, j->cap, PII_EMODEL, fname, "%s", why);
    }
    return PII_OK;
}

static int is_opf_config(json_object *root)
{
    json_object *v;
    if (json_object_object_get_ex(root, "num_local_experts", &v))
        return 0;
    if (json_object_object_get_ex(root, "model_type", &v) &&
        json_object_is_type(v, json_type_string) &&
        !strcmp(json_object_get_string(v), "privacy_filter"))
        return 1;
    return json_object_object_get_ex(root, "num_experts", &v) ||
           json_object_object_get_ex(root, "experts_per_token", &v);
}

pii_err pii_pf_config_json(const char *text, size_t len, pii_model_config *c, char ***labels,
                           int *opf, const char *fname, char *errbuf, size_t cap)
{
    jctx j = {NULL, fname, errbuf, cap, PII_OK};
    *opf = 0;
    cfg_defaults(c);
    *labels = NULL;
    char bound[128];
    pii_err be = pii_json_check(text, len, &pii_json_small_limits, bound, sizeof bound);
    if (be)
        return pii_pf_fail(errbuf, cap, be, fname, "refused before parsing: %s", bound);
    json_tokener *tok = json_tokener_new();
    if (!tok)
        return pii_pf_fail(errbuf, cap, PII_ENOMEM, fname, "out of memory");
    json_object *root = json_tokener_parse_ex(tok, text, (int)len);
    enum json_tokener_error je = json_tokener_get_error(tok);
    json_tokener_free(tok);
    if (!root && je == json_tokener_success) /* json-c: an allocation failed */
        return pii_pf_fail(errbuf, cap, PII_ENOMEM, fname, "out of memory while parsing the JSON");
    if (!root || je != json_tokener_success) {
        json_object_put(root);
        return pii_pf_fail(errbuf, cap, PII_EJSON, fname, "%s",
                           je == json_tokener_continue ? "JSON text ends early"
                                                       : json_tokener_error_desc(je));
    }
    j.root = root;
    if (!json_object_is_type(root, json_type_object)) {
        j.rc = pii_pf_fail(errbuf, cap, PII_EJSON, fname, "not a JSON object");
        goto out;
    }
    *opf = is_opf_config(root);
    if (*opf) {
        j.rc = config_opf(&j, root, c, labels);
        goto out;
    }
    c->n_kv_heads = -1;
    c->head_dim = -1;
    c->n_labels = -1;
    if (!jint(&j, root, "vocab_size", &c->vocab_size, 1) ||
        !jint(&j, root, "hidden_size", &c->d_model, 1) ||
        !jint(&j, root, "num_hidden_layers", &c->n_layers, 1) ||
        !jint(&j, root, "num_attention_heads", &c->n_heads, 1) ||
        !jint(&j, root, "num_key_value_heads", &c->n_kv_heads, 0) ||
        !jint(&j, root, "head_dim", &c->head_dim, 0) ||
        !jint(&j, root, "intermediate_size", &c->d_expert, 1) ||
        !jint(&j, root, "num_local_experts", &c->n_experts, 1) ||
        !jint(&j, root, "num_experts_per_tok", &c->top_k, 1) ||
        !jint(&j, root, "sliding_window", &c->window, 0) ||
        !jint(&j, root, "num_labels", &c->n_labels, 0) ||
        !jint(&j, root, "pad_token_id", &c->pad_id, 0))
        goto out;
    if (c->n_kv_heads < 0)
        c->n_kv_heads = c->n_heads;
    if (c->head_dim < 0)
        c->head_dim = c->n_heads > 0 ? c->d_model / c->n_heads : 0;
    double eps = c->rms_eps, lim = c->swiglu_limit;
    if (!jnum(&j, root, "rms_norm_eps", &eps) || !jnum(&j, root, "swiglu_limit", &lim))
        goto out;
    c->rms_eps = (float)eps;
    c->swiglu_limit = (float)lim;
    /* RoPE: rope_parameters (current HF), rope_scaling (older), top-level theta */
    json_object *rp = NULL;
    if (!json_object_object_get_ex(root, "rope_parameters", &rp) ||
        !json_object_is_type(rp, json_type_object))
        if (!json_object_object_get_ex(root, "rope_scaling", &rp) ||
            !json_object_is_type(rp, json_type_object))
            rp = NULL;
    if (!jnum(&j, root, "rope_theta", &c->rope.theta))
        goto out;
    if (rp) {
        json_object *ty;
        const char *type = "yarn"; /* the model class's default */
        if ((json_object_object_get_ex(rp, "rope_type", &ty) ||
             json_object_object_get_ex(rp, "type", &ty)) &&
            json_object_is_type(ty, json_type_string))
            type = json_object_get_string(ty);
        c->rope.yarn = !strcmp(type, "yarn");
        if (!c->rope.yarn && strcmp(type, "default")) {
            j.rc = pii_pf_fail(errbuf, cap, PII_EUNSUPPORTED, fname, "rope type \"%.32s\"", type);
            goto out;
        }
        c->rope.orig_ctx = 4096;
        double af = 0;
        json_object *tr;
        if (!jnum(&j, rp, "rope_theta", &c->rope.theta) ||
            !jnum(&j, rp, "factor", &c->rope.factor) ||
            !jnum(&j, rp, "beta_fast", &c->rope.beta_fast) ||
            !jnum(&j, rp, "beta_slow", &c->rope.beta_slow) ||
            !jnum(&j, root, "initial_context_length", &c->rope.orig_ctx) ||
            !jnum(&j, rp, "original_max_position_embeddings", &c->rope.orig_ctx) ||
            !jnum(&j, rp, "attention_factor", &af))
            goto out;
        c->rope.attention_factor = af;
        if (json_object_object_get_ex(rp, "truncate", &tr))
            c->rope.truncate = json_object_get_boolean(tr);
    }
    json_object *id2 = NULL;
    int nl = -1;
    if (json_object_object_get_ex(root, "id2label", &id2) &&
        json_object_is_type(id2, json_type_object))
        nl = json_object_object_length(id2);
    else
        id2 = NULL;
    if (c->n_labels < 0)
        c->n_labels = nl;
    if (nl >= 0 && c->n_labels != nl) {
        j.rc = pii_pf_fail(errbuf, cap, PII_EMODEL, fname,
                           "num_labels %d but id2label has %d entries", c->n_labels, nl);
        goto out;
    }
    const char *why;
    if (!check_cfg(c, &why)) {
        j.rc = pii_pf_fail(errbuf, cap, PII_EMODEL, fname, "%s", why);
        goto out;
    }
    j.rc = id2 ? parse_labels(&j, id2, c->n_labels, labels)
               : pii_pf_labels_default(c->n_labels, labels);
out:
    json_object_put(root);
    return j.rc;
}

/* ---- GGUF metadata ---------------------------------------------------------------- */

static pii_err g_int(const pii_rt_store *s, const char *pre, const char *key, int *out,
                     int required, const char *fname, char *errbuf, size_t cap)
{
    char k[256];
    snprintf(k, sizeof k, "%s.%s", pre, key);
    int64_t v;
    pii_err e = pii_rt_store_kv_int(s, k, &v);
    if (e == PII_ENOTFOUND && !required)
        return PII_OK;
    if (e)
        return pii_pf_fail(errbuf, cap, PII_EMODEL, fname, "GGUF key %s %s", k,
                           e == PII_ENOTFOUND ? "missing" : "is not an integer");
    if (v < INT_MIN || v > INT_MAX)
        return pii_pf_fail(errbuf, cap, PII_ERANGE, fname, "GGUF key %s out of range", k);
    *out = (int)v;
    return PII_OK;
}

static pii_err g_num(const pii_rt_store *s, const char *pre, const char *key, double *out,
                     const char *fname, char *errbuf, size_t cap)
{
    char k[256];
    snprintf(k, sizeof k, "%s.%s", pre, key);
    pii_err e = pii_rt_store_kv_num(s, k, out);
    if (e == PII_ENOTFOUND)
        return PII_OK;
    if (e)
        return pii_pf_fail(errbuf, cap, PII_EMODEL, fname, "GGUF key %s is not a number", k);
    return PII_OK;
}

pii_err pii_pf_config_gguf(const pii_rt_store *s, pii_model_config *c, char ***labels,
                           const char *fname, char *errbuf, size_t cap)
{
    cfg_defaults(c);
    *labels = NULL;
    const char *arch;
    size_t al;
    char pre[128];
    if (pii_rt_store_kv_str(s, "general.architecture", &arch, &al) || al == 0 || al >= sizeof pre)
        return pii_pf_fail(errbuf, cap, PII_EMODEL, fname, "GGUF has no general.architecture");
    memcpy(pre, arch, al);
    pre[al] = 0;
    if (strcmp(pre, "openai-privacy-filter"))
        return pii_pf_fail(errbuf, cap, PII_EUNSUPPORTED, fname, "GGUF architecture \"%s\"", pre);
    pii_err e;
    c->n_kv_heads = -1;
    c->head_dim = -1;
    c->d_expert = -1;
    int ffl = -1;
    if ((e = g_int(s, pre, "block_count", &c->n_layers, 1, fname, errbuf, cap)) ||
        (e = g_int(s, pre, "embedding_length", &c->d_model, 1, fname, errbuf, cap)) ||
        (e = g_int(s, pre, "attention.head_count", &c->n_heads, 1, fname, errbuf, cap)) ||
        (e = g_int(s, pre, "attention.head_count_kv", &c->n_kv_heads, 0, fname, errbuf, cap)) ||
        (e = g_int(s, pre, "attention.key_length", &c->head_dim, 0, fname, errbuf, cap)) ||
        (e = g_int(s, pre, "expert_feed_forward_length", &c->d_expert, 0, fname, errbuf, cap)) ||
        (e = g_int(s, pre, "feed_forward_length", &ffl, 0, fname, errbuf, cap)) ||
        (e = g_int(s, pre, "expert_count", &c->n_experts, 1, fname, errbuf, cap)) ||
        (e = g_int(s, pre, "expert_used_count", &c->top_k, 1, fname, errbuf, cap)) ||
        (e = g_int(s, pre, "attention.sliding_window", &c->window, 0, fname, errbuf, cap)))
        return e;
    if (c->n_kv_heads < 0)
        c->n_kv_heads = c->n_heads;
    if (c->head_dim < 0)
        c->head_dim = c->n_heads > 0 ? c->d_model / c->n_heads : 0;
    if (c->d_expert < 0)
        c->d_expert = ffl;
    double eps = c->rms_eps, trunc = 0;
    if ((e = g_num(s, pre, "attention.layer_norm_rms_epsilon", &eps, fname, errbuf, cap)) ||
        (e = g_num(s, pre, "rope.freq_base", &c->rope.theta, fname, errbuf, cap)) ||
        (e = g_num(s, pre, "rope.scaling.factor", &c->rope.factor, fname, errbuf, cap)) ||
        (e = g_num(s, pre, "rope.scaling.original_context_length", &c->rope.orig_ctx, fname, errbuf,
                   cap)) ||
        (e = g_num(s, pre, "rope.scaling.yarn_beta_fast", &c->rope.beta_fast, fname, errbuf,
                   cap)) ||
        (e = g_num(s, pre, "rope.scaling.yarn_beta_slow", &c->rope.beta_slow, fname, errbuf,
                   cap)) ||
        (e = g_num(s, pre, "rope.scaling.yarn_truncate", &trunc, fname, errbuf, cap)))
        return e;
    c->rms_eps = (float)eps;
    c->rope.truncate = trunc != 0;
    char k[256];
    const char *ty;
    size_t tl;
    snprintf(k, sizeof k, "%s.rope.scaling.type", pre);
    if (pii_rt_store_kv_str(s, k, &ty, &tl) == PII_OK)
        c->rope.yarn = tl == 4 && !memcmp(ty, "yarn", 4);
    const pii_rt_tensor *emb = pii_rt_store_find(s, "token_embd.weight");
    if (!emb || emb->ndim != 2 || emb->shape[0] > MAX_VOCAB)
        return pii_pf_fail(errbuf, cap, PII_EMODEL, fname,
                           "tensor 'token_embd.weight' missing or bad");
    c->vocab_size = (int)emb->shape[0];
    int64_t pad;
    if (pii_rt_store_kv_int(s, "tokenizer.ggml.padding_token_id", &pad) == PII_OK && pad >= 0 &&
        pad < c->vocab_size)
        c->pad_id = (int)pad;
    /* labels */
    snprintf(k, sizeof k, "%s.classifier.output_labels", pre);
    pii_rt_kvtype et;
    uint64_t cnt = 0;
    const void *dummy;
    e = pii_rt_store_kv_arr(s, k, &et, &cnt, &dummy);
    if (e == PII_OK && (et != PII_KV_STRING || cnt < 1 || cnt > MAX_LABELS))
        return pii_pf_fail(errbuf, cap, PII_EMODEL, fname, "GGUF key %s is not a label list", k);
    int nlab = -1;
    if ((e = g_int(s, pre, "embedding_length_out", &nlab, 0, fname, errbuf, cap)))
        return e;
    if (cnt && nlab >= 0 && (uint64_t)nlab != cnt)
        return pii_pf_fail(errbuf, cap, PII_EMODEL, fname, "%d outputs but %llu labels", nlab,
                           (unsigned long long)cnt);
    c->n_labels = cnt ? (int)cnt : nlab;
    const char *why;
    if (!check_cfg(c, &why))
        return pii_pf_fail(errbuf, cap, PII_EMODEL, fname, "%s", why);
    if (!cnt)
        return pii_pf_labels_default(c->n_labels, labels);
    const char **ptr = calloc(cnt, sizeof *ptr);
    uint32_t *len = calloc(cnt, sizeof *len);
    char **l = calloc(cnt, sizeof *l);
    e = ptr && len && l ? pii_rt_store_kv_strings(s, k, ptr, len, cnt) : PII_ENOMEM;
    for (uint64_t i = 0; !e && i < cnt; i++) {
        if (len[i] == 0 || len[i] > 256 || has_control(ptr[i], len[i]))
            e = pii_pf_fail(errbuf, cap, PII_EMODEL, fname, "label %llu: bad name",
                            (unsigned long long)i);
        else if (!(l[i] = strndup(ptr[i], len[i])))
            e = PII_ENOMEM;
    }
    free(ptr);
    free(len);
    if (e) {
        pii_pf_labels_free(l, (int)cnt);
        return e;
    }
    *labels = l;
    return PII_OK;
}
