/* eval.c — span matching and metrics for `pii-redact eval` (see eval.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "eval.h"

static int overlaps(const pii_eval_span *a, const pii_eval_span *b)
{
    return a->start < b->end && b->start < a->end;
}

static int exact(const pii_eval_span *a, const pii_eval_span *b)
{
    return a->start == b->start && a->end == b->end;
}

/* Marks [s, e) in a byte map. */
static void mark(uint8_t *map, uint64_t s, uint64_t e, uint8_t bit)
{
    for (uint64_t i = s; i < e; i++)
        map[i] |= bit;
}

pii_err pii_eval_add(pii_eval_acc *acc, uint64_t ncp, unsigned scored_mask,
                     const pii_eval_span *gold, size_t ngold, const pii_eval_span *pred,
                     size_t npred)
{
    for (size_t i = 0; i < ngold; i++)
        if (gold[i].start >= gold[i].end || gold[i].end > ncp || gold[i].label < -1 ||
            gold[i].label >= PII_NCAT)
            return PII_EINVAL;
    for (size_t i = 0; i < npred; i++)
        if (pred[i].start >= pred[i].end || pred[i].end > ncp || pred[i].label < 0 ||
            pred[i].label >= PII_NCAT)
            return PII_EINVAL;

    /* Code-point map: bit 1 = inside a scored gold span, 2 = covered by a
     * kept prediction. */
    uint8_t *map = calloc(ncp ? ncp : 1, 1);
    if (!map)
        return PII_ENOMEM;

    acc->records++;
    acc->scored_mask |= scored_mask;
    for (size_t i = 0; i < npred; i++)
        if (scored_mask >> pred[i].label & 1u)
            mark(map, pred[i].start, pred[i].end, 2);

    for (int L = 0; L < PII_NCAT; L++) {
        if (!(scored_mask >> L & 1u))
            continue;
        pii_eval_label *lab = &acc->lab[L];
        for (size_t i = 0; i < npred; i++) {
            const pii_eval_span *p = &pred[i];
            if (p->label != L)
                continue;
            lab->pred++;
            int s_match = 0, o_match = 0, ign = 0;
            for (size_t j = 0; j < ngold; j++) {
                const pii_eval_span *g = &gold[j];
                if (g->label == -1) {
                    ign |= overlaps(p, g);
                } else if (g->label == L) {
                    s_match |= exact(p, g);
                    o_match |= overlaps(p, g);
                }
            }
            if (s_match)
                lab->strict.tp++;
            else if (ign)
                lab->strict.ignored++;
            else
                lab->strict.fp++;
            if (o_match)
                lab->overlap.tp++;
            else if (ign)
                lab->overlap.ignored++;
            else
                lab->overlap.fp++;
        }
        for (size_t j = 0; j < ngold; j++) {
            const pii_eval_span *g = &gold[j];
            if (g->label != L)
                continue;
            lab->gold++;
            int s_hit = 0, o_hit = 0;
            for (size_t i = 0; i < npred; i++) {
                if (pred[i].label != L)
                    continue;
                s_hit |= exact(&pred[i], g);
                o_hit |= overlaps(&pred[i], g);
            }
            lab->strict.hit += (uint64_t)s_hit;
            lab->overlap.hit += (uint64_t)o_hit;
            for (uint64_t c = g->start; c < g->end; c++) {
                lab->gold_chars++;
                lab->leaked_chars += !(map[c] & 2);
            }
            mark(map, g->start, g->end, 1);
        }
    }
    /* Label-agnostic leak over the union of scored gold spans (overlapping
     * gold spans count each code point once). */
    for (uint64_t c = 0; c < ncp; c++) {
        if (map[c] & 1) {
            acc->gold_chars++;
            acc->leaked_chars += !(map[c] & 2);
        }
    }
    free(map);
    return PII_OK;
}

pii_eval_prf pii_eval_score(const pii_eval_mode *m, uint64_t gold)
{
    pii_eval_prf s;
    uint64_t judged = m->tp + m->fp;
    if (judged)
        s.p = (double)m->tp / (double)judged;
    else
        s.p = gold ? 0.0 : NAN;
    s.r = gold ? (double)m->hit / (double)gold : NAN;
    if (isnan(s.p) || isnan(s.r))
        s.f1 = NAN;
    else if (s.p + s.r == 0.0)
        s.f1 = 0.0;
    else
        s.f1 = 2.0 * s.p * s.r / (s.p + s.r);
    return s;
}

static void add_mode(pii_eval_mode *a, const pii_eval_mode *b)
{
    a->tp += b->tp;
    a->fp += b->fp;
    a->ignored += b->ignored;
    a->hit += b->hit;
}

pii_eval_label pii_eval_micro(const pii_eval_acc *acc)
{
    pii_eval_label m;
    memset(&m, 0, sizeof m);
    for (int L = 0; L < PII_NCAT; L++) {
        if (!(acc->scored_mask >> L & 1u))
            continue;
        const pii_eval_label *l = &acc->lab[L];
        m.gold += l->gold;
        m.pred += l->pred;
        add_mode(&m.strict, &l->strict);
        add_mode(&m.overlap, &l->overlap);
        m.gold_chars += l->gold_chars;
        m.leaked_chars += l->leaked_chars;
    }
    return m;
}
