/* viterbi.c — constrained BIOES Viterbi (spec §6.2), one-shot and online.
 *
 * Legend: n tokens, C labels.  e[n][C] log-probs (f32); scores in double.
 * Back-pointers are uint16 (C <= 65535): bp[t][c] = best predecessor at
 * t-1 of state c at t.
 *
 * Both decoders share step(), so the online decoder reproduces the one-shot
 * decoder's arithmetic exactly, and the result never depends on how the
 * rows were split into pushes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ner_internal.h"
#include "pii_ner.h"

/* The recurrence, fast.  max_p (S[p] + trans[p][c]) depends only on
 * column c of trans, and many columns are equal (every B-x and S-x column
 * of a BIOES space is the same), so it is computed once per distinct
 * column.  Most columns are also sparse: their entries are exactly NEG
 * except for a few "listed" predecessors (I-x and E-x: B-x and I-x).  For
 * those, the best unlisted predecessor is the first of the TOPK best
 * (S[p] + NEG, lowest index first) that is not listed.  Both shortcuts give
 * exactly the dense loop's values and first-index choices (step_ref is the
 * dense twin; the tests compare them). */
#define SPARSE_MAX 4
#define TOPK (SPARSE_MAX + 1)

struct pii_ner_viterbi {
    size_t C;
    float *start;   /* [C] */
    float *end;     /* [C] */
    float *trans;   /* [C][C]: trans[prev*C + next] */
    size_t ncol;    /* distinct columns */
    uint16_t *col;  /* [C] column of each state */
    uint16_t *rep;  /* [ncol] a state with that column */
    uint8_t *nlist; /* [ncol] listed predecessors, DENSE for a dense column */
    uint16_t *list; /* [ncol][SPARSE_MAX] listed predecessors, ascending */
    int any_sparse;
};

#define DENSE 0xFF

void pii_ner_viterbi_free(pii_ner_viterbi *v)
{
    if (!v)
        return;
    free(v->start);
    free(v->end);
    free(v->trans);
    free(v->col);
    free(v->rep);
    free(v->nlist);
    free(v->list);
    free(v);
}

enum { B_STAY, B_TO_START, I_CONTINUE, I_TO_END, E_TO_BG, E_TO_START };

pii_ner_viterbi *pii_ner_viterbi_create(const pii_ner_labels *L, const pii_ner_biases *b,
                                        pii_err *err)
{
    pii_ner_biases zero = {{0}};
    if (!b)
        b = &zero;
    size_t C = pii_ner_labels_count(L);
    pii_ner_viterbi *v = calloc(1, sizeof *v);
    if (!v)
        goto oom;
    v->C = C;
    v->start = malloc(C * sizeof *v->start);
    v->end = malloc(C * sizeof *v->end);
    v->trans = malloc(C * C * sizeof *v->trans);
    if (!v->start || !v->end || !v->trans)
        goto oom;
    for (size_t c = 0; c < C; c++) {
        pii_ner_tag t = pii_ner_labels_tag(L, c);
        v->start[c] = (t == PII_NER_O || t == PII_NER_B || t == PII_NER_S) ? 0.0f : PII_NER_NEG;
        v->end[c] = (t == PII_NER_O || t == PII_NER_E || t == PII_NER_S) ? 0.0f : PII_NER_NEG;
    }
    for (size_t p = 0; p < C; p++) {
        pii_ner_tag tp = pii_ner_labels_tag(L, p);
        int cp = pii_ner_labels_category_of(L, p);
        for (size_t c = 0; c < C; c++) {
            pii_ner_tag tc = pii_ner_labels_tag(L, c);
            int cc = pii_ner_labels_category_of(L, c);
            float x = PII_NER_NEG;
            int starts = tc == PII_NER_B || tc == PII_NER_S;
            switch (tp) {
            case PII_NER_O:
                if (tc == PII_NER_O)
                    x = b->v[B_STAY];
                else if (starts)
                    x = b->v[B_TO_START];
                break;
            case PII_NER_B:
            case PII_NER_I:
                if (tc == PII_NER_I && cc == cp)
                    x = b->v[I_CONTINUE];
                else if (tc == PII_NER_E && cc == cp)
                    x = b->v[I_TO_END];
                break;
            case PII_NER_E:
            case PII_NER_S:
                if (tc == PII_NER_O)
                    x = b->v[E_TO_BG];
                else if (starts)
                    x = b->v[E_TO_START];
                break;
            }
            v->trans[p * C + c] = x;
        }
    }
    /* distinct columns, and which of them are sparse */
    v->col = malloc(C * sizeof *v->col);
    v->rep = malloc(C * sizeof *v->rep);
    v->nlist = malloc(C);
    v->list = malloc(C * SPARSE_MAX * sizeof *v->list);
    if (!v->col || !v->rep || !v->nlist || !v->list)
        goto oom;
    for (size_t c = 0; c < C; c++) {
        size_t j;
        for (j = 0; j < v->ncol; j++) {
            size_t r = v->rep[j], p;
            for (p = 0; p < C && v->trans[p * C + r] == v->trans[p * C + c]; p++)
                ;
            if (p == C)
                break;
        }
        v->col[c] = (uint16_t)j;
        if (j < v->ncol)
            continue;
        v->rep[j] = (uint16_t)c;
        v->ncol++;
        size_t nl = 0;
        for (size_t p = 0; p < C && nl <= SPARSE_MAX; p++)
            if (v->trans[p * C + c] != PII_NER_NEG) {
                if (nl < SPARSE_MAX)
                    v->list[j * SPARSE_MAX + nl] = (uint16_t)p;
                nl++;
            }
        v->nlist[j] = nl <= SPARSE_MAX && C > TOPK ? (uint8_t)nl : DENSE;
        if (v->nlist[j] != DENSE)
            v->any_sparse = 1;
    }
    if (err)
        *err = PII_OK;
    return v;
oom:
    pii_ner_viterbi_free(v);
    if (err)
        *err = PII_ENOMEM;
    return NULL;
}

size_t pii_ner_viterbi_nlabels(const pii_ner_viterbi *v)
{
    return v->C;
}

float pii_ner_viterbi_start(const pii_ner_viterbi *v, size_t c)
{
    return v->start[c];
}

float pii_ner_viterbi_end(const pii_ner_viterbi *v, size_t c)
{
    return v->end[c];
}

float pii_ner_viterbi_trans(const pii_ner_viterbi *v, size_t prev, size_t next)
{
    return v->trans[prev * v->C + next];
}

/* ---- the shared recurrence ------------------------------------------ */

/* Shifts s[C] by its maximum (when finite). */
static void shift(double *s, size_t C)
{
    double m = -INFINITY;
    for (size_t c = 0; c < C; c++)
        if (s[c] > m)
            m = s[c];
    if (!isfinite(m))
        return;
    for (size_t c = 0; c < C; c++)
        s[c] -= m;
}

/* S_0[c] = e[c] + start[c], shifted. */
static void first(const pii_ner_viterbi *v, const float *e, double *s)
{
    for (size_t c = 0; c < v->C; c++)
        s[c] = (double)e[c] + (double)v->start[c];
    shift(s, v->C);
}

/* out[c] = max_p (prev[p] + trans[p][c]) + e[c], bp[c] = first argmax p;
 * then shifted.  prev and out must differ.  The dense reference. */
void pii_ner_viterbi_step_ref(const pii_ner_viterbi *v, const double *prev, const float *e,
                              double *out, uint16_t *bp)
{
    size_t C = v->C;
    const float *tr = v->trans;
    for (size_t c = 0; c < C; c++) {
        out[c] = prev[0] + (double)tr[c];
        bp[c] = 0;
    }
    for (size_t p = 1; p < C; p++) {
        double sp = prev[p];
        const float *row = tr + p * C;
        for (size_t c = 0; c < C; c++) {
            double x = sp + (double)row[c];
            if (x > out[c]) {
                out[c] = x;
                bp[c] = (uint16_t)p;
            }
        }
    }
    for (size_t c = 0; c < C; c++)
        out[c] += (double)e[c];
    shift(out, C);
}

/* The same result through distinct and sparse columns (see the top).
 * cv, cb: scratch [ncol]. */
void pii_ner_viterbi_step(const pii_ner_viterbi *v, const double *prev, const float *e, double *out,
                          uint16_t *bp, double *cv, uint16_t *cb)
{
    size_t C = v->C;
    const float *tr = v->trans;
    const double neg = (double)PII_NER_NEG;
    double kv[TOPK];
    uint16_t kp[TOPK];
    size_t nk = 0;
    if (v->any_sparse) {
        /* the TOPK best prev[p] + NEG, by value then index */
        for (size_t p = 0; p < C; p++) {
            double k = prev[p] + neg;
            if (nk == TOPK && !(k > kv[TOPK - 1]))
                continue;
            size_t i = nk < TOPK ? nk++ : TOPK - 1;
            while (i > 0 && k > kv[i - 1]) {
                kv[i] = kv[i - 1];
                kp[i] = kp[i - 1];
                i--;
            }
            kv[i] = k;
            kp[i] = (uint16_t)p;
        }
    }
    for (size_t j = 0; j < v->ncol; j++) {
        size_t r = v->rep[j];
        size_t nl = v->nlist[j];
        double best;
        size_t b;
        if (nl == DENSE) {
            best = prev[0] + (double)tr[r];
            b = 0;
            for (size_t p = 1; p < C; p++) {
                double x = prev[p] + (double)tr[p * C + r];
                if (x > best) {
                    best = x;
                    b = p;
                }
            }
        } else {
            const uint16_t *ls = v->list + j * SPARSE_MAX;
            best = -INFINITY;
            b = SIZE_MAX;
            for (size_t i = 0; i < nk; i++) {
                size_t q = 0;
                while (q < nl && ls[q] != kp[i])
                    q++;
                if (q == nl) { /* the best unlisted predecessor */
                    best = kv[i];
                    b = kp[i];
                    break;
                }
            }
            for (size_t q = 0; q < nl; q++) {
                size_t p = ls[q];
                double x = prev[p] + (double)tr[p * C + r];
                if (x > best || (x == best && p < b)) {
                    best = x;
                    b = p;
                }
            }
        }
        cv[j] = best;
        cb[j] = (uint16_t)b;
    }
    for (size_t c = 0; c < C; c++) {
        out[c] = cv[v->col[c]] + (double)e[c];
        bp[c] = cb[v->col[c]];
    }
    shift(out, C);
}

size_t pii_ner_viterbi_ncol(const pii_ner_viterbi *v)
{
    return v->ncol;
}

/* argmax_c (s[c] + end[c]) (or s[c] alone when end is NULL), first index. */
static size_t best_state(const double *s, const float *end, size_t C)
{
    size_t best = 0;
    double bv = s[0] + (end ? (double)end[0] : 0.0);
    for (size_t c = 1; c < C; c++) {
        double x = s[c] + (end ? (double)end[c] : 0.0);
        if (x > bv) {
            bv = x;
            best = c;
        }
    }
    return best;
}

pii_err pii_ner_viterbi_decode(const pii_ner_viterbi *v, const float *e, size_t n, int32_t *labels)
{
    if (n == 0)
        return PII_OK;
    size_t C = v->C;
    if (n > SIZE_MAX / C / sizeof(uint16_t))
        return PII_ENOMEM;
    uint16_t *bp = malloc(n * C * sizeof *bp);
    double *sbuf = malloc((2 * C + v->ncol) * sizeof *sbuf);
    uint16_t *cb = malloc(v->ncol * sizeof *cb);
    if (!bp || !sbuf || !cb) {
        free(bp);
        free(sbuf);
        free(cb);
        return PII_ENOMEM;
    }
    double *s0 = sbuf, *s1 = sbuf + C, *cv = sbuf + 2 * C;
    first(v, e, s0);
    for (size_t t = 1; t < n; t++) {
        pii_ner_viterbi_step(v, s0, e + t * C, s1, bp + t * C, cv, cb);
        double *tmp = s0;
        s0 = s1;
        s1 = tmp;
    }
    size_t s = best_state(s0, v->end, C);
    labels[n - 1] = (int32_t)s;
    for (size_t t = n - 1; t > 0; t--) {
        s = bp[t * C + s];
        labels[t - 1] = (int32_t)s;
    }
    free(bp);
    free(sbuf);
    free(cb);
    return PII_OK;
}

double pii_ner_viterbi_path_score(const pii_ner_viterbi *v, const float *e, size_t n,
                                  const int32_t *labels)
{
    if (n == 0)
        return 0.0;
    size_t C = v->C;
    double s = (double)e[labels[0]] + (double)v->start[labels[0]];
    for (size_t t = 1; t < n; t++)
        s += (double)v->trans[(size_t)labels[t - 1] * C + (size_t)labels[t]] +
             (double)e[t * C + (size_t)labels[t]];
    return s + (double)v->end[labels[n - 1]];
}

/* ---- online ------------------------------------------------------------ */

/* Score given to every state but the committed one after a forced commit:
 * far below any reachable score, so all successors come from that state. */
#define DEAD (-1e30)

struct pii_ner_online {
    const pii_ner_viterbi *v;
    size_t C, max_lag;
    double *sbuf;   /* [2][C] holding s and s2, then cv */
    double *s, *s2; /* [C] current scores S_{t-1}, scratch (swapped) */
    double *cv;     /* [ncol] step scratch */
    uint16_t *cb;   /* [ncol] step scratch */
    uint16_t *ring; /* [cap][C]: bp of time u in slot u % cap */
    size_t cap;     /* rows; covers times [fin, t) */
    uint64_t t;     /* rows pushed */
    uint64_t fin;   /* labels of times < fin are final (in the queue or taken) */
    uint64_t forced;
    int finished;
    int32_t *q; /* final labels not yet taken: q[qh .. qh+qn) */
    size_t qh, qn, qcap;
    uint16_t *set, *set2; /* [C] survivor sets for the merge trace */
    uint32_t *stamp;      /* [C] */
    uint32_t epoch;
};

void pii_ner_online_free(pii_ner_online *o)
{
    if (!o)
        return;
    free(o->sbuf);
    free(o->cb);
    free(o->ring);
    free(o->q);
    free(o->set);
    free(o->stamp);
    free(o);
}

pii_ner_online *pii_ner_online_create(const pii_ner_viterbi *v, size_t max_lag, pii_err *err)
{
    size_t C = v->C;
    pii_ner_online *o = calloc(1, sizeof *o);
    if (!o)
        goto oom;
    o->v = v;
    o->C = C;
    o->max_lag = max_lag;
    /* the ring starts small and grows to at most max_lag + 2 rows */
    o->cap = max_lag && max_lag + 2 < 256 ? max_lag + 2 : 256;
    if (o->cap > SIZE_MAX / C / sizeof(uint16_t))
        goto oom;
    o->s = o->sbuf = malloc((2 * C + v->ncol) * sizeof *o->s);
    o->cb = malloc(v->ncol * sizeof *o->cb);
    o->ring = malloc(o->cap * C * sizeof *o->ring);
    o->set = malloc(2 * C * sizeof *o->set);
    o->stamp = calloc(C, sizeof *o->stamp);
    if (!o->sbuf || !o->cb || !o->ring || !o->set || !o->stamp)
        goto oom;
    o->s2 = o->s + C;
    o->cv = o->s + 2 * C;
    o->set2 = o->set + C;
    if (err)
        *err = PII_OK;
    return o;
oom:
    pii_ner_online_free(o);
    if (err)
        *err = PII_ENOMEM;
    return NULL;
}

void pii_ner_online_reset(pii_ner_online *o)
{
    o->t = o->fin = o->forced = 0;
    o->finished = 0;
    o->qh = o->qn = 0;
}

uint64_t pii_ner_online_pushed(const pii_ner_online *o)
{
    return o->t;
}

uint64_t pii_ner_online_forced(const pii_ner_online *o)
{
    return o->forced;
}

size_t pii_ner_online_ready(const pii_ner_online *o)
{
    return o->qn;
}

size_t pii_ner_online_take(pii_ner_online *o, int32_t *labels, size_t cap)
{
    size_t k = o->qn < cap ? o->qn : cap;
    if (k == 0)
        return 0;
    memcpy(labels, o->q + o->qh, k * sizeof *labels);
    o->qh += k;
    o->qn -= k;
    if (o->qn == 0)
        o->qh = 0;
    return k;
}

static uint16_t *row(const pii_ner_online *o, uint64_t u)
{
    return o->ring + (size_t)(u % o->cap) * o->C;
}

/* Room for k more labels at the queue's tail. */
static pii_err queue_reserve(pii_ner_online *o, size_t k)
{
    if (o->qh + o->qn + k <= o->qcap)
        return PII_OK;
    if (o->qh) {
        memmove(o->q, o->q + o->qh, o->qn * sizeof *o->q);
        o->qh = 0;
        if (o->qn + k <= o->qcap)
            return PII_OK;
    }
    size_t nc = o->qcap ? o->qcap : 256;
    while (nc < o->qn + k)
        nc *= 2;
    int32_t *nq = realloc(o->q, nc * sizeof *nq);
    if (!nq)
        return PII_ENOMEM;
    o->q = nq;
    o->qcap = nc;
    return PII_OK;
}

/* Makes labels of times [fin, tau] final, tau's state being s: follows the
 * back-pointers from (tau, s) down to fin. */
static pii_err emit(pii_ner_online *o, uint64_t tau, size_t s)
{
    size_t k = (size_t)(tau - o->fin + 1);
    pii_err e = queue_reserve(o, k);
    if (e)
        return e;
    int32_t *dst = o->q + o->qh + o->qn;
    dst[k - 1] = (int32_t)s;
    for (uint64_t u = tau; u > o->fin; u--) {
        s = row(o, u)[s];
        dst[u - 1 - o->fin] = (int32_t)s;
    }
    o->qn += k;
    o->fin = tau + 1;
    return PII_OK;
}

/* Latest time tau in [fin, cur] at which all survivors at cur share one
 * state; returns 1 and sets *tau, *state, or 0 when they only share the
 * (already final) past. */
static int merge_point(pii_ner_online *o, uint64_t cur, uint64_t *tau, size_t *state)
{
    size_t C = o->C, na = C;
    uint16_t *a = o->set, *b = o->set2;
    for (size_t c = 0; c < C; c++)
        a[c] = (uint16_t)c;
    uint64_t u = cur;
    while (na > 1 && u > o->fin) {
        if (++o->epoch == 0) {
            memset(o->stamp, 0, C * sizeof *o->stamp);
            o->epoch = 1;
        }
        const uint16_t *bp = row(o, u);
        size_t nb = 0;
        for (size_t i = 0; i < na; i++) {
            uint16_t p = bp[a[i]];
            if (o->stamp[p] != o->epoch) {
                o->stamp[p] = o->epoch;
                b[nb++] = p;
            }
        }
        uint16_t *tmp = a;
        a = b;
        b = tmp;
        na = nb;
        u--;
    }
    if (na != 1)
        return 0;
    *tau = u;
    *state = a[0];
    return 1;
}

/* Grows the ring so that times [fin, t] fit (up to max_lag + 2 rows). */
static pii_err ring_fit(pii_ner_online *o)
{
    size_t need = (size_t)(o->t - o->fin + 1);
    if (need <= o->cap)
        return PII_OK;
    if (o->max_lag && need > o->max_lag + 2)
        return PII_EINTERNAL; /* the bound keeps t - fin <= max_lag */
    size_t nc = o->cap * 2;
    while (nc < need)
        nc *= 2;
    if (o->max_lag && nc > o->max_lag + 2)
        nc = o->max_lag + 2;
    if (nc > SIZE_MAX / o->C / sizeof(uint16_t))
        return PII_ENOMEM;
    uint16_t *nr = malloc(nc * o->C * sizeof *nr);
    if (!nr)
        return PII_ENOMEM;
    for (uint64_t u = o->fin; u < o->t; u++)
        memcpy(nr + (size_t)(u % nc) * o->C, row(o, u), o->C * sizeof *nr);
    free(o->ring);
    o->ring = nr;
    o->cap = nc;
    return PII_OK;
}

pii_err pii_ner_online_push(pii_ner_online *o, const float *e, size_t n)
{
    size_t C = o->C;
    if (o->finished)
        return PII_EINVAL;
    for (size_t i = 0; i < n; i++, e += C) {
        pii_err err = ring_fit(o);
        if (err)
            return err;
        uint64_t cur = o->t;
        if (cur == 0) {
            first(o->v, e, o->s);
        } else {
            pii_ner_viterbi_step(o->v, o->s, e, o->s2, row(o, cur), o->cv, o->cb);
            double *tmp = o->s;
            o->s = o->s2;
            o->s2 = tmp;
        }
        o->t = cur + 1;
        /* The bound: the survivors at cur must have merged at a time
         * >= cur - max_lag.  fin - 1 is a known merge time, so only look
         * when fin - 1 < cur - max_lag. */
        if (o->max_lag && cur + 1 > o->fin + o->max_lag) {
            uint64_t tau;
            size_t st;
            if (merge_point(o, cur, &tau, &st) && tau + o->max_lag >= cur) {
                if ((err = emit(o, tau, st)))
                    return err;
            } else {
                size_t cs = best_state(o->s, NULL, C);
                if ((err = emit(o, cur, cs)))
                    return err;
                for (size_t c = 0; c < C; c++)
                    o->s[c] = c == cs ? 0.0 : DEAD;
                o->forced++;
            }
        }
    }
    if (n && o->t > o->fin) {
        uint64_t tau;
        size_t st;
        if (merge_point(o, o->t - 1, &tau, &st))
            return emit(o, tau, st);
    }
    return PII_OK;
}

pii_err pii_ner_online_finish(pii_ner_online *o)
{
    if (o->finished)
        return PII_OK;
    o->finished = 1;
    if (o->t == o->fin)
        return PII_OK;
    size_t s = best_state(o->s, o->v->end, o->C);
    return emit(o, o->t - 1, s);
}
