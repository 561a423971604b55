/* sniff.h — which inputs are binary, decided the same way in single-file
 * mode (src/main.c) and batch mode (src/batch.c).
 *
 * Contract: an input is binary when its first PII_SNIFF_BYTES bytes (or
 * all of it, when shorter) hold a NUL byte AND a byte that text does not
 * hold: a byte that is not part of a UTF-8 character (a sequence cut by
 * the end of those bytes excepted), or a C0 control other than NUL, BS,
 * TAB, LF, VT, FF, CR and ESC, or DEL.  So NUL runs are text (issue 42 H5):
 * a log truncated by logrotate's copytruncate starts with NULs, NUL-separated
 * records (find -print0) are text, and both are redacted; a PNG, an ELF or a
 * gzip file is binary.  What happens to a binary input (batch.c, main.c):
 * walked in a tree, it is skipped and counted, not an error; named on the
 * command line, it fails with exit 3 (PII_SNIFF_NAMED_REASON) — a file the
 * user named is never skipped; with --binary it is redacted as bytes.
 * Standard input is never sniffed (a stream is redacted whatever it starts
 * with).  Callers first run the wide-text guard (pii_wide_feed) over the
 * same bytes: UTF-16 and UTF-32 text holds NULs but is refused as such
 * (exit 3), not taken as binary.  Pure function, thread-safe. */
#ifndef PII_SNIFF_H
#define PII_SNIFF_H

#include <stddef.h>
#include <stdint.h>

#define PII_SNIFF_BYTES 8000u
#define PII_SNIFF_SKIP_REASON "binary file (--binary redacts it)"
#define PII_SNIFF_NAMED_REASON "binary file: not redacted (--binary redacts it as bytes)"

/* Non-zero when p[0..n) — the first bytes of an input, at least
 * PII_SNIFF_BYTES of them unless the input is shorter — look binary. */
int pii_sniff_binary(const uint8_t *p, size_t n);

#endif
