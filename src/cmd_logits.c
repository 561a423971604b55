/* cmd_logits.c — `pii-redact logits -m MODEL`: the encoder's raw logits for
 * stdin, one JSON line per token (parity checks against the reference).
 *
 * The whole input is one forward pass (no windowing): this is a test tool.
 * Text input goes through the model's tokenizer (tokenizer.json, the GGUF's
 * token list, else the built-in o200k_base); --ids reads token ids instead
 * (whitespace or comma separated). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "model_cli.h"
#include "pii_file.h"
#include "pii_tok.h"

static const mc_opt opts[] = {
    {"model", 'm', "PATH", "model directory, .safetensors, index .json or .gguf"},
    {"ids", 0, NULL, "stdin holds token ids, not text"},
    {"threads", 't', "N", "worker threads (default: all cores)"},
    {"isa", 0, "NAME", "kernel path: scalar, avx2 or avx512 (default: best)"},
    {"rope-f32", 0, NULL, "float32 RoPE angles (stock HF) instead of float64"},
    {"attn", 0, "MODE", "attention of an int8 model: auto (default), int16 or f32"},
    {"experts", 0, NULL, "add the chosen experts per layer (ascending) to each line"},
    {"help", 'h', NULL, "show this help and exit"},
};
#define NOPTS (sizeof opts / sizeof opts[0])

#define MAX_TOKENS (1u << 20)

/* All of f, under 1 GiB (pii_file.h): 0, or -1. */
static int read_all(FILE *f, char **out, size_t *len)
{
    return pii_file_read_all(f, (size_t)1 << 30, out, len) ? -1 : 0;
}

static int parse_ids(const char *s, int32_t **ids, size_t *n)
{
    size_t cap = 256, k = 0;
    int32_t *v = malloc(cap * sizeof *v);
    if (!v)
        return -1;
    while (*s) {
        while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == ',' || *s == '[' ||
               *s == ']')
            s++;
        if (!*s)
            break;
        char *end;
        unsigned long long x = strtoull(s, &end, 10);
        if (end == s || x > INT32_MAX || *s == '-') {
            free(v);
            return -2;
        }
        if (k == cap) {
            int32_t *nv = k < MAX_TOKENS ? realloc(v, cap * 2 * sizeof *v) : NULL;
            if (!nv) {
                free(v);
                return -1;
            }
            v = nv;
            cap *= 2;
        }
        v[k++] = (int32_t)x;
        s = end;
    }
    *ids = v;
    *n = k;
    return 0;
}

/* Text -> ids with byte offsets, with the model's tokenizer. */
static pii_err tokenize(const pii_tok *tok, const char *text, size_t len, int32_t **ids,
                        uint64_t **start, uint64_t **end, size_t *n)
{
    pii_tok_enc *enc = pii_tok_enc_create(tok);
    pii_tok_buf b = PII_TOK_BUF_INIT;
    pii_err e = enc ? pii_tok_encode(enc, text, len, &b) : PII_ENOMEM;
    pii_tok_enc_free(enc);
    if (!e && b.n > MAX_TOKENS)
        e = PII_ETOOBIG;
    if (!e) {
        *ids = malloc((b.n ? b.n : 1) * sizeof **ids);
        *start = malloc((b.n ? b.n : 1) * sizeof **start);
        *end = malloc((b.n ? b.n : 1) * sizeof **end);
        if (!*ids || !*start || !*end)
            e = PII_ENOMEM;
    }
    for (size_t i = 0; !e && i < b.n; i++) {
        (*ids)[i] = b.ids[i];
        (*start)[i] = b.offs[i].start;
        (*end)[i] = b.offs[i].end;
    }
    *n = e ? 0 : b.n;
    pii_tok_buf_free(&b);
    return e;
}

int pii_cmd_logits(int argc, char **argv)
{
    const char *mpath = NULL, *val;
    int use_ids = 0, rope_f32 = 0, experts = 0, i = 1, k, status = PII_EXIT_OK;
    unsigned long long nthreads = 0;
    while ((k = mc_next("logits", argc, argv, &i, opts, NOPTS, &val)) != MC_END) {
        if (k == MC_ERR)
            return PII_EXIT_USAGE;
        if (k == MC_POS) {
            fprintf(stderr, "pii-redact logits: unexpected argument '%s'\n", val);
            return PII_EXIT_USAGE;
        }
        const char *nm = opts[k].name;
        if (!strcmp(nm, "help")) {
            mc_usage(stdout, "pii-redact logits -m MODEL [OPTIONS] < INPUT",
                     "Runs the encoder on stdin as one document and prints one JSON line per "
                     "token:\n  {\"i\":N,\"id\":ID,\"start\":B,\"end\":B,\"logits\":[...]}\n"
                     "(byte offsets; start/end are omitted with --ids).  Logits are printed "
                     "with 9\nsignificant digits, enough to round-trip a float.",
                     opts, NOPTS);
            return PII_EXIT_OK;
        }
        if (!strcmp(nm, "model"))
            mpath = val;
        else if (!strcmp(nm, "ids"))
            use_ids = 1;
        else if (!strcmp(nm, "rope-f32"))
            rope_f32 = 1;
        else if (!strcmp(nm, "experts"))
            experts = 1;
        else if (!strcmp(nm, "threads")) {
            if (mc_uint("logits", nm, val, 1024, &nthreads))
                return PII_EXIT_USAGE;
        } else if (!strcmp(nm, "isa")) {
            if (mc_isa("logits", val))
                return PII_EXIT_USAGE;
        } else if (!strcmp(nm, "attn")) {
            if (mc_attn_opt("logits", val))
                return PII_EXIT_USAGE;
        }
    }
    if (!mpath) {
        fprintf(stderr, "pii-redact logits: -m MODEL is required\n");
        return PII_EXIT_USAGE;
    }
    char *in = NULL;
    size_t inlen = 0;
    if (read_all(stdin, &in, &inlen)) {
        fprintf(stderr, "pii-redact logits: cannot read stdin\n");
        return PII_EXIT_IO;
    }
    pii_model *m = mc_load("logits", mpath, rope_f32, &status);
    if (!m) {
        free(in);
        return status;
    }
    int32_t *ids = NULL;
    uint64_t *st = NULL, *en = NULL;
    size_t n = 0;
    pii_rt_pool *pool = NULL;
    pii_model_ws *ws = NULL;
    float *lg = NULL;
    int32_t *ex = NULL;
    pii_err e = PII_OK;
    if (use_ids) {
        int r = parse_ids(in, &ids, &n);
        if (r) {
            fprintf(stderr, "pii-redact logits: %s\n",
                    r == -2 ? "--ids: stdin must hold non-negative integers"
                            : "too many tokens or out of memory");
            status = r == -2 ? PII_EXIT_USAGE : PII_EXIT_FAIL;
            goto out;
        }
    } else {
        const char *src;
        pii_tok *owned = NULL;
        const pii_tok *tok = mc_tokenizer("logits", m, &owned, &src, &status);
        if (!tok)
            goto out;
        e = tokenize(tok, in, inlen, &ids, &st, &en, &n);
        pii_tok_free(owned);
        if (e) {
            fprintf(stderr, "pii-redact logits: tokenizer: %s\n", pii_strerror(e));
            status = pii_exit_for(e);
            goto out;
        }
    }
    const pii_model_config *c = pii_model_cfg(m);
    for (size_t t = 0; t < n; t++)
        if (ids[t] >= c->vocab_size) {
            fprintf(stderr, "pii-redact logits: token %zu: id %d >= vocab_size %d\n", t, ids[t],
                    c->vocab_size);
            status = PII_EXIT_USAGE;
            goto out;
        }
    if (n == 0)
        goto out;
    if (nthreads != 1 && !(pool = pii_rt_pool_create((int)nthreads, &e))) {
        status = PII_EXIT_FAIL;
        goto out;
    }
    const size_t C = (size_t)c->n_labels, K = (size_t)c->top_k, L = (size_t)c->n_layers;
    lg = malloc(n * C * sizeof *lg);
    if (experts)
        ex = malloc(L * n * K * sizeof *ex);
    if (!lg || (experts && !ex) || !(ws = pii_model_ws_create(m, n, pool, &e))) {
        fprintf(stderr, "pii-redact logits: out of memory for %zu tokens\n", n);
        status = PII_EXIT_FAIL;
        goto out;
    }
    pii_model_trace tr = {ex, NULL, NULL, NULL};
    if ((e = pii_model_forward(m, ws, ids, n, NULL, 0, lg, experts ? &tr : NULL))) {
        fprintf(stderr, "pii-redact logits: forward pass: %s\n", pii_strerror(e));
        status = pii_exit_for(e);
        goto out;
    }
    for (size_t t = 0; t < n; t++) {
        printf("{\"i\":%zu,\"id\":%d", t, ids[t]);
        if (st)
            printf(",\"start\":%llu,\"end\":%llu", (unsigned long long)st[t],
                   (unsigned long long)en[t]);
        printf(",\"logits\":[");
        for (size_t j = 0; j < C; j++)
            printf("%s%.9g", j ? "," : "", lg[t * C + j]);
        printf("]");
        if (ex) {
            printf(",\"experts\":[");
            for (size_t l = 0; l < L; l++) {
                int32_t s[64];
                memcpy(s, ex + (l * n + t) * K, K * sizeof *s);
                for (size_t a = 1; a < K; a++) /* ascending, as the reference prints */
                    for (size_t b = a; b > 0 && s[b] < s[b - 1]; b--) {
                        int32_t tmp = s[b];
                        s[b] = s[b - 1];
                        s[b - 1] = tmp;
                    }
                printf("%s[", l ? "," : "");
                for (size_t a = 0; a < K; a++)
                    printf("%s%d", a ? "," : "", s[a]);
                printf("]");
            }
            printf("]");
        }
        printf("}\n");
    }
    if (fflush(stdout) != 0 || ferror(stdout))
        status = PII_EXIT_IO;
out:
    pii_model_ws_free(ws);
    pii_rt_pool_free(pool);
    pii_model_free(m);
    free(lg);
    free(ex);
    free(ids);
    free(st);
    free(en);
    free(in);
    return status;
}
