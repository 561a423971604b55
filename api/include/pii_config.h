/* pii_config.h — the redactor's configuration and its one builder
 * (advanced API: static linking only; piiredact.h declares the stable part,
 * pii_config_create/set/parse/free and pii_easy_create_config).
 *
 * A pii_config holds the redactor-shaping options of pii-redact (the table
 * api/config.def: key, value name, kind, default, help) as
 * key/value pairs; pii_redactor_build turns it into a ready redactor — the
 * command (src/pipeline.c) and the easy layer (api/easy.c) both call it, so
 * the same options give the same bytes by construction.  Nothing here
 * prints or reads the environment; files named by the options (model,
 * key, allow/deny lists, custom rules, calibration) are read while
 * building. */
#ifndef PII_CONFIG_H
#define PII_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "pii_custom.h"
#include "pii_error.h"
#include "pii_model.h"
#include "pii_names.h"
#include "pii_ner.h"
#include "pii_redact.h"
#include "pii_tok.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pii_config pii_config;

/* The kinds of api/config.def's entries. */
enum { PII_CFG_SWITCH = 1, PII_CFG_VALUE = 2, PII_CFG_LIST = 4, PII_CFG_HIDDEN = 8 };

/* The value of a key as set (the last one of a CFG_LIST: see
 * pii_config_list); a switch gives "1" when on; NULL: unset. */
const char *pii_config_get(const pii_config *c, const char *key);
/* The values of a CFG_LIST key in order; *n their count. */
const char *const *pii_config_list(const pii_config *c, const char *key, size_t *n);

/* The hash key as bytes, as pii_config_set_key, but `name` (copied; NULL:
 * "key") names it in the builder's messages and an empty key is kept (and
 * refused when built) instead of meaning none.  The command passes
 * $PII_REDACT_KEY this way. */
pii_err pii_config_set_key_named(pii_config *c, const void *key, size_t len, const char *name);
/* The key bytes given (NULL: none; *n may be 0 for an empty key) and their
 * name for messages. */
const uint8_t *pii_config_key_bytes(const pii_config *c, size_t *n, const char **name);

/* Hash keys: 16 to 4096 bytes (a short key is found by brute force from
 * one known value), a warning below 32. */
#define PII_KEY_MIN 16
#define PII_KEY_GOOD 32
#define PII_KEY_MAX 4096
#define PII_KEY_BUF (PII_KEY_MAX + 3) /* the maximum, CR LF, one byte to see longer */
/* Reads a key file: a regular file (a FIFO is refused, never waited on)
 * that only its owner may read; a trailing newline is not part of the key.
 * Then checks the length, naming `path` in messages.  PII_OK with
 * key[0..*n); a key below PII_KEY_GOOD bytes writes a warning into
 * warn[0..wcap) (else warn is "").  Errors: PII_EIO (open, read), PII_EINVAL
 * (not a regular file, readable by others, empty, too short or too long),
 * with one line in msg.  The caller wipes key. */
pii_err pii_key_load(const char *path, uint8_t key[PII_KEY_BUF], size_t *n, char *msg, size_t cap,
                     char *warn, size_t wcap);
/* The length checks alone for a key that came from `src` (a name for the
 * messages); the same errors and warning. */
pii_err pii_key_check(const char *src, size_t n, char *msg, size_t cap, char *warn, size_t wcap);

/* What pii_redactor_build made; everything is owned by it (pii_build_free). */
typedef struct pii_build {
    pii_model *model; /* NULL: rule tier only */
    pii_tok *tok;     /* the model's own tokenizer.json; NULL: built-in o200k */
    pii_ner *ner;
    pii_rules *rules;
    pii_names *names;   /* the name recognizers without the model; NULL with it */
    pii_custom *custom; /* the rules-file's custom rules, else NULL */
    pii_deny *deny;
    pii_allow *allow;
    pii_ops *ops;
    pii_redactor *red;
    struct pii_labelset *labels; /* what the active detectors report */
    uint8_t *key;                /* the hash key, or NULL; wiped by pii_build_free */
    size_t keylen;
} pii_build;

/* Where a build failed, for a caller that maps failures to statuses (the
 * command's exit codes): the model (load, weights, tokenizer), a file the
 * options named (allow, deny, rules-file), or elsewhere (pii_err says). */
enum { PII_BUILD_OTHER, PII_BUILD_MODEL, PII_BUILD_FILE };

typedef struct pii_build_diag {
    int stage;          /* PII_BUILD_* of a failure */
    char msg[2048];     /* a failure: lines, each ending in '\n' */
    char notes[1024];   /* notes and warnings a quiet caller may drop */
    char warnings[512]; /* warnings every caller should show (a short key) */
} pii_build_diag;

/* Builds the redactor the options describe into *b (zeroed first): the
 * model tier unless rules-only (the model of `model`, else the one compiled
 * in; none compiled in: the rule tier alone, with a note, unless
 * model-only), weights checked finite, the model's tokenizer.json checked
 * against o200k, thresholds and labels resolved (aliases, "did you mean"),
 * the name heuristics' switches, the window, the operating point; the rule
 * tier unless model-only; without the model tier the name recognizers
 * that need none (pii_names.h) unless model-only or no-name-lexicon; custom rules; deny and allow
 * lists; operators and the hash key; label selection.  PII_OK, or an error with d->msg and d->stage
 * set (b is then freed).  d may not be NULL. */
pii_err pii_redactor_build(const pii_config *c, pii_build *b, pii_build_diag *d);
void pii_build_free(pii_build *b);

#ifdef __cplusplus
}
#endif

#endif
