/* honorific.h — the honorific recognizer (rule `honorific`, docs/NER.md):
 * an honorific or title of office, rank or nobility and a family name
 * ("Mr. Temple", "Senator Okafor", "Dr. Priya Raman", "MR. Haddad").
 * Internal to ner/; words as name_words.h reads them. */
#ifndef PII_NER_HONORIFIC_H
#define PII_NER_HONORIFIC_H

#include "ner_internal.h"

/* Is w[0..n) an honorific or title as written ("Mr", "Senator", "Lord";
 * not "General" or royalty)? */
int pii_ner_honorific_word(const uint8_t *w, size_t n);
/* An honorific at the word [ws, we), an optional '.', one space and a
 * family name (a given name of the lexicon takes its pair): 1, *ns (the
 * name's start), *le (its end) and *lwe (its last word's end); 0 when
 * none; -1 when more bytes are needed. */
int pii_ner_honorific_match(const ner_text *tx, uint64_t ws, uint64_t we, uint64_t lim, int eod,
                            uint64_t *ns, uint64_t *le, uint64_t *lwe);

#endif
