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
#include "pii_rt.h"
#include "pipeline.h"
#define PII_STATIC_LINKING_ONLY /* the library's configuration and builder */
#include "piiredact.h"
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

/* The hash key as the command takes it (pii_key_load, pii_key_check: the
 * library's checks and messages), printed here. */
_Static_assert(PII_CLI_KEY_BUF == PII_KEY_BUF, "the library's key buffer");

int pii_cli_load_key(const char *path, uint8_t key[PII_CLI_KEY_BUF], size_t *out_n)
{
    char msg[512], warn[256];
    size_t n = 0;
    pii_err e;
    *out_n = 0;
    if (path) {
        e = pii_key_load(path, key, &n, msg, sizeof msg, warn, sizeof warn);
    } else {
        const char *env = getenv("PII_REDACT_KEY");
        if (!env)
            return -1;
        n = strlen(env);
        if (n > PII_KEY_MAX)
            n = PII_KEY_MAX + 1; /* refused below, never truncated */
        else
            memcpy(key, env, n);
        if ((e = pii_key_check("PII_REDACT_KEY", n, msg, sizeof msg, warn, sizeof warn)))
            memset(key, 0, PII_CLI_KEY_BUF);
    }
    if (e) {
        fprintf(stderr, "pii-redact: %s\n", msg);
        return pii_exit_for(e);
    }
    if (warn[0])
        fprintf(stderr, "pii-redact: %s\n", warn);
    *out_n = n;
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

/* The options of o as the library's configuration keys (api/config.def):
 * the command's values, checked by pii_config_set.  Returns -1, or an exit
 * status after a message. */
static int set(pii_config *c, const char *key, const char *value)
{
    pii_err e = pii_config_set(c, key, value);
    if (!e)
        return -1;
    fprintf(stderr, "pii-redact: %s\n",
            pii_config_message(c)[0] ? pii_config_message(c) : pii_strerror(e));
    return pii_exit_for(e);
}

static int flag(pii_config *c, const char *key, int on)
{
    return on ? set(c, key, "1") : -1;
}

static char discovered[PATH_MAX + 32]; /* .pii-redact.rules found upward */

/* In the order the command has always checked them: the model tier's
 * values, then the model itself (settings.h: -m, $PII_REDACT_MODEL, the
 * config file, opf's checkpoint), then the rest. */
static int to_config(const pii_opts *o, pii_config *c)
{
    char mbuf[4096]; /* the model's path, copied by pii_config_set */
    int rc = -1;
    const char *rules = o->rules_file, *model = NULL;
    /* .pii-redact.rules at the repository root: the command's discovery */
    if (!rules && o->rules_discover && !o->model_only && !o->no_rules_file &&
        discover_rules(discovered, sizeof discovered))
        rules = discovered;
    const struct {
        const char *key, *value;
    } tier[] =
        {
            {"window", o->window},
            {"pack", o->pack},
            {"threads", o->threads},
        },
      vals[] = {
          {"decode", o->decode},
          {"operating-point", o->operating_point},
          {"calibration", o->calibration},
          {"labels", o->labels},
          {"exclude-labels", o->exclude_labels},
          {"allow", o->allow_file},
          {"deny", o->deny_file},
          {"rules-file", rules},
          {"key-file", o->key_file},
      };
    for (size_t i = 0; rc < 0 && i < sizeof tier / sizeof tier[0]; i++)
        if (tier[i].value)
            rc = set(c, tier[i].key, tier[i].value);
    for (size_t i = 0; rc < 0 && i < o->n_thresholds; i++)
        rc = set(c, "threshold", o->thresholds[i]);
    for (size_t i = 0; rc < 0 && i < o->n_biases; i++)
        rc = set(c, "bias", o->biases[i]);
    for (size_t i = 0; rc < 0 && i < sizeof vals / sizeof vals[0]; i++)
        if (vals[i].value)
            rc = set(c, vals[i].key, vals[i].value);
    if (rc < 0 && !o->rules_only)
        rc = pii_settings_model(o->model_path, o->quiet, mbuf, sizeof mbuf, &model);
    if (rc < 0 && model)
        rc = set(c, "model", model);
    const struct {
        const char *key;
        int on;
    } flags[] = {
        {"rules-only", o->rules_only},         {"model-only", o->model_only},
        {"all-dates-urls", o->all_dates_urls}, {"no-calibration", o->no_calibration},
        {"no-name-memory", o->no_name_memory}, {"no-name-lexicon", o->no_name_lexicon},
        {"no-name-filter", o->no_name_filter}, {"no-dictionary-filter", o->no_dict_filter},
        {"no-honorifics", o->no_honorifics},   {"no-citations", o->no_citations},
        {"no-rules-file", o->no_rules_file},   {"binary", o->binary},
    };
    for (size_t i = 0; rc < 0 && i < sizeof flags / sizeof flags[0]; i++)
        rc = flag(c, flags[i].key, flags[i].on);
    if (rc < 0 && o->op_default)
        rc = set(c, "operator", o->op_default);
    for (size_t i = 0; rc < 0 && i < o->n_op_label; i++)
        rc = set(c, "operator", o->op_label[i]);
    /* the kernels: --act, --attn, else what a subcommand chose (model_cli.h),
     * and $PII_ISA; the environment's switches (pii-redact(1)) */
    pii_rt_qact a = o->act >= 0 ? (pii_rt_qact)o->act : mc_qact_active();
    int attn = o->attn >= 0 ? o->attn : mc_attn_active();
    if (rc < 0)
        rc = set(c, "act", pii_rt_qact_name(a));
    if (rc < 0)
        rc = set(c, "attn",
                 attn == PII_MODEL_ATTN_F32     ? "f32"
                 : attn == PII_MODEL_ATTN_INT16 ? "int16"
                                                : "auto");
    if (rc < 0 && mc_isa_choice() >= 0)
        rc = set(c, "isa", pii_rt_isa_name((pii_rt_isa)mc_isa_choice()));
    const char *nc = getenv("PII_REDACT_NO_CACHE"), *q8 = getenv("PII_GGUF_Q8_0");
    if (rc < 0)
        rc = flag(c, "no-cache", nc && *nc && strcmp(nc, "0") != 0);
    if (rc < 0)
        rc = flag(c, "gguf-q8-0-exact", q8 && !strcmp(q8, "exact"));
    /* the key of $PII_REDACT_KEY (checked by the builder, named so in its
     * messages; a longer one is refused, never cut) */
    const char *env = o->key_file ? NULL : getenv("PII_REDACT_KEY");
    if (rc < 0 && env) {
        size_t n = strlen(env);
        if (pii_config_set_key_named(c, env, n > PII_KEY_MAX ? PII_KEY_MAX + 1 : n,
                                     "PII_REDACT_KEY")) {
            pii_cli_error("hash key", PII_ENOMEM);
            rc = PII_EXIT_FAIL;
        }
    }
    return rc;
}

/* Prints each line of text with the command's prefix. */
static void print_lines(const char *text)
{
    for (const char *t = text; *t;) {
        size_t k = strcspn(t, "\n");
        fprintf(stderr, "pii-redact: %.*s\n", (int)k, t);
        t += k + (t[k] == '\n');
    }
}

int pii_pipeline_build(const pii_opts *o, pii_pipeline *p)
{
    int rc;
    memset(p, 0, sizeof *p);
    pii_config *c = pii_config_create();
    pii_build_diag *d = malloc(sizeof *d);
    if (!c || !d) {
        pii_config_free(c);
        free(d);
        pii_cli_error("redactor", PII_ENOMEM);
        return PII_EXIT_FAIL;
    }
    rc = to_config(o, c);
    pii_err e = rc < 0 ? pii_redactor_build(c, &p->b, d) : PII_OK;
    if (rc < 0) {
        if (!o->quiet)
            print_lines(d->notes);
        print_lines(d->warnings);
        print_lines(d->msg);
    }
    if (rc < 0 && e)
        rc = d->stage == PII_BUILD_MODEL  ? PII_EXIT_MODEL
             : d->stage == PII_BUILD_FILE ? (e == PII_EIO      ? PII_EXIT_IO
                                             : e == PII_ENOMEM ? PII_EXIT_FAIL
                                                               : PII_EXIT_USAGE)
                                          : pii_exit_for(e);
    if (rc < 0 && p->b.custom) /* where they came from: argv or discovered */
        p->custom_path = o->rules_file ? o->rules_file : discovered;
    pii_config_free(c);
    free(d);
    if (rc >= 0)
        return rc;
    p->model = p->b.model;
    p->tok = p->b.tok;
    p->ner = p->b.ner;
    p->rules = p->b.rules;
    p->names = p->b.names;
    p->custom = p->b.custom;
    p->deny = p->b.deny;
    p->allow = p->b.allow;
    p->ops = p->b.ops;
    p->red = p->b.red;
    p->key = p->b.key;
    p->keylen = p->b.keylen;
    return reversible(o, p);
}

void pii_pipeline_free(pii_pipeline *p)
{
    pii_build_free(&p->b); /* everything but the pseudonym map */
    pii_pseudo_free(p->map);
    memset(p, 0, sizeof *p);
}
