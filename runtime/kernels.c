/* kernels.c — public kernel entry points: dispatch to the table of the
 * caller's plan, plus the kernels that need no SIMD twin (RoPE tables, routing,
 * grouping, transposes). */
#include <math.h>
#include <string.h>

#include "kern.h"
#include "kern_q.h"

/* ---- GEMM ------------------------------------------------------------------ */

int pii_rt_gemm_supported(pii_dtype t, pii_rt_layout layout)
{
    return (unsigned)t < PII_DT_COUNT && (unsigned)layout < 2 &&
           pii_rt_kern_scalar.gemm[t][layout] != NULL;
}

void pii_rt_gemm(const pii_rt_plan *p, const pii_rt_mat *W, size_t n, const float *x, size_t ldx,
                 const float *bias, float *y, size_t ldy, size_t o0, size_t o1, int acc)
{
    if (n == 0 || o1 <= o0)
        return;
    rt_gemm_fn f = p->kern->gemm[W->dtype][W->layout];
    if (!f)
        f = pii_rt_kern_scalar.gemm[W->dtype][W->layout];
    f(p, W, n, x, ldx, bias, y, ldy, o0, o1, acc);
}

int pii_rt_qx_usable(const pii_rt_plan *p, const pii_rt_mat *W)
{
    return W->dtype == PII_DT_Q8_ROW && W->layout == PII_RT_IO &&
           (p->qact == PII_RT_QACT_I16 || p->qact == PII_RT_QACT_I8);
}

/* int8 rows live in the int16 slots of q: row t at byte 2 t ldq */
void pii_rt_qx_rows(const pii_rt_plan *p, size_t n, size_t n_in, const float *x, size_t ldx,
                    int16_t *q, size_t ldq, float *s, int32_t *sq)
{
    if (p->qact == PII_RT_QACT_I8)
        (p->kern->qx8 ? p->kern->qx8 : pii_rt_kern_scalar.qx8)(x, ldx, n, n_in, (int8_t *)q,
                                                               2 * ldq, s, sq);
    else
        (p->kern->qx16 ? p->kern->qx16 : pii_rt_kern_scalar.qx16)(x, ldx, n, n_in, q, ldq, s);
}

void pii_rt_gemm_qx(const pii_rt_plan *p, const pii_rt_mat *W, size_t n, const int16_t *q,
                    size_t ldq, const float *s, const int32_t *sq, const float *bias, float *y,
                    size_t ldy, size_t o0, size_t o1, int acc)
{
    if (n == 0 || o1 <= o0)
        return;
    if (p->qact == PII_RT_QACT_I8)
        (p->kern->gemm_q8qx8 ? p->kern->gemm_q8qx8 : pii_rt_kern_scalar.gemm_q8qx8)(
            p, W, n, (const int8_t *)q, 2 * ldq, s, sq, bias, y, ldy, o0, o1, acc);
    else
        (p->kern->gemm_q8qx ? p->kern->gemm_q8qx : pii_rt_kern_scalar.gemm_q8qx)(
            p, W, n, q, ldq, s, bias, y, ldy, o0, o1, acc);
}

pii_err pii_rt_mat_view(pii_rt_mat *m, const pii_rt_tensor *t, pii_rt_layout layout, int64_t index,
                        uint32_t c0, uint32_t ncols)
{
    memset(m, 0, sizeof *m);
    if (t->ndim != 2 && t->ndim != 3)
        return PII_ESHAPE;
    int r = t->ndim - 2;
    if (t->ndim == 3 && (index < 0 || index >= t->shape[0]))
        return PII_ERANGE;
    if (t->shape[r] <= 0 || t->shape[r + 1] <= 0 || t->shape[r] > UINT32_MAX ||
        t->shape[r + 1] > UINT32_MAX)
        return PII_ESHAPE;
    uint64_t rows = (uint64_t)t->shape[r], cols = (uint64_t)t->shape[r + 1];
    if (ncols == 0)
        ncols = (uint32_t)(cols - c0);
    if ((uint64_t)c0 + ncols > cols)
        return PII_ERANGE;
    if (!pii_rt_gemm_supported(t->dtype, layout))
        return PII_EDTYPE;
    unsigned blk = pii_dtype_block(t->dtype);
    if (c0 % blk || ncols % blk)
        return PII_ESHAPE;
    pii_err e;
    uint64_t ld = pii_dtype_nbytes(t->dtype, cols, cols, &e);
    if (e)
        return e;
    uint64_t off = t->ndim == 3 ? (uint64_t)index * rows * ld : 0;
    m->data = (const uint8_t *)t->data + off + rt_elem_off(t->dtype, c0);
    m->ld = (size_t)ld;
    m->dtype = t->dtype;
    m->layout = layout;
    if (layout == PII_RT_OI) {
        m->n_out = (uint32_t)rows;
        m->n_in = ncols;
    } else {
        m->n_in = (uint32_t)rows;
        m->n_out = ncols;
    }
    return PII_OK;
}

/* ---- row kernels ------------------------------------------------------------ */

void pii_rt_rmsnorm(const pii_rt_plan *p, size_t n, size_t d, const float *x, size_t ldx,
                    const float *g, float eps, float *y, size_t ldy)
{
    const rt_kernels *k = p->kern;
    for (size_t t = 0; t < n; t++)
        k->rmsnorm(d, x + t * ldx, g, eps, y + t * ldy);
}

void pii_rt_swiglu(const pii_rt_plan *p, float *g, const float *u, size_t m, float alpha,
                   float limit)
{
    p->kern->swiglu(g, u, m, alpha, limit);
}

size_t pii_rt_attn_scratch(int radius, int H, int Hkv)
{
    size_t G = Hkv > 0 ? (size_t)(H / Hkv) : 1;
    /* the SIMD kernel (kern_simd.inc): QB * G rows of scores over the union
     * band of QB consecutive queries */
    const size_t QB = RT_ATT_QB;
    size_t rows = QB * G < 8 ? 8 : QB * G;
    size_t f32 = (2 * (size_t)radius + 16 + QB) * rows;
    /* the int16 kernel (kern_attq.inc): rows of scores (stride S), of int16
     * weights (S + 2) and of the quantized query (<= 256 int16) */
    size_t S = rt_attq_stride(radius);
    size_t q16 = rows * (S + (S + 2) / 2 + 128);
    return f32 > q16 ? f32 : q16;
}

size_t pii_rt_kvq_ld(size_t n)
{
    return ((n + 1) & ~(size_t)1) + 64;
}

void pii_rt_kvq_rows(const pii_rt_plan *p, const pii_rt_kvq *kv, int Hkv, int hd, const float *k,
                     size_t ldk, const float *v, size_t ldv, size_t t0, size_t t1)
{
    (p->kern->kvq_rows ? p->kern->kvq_rows : pii_rt_kvq_rows_scalar)(kv, Hkv, hd, k, ldk, v, ldv,
                                                                     t0, t1);
}

void pii_rt_attn_band(const pii_rt_plan *p, const pii_rt_attn *a, size_t d0, size_t d1, size_t i0,
                      size_t i1, float *scratch)
{
    if (i1 <= i0)
        return;
    const rt_kernels *k = p->kern;
    if (a->kvq)
        (k->attn_q16 ? k->attn_q16 : pii_rt_attn_q16_scalar)(p, a, d0, d1, i0, i1, scratch);
    else
        (k->attn ? k->attn : pii_rt_kern_scalar.attn)(a, d0, d1, i0, i1, scratch);
}

void pii_rt_transpose(const float *src, size_t lds, size_t rows, size_t cols, float *dst,
                      size_t ldd)
{
    /* 8x8 blocks keep both sides in cache lines. */
    for (size_t r0 = 0; r0 < rows; r0 += 8)
        for (size_t c0 = 0; c0 < cols; c0 += 8) {
            size_t r1 = r0 + 8 < rows ? r0 + 8 : rows, c1 = c0 + 8 < cols ? c0 + 8 : cols;
            for (size_t r = r0; r < r1; r++)
                for (size_t c = c0; c < c1; c++)
                    dst[c * ldd + r] = src[r * lds + c];
        }
}

/* ---- RoPE --------------------------------------------------------------------- */

void pii_rt_rope_freqs(const pii_rt_rope *r, int hd, double *omega, double *mscale)
{
    int half = hd / 2;
    double lt = log(r->theta);
    for (int i = 0; i < half; i++)
        omega[i] = pow(r->theta, -2.0 * i / hd);
    *mscale = 1.0;
    if (!r->yarn || r->factor <= 1.0) {
        if (r->yarn && r->attention_factor > 0)
            *mscale = r->attention_factor;
        return;
    }
    /* HF _compute_yarn_parameters: correction range from the beta bounds. */
    double low = hd * log(r->orig_ctx / (r->beta_fast * 2 * M_PI)) / (2 * lt);
    double high = hd * log(r->orig_ctx / (r->beta_slow * 2 * M_PI)) / (2 * lt);
    if (r->truncate) {
        low = floor(low);
        high = ceil(high);
    }
    if (low < 0)
        low = 0;
    if (high > hd - 1)
        high = hd - 1;
    if (high == low)
        high += 0.001; /* HF: avoid a division by zero */
    for (int i = 0; i < half; i++) {
        double ramp = (i - low) / (high - low);
        ramp = ramp < 0 ? 0 : ramp > 1 ? 1 : ramp;
        /* ramp 0: extrapolate (keep base); 1: interpolate (base / factor) */
        omega[i] = omega[i] / r->factor * ramp + omega[i] * (1 - ramp);
    }
    *mscale = r->attention_factor > 0 ? r->attention_factor : 0.1 * log(r->factor) + 1.0;
}

void pii_rt_rope_table(float *cs, size_t npos, int hd, const double *omega, double mul,
                       int angles_f64)
{
    int half = hd / 2;
    for (size_t p = 0; p < npos; p++)
        for (int j = 0; j < half; j++) {
            double ang;
            if (angles_f64)
                ang = (double)p * omega[j];
            else
                ang = (double)((float)p * (float)omega[j]);
            cs[(p * (size_t)half + (size_t)j) * 2] = (float)(cos(ang) * mul);
            cs[(p * (size_t)half + (size_t)j) * 2 + 1] = (float)(sin(ang) * mul);
        }
}

void pii_rt_rope_apply(float *x, int nh, int hd, const float *cs)
{
    for (int h = 0; h < nh; h++) {
        float *v = x + (size_t)h * hd;
        for (int j = 0; j < hd / 2; j++) {
            float c = cs[2 * j], s = cs[2 * j + 1];
            float x0 = v[2 * j], x1 = v[2 * j + 1];
            v[2 * j] = x0 * c - x1 * s;
            v[2 * j + 1] = x1 * c + x0 * s;
        }
    }
}

/* ---- MoE routing ----------------------------------------------------------- */

void pii_rt_topk_softmax(size_t n, int E, int k, const float *logits, size_t ld, int32_t *idx,
                         float *w)
{
    for (size_t t = 0; t < n; t++) {
        const float *r = logits + t * ld;
        int32_t *id = idx + t * (size_t)k;
        float *wt = w + t * (size_t)k;
        int m = 0;
        /* insertion into a descending list; strict > keeps the lower index
         * first on ties (torch.topk's usual order) */
        for (int e = 0; e < E; e++) {
            float v = r[e];
            if (m == k && !(v > r[id[k - 1]]))
                continue;
            int p = m < k ? m++ : k - 1;
            while (p > 0 && v > r[id[p - 1]]) {
                id[p] = id[p - 1];
                p--;
            }
            id[p] = e;
        }
        float mx = r[id[0]], sum = 0;
        for (int j = 0; j < k; j++) {
            wt[j] = expf(r[id[j]] - mx);
            sum += wt[j];
        }
        for (int j = 0; j < k; j++)
            wt[j] /= sum;
    }
}

void pii_rt_moe_group_min(size_t n, int E, int k, const int32_t *idx, const int16_t *level, int min,
                          uint32_t *cnt, uint32_t *off, uint32_t *grp, uint32_t *pos)
{
    const size_t K = (size_t)k;
    memset(cnt, 0, (size_t)E * sizeof *cnt);
    for (size_t t = 0; t < n; t++)
        if (!level || level[t] >= min)
            for (size_t s = 0; s < K; s++)
                cnt[idx[t * K + s]]++;
    off[0] = 0;
    for (int e = 0; e < E; e++)
        off[e + 1] = off[e] + cnt[e];
    memset(cnt, 0, (size_t)E * sizeof *cnt);
    for (size_t t = 0; t < n; t++) {
        if (level && level[t] < min)
            continue;
        for (size_t s = t * K; s < t * K + K; s++) {
            int32_t e = idx[s];
            uint32_t p = off[e] + cnt[e]++;
            grp[p] = (uint32_t)s;
            pos[s] = p;
        }
    }
}

void pii_rt_moe_group(size_t n, int E, int k, const int32_t *idx, uint32_t *cnt, uint32_t *off,
                      uint32_t *grp, uint32_t *pos)
{
    pii_rt_moe_group_min(n, E, k, idx, NULL, 0, cnt, off, grp, pos);
}
