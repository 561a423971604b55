/* pii_model_synth.h — random-weight models (model/synth.c).  Not part of
 * libpiiredact: model/synth.c is in libpiitools.a (the Makefile's
 * TOOLS_SRC), which the command (mkmodel) and the tests link; include this
 * header as "pii_model_synth.h". */
#ifndef PII_MODEL_SYNTH_H
#define PII_MODEL_SYNTH_H

#include <stddef.h>
#include <stdint.h>

#include "pii_model.h"

/* ---- random models (mkmodel, tests) ------------------------------------- */

/* A random-weight model of the real layout, deterministic for a seed on
 * every machine: each value is a small integer k (|k| <= 127) times a
 * per-tensor power of two, drawn from a counter-based generator
 * (splitmix64 of seed, tensor and element index), so F32, BF16 and F16
 * files hold identical values and Q8_0 GGUF blocks (scale = that power of
 * two) are lossless too.  Scales keep activations finite and routing
 * spread over the experts. */
typedef struct pii_model_synth {
    pii_model_config cfg; /* shapes; rope and labels as in the real model */
    uint64_t seed;
    pii_dtype dtype;        /* F32, BF16 or F16 (safetensors bulk); sinks F32 */
    pii_dtype gguf_experts; /* GGUF only: F16 or Q8_0 for expert weights     */
    int embed_rows;         /* 0: vocab_size; else a compact table + row map */
    int opf_copy;           /* HF layout: the weights of the opf-layout
                               model of this seed as transformers' converter
                               writes them: sinks = f32(native x ln 2) (the
                               opf file stores the drawn value in log2
                               units), score.bias all zeros               */
} pii_model_synth;

/* Fills the full-size configuration (spec §1) and seed 1, BF16. */
void pii_model_synth_default(pii_model_synth *s);
/* Writes dir/config.json and dir/model.safetensors (dir is created if
 * missing), streaming: memory use does not grow with the model. */
pii_err pii_model_synth_write_hf(const pii_model_synth *s, const char *dir, char *errbuf,
                                 size_t cap);
/* The same model in OpenAI opf's native layout: dir/config.json (opf's
 * keys) and dir/model.safetensors (embedding.weight, block.N.attn.qkv.*,
 * ...) and no head bias; the sinks hold the drawn values, read as log2
 * units (x ln 2 at load).  Its HF copy: write_hf with opf_copy set
 * (docs/FORMATS.md).  embed_rows must be 0. */
pii_err pii_model_synth_write_opf(const pii_model_synth *s, const char *dir, char *errbuf,
                                  size_t cap);
/* Writes one GGUF file in LocalAI's layout (spec §2.3). */
pii_err pii_model_synth_write_gguf(const pii_model_synth *s, const char *path, char *errbuf,
                                   size_t cap);

#endif
