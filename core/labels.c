/* labels.c — the category list, placeholder names and span vectors. */
#include <stdlib.h>
#include <string.h>

#include "pii_core.h"

const char *const pii_categories[PII_NCAT] = {
    "account_number", "private_address", "private_date", "private_email",
    "private_person", "private_phone",   "private_url",  "secret",
};

int pii_category_index(const char *label)
{
    if (!label)
        return -1;
    for (int i = 0; i < PII_NCAT; i++)
        if (strcmp(label, pii_categories[i]) == 0)
            return i;
    return -1;
}

static int is_alnum_ascii(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

size_t pii_label_upper(const char *label, char *buf, size_t cap)
{
    size_t n = 0;
    int pending_sep = 0;
    for (const unsigned char *p = (const unsigned char *)(label ? label : ""); *p; p++) {
        if (!is_alnum_ascii(*p)) {
            pending_sep = n > 0;
            continue;
        }
        if (pending_sep) {
            if (n + 1 < cap)
                buf[n] = '_';
            n++;
            pending_sep = 0;
        }
        if (n + 1 < cap)
            buf[n] = (char)((*p >= 'a' && *p <= 'z') ? *p - 32 : *p);
        n++;
    }
    if (n == 0) {
        static const char fallback[] = "REDACTED";
        n = sizeof fallback - 1;
        for (size_t i = 0; i < n && i + 1 < cap; i++)
            buf[i] = fallback[i];
    }
    if (cap)
        buf[n < cap ? n : cap - 1] = '\0';
    return n;
}

const char *pii_source_name(pii_source s)
{
    switch (s) {
    case PII_SRC_MODEL:
        return "model";
    case PII_SRC_RULE:
        return "rule";
    case PII_SRC_DENY:
        return "deny";
    }
    return "unknown";
}

pii_err pii_spanvec_push(pii_spanvec *sv, const pii_span *s)
{
    if (PII_VEC_RESERVE(sv->v, sv->cap, sv->n + 1))
        return PII_ENOMEM;
    sv->v[sv->n++] = *s;
    return PII_OK;
}

void pii_spanvec_clear(pii_spanvec *sv)
{
    sv->n = 0;
}

void pii_spanvec_free(pii_spanvec *sv)
{
    if (!sv)
        return;
    free(sv->v);
    sv->v = NULL;
    sv->n = sv->cap = 0;
}

/* The UTF-8 character rule (pii_core.h), from the one decoder. */
size_t pii_utf8_seq(const uint8_t *p, const uint8_t *end)
{
    uint32_t cp;
    int k = pii_utf8_decode(p, (size_t)(end - p), &cp);
    return k > 0 ? (size_t)k : k < 0 ? 0 : 1;
}

size_t pii_utf8_valid(const uint8_t *p, const uint8_t *end)
{
    size_t k = pii_utf8_seq(p, end);
    return k == 1 && p[0] >= 0x80 ? 0 : k;
}
