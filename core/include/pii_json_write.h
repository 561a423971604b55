/* pii_json_write.h — the one JSON string writer: bytes escaped into the
 * body of a JSON string, written through a callback in runs (no
 * allocation).  Every JSON text the command writes (--format json/jsonl,
 * the --report files, --check's findings) escapes with it.
 *
 * Contract: '"' and '\\' are escaped with a backslash; bytes below 0x20 as
 * \u00XX (lower-case hex), or \n, \r, \t with PII_JSONW_SHORT; 0x7f as
 * \u007f with PII_JSONW_DEL; each byte that is not part of a well-formed
 * UTF-8 sequence (pii_utf8_seq) as \ufffd; everything else as it is.  With
 * `final` == 0 a sequence cut by the end of the bytes is left unwritten and
 * *rest says how many bytes that is (the caller passes them again with
 * what follows); with `final` it is escaped as invalid bytes.  Returns the
 * first error of `put`.  Thread-safe: a pure function.  (core/json_write.c) */
#ifndef PII_JSON_WRITE_H
#define PII_JSON_WRITE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pii_error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PII_JSONW_SHORT 1u /* \n, \r, \t as short escapes */
#define PII_JSONW_DEL 2u   /* 0x7f escaped too */

typedef pii_err (*pii_jsonw_put)(void *ud, const char *p, size_t n);

pii_err pii_json_escape(const uint8_t *p, size_t n, unsigned flags, int final, size_t *rest,
                        pii_jsonw_put put, void *ud);
/* The JSON string of [p, p+n) (quotes and escaped body, final) written to
 * f.  PII_EWRITE when a write fell short. */
pii_err pii_json_fput(FILE *f, const void *p, size_t n, unsigned flags);

#ifdef __cplusplus
}
#endif

#endif
