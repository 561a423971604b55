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

/* The embedded model's default operating point: the per-label minimum span
 * scores its config.json ships under "pii_redact_thresholds" (chosen on the
 * dev split of the real-text pack, tools/train/README.md).  Writes up to max
 * "label=score" strings (each < 96 bytes) and returns how many; 0 when no
 * model is compiled in or it ships none.  Callers apply them before the
 * user's --threshold values, which override them. */
size_t pii_default_model_thresholds(char (*specs)[96], size_t max);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif

#endif
