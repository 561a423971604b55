/* model_internal.h — private to model/: the loaded model.
 * Legend: n tokens, D model width, H / Hkv heads, hd head width, E experts,
 * k experts per token, I expert width, C labels, V vocabulary. */
#ifndef PII_MODEL_INTERNAL_H
#define PII_MODEL_INTERNAL_H

#include "pii_model.h"

typedef struct pf_layer {
    const float *ln_attn, *ln_moe; /* [D]                                  */
    pii_rt_mat wq, wk, wv, wo;     /* [H*hd, D], [Hkv*hd, D] x2, [D, H*hd]  */
    const float *bq, *bk, *bv, *bo;
    const float *sinks;             /* [H], natural log                      */
    pii_rt_mat router;              /* [E, D]                                */
    const float *brouter;           /* [E]                                   */
    pii_rt_mat gate, up, down;      /* expert 0: D->I, D->I, I->D            */
    size_t gate_es, up_es, down_es; /* bytes from one expert to the next    */
    const float *bgate, *bup;       /* [E] rows of I, bgu_es floats apart    */
    size_t bgu_es;                  /* I, or 2I when gate|up bias is [E][2I] */
    pii_rt_mat gu;                  /* fused: gate|up of expert 0, D->2I     */
    int fused;                      /* gu valid: one IO matrix, bias [E][2I] */
    const float *bdown;             /* [E][D]                                */
    void *qbuf;                     /* owned panels of repacked experts, or NULL */
} pf_layer;

struct pii_model {
    pii_model_config cfg;
    int layout; /* pii_model_layout */
    pii_model_params params;
    pii_rt_plan plan; /* from params.isa / params.qact; workspaces copy it */
    pii_rt_store *store;
    char *dir;
    char **labels;              /* [C] */
    const pii_rt_tensor *embed; /* [rows, D] */
    const uint8_t *row_map;     /* I32 [V] (unaligned) or NULL */
    size_t embed_row_bytes;
    pf_layer *layers;      /* [L] */
    const float *ln_final; /* [D] */
    pii_rt_mat score;      /* [C, D] */
    const float *bscore;   /* [C] */
    float *f32;            /* arena of the small vectors converted to f32 */
    double omega[256];     /* RoPE frequencies [hd/2] */
    double mscale;
};

/* config.c: formats "file: message" into errbuf (may be NULL); returns e. */
pii_err pii_pf_fail(char *errbuf, size_t cap, pii_err e, const char *file, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* HF config.json, or opf's native original/config.json (detected by its
 * keys: num_experts / experts_per_token / model_type "privacy_filter"
 * without num_local_experts); *opf says which. */
pii_err pii_pf_config_json(const char *text, size_t len, pii_model_config *c, char ***labels,
                           int *opf, const char *fname, char *errbuf, size_t cap);
pii_err pii_pf_config_gguf(const pii_rt_store *s, pii_model_config *c, char ***labels,
                           const char *fname, char *errbuf, size_t cap);
void pii_pf_labels_free(char **labels, int n);
/* Spec §5 label names for C == 33, else generic BIOES names. */
pii_err pii_pf_labels_default(int n, char ***labels);

/* opf's native sink (log2 units) in natural-log units: x ln 2, the product
 * computed in double and rounded once to f32. */
float pii_pf_opf_sink(float log2_units);

/* model.c: binds tensors of a store to m (cfg already set). */
pii_err pii_pf_bind(pii_model *m, char *errbuf, size_t cap);

#endif
