/* pii_names.h — the name recognizers that need no model, as a detector of
 * their own (docs/NER.md, "Without the model").
 *
 * The given-name lexicon (rule `name_lexicon`, with `name_inverted`), the
 * honorific (`honorific`), the citation (`citation`) and the name memory
 * (`name_memory`, taught by the spans of the others) read words and word
 * lists only, so they also run where no model does (the CLI's
 * --rules-only).  Each span is a private_person span with its rule id,
 * source PII_SRC_RULE and score 0.75 (the memory: its teacher's); with the
 * non-person filter on, a span that names no person is dropped and the
 * words beside a name are cut off, as in the model tier.  The spans are
 * those the model tier's recognizers add for the same document, whatever
 * the feed's chunking.  Streaming: holds back the open word or name, and
 * with the name memory its 4,104-byte reach back. */
#ifndef PII_NAMES_PUBLIC_H
#define PII_NAMES_PUBLIC_H

#include "pii_core.h"

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

typedef struct pii_names pii_names;

/* The parts that run: PII_NAMES_* bits (PAIRS, TITLES and CITATIONS have
 * the values of pii_ner.h's PII_NER_LEX_*). */
#define PII_NAMES_PAIRS 1u     /* name_lexicon, name_inverted */
#define PII_NAMES_TITLES 2u    /* honorific */
#define PII_NAMES_CITATIONS 4u /* citation */
#define PII_NAMES_MEMORY 8u    /* name_memory */
#define PII_NAMES_FILTER 16u   /* the non-person filter on the spans */
#define PII_NAMES_ALL 31u

/* An immutable detector configuration (shared by streams and threads).
 * NULL with PII_EINVAL for unknown bits or no recognizer, PII_ENOMEM. */
pii_names *pii_names_create(unsigned parts, pii_err *err);
void pii_names_free(pii_names *n);
unsigned pii_names_parts(const pii_names *n);
/* The label of its spans: "private_person". */
const char *pii_names_label(void);
pii_detector pii_names_detector(const pii_names *n);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif

#endif
