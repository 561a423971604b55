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

static int config_path(char *buf, size_t cap)
{
    const char *x = getenv("XDG_CONFIG_HOME");
    const char *h = getenv("HOME");
    int k;
    if (x && *x)
        k = snprintf(buf, cap, "%s/pii-redact/config", x);
    else if (h && *h)
        k = snprintf(buf, cap, "%s/.config/pii-redact/config", h);
    else
        return 0;
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

/* Reads the config file into "--name[=value]" strings.  *n = 0 when there
 * is none.  Returns -1 or an exit status. */
static int read_config(char **items, int *n, char *model, size_t mcap)
{
    char path[4096];
    *n = 0;
    if (model && mcap)
        model[0] = '\0';
    if (!config_path(path, sizeof path))
        return -1;
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno == ENOENT || errno == ENOTDIR)
            return -1;
        fprintf(stderr, "pii-redact: %s: %s\n", path, strerror(errno));
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
        if (!f2 || !strcmp(name, "help") || !strcmp(name, "version")) {
            fprintf(stderr, "pii-redact: %s:%d: unknown option '%.64s'\n", path, lineno, name);
            rc = PII_EXIT_USAGE;
            break;
        }
        if (f2->arg && (!val || !*val)) {
            fprintf(stderr, "pii-redact: %s:%d: '%s' needs a value (%s = %s)\n", path, lineno, name,
                    name, f2->arg);
            rc = PII_EXIT_USAGE;
            break;
        }
        if (!f2->arg && val) {
            fprintf(stderr, "pii-redact: %s:%d: '%s' takes no value\n", path, lineno, name);
            rc = PII_EXIT_USAGE;
            break;
        }
        if (model && !strcmp(name, "model"))
            snprintf(model, mcap, "%s", val);
        if (!items)
            continue;
        if (*n == MAX_ITEMS) {
            fprintf(stderr, "pii-redact: %s: more than %d settings\n", path, MAX_ITEMS);
            rc = PII_EXIT_USAGE;
            break;
        }
        size_t need = strlen(name) + (val ? strlen(val) : 0) + 4;
        char *it = malloc(need);
        if (!it) {
            rc = oom();
            break;
        }
        snprintf(it, need, "--%s%s%s", name, val ? "=" : "", val ? val : "");
        items[(*n)++] = it;
    }
    if (rc < 0 && ferror(f)) {
        fprintf(stderr, "pii-redact: %s: read error\n", path);
        rc = PII_EXIT_IO;
    }
    fclose(f);
    if (rc >= 0 && items) {
        for (int i = 0; i < *n; i++)
            free(items[i]);
        *n = 0;
    }
    return rc;
}

int pii_settings_argv(int argc, char **argv, int *out_argc, char ***out_argv, int *ninserted)
{
    *ninserted = 0;
    char *items[MAX_ITEMS + 1];
    int n = 0;
    int rc = read_config(items, &n, NULL, 0);
    if (rc >= 0)
        return rc;
    const char *env = getenv("PII_REDACT_MODEL");
    if (env && *env) {
        size_t need = strlen(env) + 9;
        if (!(items[n] = malloc(need))) {
            for (int i = 0; i < n; i++)
                free(items[i]);
            return oom();
        }
        snprintf(items[n++], need, "--model=%s", env);
    }
    char **v = calloc((size_t)(argc + n + 1), sizeof *v);
    if (!v) {
        for (int i = 0; i < n; i++)
            free(items[i]);
        return oom();
    }
    /* v owns items[] (v[1..n]); argv's strings are borrowed */
    v[0] = argv[0];
    for (int i = 0; i < n; i++)
        v[1 + i] = items[i];
    for (int i = 1; i < argc; i++)
        v[n + i] = argv[i];
    *out_argc = argc + n;
    *out_argv = v;
    *ninserted = n;
    return -1;
}

void pii_settings_argv_free(int ninserted, char **argv)
{
    if (!argv)
        return;
    for (int i = 1; i <= ninserted; i++)
        free(argv[i]);
    free(argv);
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
    int rc = read_config(NULL, &n, buf, cap);
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
