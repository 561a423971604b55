/* json_write.c — the one JSON string writer (pii_json_write.h). */
#include <stdio.h>
#include <string.h>

#include "pii_core.h"
#include "pii_json_write.h"

/* The escape of byte c (a one-byte character), or NULL: written as is. */
static const char *escape_of(uint8_t c, unsigned flags, char esc[8])
{
    if (c >= 0x80)
        return "\\ufffd";
    if (c == '"')
        return "\\\"";
    if (c == '\\')
        return "\\\\";
    if (c >= 0x20 && !(c == 0x7f && (flags & PII_JSONW_DEL)))
        return NULL;
    if (flags & PII_JSONW_SHORT) {
        if (c == '\n')
            return "\\n";
        if (c == '\r')
            return "\\r";
        if (c == '\t')
            return "\\t";
    }
    snprintf(esc, 8, "\\u%04x", c);
    return esc;
}

pii_err pii_json_escape(const uint8_t *p, size_t n, unsigned flags, int final, size_t *rest,
                        pii_jsonw_put put, void *ud)
{
    const uint8_t *end = p + n, *run = p;
    char esc[8];
    pii_err e;
    while (p < end) {
        size_t k = pii_utf8_seq(p, end);
        if (k == 0 && !final)
            break;
        if (k == 0)
            k = 1; /* cut at the very end: invalid */
        const char *rep = k == 1 ? escape_of(*p, flags, esc) : NULL;
        if (rep) {
            if ((p > run && (e = put(ud, (const char *)run, (size_t)(p - run)))) ||
                (e = put(ud, rep, strlen(rep))))
                return e;
            run = p + 1;
        }
        p += k;
    }
    if (rest)
        *rest = (size_t)(end - p);
    return p > run ? put(ud, (const char *)run, (size_t)(p - run)) : PII_OK;
}

static pii_err put_file(void *ud, const char *p, size_t n)
{
    return fwrite(p, 1, n, ud) == n ? PII_OK : PII_EWRITE;
}

pii_err pii_json_fput(FILE *f, const void *p, size_t n, unsigned flags)
{
    pii_err e = put_file(f, "\"", 1);
    if (!e)
        e = pii_json_escape(p, n, flags, 1, NULL, put_file, f);
    return e ? e : put_file(f, "\"", 1);
}
