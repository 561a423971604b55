/* piiredact.h — libpiiredact: include this one.
 *
 * Two layers.  The easy layer below (api/easy.c) is what most programs
 * need: one opaque pii_easy handle built from a small options struct or from
 * an option string in the command's own syntax, then one call per buffer
 * (pii_easy_redact_buffer) or a feed/finish stream with a write callback.
 *
 * The stable API is this header without PII_STATIC_LINKING_ONLY: the easy
 * layer, errors (pii_error.h) and the core types (pii_core.h: pii_span,
 * labels); it is all that libpiiredact.so exports (mk/libpiiredact.map,
 * version node PIIREDACT_2), and it only grows within one SONAME.
 *
 * The advanced API, for static linking only (libpiiredact.a; as zstd's
 * ZSTD_STATIC_LINKING_ONLY): define PII_STATIC_LINKING_ONLY before including
 * this header to get the full layers, bottom up: pii_rt.h (weight files,
 * kernels, threads), pii_tok.h (o200k tokenizer), pii_model.h (the Privacy
 * Filter encoder), pii_default_model.h (the model compiled in), pii_ner.h
 * (decoding and the model detector), pii_redact.h (spans, rules, operators,
 * the streaming redactor), pii_records.h (JSON Lines / CSV field modes).
 * They may change with any release; the shared library does not export them.
 *
 * Contract of the easy layer (docs/LIBRARY.md has the whole of it):
 *  - Errors: every call that can fail returns a pii_err (or NULL plus an
 *    out-parameter pii_err); pii_strerror() names it; the create calls also
 *    write one line of detail into the caller's msg buffer.  Nothing is
 *    ever printed and the process is never exited.
 *  - Ownership: the handle owns everything it loaded; the output text and
 *    span arrays belong to the caller, who releases them with pii_free().
 *    Span labels and rule ids point into the handle: valid until
 *    pii_easy_free().
 *  - Threads: a handle is immutable once created; any number of threads may
 *    call pii_easy_redact_buffer and open streams on one handle at once
 *    (pseudonym numbering is shared by all of them, under a lock).  A stream
 *    belongs to one thread at a time.
 *  - Output equals `pii-redact OPTIONS` on the same bytes: the same
 *    detectors, merging, label selection and operators.
 */
#ifndef PIIREDACT_H
#define PIIREDACT_H
#include <stddef.h>
#include <stdint.h>

#include "pii_core.h"
#include "pii_error.h"
#ifdef PII_STATIC_LINKING_ONLY
#include "pii_config.h"
#include "pii_rt.h"
#include "pii_tok.h"
#include "pii_model.h"
#include "pii_default_model.h"
#include "pii_ner.h"
#include "pii_names.h"
#include "pii_redact.h"
#include "pii_records.h"
#include "pii_custom.h"
#include "pii_pseudo.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API of libpiiredact.so */
#endif

/* The library's version, "MAJOR.MINOR.PATCH"; the soname carries MAJOR. */
const char *pii_version(void);

/* ---- options --------------------------------------------------------- */

/* What the redactor runs.  Always start from pii_easy_options_init(): it
 * sets `size` (how the library knows which fields a caller compiled
 * against; fields are only ever added at the end) and the defaults.
 * Strings and arrays are read during pii_easy_create only. */
typedef struct pii_easy_options {
    size_t size;                        /* sizeof(pii_easy_options), set by _init            */
    const char *model;                  /* NULL or "builtin": the model compiled in (none
                                           built in: the rule tier alone); else a model
                                           directory or file, as -m takes it                */
    int use_model;                      /* 1 (default); 0: rule tier only (--rules-only)    */
    int use_rules;                      /* 1 (default); 0: model only (--model-only)        */
    const char *labels;                 /* comma list: redact only these (--labels)         */
    const char *exclude_labels;         /* comma list (--exclude-labels)     */
    const char *const *operators;       /* "mask", "private_email=hash:12" …  */
    size_t n_operators;                 /* as repeated --operator            */
    const char *const *thresholds;      /* "0.5", "private_person=0.7" …     */
    size_t n_thresholds;                /* as repeated --threshold           */
    int threads;                        /* forward-pass threads; 0: all cores */
    const char *allow_file, *deny_file; /* --allow, --deny                   */
    const void *key;                    /* the hash key, 16..4096 bytes, copied */
    size_t key_len;
    int isa; /* kernel path: -1 (default) the best the CPU has, else a pii_rt_isa
                not above it (what the command's $PII_ISA does; the library reads
                no environment)                                                   */
} pii_easy_options;

void pii_easy_options_init(pii_easy_options *o);

/* ---- configuration ---------------------------------------------------- */

/* Every option that shapes the redactor, as key/value pairs (curl-style):
 * the keys are pii-redact's long options without "--" (the table:
 * pii_config_option; docs/LIBRARY.md lists them).  A configuration is a
 * plain value: set it, build handles from it (pii_easy_create_config), free
 * it; building does not keep it.  Nothing here prints or reads the
 * environment. */
typedef struct pii_config pii_config;

pii_config *pii_config_create(void); /* NULL: out of memory */
void pii_config_free(pii_config *c); /* NULL: no-op */

/* Sets `key` to `value` (copied).  A switch ("rules-only") takes NULL, "",
 * "1", "true" or "yes" for on and "0", "false" or "no" for off; a
 * repeatable key ("operator", "threshold", "bias") appends, and NULL
 * empties it; another key's NULL restores its default.  Values are checked
 * here as far as they can be without a model (numbers, modes); labels,
 * files and the model when a handle is built.  PII_EINVAL (unknown key, bad
 * value) with one line in pii_config_message(c). */
pii_err pii_config_set(pii_config *c, const char *key, const char *value);
/* The hash operator's key as bytes (16..4096, copied; len 0: none), instead
 * of a "key-file". */
pii_err pii_config_set_key(pii_config *c, const void *key, size_t len);
/* Sets every option of a string in pii-redact's syntax: "--key value",
 * "--key=value", "-m PATH", switches "--rules-only".  Words are split as a
 * POSIX shell does without expansions: blanks separate, '...' and "..."
 * quote (a backslash escapes " \ $ ` inside "..."), a backslash outside
 * quotes escapes the next byte.  Stops at the first error (PII_EINVAL,
 * message in pii_config_message); options before it stay set. */
pii_err pii_config_parse(pii_config *c, const char *args);
/* Why the last pii_config_set or pii_config_parse on c failed, one line
 * ("" after a success); valid until the next call on c. */
const char *pii_config_message(const pii_config *c);

/* One entry of the option table. */
typedef struct pii_config_info {
    const char *key;  /* "window"                                          */
    const char *arg;  /* the value's name ("N"); NULL: a switch           */
    const char *def;  /* what unset means ("8192")                         */
    const char *help; /* one line                                          */
    int repeatable;   /* 1: each set appends                              */
    int hidden;       /* 1: a library key the command sets from its
                         environment, no option of pii-redact's           */
} pii_config_info;
/* Entry i of the table, i = 0, 1, ...; NULL past the last. */
const pii_config_info *pii_config_option(size_t i);

/* ---- the handle ------------------------------------------------------ */

typedef struct pii_easy pii_easy;

/* Builds a redactor.  NULL on failure with *err set (err may be NULL) and
 * one line of detail in msg[0..msgcap) (msg may be NULL).  Loading the
 * built-in model takes a few milliseconds; reuse the handle. */
pii_easy *pii_easy_create(const pii_easy_options *o, pii_err *err, char *msg, size_t msgcap);

/* The same from an option string in pii-redact's syntax (pii_config_parse:
 * every option of the table, shell-like quoting); --allow-file and
 * --deny-file are kept as names of --allow and --deny.  Unknown words are
 * PII_EINVAL. */
pii_easy *pii_easy_create_args(const char *args, pii_err *err, char *msg, size_t msgcap);

/* The same from a configuration: the one builder the command uses too, so
 * the handle gives `pii-redact OPTIONS`'s bytes for the same options. */
pii_easy *pii_easy_create_config(const pii_config *c, pii_err *err, char *msg, size_t msgcap);

void pii_easy_free(pii_easy *h); /* NULL: no-op */

/* Redacts in[0..len) as one document.  On success *out is a malloc'd copy
 * of the redacted text plus a NUL byte not counted in *out_len, and *spans
 * (when spans is not NULL) the *n_spans final spans in document order, byte
 * offsets into `in`.  spans and n_spans may both be NULL.  On failure the
 * outputs are NULL/0.  Release both with pii_free(). */
pii_err pii_easy_redact_buffer(const pii_easy *h, const void *in, size_t len, char **out,
                               size_t *out_len, pii_span **spans, size_t *n_spans);

/* Releases what pii_easy_redact_buffer returned.  NULL: no-op. */
void pii_free(void *p);

/* ---- streaming ------------------------------------------------------- */

/* Receives redacted bytes in order as soon as they are decided.  A
 * non-PII_OK return stops the stream (it fails closed: nothing more is
 * written and every later call returns that error). */
typedef pii_err (*pii_easy_write_fn)(void *ud, const void *data, size_t len);

typedef struct pii_easy_stream pii_easy_stream;

/* A stream over h (h must outlive it).  Memory is bounded whatever the
 * input size; the output is byte-identical to pii_easy_redact_buffer on
 * the concatenation of the fed chunks, however they are cut. */
pii_easy_stream *pii_easy_stream_open(const pii_easy *h, pii_easy_write_fn write, void *ud,
                                      pii_err *err);
pii_err pii_easy_stream_feed(pii_easy_stream *s, const void *data, size_t len);
/* Ends the document: writes the rest.  Feeding again starts a new one. */
pii_err pii_easy_stream_finish(pii_easy_stream *s);
void pii_easy_stream_free(pii_easy_stream *s); /* NULL: no-op */

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif

#endif
