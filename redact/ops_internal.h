/* ops_internal.h — private: the configured operators, for own.c, and the
 * replacement text of a span, for the streams (stream.c, records_value.c). */
#ifndef PII_OPS_INTERNAL_H
#define PII_OPS_INTERNAL_H

#include "pii_redact.h"

/* The number of operators: 1 (the default) + one per label set. */
size_t pii_ops__count(const pii_ops *o);
/* Operator i (0: the default, *label NULL; else its label). */
const pii_op *pii_ops__at(const pii_ops *o, size_t i, const char **label);
/* A placeholder template rendered for label (appended to out). */
pii_err pii_ops__render(const char *tmpl, const char *label, pii_buf *out);
/* out = the replacement of span s over value[0..len): o's (pii_ops_apply),
 * or without operators (o NULL) the placeholder "<LABEL>" (the label upper
 * case, at most 127 bytes of it). */
pii_err pii_ops__output(pii_ops *o, const pii_span *s, const uint8_t *value, size_t len,
                        pii_buf *out);

#endif
