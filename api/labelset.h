/* labelset.h — the labels a run can produce, and the names users give them.
 *
 * A pii_labelset holds the canonical labels of the active detectors (the
 * model's categories, the rule tier's labels, the deny list's labels), each
 * with the detector that produces it.  pii_labelset_resolve turns a name
 * given on the command line (--labels, --exclude-labels, --operator
 * LABEL=..., --threshold LABEL=...) into a canonical label.  Accepted
 * forms, and nothing else (documented in pii-redact(1)):
 *   - the label itself:                 private_email
 *   - its placeholder name:             PRIVATE_EMAIL
 *   - a short alias (pii_labelset_aliases): email, phone, person, name,
 *     address, date, url, account
 * A name that resolves to a known category the active detectors never
 * produce (private_person with --rules-only) is refused as well: selecting
 * it would silently do nothing.
 *
 * Errors are returned with a message (never printed here): "unknown label
 * 'X'" plus, when one is close (edit distance), a suggestion.
 * Not thread-safe while being filled; read-only use may be shared. */
#ifndef PII_LABELSET_H
#define PII_LABELSET_H

#include <stddef.h>

typedef struct pii_labelset pii_labelset;

pii_labelset *pii_labelset_create(void);
void pii_labelset_free(pii_labelset *ls);
/* Adds `label` (copied) produced by detector `source` ("model", "rules",
 * "deny"; static).  Duplicates merge their sources.  -1 when out of memory. */
int pii_labelset_add(pii_labelset *ls, const char *label, const char *source);
size_t pii_labelset_count(const pii_labelset *ls);
const char *pii_labelset_label(const pii_labelset *ls, size_t i);

/* NULL-terminated {alias, label} pairs. */
extern const char *const pii_labelset_aliases[][2];

/* Resolves `name` (len bytes, need not be NUL-terminated).  Returns the
 * canonical label (owned by ls), or NULL with a one-line reason in
 * msg[0..msgcap) and, when a close name exists, the suggestion in
 * hint[0..hintcap) (else hint is ""). */
const char *pii_labelset_resolve(const pii_labelset *ls, const char *name, size_t len, char *msg,
                                 size_t msgcap, char *hint, size_t hintcap);
/* Writes "a, b, c" (the canonical labels, sorted) to buf. */
void pii_labelset_list(const pii_labelset *ls, char *buf, size_t cap);

#endif
