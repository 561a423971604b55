/* pipeline.h — builds the configured redactor from parsed options.
 * Shared by the main command, eval and batch modes. */
#ifndef PII_PIPELINE_H
#define PII_PIPELINE_H

#include "opts.h"
#include "pii_redact.h"

typedef struct pii_pipeline {
    pii_rules *rules;
    pii_deny *deny;
    pii_allow *allow;
    pii_ops *ops;
    pii_redactor *red;
} pii_pipeline;

/* Returns -1 on success, else an exit status after printing a message. */
int pii_pipeline_build(const pii_opts *o, pii_pipeline *p);
void pii_pipeline_free(pii_pipeline *p);

/* Prints "pii-redact: WHAT: message" to stderr (never input text). */
void pii_cli_error(const char *what, pii_err e);

#endif
