/* model_quant.h — private to model/: binding the project's quantized
 * weights (docs/FORMATS.md "Quantized models") in place of the HF ones.
 * Each function returns 1 when it bound quantized weights, 0 when the
 * model holds none for that name (bind the original then), and -1 on an
 * error (*e set, message naming the file and tensor in errbuf). */
#ifndef PII_MODEL_QUANT_H
#define PII_MODEL_QUANT_H

#include "model_internal.h"

/* A Linear weight `name` ("....weight", [rows = out][cols = in]): its twin
 * "....q8" / "....q4" ([ceil(out/64)][panel bytes], I8 / U8). */
int pii_pf_quant_mat(const pii_rt_store *s, const char *name, int64_t rows, int64_t cols,
                     pii_rt_mat *out, pii_err *e, char *errbuf, size_t cap);

/* Layer L's experts: "model.layers.L.mlp.experts.{gate,up,down}_proj.q8"
 * (or .q4), each [E][ceil(out/64)][panel bytes]; sets gate, up, down and
 * their expert strides. */
int pii_pf_quant_experts(const pii_rt_store *s, int L, const pii_model_config *c, pf_layer *l,
                         pii_err *e, char *errbuf, size_t cap);

/* GGUF Q8_0 expert stacks (LocalAI's files) re-quantized at load into
 * Q8_ROW panels, so they run on the int8 kernels (VNNI where present):
 * every layer's gate, up and down views and strides are replaced, the
 * panels are owned by l->qbuf, and the Q8_0 pages are released from the
 * mapping.  Runs on all CPUs.  Returns PII_OK or the error (errbuf set). */
pii_err pii_pf_quant_repack_q8_0(const pii_rt_store *s, const pii_model_config *c, pf_layer *layers,
                                 char *errbuf, size_t cap);

#endif
