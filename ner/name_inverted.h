/* name_inverted.h — the inverted-name recognizer (rule `name_inverted`,
 * docs/NER.md): "Family, Given" ("Garcia, Maria"; "Wei, Li" on a line of
 * its own), never a list of places or names.  Internal to ner/. */
#ifndef PII_NER_NAME_INVERTED_H
#define PII_NER_NAME_INVERTED_H

#include "ner_internal.h"

/* A name written "Family, Given" starting at the word [ws, we); line: the
 * word starts the text or a line.  1 and *ge (the given name's end), 0
 * when none, -1 when more bytes are needed. */
int pii_ner_inverted_match(const ner_text *tx, uint64_t ws, uint64_t we, uint64_t lim, int eod,
                           int line, uint64_t *ge);

#endif
