/* names.c — escaped file names (see names.h). */
#include <string.h>

#include "names.h"
#include "pii_core.h"

/* Bytes of the next character to copy as it is at p, or 0: escape p[0]. */
static size_t plain_at(const unsigned char *p, const unsigned char *end)
{
    if (*p < 0x80)
        return *p < 0x20 || *p == 0x7f || *p == '\\' ? 0 : 1;
    size_t k = pii_utf8_valid(p, end);
    if (k == 2 && p[0] == 0xc2 && p[1] < 0xa0)
        return 0; /* C1 control */
    return k;
}

void pii_name_putn(FILE *f, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + n;
    while (p < end) {
        size_t k = plain_at(p, end);
        if (k) {
            fwrite(p, 1, k, f);
            p += k;
        } else if (*p == '\\') {
            fputs("\\\\", f);
            p++;
        } else {
            fprintf(f, "\\x%02x", *p++);
        }
    }
}

void pii_name_put(FILE *f, const char *s)
{
    pii_name_putn(f, s, strlen(s));
}

int pii_name_plain(const char *s)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + strlen(s);
    while (p < end) {
        size_t k = plain_at(p, end);
        if (!k)
            return 0;
        p += k;
    }
    return 1;
}

void pii_name_put_lead(FILE *f, const char *s)
{
    if (s[0] == ':' || s[0] == ' ' || s[0] == '\t')
        fputs("./", f);
    pii_name_put(f, s);
}

void pii_csv_field(FILE *f, const char *s, size_t n)
{
    fputc('"', f);
    if (n &&
        (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@' || s[0] == '\t' || s[0] == '\r'))
        fputc('\'', f);
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"')
            fputc('"', f);
        fputc(s[i], f);
    }
    fputc('"', f);
}
