/* tok_vocab.c — tokenizer objects: queries, comparison, construction of
 * loaded vocabularies from token strings. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "tok_internal.h"

void pii_tok__err(char *errbuf, size_t errlen, const char *fmt, ...)
{
    if (!errbuf || !errlen)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(errbuf, errlen, fmt, ap);
    va_end(ap);
}

static int cmp_special(const void *a, const void *b)
{
    const tok_special *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* Whether the V token strings are exactly those of table o. */
static int same_tokens(const pii_tok *o, const uint8_t *const *tok, const size_t *len, size_t n_ids)
{
    if (n_ids != o->n_ids || !o->hdr->total)
        return 0;
    for (size_t i = 0; i < n_ids; i++) {
        uint32_t a = o->off[i], l = o->off[i + 1] - a;
        size_t li = tok[i] ? len[i] : 0;
        if (li != l || (l && memcmp(o->bytes + a, tok[i], l) != 0))
            return 0;
    }
    return 1;
}

pii_err pii_tok__make(const uint8_t *const *tok, const size_t *len, size_t n_ids,
                      const tok_special *specials, size_t ns, pii_tok **out, const char *what,
                      char *errbuf, size_t errlen)
{
    *out = NULL;
    pii_tok *t = calloc(1, sizeof *t);
    if (!t)
        return PII_ENOMEM;
    const pii_tok *o = pii_tok_o200k();
    if (same_tokens(o, tok, len, n_ids)) {
        /* The usual case (a Privacy Filter tokenizer.json, an o200k GGUF):
         * share the built-in table instead of building a copy. */
        pii_tok__view(t, o->hdr, (size_t)o->hdr->total);
    } else {
        void *blob;
        size_t size, ndup;
        pii_err err = pii_tok__blob_build(tok, len, n_ids, &blob, &size, &ndup);
        if (err) {
            pii_tok__err(errbuf, errlen, "%s: cannot build the vocabulary table: %s", what,
                         pii_strerror(err));
            free(t);
            return err;
        }
        t->blob_mem = blob;
        pii_tok__view(t, blob, size);
    }
    for (int c = 0; c < 256; c++)
        if (t->hdr->byte_id[c] < 0) {
            pii_tok__err(errbuf, errlen, "%s: byte 0x%02x has no token", what, c);
            pii_tok_free(t);
            return PII_EFORMAT;
        }
    size_t names = 0;
    for (size_t i = 0; i < ns; i++)
        names += specials[i].len + 1;
    tok_special *sp = malloc(ns * sizeof *sp + names + 1);
    if (!sp) {
        pii_tok_free(t);
        return PII_ENOMEM;
    }
    char *nm = (char *)(sp + ns);
    uint64_t vs = n_ids;
    for (size_t i = 0; i < ns; i++) {
        sp[i] = specials[i];
        memcpy(nm, specials[i].name, specials[i].len);
        nm[specials[i].len] = 0;
        sp[i].name = nm;
        nm += specials[i].len + 1;
        if ((uint64_t)sp[i].id + 1 > vs)
            vs = (uint64_t)sp[i].id + 1;
    }
    qsort(sp, ns, sizeof *sp, cmp_special);
    for (size_t i = 1; i < ns; i++)
        if (sp[i].id == sp[i - 1].id) {
            pii_tok__err(errbuf, errlen, "%s: special id %u is defined twice", what, sp[i].id);
            free(sp);
            pii_tok_free(t);
            return PII_EFORMAT;
        }
    if (vs > 0x7FFFFFFF) {
        free(sp);
        pii_tok_free(t);
        return PII_ETOOBIG;
    }
    t->special = sp;
    t->special_mem = sp;
    t->n_special = (uint32_t)ns;
    t->vocab_size = (uint32_t)vs;
    *out = t;
    return PII_OK;
}

void pii_tok_free(pii_tok *tok)
{
    if (!tok || tok->builtin)
        return;
    free(tok->blob_mem);
    free(tok->special_mem);
    free(tok);
}

size_t pii_tok_vocab_size(const pii_tok *tok)
{
    return tok ? tok->vocab_size : 0;
}

static const tok_special *find_special(const pii_tok *tok, int32_t id)
{
    size_t lo = 0, hi = tok->n_special;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (tok->special[mid].id < (uint32_t)id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < tok->n_special && tok->special[lo].id == (uint32_t)id ? &tok->special[lo] : NULL;
}

const uint8_t *pii_tok_token_bytes(const pii_tok *tok, int32_t id, size_t *len)
{
    if (len)
        *len = 0;
    if (!tok || id < 0)
        return NULL;
    if ((uint32_t)id < tok->n_ids) {
        uint32_t o = tok->off[id], l = tok->off[id + 1] - o;
        if (l) {
            if (len)
                *len = l;
            return tok->bytes + o;
        }
    }
    const tok_special *s = find_special(tok, id);
    if (!s)
        return NULL;
    if (len)
        *len = s->len;
    return (const uint8_t *)s->name;
}

int pii_tok_is_special(const pii_tok *tok, int32_t id)
{
    return tok && id >= 0 && find_special(tok, id) != NULL;
}

int32_t pii_tok_special_id(const pii_tok *tok, const char *name)
{
    if (!tok || !name)
        return -1;
    size_t l = strlen(name);
    for (size_t i = 0; i < tok->n_special; i++)
        if (tok->special[i].len == l && memcmp(tok->special[i].name, name, l) == 0)
            return (int32_t)tok->special[i].id;
    return -1;
}

static size_t first_diff(const uint8_t *a, const uint8_t *b, size_t n)
{
    size_t i = 0;
    while (i < n && a[i] == b[i])
        i++;
    return i;
}

pii_err pii_tok_compare(const pii_tok *a, const pii_tok *b, size_t *n_common, char *errbuf,
                        size_t errlen)
{
    if (n_common)
        *n_common = 0;
    if (!a || !b)
        return PII_EINVAL;
    size_t n = a->vocab_size < b->vocab_size ? a->vocab_size : b->vocab_size, common = 0;
    for (size_t i = 0; i < n; i++) {
        int32_t id = (int32_t)i;
        size_t la, lb;
        const uint8_t *pa = pii_tok_token_bytes(a, id, &la);
        const uint8_t *pb = pii_tok_token_bytes(b, id, &lb);
        if (!pa || !pb)
            continue;
        common++;
        int sa = pii_tok_is_special(a, id) && (uint32_t)id >= a->n_ids;
        int sb = pii_tok_is_special(b, id) && (uint32_t)id >= b->n_ids;
        if (sa != sb || la != lb || memcmp(pa, pb, la) != 0) {
            if (sa == sb && la == lb) /* same kind and length: say where the bytes differ */
                pii_tok__err(errbuf, errlen,
                             "token id %zu differs: same length (%zu bytes), different bytes "
                             "from byte %zu",
                             i, la, first_diff(pa, pb, la));
            else
                pii_tok__err(errbuf, errlen, "token id %zu differs (%s %zu bytes vs %s %zu bytes)",
                             i, sa ? "special" : "mergeable", la, sb ? "special" : "mergeable", lb);
            if (n_common)
                *n_common = common;
            return PII_ETOKENIZER;
        }
    }
    if (n_common)
        *n_common = common;
    return PII_OK;
}
