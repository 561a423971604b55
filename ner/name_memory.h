/* name_memory.h — the name memory's table (rule `name_memory`,
 * docs/NER.md "Name memory"): the words the document's multi-word person
 * spans taught.  Its reset, free, offer, occurrences and lone functions
 * are declared in ner_internal.h (the engine calls them); these are for
 * the scan (names.c).  Internal to ner/. */
#ifndef PII_NER_NAME_MEMORY_H
#define PII_NER_NAME_MEMORY_H

#include "ner_internal.h"

/* Learns the offered spans that end at or before lim, in (end, start)
 * order: the order of the document, however it was fed. */
pii_err pii_ner_names_learn(ner_names *m, uint64_t lim);
/* The taught word that [ws, we) is, possibly with a possessive "'s" (then
 * *ne is the name's end), or -1; -1 too when an '_' joins it to an
 * identifier ("GCLOUD_WIDE_FLAG"). */
int pii_ner_names_match(const ner_names *m, const ner_text *tx, uint64_t ws, uint64_t we,
                        uint64_t *ne);

#endif
