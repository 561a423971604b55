/* output.h — the CLI's sinks: text, json, jsonl and --check. */
#ifndef PII_OUTPUT_H
#define PII_OUTPUT_H

#include <stdint.h>
#include <stdio.h>

#include "opts.h"
#include "pii_redact.h"

typedef struct pii_out pii_out;

pii_out *pii_out_create(FILE *fp, const pii_opts *o);
void pii_out_free(pii_out *w);
/* Names the current input in jsonl/json output (NULL for stdin). */
void pii_out_set_file(pii_out *w, const char *name);
/* The sink to hand to pii_stream_create. */
pii_sink pii_out_sink(pii_out *w);
/* Number of spans seen so far. */
uint64_t pii_out_found(const pii_out *w);

#endif
