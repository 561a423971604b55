/* model_quant.c — see model_quant.h.  The quantized tensors are views of
 * the mapping like every other weight: no conversion at load. */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "model_quant.h"

static int qfail(pii_err *e, pii_err code, char *errbuf, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static int qfail(pii_err *e, pii_err code, char *errbuf, size_t cap, const char *fmt, ...)
{
    if (errbuf && cap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(errbuf, cap, fmt, ap);
        va_end(ap);
    }
    *e = code;
    return -1;
}

/* The quantized twin of a tensor name stem ("x.q8" or "x.q4"). */
static const pii_rt_tensor *twin(const pii_rt_store *s, const char *stem, pii_dtype *qt)
{
    char nm[512];
    snprintf(nm, sizeof nm, "%s.q8", stem);
    const pii_rt_tensor *t = pii_rt_store_find(s, nm);
    if (t) {
        *qt = PII_DT_Q8_ROW;
        return t;
    }
    snprintf(nm, sizeof nm, "%s.q4", stem);
    t = pii_rt_store_find(s, nm);
    *qt = PII_DT_Q4_G32;
    return t;
}

/* Checks t = [lead...][npanels][panel bytes] of the right storage dtype
 * for an n_in -> n_out matrix (nlead leading dims of sizes lead[]); builds
 * the view of the first matrix and its stride. */
static int bind_twin(const pii_rt_tensor *t, pii_dtype qt, int nlead, const int64_t *lead,
                     int64_t n_in, int64_t n_out, pii_rt_mat *out, size_t *stride, pii_err *e,
                     char *errbuf, size_t cap)
{
    pii_dtype want = qt == PII_DT_Q8_ROW ? PII_DT_I8 : PII_DT_U8;
    uint64_t mb = pii_rt_qmat_bytes(qt, (uint64_t)n_in, (uint64_t)n_out);
    if (!mb)
        return qfail(e, PII_ESHAPE, errbuf, cap,
                     "%s: tensor '%s': a %lld -> %lld matrix cannot be %s", t->file, t->name,
                     (long long)n_in, (long long)n_out, qt == PII_DT_Q8_ROW ? "int8" : "int4");
    int64_t np = (n_out + 63) / 64, pb = (int64_t)(mb / (uint64_t)np);
    int ok = t->dtype == want && t->ndim == nlead + 2 && t->shape[nlead] == np &&
             t->shape[nlead + 1] == pb;
    for (int d = 0; ok && d < nlead; d++)
        ok = t->shape[d] == lead[d];
    if (!ok)
        return qfail(e, t->dtype != want ? PII_EDTYPE : PII_ESHAPE, errbuf, cap,
                     "%s: tensor '%s': expected %s [%s%lld, %lld] for a %lld -> %lld matrix",
                     t->file, t->name, pii_dtype_name(want), nlead ? "E, " : "", (long long)np,
                     (long long)pb, (long long)n_in, (long long)n_out);
    pii_err r = pii_rt_qmat_view(out, qt, t->data, mb, (uint64_t)n_in, (uint64_t)n_out);
    if (r)
        return qfail(e, r, errbuf, cap, "%s: tensor '%s': bad quantized view", t->file, t->name);
    if (stride)
        *stride = (size_t)mb;
    return 1;
}

int pii_pf_quant_mat(const pii_rt_store *s, const char *name, int64_t rows, int64_t cols,
                     pii_rt_mat *out, pii_err *e, char *errbuf, size_t cap)
{
    size_t nl = strlen(name);
    if (nl < 7 || nl > 400 || strcmp(name + nl - 7, ".weight"))
        return 0;
    char stem[512];
    memcpy(stem, name, nl - 7);
    stem[nl - 7] = 0;
    pii_dtype qt;
    const pii_rt_tensor *t = twin(s, stem, &qt);
    if (!t)
        return 0;
    return bind_twin(t, qt, 0, NULL, cols, rows, out, NULL, e, errbuf, cap);
}

int pii_pf_quant_experts(const pii_rt_store *s, int L, const pii_model_config *c, pf_layer *l,
                         pii_err *e, char *errbuf, size_t cap)
{
    char stem[160];
    const int64_t E = c->n_experts, D = c->d_model, I = c->d_expert;
    static const char *const part[3] = {"gate_proj", "up_proj", "down_proj"};
    pii_rt_mat *m[3] = {&l->gate, &l->up, &l->down};
    size_t *st[3] = {&l->gate_es, &l->up_es, &l->down_es};
    int found = 0;
    for (int k = 0; k < 3; k++) {
        snprintf(stem, sizeof stem, "model.layers.%d.mlp.experts.%s", L, part[k]);
        pii_dtype qt;
        const pii_rt_tensor *t = twin(s, stem, &qt);
        if (!t) {
            if (found)
                return qfail(e, PII_ENOTFOUND, errbuf, cap,
                             "%s: tensor '%s.q8' (or .q4) is missing", pii_rt_store_file(s, 0),
                             stem);
            return 0;
        }
        found = 1;
        int64_t ni = k < 2 ? D : I, no = k < 2 ? I : D;
        if (bind_twin(t, qt, 1, &E, ni, no, m[k], st[k], e, errbuf, cap) < 0)
            return -1;
    }
    return 1;
}

/* ---- Q8_0 GGUF experts -> Q8_ROW panels ----------------------------------------- */

typedef struct repack {
    const pii_rt_store *s;
    const pii_model_config *c;
    const pii_rt_mat *src; /* [L][3]: the Q8_0 views of expert 0 */
    const size_t *src_es;  /* [L][3]: their expert strides       */
    pf_layer *layers;      /* destinations: l->gate/up/down set to the panels */
    size_t njobs;          /* L * 3 * E matrices                   */
    _Atomic int err;       /* first error, PII_OK while none        */
} repack;

static void repack_task(void *ctx, int ith, int nth)
{
    repack *r = ctx;
    const size_t E = (size_t)r->c->n_experts;
    for (size_t j = (size_t)ith; j < r->njobs; j += (size_t)nth) {
        if (atomic_load_explicit(&r->err, memory_order_relaxed))
            return;
        size_t L = j / (3 * E), k = j / E % 3, x = j % E;
        pf_layer *l = &r->layers[L];
        const pii_rt_mat *dst = k == 0 ? &l->gate : k == 1 ? &l->up : &l->down;
        size_t dst_es = k == 0 ? l->gate_es : k == 1 ? l->up_es : l->down_es;
        pii_rt_mat src = pii_rt_mat_offset(&r->src[L * 3 + k], x * r->src_es[L * 3 + k]);
        pii_err e =
            pii_rt_quantize(&src, PII_DT_Q8_ROW, (uint8_t *)dst->data + x * dst_es, dst_es, NULL);
        if (e) {
            int none = PII_OK;
            atomic_compare_exchange_strong(&r->err, &none, (int)e);
        } else { /* its Q8_0 rows are read no more: one copy resident, not two */
            pii_rt_store_release(r->s, src.data, (size_t)src.n_out * src.ld);
        }
    }
}

pii_err pii_pf_quant_repack_q8_0(const pii_rt_store *s, const pii_model_config *c, pf_layer *layers,
                                 char *errbuf, size_t cap)
{
    const size_t nl = (size_t)c->n_layers, E = (size_t)c->n_experts;
    const uint64_t D = (uint64_t)c->d_model, I = (uint64_t)c->d_expert;
    const uint64_t gb = pii_rt_qmat_bytes(PII_DT_Q8_ROW, D, I),
                   db = pii_rt_qmat_bytes(PII_DT_Q8_ROW, I, D);
    if (!gb || !db) {
        snprintf(errbuf, cap, "%s: Q8_0 experts of width %llu x %llu cannot be repacked to int8",
                 pii_rt_store_file(s, 0), (unsigned long long)D, (unsigned long long)I);
        return PII_ESHAPE;
    }
    pii_rt_mat *src = malloc(nl * 3 * sizeof *src);
    size_t *src_es = malloc(nl * 3 * sizeof *src_es);
    pii_err e = src && src_es ? PII_OK : PII_ENOMEM;
    for (size_t L = 0; !e && L < nl; L++) {
        pf_layer *l = &layers[L];
        /* gate, up, down panels back to back, 64-byte aligned */
        size_t bytes = (size_t)(E * (2 * gb + db) + 63) / 64 * 64;
        uint8_t *q = aligned_alloc(64, bytes);
        if (!q) {
            e = PII_ENOMEM;
            break;
        }
        l->qbuf = q;
        pii_rt_mat *m[3] = {&l->gate, &l->up, &l->down};
        size_t *es[3] = {&l->gate_es, &l->up_es, &l->down_es};
        const uint64_t nb[3] = {gb, gb, db};
        for (int k = 0; k < 3; k++) {
            src[L * 3 + k] = *m[k];
            src_es[L * 3 + k] = *es[k];
            e = pii_rt_qmat_view(m[k], PII_DT_Q8_ROW, q, nb[k], m[k]->n_in, m[k]->n_out);
            if (e)
                break;
            *es[k] = (size_t)nb[k];
            q += E * nb[k];
        }
    }
    if (!e) {
        repack r = {s, c, src, src_es, layers, nl * 3 * E, PII_OK};
        pii_err pe;
        pii_rt_pool *pool = pii_rt_pool_create(0, &pe);
        pii_rt_pool_run(pool, repack_task, &r); /* NULL pool: this thread */
        pii_rt_pool_free(pool);
        e = (pii_err)atomic_load(&r.err);
    }
    if (e) {
        snprintf(errbuf, cap, "%s: repacking the Q8_0 experts to int8: %s", pii_rt_store_file(s, 0),
                 pii_strerror(e));
    }
    free(src);
    free(src_es);
    return e;
}
