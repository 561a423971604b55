/* pii_wordlist.h — sorted word lists held as text: the lines of [b, e),
 * each ending in '\n', in strictly increasing byte order (the data files
 * the name heuristics and the url rules link in verbatim).  Lookups are a
 * binary search over the text itself: nothing is parsed or allocated.
 * Pure functions; thread-safe.  Not part of the installed API (the
 * Makefile's NOINST_HDR). */
#ifndef PII_WORDLIST_H
#define PII_WORDLIST_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The number of lines when [b, e) is a well-formed list whose lines are
 * 1..max_len bytes; -1 otherwise. */
long pii_wordlist_check(const char *b, const char *e, size_t max_len);

/* Non-zero when w[0..n) is a line of the list; fold: compare with the
 * ASCII capitals of w lowered (for lists of lower-case words). */
int pii_wordlist_has(const char *b, const char *e, const uint8_t *w, size_t n, int fold);

/* The Levenshtein distance of the short words a[0..la) and b[0..lb) (for
 * "did you mean" hints); fold: ASCII capitals count as lower case.
 * (size_t)-1 when either is longer than 64 bytes. */
size_t pii_word_distance(const char *a, size_t la, const char *b, size_t lb, int fold);

#ifdef __cplusplus
}
#endif

#endif
