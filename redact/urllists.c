/* urllists.c — the url rules' word lists (redact/data), see urllists.h. */
#include "urllists.h"

#include "pii_wordlist.h"

#include <string.h>

#ifndef PII_REDACT_DATA_DIR
#define PII_REDACT_DATA_DIR "redact/data"
#endif

#define URL_LIST(name)                                                                             \
    ".hidden pii_url__" name "\n"                                                                  \
    ".hidden pii_url__" name "_end\n"                                                              \
    "pii_url__" name ":\n"                                                                         \
    ".incbin \"" PII_REDACT_DATA_DIR "/url_" name ".txt\"\n"                                       \
    "pii_url__" name "_end:\n"

__asm__(".section .rodata.pii_url_lists,\"a\",@progbits\n" URL_LIST("params") URL_LIST("param_ends")
            URL_LIST("profile_hosts") URL_LIST("site_pages") URL_LIST("doc_hosts")
                URL_LIST("doc_subdomains") URL_LIST("doc_paths")
                    URL_LIST("person_dirs") ".previous\n");
#undef URL_LIST

extern const char pii_url__params[], pii_url__params_end[];
extern const char pii_url__param_ends[], pii_url__param_ends_end[];
extern const char pii_url__profile_hosts[], pii_url__profile_hosts_end[];
extern const char pii_url__site_pages[], pii_url__site_pages_end[];
extern const char pii_url__doc_hosts[], pii_url__doc_hosts_end[];
extern const char pii_url__doc_subdomains[], pii_url__doc_subdomains_end[];
extern const char pii_url__doc_paths[], pii_url__doc_paths_end[];
extern const char pii_url__person_dirs[], pii_url__person_dirs_end[];

static void list_bounds(pii_urllist l, const char **b, const char **e)
{
    switch (l) {
    case PII_URL_PARAMS:
        *b = pii_url__params, *e = pii_url__params_end;
        return;
    case PII_URL_PARAM_ENDS:
        *b = pii_url__param_ends, *e = pii_url__param_ends_end;
        return;
    case PII_URL_PROFILE_HOSTS:
        *b = pii_url__profile_hosts, *e = pii_url__profile_hosts_end;
        return;
    case PII_URL_SITE_PAGES:
        *b = pii_url__site_pages, *e = pii_url__site_pages_end;
        return;
    case PII_URL_DOC_HOSTS:
        *b = pii_url__doc_hosts, *e = pii_url__doc_hosts_end;
        return;
    case PII_URL_DOC_SUBDOMAINS:
        *b = pii_url__doc_subdomains, *e = pii_url__doc_subdomains_end;
        return;
    case PII_URL_DOC_PATHS:
        *b = pii_url__doc_paths, *e = pii_url__doc_paths_end;
        return;
    case PII_URL_PERSON_DIRS:
        *b = pii_url__person_dirs, *e = pii_url__person_dirs_end;
        return;
    default:
        *b = *e = NULL;
        return;
    }
}

int pii_urllist_next(pii_urllist l, size_t *pos, const char **w, size_t *m)
{
    const char *b, *e;
    list_bounds(l, &b, &e);
    if (!b || *pos >= (size_t)(e - b))
        return 0;
    const char *s = b + *pos;
    const char *nl = memchr(s, '\n', (size_t)(e - s));
    size_t len = nl ? (size_t)(nl - s) : (size_t)(e - s);
    *w = s;
    *m = len;
    *pos += len + 1;
    return 1;
}

int pii_urllist_has(pii_urllist l, const uint8_t *p, size_t n)
{
    const char *b, *e;
    list_bounds(l, &b, &e);
    return pii_wordlist_has(b, e, p, n, 1);
}

long pii_urllist_check(pii_urllist l)
{
    const char *b, *e;
    list_bounds(l, &b, &e);
    if (!b)
        return -1;
    for (const char *c = b; c < e; c++)
        if (*c != '\n' && (*c <= ' ' || *c > '~' || (*c >= 'A' && *c <= 'Z')))
            return -1;
    return pii_wordlist_check(b, e, (size_t)(e - b));
}
