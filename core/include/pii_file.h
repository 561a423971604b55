/* pii_file.h — the loaders' one file reader: the rest of an open stream
 * read into memory, up to a bound.  The callers open the file (each its own
 * way: a plain fopen, or open with O_NONBLOCK and a regular-file check),
 * close it and word the message.  Not part of the installed API (the
 * Makefile's NOINST_HDR). */
#ifndef PII_FILE_H
#define PII_FILE_H

#include <stddef.h>
#include <stdio.h>

#include "pii_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reads f to its end into a new buffer, NUL-terminated (*len does not count
 * the NUL; the caller frees *out).  PII_ETOOBIG when it holds max bytes or
 * more, PII_EIO on a read error, PII_ENOMEM; *out is NULL after an error.
 * Does not close f. */
pii_err pii_file_read_all(FILE *f, size_t max, char **out, size_t *len);

#ifdef __cplusplus
}
#endif

#endif
