/* fuzz_pseudo.c — reversible pseudonyms (redact/pseudo.c, redact/seal.c).
 * Input: a map candidate, a NUL byte, a text.  Checks: a map that does not
 * load leaves the map empty, and an empty map restores nothing (the text
 * comes back unchanged); the words of the text named as values (every
 * third one a two-word name) get placeholders whose restore gives each
 * entry's value back; the JSON form reloads to the same entries; the text
 * sealed opens to itself, and with any byte changed does not open.
 *
 * FUZZ_ARGS: -max_len=4096
 */
#include <string.h>

#include "fuzz.h"
#include "pii_pseudo.h"

static const char *const labels[] = {"private_person", "private_email", "secret", "x-y"};

static void check_restore_unchanged(const pii_pseudo *m, const uint8_t *t, size_t n)
{
    pii_buf out = {0};
    size_t k = 1;
    FUZZ_CHECK(pii_pseudo_restore(m, t, n, &out, &k, NULL, NULL) == PII_OK);
    FUZZ_CHECK(k == 0 && out.n == n && (n == 0 || memcmp(out.p, t, n) == 0));
    pii_buf_free(&out);
}

static void check_entries(const pii_pseudo *m)
{
    for (size_t i = 0; i < pii_pseudo_count(m); i++) {
        const char *ph, *label;
        const uint8_t *v;
        size_t len, k = 0;
        FUZZ_CHECK(pii_pseudo_entry(m, i, &ph, &label, &v, &len) == PII_OK);
        pii_buf out = {0};
        FUZZ_CHECK(pii_pseudo_restore(m, (const uint8_t *)ph, strlen(ph), &out, &k, NULL, NULL) ==
                   PII_OK);
        FUZZ_CHECK(k == 1 && out.n == len && (len == 0 || memcmp(out.p, v, len) == 0));
        pii_buf_free(&out);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nul = memchr(data, 0, size);
    size_t na = nul ? (size_t)(nul - data) : size;
    const uint8_t *text = nul ? nul + 1 : data + size;
    size_t nt = nul ? size - na - 1 : 0;

    pii_pseudo *m = pii_pseudo_create(NULL);
    FUZZ_CHECK(m);
    if (pii_pseudo_load_json(m, data, na) != PII_OK)
        FUZZ_CHECK(pii_pseudo_count(m) == 0);
    else
        check_entries(m);
    if (pii_pseudo_count(m) == 0)
        check_restore_unchanged(m, text, nt);
    pii_pseudo_free(m);

    /* name the words of the text */
    m = pii_pseudo_create(NULL);
    FUZZ_CHECK(m);
    size_t i = 0, w = 0;
    while (i < nt && w < 64) {
        while (i < nt && (text[i] == ' ' || text[i] == '\n'))
            i++;
        size_t a = i;
        while (i < nt && text[i] != ' ' && text[i] != '\n')
            i++;
        if (i == a)
            break;
        size_t b = i;
        if (w % 3 == 2) { /* a two-word value */
            while (b < nt && text[b] == ' ')
                b++;
            while (b < nt && text[b] != ' ' && text[b] != '\n')
                b++;
        }
        pii_buf out = {0};
        FUZZ_CHECK(pii_pseudo_name(m, labels[w % 4], text + a, b - a, &out) == PII_OK);
        FUZZ_CHECK(out.n >= 5 && out.p[0] == '<' && out.p[out.n - 1] == '>');
        pii_buf_free(&out);
        w++;
    }
    check_entries(m);
    pii_buf js = {0};
    FUZZ_CHECK(pii_pseudo_to_json(m, &js) == PII_OK);
    pii_pseudo *m2 = pii_pseudo_create(NULL);
    FUZZ_CHECK(pii_pseudo_load_json(m2, js.p, js.n) == PII_OK);
    FUZZ_CHECK(pii_pseudo_count(m2) == pii_pseudo_count(m));
    for (size_t k = 0; k < pii_pseudo_count(m); k++) {
        const char *p1, *p2, *l1, *l2;
        const uint8_t *v1, *v2;
        size_t n1, n2;
        pii_pseudo_entry(m, k, &p1, &l1, &v1, &n1);
        pii_pseudo_entry(m2, k, &p2, &l2, &v2, &n2);
        FUZZ_CHECK(strcmp(p1, p2) == 0 && strcmp(l1, l2) == 0 && n1 == n2 &&
                   (n1 == 0 || memcmp(v1, v2, n1) == 0));
    }
    pii_buf_free(&js);
    pii_pseudo_free(m2);
    pii_pseudo_free(m);

    /* seal and open */
    static const uint8_t key[] = "fuzz key of sixteen+ bytes";
    pii_buf sealed = {0}, opened = {0};
    FUZZ_CHECK(pii_pseudo_seal(key, sizeof key - 1, text, nt, &sealed) == PII_OK);
    FUZZ_CHECK(pii_pseudo_open(key, sizeof key - 1, sealed.p, sealed.n, &opened) == PII_OK);
    FUZZ_CHECK(opened.n == nt && (nt == 0 || memcmp(opened.p, text, nt) == 0));
    pii_buf_free(&opened);
    sealed.p[(size_t)(nt * 7 + na) % sealed.n] ^= 1;
    FUZZ_CHECK(pii_pseudo_open(key, sizeof key - 1, sealed.p, sealed.n, &opened) == PII_EFORMAT);
    FUZZ_CHECK(opened.n == 0);
    pii_buf_free(&opened);
    pii_buf_free(&sealed);
    return 0;
}
