/* cmd_info.c — `pii-redact info [-m MODEL]`: what a model holds, after the
 * very checks redaction runs.  The model is opened by pii_pipeline_build,
 * the code path of the main command (model selection, loader, tokenizer
 * check, label space, calibration), so info exits non-zero exactly where
 * redaction would refuse the model, with the same message. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "model_cli.h"
#include "pii_default_model.h"
#include "pipeline.h"
#include "pii_sha256.h"
#include "settings.h"

static const mc_opt opts[] = {
    {"model", 'm', "PATH",
     "model directory, .safetensors, index .json or .gguf; builtin; opf (default: "
     "as redaction chooses)"},
    {"tensors", 0, NULL, "also list every tensor (name, dtype, shape)"},
    {"operating-point", 0, "NAME", "the calibration's operating point to show (default)"},
    {"calibration", 0, "FILE", "viterbi_calibration.json to read (default: the model's)"},
    {"no-calibration", 0, NULL, "ignore the model's viterbi_calibration.json"},
    {"quiet", 'q', NULL, "no notices on stderr"},
    {"help", 'h', NULL, "show this help and exit"},
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

static void print_builtin(void)
{
    const char *cfg;
    const void *st;
    size_t cl, sl;
    if (!pii_default_model_image(&cfg, &cl, &st, &sl))
        return;
    uint8_t h[PII_SHA256_LEN];
    pii_sha256(st, sl, h);
    printf("model:       built-in (compiled into this binary)\n");
    printf("size:        %zu bytes (model.safetensors) + %zu bytes (config.json)\n", sl, cl);
    printf("sha256:      ");
    for (int i = 0; i < PII_SHA256_LEN; i++)
        printf("%02x", h[i]);
    printf(" (model.safetensors)\n");
    printf("training:    trained by this project on openly licensed annotated text and "
           "synthetic text (tools/train, tools/datagen; models/default/training.json); "
           "accuracy in docs/ACCURACY.md\n");
    printf("build:       models/default as `make` embedded it (by default its int8 form: "
           "experts and attention projections int8, made by `pii-redact quantize --attn`; "
           "mk/default_model.mk)\n");
}

void pii_cli_print_version(void)
{
    const char *cfg;
    const void *st;
    size_t cl, sl;
    printf("pii-redact %s\n", PII_VERSION);
    if (pii_default_model_image(&cfg, &cl, &st, &sl)) {
        uint8_t h[PII_SHA256_LEN];
        pii_sha256(st, sl, h);
        printf("model:   built-in, %zu bytes, sha256 ", sl);
        for (int i = 0; i < 6; i++)
            printf("%02x", h[i]);
        printf("\n");
    } else {
        printf("model:   none built in\n");
    }
    printf("kernels: %s\n", pii_rt_isa_name(mc_isa_active()));
    printf("license: Apache-2.0 (LICENSE); third-party notices (the tiktoken vocabulary, the "
           "default model, the name lexicons) are installed with it in share/pii-redact/\n");
}

int pii_cmd_info(int argc, char **argv)
{
    const char *mpath = NULL, *val;
    int tensors = 0, i = 1, k;
    pii_opts o;
    memset(&o, 0, sizeof o);
    o.act = -1;
    o.attn = -1;
    o.model_only = 1;
    o.threads = "1";
    while ((k = mc_next("info", argc, argv, &i, opts, NOPTS, &val)) != MC_END) {
        if (k == MC_ERR)
            return PII_EXIT_USAGE;
        if (k == MC_POS) {
            fprintf(stderr, "pii-redact info: unexpected argument '%s'\n", val);
            return PII_EXIT_USAGE;
        }
        const char *nm = opts[k].name;
        if (!strcmp(nm, "help")) {
            mc_usage(stdout, "pii-redact info [-m MODEL] [--tensors]",
                     "Opens a model exactly as redaction does (the same checks: files, shapes,\n"
                     "tokenizer, labels, calibration) and prints its format, layout, "
                     "configuration,\nparameter count, dtypes, labels, tokenizer and operating "
                     "point; exits 4 where\nredaction would refuse the model.  With no -m: the "
                     "model redaction would use\n($PII_REDACT_MODEL, the config file, an opf "
                     "checkpoint, else the built-in one,\nwith its size, sha256 and training "
                     "data).",
                     opts, NOPTS);
            return PII_EXIT_OK;
        }
        if (!strcmp(nm, "model"))
            mpath = val;
        else if (!strcmp(nm, "tensors"))
            tensors = 1;
        else if (!strcmp(nm, "operating-point"))
            o.operating_point = val;
        else if (!strcmp(nm, "calibration"))
            o.calibration = val;
        else if (!strcmp(nm, "no-calibration"))
            o.no_calibration = 1;
        else if (!strcmp(nm, "quiet"))
            o.quiet = 1;
    }
    if (o.calibration && o.no_calibration) {
        fprintf(stderr, "pii-redact info: --calibration and --no-calibration cannot be combined\n");
        return PII_EXIT_USAGE;
    }
    char dbuf[4096];
    int rc;
    if (!mpath && (rc = pii_settings_default_model(dbuf, sizeof dbuf, &mpath)) >= 0)
        return rc;
    o.model_path = mpath;
    pii_pipeline p;
    if ((rc = pii_pipeline_build(&o, &p)) >= 0) {
        pii_pipeline_free(&p);
        return rc;
    }
    const pii_model *m = p.model;
    const pii_model_config *c = pii_model_cfg(m);
    const pii_rt_store *st = pii_model_store(m);
    int gguf = pii_rt_store_format(st) == PII_RT_FMT_GGUF;
    const char *dir = pii_model_dir(m);
    if (!dir)
        print_builtin();
    else
        printf("model:       %s\n", mpath && strcmp(mpath, "opf") ? mpath : dir);
    printf("format:      %s, %zu file%s, %.1f MB %s\n", gguf ? "GGUF" : "safetensors",
           pii_rt_store_nfiles(st), pii_rt_store_nfiles(st) == 1 ? "" : "s",
           (double)pii_rt_store_bytes(st) / 1e6, dir ? "mapped" : "in the binary");
    printf("layout:      %s\n", pii_model_layout_name(pii_model_layout_of(m)));
    for (size_t f = 0; dir && f < pii_rt_store_nfiles(st); f++)
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
    printf("attention in: %s\n", pii_model_attn_int16(m)
                                     ? "int16 (int8 q, k and v projections; --attn f32: float)"
                                     : "f32");
    printf("tensors:     %zu\n", pii_rt_store_count(st));
    printf("labels:      %d:", c->n_labels);
    for (int l = 0; l < c->n_labels; l++)
        printf(" %s", pii_model_label(m, l));
    printf("\n");
    if (p.tok)
        printf("tokenizer:   %s/tokenizer.json (agrees with o200k_base)\n", dir);
    else
        printf("tokenizer:   built-in o200k_base\n");
    const char *cf = pii_ner_calibration_file(p.ner);
    pii_ner_biases b = pii_ner_get_biases(p.ner);
    printf("operating point: %s (%s)\n", o.operating_point ? o.operating_point : "default",
           cf[0]  ? cf
           : !dir ? "built-in model: its shipped operating point, then --bias"
                  : "no calibration file: biases 0 unless --bias");
    printf("biases:     ");
    for (int j = 0; j < PII_NER_NBIAS; j++)
        printf(" %s=%g", pii_ner_bias_keys[j] + strlen("transition_bias_"), (double)b.v[j]);
    printf("\n");
    printf("window:      %zu tokens, receptive field +-%zu\n", pii_ner_window(p.ner),
           pii_ner_halo(p.ner));
    printf("name memory: %s\n", pii_ner_name_memory(p.ner)
                                    ? "on (a person's name is redacted where it comes back)"
                                    : "off");
    printf("name lexicon: %s\n", pii_ner_name_lexicon(p.ner)
                                     ? "on (a known given name, honorific or title and the "
                                       "family name after it)"
                                     : "off");
    printf("dictionary filter: %s\n", pii_ner_dictionary_filter(p.ner)
                                          ? "on (lower-case dictionary words are no names)"
                                          : "off");
    printf("name filter: %s\n", pii_ner_name_filter(p.ner)
                                    ? "on (institutional, technical and code words are no names)"
                                    : "off");
    printf("isa:         %s\n", pii_rt_isa_name(pii_model_plan(p.model)->isa));
    if (tensors)
        for (size_t t = 0; t < pii_rt_store_count(st); t++) {
            const pii_rt_tensor *tt = pii_rt_store_at(st, t);
            char sh[128];
            shape_str(tt, sh, sizeof sh);
            printf("  %-56s %-5s %s\n", tt->name, pii_dtype_name(tt->dtype), sh);
        }
    pii_pipeline_free(&p);
    if (fflush(stdout) != 0 || ferror(stdout))
        return PII_EXIT_IO;
    return PII_EXIT_OK;
}
