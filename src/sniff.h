/* sniff.h — which inputs are binary, decided the same way in single-file
 * mode (src/main.c) and batch mode (src/batch.c).
 *
 * Contract: an input is binary when its first PII_SNIFF_BYTES bytes (or
 * all of it, when shorter) hold a NUL byte.  Binary files are skipped with
 * the notice PII_SNIFF_SKIP_REASON unless --binary; standard input is never
 * sniffed (a stream is redacted whatever it starts with).  Callers first
 * run the wide-text guard (pii_wide_feed) over the same bytes: UTF-16 and
 * UTF-32 text holds NULs but is refused as such (exit 3), not skipped as
 * binary.  Pure function, thread-safe. */
#ifndef PII_SNIFF_H
#define PII_SNIFF_H

#include <stddef.h>
#include <stdint.h>

#define PII_SNIFF_BYTES 8000u
#define PII_SNIFF_SKIP_REASON "binary file (--binary redacts it)"

/* Non-zero when p[0..n) — the first bytes of an input, at least
 * PII_SNIFF_BYTES of them unless the input is shorter — look binary. */
int pii_sniff_binary(const uint8_t *p, size_t n);

#endif
