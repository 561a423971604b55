/* labelset.c — active labels and the names users give them (labelset.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "labelset.h"
#include "pii_redact.h"
#include "pii_wordlist.h"

typedef struct entry {
    char *label;
    char sources[32]; /* "model, rules" */
} entry;

struct pii_labelset {
    entry *v;
    size_t n, cap;
};

const char *const pii_labelset_aliases[][2] = {
    {"email", "private_email"}, {"phone", "private_phone"},     {"person", "private_person"},
    {"name", "private_person"}, {"address", "private_address"}, {"date", "private_date"},
    {"url", "private_url"},     {"account", "account_number"},  {NULL, NULL},
};

pii_labelset *pii_labelset_create(void)
{
    return calloc(1, sizeof(pii_labelset));
}

void pii_labelset_free(pii_labelset *ls)
{
    if (!ls)
        return;
    for (size_t i = 0; i < ls->n; i++)
        free(ls->v[i].label);
    free(ls->v);
    free(ls);
}

static entry *find(const pii_labelset *ls, const char *name, size_t len)
{
    for (size_t i = 0; i < ls->n; i++)
        if (strlen(ls->v[i].label) == len && memcmp(ls->v[i].label, name, len) == 0)
            return &ls->v[i];
    return NULL;
}

static void add_source(entry *e, const char *source)
{
    if (strstr(e->sources, source))
        return;
    size_t n = strlen(e->sources);
    snprintf(e->sources + n, sizeof e->sources - n, "%s%s", n ? ", " : "", source);
}

int pii_labelset_add(pii_labelset *ls, const char *label, const char *source)
{
    entry *e = find(ls, label, strlen(label));
    if (!e) {
        if (PII_VEC_RESERVE(ls->v, ls->cap, ls->n + 1))
            return -1;
        e = &ls->v[ls->n];
        memset(e, 0, sizeof *e);
        if (!(e->label = strdup(label)))
            return -1;
        ls->n++;
    }
    add_source(e, source);
    return 0;
}

size_t pii_labelset_count(const pii_labelset *ls)
{
    return ls->n;
}

const char *pii_labelset_label(const pii_labelset *ls, size_t i)
{
    return i < ls->n ? ls->v[i].label : NULL;
}

/* The canonical label `name` stands for, without looking at what is active:
 * itself, the label whose placeholder name it is, or an alias's target. */
static const char *canonical(const pii_labelset *ls, const char *name, size_t len)
{
    char up[128];
    const entry *e = find(ls, name, len);
    if (e)
        return e->label;
    for (size_t i = 0; i < ls->n; i++) {
        size_t k = pii_label_upper(ls->v[i].label, up, sizeof up);
        if (k == len && memcmp(up, name, len) == 0)
            return ls->v[i].label;
    }
    for (size_t a = 0; pii_labelset_aliases[a][0]; a++)
        if (strlen(pii_labelset_aliases[a][0]) == len &&
            memcmp(pii_labelset_aliases[a][0], name, len) == 0)
            return pii_labelset_aliases[a][1];
    for (int c = 0; c < PII_NCAT; c++) {
        const char *cat = pii_categories[c];
        size_t k = pii_label_upper(cat, up, sizeof up);
        if ((strlen(cat) == len && memcmp(cat, name, len) == 0) ||
            (k == len && memcmp(up, name, len) == 0))
            return cat;
    }
    return NULL;
}

static void suggest(const pii_labelset *ls, const char *name, size_t len, char *hint, size_t cap)
{
    const char *best = NULL;
    size_t bd = (size_t)-1;
    for (size_t i = 0; i < ls->n; i++) {
        size_t d = pii_word_distance(name, len, ls->v[i].label, strlen(ls->v[i].label), 1);
        if (d < bd)
            bd = d, best = ls->v[i].label;
    }
    for (size_t a = 0; pii_labelset_aliases[a][0]; a++) {
        if (!find(ls, pii_labelset_aliases[a][1], strlen(pii_labelset_aliases[a][1])))
            continue;
        size_t d = pii_word_distance(name, len, pii_labelset_aliases[a][0],
                                     strlen(pii_labelset_aliases[a][0]), 1);
        if (d < bd)
            bd = d, best = pii_labelset_aliases[a][1];
    }
    size_t limit = len / 3 > 2 ? len / 3 : 2;
    if (best && bd <= limit)
        snprintf(hint, cap, "%s", best);
}

const char *pii_labelset_resolve(const pii_labelset *ls, const char *name, size_t len, char *msg,
                                 size_t msgcap, char *hint, size_t hintcap)
{
    if (hintcap)
        hint[0] = '\0';
    if (len == 0) {
        snprintf(msg, msgcap, "empty label name");
        return NULL;
    }
    const char *c = canonical(ls, name, len);
    const entry *e = c ? find(ls, c, strlen(c)) : NULL;
    if (e)
        return e->label;
    int shown = len > 64 ? 64 : (int)len;
    int printable = 1;
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)name[i] < 0x20 || name[i] == 0x7f)
            printable = 0;
    if (c)
        snprintf(msg, msgcap, "label '%s' is not reported by the active detectors", c);
    else if (printable)
        snprintf(msg, msgcap, "unknown label '%.*s'", shown, name);
    else
        snprintf(msg, msgcap, "unknown label (with control characters)");
    if (!c)
        suggest(ls, name, len, hint, hintcap);
    return NULL;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void pii_labelset_list(const pii_labelset *ls, char *buf, size_t cap)
{
    size_t n = 0;
    if (cap)
        buf[0] = '\0';
    const char **v = malloc((ls->n ? ls->n : 1) * sizeof *v);
    if (!v)
        return;
    for (size_t i = 0; i < ls->n; i++)
        v[i] = ls->v[i].label;
    qsort(v, ls->n, sizeof *v, cmp_str);
    for (size_t i = 0; i < ls->n && n < cap; i++) {
        int k = snprintf(buf + n, cap - n, "%s%s", i ? ", " : "", v[i]);
        if (k < 0)
            break;
        n += (size_t)k;
    }
    free(v);
}
