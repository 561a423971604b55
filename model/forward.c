/* forward.c — workspaces and the encoder forward pass (spec §3).
 *
 * Legend: n tokens in the pass (N the workspace maximum), D model width,
 * H / Hkv heads, hd head width, QW = H*hd, KV = Hkv*hd, E experts, k experts
 * per token, I expert width, C labels.
 *
 * One pass is one pool run: every thread executes the same phase sequence
 * (forward_thread: embed_phase, then per layer attention_block and
 * moe_block, then classify_phase) and takes its (ith, nth) share of each
 * phase; a barrier separates phases whose inputs another thread wrote.
 * Per layer, each phase a function:
 *   1 tokens   attn_norm    a = RMSNorm(x)
 *   2 columns  attn_qkv     q|k|v = a Wqkvᵀ + b (QW + 2KV columns split
 *                           over threads)
 *   3 tokens   attn_rope    RoPE on q, k (position within the document;
 *                           scales folded into the table); k transposed
 *                           into kt [KV][N]
 *   4 tokens   attn_band    banded attention with sinks, per document → att
 *   5 columns  attn_out     x += att Woᵀ + bo
 *   6 tokens   moe_router   a = RMSNorm(x); router logits; top-k and softmax
 *   7 thread 0 moe_route    group the n*k choices by expert; build the
 *                           expert task lists
 *   8 slots    moe_gather   gather a rows into expert order → xg (with Q8
 *                           experts and int16 or int8 activations: their
 *                           rows, quantized in 6 → xgq)
 *   9 tasks    moe_apart    (expert, I-column chunk): gate, up, clamped
 *                           SwiGLU → hg
 *  10 tasks    moe_apart    (expert, D-column chunk): yg = hg Dn[e] + bd[e]
 *                           (with a Q8 down projection: hg's rows quantized
 *                           once first → hgq)
 *   9-10       moe_sweep    when every task of 9 is a whole expert, 9 and 10
 *                           run as one sweep, SWEEP_ROWS rows of an expert
 *                           at a time, through a per-thread block hblk read
 *                           back from cache, not memory; the same bits; the
 *                           whole hg exists only for models whose passes may
 *                           run 9 and 10 apart: hg_needed
 *  11 tokens   moe_combine  x += Σ_{experts ascending} w · yg (a thread
 *                           sweeping alone sums into a during the sweep
 *                           instead: the same order)
 * Expert tasks are split by estimated cost (rows × columns), contiguous
 * and deterministic, so results never depend on the thread count.
 * Unselected experts get no task at all.
 *
 * Short passes (at most WHOLE_ROWS rows per expert on average) are bound
 * by streaming the experts' weights, not by arithmetic: a task is then a
 * whole expert, and with the HF gate_up stack (float weights) gate and up
 * run as one D -> 2I product, so each expert's block is read once, front
 * to back.  Column chunks of one expert would read strided stripes of the
 * same rows instead.  Each output column's sum is formed in the same order
 * either way. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"
#include "pii_fault.h"

#define EXPERT_CHUNK 256 /* columns per expert task, about */
#define WHOLE_ROWS 8     /* rows per expert (n k / E) up to which tasks are whole experts */
#define SWEEP_ROWS 64    /* rows per block of phases 9-10 swept together */
#define WS_BLOCKS 48     /* allocations of one workspace, at most (ws_alloc) */

typedef struct etask {
    uint32_t e, c0, c1;
    uint64_t cum, cost; /* prefix cost before this task, own cost */
} etask;

struct pii_model_ws {
    const pii_model *m;
    pii_rt_plan plan;  /* which kernels run (a copy of the model's) */
    pii_rt_plan plan8; /* the same with int8 activations: residue passes */
    pii_rt_pool *pool;
    size_t N;
    int nth;
    float *x, *a;            /* [N][D]          */
    float *q, *att;          /* [N][QW]         */
    float *k, *v;            /* [N][KV]         */
    float *kt;               /* [KV][ldkt]      */
    pii_rt_kvq kvq;          /* int16 k and v (attq): pii_rt_kvq_ld(N) keys */
    int attq;                /* the int16 attention (int8 q, k, v projections) */
    size_t ldkt;             /* N rounded up to 16, plus 16 (see ws_create) */
    float *rl;               /* [N][E]          */
    int32_t *sel;            /* [N][k]          */
    float *selw;             /* [N][k]          */
    uint32_t *cnt, *off;     /* [E], [E+1]      */
    uint32_t *grp, *pos;     /* [N*k]           */
    float *xg, *yg;          /* [N*k][D]        */
    int16_t *aq, *xgq;       /* [N][ldq], [N*k][ldq]: a and xg quantized once (Q8 weights) */
    float *as, *xgs;         /* [N], [N*k]: their scales */
    int32_t *asq, *xgsq;     /* [N], [N*k]: their row sums (int8 activations) */
    int16_t *hgq, *hblkq;    /* [N*k][ldqi], [nth][SWEEP_ROWS][ldqi]: hg and hblk quantized
                                once for Q8 down projections (scales and sums in xgs, xgsq) */
    size_t ldqi;             /* d_expert rounded up to 32; 0: no Q8 down projection */
    size_t ldq;              /* D rounded up to 32; 0: no Q8 weights, no buffers */
    float *hg;               /* [N*k][2I]: gate | up, then SwiGLU in the gate half; only
                                for passes that may run phases 9 and 10 apart (made on
                                first need, hg_needed) */
    float *hblk;             /* [nth][SWEEP_ROWS][2I]: the sweep's rows, per thread */
    float *yblk;             /* [SWEEP_ROWS][D]: a one-thread sweep's down rows */
    float *rope;             /* [N][hd/2][2]    */
    uint32_t *dstart, *dend; /* [N]         */
    int16_t *lastl;          /* [N]: last layer whose query and experts a row needs
                                (pii_model_forward_kept; -1: none)               */
    float *scratch;          /* [nth][scr]      */
    size_t scr;
    etask *ta, *tb; /* expert task lists */
    size_t nta, ntb;
    etask *ts;  /* the sweep's tasks in a long pass: (expert, rows [c0, c1)) */
    size_t nts; /* 0: the sweep runs ta (whole experts) */
    int fused;  /* this layer's ta tasks run gate|up as one matrix */
    int sweep;  /* every ta task a whole expert, no int16+8: phases 9-10 as one */
    uint64_t costa, costb, costs;
    size_t bytes;
    void *blocks[WS_BLOCKS];
    int nblocks;
};

static void *ws_alloc(pii_model_ws *ws, size_t bytes)
{
    if (ws->nblocks >= WS_BLOCKS)
        return NULL;
    if (bytes == 0)
        bytes = 64;
    void *p = NULL;
    if (posix_memalign(&p, 64, bytes) != 0)
        return NULL;
    ws->blocks[ws->nblocks++] = p;
    ws->bytes += bytes;
    return p;
}

void pii_model_ws_free(pii_model_ws *ws)
{
    if (!ws)
        return;
    for (int i = 0; i < ws->nblocks; i++)
        free(ws->blocks[i]);
    free(ws);
}

int pii_model_attn_int16(const pii_model *m)
{
    const pii_model_config *c = &m->cfg;
    const int a = m->params.attn;
    int q8a = (a == PII_MODEL_ATTN_INT16 || (a == PII_MODEL_ATTN_AUTO && m->plan.vnni)) &&
              c->head_dim % 2 == 0 && c->head_dim <= 256;
    for (int L = 0; L < c->n_layers; L++)
        q8a &= m->layers[L].wq.dtype == PII_DT_Q8_ROW && m->layers[L].wk.dtype == PII_DT_Q8_ROW &&
               m->layers[L].wv.dtype == PII_DT_Q8_ROW;
    return q8a;
}

pii_model_ws *pii_model_ws_create(const pii_model *m, size_t max_tokens, pii_rt_pool *pool,
                                  pii_err *err)
{
    const pii_model_config *c = &m->cfg;
    if (max_tokens == 0 || max_tokens > (1u << 24)) {
        *err = PII_EINVAL;
        return NULL;
    }
    pii_model_ws *ws = calloc(1, sizeof *ws);
    if (!ws) {
        *err = PII_ENOMEM;
        return NULL;
    }
    const size_t N = max_tokens, D = (size_t)c->d_model, hd = (size_t)c->head_dim;
    const size_t QW = (size_t)c->n_heads * hd, KV = (size_t)c->n_kv_heads * hd;
    const size_t E = (size_t)c->n_experts, K = (size_t)c->top_k, I = (size_t)c->d_expert;
    ws->m = m;
    pii_model_ws_set_plan(ws, &m->plan);
    ws->pool = pool;
    ws->N = N;
    ws->nth = pii_rt_pool_size(pool);
    ws->scr = pii_rt_attn_scratch(c->window, c->n_heads, c->n_kv_heads) + D;
    size_t nta = E * ((I + EXPERT_CHUNK - 1) / EXPERT_CHUNK); /* whole: E */
    size_t ntb = E * ((D + EXPERT_CHUNK - 1) / EXPERT_CHUNK);
    size_t nts = N * K / SWEEP_ROWS + E;
    const size_t F = sizeof(float);
    /* kt's rows one cache line more than a multiple of 64 bytes apart: the
     * attention reads hd rows of kt at once, and rows a power-of-two
     * multiple of 4 KB apart (N = 4096) would all fall in one L1 set */
    ws->ldkt = (N + 15) / 16 * 16 + 16;
    /* the int16 attention reads kvq (below) and never kt */
    ws->attq = pii_model_attn_int16(m);
    int ok =
        (ws->x = ws_alloc(ws, N * D * F)) && (ws->a = ws_alloc(ws, N * D * F)) &&
        (ws->q = ws_alloc(ws, N * QW * F)) && (ws->att = ws_alloc(ws, N * QW * F)) &&
        (ws->k = ws_alloc(ws, N * KV * F)) && (ws->v = ws_alloc(ws, N * KV * F)) &&
        (ws->attq || (ws->kt = ws_alloc(ws, ws->ldkt * KV * F))) &&
        (ws->rl = ws_alloc(ws, N * E * F)) && (ws->sel = ws_alloc(ws, N * K * sizeof(int32_t))) &&
        (ws->selw = ws_alloc(ws, N * K * F)) && (ws->cnt = ws_alloc(ws, E * sizeof(uint32_t))) &&
        (ws->off = ws_alloc(ws, (E + 1) * sizeof(uint32_t))) &&
        (ws->grp = ws_alloc(ws, N * K * sizeof(uint32_t))) &&
        (ws->pos = ws_alloc(ws, N * K * sizeof(uint32_t))) &&
        (ws->xg = ws_alloc(ws, N * K * D * F)) && (ws->yg = ws_alloc(ws, N * K * D * F)) &&
        (ws->hblk = ws_alloc(ws, (size_t)ws->nth * SWEEP_ROWS * 2 * I * F)) &&
        (ws->yblk = ws_alloc(ws, SWEEP_ROWS * D * F)) && (ws->rope = ws_alloc(ws, N * hd * F)) &&
        (ws->dstart = ws_alloc(ws, N * sizeof(uint32_t))) &&
        (ws->dend = ws_alloc(ws, N * sizeof(uint32_t))) &&
        (ws->lastl = ws_alloc(ws, N * sizeof(int16_t))) &&
        (ws->scratch = ws_alloc(ws, (size_t)ws->nth * ws->scr * F)) &&
        (ws->ta = ws_alloc(ws, nta * sizeof(etask))) &&
        (ws->tb = ws_alloc(ws, ntb * sizeof(etask))) &&
        (ws->ts = ws_alloc(ws, nts * sizeof(etask)));
    /* Q8 attention projections or experts: int16 or int8 activations
     * quantized once per row (phases 1, 6, 8) instead of once per product */
    int q8 = 0;
    for (int L = 0; L < c->n_layers; L++)
        q8 |= m->layers[L].wq.dtype == PII_DT_Q8_ROW || m->layers[L].gate.dtype == PII_DT_Q8_ROW;
    if (ok && q8) {
        ws->ldq = (D + 31) / 32 * 32;
        ok = (ws->aq = ws_alloc(ws, N * ws->ldq * sizeof(int16_t))) &&
             (ws->xgq = ws_alloc(ws, N * K * ws->ldq * sizeof(int16_t))) &&
             (ws->as = ws_alloc(ws, N * F)) && (ws->xgs = ws_alloc(ws, N * K * F)) &&
             (ws->asq = ws_alloc(ws, N * (K + 1) * sizeof(int32_t)));
        if (ok)
            ws->xgsq = ws->asq + N;
    }
    int q8d = 0;
    for (int L = 0; L < c->n_layers; L++)
        q8d |= m->layers[L].down.dtype == PII_DT_Q8_ROW;
    if (ok && q8 && q8d) {
        ws->ldqi = (I + 31) / 32 * 32;
        ok = (ws->hblkq =
                  ws_alloc(ws, (size_t)ws->nth * SWEEP_ROWS * ws->ldqi * sizeof(int16_t))) != NULL;
    }
    if (ok && ws->attq) {
        /* kq and vq (int16), then ks and vs; zeroed: kernels read keys past n */
        const size_t ld = pii_rt_kvq_ld(N), nq = ld * KV, ns = ld * (size_t)c->n_kv_heads;
        const size_t bytes = 2 * nq * sizeof(int16_t) + 2 * ns * F;
        char *b = ws_alloc(ws, bytes);
        if ((ok = b != NULL)) {
            memset(b, 0, bytes);
            ws->kvq.kq = (int16_t *)(void *)b;
            ws->kvq.vq = ws->kvq.kq + nq;
            ws->kvq.ks = (float *)(void *)(ws->kvq.vq + nq);
            ws->kvq.vs = ws->kvq.ks + ns;
            ws->kvq.ld = ld;
        }
    }
    if (!ok) {
        pii_model_ws_free(ws);
        *err = PII_ENOMEM;
        return NULL;
    }
    /* RoPE table with mscale and the hd^-1/4 q/k scale folded in. */
    double mul = m->mscale * pow((double)hd, -0.25);
    pii_rt_rope_table(ws->rope, N, c->head_dim, m->omega, mul, !m->params.rope_f32_angles);
    *err = PII_OK;
    return ws;
}

size_t pii_model_ws_max_tokens(const pii_model_ws *ws)
{
    return ws->N;
}

void pii_model_ws_set_plan(pii_model_ws *ws, const pii_rt_plan *p)
{
    ws->plan = *p;
    ws->plan8 = *p;
    ws->plan8.qact = PII_RT_QACT_I8;
}

const pii_rt_plan *pii_model_ws_plan(const pii_model_ws *ws)
{
    return &ws->plan;
}

size_t pii_model_ws_bytes(const pii_model_ws *ws)
{
    return ws->bytes;
}

/* ---- the pass -------------------------------------------------------------------- */

typedef struct fctx {
    const pii_model *m;
    pii_model_ws *ws;
    const int32_t *ids;
    size_t n;
    float *logits;
    const pii_model_trace *tr;
    int x2;   /* int16+8 activations: int8 pass on the residue (phases 9, 10) */
    int kept; /* ws->lastl holds the rows each layer needs (else: all rows) */
} fctx;

static int qtype(pii_dtype t)
{
    return t == PII_DT_Q8_ROW || t == PII_DT_Q4_G32;
}

/* Between the two passes of int16+8: once every thread's first pass is
 * done, rows [0, rows) of x (cols wide, ld apart) are replaced by their
 * int16 rounding residue, split across the threads, before any second
 * pass. */
static void residue_phase(pii_rt_pool *pool, float *x, size_t rows, size_t cols, size_t ld, int ith,
                          int nth)
{
    size_t lo, hi;
    pii_rt_pool_barrier(pool);
    pii_rt_split(rows, 1, ith, nth, &lo, &hi);
    for (size_t r = lo; r < hi; r++)
        pii_rt_q16_residue(x + r * ld, cols);
    pii_rt_pool_barrier(pool);
}

/* y[r] (+)= x[r] Wᵀ + bias for output columns [o0, o1) of the rows r < n
 * whose lastl[r] >= need (all rows when lastl is NULL): one product per
 * run of such rows.  Rows are independent in every kernel, so a row's
 * result does not depend on the runs (test_forward_kept checks it). */
static void gemm_rows(const pii_rt_plan *pl, const pii_rt_mat *W, size_t n, const float *x,
                      size_t ldx, const float *bias, float *y, size_t ldy, size_t o0, size_t o1,
                      const int16_t *lastl, int need, int acc)
{
    if (!lastl) {
        pii_rt_gemm(pl, W, n, x, ldx, bias, y, ldy, o0, o1, acc);
        return;
    }
    for (size_t t = 0; t < n;) {
        while (t < n && lastl[t] < need)
            t++;
        size_t a = t;
        while (t < n && lastl[t] >= need)
            t++;
        if (t > a)
            pii_rt_gemm(pl, W, t - a, x + a * ldx, ldx, bias, y + a * ldy, ldy, o0, o1, acc);
    }
}

/* gemm_rows on rows quantized once (pii_rt_qx_rows): q [n][ldq], s [n],
 * sq [n]. */
static void gemm_rows_qx(const pii_rt_plan *pl, const pii_rt_mat *W, size_t n, const int16_t *q,
                         size_t ldq, const float *s, const int32_t *sq, const float *bias, float *y,
                         size_t ldy, size_t o0, size_t o1, const int16_t *lastl, int need)
{
    for (size_t t = 0; t < n;) {
        while (lastl && t < n && lastl[t] < need)
            t++;
        size_t a = t;
        while (t < n && (!lastl || lastl[t] >= need))
            t++;
        if (t > a)
            pii_rt_gemm_qx(pl, W, t - a, q + a * ldq, ldq, s + a, sq + a, bias, y + a * ldy, ldy,
                           o0, o1, 0);
    }
}

/* acc[d] += w * y[d] and x[d] += a[d], d < D: four lanes at a time with
 * GCC's vector types (SSE2 on every x86-64), each element the same
 * multiply and add as the scalar tail (ISO C mode does not contract them
 * into an FMA), so the sums are the same bits either way. */
typedef float v4f __attribute__((vector_size(16)));

static void axpy_rows(float *acc, float w, const float *y, size_t D)
{
    size_t d = 0;
    const v4f wv = {w, w, w, w};
    for (; d + 4 <= D; d += 4) {
        v4f a, b;
        memcpy(&a, acc + d, sizeof a);
        memcpy(&b, y + d, sizeof b);
        a += wv * b;
        memcpy(acc + d, &a, sizeof a);
    }
    for (; d < D; d++)
        acc[d] += w * y[d];
}

static void add_rows(float *x, const float *a, size_t D)
{
    size_t d = 0;
    for (; d + 4 <= D; d += 4) {
        v4f u, v;
        memcpy(&u, x + d, sizeof u);
        memcpy(&v, a + d, sizeof v);
        u += v;
        memcpy(x + d, &u, sizeof u);
    }
    for (; d < D; d++)
        x[d] += a[d];
}

static void tok_range(size_t n, int ith, int nth, size_t *lo, size_t *hi)
{
    pii_rt_split(n, 1, ith, nth, lo, hi);
}

/* Thread ith's contiguous share of a cost-annotated task list. */
static void task_range(const etask *t, size_t nt, uint64_t total, int ith, int nth, size_t *lo,
                       size_t *hi)
{
    size_t j = 0;
    *lo = *hi = 0;
    if (!total)
        return;
    while (j < nt) {
        /* the thread owning task j: where its cost midpoint falls */
        uint64_t mid2 = 2 * t[j].cum + t[j].cost;
        int owner = (int)((double)mid2 * nth / (2.0 * (double)total));
        if (owner >= nth)
            owner = nth - 1;
        if (owner == ith)
            break;
        if (owner > ith) {
            *lo = *hi = j;
            return;
        }
        j++;
    }
    *lo = j;
    while (j < nt) {
        uint64_t mid2 = 2 * t[j].cum + t[j].cost;
        int owner = (int)((double)mid2 * nth / (2.0 * (double)total));
        if (owner >= nth)
            owner = nth - 1;
        if (owner != ith)
            break;
        j++;
    }
    *hi = j;
}

/* Expert tasks: columns split into chunks of ~EXPERT_CHUNK (multiples of
 * 64, the widest kernel tile), so one task streams whole cache lines of
 * each weight row; cost = rows x columns x inner width.  whole: one task
 * per expert, its cost counting the weight stream as WHOLE_ROWS rows. */
static size_t build_tasks(etask *t, const uint32_t *cnt, int E, size_t cols, uint64_t colcost,
                          int whole, uint64_t *total)
{
    size_t nt = 0, nch = whole ? 1 : (cols + EXPERT_CHUNK - 1) / EXPERT_CHUNK;
    uint64_t cum = 0;
    for (int e = 0; e < E; e++) {
        if (!cnt[e])
            continue;
        for (size_t k = 0; k < nch; k++) {
            size_t c0 = k ? cols * k / nch / 64 * 64 : 0;
            size_t c1 = k + 1 < nch ? cols * (k + 1) / nch / 64 * 64 : cols;
            if (c1 <= c0)
                continue;
            uint64_t rows = cnt[e] + (whole ? WHOLE_ROWS : 0);
            uint64_t cost = rows * (c1 - c0) * colcost;
            t[nt] = (etask){(uint32_t)e, (uint32_t)c0, (uint32_t)c1, cum, cost};
            cum += cost;
            nt++;
        }
    }
    *total = cum;
    return nt;
}

/* May a pass run phases 9 and 10 apart (and so need the whole hg)?  With
 * int16+8 activations (the residue passes span all rows), or where a long
 * pass splits an expert's columns into tasks (d_expert > EXPERT_CHUNK;
 * build_tasks).  Otherwise every pass sweeps, through hblk. */
static int hg_needed(const pii_model *m, int x2)
{
    return x2 || (size_t)m->cfg.d_expert > EXPERT_CHUNK;
}

/* The sweep's tasks of a long pass: each expert's rows in blocks of
 * SWEEP_ROWS, (e, first row, end row) relative to the expert's group,
 * cost the row count. */
static size_t row_tasks(etask *t, const uint32_t *cnt, int E, uint64_t *total)
{
    size_t nt = 0;
    uint64_t cum = 0;
    for (int e = 0; e < E; e++)
        for (uint32_t r = 0; r < cnt[e]; r += SWEEP_ROWS) {
            uint32_t r1 = cnt[e] - r < SWEEP_ROWS ? cnt[e] : r + SWEEP_ROWS;
            t[nt++] = (etask){(uint32_t)e, r, r1, cum, r1 - r};
            cum += r1 - r;
        }
    *total = cum;
    return nt;
}

static void embed_rows(const pii_model *m, const int32_t *ids, size_t t0, size_t t1, float *x)
{
    const size_t D = (size_t)m->cfg.d_model;
    const uint8_t *base = m->embed->data;
    for (size_t t = t0; t < t1; t++) {
        uint32_t r = (uint32_t)ids[t];
        if (m->row_map) {
            int32_t rr;
            memcpy(&rr, m->row_map + 4 * (size_t)r, 4);
            r = (uint32_t)rr;
        }
        pii_rt_to_f32(m->embed->dtype, base + (size_t)r * m->embed_row_bytes, D, x + t * D);
    }
}

/* Gate and up of expert e for its grouped rows [r0, r0 + rn), columns
 * [c0, c1) (of 2I for the stacked float gate_up), then SwiGLU on them if
 * swiglu: phase 9's task.  pass 1 is int16+8's residue pass (int8
 * activations, accumulated, no bias). */
static void expert_up(pii_model_ws *ws, const pf_layer *l, const pii_rt_plan *pl, size_t e,
                      size_t r0, size_t rn, float *hg, size_t c0, size_t c1, int qe, int pass,
                      int swiglu)
{
    const pii_model_config *c = &ws->m->cfg;
    const size_t D = (size_t)c->d_model, I = (size_t)c->d_expert, ldq = ws->ldq;
    float *hu = hg + I;
    const float *bg = pass ? NULL : l->bgate + e * l->bgu_es,
                *bu = pass ? NULL : l->bup + e * l->bgu_es;
    const pii_rt_plan *pp = pass ? &ws->plan8 : pl;
    if (ws->fused) { /* one task = the whole expert, [0, 2I) */
        pii_rt_mat gu = pii_rt_mat_offset(&l->gu, e * l->gate_es);
        pii_rt_gemm(pp, &gu, rn, ws->xg + r0 * D, D, bg, hg, 2 * I, c0, c1, pass);
        c0 = 0, c1 = I;
    } else if (qe) { /* pass 0 only: qe excludes int16+8 */
        pii_rt_mat g = pii_rt_mat_offset(&l->gate, e * l->gate_es);
        pii_rt_mat u = pii_rt_mat_offset(&l->up, e * l->up_es);
        const int16_t *xq = ws->xgq + r0 * ldq;
        pii_rt_gemm_qx(pp, &g, rn, xq, ldq, ws->xgs + r0, ws->xgsq + r0, bg, hg, 2 * I, c0, c1, 0);
        pii_rt_gemm_qx(pp, &u, rn, xq, ldq, ws->xgs + r0, ws->xgsq + r0, bu, hu, 2 * I, c0, c1, 0);
    } else {
        pii_rt_mat g = pii_rt_mat_offset(&l->gate, e * l->gate_es);
        pii_rt_mat u = pii_rt_mat_offset(&l->up, e * l->up_es);
        pii_rt_gemm(pp, &g, rn, ws->xg + r0 * D, D, bg, hg, 2 * I, c0, c1, pass);
        pii_rt_gemm(pp, &u, rn, ws->xg + r0 * D, D, bu, hu, 2 * I, c0, c1, pass);
    }
    if (swiglu)
        for (size_t r = 0; r < rn; r++)
            pii_rt_swiglu(pl, hg + r * 2 * I + c0, hu + r * 2 * I + c0, c1 - c0, c->swiglu_alpha,
                          c->swiglu_limit);
}

/* Down of expert e for rn of its rows, output columns [c0, c1): y = hg
 * Dn[e] + bd[e] (rows D apart; pass 1: int16+8's residue pass); with hq,
 * on hg's rows quantized once (pii_rt_qx_rows: hq ldqi apart, scales hs,
 * sums hsq), the same bits. */
static void expert_down(pii_model_ws *ws, const pf_layer *l, const pii_rt_plan *pl, size_t e,
                        size_t rn, const float *hg, float *y, size_t c0, size_t c1, int pass,
                        const int16_t *hq, const float *hs, const int32_t *hsq)
{
    const size_t D = (size_t)ws->m->cfg.d_model, I = (size_t)ws->m->cfg.d_expert;
    pii_rt_mat dn = pii_rt_mat_offset(&l->down, e * l->down_es);
    if (hq)
        pii_rt_gemm_qx(pl, &dn, rn, hq, ws->ldqi, hs, hsq, l->bdown + e * D, y, D, c0, c1, 0);
    else
        pii_rt_gemm(pass ? &ws->plan8 : pl, &dn, rn, hg, 2 * I, pass ? NULL : l->bdown + e * D, y,
                    D, c0, c1, pass);
}

/* ---- the phases of a layer ------------------------------------------------------ */

/* One thread's share of a pass: rows [t0, t1) of the token phases, and its
 * scratch. */
typedef struct fthread {
    const fctx *f;
    int ith, nth;
    size_t t0, t1;
    float *scr; /* [ws->scr] */
} fthread;

/* What the phases of layer L share: which products read rows quantized
 * once, and the rows each layer needs. */
typedef struct flayer {
    const pf_layer *l;
    int L;
    int qa; /* q, k and v read a quantized once (aq: Q8 weights, int16 or int8 activations) */
    int qe; /* so do gate and up, through xgq (not with int16+8: its residue pass rewrites xg) */
    int qd; /* down reads hg quantized once per row (scales and sums in xgs and xgsq, which
               gate and up no longer need) */
    const int16_t *need; /* kept rows: ws->lastl, the last layer each row is needed by; NULL: all */
} flayer;

static flayer layer_plan(const fctx *f, int L)
{
    const pii_model_ws *ws = f->ws;
    const pii_rt_plan *pl = &ws->plan;
    const pf_layer *l = &f->m->layers[L];
    const size_t ldq = ws->ldq;
    flayer ly = {l, L, 0, 0, 0, f->kept ? ws->lastl : NULL};
    ly.qa = ldq && pii_rt_qx_usable(pl, &l->wq) && pii_rt_qx_usable(pl, &l->wk) &&
            pii_rt_qx_usable(pl, &l->wv);
    ly.qe = ldq && !f->x2 && !l->fused && pii_rt_qx_usable(pl, &l->gate) &&
            pii_rt_qx_usable(pl, &l->up);
    ly.qd = ldq && ws->ldqi && !f->x2 && pii_rt_qx_usable(pl, &l->down);
    return ly;
}

/* Before the layers: x = the token embeddings. */
static void embed_phase(const fthread *th)
{
    const fctx *f = th->f;
    const size_t D = (size_t)f->m->cfg.d_model, t0 = th->t0, t1 = th->t1;
    embed_rows(f->m, f->ids, t0, t1, f->ws->x);
    if (f->tr && f->tr->hidden)
        memcpy(f->tr->hidden + t0 * D, f->ws->x + t0 * D, (t1 - t0) * D * sizeof(float));
}

/* The attention's description; the sinks are set per layer (phase 4). */
static pii_rt_attn attn_desc(const fctx *f)
{
    const pii_model_config *c = &f->m->cfg;
    pii_model_ws *ws = f->ws;
    const size_t QW = (size_t)c->n_heads * c->head_dim, KV = (size_t)c->n_kv_heads * c->head_dim;
    pii_rt_attn at = {ws->q,
                      ws->kt,
                      ws->v,
                      ws->att,
                      NULL,
                      QW,
                      ws->ldkt,
                      KV,
                      QW,
                      c->n_heads,
                      c->n_kv_heads,
                      c->head_dim,
                      c->window,
                      ws->attq ? &ws->kvq : NULL};
    return at;
}

/* 1 (tokens): a = RMSNorm(x), quantized once for qa. */
static void attn_norm(const fthread *th, const flayer *ly)
{
    pii_model_ws *ws = th->f->ws;
    const pii_rt_plan *pl = &ws->plan;
    const pii_model_config *c = &th->f->m->cfg;
    const size_t D = (size_t)c->d_model, ldq = ws->ldq, t0 = th->t0, t1 = th->t1;
    pii_rt_rmsnorm(pl, t1 - t0, D, ws->x + t0 * D, D, ly->l->ln_attn, c->rms_eps, ws->a + t0 * D,
                   D);
    if (ly->qa)
        pii_rt_qx_rows(pl, t1 - t0, D, ws->a + t0 * D, D, ws->aq + t0 * ldq, ldq, ws->as + t0,
                       ws->asq + t0);
}

/* 2 (columns): q|k|v = a Wqkvᵀ + b; with kept rows, q of the rows this
 * layer needs (lastl >= L), k and v of those its attention reads (within
 * one window of them: lastl >= L - 1). */
static void attn_qkv(const fthread *th, const flayer *ly)
{
    const fctx *f = th->f;
    pii_model_ws *ws = f->ws;
    const pii_rt_plan *pl = &ws->plan;
    const pii_model_config *c = &f->m->cfg;
    const pf_layer *l = ly->l;
    const int L = ly->L;
    const int16_t *need = ly->need;
    const size_t n = f->n, D = (size_t)c->d_model, ldq = ws->ldq;
    const size_t QW = (size_t)c->n_heads * c->head_dim, KV = (size_t)c->n_kv_heads * c->head_dim;
    size_t lo, hi;
    pii_rt_split(QW + 2 * KV, 32, th->ith, th->nth, &lo, &hi);
    if (ly->qa) {
        if (lo < QW)
            gemm_rows_qx(pl, &l->wq, n, ws->aq, ldq, ws->as, ws->asq, l->bq, ws->q, QW, lo,
                         hi < QW ? hi : QW, need, L);
        if (hi > QW && lo < QW + KV)
            gemm_rows_qx(pl, &l->wk, n, ws->aq, ldq, ws->as, ws->asq, l->bk, ws->k, KV,
                         lo > QW ? lo - QW : 0, (hi < QW + KV ? hi : QW + KV) - QW, need, L - 1);
        if (hi > QW + KV)
            gemm_rows_qx(pl, &l->wv, n, ws->aq, ldq, ws->as, ws->asq, l->bv, ws->v, KV,
                         lo > QW + KV ? lo - QW - KV : 0, hi - QW - KV, need, L - 1);
    } else {
        if (lo < QW)
            gemm_rows(pl, &l->wq, n, ws->a, D, l->bq, ws->q, QW, lo, hi < QW ? hi : QW, need, L, 0);
        if (hi > QW && lo < QW + KV)
            gemm_rows(pl, &l->wk, n, ws->a, D, l->bk, ws->k, KV, lo > QW ? lo - QW : 0,
                      (hi < QW + KV ? hi : QW + KV) - QW, need, L - 1, 0);
        if (hi > QW + KV)
            gemm_rows(pl, &l->wv, n, ws->a, D, l->bv, ws->v, KV, lo > QW + KV ? lo - QW - KV : 0,
                      hi - QW - KV, need, L - 1, 0);
    }
}

/* 3 (tokens): RoPE on q, k (position within the document); k transposed
 * into kt [KV][N], or k and v quantized into kvq for the int16 attention. */
static void attn_rope(const fthread *th, const flayer *ly)
{
    pii_model_ws *ws = th->f->ws;
    const pii_model_config *c = &th->f->m->cfg;
    const int L = ly->L;
    const int16_t *need = ly->need;
    const size_t hd = (size_t)c->head_dim, t0 = th->t0, t1 = th->t1;
    const size_t QW = (size_t)c->n_heads * hd, KV = (size_t)c->n_kv_heads * hd;
    for (size_t t = t0; t < t1; t++) {
        if (need && need[t] < L - 1)
            continue; /* neither q nor k of this row is read (phase 2) */
        const float *cs = ws->rope + (size_t)(t - ws->dstart[t]) * hd;
        if (!need || need[t] >= L)
            pii_rt_rope_apply(ws->q + t * QW, c->n_heads, c->head_dim, cs);
        pii_rt_rope_apply(ws->k + t * KV, c->n_kv_heads, c->head_dim, cs);
    }
    if (ws->attq)
        pii_rt_kvq_rows(&ws->plan, &ws->kvq, c->n_kv_heads, c->head_dim, ws->k, KV, ws->v, KV, t0,
                        t1);
    else
        pii_rt_transpose(ws->k + t0 * KV, KV, t1 - t0, KV, ws->kt + t0, ws->ldkt);
}

/* 4 (tokens): banded attention with sinks, per document → att (the rows
 * no later layer needs: zero). */
static void attn_band(const fthread *th, const flayer *ly, pii_rt_attn *at)
{
    const fctx *f = th->f;
    pii_model_ws *ws = f->ws;
    const size_t QW = (size_t)f->m->cfg.n_heads * f->m->cfg.head_dim, t1 = th->t1;
    const int L = ly->L;
    at->sinks = ly->l->sinks;
    for (size_t t = th->t0; t < t1;) {
        size_t ds = ws->dstart[t], de = ws->dend[t], e = de < t1 ? de : t1;
        size_t a = t, b = e; /* the rows this layer needs: contiguous per document */
        if (f->kept) {
            while (a < b && ws->lastl[a] < L)
                memset(ws->att + a++ * QW, 0, QW * sizeof(float));
            while (b > a && ws->lastl[b - 1] < L)
                memset(ws->att + --b * QW, 0, QW * sizeof(float));
        }
        if (a < b)
            pii_rt_attn_band(&ws->plan, at, ds, de, a, b, th->scr);
        t = e;
    }
}

/* 5 (columns): x += att Woᵀ + bo, the rows this layer needs (the others'
 * x is never read again). */
static void attn_out(const fthread *th, const flayer *ly)
{
    const fctx *f = th->f;
    pii_model_ws *ws = f->ws;
    const pii_model_config *c = &f->m->cfg;
    const size_t D = (size_t)c->d_model, QW = (size_t)c->n_heads * c->head_dim;
    size_t lo, hi;
    pii_rt_split(D, 32, th->ith, th->nth, &lo, &hi);
    gemm_rows(&ws->plan, &ly->l->wo, f->n, ws->att, QW, ly->l->bo, ws->x, D, lo, hi, ly->need,
              ly->L, 1);
}

/* 6 (tokens): a = RMSNorm(x) (quantized once for qe); router logits;
 * top-k and softmax. */
static void moe_router(const fthread *th, const flayer *ly)
{
    pii_model_ws *ws = th->f->ws;
    const pii_rt_plan *pl = &ws->plan;
    const pii_model_config *c = &th->f->m->cfg;
    const pf_layer *l = ly->l;
    const size_t D = (size_t)c->d_model, E = (size_t)c->n_experts, K = (size_t)c->top_k;
    const size_t ldq = ws->ldq, t0 = th->t0, t1 = th->t1;
    pii_rt_rmsnorm(pl, t1 - t0, D, ws->x + t0 * D, D, l->ln_moe, c->rms_eps, ws->a + t0 * D, D);
    if (ly->qe)
        pii_rt_qx_rows(pl, t1 - t0, D, ws->a + t0 * D, D, ws->aq + t0 * ldq, ldq, ws->as + t0,
                       ws->asq + t0);
    pii_rt_gemm(pl, &l->router, t1 - t0, ws->a + t0 * D, D, l->brouter, ws->rl + t0 * E, E, 0, E,
                0);
    pii_rt_topk_softmax(t1 - t0, (int)E, (int)K, ws->rl + t0 * E, E, ws->sel + t0 * K,
                        ws->selw + t0 * K);
}

/* 7 (thread 0 alone): group the n k choices by expert (with kept rows,
 * only those this layer needs); build the expert task lists. */
static void moe_route(const fctx *f, const flayer *ly)
{
    pii_model_ws *ws = f->ws;
    const pii_model_config *c = &f->m->cfg;
    const pii_model_trace *tr = f->tr;
    const size_t n = f->n, D = (size_t)c->d_model, I = (size_t)c->d_expert;
    const size_t E = (size_t)c->n_experts, K = (size_t)c->top_k;
    const int L = ly->L, whole = n * K <= WHOLE_ROWS * E;
    pii_rt_moe_group_min(n, (int)E, (int)K, ws->sel, f->kept ? ws->lastl : NULL, L, ws->cnt,
                         ws->off, ws->grp, ws->pos);
    ws->fused = whole && ly->l->fused;
    ws->nta = ws->fused ? build_tasks(ws->ta, ws->cnt, (int)E, 2 * I, D, whole, &ws->costa)
                        : build_tasks(ws->ta, ws->cnt, (int)E, I, 2 * D, whole, &ws->costa);
    /* always set where !hg_needed (d_expert <= EXPERT_CHUNK: one chunk per
     * expert), so a NULL hg is never read */
    ws->sweep = !f->x2;
    for (size_t j = 0; j < ws->nta && ws->sweep; j++)
        ws->sweep = ws->ta[j].c0 == 0 && ws->ta[j].c1 == (ws->fused ? 2 * I : I);
    /* phase 10's own tasks only where it runs apart */
    ws->ntb = ws->sweep ? 0 : build_tasks(ws->tb, ws->cnt, (int)E, D, I, whole, &ws->costb);
    /* a long pass sweeps blocks of rows, which the threads share more
     * evenly than whole experts; a short one (bound by the weight stream)
     * keeps each expert on one thread */
    ws->nts = ws->sweep && !whole ? row_tasks(ws->ts, ws->cnt, (int)E, &ws->costs) : 0;
    if (tr && tr->experts)
        memcpy(tr->experts + (size_t)L * n * K, ws->sel, n * K * sizeof(int32_t));
    if (tr && tr->expert_w)
        memcpy(tr->expert_w + (size_t)L * n * K, ws->selw, n * K * sizeof(float));
    if (tr && tr->router_logits)
        memcpy(tr->router_logits + (size_t)L * n * E, ws->rl, n * E * sizeof(float));
}

/* 8 (slots): gather a's rows into expert order → xg (with qe: their rows
 * quantized in phase 6 → xgq). */
static void moe_gather(const fthread *th, const flayer *ly)
{
    pii_model_ws *ws = th->f->ws;
    const pii_model_config *c = &th->f->m->cfg;
    const size_t D = (size_t)c->d_model, K = (size_t)c->top_k, ldq = ws->ldq;
    const size_t nk = ws->off[c->n_experts]; /* grouped rows: n K, less the skipped */
    size_t lo, hi;
    pii_rt_split(nk, 1, th->ith, th->nth, &lo, &hi);
    if (ly->qe)
        for (size_t p = lo; p < hi; p++) {
            size_t r = ws->grp[p] / K;
            memcpy(ws->xgq + p * ldq, ws->aq + r * ldq, ldq * sizeof(int16_t));
            ws->xgs[p] = ws->as[r];
            ws->xgsq[p] = ws->asq[r];
        }
    else
        for (size_t p = lo; p < hi; p++)
            memcpy(ws->xg + p * D, ws->a + (ws->grp[p] / K) * D, D * sizeof(float));
}

/* 9 and 10 in one sweep when every task is a whole expert (and not
 * int16+8, whose residue passes span all rows): per block of an expert's
 * rows, gate, up, SwiGLU and down while hg is in cache.  One thread
 * sweeping (direct: a window on a workspace of its own) meets the experts
 * in ascending order, so each token's weighted expert outputs are summed
 * into a (free after phase 8) as they come, in phase 11's order, instead
 * of through yg. */
static void moe_sweep(const fthread *th, const flayer *ly, int direct)
{
    const fctx *f = th->f;
    pii_model_ws *ws = f->ws;
    const pii_rt_plan *pl = &ws->plan;
    const pii_model_config *c = &f->m->cfg;
    const pf_layer *l = ly->l;
    const size_t D = (size_t)c->d_model, I = (size_t)c->d_expert, K = (size_t)c->top_k;
    const int qd = ly->qd;
    size_t lo, hi;
    const etask *ts = ws->nts ? ws->ts : ws->ta;
    task_range(ts, ws->nts ? ws->nts : ws->nta, ws->nts ? ws->costs : ws->costa, th->ith, th->nth,
               &lo, &hi);
    const size_t cols = ws->fused ? 2 * I : I;
    float *hb = ws->hblk + (size_t)th->ith * SWEEP_ROWS * 2 * I;
    int16_t *hbq = qd ? ws->hblkq + (size_t)th->ith * SWEEP_ROWS * ws->ldqi : NULL;
    if (direct)
        memset(ws->a, 0, f->n * D * sizeof(float));
    for (size_t j = lo; j < hi; j++) {
        const etask *tk = &ts[j];
        size_t r0 = ws->off[tk->e];
        size_t a = ws->nts ? tk->c0 : 0, b = ws->nts ? tk->c1 : ws->cnt[tk->e];
        for (size_t r = a; r < b; r += SWEEP_ROWS) {
            size_t nb = b - r < SWEEP_ROWS ? b - r : SWEEP_ROWS;
            expert_up(ws, l, pl, tk->e, r0 + r, nb, hb, 0, cols, ly->qe, 0, 1);
            float *hs = qd ? ws->xgs + r0 + r : NULL;
            int32_t *hsq = qd ? ws->xgsq + r0 + r : NULL;
            if (qd)
                pii_rt_qx_rows(pl, nb, I, hb, 2 * I, hbq, ws->ldqi, hs, hsq);
            if (!direct) {
                expert_down(ws, l, pl, tk->e, nb, hb, ws->yg + (r0 + r) * D, 0, D, 0, hbq, hs, hsq);
                continue;
            }
            expert_down(ws, l, pl, tk->e, nb, hb, ws->yblk, 0, D, 0, hbq, hs, hsq);
            for (size_t i = 0; i < nb; i++) {
                uint32_t g = ws->grp[r0 + r + i]; /* token g / K, slot g % K */
                axpy_rows(ws->a + (g / K) * D, ws->selw[g], ws->yblk + i * D, D);
            }
        }
    }
}

/* 9 and 10 apart (tasks of expert columns).  9: gate and up, SwiGLU → hg.
 * With int16+8 activations on quantized experts: pass 1 (int16) on xg, xg
 * replaced by its int16 rounding residue, pass 2 (int8 activations)
 * accumulated without bias, then SwiGLU.  10: yg = hg Dn[e] + bd[e] (two
 * passes with int16+8, as in 9; with a Q8 down projection, hg's rows
 * quantized once first → hgq).  Barriers between the steps. */
static void moe_apart(const fthread *th, const flayer *ly)
{
    const fctx *f = th->f;
    pii_model_ws *ws = f->ws;
    const pii_rt_plan *pl = &ws->plan;
    pii_rt_pool *pool = ws->pool;
    const pii_model_config *c = &f->m->cfg;
    const pf_layer *l = ly->l;
    const size_t D = (size_t)c->d_model, I = (size_t)c->d_expert;
    const size_t nk = ws->off[c->n_experts];
    const int ith = th->ith, nth = th->nth;
    size_t lo, hi;
    int x2g = f->x2 && qtype(l->gate.dtype) && qtype(l->up.dtype);
    task_range(ws->ta, ws->nta, ws->costa, ith, nth, &lo, &hi);
    for (int pass = 0; pass <= x2g; pass++) {
        if (pass)
            residue_phase(pool, ws->xg, nk, D, D, ith, nth);
        for (size_t j = lo; j < hi; j++) {
            const etask *tk = &ws->ta[j];
            expert_up(ws, l, pl, tk->e, ws->off[tk->e], ws->cnt[tk->e],
                      ws->hg + ws->off[tk->e] * 2 * I, tk->c0, tk->c1, ly->qe, pass, pass == x2g);
        }
    }
    pii_rt_pool_barrier(pool);
    const int qdh = ly->qd && ws->hgq;
    if (qdh) { /* hg's rows quantized once, before the column tasks */
        pii_rt_split(nk, 1, ith, nth, &lo, &hi);
        if (hi > lo)
            pii_rt_qx_rows(pl, hi - lo, I, ws->hg + lo * 2 * I, 2 * I, ws->hgq + lo * ws->ldqi,
                           ws->ldqi, ws->xgs + lo, ws->xgsq + lo);
        pii_rt_pool_barrier(pool);
    }
    int x2d = f->x2 && qtype(l->down.dtype);
    task_range(ws->tb, ws->ntb, ws->costb, ith, nth, &lo, &hi);
    for (int pass = 0; pass <= x2d; pass++) {
        if (pass)
            residue_phase(pool, ws->hg, nk, I, 2 * I, ith, nth);
        for (size_t j = lo; j < hi; j++) {
            const etask *tk = &ws->tb[j];
            size_t o = ws->off[tk->e];
            expert_down(ws, l, pl, tk->e, ws->cnt[tk->e], ws->hg + o * 2 * I, ws->yg + o * D,
                        tk->c0, tk->c1, pass, qdh ? ws->hgq + o * ws->ldqi : NULL, ws->xgs + o,
                        ws->xgsq + o);
        }
    }
}

/* 11 (tokens): x += Σ_{experts ascending} w · yg (HF's order; direct: the
 * sweep summed it into a already, in that order). */
static void moe_combine(const fthread *th, const flayer *ly, int direct)
{
    const fctx *f = th->f;
    pii_model_ws *ws = f->ws;
    const pii_model_config *c = &f->m->cfg;
    const size_t D = (size_t)c->d_model, K = (size_t)c->top_k, t0 = th->t0, t1 = th->t1;
    const int L = ly->L;
    float *acc = th->scr;
    for (size_t t = t0; t < t1; t++) {
        if (f->kept && ws->lastl[t] < L)
            continue; /* no later layer needs this row */
        if (direct) {
            add_rows(ws->x + t * D, ws->a + t * D, D);
            continue;
        }
        const int32_t *se = ws->sel + t * K;
        const float *sw = ws->selw + t * K;
        memset(acc, 0, D * sizeof(float));
        uint64_t used = 0; /* bitmask over slots, K <= 64 */
        for (size_t r = 0; r < K; r++) {
            size_t best = K;
            for (size_t s = 0; s < K; s++)
                if (!(used >> s & 1) && (best == K || se[s] < se[best]))
                    best = s;
            used |= 1ull << best;
            axpy_rows(acc, sw[best], ws->yg + (size_t)ws->pos[t * K + best] * D, D);
        }
        add_rows(ws->x + t * D, acc, D);
    }
    if (f->tr && f->tr->hidden)
        memcpy(f->tr->hidden + ((size_t)(L + 1) * f->n + t0) * D, ws->x + t0 * D,
               (t1 - t0) * D * sizeof(float));
}

/* After the layers (tokens): logits = RMSNorm(x) Wscoreᵀ + bscore. */
static void classify_phase(const fthread *th)
{
    const fctx *f = th->f;
    const pii_model *m = f->m;
    pii_model_ws *ws = f->ws;
    const pii_rt_plan *pl = &ws->plan;
    const size_t D = (size_t)m->cfg.d_model, C = (size_t)m->cfg.n_labels;
    const size_t t0 = th->t0, t1 = th->t1;
    pii_rt_rmsnorm(pl, t1 - t0, D, ws->x + t0 * D, D, m->ln_final, m->cfg.rms_eps, ws->a + t0 * D,
                   D);
    pii_rt_gemm(pl, &m->score, t1 - t0, ws->a + t0 * D, D, m->bscore, f->logits + t0 * C, C, 0, C,
                0);
}

/* ---- the layer loop ------------------------------------------------------------- */

/* The attention block (phases 1-5): x += attention(RMSNorm(x)) Woᵀ + bo.
 * A barrier after each phase: the next reads what other threads wrote. */
static void attention_block(const fthread *th, const flayer *ly, pii_rt_attn *at)
{
    pii_rt_pool *pool = th->f->ws->pool;
    attn_norm(th, ly);
    pii_rt_pool_barrier(pool);
    attn_qkv(th, ly);
    pii_rt_pool_barrier(pool);
    attn_rope(th, ly);
    pii_rt_pool_barrier(pool);
    attn_band(th, ly, at);
    pii_rt_pool_barrier(pool);
    attn_out(th, ly);
    pii_rt_pool_barrier(pool);
}

/* The mixture-of-experts block (phases 6-11): x += Σ_k w_k ·
 * expert_k(RMSNorm(x)).  Barriers as in attention_block; phase 7 runs on
 * thread 0 while the others wait. */
static void moe_block(const fthread *th, const flayer *ly)
{
    pii_model_ws *ws = th->f->ws;
    pii_rt_pool *pool = ws->pool;
    moe_router(th, ly);
    pii_rt_pool_barrier(pool);
    if (th->ith == 0)
        moe_route(th->f, ly);
    pii_rt_pool_barrier(pool);
    moe_gather(th, ly);
    pii_rt_pool_barrier(pool);
    const int direct = ws->sweep && th->nth == 1;
    if (ws->sweep)
        moe_sweep(th, ly, direct);
    else
        moe_apart(th, ly);
    pii_rt_pool_barrier(pool);
    moe_combine(th, ly, direct);
    pii_rt_pool_barrier(pool);
}

/* The pass on thread ith of nth: embeddings, the layers, the classifier. */
static void forward_thread(void *vctx, int ith, int nth)
{
    const fctx *f = vctx;
    fthread th = {f, ith, nth, 0, 0, f->ws->scratch + (size_t)ith * f->ws->scr};
    tok_range(f->n, ith, nth, &th.t0, &th.t1);
    embed_phase(&th);
    pii_rt_pool_barrier(f->ws->pool);
    pii_rt_attn at = attn_desc(f);
    for (int L = 0; L < f->m->cfg.n_layers; L++) {
        const flayer ly = layer_plan(f, L);
        attention_block(&th, &ly, &at);
        moe_block(&th, &ly);
    }
    classify_phase(&th);
}

pii_err pii_model_forward(const pii_model *m, pii_model_ws *ws, const int32_t *ids, size_t n,
                          const size_t *doc_lens, size_t ndocs, float *logits,
                          const pii_model_trace *trace)
{
    return pii_model_forward_kept(m, ws, ids, n, doc_lens, ndocs, NULL, NULL, logits, trace);
}

/* ws->lastl for the documents' kept ranges; 0 when every row is needed. */
static int plan_kept(const pii_model *m, pii_model_ws *ws, size_t n, const size_t *doc_lens,
                     size_t ndocs, const size_t *keep_lo, const size_t *keep_hi)
{
    const int NL = m->cfg.n_layers;
    const size_t R = (size_t)m->cfg.window;
    if (!keep_lo || !keep_hi || R == 0 || NL <= 0)
        return 0;
    size_t t = 0, skipped = 0;
    for (size_t d = 0; d < (doc_lens ? ndocs : 1); d++) {
        size_t len = doc_lens ? doc_lens[d] : n;
        size_t lo = keep_lo[d] < len ? keep_lo[d] : len, hi = keep_hi[d] < len ? keep_hi[d] : len;
        for (size_t i = 0; i < len; i++) {
            size_t dist = i < lo ? lo - i : i >= hi ? i - hi + 1 : 0;
            size_t up = (dist + R - 1) / R; /* layers of reach the row must leave out */
            int last = up >= (size_t)NL ? -1 : NL - 1 - (int)up;
            ws->lastl[t + i] = (int16_t)last;
            skipped += last < NL - 1;
        }
        t += len;
    }
    return skipped > 0;
}

pii_err pii_model_forward_kept(const pii_model *m, pii_model_ws *ws, const int32_t *ids, size_t n,
                               const size_t *doc_lens, size_t ndocs, const size_t *keep_lo,
                               const size_t *keep_hi, float *logits, const pii_model_trace *trace)
{
    if (!m || !ws || ws->m != m || (n && (!ids || !logits)))
        return PII_EINVAL;
    if (n > ws->N)
        return PII_ETOOBIG;
    if (n == 0)
        return PII_OK;
    if (pii_fault_hit(PII_FAULT_FORWARD)) /* test hook, core/include/pii_fault.h */
        return PII_EINJECTED;
    for (size_t t = 0; t < n; t++)
        if (ids[t] < 0 || ids[t] >= m->cfg.vocab_size)
            return PII_ERANGE;
    /* per-token document bounds */
    if (doc_lens) {
        size_t t = 0;
        for (size_t d = 0; d < ndocs; d++) {
            if (doc_lens[d] > n - t)
                return PII_EINVAL;
            for (size_t j = 0; j < doc_lens[d]; j++) {
                ws->dstart[t + j] = (uint32_t)t;
                ws->dend[t + j] = (uint32_t)(t + doc_lens[d]);
            }
            t += doc_lens[d];
        }
        if (t != n)
            return PII_EINVAL;
    } else {
        for (size_t t = 0; t < n; t++) {
            ws->dstart[t] = 0;
            ws->dend[t] = (uint32_t)n;
        }
    }
    fctx f = {m, ws, ids, n, logits, trace, ws->plan.qact == PII_RT_QACT_I16R8, 0};
    if (!ws->hg && hg_needed(m, f.x2)) {
        const size_t K = (size_t)m->cfg.top_k, I = (size_t)m->cfg.d_expert;
        if (!(ws->hg = ws_alloc(ws, ws->N * K * 2 * I * sizeof(float))))
            return PII_ENOMEM;
    }
    if (ws->hg && ws->ldqi && !ws->hgq && !f.x2) {
        const size_t K = (size_t)m->cfg.top_k;
        if (!(ws->hgq = ws_alloc(ws, ws->N * K * ws->ldqi * sizeof(int16_t))))
            return PII_ENOMEM;
    }
    if (!trace)
        f.kept = plan_kept(m, ws, n, doc_lens, ndocs, keep_lo, keep_hi);
    pii_rt_pool_run(ws->pool, forward_thread, &f);
    /* A NaN or infinity in any weight (or an overflow) reaches the logits;
     * decoding them would silently find nothing.  Fail closed instead. */
    const float *lg = logits;
    for (size_t i = 0, nc = n * (size_t)m->cfg.n_labels; i < nc; i++)
        if (!isfinite(lg[i]))
            return PII_EMODEL;
    return PII_OK;
}
