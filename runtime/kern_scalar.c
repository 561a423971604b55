/* kern_scalar.c — the portable reference kernels.  Every SIMD kernel is
 * tested against these.  Weights are converted to f32 in small stack
 * chunks, never as a whole copy. */
#include <math.h>
#include <string.h>

#include "kern.h"
#include "kern_q.h"

#define CH 256 /* conversion chunk (multiple of every block size) */
#define TT 8   /* tokens per tile */

/* Converts elements [c, c+m) of a stored row to f32 (Q8_ROW as raw int8). */
static void row_f32(pii_dtype dt, const uint8_t *row, size_t c, size_t m, float *dst)
{
    pii_dtype conv = dt == PII_DT_Q8_ROW ? PII_DT_I8 : dt;
    pii_rt_to_f32(conv, row + rt_elem_off(conv, c), m, dst);
}

static void store(float *y, float v, const float *bias, size_t o, int acc)
{
    if (bias)
        v += bias[o];
    *y = acc ? *y + v : v;
}

/* OI: y[t,o] = sum_i x[t,i] W[o,i] */
static void gemm_oi(const pii_rt_mat *W, size_t n, const float *x, size_t ldx, const float *bias,
                    float *y, size_t ldy, size_t o0, size_t o1, int acc)
{
    const uint8_t *base = W->data;
    float buf[CH];
    for (size_t o = o0; o < o1; o++) {
        const uint8_t *row = base + o * W->ld;
        float sc = W->dtype == PII_DT_Q8_ROW ? W->scale[o] : 1.0f;
        for (size_t t0 = 0; t0 < n; t0 += TT) {
            size_t tn = n - t0 < TT ? n - t0 : TT;
            float s[TT] = {0};
            for (size_t c = 0; c < W->n_in; c += CH) {
                size_t m = W->n_in - c < CH ? W->n_in - c : CH;
                row_f32(W->dtype, row, c, m, buf);
                for (size_t t = 0; t < tn; t++) {
                    const float *xr = x + (t0 + t) * ldx + c;
                    float a = 0;
                    for (size_t i = 0; i < m; i++)
                        a += xr[i] * buf[i];
                    s[t] += a;
                }
            }
            for (size_t t = 0; t < tn; t++)
                store(&y[(t0 + t) * ldy + o], s[t] * sc, bias, o, acc);
        }
    }
}

/* IO: y[t,o] = sum_i x[t,i] W[i,o] */
#define OC 64
static void gemm_io(const pii_rt_mat *W, size_t n, const float *x, size_t ldx, const float *bias,
                    float *y, size_t ldy, size_t o0, size_t o1, int acc)
{
    const uint8_t *base = W->data;
    float buf[OC];
    for (size_t oc = o0; oc < o1; oc += OC) {
        size_t m = o1 - oc < OC ? o1 - oc : OC;
        for (size_t t0 = 0; t0 < n; t0 += TT) {
            size_t tn = n - t0 < TT ? n - t0 : TT;
            float s[TT][OC];
            memset(s, 0, sizeof s);
            for (size_t i = 0; i < W->n_in; i++) {
                row_f32(W->dtype, base + i * W->ld, oc, m, buf);
                for (size_t t = 0; t < tn; t++) {
                    float xv = x[(t0 + t) * ldx + i];
                    for (size_t j = 0; j < m; j++)
                        s[t][j] += xv * buf[j];
                }
            }
            for (size_t t = 0; t < tn; t++)
                for (size_t j = 0; j < m; j++)
                    store(&y[(t0 + t) * ldy + oc + j], s[t][j], bias, oc + j, acc);
        }
    }
}

void pii_rt_gemm_scalar(const pii_rt_mat *W, size_t n, const float *x, size_t ldx,
                        const float *bias, float *y, size_t ldy, size_t o0, size_t o1, int acc)
{
    if (W->layout == PII_RT_IO)
        gemm_io(W, n, x, ldx, bias, y, ldy, o0, o1, acc);
    else
        gemm_oi(W, n, x, ldx, bias, y, ldy, o0, o1, acc);
}

static void gemm_f(const pii_rt_plan *p, const pii_rt_mat *W, size_t n, const float *x, size_t ldx,
                   const float *bias, float *y, size_t ldy, size_t o0, size_t o1, int acc)
{
    (void)p;
    pii_rt_gemm_scalar(W, n, x, ldx, bias, y, ldy, o0, o1, acc);
}

/* ---- attention ------------------------------------------------------------ */

static void attn_scalar(const pii_rt_attn *a, size_t d0, size_t d1, size_t i0, size_t i1,
                        float *scratch)
{
    const int G = a->H / a->Hkv, hd = a->hd;
    const size_t R = (size_t)a->radius;
    float *s = scratch; /* [2R+1] */
    for (size_t i = i0; i < i1; i++) {
        size_t lo, hi;
        rt_att_band(i, d0, d1, R, &lo, &hi);
        size_t nk = hi - lo;
        for (int h = 0; h < a->H; h++) {
            int g = h / G;
            const float *q = a->q + i * a->ldq + (size_t)h * hd;
            for (size_t j = 0; j < nk; j++)
                s[j] = 0;
            for (int d = 0; d < hd; d++) {
                const float *kr = a->kt + (size_t)(g * hd + d) * a->ldkt + lo;
                float qd = q[d];
                for (size_t j = 0; j < nk; j++)
                    s[j] += qd * kr[j];
            }
            float M = a->sinks[h];
            for (size_t j = 0; j < nk; j++)
                M = s[j] > M ? s[j] : M;
            float sum = expf(a->sinks[h] - M);
            for (size_t j = 0; j < nk; j++) {
                s[j] = expf(s[j] - M);
                sum += s[j];
            }
            float inv = 1.0f / sum;
            float *o = a->o + i * a->ldo + (size_t)h * hd;
            for (int d = 0; d < hd; d++)
                o[d] = 0;
            for (size_t j = 0; j < nk; j++) {
                const float *v = a->v + (lo + j) * a->ldv + (size_t)g * hd;
                float p = s[j] * inv;
                for (int d = 0; d < hd; d++)
                    o[d] += p * v[d];
            }
        }
    }
}

/* The int16 attention (pii_rt.h, pii_rt_kvq), one query at a time; the
 * integer sums in int64 (their values fit in int32: the SIMD paths' int32
 * lanes give the same). */
void pii_rt_attn_q16_scalar(const pii_rt_plan *p, const pii_rt_attn *a, size_t d0, size_t d1,
                            size_t i0, size_t i1, float *scratch)
{
    (void)p;
    const pii_rt_kvq *kv = a->kvq;
    const int G = a->H / a->Hkv, hd = a->hd, Hkv = a->Hkv;
    const size_t R = (size_t)a->radius, ld = kv->ld;
    const float A = rt_attq_qk(hd);
    float *s = scratch;                                     /* [2R+1] */
    int16_t *pq = (int16_t *)(void *)(scratch + 2 * R + 2); /* [2R+1] */
    int16_t *qq = pq + 2 * R + 2;                           /* [hd] */
    for (size_t i = i0; i < i1; i++) {
        size_t lo, hi;
        rt_att_band(i, d0, d1, R, &lo, &hi);
        size_t nk = hi - lo;
        for (int h = 0; h < a->H; h++) {
            int g = h / G;
            float qs = rt_attq_row(a->q + i * a->ldq + (size_t)h * hd, hd, A, qq, 1);
            const int16_t *kg = kv->kq + (size_t)g * (size_t)hd / 2 * ld * 2;
            const float *ks = kv->ks + (size_t)g * ld, *vs = kv->vs + (size_t)g * ld;
            float M = a->sinks[h];
            for (size_t j = 0; j < nk; j++) {
                int64_t acc = 0;
                for (int e = 0; e < hd / 2; e++) {
                    const int16_t *kp = kg + ((size_t)e * ld + lo + j) * 2;
                    acc += (int32_t)qq[2 * e] * kp[0] + (int32_t)qq[2 * e + 1] * kp[1];
                }
                s[j] = (float)(int32_t)acc * qs * ks[lo + j];
                M = s[j] > M ? s[j] : M;
            }
            float Z = expf(a->sinks[h] - M), S = 0, mx = 0;
            for (size_t j = 0; j < nk; j++) {
                float e = expf(s[j] - M);
                Z += e;
                s[j] = e * vs[lo + j];
                S += s[j];
                mx = s[j] > mx ? s[j] : mx;
            }
            float c = rt_attq_pscale(S, mx, nk);
            for (size_t j = 0; j < nk; j++)
                pq[j] = rt_attq_one(s[j], c, RT_ATTQ_V);
            float oinv = c > 0 ? 1.0f / (c * Z) : 0;
            float *o = a->o + i * a->ldo + (size_t)h * hd;
            for (int d = 0; d < hd; d++) {
                int64_t acc = 0;
                for (size_t j = 0; j < nk; j++) {
                    size_t key = lo + j;
                    acc +=
                        (int32_t)pq[j] *
                        kv->vq[((key / 2 * (size_t)Hkv + (size_t)g) * (size_t)hd + (size_t)d) * 2 +
                               key % 2];
                }
                o[d] = (float)(int32_t)acc * oinv;
            }
        }
    }
}

void pii_rt_kvq_rows_scalar(const pii_rt_kvq *kv, int Hkv, int hd, const float *k, size_t ldk,
                            const float *v, size_t ldv, size_t t0, size_t t1)
{
    const size_t ld = kv->ld, H2 = (size_t)hd / 2;
    const float A = rt_attq_qk(hd);
    int16_t tmp[256];
    for (size_t t = t0; t < t1; t++)
        for (int g = 0; g < Hkv; g++) {
            kv->ks[(size_t)g * ld + t] = rt_attq_row(k + t * ldk + (size_t)g * hd, hd, A, tmp, 1);
            int16_t *kq = kv->kq + ((size_t)g * H2 * ld + t) * 2;
            for (size_t e = 0; e < H2; e++)
                memcpy(kq + e * ld * 2, tmp + 2 * e, 2 * sizeof *tmp);
            int16_t *vq = kv->vq + ((t / 2 * (size_t)Hkv + (size_t)g) * (size_t)hd) * 2 + t % 2;
            kv->vs[(size_t)g * ld + t] =
                rt_attq_row(v + t * ldv + (size_t)g * hd, hd, RT_ATTQ_V, vq, 2);
        }
}

static void rmsnorm_scalar(size_t d, const float *x, const float *g, float eps, float *y)
{
    float ss = 0;
    for (size_t j = 0; j < d; j++)
        ss += x[j] * x[j];
    float r = 1.0f / sqrtf(ss / (float)d + eps);
    for (size_t j = 0; j < d; j++)
        y[j] = g[j] * (x[j] * r);
}

static void swiglu_scalar(float *g, const float *u, size_t m, float alpha, float limit)
{
    for (size_t j = 0; j < m; j++) {
        float a = g[j] < limit ? g[j] : limit;
        float b = u[j] < -limit ? -limit : u[j] > limit ? limit : u[j];
        float sg = 1.0f / (1.0f + expf(-alpha * a));
        g[j] = a * sg * (b + 1.0f);
    }
}

const rt_kernels pii_rt_kern_scalar = {
    .gemm =
        {
            [PII_DT_F32] = {gemm_f, gemm_f},
            [PII_DT_F16] = {gemm_f, gemm_f},
            [PII_DT_BF16] = {gemm_f, gemm_f},
            [PII_DT_Q8_0] = {gemm_f, NULL},
            [PII_DT_Q8_ROW] = {gemm_f, pii_rt_gemm_q8io_scalar},
            [PII_DT_Q4_G32] = {NULL, pii_rt_gemm_q4io_scalar},
        },
    .attn = attn_scalar,
    .attn_q16 = pii_rt_attn_q16_scalar,
    .kvq_rows = pii_rt_kvq_rows_scalar,
    .rmsnorm = rmsnorm_scalar,
    .swiglu = swiglu_scalar,
    .qx16 = pii_rt_qx16_scalar,
    .gemm_q8qx = pii_rt_gemm_q8qx_scalar,
    .qx8 = pii_rt_qx8_scalar,
    .gemm_q8qx8 = pii_rt_gemm_q8qx8_scalar,
};
