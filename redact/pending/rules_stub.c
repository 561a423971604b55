/* Stand-in for redact/rules.c (see README): a rule tier with no rules. */
#include <stdlib.h>

#include "pii_redact.h"

struct pii_rules {
    int unused;
};

pii_rules *pii_rules_create(pii_err *e)
{
    pii_rules *r = calloc(1, sizeof *r);
    *e = r ? PII_OK : PII_ENOMEM;
    return r;
}

void pii_rules_free(pii_rules *r)
{
    free(r);
}

size_t pii_rules_count(const pii_rules *r)
{
    (void)r;
    return 0;
}

const pii_rule_info *pii_rules_info(const pii_rules *r, size_t i)
{
    (void)r, (void)i;
    return NULL;
}

static void *nop_open(const void *shared, pii_err *e)
{
    (void)shared;
    *e = PII_OK;
    return malloc(1);
}

static pii_err nop_scan(void *st, const uint8_t *b, size_t len, uint64_t base, int eod,
                        pii_spanvec *out, uint64_t *done, uint64_t *keep)
{
    (void)st, (void)b, (void)eod, (void)out;
    *done = *keep = base + len;
    return PII_OK;
}

static const pii_detector_class nop_cls = {"rules-stub", nop_open, nop_scan, NULL, free};

pii_detector pii_rules_detector(const pii_rules *r)
{
    pii_detector d = {&nop_cls, r};
    return d;
}

pii_err pii_rules_scan_all(const pii_rules *r, const uint8_t *t, size_t n, pii_spanvec *out)
{
    (void)r, (void)t, (void)n, (void)out;
    return PII_OK;
}
