/* eval.h — scoring of predicted spans against the unified eval format
 * (../shared/eval/README.md), used by `pii-redact eval`.
 *
 * Definitions (per file; files are never pooled):
 *  - Only labels in a record's scored_labels are evaluated on it; predicted
 *    spans with other labels are dropped before anything else, including
 *    the leak rate.
 *  - strict match: same label, same start and end (code points);
 *    overlap match: same label and at least one shared code point.
 *  - A predicted span that matches no scored gold span (in the mode being
 *    computed) and overlaps an ignore region (scored: false) is neither a
 *    hit nor a false positive; otherwise an unmatched prediction is a false
 *    positive.
 *  - precision = matched predictions / (predictions - ignored);
 *    recall = gold spans matched by some prediction / gold spans;
 *    F1 = harmonic mean.  Undefined values (no predictions, no gold) are
 *    reported as NaN, printed "-" or null.
 *  - character leak rate (label-agnostic): the share of code points inside
 *    scored gold spans that no predicted span covers, whatever its label.
 *    Per label, the same share over that label's gold code points.
 * Offsets are code points, half-open.  Not thread-safe (one accumulator per
 * thread). */
#ifndef PII_EVAL_H
#define PII_EVAL_H

#include <stddef.h>
#include <stdint.h>

#include "pii_redact.h"

typedef struct pii_eval_span {
    uint64_t start, end; /* code points, half-open */
    int label;           /* index in pii_categories; -1 = ignore region */
    float score;         /* detector score of a prediction (-1: none)       */
    const char *rule;    /* the prediction's rule or name heuristic (NULL: none) */
} pii_eval_span;

typedef struct pii_eval_mode {
    uint64_t tp;      /* predictions that match a gold span              */
    uint64_t fp;      /* unmatched predictions outside ignore regions    */
    uint64_t ignored; /* unmatched predictions overlapping an ignore region */
    uint64_t hit;     /* gold spans matched by at least one prediction   */
} pii_eval_mode;

typedef struct pii_eval_label {
    uint64_t gold, pred;
    pii_eval_mode strict, overlap;
    uint64_t gold_chars, leaked_chars;
} pii_eval_label;

typedef struct pii_eval_acc {
    uint64_t records;
    unsigned scored_mask; /* union of the records' scored_labels (bit = index) */
    pii_eval_label lab[PII_NCAT];
    uint64_t gold_chars, leaked_chars; /* label-agnostic leak */
} pii_eval_acc;

/* Adds one record.  gold: scored gold spans and ignore regions (label -1)
 * in any order; pred: predictions (any labels, any order; those outside
 * scored_mask are dropped).  ncp: the text length in code points (spans
 * beyond it are an error).  Returns PII_EINVAL on bad spans, PII_ENOMEM. */
pii_err pii_eval_add(pii_eval_acc *acc, uint64_t ncp, unsigned scored_mask,
                     const pii_eval_span *gold, size_t ngold, const pii_eval_span *pred,
                     size_t npred);

typedef struct pii_eval_prf {
    double p, r, f1; /* NaN when undefined */
} pii_eval_prf;

pii_eval_prf pii_eval_score(const pii_eval_mode *m, uint64_t gold);
/* Sums the labels in scored_mask (micro average). */
pii_eval_label pii_eval_micro(const pii_eval_acc *acc);

#endif
