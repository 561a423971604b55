/* pii_custom.h — named custom rules of a project (redact/custom_rules.c).
 *
 * A rule file (the command reads .pii-redact.rules at the repository root,
 * or --rules-file; docs/RULES.md "Custom rules") is INI-like, UTF-8:
 *
 *   # comment (a line starting with '#' or ';'; none at the end of a line)
 *   [employee_id]                     a rule: its id, [A-Za-z0-9_.-]{1,64}
 *   description = ACME staff number   one line for --list-rules (optional)
 *   label = account_number            required, [A-Za-z0-9_.-]{1,64}
 *   regex = \bEMP-[0-9]{6}\b          required, PCRE2 (UTF), to the line end
 *   group = 1                         report only this capture group (0: all)
 *   keywords = staff, employee        one must occur, ASCII case-insensitive,
 *                                     in the span or the `context` bytes
 *                                     before it (optional)
 *   context = 64                      bytes before the span (0-4096, 64)
 *   entropy = 3.0                     minimum Shannon entropy of the span in
 *                                     bits per byte (0-8, default 0)
 *   validator = luhn                  none (default), luhn, card or iban
 *   allow = EMP-000000                a value never reported (repeatable;
 *   allow = re:EMP-9+                 re: the whole value matches REGEX)
 *   paths = *.log, src/x*.c           only in inputs named so (fnmatch, '*'
 *                                     crosses '/'; a glob without '/' also
 *                                     matches the base name; stdin never)
 *
 * Keys and values are trimmed; a value is taken literally to the end of its
 * line.  A key twice (but allow), an unknown key, a missing label or regex, a
 * duplicate id, a bad value or a regex that does not compile is an error:
 * PII_EFORMAT or PII_EREGEX, with the 1-based line in *line (0: the file as
 * a whole) and a message in msg.  At most 256 rules, 1 MiB.
 *
 * Matching: each rule searches the document on its own (PCRE2 leftmost-
 * first, resuming after each match, as the built-in rules do), so rules
 * never hide one another; a validator rejection backtracks inside the
 * regex.  The span (or its group) is then dropped when it is allowed, below
 * the entropy, or has no keyword in reach.  Spans: source PII_SRC_RULE,
 * score 1, rule = the rule's id, label = its label.  Each result is a pure
 * function of the document and its input name (chunking never changes
 * it): `paths` act through the redactor's span filter, so the caller
 * installs pii_custom_keep_span (pii_redactor_set_span_filter, with the
 * pii_custom as ud) and names each input (pii_stream_set_input_name).
 * Without the filter `paths` are not applied (the rule reports in every
 * input); with it, an unnamed input matches no paths.  Streaming: the
 * detector holds back what each rule's regex holds (as the rule tier) plus
 * its `context` bytes.  Immutable after loading; share it freely. */
#ifndef PII_CUSTOM_H
#define PII_CUSTOM_H

#include <stddef.h>

#include "pii_redact.h"

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API of libpiiredact.so */
#endif

typedef struct pii_custom pii_custom;

#define PII_CUSTOM_MAX_RULES 256

pii_custom *pii_custom_load(const char *path, pii_err *err, size_t *line, char *msg, size_t msgcap);
/* The same from text in memory. */
pii_custom *pii_custom_parse(const char *text, size_t len, pii_err *err, size_t *line, char *msg,
                             size_t msgcap);
void pii_custom_free(pii_custom *c);
size_t pii_custom_count(const pii_custom *c);
/* id, label and description (about) of rule i, NULL if out of range. */
const pii_rule_info *pii_custom_info(const pii_custom *c, size_t i);
pii_detector pii_custom_detector(const pii_custom *c);
/* Non-zero when some rule has `paths`. */
int pii_custom_has_paths(const pii_custom *c);
/* A pii_span_filter (ud: the pii_custom): drops a span of a rule whose
 * paths do not match input; keeps every other span. */
int pii_custom_keep_span(void *ud, const pii_span *sp, const char *input);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif

#endif
