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
    if (sv->n == sv->cap) {
        size_t cap = sv->cap ? sv->cap * 2 : 16;
        pii_span *v = realloc(sv->v, cap * sizeof *v);
        if (!v)
            return PII_ENOMEM;
        sv->v = v;
        sv->cap = cap;
    }
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

/* One UTF-8 decoder for the module and its clients (see pii_redact.h). */
size_t pii_utf8_seq(const uint8_t *p, const uint8_t *end)
{
    uint8_t c = p[0];
    size_t k;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        k = 2;
    else if (c >= 0xE0 && c <= 0xEF)
        k = 3;
    else if (c >= 0xF0 && c <= 0xF4)
        k = 4;
    else
        return 1;
    for (size_t i = 1; i < k; i++) {
        if (p + i >= end)
            return 0;
        if ((p[i] & 0xC0) != 0x80)
            return 1;
        if (i == 1 && ((c == 0xE0 && p[1] < 0xA0) || (c == 0xED && p[1] > 0x9F) ||
                       (c == 0xF0 && p[1] < 0x90) || (c == 0xF4 && p[1] > 0x8F)))
            return 1;
    }
    return k;
}

size_t pii_utf8_valid(const uint8_t *p, const uint8_t *end)
{
    size_t k = pii_utf8_seq(p, end);
    return k == 1 && p[0] >= 0x80 ? 0 : k;
}
