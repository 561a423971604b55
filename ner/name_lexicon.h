/* name_lexicon.h — the given-name recognizer (rule `name_lexicon`,
 * docs/NER.md; lists in ner/data, lexicon.c): a given name of the list,
 * one space and a family name ("Tom Baker", "Mary Jo Foley", "Mary J.
 * Blige"), unless an organisation's head word follows ("Baxter Moore
 * Solicitors").  Internal to ner/. */
#ifndef PII_NER_NAME_LEXICON_H
#define PII_NER_NAME_LEXICON_H

#include "ner_internal.h"

/* A lexicon name starting with the word [ws, we): 1, *le (its end) and
 * *lwe (the end of its last word, past a possessive); 0 when none; -1 when
 * more bytes are needed. */
int pii_ner_lexicon_match(const ner_text *tx, uint64_t ws, uint64_t we, uint64_t lim, int eod,
                          uint64_t *le, uint64_t *lwe);

#endif
