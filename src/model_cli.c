/* model_cli.c — see model_cli.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "model_cli.h"

int mc_next(const char *cmd, int argc, char **argv, int *i, const mc_opt *opts, size_t nopts,
            const char **val)
{
    if (*i >= argc)
        return MC_END;
    const char *a = argv[*i];
    *val = NULL;
    if (a[0] != '-' || a[1] == 0) {
        *val = a;
        (*i)++;
        return MC_POS;
    }
    for (size_t k = 0; k < nopts; k++) {
        const mc_opt *o = &opts[k];
        const char *inl = NULL;
        if (a[1] == '-') {
            size_t nl = strlen(o->name);
            if (strncmp(a + 2, o->name, nl))
                continue;
            if (a[2 + nl] == '=')
                inl = a + 3 + nl;
            else if (a[2 + nl])
                continue;
        } else if (!o->shrt || a[1] != o->shrt) {
            continue;
        } else if (a[2]) {
            inl = a + 2;
        }
        (*i)++;
        if (!o->arg) {
            if (inl) {
                fprintf(stderr, "pii-redact %s: option --%s takes no argument\n", cmd, o->name);
                return MC_ERR;
            }
            return (int)k;
        }
        if (inl) {
            *val = inl;
        } else if (*i < argc) {
            *val = argv[(*i)++];
        } else {
            fprintf(stderr, "pii-redact %s: option --%s needs %s\n", cmd, o->name, o->arg);
            return MC_ERR;
        }
        return (int)k;
    }
    fprintf(stderr, "pii-redact %s: unknown option '%s' (see --help)\n", cmd, a);
    return MC_ERR;
}

void mc_usage(FILE *f, const char *synopsis, const char *about, const mc_opt *opts, size_t nopts)
{
    fprintf(f, "usage: %s\n\n%s\n\noptions:\n", synopsis, about);
    for (size_t k = 0; k < nopts; k++) {
        char left[64];
        snprintf(left, sizeof left, "%s%c%s--%s%s%s", opts[k].shrt ? "-" : "",
                 opts[k].shrt ? opts[k].shrt : ' ', opts[k].shrt ? ", " : "  ", opts[k].name,
                 opts[k].arg ? " " : "", opts[k].arg ? opts[k].arg : "");
        fprintf(f, "  %-28s %s\n", opts[k].shrt ? left : left + 1, opts[k].help);
    }
}

int mc_uint(const char *cmd, const char *opt, const char *s, unsigned long long max,
            unsigned long long *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *end || s[0] == '-' || v > max) {
        fprintf(stderr, "pii-redact %s: --%s: expected an integer in [0, %llu], got '%s'\n", cmd,
                opt, max, s);
        return -1;
    }
    *out = v;
    return 0;
}

pii_model *mc_load(const char *cmd, const char *path, int rope_f32, int *status)
{
    pii_model_params p;
    pii_model_default_params(&p);
    p.rope_f32_angles = rope_f32;
    pii_err e;
    char msg[512];
    pii_model *m = pii_model_load(path, &p, &e, msg, sizeof msg);
    if (!m) {
        fprintf(stderr, "pii-redact %s: %s\n", cmd, msg[0] ? msg : pii_strerror(e));
        *status = e == PII_ENOMEM ? PII_EXIT_FAIL : PII_EXIT_MODEL;
    }
    return m;
}

int mc_isa(const char *cmd, const char *name)
{
    pii_rt_isa isa;
    if (pii_rt_isa_parse(name, &isa)) {
        fprintf(stderr, "pii-redact %s: --isa: expected scalar, avx2 or avx512\n", cmd);
        return -1;
    }
    if (pii_rt_isa_set(isa)) {
        fprintf(stderr, "pii-redact %s: --isa %s: not supported by this CPU\n", cmd, name);
        return -1;
    }
    return 0;
}
