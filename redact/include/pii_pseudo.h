/* pii_pseudo.h — reversible pseudonyms: a placeholder map, restore, and the
 * sealed (encrypted) map file (redact/pseudo.c, redact/seal.c).
 *
 * A pii_pseudo is the memory of one document or one session: each distinct
 * value of a label gets the next number of that label, "<PRIVATE_PERSON_1>"
 * (pii_label_upper of the label between "<" and ">", "_" and the number),
 * and keeps it.  For private_person a lone word equal to the last word of
 * a name of two or more words seen before in the map gets that name's
 * placeholder ("Jane Doe ... Doe" → "<PRIVATE_PERSON_1> ... <PRIVATE_PERSON_1>");
 * the map keeps the first value (the full name), which restore puts back.
 * Unlike the pseudonym operator (pii_ops, digests only), the map holds the
 * original values in memory: it is what makes a redaction reversible, so
 * it is the caller's to guard (pii_pseudo_seal for a file).
 *
 * Restore: every "<NAME>" in a text whose NAME, compared with case
 * ignored, blanks around it dropped and every run of blanks, '_' and '-'
 * read as one '_', equals a placeholder of the map is replaced by its
 * value: "<private_person_1>", "< PRIVATE PERSON 1 >" and
 * "<Private-Person-1>" all restore.  Everything else is copied unchanged.
 *
 * The map file: the map as JSON, {"version":1,"entries":[{"placeholder":
 * "<PRIVATE_PERSON_1>","label":"private_person","value":"Jane Doe"},...]},
 * optionally sealed with a key (the hash operator's, 16..4096 bytes):
 *   "PIIMAP1\n" | nonce (16 bytes from getrandom) | ciphertext | tag (32 bytes)
 *   Kenc = HMAC-SHA256(key, "pii-redact map enc v1")
 *   Kmac = HMAC-SHA256(key, "pii-redact map mac v1")
 *   ciphertext = plaintext XOR (HMAC-SHA256(Kenc, nonce || BE64(0)) ||
 *                               HMAC-SHA256(Kenc, nonce || BE64(1)) || ...)
 *   tag = HMAC-SHA256(Kmac, "PIIMAP1\n" || nonce || ciphertext)
 * HMAC-SHA256 as a PRF in counter mode, encrypt-then-MAC with independent
 * keys; opening checks the tag (constant time) before decrypting anything.
 *
 * Threads: a pii_pseudo belongs to one thread at a time (the caller locks a
 * shared one); the seal functions are reentrant. */
#ifndef PII_PSEUDO_H
#define PII_PSEUDO_H

#include <stddef.h>
#include <stdint.h>

#include "pii_error.h"
#include "pii_redact.h"

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API of libpiiredact.so */
#endif

/* Entries a map holds at most; beyond, pii_pseudo_name is PII_ETOOBIG. */
#define PII_PSEUDO_MAX 100000

typedef struct pii_pseudo pii_pseudo;

pii_pseudo *pii_pseudo_create(pii_err *err);
void pii_pseudo_free(pii_pseudo *m); /* NULL: no-op; wipes the values */

/* Appends the placeholder of value v[0..len) of `label` to out, adding the
 * value to the map when it is new. */
pii_err pii_pseudo_name(pii_pseudo *m, const char *label, const uint8_t *v, size_t len,
                        pii_buf *out);

size_t pii_pseudo_count(const pii_pseudo *m);
/* Entry i (in order of first appearance): placeholder and label
 * (NUL-terminated), value bytes.  PII_ERANGE when i is out of range. */
pii_err pii_pseudo_entry(const pii_pseudo *m, size_t i, const char **placeholder,
                         const char **label, const uint8_t **value, size_t *len);

/* Called for each value restore puts back: its label and where it is in
 * what this restore call appended, bytes [start, end).  A non-PII_OK
 * return stops the restore with that error. */
typedef pii_err (*pii_pseudo_hit_fn)(void *ud, const char *label, size_t start, size_t end);

/* Appends text[0..len) to out with the map's placeholders replaced by
 * their values (see "Restore" above); *n (may be NULL) counts the
 * replacements; hit (may be NULL) sees each one. */
pii_err pii_pseudo_restore(const pii_pseudo *m, const uint8_t *text, size_t len, pii_buf *out,
                           size_t *n, pii_pseudo_hit_fn hit, void *ud);

/* The map as JSON (above), appended to out. */
pii_err pii_pseudo_to_json(const pii_pseudo *m, pii_buf *out);
/* Adds the entries of a JSON map (what pii_pseudo_to_json writes) to m;
 * PII_EJSON / PII_EFORMAT when it is not one (m unchanged then). */
pii_err pii_pseudo_load_json(pii_pseudo *m, const uint8_t *p, size_t n);

/* Seals pt[0..n) with key (16..4096 bytes) into out (appended). */
pii_err pii_pseudo_seal(const uint8_t *key, size_t keylen, const uint8_t *pt, size_t n,
                        pii_buf *out);
/* Opens a sealed blob into out (appended): PII_EFORMAT when it is not one
 * or the tag does not match (wrong key, changed bytes); nothing is
 * appended then. */
pii_err pii_pseudo_open(const uint8_t *key, size_t keylen, const uint8_t *blob, size_t n,
                        pii_buf *out);
/* Non-zero when blob starts like a sealed map. */
int pii_pseudo_is_sealed(const uint8_t *blob, size_t n);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif

#endif
