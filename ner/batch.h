/* batch.h — whole documents through shared forward passes (batch.c; not
 * public: pii_ner_detect, pii_ner_detect_batch and pii_ner_analyze are
 * its public face in pii_ner.h, the detector's lookahead its other user).
 *
 * Documents are started in order while a pack has room, their windows
 * queued on one ner_run and run in full packs (windows.h), and each
 * document is finished, in order, once all its windows are done: the
 * spans are the same as pii_ner_detect's per document, whatever the
 * packing. */
#ifndef PII_NER_BATCH_H
#define PII_NER_BATCH_H

#include "windows.h"

/* Documents docs[0..ndocs) (lens[i] bytes each) on the run r, whose
 * context and buffers are reused and left grown, its queue empty; out[i]
 * receives document i's spans (appended).  rec: pii_ner_analyze's record
 * of every token, row and label (one document), or NULL. */
pii_err pii_ner_batch_run(const pii_ner *n, ner_run *r, const uint8_t *const *docs,
                          const size_t *lens, size_t ndocs, pii_spanvec *out, pii_ner_result *rec);

#endif
