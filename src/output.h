/* output.h — the CLI's sinks: text, json, jsonl and --check.
 * json holds each document's spans until it ends, capped (output.c: 1 M
 * spans, 64 MiB of --show-values values; beyond, the span sink returns
 * PII_ETOOBIG and the stream fails closed); jsonl holds nothing. */
#ifndef PII_OUTPUT_H
#define PII_OUTPUT_H

#include <stdint.h>
#include <stdio.h>

#include "opts.h"
#include "pii_pseudo.h"
#include "pii_redact.h"

typedef struct pii_out pii_out;

pii_out *pii_out_create(FILE *fp, const pii_opts *o);
void pii_out_free(pii_out *w);
/* --lines: whether the current input is a regular file.  Lines are
 * flushed one by one unless input and output are both regular files (a
 * live input, or a pipe or terminal reading us, gets each line at once). */
void pii_out_set_input(pii_out *w, int input_regular);
/* Names the current input in jsonl/json output (NULL for stdin). */
void pii_out_set_file(pii_out *w, const char *name);
/* jsonl: adds "record" and "field" to the next span objects (batch records
 * mode; record 0 turns them off).  field is borrowed until the next call. */
void pii_out_set_record(pii_out *w, uint64_t record, const char *field);
/* --map-out: --format json adds the map so far to each document's object,
 * "mapping": {"version":1,"entries":[...]} (pii_pseudo.h). */
void pii_out_set_map(pii_out *w, const pii_pseudo *m);
/* The sink to hand to pii_stream_create. */
pii_sink pii_out_sink(pii_out *w);
/* Number of spans seen so far. */
uint64_t pii_out_found(const pii_out *w);

#endif
