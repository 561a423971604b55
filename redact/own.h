/* own.h — private: the tool's own output, found again (issue 41).
 *
 * Running the redactor over its own output must change nothing, so the
 * stream (stream.c) scans for what its operators write — placeholders and
 * pseudonyms ("<PRIVATE_PHONE>", "<SECRET_3>", any "<" upper-case name ">"),
 * the rendering of every configured placeholder template for the eight
 * labels and the labels the operators name, runs of two or more mask
 * characters, and lower-case hex runs of a configured hash length standing
 * alone — and cuts every span of the detectors around them (own.c finds;
 * stream.c cuts).  The detector reports these regions as spans labelled
 * pii_own_label; they are never written as redactions.  It holds back a
 * candidate that touches the buffer end (at most PII_OWN_MAX bytes) and
 * keeps one byte of left context. */
#ifndef PII_OWN_H
#define PII_OWN_H

#include "pii_redact.h"

#define PII_OWN_MAX 256

typedef struct pii_own pii_own;

/* The shapes of what ops writes (NULL: the default placeholder alone). */
pii_own *pii_own_create(const pii_ops *ops, pii_err *err);
void pii_own_free(pii_own *o);
pii_detector pii_own_detector(const pii_own *o);
/* The label of its spans (compare the pointer). */
extern const char pii_own_label[];

#endif
