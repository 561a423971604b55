/* easy.c — the easy layer of libpiiredact (api/include/piiredact.h).
 *
 * Assembles the same redactor as the command's pipeline (src/pipeline.c)
 * from a pii_easy_options: model tier (built-in or -m), rule tier, deny and
 * allow lists, operators, label selection, thresholds.  Where the command
 * prints a message and picks an exit status, this returns a pii_err and
 * writes the message into the caller's buffer. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PII_STATIC_LINKING_ONLY /* the full layers, linked statically */
#include "piiredact.h"

#ifndef PII_VERSION
#define PII_VERSION "0.0.0"
#endif

#define MAX_LIST 64 /* labels in a list; operators or thresholds in a string */
#define KEY_MIN 16  /* hash key bytes, as the command (src/pipeline.c) */
#define KEY_MAX 4096

struct pii_easy {
    pii_model *model;
    pii_tok *tok;
    pii_ner *ner;
    pii_rules *rules;
    pii_names *names; /* without the model: the name recognizers */
    pii_deny *deny;
    pii_allow *allow;
    pii_ops *ops;
    pii_redactor *red;
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

static pii_err say(pii_err e, char *msg, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void *fail(pii_err e, pii_err *err, char *msg, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Writes the message (printf-style) when msg is not NULL; returns e. */
static pii_err say(pii_err e, char *msg, size_t cap, const char *fmt, ...)
{
    if (msg && cap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, cap, fmt, ap);
        va_end(ap);
    }
    return e;
}

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
    pii_redactor_free(h->red);
    pii_ner_free(h->ner);
    pii_tok_free(h->tok);
    pii_model_free(h->model);
    pii_ops_free(h->ops);
    pii_allow_free(h->allow);
    pii_deny_free(h->deny);
    pii_rules_free(h->rules);
    pii_names_free(h->names);
    free(h);
}

/* The model's own tokenizer.json, when its directory has one; it must agree
 * with the built-in o200k table wherever both define a token. */
static pii_err model_tokenizer(pii_easy *h, char *msg, size_t cap)
{
    const char *dir = pii_model_dir(h->model);
    char path[4096];
    if (!dir || snprintf(path, sizeof path, "%s/tokenizer.json", dir) >= (int)sizeof path ||
        access(path, R_OK) != 0)
        return PII_OK;
    pii_err e = pii_tok_load_hf_json(path, &h->tok, msg, cap);
    if (!e)
        e = pii_tok_compare(h->tok, pii_tok_o200k(), NULL, msg, cap);
    return e;
}

static pii_err build_model(pii_easy *h, const pii_easy_options *o, char *msg, size_t cap)
{
    pii_err e = PII_OK;
    pii_ner_params np = pii_ner_default_params();
    if (o->threads < 0 || o->threads > 1024)
        return say(PII_EINVAL, msg, cap, "threads: %d is not in 0..1024", o->threads);
    np.threads = o->threads;
    for (size_t i = 0; i < o->n_thresholds; i++)
        if ((e = pii_ner_params_threshold(&np, o->thresholds[i])))
            return say(e, msg, cap, "threshold: bad value '%s' (X or LABEL=X, 0 <= X <= 1)",
                       o->thresholds[i]);
    int builtin = !o->model || strcmp(o->model, "builtin") == 0;
    char detail[512] = "";
    pii_model_params mp;
    pii_model_default_params(&mp);
    mp.isa = o->isa;
    if (builtin) {
        h->model = pii_default_model_load(&mp, &e, detail, sizeof detail);
        /* No model compiled in: the rule tier alone, unless it was asked for. */
        if (!h->model && e == PII_ENOTFOUND && !o->model && o->use_rules)
            return PII_OK;
    } else {
        h->model = pii_model_load(o->model, &mp, &e, detail, sizeof detail);
    }
    if (!h->model)
        return say(e, msg, cap, "%s: %s%s%s", builtin ? "built-in model" : o->model,
                   pii_strerror(e), detail[0] ? ": " : "", detail);
    if ((e = model_tokenizer(h, detail, sizeof detail)))
        return say(e, msg, cap, "tokenizer.json: %s%s%s", pii_strerror(e), detail[0] ? ": " : "",
                   detail);
    if (builtin) { /* the built-in model's shipped operating point, as the command does */
        int global = 0;
        for (size_t i = 0; i < o->n_thresholds; i++)
            global |= !strchr(o->thresholds[i], '=');
        pii_default_model_apply_operating_point(&np, global);
    }
    h->ner = pii_ner_create(h->model, h->tok, &np, &e, detail, sizeof detail);
    if (!h->ner)
        return say(e, msg, cap, "model tier: %s%s%s", pii_strerror(e), detail[0] ? ": " : "",
                   detail);
    return pii_redactor_add_detector(h->red, pii_ner_detector(h->ner));
}

/* Whether some active detector reports `label`. */
static int label_active(const pii_easy *h, const char *label)
{
    if (h->ner && pii_ner_labels_find_category(pii_ner_get_labels(h->ner), label) >= 0)
        return 1;
    for (size_t i = 0; h->rules && i < pii_rules_count(h->rules); i++)
        if (strcmp(pii_rules_info(h->rules, i)->label, label) == 0)
            return 1;
    if (h->names && strcmp(pii_names_label(), label) == 0)
        return 1;
    for (size_t i = 0; h->deny && i < pii_deny_nlabels(h->deny); i++)
        if (strcmp(pii_deny_label(h->deny, i), label) == 0)
            return 1;
    return 0;
}

static pii_err select_labels(pii_easy *h, const pii_easy_options *o, char *msg, size_t cap)
{
    const char *list = o->labels ? o->labels : o->exclude_labels;
    if (!list)
        return PII_OK;
    const char *opt = o->labels ? "labels" : "exclude-labels";
    char *copy = strdup(list);
    const char *items[MAX_LIST];
    size_t n = 0;
    pii_err e = PII_OK;
    if (!copy)
        return PII_ENOMEM;
    for (char *t = copy, *end; !e; t = end + 1) {
        if ((end = strchr(t, ',')))
            *end = 0;
        if (n == MAX_LIST)
            e = say(PII_ETOOBIG, msg, cap, "%s: more than %d labels", opt, MAX_LIST);
        else if (!label_active(h, t))
            e = say(PII_EINVAL, msg, cap,
                    "%s: '%s' is not a label of the active "
                    "detectors",
                    opt, t);
        else
            items[n++] = t;
        if (!end)
            break;
    }
    if (!e)
        e = pii_redactor_select_labels(h->red, items, n, o->labels == NULL);
    free(copy);
    return e;
}

/* "placeholder:TEMPLATE" keeps every byte after the colon (pii_op_parse
 * would too, but the command accepts any template; so does this). */
static pii_err parse_op(const char *spec, pii_op *op)
{
    if (strncmp(spec, "placeholder:", 12) == 0) {
        pii_op_default(op, PII_OP_PLACEHOLDER);
        op->tmpl = spec + 12;
        return PII_OK;
    }
    return pii_op_parse(spec, op);
}

/* An operator spec is "OP" (every label) or "LABEL=OP"; the first "OP"
 * sets the default, like --operator. */
static pii_err build_ops(pii_easy *h, const pii_easy_options *o, char *msg, size_t cap)
{
    pii_op def, op;
    pii_err e = PII_OK;
    pii_op_default(&def, PII_OP_PLACEHOLDER);
    for (size_t i = 0; i < o->n_operators; i++)
        if (!strchr(o->operators[i], '=') && parse_op(o->operators[i], &def))
            return say(PII_EINVAL, msg, cap, "bad operator '%s'", o->operators[i]);
    if (!(h->ops = pii_ops_create(&def, &e)))
        return e;
    for (size_t i = 0; i < o->n_operators; i++) {
        const char *spec = o->operators[i], *eq = strchr(spec, '=');
        char label[PII_NER_NAME_MAX];
        if (!eq)
            continue;
        size_t ln = (size_t)(eq - spec);
        if (ln == 0 || ln >= sizeof label || parse_op(eq + 1, &op))
            return say(PII_EINVAL, msg, cap, "bad operator '%s'", spec);
        memcpy(label, spec, ln);
        label[ln] = 0;
        if (!label_active(h, label))
            return say(PII_EINVAL, msg, cap,
                       "operator '%s': '%s' is not a label of the active detectors", spec, label);
        if ((e = pii_ops_set(h->ops, label, &op)))
            return say(e, msg, cap, "bad operator '%s': %s", spec, pii_strerror(e));
    }
    /* The command's rule: a short key is found by brute force from one
     * known value; a long one is refused, never cut. */
    if (o->key && (o->key_len < KEY_MIN || o->key_len > KEY_MAX))
        return say(PII_EINVAL, msg, cap,
                   "the hash key has %zu bytes; it needs %d to %d random bytes", o->key_len,
                   KEY_MIN, KEY_MAX);
    if (o->key && (e = pii_ops_set_key(h->ops, o->key, o->key_len)))
        return e;
    if ((e = pii_ops_check(h->ops)))
        return say(e, msg, cap, "%s",
                   e == PII_ENOKEY ? "the hash operator needs a key (key/key_len, --key-file)"
                                   : pii_strerror(e));
    pii_redactor_set_ops(h->red, h->ops);
    return PII_OK;
}

static pii_err build_lists(pii_easy *h, const pii_easy_options *o, char *msg, size_t cap)
{
    pii_err e = PII_OK;
    char detail[256] = "";
    if (o->deny_file) {
        if (!(h->deny = pii_deny_load(o->deny_file, &e, detail, sizeof detail)))
            return say(e, msg, cap, "%s: %s%s%s", o->deny_file, pii_strerror(e),
                       detail[0] ? ": " : "", detail);
        if ((e = pii_redactor_add_detector(h->red, pii_deny_detector(h->deny))))
            return e;
    }
    if (o->allow_file) {
        if (!(h->allow = pii_allow_load(o->allow_file, &e, detail, sizeof detail)))
            return say(e, msg, cap, "%s: %s%s%s", o->allow_file, pii_strerror(e),
                       detail[0] ? ": " : "", detail);
        pii_redactor_set_allow(h->red, h->allow);
        pii_redactor_set_allow_rescan(h->red, h->rules); /* NULL: no rule tier */
    }
    return PII_OK;
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
    if (!o.use_model && !o.use_rules)
        return fail(PII_EINVAL, err, msg, msgcap, "options: neither the model nor the rules run");
    if ((o.n_operators && !o.operators) || (o.n_thresholds && !o.thresholds))
        return fail(PII_EINVAL, err, msg, msgcap, "options: a count without its array");
    pii_err e = PII_OK;
    pii_easy *h = calloc(1, sizeof *h);
    if (!h)
        return fail(PII_ENOMEM, err, msg, msgcap, "%s", pii_strerror(PII_ENOMEM));
    if (!(h->red = pii_redactor_create(&e)))
        goto out;
    if (o.use_model && (e = build_model(h, &o, msg, msgcap)))
        goto out;
    if (o.use_rules) {
        if (!(h->rules = pii_rules_create(&e)))
            goto out;
        if ((e = pii_redactor_add_detector(h->red, pii_rules_detector(h->rules))))
            goto out;
        /* Without the model the name recognizers that need none run, as
         * in the command (src/pipeline.c). */
        if (!h->ner && (!(h->names = pii_names_create(PII_NAMES_ALL, &e)) ||
                        (e = pii_redactor_add_detector(h->red, pii_names_detector(h->names)))))
            goto out;
    }
    if ((e = build_lists(h, &o, msg, msgcap)) || (e = build_ops(h, &o, msg, msgcap)) ||
        (e = select_labels(h, &o, msg, msgcap)))
        goto out;
out:
    if (e) {
        pii_easy_free(h);
        if (msg && msgcap && !msg[0])
            snprintf(msg, msgcap, "%s", pii_strerror(e));
        return none(e, err);
    }
    if (err)
        *err = PII_OK;
    return h;
}

/* Reads a hash key file the way the command does (src/pipeline.c): a
 * regular file (a FIFO is refused, never waited on) that only its owner may
 * read; a trailing newline is not part of the key.  Sets *n to the length
 * found, up to cap (cap > KEY_MAX: a longer key is refused, not cut). */
static pii_err read_key(const char *path, uint8_t *key, size_t cap, size_t *n, char *msg,
                        size_t mcap)
{
    struct stat st;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    *n = 0;
    if (fd < 0)
        return say(PII_EIO, msg, mcap, "%s: %s", path, strerror(errno));
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (st.st_mode & 077)) {
        close(fd);
        return say(PII_EINVAL, msg, mcap, "%s: %s", path,
                   S_ISREG(st.st_mode) ? "key file is accessible by group or others; run chmod "
                                         "600 on it"
                                       : "the key file must be a regular file");
    }
    ssize_t r = 0;
    while (*n < cap && ((r = read(fd, key + *n, cap - *n)) > 0 || (r < 0 && errno == EINTR)))
        *n += r > 0 ? (size_t)r : 0;
    close(fd);
    if (r < 0)
        return say(PII_EIO, msg, mcap, "%s: unreadable: %s", path, strerror(errno));
    while (*n && (key[*n - 1] == '\n' || key[*n - 1] == '\r'))
        (*n)--;
    return PII_OK;
}

/* Options that take a value, and where it goes. */
enum { A_MODEL, A_LABELS, A_EXCLUDE, A_OPERATOR, A_THRESHOLD, A_THREADS, A_ALLOW, A_DENY, A_KEY };
static const struct {
    const char *name;
    int what;
} arg_opts[] = {
    {"-m", A_MODEL},
    {"--model", A_MODEL},
    {"--labels", A_LABELS},
    {"--exclude-labels", A_EXCLUDE},
    {"--operator", A_OPERATOR},
    {"--threshold", A_THRESHOLD},
    {"--threads", A_THREADS},
    {"--allow-file", A_ALLOW},
    {"--deny-file", A_DENY},
    {"--key-file", A_KEY},
};

pii_easy *pii_easy_create_args(const char *args, pii_err *err, char *msg, size_t msgcap)
{
    pii_easy_options o;
    const char *ops[MAX_LIST], *ths[MAX_LIST], *key_file = NULL;
    uint8_t key[KEY_MAX + 3]; /* the maximum, CR LF, one byte to see "longer" */
    size_t key_len = 0;
    pii_easy *h = NULL;
    pii_err e = PII_OK;
    pii_easy_options_init(&o);
    o.operators = ops;
    o.thresholds = ths;
    if (msg && msgcap)
        msg[0] = 0;
    char *copy = strdup(args ? args : "");
    if (!copy)
        return fail(PII_ENOMEM, err, msg, msgcap, "%s", pii_strerror(PII_ENOMEM));
    char *save = NULL;
    for (char *w = strtok_r(copy, " \t\r\n", &save); w && !e;
         w = strtok_r(NULL, " \t\r\n", &save)) {
        if (strcmp(w, "--rules-only") == 0) {
            o.use_model = 0;
            continue;
        }
        if (strcmp(w, "--model-only") == 0) {
            o.use_rules = 0;
            continue;
        }
        char *val = NULL, *eq = strncmp(w, "--", 2) == 0 ? strchr(w, '=') : NULL;
        if (eq)
            *eq = 0, val = eq + 1;
        size_t k = 0, nk = sizeof arg_opts / sizeof arg_opts[0];
        while (k < nk && strcmp(w, arg_opts[k].name) != 0)
            k++;
        if (k == nk) {
            e = say(PII_EINVAL, msg, msgcap, "unknown option '%s'", w);
            break;
        }
        if (!val && !(val = strtok_r(NULL, " \t\r\n", &save))) {
            e = say(PII_EINVAL, msg, msgcap, "option '%s' needs a value", w);
            break;
        }
        char *end;
        switch (arg_opts[k].what) {
        case A_MODEL:
            o.model = val;
            break;
        case A_LABELS:
            o.labels = val;
            break;
        case A_EXCLUDE:
            o.exclude_labels = val;
            break;
        case A_OPERATOR:
        case A_THRESHOLD: {
            size_t *n = arg_opts[k].what == A_OPERATOR ? &o.n_operators : &o.n_thresholds;
            const char **v = arg_opts[k].what == A_OPERATOR ? ops : ths;
            if (*n == MAX_LIST)
                e = say(PII_ETOOBIG, msg, msgcap, "more than %d '%s'", MAX_LIST, w);
            else
                v[(*n)++] = val;
            break;
        }
        case A_THREADS: {
            errno = 0;
            long t = strtol(val, &end, 10);
            if (errno || end == val || *end || t < 0 || t > 1024)
                e = say(PII_EINVAL, msg, msgcap, "--threads: '%s' is not in 0..1024", val);
            o.threads = (int)t;
            break;
        }
        case A_ALLOW:
            o.allow_file = val;
            break;
        case A_DENY:
            o.deny_file = val;
            break;
        default:
            key_file = val;
            break;
        }
    }
    if (!e && o.labels && o.exclude_labels)
        e = say(PII_EINVAL, msg, msgcap, "--labels and --exclude-labels exclude each other");
    if (!e && key_file && !(e = read_key(key_file, key, sizeof key, &key_len, msg, msgcap))) {
        o.key = key;
        o.key_len = key_len;
    }
    if (!e)
        h = pii_easy_create(&o, &e, msg, msgcap);
    memset(key, 0, sizeof key);
    free(copy);
    if (err)
        *err = e;
    return h;
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
    pii_stream *st = pii_stream_create(h->red, &sink, &e);
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
    if (!(s->st = pii_stream_create(h->red, &sink, &e))) {
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
