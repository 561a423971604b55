/* pii_read.h — the one bounded reader: the whole of a file descriptor read
 * into memory, for the command's small inputs (maps, staged blobs, corpora,
 * token lists).
 *
 * Contract: pii_read_all reads fd to its end (EINTR retried) into a
 * malloc'd buffer with a NUL after the bytes (*out, *len: the bytes).  At
 * most max bytes: an input longer than that is PII_ETOOBIG; a failed read
 * is PII_EIO with errno as the read left it; no memory is PII_ENOMEM.  On
 * an error nothing is returned (*out untouched).  Does not close fd.
 * Thread-safe.  (core/read.c) */
#ifndef PII_READ_H
#define PII_READ_H

#include <stddef.h>

#include "pii_error.h"

#ifdef __cplusplus
extern "C" {
#endif

pii_err pii_read_all(int fd, size_t max, char **out, size_t *len);

#ifdef __cplusplus
}
#endif

#endif
