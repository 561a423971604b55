/* build.c — pii_redactor_build (pii_config.h): from a pii_config to a
 * ready redactor, the one assembly the command and the easy layer share.
 * Every message is written into the pii_build_diag; nothing is printed. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "labelset.h"
#include "pii_config.h"
#include "pii_default_model.h"
#include "pii_names.h"
#include "pii_rt.h"

/* Appends one line (printf-style) to buf[0..cap). */
static void line(char *buf, size_t cap, const char *fmt, va_list ap)
{
    size_t k = strlen(buf);
    if (k + 1 >= cap)
        return;
    vsnprintf(buf + k, cap - k, fmt, ap);
    k = strlen(buf);
    if (k + 1 < cap)
        buf[k] = '\n', buf[k + 1] = 0;
}

static pii_err fail(pii_build_diag *d, int stage, pii_err e, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static pii_err fail(pii_build_diag *d, int stage, pii_err e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    line(d->msg, sizeof d->msg, fmt, ap);
    va_end(ap);
    d->stage = stage;
    return e;
}

static void note(pii_build_diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(pii_build_diag *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    line(d->notes, sizeof d->notes, fmt, ap);
    va_end(ap);
}

#define GET(key) pii_config_get(c, key)
#define ON(key) (pii_config_get(c, key) != NULL)

/* Reports a label that does not resolve. */
static pii_err bad_label(const pii_labelset *ls, const char *opt, const char *msg, const char *hint,
                         pii_build_diag *d)
{
    char list[1024];
    pii_labelset_list(ls, list, sizeof list);
    fail(d, PII_BUILD_OTHER, PII_EINVAL, "%s: %s", opt, msg);
    if (hint[0])
        fail(d, PII_BUILD_OTHER, PII_EINVAL, "did you mean '%s'?", hint);
    return fail(d, PII_BUILD_OTHER, PII_EINVAL, "active labels: %s", list[0] ? list : "(none)");
}

/* name[0..len) as a canonical label for option `opt`, or NULL after a
 * message (*e set). */
static const char *resolve(const pii_labelset *ls, const char *opt, const char *name, size_t len,
                           pii_err *e, pii_build_diag *d)
{
    char msg[160], hint[80];
    const char *r = pii_labelset_resolve(ls, name, len, msg, sizeof msg, hint, sizeof hint);
    if (!r)
        *e = bad_label(ls, opt, msg, hint, d);
    return r;
}

static int parse_op(const char *spec, pii_op *op)
{
    if (strncmp(spec, "placeholder:", 12) == 0) {
        pii_op_default(op, PII_OP_PLACEHOLDER);
        op->tmpl = spec + 12;
        return 0;
    }
    return pii_op_parse(spec, op) == PII_OK ? 0 : -1;
}

/* An operator spec is per label when its '=' comes before any ':'. */
static const char *op_label_eq(const char *spec)
{
    const char *eq = strchr(spec, '='), *colon = strchr(spec, ':');
    return eq && (!colon || eq < colon) ? eq : NULL;
}

static pii_err build_key(const pii_config *c, pii_build *b, pii_build_diag *d)
{
    uint8_t key[PII_KEY_BUF];
    char msg[512], warn[256];
    size_t n = 0;
    const char *name;
    const uint8_t *given = pii_config_key_bytes(c, &n, &name);
    pii_err e = PII_OK;
    if (GET("key-file")) {
        if ((e = pii_key_load(GET("key-file"), key, &n, msg, sizeof msg, warn, sizeof warn)))
            return fail(d, PII_BUILD_OTHER, e, "%s", msg);
        given = key;
    } else if (!given) {
        return PII_OK;
    } else if ((e = pii_key_check(name, n, msg, sizeof msg, warn, sizeof warn))) {
        return fail(d, PII_BUILD_OTHER, e, "%s", msg);
    }
    if (warn[0]) {
        size_t k = strlen(d->warnings);
        snprintf(d->warnings + k, sizeof d->warnings - k, "%s\n", warn);
    }
    e = pii_ops_set_key(b->ops, given, n);
    if (!e && (b->key = malloc(n))) {
        memcpy(b->key, given, n);
        b->keylen = n;
    } else if (!e) {
        e = PII_ENOMEM;
    }
    memset(key, 0, sizeof key);
    return e ? fail(d, PII_BUILD_OTHER, e, "hash key: %s", pii_strerror(e)) : PII_OK;
}

static pii_err build_ops(const pii_config *c, pii_build *b, pii_build_diag *d)
{
    size_t nops;
    const char *const *ops = pii_config_list(c, "operator", &nops);
    pii_op def;
    pii_op_default(&def, PII_OP_PLACEHOLDER);
    for (size_t i = 0; i < nops; i++) /* the last global one wins */
        if (!op_label_eq(ops[i]) && parse_op(ops[i], &def))
            return fail(d, PII_BUILD_OTHER, PII_EINVAL, "bad operator '%s'", ops[i]);
    pii_err e;
    if (!(b->ops = pii_ops_create(&def, &e)))
        return fail(d, PII_BUILD_OTHER, e, "operators: %s", pii_strerror(e));
    for (size_t i = 0; i < nops; i++) {
        const char *spec = ops[i], *eq = op_label_eq(spec);
        pii_op op;
        if (!eq)
            continue;
        if (parse_op(eq + 1, &op))
            return fail(d, PII_BUILD_OTHER, PII_EINVAL, "bad operator '%s'", spec);
        const char *label = resolve(b->labels, "--operator", spec, (size_t)(eq - spec), &e, d);
        if (!label)
            return e;
        if ((e = pii_ops_set(b->ops, label, &op)))
            return fail(d, PII_BUILD_OTHER, PII_EINVAL, "bad operator '%s': %s", spec,
                        pii_strerror(e));
    }
    if ((e = build_key(c, b, d)))
        return e;
    if ((e = pii_ops_check(b->ops))) {
        if (e == PII_ENOKEY)
            return fail(d, PII_BUILD_OTHER, e,
                        "the hash operator needs a key: --key-file FILE or $PII_REDACT_KEY");
        return fail(d, PII_BUILD_OTHER, e, "operators: %s", pii_strerror(e));
    }
    return PII_OK;
}

static pii_err select_labels(const pii_config *c, pii_build *b, pii_build_diag *d)
{
    const char *list = GET("labels") ? GET("labels") : GET("exclude-labels");
    if (!list)
        return PII_OK;
    const char *opt = GET("labels") ? "--labels" : "--exclude-labels";
    const char *items[64];
    size_t n = 0;
    pii_err e = PII_OK;
    if (!*list)
        return fail(d, PII_BUILD_OTHER, PII_EINVAL, "%s: empty list of labels", opt);
    /* Every comma-separated item must name an active label: an empty item
     * ("a,,b", "a,") or a typo would select less than asked. */
    for (const char *t = list;; t++) {
        const char *end = strchr(t, ',');
        size_t len = end ? (size_t)(end - t) : strlen(t);
        if (n == 64)
            return fail(d, PII_BUILD_OTHER, PII_EINVAL, "%s: too many labels", opt);
        if (!(items[n++] = resolve(b->labels, opt, t, len, &e, d)))
            return e;
        if (!end)
            break;
        t = end;
    }
    if ((e = pii_redactor_select_labels(b->red, items, n, GET("labels") == NULL)))
        return fail(d, PII_BUILD_OTHER, e, "labels: %s", pii_strerror(e));
    return PII_OK;
}

static pii_err ner_params(const pii_config *c, pii_ner_params *np, pii_build_diag *d)
{
    size_t n;
    *np = pii_ner_default_params();
    if (GET("window")) /* the values were checked by pii_config_set */
        np->window = np->pack_tokens = strtoul(GET("window"), NULL, 10);
    if (GET("pack"))
        np->pack_tokens = strtoul(GET("pack"), NULL, 10);
    if (GET("threads"))
        np->threads = (int)strtoul(GET("threads"), NULL, 10);
    np->no_cache = ON("no-cache");
    const char *const *v = pii_config_list(c, "threshold", &n);
    for (size_t i = 0; i < n; i++)
        if (pii_ner_params_threshold(np, v[i]))
            return fail(d, PII_BUILD_OTHER, PII_EINVAL,
                        "--threshold: bad value '%s' (X or LABEL=X, 0 <= X <= 1)", v[i]);
    v = pii_config_list(c, "bias", &n);
    for (size_t i = 0; i < n; i++)
        if (pii_ner_params_bias(np, v[i]))
            return fail(d, PII_BUILD_OTHER, PII_EINVAL, "--bias: bad value '%s' (KEY=VALUE)", v[i]);
    if (GET("decode") && pii_ner_params_decode(np, GET("decode")))
        return fail(d, PII_BUILD_OTHER, PII_EINVAL, "--decode: '%s' is not viterbi or argmax",
                    GET("decode"));
    if (GET("operating-point"))
        snprintf(np->operating_point, sizeof np->operating_point, "%s", GET("operating-point"));
    np->calibration_path = GET("calibration");
    np->no_calibration = ON("no-calibration");
    return PII_OK;
}

/* The model's own tokenizer.json, when its directory has one; it must agree
 * with the built-in o200k table wherever both define a token. */
static pii_err model_tokenizer(pii_build *b, pii_build_diag *d)
{
    const char *dir = pii_model_dir(b->model);
    char path[4096], msg[256] = "";
    if (!dir || snprintf(path, sizeof path, "%s/tokenizer.json", dir) >= (int)sizeof path)
        return PII_OK;
    if (access(path, R_OK) != 0)
        return PII_OK;
    pii_err e = pii_tok_load_hf_json(path, &b->tok, msg, sizeof msg);
    if (!e)
        e = pii_tok_compare(b->tok, pii_tok_o200k(), NULL, msg, sizeof msg);
    if (e)
        return fail(d, PII_BUILD_MODEL, e, "%s: %s%s%s", path, pii_strerror(e), msg[0] ? ": " : "",
                    msg);
    return PII_OK;
}

/* threshold LABEL=X names resolved against the model's categories (from
 * its label names "B-x", "I-x", "E-x", "S-x", "x"; "O" is none). */
static pii_err resolve_thresholds(const pii_model *m, pii_ner_params *np, pii_build_diag *d)
{
    if (!np->nlabel_thresholds)
        return PII_OK;
    pii_labelset *ls = pii_labelset_create();
    pii_err e = ls ? PII_OK : PII_ENOMEM;
    const pii_model_config *cfg = pii_model_cfg(m);
    for (int id = 0; !e && id < cfg->n_labels; id++) {
        const char *name = pii_model_label(m, id);
        if (!name || strcmp(name, "O") == 0)
            continue;
        if (strlen(name) > 2 && name[1] == '-' && strchr("BIES", name[0]))
            name += 2;
        if (pii_labelset_add(ls, name, "model"))
            e = PII_ENOMEM;
    }
    for (size_t i = 0; i < np->nlabel_thresholds && !e; i++) {
        char *label = np->label_thresholds[i].label;
        const char *r = resolve(ls, "--threshold", label, strlen(label), &e, d);
        if (r && strlen(r) < sizeof np->label_thresholds[i].label)
            memmove(label, r, strlen(r) + 1);
    }
    pii_labelset_free(ls);
    if (e == PII_ENOMEM)
        return fail(d, PII_BUILD_OTHER, e, "labels: %s", pii_strerror(e));
    return e;
}

static pii_err build_model(const pii_config *c, pii_build *b, pii_build_diag *d)
{
    pii_err e = PII_OK;
    char msg[512] = "";
    pii_ner_params np;
    if ((e = ner_params(c, &np, d)))
        return e;
    const char *mpath = GET("model");
    if (mpath && strcmp(mpath, "builtin") == 0)
        mpath = NULL;
    pii_model_params mp;
    pii_model_default_params(&mp);
    pii_rt_qact a;
    pii_rt_isa isa;
    if (GET("act") && pii_rt_qact_parse(GET("act"), &a) == PII_OK)
        mp.qact = (int)a;
    if (GET("attn"))
        mp.attn = !strcmp(GET("attn"), "f32")     ? PII_MODEL_ATTN_F32
                  : !strcmp(GET("attn"), "int16") ? PII_MODEL_ATTN_INT16
                                                  : PII_MODEL_ATTN_AUTO;
    if (GET("isa") && pii_rt_isa_parse(GET("isa"), &isa) == PII_OK)
        mp.isa = (int)isa;
    mp.gguf_q8_0_exact = ON("gguf-q8-0-exact");
    if (mpath) {
        b->model = pii_model_load(mpath, &mp, &e, msg, sizeof msg);
    } else {
        b->model = pii_default_model_load(&mp, &e, msg, sizeof msg);
        if (!b->model && e == PII_ENOTFOUND && !ON("model-only")) {
            note(d, "note: this build has no default model; using the rule tier only (see -m)");
            return PII_OK;
        }
    }
    const char *what = mpath ? mpath : "default model";
    if (!b->model) {
        /* the loader's message often names the path and the system's reason
         * already ("/x: No such file or directory"): say each once */
        size_t wl = strlen(what);
        int named = msg[0] && strncmp(msg, what, wl) == 0 && msg[wl] == ':';
        int reason = msg[0] && e == PII_ENOTFOUND;
        return fail(d, PII_BUILD_MODEL, e, "%s%s%s%s%s", named ? "" : what, named ? "" : ": ",
                    reason ? "" : pii_strerror(e), msg[0] && !reason ? ": " : "", msg);
    }
    /* A NaN or infinity in a weight would silence the model: refuse it
     * (the forward pass also refuses non-finite logits). */
    if ((e = pii_model_check_finite(b->model, msg, sizeof msg)))
        return fail(d, PII_BUILD_MODEL, e, "%s: %s: %s", GET("model") ? GET("model") : what,
                    pii_strerror(e), msg);
    if ((e = model_tokenizer(b, d)) || (e = resolve_thresholds(b->model, &np, d)))
        return e;
    if (!mpath) { /* the built-in model's shipped operating point, under the
                     caller's bias and threshold values (labels resolved) */
        size_t n;
        const char *const *th = pii_config_list(c, "threshold", &n);
        int global = 0;
        for (size_t i = 0; i < n; i++)
            global |= !strchr(th[i], '=');
        pii_default_model_apply_operating_point(&np, global);
    }
    b->ner = pii_ner_create(b->model, b->tok, &np, &e, msg, sizeof msg);
    if (!b->ner)
        return fail(d, e == PII_EINVAL ? PII_BUILD_OTHER : PII_BUILD_MODEL, e, "model tier: %s%s%s",
                    pii_strerror(e), msg[0] ? ": " : "", msg);
    pii_ner_set_name_memory(b->ner, !ON("no-name-memory"));
    pii_ner_set_name_lexicon(b->ner, !ON("no-name-lexicon"));
    pii_ner_set_name_filter(b->ner, !ON("no-name-filter"));
    pii_ner_set_dictionary_filter(b->ner, !ON("no-dictionary-filter"));
    pii_ner_set_name_lexicon_parts(b->ner, PII_NER_LEX_PAIRS |
                                               (ON("no-honorifics") ? 0 : PII_NER_LEX_TITLES) |
                                               (ON("no-citations") ? 0 : PII_NER_LEX_CITATIONS));
    /* issue 42 (Low): a window just above 2 x the receptive field leaves a
     * stride of a few tokens, so each token runs through the model W/stride
     * times (--window 1025: a 60 KB file took 306 s instead of 1.7 s) */
    size_t W = pii_ner_window(b->ner), H = pii_ner_halo(b->ner);
    if (GET("window") && W < 4 * H)
        note(d,
             "warning: --window %zu leaves %zu new tokens per window of %zu (receptive field "
             "%zu): long inputs run each token about %zu times; use at least %zu",
             W, W - 2 * H, W, H, (W + (W - 2 * H) - 1) / (W - 2 * H), 4 * H);
    const char *cw = pii_ner_calibration_warning(b->ner);
    if (cw[0])
        note(d, "warning: %s: %s", pii_ner_calibration_file(b->ner), cw);
    if ((e = pii_redactor_add_detector(b->red, pii_ner_detector(b->ner))))
        return fail(d, PII_BUILD_OTHER, e, "model tier: %s", pii_strerror(e));
    return PII_OK;
}

/* Without the model tier (rules-only, a build with no model) the name
 * recognizers that need none run as a detector of their own (pii_names.h),
 * under the same switches. */
static pii_err build_names(const pii_config *c, pii_build *b, pii_build_diag *d)
{
    if (b->ner || ON("model-only") || ON("no-name-lexicon"))
        return PII_OK;
    unsigned parts = PII_NAMES_PAIRS | (ON("no-honorifics") ? 0 : PII_NAMES_TITLES) |
                     (ON("no-citations") ? 0 : PII_NAMES_CITATIONS) |
                     (ON("no-name-memory") ? 0 : PII_NAMES_MEMORY) |
                     (ON("no-name-filter") ? 0 : PII_NAMES_FILTER);
    pii_err e;
    if (!(b->names = pii_names_create(parts, &e)) ||
        (e = pii_redactor_add_detector(b->red, pii_names_detector(b->names))))
        return fail(d, PII_BUILD_OTHER, e, "name recognizers: %s", pii_strerror(e));
    return PII_OK;
}

/* b->labels: what the active detectors report.  Without the model tier a
 * threshold LABEL=X is checked here too (it cannot act, but a typo is
 * still a typo). */
static pii_err active_labels(const pii_config *c, pii_build *b, pii_build_diag *d)
{
    pii_labelset *ls = b->labels = pii_labelset_create();
    int bad = !ls;
    if (b->ner) {
        const pii_ner_labels *L = pii_ner_get_labels(b->ner);
        for (size_t k = 0; !bad && k < pii_ner_labels_ncat(L); k++)
            bad = pii_labelset_add(ls, pii_ner_labels_category(L, k), "model");
    }
    for (size_t i = 0; b->rules && !bad && i < pii_rules_count(b->rules); i++)
        bad = pii_labelset_add(ls, pii_rules_info(b->rules, i)->label, "rules");
    if (b->names && !bad)
        bad = pii_labelset_add(ls, pii_names_label(), "rules");
    for (size_t i = 0; !bad && i < pii_custom_count(b->custom); i++)
        bad = pii_labelset_add(ls, pii_custom_info(b->custom, i)->label, "custom rules");
    for (size_t i = 0; !bad && i < pii_deny_nlabels(b->deny); i++)
        bad = pii_labelset_add(ls, pii_deny_label(b->deny, i), "deny");
    if (bad)
        return fail(d, PII_BUILD_OTHER, PII_ENOMEM, "labels: %s", pii_strerror(PII_ENOMEM));
    size_t n;
    const char *const *th = pii_config_list(c, "threshold", &n);
    pii_err e = PII_OK;
    for (size_t i = 0; !b->ner && i < n; i++) {
        const char *eq = strrchr(th[i], '=');
        if (eq && !resolve(ls, "--threshold", th[i], (size_t)(eq - th[i]), &e, d))
            return e;
    }
    return PII_OK;
}

static pii_err build_custom(const char *path, pii_build *b, pii_build_diag *d)
{
    pii_err e;
    size_t at;
    char msg[256];
    if (!(b->custom = pii_custom_load(path, &e, &at, msg, sizeof msg))) {
        if (e == PII_EIO)
            return fail(d, PII_BUILD_FILE, e, "rule file %s: %s", path, strerror(errno));
        if (at)
            return fail(d, PII_BUILD_FILE, e, "%s:%zu: %s", path, at, msg);
        return fail(d, PII_BUILD_FILE, e, "%s: %s", path, msg[0] ? msg : pii_strerror(e));
    }
    if (pii_custom_has_paths(b->custom)) /* each input is named (main.c, batch.c) */
        pii_redactor_set_span_filter(b->red, pii_custom_keep_span, b->custom);
    if ((e = pii_redactor_add_detector(b->red, pii_custom_detector(b->custom))))
        return fail(d, PII_BUILD_OTHER, e, "custom rules: %s", pii_strerror(e));
    return PII_OK;
}

/* The pairs of switches and values that exclude each other. */
static pii_err conflicts(const pii_config *c, pii_build_diag *d)
{
    static const char *const pairs[][3] = {
        {"labels", "exclude-labels", "--labels and --exclude-labels cannot be combined"},
        {"calibration", "no-calibration", "--calibration and --no-calibration cannot be combined"},
        {"rules-file", "no-rules-file", "--rules-file and --no-rules-file cannot be combined"},
        {"rules-file", "model-only",
         "--rules-file adds rules: it cannot be combined with --model-only"},
        {"rules-only", "model-only", "--rules-only and --model-only cannot be combined"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        if (GET(pairs[i][0]) && GET(pairs[i][1]))
            return fail(d, PII_BUILD_OTHER, PII_EINVAL, "%s", pairs[i][2]);
    return PII_OK;
}

static pii_err build(const pii_config *c, pii_build *b, pii_build_diag *d)
{
    pii_err e;
    char msg[256] = "";
    if ((e = conflicts(c, d)))
        return e;
    if (!(b->red = pii_redactor_create(&e)))
        return fail(d, PII_BUILD_OTHER, e, "redactor: %s", pii_strerror(e));
    /* UTF-16/UTF-32 input is refused unless binary asks for byte-wise
     * redaction (docs/HARDENING.md). */
    pii_redactor_set_wide_guard(b->red, !ON("binary"));
    if (!ON("rules-only") && (e = build_model(c, b, d)))
        return e;
    if (!ON("model-only")) {
        if (!(b->rules = pii_rules_create_flags(ON("all-dates-urls") ? PII_RULES_BROAD : 0, &e)) ||
            (e = pii_redactor_add_detector(b->red, pii_rules_detector(b->rules))))
            return fail(d, PII_BUILD_OTHER, e, "rules: %s", pii_strerror(e));
    }
    if ((e = build_names(c, b, d)))
        return e;
    if (!ON("model-only") && !ON("no-rules-file") && GET("rules-file") &&
        (e = build_custom(GET("rules-file"), b, d)))
        return e;
    const char *path;
    if ((path = GET("deny"))) {
        if (!(b->deny = pii_deny_load(path, &e, msg, sizeof msg)))
            return fail(d, PII_BUILD_FILE, e, "%s: %s%s%s", path, pii_strerror(e),
                        msg[0] ? ": " : "", msg);
        if ((e = pii_redactor_add_detector(b->red, pii_deny_detector(b->deny))))
            return fail(d, PII_BUILD_OTHER, e, "deny list: %s", pii_strerror(e));
    }
    if ((path = GET("allow"))) {
        if (!(b->allow = pii_allow_load(path, &e, msg, sizeof msg)))
            return fail(d, PII_BUILD_FILE, e, "%s: %s%s%s", path, pii_strerror(e),
                        msg[0] ? ": " : "", msg);
        pii_redactor_set_allow(b->red, b->allow);
        pii_redactor_set_allow_rescan(b->red, b->rules); /* NULL: model-only */
    }
    if ((e = active_labels(c, b, d)) || (e = build_ops(c, b, d)))
        return e;
    pii_redactor_set_ops(b->red, b->ops);
    return select_labels(c, b, d);
}

pii_err pii_redactor_build(const pii_config *c, pii_build *b, pii_build_diag *d)
{
    memset(b, 0, sizeof *b);
    memset(d, 0, sizeof *d);
    if (!c)
        return fail(d, PII_BUILD_OTHER, PII_EINVAL, "no configuration");
    pii_err e = build(c, b, d);
    if (e) {
        if (!d->msg[0])
            fail(d, PII_BUILD_OTHER, e, "%s", pii_strerror(e));
        pii_build_free(b);
    }
    return e;
}

void pii_build_free(pii_build *b)
{
    if (!b)
        return;
    pii_redactor_free(b->red);
    pii_ner_free(b->ner);
    pii_tok_free(b->tok);
    pii_model_free(b->model);
    pii_ops_free(b->ops);
    pii_allow_free(b->allow);
    pii_deny_free(b->deny);
    pii_rules_free(b->rules);
    pii_names_free(b->names);
    pii_custom_free(b->custom);
    pii_labelset_free(b->labels);
    if (b->key) {
        volatile uint8_t *k = b->key;
        for (size_t i = 0; i < b->keylen; i++)
            k[i] = 0;
        free(b->key);
    }
    memset(b, 0, sizeof *b);
}
