/* pipeline.h — builds the configured redactor from parsed options.
 * Shared by the main command, eval and batch modes. */
#ifndef PII_PIPELINE_H
#define PII_PIPELINE_H

#include "opts.h"
#include "pii_config.h"
#include "pii_custom.h"
#include "pii_model.h"
#include "pii_names.h"
#include "pii_ner.h"
#include "pii_pseudo.h"
#include "pii_redact.h"
#include "pii_tok.h"

/* The redactor pii_redactor_build made (b owns it) and, for the command's
 * readers, its parts under their names. */
typedef struct pii_pipeline {
    pii_build b;
    pii_model *model; /* NULL: rule tier only */
    pii_tok *tok;     /* the model's own tokenizer.json; NULL: built-in o200k */
    pii_ner *ner;
    pii_rules *rules;
    pii_names *names;        /* the name recognizers without the model; NULL with it */
    pii_custom *custom;      /* named custom rules (--rules-file, .pii-redact.rules) */
    const char *custom_path; /* where they came from */
    pii_deny *deny;
    pii_allow *allow;
    pii_ops *ops;
    pii_redactor *red;
    uint8_t *key;    /* --key-file / $PII_REDACT_KEY, or NULL: the hash     */
    size_t keylen;   /* operator's key and --check's fingerprint key (issue 42
                        M5); wiped by pii_pipeline_free */
    pii_pseudo *map; /* --map-out: the reversible pseudonyms' map, else NULL */
} pii_pipeline;

/* Returns -1 on success, else an exit status after printing a message.
 * The options become the library's configuration keys (api/config.def,
 * checked by pii_config_set) and the library's one builder,
 * pii_redactor_build, makes the redactor; its notes are printed unless
 * --quiet, its warnings and errors always, each line "pii-redact: ...".
 * Every label named by --labels, --exclude-labels, --operator LABEL=OP and
 * --threshold LABEL=X must resolve (labelset.h) against the labels the
 * active detectors report; otherwise the status is 2 (usage), with a
 * "did you mean" line when a close name exists.
 * The model tier runs unless --rules-only: the model of -m, else the one
 * compiled in (when the build has none, the rule tier runs alone and a
 * notice says so unless --quiet).  Custom rules (pii_custom.h) come from
 * --rules-file, else (o->rules_discover) from .pii-redact.rules at the root
 * of the git repository holding the current directory; not with
 * --model-only or --no-rules-file.  Their errors name the file and line. */
int pii_pipeline_build(const pii_opts *o, pii_pipeline *p);
/* --map-out: writes p->map to o->map_out (mode 0600, replaced whole),
 * sealed with the hash key when there is one (pii_pseudo.h), else plain
 * JSON after a warning.  Returns -1, or an exit status after a message. */
int pii_pipeline_write_map(const pii_opts *o, const pii_pipeline *p);
void pii_pipeline_free(pii_pipeline *p);

/* The hash key as the command takes it: --key-file FILE (a regular file
 * only its owner can read; a trailing newline is not part of it), else
 * $PII_REDACT_KEY; 16..4096 bytes, a warning below 32.  Returns -1 with
 * the key in key[0..*n) (*n = 0: none given), else an exit status after a
 * message.  The caller wipes key after use. */
#define PII_CLI_KEY_BUF PII_KEY_BUF
int pii_cli_load_key(const char *path, uint8_t key[PII_CLI_KEY_BUF], size_t *n);

/* Prints "pii-redact: WHAT: message" to stderr (never input text). */
void pii_cli_error(const char *what, pii_err e);

#endif
