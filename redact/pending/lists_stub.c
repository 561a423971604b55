/* Stand-in for redact/lists.c (see README): lists cannot be loaded yet. */
#include <stdio.h>

#include "pii_redact.h"

pii_allow *pii_allow_load(const char *p, pii_err *e, char *m, size_t c)
{
    (void)p;
    snprintf(m, c, "allow lists are not built in this version");
    *e = PII_EUNSUPPORTED;
    return NULL;
}

pii_deny *pii_deny_load(const char *p, pii_err *e, char *m, size_t c)
{
    (void)p;
    snprintf(m, c, "deny lists are not built in this version");
    *e = PII_EUNSUPPORTED;
    return NULL;
}

void pii_allow_free(pii_allow *a)
{
    (void)a;
}

void pii_deny_free(pii_deny *d)
{
    (void)d;
}

int pii_allow_match(const pii_allow *a, const uint8_t *v, size_t n)
{
    (void)a, (void)v, (void)n;
    return 0;
}

pii_detector pii_deny_detector(const pii_deny *d)
{
    pii_detector x = {NULL, d};
    return x;
}
