/* json_bounds.c — one pass over a JSON text counting values and depth
 * (see pii_json.h). */
#include <stdio.h>

#include "pii_json.h"

const pii_json_limits pii_json_tokenizer_limits = {64u << 20, 2u << 20, 64};
const pii_json_limits pii_json_small_limits = {16u << 20, 256u << 10, 32};

pii_err pii_json_check(const char *text, size_t len, const pii_json_limits *lim, char *msg,
                       size_t cap)
{
    if (msg && cap)
        msg[0] = '\0';
    if (len > lim->max_bytes) {
        if (msg && cap)
            snprintf(msg, cap, "%zu bytes, more than the %zu allowed", len, lim->max_bytes);
        return PII_ETOOBIG;
    }
    size_t values = 0;
    int depth = 0, in_str = 0, esc = 0;
    char prev = 0; /* last structural character outside strings and blanks */
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (in_str) {
            if (esc)
                esc = 0;
            else if (c == '\\')
                esc = 1;
            else if (c == '"')
                in_str = 0, prev = '"';
            continue;
        }
        switch (c) {
        case ' ':
        case '\t':
        case '\r':
        case '\n':
            continue;
        case '"':
            in_str = 1;
            values++;
            break;
        case '[':
        case '{':
            values++;
            if (++depth > lim->max_depth) {
                if (msg && cap)
                    snprintf(msg, cap, "nested deeper than %d levels at byte %zu", lim->max_depth,
                             i);
                return PII_EJSON;
            }
            break;
        case ']':
        case '}':
            depth -= depth > 0;
            break;
        default:
            /* a number or literal starts after '[', ',', ':' or at the start */
            if (prev == 0 || prev == '[' || prev == ',' || prev == ':')
                values++;
            break;
        }
        prev = c;
        if (values > lim->max_values) {
            if (msg && cap)
                snprintf(msg, cap, "more than %zu JSON values (at byte %zu)", lim->max_values, i);
            return PII_ETOOBIG;
        }
    }
    return PII_OK;
}
