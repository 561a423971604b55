/* model_cli.c — see model_cli.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "cli.h"
#include "model_cli.h"
#include "pii_tok.h"

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
        } else if (!o->short_name || a[1] != o->short_name) {
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
            fprintf(stderr, "pii-redact %s: option '--%s' requires an argument (%s)\n", cmd,
                    o->name, o->arg);
            return MC_ERR;
        }
        return (int)k;
    }
    fprintf(stderr, "pii-redact %s: unknown option '%s' (see --help)\n", cmd, a);
    return MC_ERR;
}

void mc_usage(FILE *f, const char *synopsis, const char *about, const mc_opt *opts, size_t nopts)
{
    pii_cli_usage(f, synopsis, about, opts, nopts, NULL);
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

/* The command's kernel choice (the library has no process-wide one): -2
 * until $PII_ISA is read, -1 for the best path, else a pii_rt_isa. */
static int isa_choice = -2;
static pii_rt_qact qact_choice = PII_RT_QACT_I16;

int mc_isa_choice(void)
{
    if (isa_choice == -2) {
        /* PII_ISA=scalar|avx2|avx512, the documented test hook: it can
         * only lower the path; an unknown or unsupported value is ignored */
        const char *env = getenv("PII_ISA");
        pii_rt_isa forced;
        isa_choice = -1;
        if (env && pii_rt_isa_parse(env, &forced) == PII_OK && forced < pii_rt_isa_detect())
            isa_choice = (int)forced;
    }
    return isa_choice;
}

void mc_isa_choice_set(int c)
{
    isa_choice = c;
}

pii_rt_isa mc_isa_active(void)
{
    int c = mc_isa_choice();
    return c < 0 ? pii_rt_isa_detect() : (pii_rt_isa)c;
}

void mc_qact(pii_rt_qact a)
{
    qact_choice = a;
}

static int attn_choice = PII_MODEL_ATTN_AUTO;

void mc_attn(int a)
{
    attn_choice = a;
}

int mc_attn_active(void)
{
    return attn_choice;
}

int mc_attn_parse(const char *s)
{
    return !strcmp(s, "auto")    ? PII_MODEL_ATTN_AUTO
           : !strcmp(s, "f32")   ? PII_MODEL_ATTN_F32
           : !strcmp(s, "int16") ? PII_MODEL_ATTN_INT16
                                 : -1;
}

pii_rt_qact mc_qact_active(void)
{
    return qact_choice;
}

void mc_params(pii_model_params *p)
{
    pii_model_default_params(p);
    const char *q = getenv("PII_GGUF_Q8_0"); /* documented in pii-redact(1) */
    p->gguf_q8_0_exact = q && !strcmp(q, "exact");
    p->isa = mc_isa_choice();
    p->qact = (int)qact_choice;
    p->attn = attn_choice;
}

pii_model *mc_load(const char *cmd, const char *path, int rope_f32, int *status)
{
    pii_model_params p;
    mc_params(&p);
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

int mc_attn_opt(const char *cmd, const char *name)
{
    int a = mc_attn_parse(name);
    if (a < 0) {
        fprintf(stderr, "pii-redact %s: --attn: expected auto, int16 or f32\n", cmd);
        return -1;
    }
    attn_choice = a;
    return 0;
}

int mc_isa(const char *cmd, const char *name)
{
    pii_rt_isa isa;
    if (pii_rt_isa_parse(name, &isa)) {
        fprintf(stderr, "pii-redact %s: --isa: expected scalar, avx2 or avx512\n", cmd);
        return -1;
    }
    if (isa > pii_rt_isa_detect()) {
        fprintf(stderr, "pii-redact %s: --isa %s: not supported by this CPU\n", cmd, name);
        return -1;
    }
    mc_isa_choice(); /* $PII_ISA first, so that --isa wins */
    isa_choice = (int)isa;
    return 0;
}

const pii_tok *mc_tokenizer(const char *cmd, const pii_model *m, pii_tok **owned,
                            const char **source, int *status)
{
    *owned = NULL;
    const pii_rt_store *st = pii_model_store(m);
    char msg[512] = "";
    pii_err e = PII_OK;
    if (pii_rt_store_format(st) == PII_RT_FMT_GGUF &&
        pii_rt_store_kv_find(st, "tokenizer.ggml.tokens") >= 0) {
        pii_rt_kvtype et;
        uint64_t n = 0;
        const void *data;
        e = pii_rt_store_kv_arr(st, "tokenizer.ggml.tokens", &et, &n, &data);
        const char **ptr = NULL;
        uint32_t *len32 = NULL;
        size_t *lens = NULL;
        int32_t *types = NULL;
        if (!e && (et != PII_KV_STRING || n == 0 || n > (1u << 24)))
            e = PII_EFORMAT;
        if (!e && (!(ptr = calloc(n, sizeof *ptr)) || !(len32 = calloc(n, sizeof *len32)) ||
                   !(lens = calloc(n, sizeof *lens))))
            e = PII_ENOMEM;
        if (!e)
            e = pii_rt_store_kv_strings(st, "tokenizer.ggml.tokens", ptr, len32, n);
        for (uint64_t i = 0; !e && i < n; i++)
            lens[i] = len32[i];
        uint64_t nt = 0;
        if (!e && pii_rt_store_kv_arr(st, "tokenizer.ggml.token_type", &et, &nt, &data) == PII_OK &&
            nt == n && et == PII_KV_I32 && (types = malloc(n * 4)))
            memcpy(types, data, n * 4);
        if (!e)
            e = pii_tok_load_gguf_tokens(ptr, lens, types, n, owned, msg, sizeof msg);
        free(ptr);
        free(len32);
        free(lens);
        free(types);
        *source = "GGUF tokenizer.ggml.tokens";
    } else {
        const char *dir = pii_model_dir(m);
        char path[4096];
        snprintf(path, sizeof path, "%s/tokenizer.json", dir ? dir : ".");
        if (dir && access(path, R_OK) == 0) {
            e = pii_tok_load_hf_json(path, owned, msg, sizeof msg);
            *source = "tokenizer.json";
        } else {
            *source = "built-in o200k_base";
            return pii_tok_o200k();
        }
    }
    if (e) {
        fprintf(stderr, "pii-redact %s: tokenizer: %s\n", cmd, msg[0] ? msg : pii_strerror(e));
        *status = PII_EXIT_MODEL;
        return NULL;
    }
    return *owned;
}
