/* quant.c — the project's quantized weight types (Q8_ROW and Q4_G32 in the
 * IO panel layout of kern_q.h): sizes, views, the quantizers that write
 * them, and the scalar reference kernels every SIMD path is tested
 * against. */
#include <stdlib.h>
#include <string.h>

#include "kern_q.h"

#define QCH 256 /* activation chunk of the scalar kernels (multiple of 32) */

/* ---- activation mode -------------------------------------------------------------- */

const char *pii_rt_qact_name(pii_rt_qact a)
{
    return a == PII_RT_QACT_I8      ? "int8"
           : a == PII_RT_QACT_I16   ? "int16"
           : a == PII_RT_QACT_I16R8 ? "int16+8"
                                    : "?";
}

pii_err pii_rt_qact_parse(const char *name, pii_rt_qact *out)
{
    static const pii_rt_qact all[] = {PII_RT_QACT_I16, PII_RT_QACT_I8, PII_RT_QACT_I16R8};
    for (size_t i = 0; name && i < sizeof all / sizeof all[0]; i++)
        if (strcmp(name, pii_rt_qact_name(all[i])) == 0) {
            *out = all[i];
            return PII_OK;
        }
    return PII_EINVAL;
}

/* ---- sizes and views ------------------------------------------------------------ */

static int q_shape_ok(pii_dtype qt, uint64_t n_in, uint64_t n_out)
{
    /* n_in bound: int32 sums of 255 * 127 products cannot overflow */
    if (n_in == 0 || n_out == 0 || n_in > 32768 || n_out > (1u << 24))
        return 0;
    if (qt == PII_DT_Q8_ROW)
        return n_in % 4 == 0;
    if (qt == PII_DT_Q4_G32)
        return n_in % RT_Q4_GROUP == 0;
    return 0;
}

uint64_t pii_rt_qmat_bytes(pii_dtype qt, uint64_t n_in, uint64_t n_out)
{
    if (!q_shape_ok(qt, n_in, n_out))
        return 0;
    uint64_t np = (n_out + RT_QP - 1) / RT_QP;
    return np * (qt == PII_DT_Q8_ROW ? rt_q8_panel_bytes(n_in) : rt_q4_panel_bytes(n_in));
}

pii_err pii_rt_qmat_view(pii_rt_mat *m, pii_dtype qt, const void *data, uint64_t nbytes,
                         uint64_t n_in, uint64_t n_out)
{
    memset(m, 0, sizeof *m);
    uint64_t need = pii_rt_qmat_bytes(qt, n_in, n_out);
    if (!need)
        return qt == PII_DT_Q8_ROW || qt == PII_DT_Q4_G32 ? PII_ESHAPE : PII_EDTYPE;
    if (nbytes < need)
        return PII_ESHAPE;
    m->data = data;
    m->ld = qt == PII_DT_Q8_ROW ? rt_q8_panel_bytes(n_in) : rt_q4_panel_bytes(n_in);
    m->n_in = (uint32_t)n_in;
    m->n_out = (uint32_t)n_out;
    m->dtype = qt;
    m->layout = PII_RT_IO;
    return PII_OK;
}

/* ---- quantizers ------------------------------------------------------------------- */

/* src as f32 [n_in][n_out] (IO order). */
static pii_err src_f32(const pii_rt_mat *s, float **out)
{
    size_t ni = s->n_in, no = s->n_out;
    float *w = malloc(ni * no * sizeof *w);
    if (!w)
        return PII_ENOMEM;
    if (s->layout == PII_RT_IO) {
        for (size_t i = 0; i < ni; i++)
            pii_rt_to_f32(s->dtype, (const uint8_t *)s->data + i * s->ld, no, w + i * no);
    } else {
        float *row = malloc(ni * sizeof *row);
        if (!row) {
            free(w);
            return PII_ENOMEM;
        }
        for (size_t o = 0; o < no; o++) {
            pii_rt_to_f32(s->dtype, (const uint8_t *)s->data + o * s->ld, ni, row);
            for (size_t i = 0; i < ni; i++)
                w[i * no + o] = row[i];
        }
        free(row);
    }
    *out = w;
    return PII_OK;
}

static void put_f32(uint8_t *p, float v)
{
    memcpy(p, &v, 4);
}

static void put_f16(uint8_t *p, uint16_t h)
{
    p[0] = (uint8_t)(h & 0xff);
    p[1] = (uint8_t)(h >> 8);
}

/* int8, symmetric per column.  The column's scale is chosen among
 * amax / m for m = 127 down to 127 - Q8_SEARCH + 1 (124), each refitted by least
 * squares (s = sum w q / sum q q for the rounded q), keeping the one with
 * the least squared error: never worse than amax / 127, and exact when the
 * column already lies on an int8 grid whose largest value is not 127 (a
 * Q8_0 or int8 source, the random models of ner/synth.c).  Rows are read in
 * order (w is IO: row i holds the no columns), all candidates at once. */
#define Q8_SEARCH 4
static pii_err quant_q8(const float *w, size_t ni, size_t no, uint8_t *dst)
{
    const size_t ld = rt_q8_panel_bytes(ni), np = (no + RT_QP - 1) / RT_QP;
    /* per column: amax, then per candidate inv, sum w q, sum q q */
    float *amax = calloc(no, sizeof *amax), *iv = malloc(Q8_SEARCH * no * sizeof *iv);
    double *sxq = calloc(Q8_SEARCH * no, sizeof *sxq), *sqq = calloc(Q8_SEARCH * no, sizeof *sqq);
    if (!amax || !iv || !sxq || !sqq) {
        free(amax);
        free(iv);
        free(sxq);
        free(sqq);
        return PII_ENOMEM;
    }
    memset(dst, 0, np * ld);
    for (size_t i = 0; i < ni; i++)
        for (size_t o = 0; o < no; o++) {
            float a = fabsf(w[i * no + o]);
            amax[o] = a > amax[o] ? a : amax[o];
        }
    for (int k = 0; k < Q8_SEARCH; k++)
        for (size_t o = 0; o < no; o++) {
            float s, inv;
            rt_q_scale(amax[o], &s, &inv);
            iv[k * no + o] = inv > 0 ? (float)(127 - k) / amax[o] : 0;
        }
    for (size_t i = 0; i < ni; i++) {
        const float *wr = w + i * no;
        for (int k = 0; k < Q8_SEARCH; k++) {
            const float *ivk = iv + k * no;
            double *sx = sxq + k * no, *sq = sqq + k * no;
            for (size_t o = 0; o < no; o++) {
                /* rt_q_one without its NaN test, in a form the compiler
                 * vectorises: |v| <= 127 here, and adding then subtracting
                 * 1.5 * 2^23 rounds to nearest even like rintf */
                float v = wr[o] * ivk[o];
                v = (v + 12582912.0f) - 12582912.0f;
                v = v > 127.0f ? 127.0f : v < -127.0f ? -127.0f : v;
                sx[o] += (double)wr[o] * v;
                sq[o] += (double)v * v;
            }
        }
    }
    /* best candidate per column: least error = largest sxq^2 / sqq; its inv
     * goes to iv[o], its scale to amax[o] */
    for (size_t o = 0; o < no; o++) {
        float s, inv;
        rt_q_scale(amax[o], &s, &inv);
        double best = -1;
        float bi = inv, bs = s;
        for (int k = 0; inv > 0 && k < Q8_SEARCH; k++) {
            double x = sxq[k * no + o], q = sqq[k * no + o];
            double gain = q > 0 ? x * x / q : 0;
            if (gain > best) {
                best = gain;
                bi = iv[k * no + o];
                bs = q > 0 ? (float)(x / q) : s;
            }
        }
        iv[o] = bi;
        amax[o] = bs;
    }
    for (size_t o = 0; o < no; o++)
        put_f32(dst + o / RT_QP * ld + (o % RT_QP) * 4, amax[o]);
    for (size_t i = 0; i < ni; i++)
        for (size_t o = 0; o < no; o++)
            dst[o / RT_QP * ld + 256 + (i / 4) * 256 + (o % RT_QP) * 4 + i % 4] =
                (uint8_t)rt_q_one(w[i * no + o], iv[o]);
    free(amax);
    free(iv);
    free(sxq);
    free(sqq);
    return PII_OK;
}

static float f16r(float v)
{
    return pii_rt_f16_to_f32(pii_rt_f32_to_f16(v));
}

/* One group of 32 weights -> q[32] in 0..15, d, m (f16-exact floats):
 * min/max start, then least-squares refits of (d, m) for the current
 * codes, keeping the best squared error. */
static void quant_group4(const float *v, uint8_t *q, float *d_out, float *m_out)
{
    float lo = v[0], hi = v[0];
    for (int j = 1; j < RT_Q4_GROUP; j++) {
        lo = v[j] < lo ? v[j] : lo;
        hi = v[j] > hi ? v[j] : hi;
    }
    float d = (hi - lo) / 15.0f, m = lo;
    double best = -1;
    uint8_t qq[RT_Q4_GROUP];
    for (int it = 0; it < 6; it++) {
        float d16 = f16r(d), m16 = f16r(m);
        double err = 0, sq = 0, sq2 = 0, sw = 0, sqw = 0;
        for (int j = 0; j < RT_Q4_GROUP; j++) {
            float r = d16 > 0 ? rintf((v[j] - m16) / d16) : 0;
            int k = r < 0 ? 0 : r > 15 ? 15 : (int)r;
            qq[j] = (uint8_t)k;
            double e = (double)d16 * k + m16 - v[j];
            err += e * e;
            sq += k;
            sq2 += (double)k * k;
            sw += v[j];
            sqw += (double)k * v[j];
        }
        if (best < 0 || err < best) {
            best = err;
            memcpy(q, qq, sizeof qq);
            *d_out = d16;
            *m_out = m16;
        }
        double n = RT_Q4_GROUP, det = sq2 * n - sq * sq;
        if (det <= 0 || best == 0)
            break;
        double nd = (sqw * n - sq * sw) / det, nm = (sq2 * sw - sq * sqw) / det;
        if (!(nd > 0))
            break;
        d = (float)nd;
        m = (float)nm;
    }
}

static void quant_q4(const float *w, size_t ni, size_t no, uint8_t *dst)
{
    const size_t ld = rt_q4_panel_bytes(ni), np = (no + RT_QP - 1) / RT_QP;
    memset(dst, 0, np * ld);
    float v[RT_Q4_GROUP];
    uint8_t q[RT_Q4_GROUP];
    for (size_t o = 0; o < no; o++) {
        uint8_t *pan = dst + o / RT_QP * ld;
        size_t c = o % RT_QP;
        for (size_t g = 0; g < ni / RT_Q4_GROUP; g++) {
            uint8_t *gb = pan + g * RT_Q4_GBYTES;
            for (int j = 0; j < RT_Q4_GROUP; j++)
                v[j] = w[(g * RT_Q4_GROUP + (size_t)j) * no + o];
            float d = 0, m = 0;
            quant_group4(v, q, &d, &m);
            for (int r = 0; r < 4; r++)
                for (int j = 0; j < 4; j++)
                    gb[r * 256 + c * 4 + (size_t)j] =
                        (uint8_t)(q[8 * r + j] | q[8 * r + 4 + j] << 4);
            put_f16(gb + 1024 + c * 2, pii_rt_f32_to_f16(d));
            put_f16(gb + 1152 + c * 2, pii_rt_f32_to_f16(m));
        }
    }
}

pii_err pii_rt_quantize(const pii_rt_mat *src, pii_dtype qt, void *dst, size_t cap, pii_rt_mat *out)
{
    uint64_t need = pii_rt_qmat_bytes(qt, src->n_in, src->n_out);
    if (!need)
        return qt == PII_DT_Q8_ROW || qt == PII_DT_Q4_G32 ? PII_ESHAPE : PII_EDTYPE;
    if (cap < need)
        return PII_ETOOBIG;
    if (src->dtype != PII_DT_F32 && src->dtype != PII_DT_F16 && src->dtype != PII_DT_BF16 &&
        !(src->dtype == PII_DT_Q8_0 && src->layout == PII_RT_OI))
        return PII_EDTYPE;
    float *w;
    pii_err e = src_f32(src, &w);
    if (e)
        return e;
    if (qt == PII_DT_Q8_ROW)
        e = quant_q8(w, src->n_in, src->n_out, dst);
    else
        quant_q4(w, src->n_in, src->n_out, dst);
    free(w);
    if (e)
        return e;
    return out ? pii_rt_qmat_view(out, qt, dst, need, src->n_in, src->n_out) : PII_OK;
}

/* ---- scalar reference kernels ------------------------------------------------------ */

static float get_f32(const uint8_t *p)
{
    float v;
    memcpy(&v, p, 4);
    return v;
}

static float get_f16(const uint8_t *p)
{
    return pii_rt_f16_to_f32((uint16_t)(p[0] | p[1] << 8));
}

static float row_amax(const float *x, size_t n)
{
    float amax = 0;
    for (size_t i = 0; i < n; i++) {
        float a = fabsf(x[i]);
        amax = a > amax ? a : amax;
    }
    return amax;
}

void pii_rt_q16_residue(float *x, size_t n)
{
    float s, inv;
    rt_q16_scale(row_amax(x, n), &s, &inv);
    for (size_t i = 0; i < n; i++)
        x[i] -= (float)rt_q16_one(x[i], inv) * s;
}

static void finish(float *y, float v, const float *bias, size_t o, int acc)
{
    if (bias)
        v += bias[o];
    *y = acc ? *y + v : v;
}

/* The activation rules of kern_q.h: int8 (Q = 127) or, with a16, int16
 * (Q = 8191). */
static void act_scale(int a16, float amax, float *s, float *inv)
{
    if (a16)
        rt_q16_scale(amax, s, inv);
    else
        rt_q_scale(amax, s, inv);
}

static int16_t act_one(int a16, float x, float inv)
{
    return a16 ? rt_q16_one(x, inv) : rt_q_one(x, inv);
}

/* sum[o - ob] += the products of inputs [ic, ic + m) of one row, q[0 .. m),
 * with the columns [ob, oe) of a Q8 panel. */
static void q8_chunk(const uint8_t *pan, const int16_t *q, size_t ic, size_t m, size_t ob,
                     size_t oe, int64_t *sum)
{
    for (size_t o = ob; o < oe; o++) {
        size_t c = o % RT_QP;
        int64_t a = 0;
        for (size_t i = 0; i < m; i++) {
            size_t ii = ic + i;
            a += (int32_t)q[i] * (int8_t)pan[256 + ii / 4 * 256 + c * 4 + ii % 4];
        }
        sum[o - ob] += a;
    }
}

/* yr[o] (+)= sum[o - ob] * s * scale[o] + bias[o], o in [ob, oe). */
static void q8_finish(const uint8_t *pan, const int64_t *sum, float s, const float *bias, float *yr,
                      size_t ob, size_t oe, int acc)
{
    for (size_t o = ob; o < oe; o++) {
        float sc = get_f32(pan + (o % RT_QP) * 4);
        finish(&yr[o], (float)sum[o - ob] * (s * sc), bias, o, acc);
    }
}

/* One row of Q8 output columns [o0, o1): exact integer sums (int64, so any
 * n_in is exact), one rounding, on the row's integer activations — int16
 * (q16) or int8 (q8) quantized beforehand, or quantized here chunk by
 * chunk from the floats xr (act_one with inv, a16) — scale s. */
static void q8_row(const pii_rt_mat *W, const int16_t *q16, const int8_t *q8, const float *xr,
                   float inv, int a16, float s, const float *bias, float *yr, size_t o0, size_t o1,
                   int acc)
{
    const size_t ni = W->n_in;
    const uint8_t *base = W->data;
    int16_t qb[QCH];
    for (size_t ob = o0; ob < o1;) {
        size_t pi = ob / RT_QP, oe = (pi + 1) * RT_QP < o1 ? (pi + 1) * RT_QP : o1;
        const uint8_t *pan = base + pi * W->ld;
        int64_t sum[RT_QP] = {0};
        for (size_t ic = 0; ic < ni; ic += QCH) {
            size_t m = ni - ic < QCH ? ni - ic : QCH;
            for (size_t i = 0; !q16 && i < m; i++)
                qb[i] = q8 ? q8[ic + i] : act_one(a16, xr[ic + i], inv);
            q8_chunk(pan, q16 ? q16 + ic : qb, ic, m, ob, oe, sum);
        }
        q8_finish(pan, sum, s, bias, yr, ob, oe, acc);
        ob = oe;
    }
}

/* Q8 on float rows: each row quantized (one scale per row), then q8_row. */
static void q8io(const pii_rt_mat *W, size_t n, const float *x, size_t ldx, const float *bias,
                 float *y, size_t ldy, size_t o0, size_t o1, int acc, int a16)
{
    for (size_t t = 0; t < n; t++) {
        const float *xr = x + t * ldx;
        float s, inv;
        act_scale(a16, row_amax(xr, W->n_in), &s, &inv);
        q8_row(W, NULL, NULL, xr, inv, a16, s, bias, y + t * ldy, o0, o1, acc);
    }
}

/* Q4: per group of 32, exact integer sums folded in float; with int16
 * activations the sums are split by input position (kern_q.h). */
static void q4io(const pii_rt_mat *W, size_t n, const float *x, size_t ldx, const float *bias,
                 float *y, size_t ldy, size_t o0, size_t o1, int acc, int a16)
{
    const size_t ni = W->n_in, ng = ni / RT_Q4_GROUP;
    const uint8_t *base = W->data;
    int16_t qb[RT_Q4_GROUP];
    for (size_t t = 0; t < n; t++) {
        const float *xr = x + t * ldx;
        float s, inv;
        act_scale(a16, row_amax(xr, ni), &s, &inv);
        for (size_t ob = o0; ob < o1;) {
            size_t p = ob / RT_QP, oe = (p + 1) * RT_QP < o1 ? (p + 1) * RT_QP : o1;
            const uint8_t *pan = base + p * W->ld;
            float f0[RT_QP] = {0}, f1[RT_QP] = {0};
            for (size_t g = 0; g < ng; g++) {
                const uint8_t *gb = pan + g * RT_Q4_GBYTES;
                int32_t sq = 0;
                for (int j = 0; j < RT_Q4_GROUP; j++) {
                    qb[j] = act_one(a16, xr[g * RT_Q4_GROUP + (size_t)j], inv);
                    sq += qb[j];
                }
                for (size_t o = ob; o < oe; o++) {
                    size_t c = o % RT_QP;
                    int32_t p0 = 0, p1 = 0;
                    for (int r = 0; r < 4; r++)
                        for (int j = 0; j < 4; j++) {
                            uint8_t b = gb[r * 256 + c * 4 + (size_t)j];
                            int32_t v = qb[8 * r + j] * (b & 15) + qb[8 * r + 4 + j] * (b >> 4);
                            if (j < 2)
                                p0 += v;
                            else
                                p1 += v;
                        }
                    float d = get_f16(gb + 1024 + c * 2), m = get_f16(gb + 1152 + c * 2);
                    size_t k = o - ob;
                    if (a16) {
                        f0[k] = fmaf((float)p0, d, f0[k]);
                        f0[k] = fmaf(m, (float)sq, f0[k]);
                        f1[k] = fmaf((float)p1, d, f1[k]);
                        f1[k] = fmaf(0.0f, (float)sq, f1[k]);
                    } else {
                        f0[k] = fmaf(m, (float)sq, fmaf((float)(p0 + p1), d, f0[k]));
                    }
                }
            }
            for (size_t o = ob; o < oe; o++) {
                float v = a16 ? f0[o - ob] + f1[o - ob] : f0[o - ob];
                finish(&y[t * ldy + o], v * s, bias, o, acc);
            }
            ob = oe;
        }
    }
}

void pii_rt_gemm_q8io_scalar(const pii_rt_plan *p, const pii_rt_mat *W, size_t n, const float *x,
                             size_t ldx, const float *bias, float *y, size_t ldy, size_t o0,
                             size_t o1, int acc)
{
    q8io(W, n, x, ldx, bias, y, ldy, o0, o1, acc, p->qact != PII_RT_QACT_I8);
}

void pii_rt_qx16_scalar(const float *x, size_t ldx, size_t n, size_t ni, int16_t *q, size_t ldq,
                        float *s)
{
    for (size_t t = 0; t < n; t++) {
        const float *xr = x + t * ldx;
        int16_t *qr = q + t * ldq;
        float inv;
        act_scale(1, row_amax(xr, ni), &s[t], &inv);
        for (size_t i = 0; i < ni; i++)
            qr[i] = act_one(1, xr[i], inv);
        for (size_t i = ni; i < ldq; i++)
            qr[i] = 0;
    }
}

/* q8io with int16 activations quantized beforehand (pii_rt_qx16_scalar). */
void pii_rt_gemm_q8qx_scalar(const pii_rt_plan *p, const pii_rt_mat *W, size_t n, const int16_t *q,
                             size_t ldq, const float *s, const float *bias, float *y, size_t ldy,
                             size_t o0, size_t o1, int acc)
{
    (void)p;
    for (size_t t = 0; t < n; t++)
        q8_row(W, q + t * ldq, NULL, NULL, 0, 1, s[t], bias, y + t * ldy, o0, o1, acc);
}

void pii_rt_qx8_scalar(const float *x, size_t ldx, size_t n, size_t ni, int8_t *q, size_t ldq,
                       float *s, int32_t *sq)
{
    for (size_t t = 0; t < n; t++) {
        const float *xr = x + t * ldx;
        int8_t *qr = q + t * ldq;
        float inv;
        int32_t sum = 0;
        act_scale(0, row_amax(xr, ni), &s[t], &inv);
        for (size_t i = 0; i < ni; i++)
            sum += qr[i] = (int8_t)act_one(0, xr[i], inv);
        for (size_t i = ni; i < ldq; i++)
            qr[i] = 0;
        sq[t] = sum;
    }
}

/* q8io with int8 activations quantized beforehand (pii_rt_qx8_scalar; the
 * row sums are the SIMD paths'). */
void pii_rt_gemm_q8qx8_scalar(const pii_rt_plan *p, const pii_rt_mat *W, size_t n, const int8_t *q,
                              size_t ldq, const float *s, const int32_t *sq, const float *bias,
                              float *y, size_t ldy, size_t o0, size_t o1, int acc)
{
    (void)p;
    (void)sq;
    for (size_t t = 0; t < n; t++)
        q8_row(W, NULL, q + t * ldq, NULL, 0, 0, s[t], bias, y + t * ldy, o0, o1, acc);
}

void pii_rt_gemm_q4io_scalar(const pii_rt_plan *p, const pii_rt_mat *W, size_t n, const float *x,
                             size_t ldx, const float *bias, float *y, size_t ldy, size_t o0,
                             size_t o1, int acc)
{
    q4io(W, n, x, ldx, bias, y, ldy, o0, o1, acc, p->qact != PII_RT_QACT_I8);
}
