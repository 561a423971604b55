/* settings.c — see settings.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "opts.h"
#include "settings.h"

#define MAX_CONFIG (64u * 1024u)
#define MAX_ITEMS 256

static int oom(void)
{
    fprintf(stderr, "pii-redact: out of memory reading the settings\n");
    return PII_EXIT_FAIL;
}

/* ---- the command line, read as getopt_long will ---------------------------- */

/* The flag a long option names: exact, else a unique prefix (getopt_long's
 * abbreviations); NULL if none or ambiguous. */
static const pii_flag *long_flag(const char *name, size_t n)
{
    const pii_flag *hit = NULL;
    int nhit = 0;
    for (const pii_flag *f = pii_flags; f->name; f++) {
        if (strncmp(f->name, name, n) != 0)
            continue;
        if (f->name[n] == '\0')
            return f;
        hit = f;
        nhit++;
    }
    return nhit == 1 ? hit : NULL;
}

static const pii_flag *short_flag(int c)
{
    for (const pii_flag *f = pii_flags; f->name; f++)
        if (f->short_name && f->short_name == c)
            return f;
    return NULL;
}

/* What the command line asks of the settings. */
typedef struct cmdline {
    const char *config; /* --config FILE (the last one) */
    int no_config;      /* --no-config */
    int help;           /* --help or --version: the config file is not read */
} cmdline;

static void scan_cmdline(int argc, char **argv, cmdline *c)
{
    memset(c, 0, sizeof *c);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--"))
            break;
        if (a[0] == '-' && a[1] == '-') {
            const char *name = a + 2, *eq = strchr(name, '=');
            const pii_flag *f = long_flag(name, eq ? (size_t)(eq - name) : strlen(name));
            const char *val = eq ? eq + 1 : NULL;
            if (f && f->arg && !eq)
                val = i + 1 < argc ? argv[++i] : NULL;
            if (!f)
                continue;
            if (!strcmp(f->name, "config") && val)
                c->config = val;
            else if (!strcmp(f->name, "no-config") && !eq)
                c->no_config = 1;
            else if ((!strcmp(f->name, "help") || !strcmp(f->name, "version")) && !eq)
                c->help = 1;
        } else if (a[0] == '-' && a[1]) {
            for (int j = 1; a[j]; j++) {
                const pii_flag *f = short_flag((unsigned char)a[j]);
                if (f && (!strcmp(f->name, "help") || !strcmp(f->name, "version")))
                    c->help = 1;
                if (f && f->arg) {
                    if (!a[j + 1])
                        i++;
                    break;
                }
            }
        }
    }
}

/* ---- the config file ------------------------------------------------------ */

/* The config file to read, or 0 for none.  *named: the user named it
 * (--config or $PII_REDACT_CONFIG), so it must exist. */
static int config_path(const cmdline *c, char *buf, size_t cap, int *named)
{
    const char *env = getenv("PII_REDACT_CONFIG");
    const char *x = getenv("XDG_CONFIG_HOME");
    const char *h = getenv("HOME");
    int k;
    *named = 0;
    if (c && c->no_config)
        return 0;
    if ((c && c->config) || (env && *env)) {
        *named = 1;
        k = snprintf(buf, cap, "%s", c && c->config ? c->config : env);
    } else if (x && *x) {
        k = snprintf(buf, cap, "%s/pii-redact/config", x);
    } else if (h && *h) {
        k = snprintf(buf, cap, "%s/.config/pii-redact/config", h);
    } else {
        return 0;
    }
    return k > 0 && (size_t)k < cap;
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        s[--n] = '\0';
    return s;
}

/* A switch's value: 1 true, 0 false, -1 neither. */
static int switch_value(const char *v)
{
    if (!strcmp(v, "true"))
        return 1;
    if (!strcmp(v, "false"))
        return 0;
    return -1;
}

/* Reads the config file into "--name[=value]" strings (items, with
 * "FILE:LINE" in where[] when where is not NULL).  Unknown names are
 * warnings; the first other error is an exit status after a message naming
 * the file and line.  *n = 0 when there is none.  Returns -1 or an exit
 * status. */
static int read_config(const cmdline *c, char **items, char **where, int *n, char *model,
                       size_t mcap)
{
    char path[4096];
    int named;
    *n = 0;
    if (model && mcap)
        model[0] = '\0';
    if (!config_path(c, path, sizeof path, &named))
        return -1;
    FILE *f = fopen(path, "r");
    if (!f) {
        if (!named && (errno == ENOENT || errno == ENOTDIR))
            return -1;
        fprintf(stderr, "pii-redact: config file %s: %s\n", path, strerror(errno));
        return PII_EXIT_IO;
    }
    char line[4096];
    int lineno = 0, rc = -1;
    size_t total = 0;
    while (rc < 0 && fgets(line, sizeof line, f)) {
        lineno++;
        size_t ll = strlen(line);
        total += ll;
        if (total > MAX_CONFIG || (ll == sizeof line - 1 && line[ll - 1] != '\n')) {
            fprintf(stderr, "pii-redact: %s:%d: line or file too long\n", path, lineno);
            rc = PII_EXIT_USAGE;
            break;
        }
        if (ll && line[ll - 1] == '\n')
            line[--ll] = '\0';
        char *s = trim(line);
        if (!*s || *s == '#')
            continue;
        char *eq = strchr(s, '='), *val = NULL;
        if (eq) {
            *eq = '\0';
            val = trim(eq + 1);
        }
        char *name = trim(s);
        const pii_flag *f2 = NULL;
        for (const pii_flag *fl = pii_flags; fl->name; fl++)
            if (!strcmp(fl->name, name))
                f2 = fl;
        if (!f2 || !strcmp(name, "help") || !strcmp(name, "version") || !strcmp(name, "config") ||
            !strcmp(name, "no-config")) {
            fprintf(stderr, "pii-redact: %s:%d: warning: %s '%.64s' ignored\n", path, lineno,
                    f2 ? "option not allowed in a config file" : "unknown option", name);
            continue;
        }
        if (f2->arg && (!val || !*val)) {
            fprintf(stderr, "pii-redact: %s:%d: '%s' needs a value (%s = %s)\n", path, lineno, name,
                    name, f2->arg);
            rc = PII_EXIT_USAGE;
            break;
        }
        int on = 1;
        if (!f2->arg && val && (on = switch_value(val)) < 0) {
            fprintf(stderr,
                    "pii-redact: %s:%d: '%s' is a switch: '%s', '%s = true' or '%s = false'\n",
                    path, lineno, name, name, name, name);
            rc = PII_EXIT_USAGE;
            break;
        }
        if (!f2->arg)
            val = NULL;
        if (model && !strcmp(name, "model"))
            snprintf(model, mcap, "%s", val ? val : "");
        if (!items || !on)
            continue;
        if (*n == MAX_ITEMS) {
            fprintf(stderr, "pii-redact: %s: more than %d settings\n", path, MAX_ITEMS);
            rc = PII_EXIT_USAGE;
            break;
        }
        size_t need = strlen(name) + (val ? strlen(val) : 0) + 4;
        size_t wneed = strlen(path) + 16;
        char *it = malloc(need), *w = where ? malloc(wneed) : NULL;
        if (!it || (where && !w)) {
            free(it);
            free(w);
            rc = oom();
            break;
        }
        snprintf(it, need, "--%s%s%s", name, val ? "=" : "", val ? val : "");
        if (w)
            snprintf(w, wneed, "%s:%d", path, lineno);
        if (where)
            where[*n] = w;
        items[(*n)++] = it;
    }
    if (rc < 0 && ferror(f)) {
        fprintf(stderr, "pii-redact: %s: read error\n", path);
        rc = PII_EXIT_IO;
    }
    fclose(f);
    if (rc >= 0 && items) {
        for (int i = 0; i < *n; i++) {
            free(items[i]);
            if (where)
                free(where[i]);
        }
        *n = 0;
    }
    return rc;
}

/* ---- the combined argument vector ----------------------------------------- */

/* a->owned takes p (freed by pii_settings_argv_free); -1 when p is NULL or
 * the list cannot grow (p is then freed). */
static int own(pii_settings_args *a, char *p)
{
    if (!p)
        return -1;
    if (a->nowned == a->capowned) {
        int cap = a->capowned ? 2 * a->capowned : 16;
        char **v = realloc(a->owned, (size_t)cap * sizeof *v);
        if (!v) {
            free(p);
            return -1;
        }
        a->owned = v;
        a->capowned = cap;
    }
    a->owned[a->nowned++] = p;
    return 0;
}

/* Removes from v[1, *n) every earlier setting of switch f: "--name" (or an
 * abbreviation), "-x", and x in a cluster of short switches. */
static int unset_switch(pii_settings_args *a, int *n, const pii_flag *f)
{
    char **v = a->argv;
    int o = 1;
    for (int i = 1; i < *n; i++) {
        char *s = v[i];
        const char *where = a->origin[i];
        if (s[0] == '-' && s[1] == '-' && s[2]) {
            const char *name = s + 2, *eq = strchr(name, '=');
            const pii_flag *g = long_flag(name, eq ? (size_t)(eq - name) : strlen(name));
            if (g == f && !eq)
                continue; /* dropped */
            a->argv[o] = s;
            a->origin[o++] = where;
            if (g && g->arg && !eq && i + 1 < *n) {
                a->argv[o] = v[++i];
                a->origin[o++] = a->origin[i];
            }
            continue;
        }
        if (s[0] == '-' && s[1] && s[1] != '-' && f->short_name && strchr(s + 1, f->short_name)) {
            /* a cluster: drop the letter before any letter taking a value */
            size_t len = strlen(s);
            char *c = malloc(len + 1);
            if (own(a, c))
                return -1;
            size_t k = 1, j = 1;
            c[0] = '-';
            int takes = 0;
            for (; s[j]; j++) {
                const pii_flag *g = short_flag((unsigned char)s[j]);
                if (g && g->arg) {
                    memcpy(c + k, s + j, len - j + 1);
                    k += len - j;
                    takes = !s[j + 1];
                    break;
                }
                if (s[j] != f->short_name)
                    c[k++] = s[j];
            }
            c[k] = '\0';
            if (k > 1) {
                a->argv[o] = c;
                a->origin[o++] = where;
            }
            if (takes && i + 1 < *n) {
                a->argv[o] = v[++i];
                a->origin[o++] = a->origin[i];
            }
            continue;
        }
        if (s[0] == '-' && s[1] && s[1] != '-') {
            a->argv[o] = s;
            a->origin[o++] = where;
            for (int j = 1; s[j]; j++) {
                const pii_flag *g = short_flag((unsigned char)s[j]);
                if (g && g->arg) {
                    if (!s[j + 1] && i + 1 < *n) {
                        a->argv[o] = v[++i];
                        a->origin[o++] = a->origin[i];
                    }
                    break;
                }
            }
            continue;
        }
        a->argv[o] = s;
        a->origin[o++] = where;
    }
    *n = o;
    return 0;
}

/* Rewrites "--switch=true" as "--switch" and turns "--switch=false" into
 * the removal of every earlier setting of that switch (config file and
 * command line alike).  Returns -1, or an exit status after a message. */
static int switch_values(pii_settings_args *a)
{
    int n = a->argc;
    for (int i = 1; i < n; i++) {
        char *s = a->argv[i];
        if (!strcmp(s, "--"))
            break;
        if (s[0] != '-' || s[1] != '-')
            continue;
        const char *name = s + 2, *eq = strchr(name, '=');
        const pii_flag *f = long_flag(name, eq ? (size_t)(eq - name) : strlen(name));
        if (!f)
            continue;
        if (f->arg) {
            if (!eq)
                i++;
            continue;
        }
        if (!eq)
            continue;
        int on = switch_value(eq + 1);
        if (on < 0) {
            fprintf(stderr,
                    "pii-redact: option '--%s' takes no argument but =true or =false\n"
                    "Try 'pii-redact --help' for more information.\n",
                    f->name);
            return PII_EXIT_USAGE;
        }
        if (on) {
            size_t need = strlen(f->name) + 3;
            char *c = malloc(need);
            if (own(a, c))
                return oom();
            snprintf(c, need, "--%s", f->name);
            a->argv[i] = c;
            continue;
        }
        /* drop this element, then every earlier setting */
        memmove(a->argv + i, a->argv + i + 1, (size_t)(n - i - 1) * sizeof *a->argv);
        memmove(a->origin + i, a->origin + i + 1, (size_t)(n - i - 1) * sizeof *a->origin);
        n--;
        int before = n, head = i;
        if (unset_switch(a, &head, f) != 0)
            return oom();
        int gone = i - head;
        memmove(a->argv + head, a->argv + i, (size_t)(before - i) * sizeof *a->argv);
        memmove(a->origin + head, a->origin + i, (size_t)(before - i) * sizeof *a->origin);
        n -= gone;
        i = head - 1;
    }
    a->argc = n;
    a->argv[n] = NULL;
    return -1;
}

int pii_settings_argv(int argc, char **argv, pii_settings_args *a)
{
    memset(a, 0, sizeof *a);
    char *items[MAX_ITEMS + 1], *where[MAX_ITEMS + 1];
    int n = 0;
    cmdline c;
    scan_cmdline(argc, argv, &c);
    int rc = c.help ? -1 : read_config(&c, items, where, &n, NULL, 0);
    if (rc >= 0)
        return rc;
    const char *env = getenv("PII_REDACT_MODEL");
    if (env && *env) {
        size_t need = strlen(env) + 9;
        if (!(items[n] = malloc(need))) {
            for (int i = 0; i < n; i++)
                free(items[i]), free(where[i]);
            return oom();
        }
        snprintf(items[n], need, "--model=%s", env);
        where[n++] = NULL;
    }
    size_t total = (size_t)(argc + n + 1);
    a->argv = calloc(total, sizeof *a->argv);
    a->origin = calloc(total, sizeof *a->origin);
    int bad = !a->argv || !a->origin;
    for (int i = 0; i < n; i++) { /* a->owned takes every item and place */
        if (own(a, items[i]))
            bad = 1;
        if (where[i] && own(a, where[i]))
            bad = 1;
        if (!bad) {
            a->argv[1 + i] = items[i];
            a->origin[1 + i] = where[i];
        }
    }
    if (bad) {
        pii_settings_argv_free(a);
        return oom();
    }
    a->argv[0] = argv[0];
    for (int i = 1; i < argc; i++)
        a->argv[n + i] = argv[i];
    a->argc = argc + n;
    if ((rc = switch_values(a)) >= 0)
        pii_settings_argv_free(a);
    return rc;
}

void pii_settings_argv_free(pii_settings_args *a)
{
    for (int i = 0; a->owned && i < a->nowned; i++)
        free(a->owned[i]);
    free(a->owned);
    free(a->argv);
    free(a->origin);
    memset(a, 0, sizeof *a);
}

int pii_settings_default_model(char *buf, size_t cap, const char **out)
{
    *out = NULL;
    const char *env = getenv("PII_REDACT_MODEL");
    if (env && *env) {
        snprintf(buf, cap, "%s", env);
        *out = buf;
        return -1;
    }
    int n = 0;
    int rc = read_config(NULL, NULL, NULL, &n, buf, cap);
    if (rc >= 0)
        return rc;
    if (buf[0])
        *out = buf;
    return -1;
}

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Whether DIR holds a checkpoint's config.json, at its top or in
 * original/ (docs/FORMATS.md): a directory without one is not a checkpoint
 * (an interrupted or never finished download of opf's). */
static int holds_config(const char *dir)
{
    char p[4096];
    struct stat st;
    static const char *const rel[] = {"config.json", "original/config.json"};
    for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++)
        if (snprintf(p, sizeof p, "%s/%s", dir, rel[i]) < (int)sizeof p && stat(p, &st) == 0 &&
            S_ISREG(st.st_mode) && st.st_size > 0)
            return 1;
    return 0;
}

/* opf's checkpoint: $OPF_CHECKPOINT (as opf reads it), else
 * ~/.opf/privacy_filter when it is a directory.  *from names the source. */
static int opf_checkpoint(char *buf, size_t cap, const char **from)
{
    const char *env = getenv("OPF_CHECKPOINT");
    if (env && *env) {
        snprintf(buf, cap, "%s", env);
        *from = "$OPF_CHECKPOINT";
        return 1;
    }
    const char *h = getenv("HOME");
    if (h && *h && snprintf(buf, cap, "%s/.opf/privacy_filter", h) < (int)cap && is_dir(buf)) {
        *from = "~/.opf/privacy_filter";
        return 1;
    }
    return 0;
}

int pii_settings_model(const char *given, int quiet, char *buf, size_t cap, const char **out)
{
    static int announced;
    const char *from;
    *out = NULL;
    if (given && !strcmp(given, "builtin"))
        return -1;
    if (given && !strcmp(given, "opf")) {
        if (!opf_checkpoint(buf, cap, &from)) {
            fprintf(stderr, "pii-redact: -m opf: no opf checkpoint ($OPF_CHECKPOINT is unset and "
                            "~/.opf/privacy_filter does not exist)\n");
            return PII_EXIT_MODEL;
        }
        *out = buf;
        return -1;
    }
    if (given) {
        *out = given;
        return -1;
    }
    if (opf_checkpoint(buf, cap, &from)) {
        if (from[0] == '~' && !holds_config(buf)) {
            /* found, not asked for: an empty or partial ~/.opf/privacy_filter
             * is no reason to fail a run the built-in model can do */
            if (!quiet && !announced)
                fprintf(stderr,
                        "pii-redact: note: %s holds no checkpoint (no config.json: an "
                        "interrupted download?); using the built-in model\n",
                        buf);
            announced = 1;
            return -1;
        }
        if (!quiet && !announced)
            fprintf(stderr,
                    "pii-redact: note: using the opf checkpoint %s (%s); -m builtin for the "
                    "built-in model\n",
                    buf, from);
        announced = 1;
        *out = buf;
    }
    return -1;
}
