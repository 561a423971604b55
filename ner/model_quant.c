/* model_quant.c — see model_quant.h.  The quantized tensors are views of
 * the mapping like every other weight: no conversion at load. */
#include <stdarg.h>
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

int pf_quant_mat(const pii_rt_store *s, const char *name, int64_t rows, int64_t cols,
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

int pf_quant_experts(const pii_rt_store *s, int L, const pii_model_config *c, pf_layer *l,
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
                             "%s: tensor '%s.q8' (or .q4) is missing",
                             pii_rt_store_file(s, 0), stem);
            return 0;
        }
        found = 1;
        int64_t ni = k < 2 ? D : I, no = k < 2 ? I : D;
        if (bind_twin(t, qt, 1, &E, ni, no, m[k], st[k], e, errbuf, cap) < 0)
            return -1;
    }
    return 1;
}
