/* Stand-in for redact/ops.c (see README): placeholder operator only. */
#include <stdlib.h>
#include <string.h>

#include "pii_redact.h"

struct pii_ops {
    pii_op def;
};

pii_err pii_buf_append(pii_buf *b, const void *d, size_t n)
{
    if (b->n + n > b->cap) {
        size_t c = b->cap ? b->cap * 2 : 64;
        while (c < b->n + n)
            c *= 2;
        uint8_t *p = realloc(b->p, c);
        if (!p)
            return PII_ENOMEM;
        b->p = p;
        b->cap = c;
    }
    if (n)
        memcpy(b->p + b->n, d, n);
    b->n += n;
    return PII_OK;
}

void pii_buf_free(pii_buf *b)
{
    free(b->p);
    b->p = NULL;
    b->n = b->cap = 0;
}

void pii_op_default(pii_op *op, pii_op_kind k)
{
    memset(op, 0, sizeof *op);
    op->kind = k;
}

pii_err pii_op_parse(const char *s, pii_op *op)
{
    if (strcmp(s, "placeholder") == 0)
        pii_op_default(op, PII_OP_PLACEHOLDER);
    else if (strcmp(s, "hash") == 0)
        pii_op_default(op, PII_OP_HASH);
    else
        return PII_EUNSUPPORTED;
    return PII_OK;
}

pii_ops *pii_ops_create(const pii_op *d, pii_err *e)
{
    pii_ops *o = calloc(1, sizeof *o);
    if (o)
        o->def = *d;
    *e = o ? PII_OK : PII_ENOMEM;
    return o;
}

pii_err pii_ops_set(pii_ops *o, const char *l, const pii_op *op)
{
    (void)o, (void)l, (void)op;
    return PII_EUNSUPPORTED;
}

pii_err pii_ops_set_key(pii_ops *o, const uint8_t *k, size_t n)
{
    (void)o, (void)k, (void)n;
    return PII_EUNSUPPORTED;
}

pii_err pii_ops_check(const pii_ops *o)
{
    return o->def.kind == PII_OP_HASH ? PII_ENOKEY : PII_OK;
}

void pii_ops_set_pseudonym_limit(pii_ops *o, size_t n)
{
    (void)o, (void)n;
}

void pii_ops_free(pii_ops *o)
{
    free(o);
}

pii_err pii_ops_apply(pii_ops *o, const pii_span *s, const uint8_t *v, size_t n, pii_buf *out)
{
    char name[128];
    (void)o, (void)v, (void)n;
    size_t k = pii_label_upper(s->label, name, sizeof name);
    pii_err e = pii_buf_append(out, "<", 1);
    if (!e)
        e = pii_buf_append(out, name, k < sizeof name ? k : sizeof name - 1);
    if (!e)
        e = pii_buf_append(out, ">", 1);
    return e;
}
