/* citation.h — the citation recognizer (rule `citation`, docs/NER.md): the
 * authors of an author-year citation ("(Porte, 2012)", "(Marsden &
 * Mackey, 2014; Makel et al., 2012)") and a name before "et al".
 * Internal to ner/. */
#ifndef PII_NER_CITATION_H
#define PII_NER_CITATION_H

#include "ner_internal.h"

#define NER_CITE_AUTHORS 12 /* authors one citation item may name */

/* An author's family name at ws: a capitalised teachable word with a
 * lower-case letter, no month or season.  1 and *we, 0, or -1 when more
 * bytes are needed. */
int pii_ner_citation_name(const ner_text *tx, uint64_t ws, uint64_t lim, int eod, uint64_t *we);
/* A citation item starting at ws (after "(" or "; "): its authors and a
 * year.  1 and the names in span[0..*ns), 0 when none, -1 when more bytes
 * are needed. */
int pii_ner_citation_item(const ner_text *tx, uint64_t ws, uint64_t lim, int eod,
                          uint64_t span[][2], int *ns);

#endif
