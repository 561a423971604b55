/* batch.h — batch mode of the main command: many files, trees and
 * structured records, a worker pool, atomic outputs, a report.
 *
 * Batch mode is on when any of -r, --out-dir, --in-place, --suffix,
 * --report, --jsonl-field or --csv-column is given (see docs/BATCH.md).
 * The configured redactor (model and rules, loaded once by
 * pii_pipeline_build) is shared read-only by every worker thread; each
 * worker owns one pii_stream (or pii_rec_stream) that it reuses for every
 * file it takes, so a small file costs only its own system calls.
 */
#ifndef PII_BATCH_H
#define PII_BATCH_H

#include "opts.h"
#include "pipeline.h"

/* Non-zero when the options ask for batch mode. */
int pii_batch_wanted(const pii_opts *o);
/* Checks option combinations before anything is loaded.  Returns -1 when
 * they are fine, else an exit status after printing a usage message. */
int pii_batch_validate(const pii_opts *o);
/* Adjusts defaults for batch mode before the pipeline is built: with
 * several workers and no --threads, each model forward pass runs on its
 * worker's own thread (--threads 1) instead of queueing for one shared
 * pool. */
void pii_batch_tune(pii_opts *o);
/* Runs the batch; returns the exit status. */
int pii_batch_run(const pii_opts *o, pii_pipeline *p);

#endif
