/* pipeline.c — from options to a ready pii_redactor. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "model_cli.h"
#include "pii_default_model.h"
#include "pii_names.h"
#include "pii_rt.h"
#include "pipeline.h"
#include "settings.h"

void pii_cli_error(const char *what, pii_err e)
{
    fprintf(stderr, "pii-redact: %s: %s\n", what, pii_strerror(e));
}

int pii_exit_for(pii_err e)
{
    switch (e) {
    case PII_OK:
        return PII_EXIT_OK;
    case PII_EINVAL:
    case PII_ENOKEY:
        return PII_EXIT_USAGE;
    case PII_EIO:
    case PII_EWRITE:
    case PII_EENCODING:
        return PII_EXIT_IO;
    case PII_EFORMAT:
    case PII_ETRUNC:
    case PII_ESHAPE:
    case PII_EDTYPE:
    case PII_EMODEL:
    case PII_EUNSUPPORTED:
    case PII_ETOKENIZER:
        return PII_EXIT_MODEL;
    default:
        return PII_EXIT_FAIL;
    }
}

/* Reads the hash key: a file that only its owner can read, or the
 * environment.  A trailing newline in the file is not part of the key. */
/* Keys for the hash operator: at least PII_KEY_MIN bytes (a short key is
 * recovered by brute force from one known value: a 4-byte key took 1.9 s),
 * a warning below PII_KEY_GOOD, at most PII_KEY_MAX (file or environment;
 * never truncated).  It must be random: `head -c 32 /dev/urandom >key`. */
#define PII_KEY_MIN 16
#define PII_KEY_GOOD 32
#define PII_KEY_MAX 4096
_Static_assert(PII_CLI_KEY_BUF == PII_KEY_MAX + 3, "the maximum, CR LF, one byte to see longer");

int pii_cli_load_key(const char *path, uint8_t key[PII_CLI_KEY_BUF], size_t *out_n)
{
    size_t n = 0;
    *out_n = 0;
    if (path) {
        /* O_NONBLOCK: a FIFO named as the key file must not hang in open() */
        int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0) {
            fprintf(stderr, "pii-redact: %s: %s\n", path, strerror(errno));
            return PII_EXIT_IO;
        }
        struct stat st;
        if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
            fprintf(stderr, "pii-redact: %s: the key file must be a regular file\n", path);
            close(fd);
            return PII_EXIT_USAGE;
        }
        if (st.st_mode & 077) {
            fprintf(stderr,
                    "pii-redact: %s: key file is accessible by group or others; "
                    "run chmod 600 on it\n",
                    path);
            close(fd);
            return PII_EXIT_USAGE;
        }
        ssize_t r = 0;
        while (n < PII_CLI_KEY_BUF &&
               ((r = read(fd, key + n, PII_CLI_KEY_BUF - n)) > 0 || (r < 0 && errno == EINTR)))
            n += r > 0 ? (size_t)r : 0;
        close(fd);
        if (r < 0) {
            fprintf(stderr, "pii-redact: %s: unreadable: %s\n", path, strerror(errno));
            memset(key, 0, PII_CLI_KEY_BUF);
            return PII_EXIT_IO;
        }
        while (n && (key[n - 1] == '\n' || key[n - 1] == '\r'))
            n--;
    } else {
        const char *env = getenv("PII_REDACT_KEY");
        if (!env)
            return -1;
        n = strlen(env);
        if (n > PII_KEY_MAX)
            n = PII_KEY_MAX + 1; /* refused below, never truncated */
        else
            memcpy(key, env, n);
    }
    const char *src = path ? path : "PII_REDACT_KEY";
    if (n == 0) {
        fprintf(stderr, "pii-redact: the hash key is empty\n");
        return PII_EXIT_USAGE;
    }
    if (n > PII_KEY_MAX) {
        fprintf(stderr, "pii-redact: %s: the hash key is longer than %d bytes\n", src, PII_KEY_MAX);
        memset(key, 0, PII_CLI_KEY_BUF);
        return PII_EXIT_USAGE;
    }
    if (n < PII_KEY_MIN) {
        fprintf(stderr,
                "pii-redact: %s: the hash key has %zu bytes; at least %d random bytes are needed "
                "(a short key is found by brute force): head -c 32 /dev/urandom >KEYFILE\n",
                src, n, PII_KEY_MIN);
        memset(key, 0, PII_CLI_KEY_BUF);
        return PII_EXIT_USAGE;
    }
    if (n < PII_KEY_GOOD)
        fprintf(stderr,
                "pii-redact: warning: %s: the hash key has %zu bytes; use %d or more random "
                "bytes\n",
                src, n, PII_KEY_GOOD);
    *out_n = n;
    return -1;
}

static int load_key(const char *path, pii_pipeline *p)
{
    uint8_t key[PII_CLI_KEY_BUF];
    size_t n;
    int rc = pii_cli_load_key(path, key, &n);
    if (rc >= 0 || n == 0)
        return rc;
    pii_err e = pii_ops_set_key(p->ops, key, n);
    if (!e && (p->key = malloc(n))) { /* for --check's fingerprints, the server, --map-out */
        memcpy(p->key, key, n);
        p->keylen = n;
    } else if (!e) {
        e = PII_ENOMEM;
    }
    memset(key, 0, PII_CLI_KEY_BUF);
    if (e) {
        pii_cli_error("hash key", e);
        return pii_exit_for(e);
    }
    return -1;
}

/* Reports a label that does not resolve; returns the usage status. */
static int bad_label(const pii_labelset *ls, const char *opt, const char *msg, const char *hint)
{
    char list[1024];
    pii_labelset_list(ls, list, sizeof list);
    fprintf(stderr, "pii-redact: %s: %s\n", opt, msg);
    if (hint[0])
        fprintf(stderr, "pii-redact: did you mean '%s'?\n", hint);
    fprintf(stderr, "pii-redact: active labels: %s\n", list[0] ? list : "(none)");
    return PII_EXIT_USAGE;
}

/* Resolves name[0..len) for option `opt`: the canonical label, or NULL
 * after a message (*rc = the exit status). */
static const char *resolve(const pii_labelset *ls, const char *opt, const char *name, size_t len,
                           int *rc)
{
    char msg[160], hint[80];
    const char *c = pii_labelset_resolve(ls, name, len, msg, sizeof msg, hint, sizeof hint);
    if (!c)
        *rc = bad_label(ls, opt, msg, hint);
    return c;
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

static int build_ops(const pii_opts *o, pii_pipeline *p)
{
    pii_op def;
    pii_op_default(&def, PII_OP_PLACEHOLDER);
    if (o->op_default && parse_op(o->op_default, &def)) {
        fprintf(stderr, "pii-redact: bad operator '%s'\n", o->op_default);
        return PII_EXIT_USAGE;
    }
    pii_err e;
    p->ops = pii_ops_create(&def, &e);
    if (!p->ops) {
        pii_cli_error("operators", e);
        return pii_exit_for(e);
    }
    for (size_t i = 0; i < o->n_op_label; i++) {
        const char *spec = o->op_label[i];
        const char *eq = strchr(spec, '=');
        size_t ln = (size_t)(eq - spec);
        pii_op op;
        int rc = -1;
        if (parse_op(eq + 1, &op)) {
            fprintf(stderr, "pii-redact: bad operator '%s'\n", spec);
            return PII_EXIT_USAGE;
        }
        const char *label = resolve(p->labels, "--operator", spec, ln, &rc);
        if (!label)
            return rc;
        if ((e = pii_ops_set(p->ops, label, &op))) {
            fprintf(stderr, "pii-redact: bad operator '%s': %s\n", spec, pii_strerror(e));
            return PII_EXIT_USAGE;
        }
    }
    int rc = load_key(o->key_file, p);
    if (rc >= 0)
        return rc;
    if ((e = pii_ops_check(p->ops))) {
        if (e == PII_ENOKEY)
            fprintf(stderr, "pii-redact: the hash operator needs a key: --key-file FILE or "
                            "$PII_REDACT_KEY\n");
        else
            pii_cli_error("operators", e);
        return pii_exit_for(e);
    }
    return -1;
}

static int select_labels(const pii_opts *o, pii_pipeline *p)
{
    const char *list = o->labels ? o->labels : o->exclude_labels;
    if (!list)
        return -1;
    const char *opt = o->labels ? "--labels" : "--exclude-labels";
    const char *items[64];
    size_t n = 0;
    int rc = -1;
    if (!*list) {
        fprintf(stderr, "pii-redact: %s: empty list of labels\n", opt);
        return PII_EXIT_USAGE;
    }
    /* Every comma-separated item must name an active label: an empty item
     * ("a,,b", "a,") or a typo would select less than asked. */
    for (const char *t = list;; t++) {
        const char *end = strchr(t, ',');
        size_t len = end ? (size_t)(end - t) : strlen(t);
        if (n == 64) {
            fprintf(stderr, "pii-redact: %s: too many labels\n", opt);
            return PII_EXIT_USAGE;
        }
        if (!(items[n++] = resolve(p->labels, opt, t, len, &rc)))
            return rc;
        if (!end)
            break;
        t = end;
    }
    pii_err e = pii_redactor_select_labels(p->red, items, n, o->exclude_labels != NULL);
    if (e) {
        pii_cli_error("labels", e);
        return pii_exit_for(e);
    }
    return -1;
}

static int parse_count(const char *opt, const char *s, unsigned long max, unsigned long *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (errno || end == s || *end || s[0] == '-' || v == 0 || v > max) {
        fprintf(stderr, "pii-redact: %s: '%s' is not a number in 1..%lu\n", opt, s, max);
        return -1;
    }
    *out = v;
    return 0;
}

static int ner_params(const pii_opts *o, pii_ner_params *np)
{
    unsigned long v;
    *np = pii_ner_default_params();
    if (o->window) {
        if (parse_count("--window", o->window, 1ul << 24, &v))
            return PII_EXIT_USAGE;
        np->window = v;
        np->pack_tokens = v;
    }
    if (o->pack) {
        if (parse_count("--pack", o->pack, 1ul << 24, &v))
            return PII_EXIT_USAGE;
        np->pack_tokens = v;
    }
    if (o->threads) {
        if (parse_count("--threads", o->threads, 1024, &v))
            return PII_EXIT_USAGE;
        np->threads = (int)v;
    }
    /* documented in pii-redact(1): measurements and tests compare with it */
    const char *nc = getenv("PII_REDACT_NO_CACHE");
    if (nc && *nc && strcmp(nc, "0") != 0)
        np->no_cache = 1;
    /* the int8/int4 kernels' activations: a load parameter (mc_params) */
    if (o->act >= 0)
        mc_qact((pii_rt_qact)o->act);
    if (o->attn >= 0)
        mc_attn(o->attn);
    for (size_t i = 0; i < o->n_thresholds; i++)
        if (pii_ner_params_threshold(np, o->thresholds[i])) {
            fprintf(stderr, "pii-redact: --threshold: bad value '%s' (X or LABEL=X, 0 <= X <= 1)\n",
                    o->thresholds[i]);
            return PII_EXIT_USAGE;
        }
    for (size_t i = 0; i < o->n_biases; i++)
        if (pii_ner_params_bias(np, o->biases[i])) {
            fprintf(stderr, "pii-redact: --bias: bad value '%s' (KEY=VALUE)\n", o->biases[i]);
            return PII_EXIT_USAGE;
        }
    if (o->decode && pii_ner_params_decode(np, o->decode)) {
        fprintf(stderr, "pii-redact: --decode: '%s' is not viterbi or argmax\n", o->decode);
        return PII_EXIT_USAGE;
    }
    if (o->operating_point) {
        if (strlen(o->operating_point) >= sizeof np->operating_point) {
            fprintf(stderr, "pii-redact: --operating-point: name too long\n");
            return PII_EXIT_USAGE;
        }
        strcpy(np->operating_point, o->operating_point);
    }
    np->calibration_path = o->calibration;
    np->no_calibration = o->no_calibration;
    return -1;
}

/* The model's own tokenizer.json, when its directory has one; it must agree
 * with the built-in o200k table wherever both define a token. */
static int model_tokenizer(const pii_opts *o, pii_pipeline *p)
{
    const char *dir = pii_model_dir(p->model);
    char path[4096], msg[256] = "";
    if (!dir || snprintf(path, sizeof path, "%s/tokenizer.json", dir) >= (int)sizeof path)
        return -1;
    if (access(path, R_OK) != 0)
        return -1;
    pii_err e = pii_tok_load_hf_json(path, &p->tok, msg, sizeof msg);
    if (!e)
        e = pii_tok_compare(p->tok, pii_tok_o200k(), NULL, msg, sizeof msg);
    if (e) {
        fprintf(stderr, "pii-redact: %s: %s%s%s\n", path, pii_strerror(e), msg[0] ? ": " : "", msg);
        return PII_EXIT_MODEL;
    }
    (void)o;
    return -1;
}

/* --threshold LABEL=X names resolved against the model's categories (from
 * its label names "B-x", "I-x", "E-x", "S-x", "x"; "O" is none). */
static int resolve_thresholds(const pii_model *m, pii_ner_params *np)
{
    if (!np->nlabel_thresholds)
        return -1;
    pii_labelset *ls = pii_labelset_create();
    int rc = -1;
    if (!ls)
        return PII_EXIT_FAIL;
    const pii_model_config *cfg = pii_model_cfg(m);
    for (int id = 0; id < cfg->n_labels && rc < 0; id++) {
        const char *name = pii_model_label(m, id);
        if (!name || strcmp(name, "O") == 0)
            continue;
        if (strlen(name) > 2 && name[1] == '-' && strchr("BIES", name[0]))
            name += 2;
        if (pii_labelset_add(ls, name, "model"))
            rc = PII_EXIT_FAIL;
    }
    for (size_t i = 0; i < np->nlabel_thresholds && rc < 0; i++) {
        char *label = np->label_thresholds[i].label;
        const char *c = resolve(ls, "--threshold", label, strlen(label), &rc);
        if (c && strlen(c) < sizeof np->label_thresholds[i].label)
            memmove(label, c, strlen(c) + 1);
    }
    pii_labelset_free(ls);
    return rc;
}

/* The built-in model's shipped operating point, under the user's --bias and
 * --threshold values (labels already resolved). */
static void builtin_operating_point(const pii_opts *o, pii_ner_params *np)
{
    int global = 0;
    for (size_t i = 0; i < o->n_thresholds; i++)
        global |= !strchr(o->thresholds[i], '=');
    pii_default_model_apply_operating_point(np, global);
}

static int build_model(const pii_opts *o, pii_pipeline *p)
{
    pii_err e = PII_OK;
    char msg[512] = "";
    pii_ner_params np;
    int rc = ner_params(o, &np);
    if (rc >= 0)
        return rc;
    char mbuf[4096];
    const char *mpath;
    if ((rc = pii_settings_model(o->model_path, o->quiet, mbuf, sizeof mbuf, &mpath)) >= 0)
        return rc;
    pii_model_params mp;
    mc_params(&mp);
    if (mpath) {
        p->model = pii_model_load(mpath, &mp, &e, msg, sizeof msg);
    } else {
        p->model = pii_default_model_load(&mp, &e, msg, sizeof msg);
        if (!p->model && e == PII_ENOTFOUND && !o->model_only) {
            if (!o->quiet)
                fprintf(stderr, "pii-redact: note: this build has no default model; "
                                "using the rule tier only (see -m)\n");
            return -1;
        }
    }
    if (!p->model) {
        /* the loader's message often names the path and the system's reason
         * already ("/x: No such file or directory"): say each once */
        const char *what = mpath ? mpath : "default model";
        size_t wl = strlen(what);
        int named = msg[0] && strncmp(msg, what, wl) == 0 && msg[wl] == ':';
        int reason = msg[0] && e == PII_ENOTFOUND;
        fprintf(stderr, "pii-redact: %s%s%s%s%s\n", named ? "" : what, named ? "" : ": ",
                reason ? "" : pii_strerror(e), msg[0] && !reason ? ": " : "", msg);
        return PII_EXIT_MODEL;
    }
    /* A NaN or infinity in a weight would silence the model: refuse it
     * (the forward pass also refuses non-finite logits). */
    if ((e = pii_model_check_finite(p->model, msg, sizeof msg))) {
        fprintf(stderr, "pii-redact: %s: %s: %s\n", o->model_path ? o->model_path : "default model",
                pii_strerror(e), msg);
        return PII_EXIT_MODEL;
    }
    if ((rc = model_tokenizer(o, p)) >= 0 || (rc = resolve_thresholds(p->model, &np)) >= 0)
        return rc;
    if (!mpath)
        builtin_operating_point(o, &np);
    p->ner = pii_ner_create(p->model, p->tok, &np, &e, msg, sizeof msg);
    if (!p->ner) {
        fprintf(stderr, "pii-redact: model tier: %s%s%s\n", pii_strerror(e), msg[0] ? ": " : "",
                msg);
        return e == PII_EINVAL ? PII_EXIT_USAGE : PII_EXIT_MODEL;
    }
    pii_ner_set_name_memory(p->ner, !o->no_name_memory);
    pii_ner_set_name_lexicon(p->ner, !o->no_name_lexicon);
    pii_ner_set_name_filter(p->ner, !o->no_name_filter);
    pii_ner_set_dictionary_filter(p->ner, !o->no_dict_filter);
    pii_ner_set_name_lexicon_parts(p->ner, PII_NER_LEX_PAIRS |
                                               (o->no_honorifics ? 0 : PII_NER_LEX_TITLES) |
                                               (o->no_citations ? 0 : PII_NER_LEX_CITATIONS));
    /* issue 42 (Low): --window just above 2 x the receptive field leaves a
     * stride of a few tokens, so each token runs through the model W/stride
     * times (--window 1025: a 60 KB file took 306 s instead of 1.7 s) */
    size_t W = pii_ner_window(p->ner), H = pii_ner_halo(p->ner);
    if (o->window && W < 4 * H && !o->quiet)
        fprintf(stderr,
                "pii-redact: warning: --window %zu leaves %zu new tokens per window of %zu "
                "(receptive field %zu): long inputs run each token about %zu times; use at "
                "least %zu\n",
                W, W - 2 * H, W, H, (W + (W - 2 * H) - 1) / (W - 2 * H), 4 * H);
    const char *cw = pii_ner_calibration_warning(p->ner);
    if (cw[0] && !o->quiet)
        fprintf(stderr, "pii-redact: warning: %s: %s\n", pii_ner_calibration_file(p->ner), cw);
    if ((e = pii_redactor_add_detector(p->red, pii_ner_detector(p->ner)))) {
        pii_cli_error("model tier", e);
        return pii_exit_for(e);
    }
    return -1;
}

/* Without the model tier (--rules-only, a build with no model) the name
 * recognizers that need none run as a detector of their own (pii_names.h),
 * under the same switches. */
static int build_names(const pii_opts *o, pii_pipeline *p)
{
    if (p->ner || o->model_only || o->no_name_lexicon)
        return -1;
    unsigned parts = PII_NAMES_PAIRS | (o->no_honorifics ? 0 : PII_NAMES_TITLES) |
                     (o->no_citations ? 0 : PII_NAMES_CITATIONS) |
                     (o->no_name_memory ? 0 : PII_NAMES_MEMORY) |
                     (o->no_name_filter ? 0 : PII_NAMES_FILTER);
    pii_err e;
    if (!(p->names = pii_names_create(parts, &e)) ||
        (e = pii_redactor_add_detector(p->red, pii_names_detector(p->names)))) {
        pii_cli_error("name recognizers", e);
        return pii_exit_for(e);
    }
    return -1;
}

/* p->labels: what the active detectors report.  Without the model tier a
 * --threshold LABEL=X is checked here too (it cannot act, but a typo is
 * still a typo). */
static int active_labels(const pii_opts *o, pii_pipeline *p)
{
    pii_labelset *ls = p->labels = pii_labelset_create();
    int bad = !ls;
    if (p->ner) {
        const pii_ner_labels *L = pii_ner_get_labels(p->ner);
        for (size_t k = 0; !bad && k < pii_ner_labels_ncat(L); k++)
            bad = pii_labelset_add(ls, pii_ner_labels_category(L, k), "model");
    }
    for (size_t i = 0; p->rules && !bad && i < pii_rules_count(p->rules); i++)
        bad = pii_labelset_add(ls, pii_rules_info(p->rules, i)->label, "rules");
    if (p->names && !bad)
        bad = pii_labelset_add(ls, pii_names_label(), "rules");
    for (size_t i = 0; !bad && i < pii_custom_count(p->custom); i++)
        bad = pii_labelset_add(ls, pii_custom_info(p->custom, i)->label, "custom rules");
    for (size_t i = 0; !bad && i < pii_deny_nlabels(p->deny); i++)
        bad = pii_labelset_add(ls, pii_deny_label(p->deny, i), "deny");
    if (bad) {
        pii_cli_error("labels", PII_ENOMEM);
        return PII_EXIT_FAIL;
    }
    int rc = -1;
    for (size_t i = 0; !p->ner && i < o->n_thresholds; i++) {
        const char *eq = strrchr(o->thresholds[i], '=');
        if (eq &&
            !resolve(ls, "--threshold", o->thresholds[i], (size_t)(eq - o->thresholds[i]), &rc))
            return rc;
    }
    return -1;
}

/* --map-out: the pseudonym operator numbers through a pii_pseudo map. */
static int reversible(const pii_opts *o, pii_pipeline *p)
{
    if (!o->map_out)
        return -1;
    int any = o->op_default && strcmp(o->op_default, "pseudonym") == 0;
    for (size_t i = 0; i < o->n_op_label; i++) {
        const char *eq = strchr(o->op_label[i], '=');
        any |= eq && strcmp(eq + 1, "pseudonym") == 0;
    }
    if (!any) {
        fprintf(stderr, "pii-redact: --map-out: no label's operator is pseudonym "
                        "(--operator pseudonym or LABEL=pseudonym)\n");
        return PII_EXIT_USAGE;
    }
    pii_err e;
    if (!(p->map = pii_pseudo_create(&e))) {
        pii_cli_error("--map-out", e);
        return pii_exit_for(e);
    }
    pii_ops_set_pseudo_map(p->ops, p->map);
    return -1;
}

int pii_pipeline_write_map(const pii_opts *o, const pii_pipeline *p)
{
    size_t kn = p->keylen; /* the hash key the pipeline loaded, if any */
    pii_buf js = {0}, sealed = {0};
    int rc = -1;
    pii_err e = pii_pseudo_to_json(p->map, &js);
    if (e == PII_OK && kn)
        e = pii_pseudo_seal(p->key, kn, js.p, js.n, &sealed);
    if (e) {
        pii_cli_error("--map-out", e);
        rc = pii_exit_for(e);
    }
    if (rc < 0 && !kn && !o->quiet)
        fprintf(stderr,
                "pii-redact: warning: %s holds the original values in clear; give "
                "--key-file to seal it\n",
                o->map_out);
    const pii_buf *b = kn ? &sealed : &js;
    char tmp[4096];
    int fd = -1;
    if (rc < 0 && snprintf(tmp, sizeof tmp, "%s.tmpXXXXXX", o->map_out) >= (int)sizeof tmp) {
        fprintf(stderr, "pii-redact: --map-out: name too long\n");
        rc = PII_EXIT_USAGE;
    }
    /* a new file of mode 0600 (mkstemp), then renamed over the name: only
     * ever over a regular file (never a device, FIFO, link or folder) */
    struct stat st;
    if (rc < 0 && lstat(o->map_out, &st) == 0 && !S_ISREG(st.st_mode)) {
        fprintf(stderr, "pii-redact: %s: --map-out replaces a regular file only\n", o->map_out);
        rc = PII_EXIT_USAGE;
    }
    if (rc < 0 && (fd = mkstemp(tmp)) < 0) {
        fprintf(stderr, "pii-redact: %s: %s\n", o->map_out, strerror(errno));
        rc = PII_EXIT_IO;
    }
    if (rc < 0) {
        size_t off = 0;
        while (off < b->n) {
            ssize_t w = write(fd, b->p + off, b->n - off);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                break;
            off += (size_t)w;
        }
        if (off != b->n || fsync(fd) != 0 || close(fd) != 0 || rename(tmp, o->map_out) != 0) {
            fprintf(stderr, "pii-redact: %s: %s\n", o->map_out, strerror(errno));
            unlink(tmp);
            rc = PII_EXIT_IO;
        }
    }
    if (js.p)
        memset(js.p, 0, js.n);
    pii_buf_free(&js);
    pii_buf_free(&sealed);
    return rc;
}

#define PII_RULES_FILE_NAME ".pii-redact.rules"

/* The root of the git repository holding the current directory (the first
 * folder upward with a .git entry) + "/.pii-redact.rules" when that file
 * exists.  0: none. */
static int discover_rules(char *buf, size_t cap)
{
    char dir[PATH_MAX];
    struct stat st;
    if (!getcwd(dir, sizeof dir))
        return 0;
    for (;;) {
        int k = snprintf(buf, cap, "%s%s.git", dir, strcmp(dir, "/") ? "/" : "");
        if (k > 0 && (size_t)k < cap && lstat(buf, &st) == 0) {
            k = snprintf(buf, cap, "%s%s" PII_RULES_FILE_NAME, dir, strcmp(dir, "/") ? "/" : "");
            return k > 0 && (size_t)k < cap && stat(buf, &st) == 0;
        }
        char *slash = strrchr(dir, '/');
        if (!slash || slash == dir)
            return 0;
        *slash = '\0';
    }
}

static int build_custom(const pii_opts *o, pii_pipeline *p)
{
    static char found[PATH_MAX + 32];
    const char *path = o->rules_file;
    if (!path && o->rules_discover && discover_rules(found, sizeof found))
        path = found;
    if (!path)
        return -1;
    pii_err e;
    size_t line;
    char msg[256];
    if (!(p->custom = pii_custom_load(path, &e, &line, msg, sizeof msg))) {
        if (e == PII_EIO)
            fprintf(stderr, "pii-redact: rule file %s: %s\n", path, strerror(errno));
        else if (line)
            fprintf(stderr, "pii-redact: %s:%zu: %s\n", path, line, msg);
        else
            fprintf(stderr, "pii-redact: %s: %s\n", path, msg[0] ? msg : pii_strerror(e));
        return e == PII_EIO ? PII_EXIT_IO : e == PII_ENOMEM ? PII_EXIT_FAIL : PII_EXIT_USAGE;
    }
    p->custom_path = path;
    if (pii_custom_has_paths(p->custom)) /* each input is named (main.c, batch.c) */
        pii_redactor_set_span_filter(p->red, pii_custom_keep_span, p->custom);
    if ((e = pii_redactor_add_detector(p->red, pii_custom_detector(p->custom)))) {
        pii_cli_error("custom rules", e);
        return pii_exit_for(e);
    }
    return -1;
}

int pii_pipeline_build(const pii_opts *o, pii_pipeline *p)
{
    pii_err e;
    char msg[256] = "";
    int rc;
    memset(p, 0, sizeof *p);
    if (!(p->red = pii_redactor_create(&e))) {
        pii_cli_error("redactor", e);
        return pii_exit_for(e);
    }
    /* UTF-16/UTF-32 input is refused (exit 3) unless --binary asks for
     * byte-wise redaction (docs/HARDENING.md). */
    pii_redactor_set_wide_guard(p->red, !o->binary);
    if (!o->rules_only && (rc = build_model(o, p)) >= 0)
        return rc;
    if (!o->model_only) {
        if (!(p->rules = pii_rules_create_flags(o->all_dates_urls ? PII_RULES_BROAD : 0, &e))) {
            pii_cli_error("rules", e);
            return pii_exit_for(e);
        }
        if ((e = pii_redactor_add_detector(p->red, pii_rules_detector(p->rules)))) {
            pii_cli_error("rules", e);
            return pii_exit_for(e);
        }
    }
    if ((rc = build_names(o, p)) >= 0)
        return rc;
    if (!o->model_only && !o->no_rules_file && (rc = build_custom(o, p)) >= 0)
        return rc;
    if (o->deny_file) {
        if (!(p->deny = pii_deny_load(o->deny_file, &e, msg, sizeof msg))) {
            fprintf(stderr, "pii-redact: %s: %s%s%s\n", o->deny_file, pii_strerror(e),
                    msg[0] ? ": " : "", msg);
            return e == PII_EIO ? PII_EXIT_IO : PII_EXIT_USAGE;
        }
        if ((e = pii_redactor_add_detector(p->red, pii_deny_detector(p->deny)))) {
            pii_cli_error("deny list", e);
            return pii_exit_for(e);
        }
    }
    if (o->allow_file) {
        if (!(p->allow = pii_allow_load(o->allow_file, &e, msg, sizeof msg))) {
            fprintf(stderr, "pii-redact: %s: %s%s%s\n", o->allow_file, pii_strerror(e),
                    msg[0] ? ": " : "", msg);
            return e == PII_EIO ? PII_EXIT_IO : PII_EXIT_USAGE;
        }
        pii_redactor_set_allow(p->red, p->allow);
        pii_redactor_set_allow_rescan(p->red, p->rules); /* NULL: --model-only */
    }
    if ((rc = active_labels(o, p)) >= 0 || (rc = build_ops(o, p)) >= 0 ||
        (rc = reversible(o, p)) >= 0)
        return rc;
    pii_redactor_set_ops(p->red, p->ops);
    if ((rc = select_labels(o, p)) >= 0)
        return rc;
    return -1;
}

void pii_pipeline_free(pii_pipeline *p)
{
    pii_redactor_free(p->red);
    pii_ner_free(p->ner);
    pii_tok_free(p->tok);
    pii_model_free(p->model);
    pii_ops_free(p->ops);
    pii_allow_free(p->allow);
    pii_deny_free(p->deny);
    pii_rules_free(p->rules);
    pii_names_free(p->names);
    pii_custom_free(p->custom);
    pii_labelset_free(p->labels);
    pii_pseudo_free(p->map);
    if (p->key) {
        volatile uint8_t *k = p->key;
        for (size_t i = 0; i < p->keylen; i++)
            k[i] = 0;
        free(p->key);
    }
    memset(p, 0, sizeof *p);
}
