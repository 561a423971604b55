/* urllists.h — the word lists of the url rules' policy checks
 * (redact/data/README.md), linked in verbatim from redact/data with
 * .incbin: no initializer, nothing parsed at start-up.
 *
 * Each list is lower-case ASCII words, one per line ending in '\n', sorted
 * by bytes.  pii_urllist_has() looks a word up by binary search
 * (pii_wordlist.h), ASCII letters of the word lowered; pii_urllist_next()
 * walks the lines (for suffix, prefix and substring matches). */
#ifndef PII_REDACT_URLLISTS_H
#define PII_REDACT_URLLISTS_H

#include <stddef.h>
#include <stdint.h>

typedef enum pii_urllist {
    PII_URL_PARAMS,         /* query parameters of a credential or person's data */
    PII_URL_PARAM_ENDS,     /* ... and how their names may end */
    PII_URL_PROFILE_HOSTS,  /* hosts whose one-segment paths are people's pages */
    PII_URL_SITE_PAGES,     /* one-segment site pages of those hosts */
    PII_URL_DOC_HOSTS,      /* documentation, standards and project hosts */
    PII_URL_DOC_SUBDOMAINS, /* their subdomains ("docs.", with the dot) */
    PII_URL_DOC_PATHS,      /* path pieces of documentation pages ("/pull") */
    PII_URL_PERSON_DIRS,    /* path segments before a person's name or id */
    PII_URL_NLISTS
} pii_urllist;

/* Non-zero when w[0..n) (ASCII caseless) is a line of list l. */
int pii_urllist_has(pii_urllist l, const uint8_t *w, size_t n);

/* The line at *pos (start with 0): its bytes in *w, *m, and *pos moved
 * past it; 0 at the end of the list. */
int pii_urllist_next(pii_urllist l, size_t *pos, const char **w, size_t *m);

/* The number of lines of list l when it is well formed (non-empty lines of
 * lower-case printable ASCII, each ending in '\n', strictly increasing by
 * bytes); -1 otherwise.  For the tests. */
long pii_urllist_check(pii_urllist l);

#endif
