/* pii_default_model.h — the model compiled into libpiiredact.
 *
 * `make` embeds models/default/{config.json,model.safetensors} (a small
 * Privacy-Filter-architecture model trained by the project, see
 * tools/train/) into the library with .incbin, so pii-redact detects PII
 * with no files beside the binary.  The image lives in .rodata: loading it
 * maps nothing and copies nothing.  When the build had no model files, the
 * functions report that none is embedded. */
#ifndef PII_DEFAULT_MODEL_H
#define PII_DEFAULT_MODEL_H

#include <stddef.h>

#include "pii_model.h"
#include "pii_ner.h"

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API of libpiiredact.so */
#endif

/* Non-zero when a default model is compiled in; then sets the images. */
int pii_default_model_image(const char **config_json, size_t *config_len, const void **safetensors,
                            size_t *st_len);

/* Loads the embedded model (PII_ENOTFOUND when none is compiled in). */
pii_model *pii_default_model_load(const pii_model_params *p, pii_err *err, char *errbuf,
                                  size_t cap);

/* The embedded model's default operating point, chosen on the dev split of
 * the real-text pack (tools/train/thresholds.py): its config.json ships
 * "pii_redact_operating_point": {"biases": {KEY: X}, "thresholds": {LABEL:
 * X}}.  Writes up to max "key=value" strings (each < 96 bytes) of the part
 * named by what ("biases": Viterbi transition biases, see
 * pii_ner_params_bias; "thresholds": minimum span scores per label) and
 * returns how many; 0 when no model is compiled in or it ships none.
 * Callers apply them where the user set nothing (--bias, --threshold). */
size_t pii_default_model_operating_point(const char *what, char (*specs)[96], size_t max);

/* Applies that operating point to np, under what the caller already set:
 * each shipped bias whose key np->bias_mask does not hold yet, and each
 * shipped threshold for a label np has none for, unless user_global (the
 * caller set one threshold for every label, which then stands).  Labels in
 * np must be resolved to category names first. */
void pii_default_model_apply_operating_point(pii_ner_params *np, int user_global);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif

#endif
