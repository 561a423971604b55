/* fuzz_cfgargs.c — option strings of the library (pii_config_parse: the
 * command's syntax with shell-like quoting, api/config.c).
 * Input: the option string (cut at the first NUL).  Checked: no crash,
 * leak or undefined behaviour; the result is PII_OK or PII_EINVAL, with a
 * message exactly when it is an error; and a string that parses gives the
 * same values again when every value it set is written back single-quoted
 * (a ' as '\'') and parsed into a fresh configuration — the quoting of
 * the writer and the reader agree.
 *
 * FUZZ_ARGS: -max_len=4096
 */
#include <string.h>

#include "fuzz.h"

#define PII_STATIC_LINKING_ONLY
#include "piiredact.h"

/* Appends ' --key 'value'' (or ' --key' for a switch) to b. */
static char *quote(char *b, size_t *n, const char *key, const char *v)
{
    size_t need = *n + strlen(key) + 4 * (v ? strlen(v) : 0) + 8;
    char *p = realloc(b, need);
    FUZZ_CHECK(p);
    *n += (size_t)sprintf(p + *n, " --%s", key);
    if (v) {
        p[(*n)++] = ' ';
        p[(*n)++] = '\'';
        for (; *v; v++) {
            if (*v == '\'') {
                memcpy(p + *n, "'\\''", 4);
                *n += 4;
            } else {
                p[(*n)++] = *v;
            }
        }
        p[(*n)++] = '\'';
    }
    p[*n] = 0;
    return p;
}

static int same_values(const pii_config *a, const pii_config *b)
{
    const pii_config_info *o;
    for (size_t i = 0; (o = pii_config_option(i)); i++) {
        size_t na, nb;
        const char *const *la = pii_config_list(a, o->key, &na);
        const char *const *lb = pii_config_list(b, o->key, &nb);
        const char *va = pii_config_get(a, o->key), *vb = pii_config_get(b, o->key);
        if (!va != !vb || (va && strcmp(va, vb)) || na != nb)
            return 0;
        for (size_t k = 0; k < na; k++)
            if (strcmp(la[k], lb[k]))
                return 0;
    }
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    FUZZ_CHECK(s);
    memcpy(s, data, size);
    s[size] = 0;
    pii_config *c = pii_config_create();
    FUZZ_CHECK(c);
    pii_err e = pii_config_parse(c, s);
    FUZZ_CHECK(e == PII_OK || e == PII_EINVAL);
    FUZZ_CHECK((e == PII_OK) == (pii_config_message(c)[0] == 0));
    if (e == PII_OK) {
        char *again = NULL;
        size_t n = 0;
        const pii_config_info *o;
        again = quote(again, &n, "rules-only", NULL); /* never empty */
        pii_config_set(c, "rules-only", "1");
        for (size_t i = 0; (o = pii_config_option(i)); i++) {
            size_t nl;
            const char *const *l = pii_config_list(c, o->key, &nl);
            const char *v = pii_config_get(c, o->key);
            if (o->repeatable)
                for (size_t k = 0; k < nl; k++)
                    again = quote(again, &n, o->key, l[k]);
            else if (v)
                again = quote(again, &n, o->key, o->arg ? v : NULL);
        }
        pii_config *d = pii_config_create();
        FUZZ_CHECK(d);
        FUZZ_CHECK(pii_config_parse(d, again) == PII_OK);
        FUZZ_CHECK(same_values(c, d));
        pii_config_free(d);
        free(again);
    }
    pii_config_free(c);
    free(s);
    return 0;
}
