/* default_model.c — the embedded default model (see pii_default_model.h).
 * mk/default_model.mk defines PII_DEFAULT_MODEL_DIR when the model files
 * exist; the assembler then includes them byte for byte. */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pii_default_model.h"

#ifdef PII_DEFAULT_MODEL_DIR
/* 64-byte alignment keeps the safetensors data section SIMD-friendly (the
 * header length makes the tensor data start at 8 + header bytes, which the
 * exporter pads to a multiple of 64). */
__asm__(".section .rodata\n"
        ".balign 64\n"
        "pii_dm_st_begin:\n"
        ".incbin \"" PII_DEFAULT_MODEL_DIR "/model.safetensors\"\n"
        "pii_dm_st_end:\n"
        ".balign 8\n"
        "pii_dm_cfg_begin:\n"
        ".incbin \"" PII_DEFAULT_MODEL_DIR "/config.json\"\n"
        "pii_dm_cfg_end:\n"
        ".previous\n");
extern const unsigned char pii_dm_st_begin[], pii_dm_st_end[];
extern const char pii_dm_cfg_begin[], pii_dm_cfg_end[];
#endif

int pii_default_model_image(const char **config_json, size_t *config_len, const void **safetensors,
                            size_t *st_len)
{
#ifdef PII_DEFAULT_MODEL_DIR
    *config_json = pii_dm_cfg_begin;
    *config_len = (size_t)(pii_dm_cfg_end - pii_dm_cfg_begin);
    *safetensors = pii_dm_st_begin;
    *st_len = (size_t)(pii_dm_st_end - pii_dm_st_begin);
    return 1;
#else
    (void)config_json, (void)config_len, (void)safetensors, (void)st_len;
    return 0;
#endif
}

pii_model *pii_default_model_load(const pii_model_params *p, pii_err *err, char *errbuf, size_t cap)
{
    const char *cfg;
    const void *st;
    size_t cfg_len, st_len;
    if (!pii_default_model_image(&cfg, &cfg_len, &st, &st_len)) {
        if (err)
            *err = PII_ENOTFOUND;
        if (errbuf && cap)
            snprintf(errbuf, cap, "no default model is compiled into this build");
        return NULL;
    }
    return pii_model_load_mem(cfg, cfg_len, st, st_len, p, err, errbuf, cap);
}

size_t pii_default_model_operating_point(const char *what, char (*specs)[96], size_t max)
{
    const char *cfg;
    const void *st;
    size_t cfg_len, st_len, n = 0;
    if (!pii_default_model_image(&cfg, &cfg_len, &st, &st_len))
        return 0;
    json_tokener *tk = json_tokener_new();
    if (!tk)
        return 0;
    json_object *root = json_tokener_parse_ex(tk, cfg, (int)cfg_len), *op, *part;
    json_tokener_free(tk);
    if (root && json_object_object_get_ex(root, "pii_redact_operating_point", &op) &&
        json_object_object_get_ex(op, what, &part) && json_object_is_type(part, json_type_object)) {
        json_object_object_foreach(part, key, val)
        {
            double v = json_object_get_double(val);
            if (n < max && strlen(key) < 64 && isfinite(v))
                snprintf(specs[n++], 96, "%s=%.4g", key, v);
        }
    }
    json_object_put(root);
    return n;
}

void pii_default_model_apply_operating_point(pii_ner_params *np, int user_global)
{
    char specs[PII_NER_MAX_LABEL_THRESHOLDS][96];
    size_t n = pii_default_model_operating_point("biases", specs, PII_NER_MAX_LABEL_THRESHOLDS);
    for (size_t k = 0; k < n; k++) {
        char *eq = strchr(specs[k], '=');
        *eq = '\0';
        int i = pii_ner_bias_index(specs[k]);
        *eq = '=';
        if (i >= 0 && !(np->bias_mask & (1u << i)))
            (void)pii_ner_params_bias(np, specs[k]);
    }
    if (user_global)
        return;
    n = pii_default_model_operating_point("thresholds", specs, PII_NER_MAX_LABEL_THRESHOLDS);
    for (size_t k = 0; k < n; k++) {
        size_t ln = (size_t)(strchr(specs[k], '=') - specs[k]);
        int set = 0;
        for (size_t i = 0; i < np->nlabel_thresholds; i++)
            set |= strlen(np->label_thresholds[i].label) == ln &&
                   strncmp(np->label_thresholds[i].label, specs[k], ln) == 0;
        if (!set)
            (void)pii_ner_params_threshold(np, specs[k]);
    }
}
