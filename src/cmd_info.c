/* cmd_info.c — `pii-redact info -m MODEL`: what a model file holds. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "model_cli.h"

static const mc_opt opts[] = {
    {"model", 'm', "PATH", "model directory, .safetensors, index .json or .gguf"},
    {"tensors", 0, NULL, "also list every tensor (name, dtype, shape)"},
    {"help", 'h', NULL, "show this help"},
};
#define NOPTS (sizeof opts / sizeof opts[0])

static void shape_str(const pii_rt_tensor *t, char *b, size_t cap)
{
    size_t k = (size_t)snprintf(b, cap, "[");
    for (int d = 0; d < t->ndim && k < cap; d++)
        k += (size_t)snprintf(b + k, cap - k, "%s%lld", d ? ", " : "", (long long)t->shape[d]);
    if (k < cap)
        snprintf(b + k, cap - k, "]");
}

int pii_cmd_info(int argc, char **argv)
{
    const char *mpath = NULL, *val;
    int tensors = 0, i = 1, k, status = PII_EXIT_OK;
    while ((k = mc_next("info", argc, argv, &i, opts, NOPTS, &val)) != MC_END) {
        if (k == MC_ERR)
            return PII_EXIT_USAGE;
        if (k == MC_POS) {
            fprintf(stderr, "pii-redact info: unexpected argument '%s'\n", val);
            return PII_EXIT_USAGE;
        }
        if (!strcmp(opts[k].name, "help")) {
            mc_usage(stdout, "pii-redact info -m MODEL [--tensors]",
                     "Prints a model's format, configuration, parameter count, dtypes, label "
                     "space\nand tokenizer source.",
                     opts, NOPTS);
            return PII_EXIT_OK;
        }
        if (!strcmp(opts[k].name, "model"))
            mpath = val;
        else if (!strcmp(opts[k].name, "tensors"))
            tensors = 1;
    }
    if (!mpath) {
        fprintf(stderr, "pii-redact info: -m MODEL is required\n");
        return PII_EXIT_USAGE;
    }
    pii_model *m = mc_load("info", mpath, 0, &status);
    if (!m)
        return status;
    const pii_model_config *c = pii_model_cfg(m);
    const pii_rt_store *st = pii_model_store(m);
    int gguf = pii_rt_store_format(st) == PII_RT_FMT_GGUF;
    printf("model:       %s\n", mpath);
    printf("format:      %s, %zu file%s, %.1f MB mapped\n", gguf ? "GGUF" : "safetensors",
           pii_rt_store_nfiles(st), pii_rt_store_nfiles(st) == 1 ? "" : "s",
           (double)pii_rt_store_bytes(st) / 1e6);
    printf("layout:      %s\n", pii_model_layout_name(pii_model_layout_of(m)));
    for (size_t f = 0; f < pii_rt_store_nfiles(st); f++)
        printf("  file:      %s\n", pii_rt_store_file(st, f));
    printf("layers:      %d\n", c->n_layers);
    printf("d_model:     %d\n", c->d_model);
    printf("heads:       %d query, %d key/value, head_dim %d\n", c->n_heads, c->n_kv_heads,
           c->head_dim);
    printf("experts:     %d, top-%d, intermediate %d\n", c->n_experts, c->top_k, c->d_expert);
    printf("attention:   bidirectional band |i-j| <= %d, per-head sinks\n", c->window);
    printf("rope:        %s theta %g", c->rope.yarn ? "yarn" : "default", c->rope.theta);
    if (c->rope.yarn)
        printf(" factor %g beta_fast %g beta_slow %g original %g%s", c->rope.factor,
               c->rope.beta_fast, c->rope.beta_slow, c->rope.orig_ctx,
               c->rope.truncate ? " truncate" : "");
    printf(", angles f64\n");
    printf("vocab:       %d\n", c->vocab_size);
    uint64_t np = pii_model_nparams(m);
    printf("parameters:  %llu (%.2f G)\n", (unsigned long long)np, (double)np / 1e9);
    /* dtype histogram: tensors and elements per dtype */
    uint64_t cnt[PII_DT_COUNT] = {0}, el[PII_DT_COUNT] = {0};
    for (size_t t = 0; t < pii_rt_store_count(st); t++) {
        const pii_rt_tensor *tt = pii_rt_store_at(st, t);
        cnt[tt->dtype]++;
        el[tt->dtype] += tt->nelem;
    }
    printf("dtypes:     ");
    for (int d = 0; d < PII_DT_COUNT; d++)
        if (cnt[d])
            printf(" %s (%llu tensors, %llu values)", pii_dtype_name((pii_dtype)d),
                   (unsigned long long)cnt[d], (unsigned long long)el[d]);
    printf("\nexperts in:  %s\n", pii_dtype_name(pii_model_expert_dtype(m)));
    printf("tensors:     %zu\n", pii_rt_store_count(st));
    printf("labels:      %d:", c->n_labels);
    for (int l = 0; l < c->n_labels; l++)
        printf(" %s", pii_model_label(m, l));
    printf("\n");
    const char *dir = pii_model_dir(m);
    char tj[4096];
    snprintf(tj, sizeof tj, "%s/tokenizer.json", dir ? dir : ".");
    if (gguf && pii_rt_store_kv_find(st, "tokenizer.ggml.tokens") >= 0)
        printf("tokenizer:   GGUF metadata (tokenizer.ggml.tokens)\n");
    else if (!gguf && dir && access(tj, R_OK) == 0)
        printf("tokenizer:   %s\n", tj);
    else
        printf("tokenizer:   built-in o200k_base (none in the model)\n");
    printf("isa:         %s\n", pii_rt_isa_name(pii_rt_isa_active()));
    if (tensors)
        for (size_t t = 0; t < pii_rt_store_count(st); t++) {
            const pii_rt_tensor *tt = pii_rt_store_at(st, t);
            char sh[128];
            shape_str(tt, sh, sizeof sh);
            printf("  %-56s %-5s %s\n", tt->name, pii_dtype_name(tt->dtype), sh);
        }
    pii_model_free(m);
    if (fflush(stdout) != 0 || ferror(stdout))
        return PII_EXIT_IO;
    return PII_EXIT_OK;
}
