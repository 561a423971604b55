/* gguf.c — GGUF v2/v3 reader (little-endian): metadata and tensor table,
 * every count, length and offset checked against the mapped size. */
#include <stdlib.h>
#include <string.h>

#include "rt_store.h"

typedef struct gspan {
    uint64_t b, e; /* data bytes [b, e) */
    size_t ti;
} gspan;

static int cmp_gspan(const void *a, const void *b)
{
    const gspan *x = a, *y = b;
    return x->b < y->b ? -1 : x->b > y->b ? 1 : (x->e < y->e ? -1 : x->e > y->e);
}

#define GGUF_DEFAULT_ALIGN 32u
#define GGUF_MAX_ARRAY_DEPTH 4

typedef struct cur {
    const uint8_t *p, *end;
} cur;

static int rd(cur *c, void *dst, size_t n)
{
    if ((size_t)(c->end - c->p) < n)
        return 0;
    memcpy(dst, c->p, n);
    c->p += n;
    return 1;
}

static int rd_u32(cur *c, uint32_t *v)
{
    uint8_t b[4];
    if (!rd(c, b, 4))
        return 0;
    *v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    return 1;
}

static int rd_u64(cur *c, uint64_t *v)
{
    uint32_t lo, hi;
    if (!rd_u32(c, &lo) || !rd_u32(c, &hi))
        return 0;
    *v = (uint64_t)hi << 32 | lo;
    return 1;
}

/* A string: u64 length + bytes; returns the bytes in place. */
static int rd_str(cur *c, const char **s, uint64_t *len)
{
    if (!rd_u64(c, len) || *len > (uint64_t)(c->end - c->p))
        return 0;
    *s = (const char *)c->p;
    c->p += *len;
    return 1;
}

static size_t scalar_size(uint32_t t)
{
    switch (t) {
    case PII_KV_U8:
    case PII_KV_I8:
    case PII_KV_BOOL:
        return 1;
    case PII_KV_U16:
    case PII_KV_I16:
        return 2;
    case PII_KV_U32:
    case PII_KV_I32:
    case PII_KV_F32:
        return 4;
    case PII_KV_U64:
    case PII_KV_I64:
    case PII_KV_F64:
        return 8;
    default:
        return 0;
    }
}

/* Skips one value of type t; 0 when it does not fit or the type is bad. */
static int skip_value(cur *c, uint32_t t, int depth)
{
    size_t sz = scalar_size(t);
    if (sz) {
        if ((size_t)(c->end - c->p) < sz)
            return 0;
        c->p += sz;
        return 1;
    }
    if (t == PII_KV_STRING) {
        const char *s;
        uint64_t n;
        return rd_str(c, &s, &n);
    }
    if (t == PII_KV_ARRAY) {
        uint32_t et;
        uint64_t cnt;
        if (depth >= GGUF_MAX_ARRAY_DEPTH || !rd_u32(c, &et) || !rd_u64(c, &cnt))
            return 0;
        size_t es = scalar_size(et);
        if (es) {
            if (cnt > (uint64_t)(c->end - c->p) / es)
                return 0;
            c->p += cnt * es;
            return 1;
        }
        if (et != PII_KV_STRING && et != PII_KV_ARRAY)
            return 0;
        /* each element takes at least 8 bytes: bound the loop first */
        if (cnt > (uint64_t)(c->end - c->p) / 8)
            return 0;
        for (uint64_t i = 0; i < cnt; i++)
            if (!skip_value(c, et, depth + 1))
                return 0;
        return 1;
    }
    return 0;
}

static int ggml_dtype(uint32_t g, pii_dtype *t)
{
    switch (g) {
    case 0:
        *t = PII_DT_F32;
        return 1;
    case 1:
        *t = PII_DT_F16;
        return 1;
    case 8:
        *t = PII_DT_Q8_0;
        return 1;
    case 24:
        *t = PII_DT_I8;
        return 1;
    case 25:
        *t = PII_DT_I16;
        return 1;
    case 26:
        *t = PII_DT_I32;
        return 1;
    case 27:
        *t = PII_DT_I64;
        return 1;
    case 28:
        *t = PII_DT_F64;
        return 1;
    case 30:
        *t = PII_DT_BF16;
        return 1;
    default:
        return 0;
    }
}

pii_err pii_rt_gguf_parse(pii_rt_store *s, const rt_map *m, char *errbuf, size_t cap)
{
    const char *f = m->path;
    cur c = {m->base, m->base + m->len};
    uint32_t magic, ver;
    uint64_t ntens, nkv;
    if (!rd_u32(&c, &magic) || magic != 0x46554747u)
        return pii_rt_fail(errbuf, cap, PII_EFORMAT, f, "not a GGUF file");
    if (!rd_u32(&c, &ver) || !rd_u64(&c, &ntens) || !rd_u64(&c, &nkv))
        return pii_rt_fail(errbuf, cap, PII_ETRUNC, f, "GGUF header truncated");
    if (ver != 2 && ver != 3)
        return pii_rt_fail(errbuf, cap, PII_EUNSUPPORTED, f, "GGUF version %u (need 2 or 3)", ver);
    if (ntens > PII_RT_MAX_TENSORS || nkv > PII_RT_MAX_TENSORS)
        return pii_rt_fail(errbuf, cap, PII_ETOOBIG, f, "GGUF claims %llu tensors and %llu keys",
                           (unsigned long long)ntens, (unsigned long long)nkv);
    /* A key takes >= 13 bytes, a tensor info >= 24: refuse lies early. */
    if (nkv * 13 + ntens * 24 > (uint64_t)(c.end - c.p))
        return pii_rt_fail(errbuf, cap, PII_ETRUNC, f,
                           "GGUF claims %llu keys and %llu tensors; the file is too short",
                           (unsigned long long)nkv, (unsigned long long)ntens);
    s->kv = calloc(nkv ? nkv : 1, sizeof *s->kv);
    if (!s->kv)
        return PII_ENOMEM;
    uint32_t align = GGUF_DEFAULT_ALIGN;
    for (uint64_t i = 0; i < nkv; i++) {
        const char *k;
        uint64_t kl;
        uint32_t t;
        if (!rd_str(&c, &k, &kl) || !rd_u32(&c, &t))
            return pii_rt_fail(errbuf, cap, PII_ETRUNC, f, "GGUF metadata entry %llu truncated",
                               (unsigned long long)i);
        if (kl == 0 || kl > PII_RT_MAX_NAME || memchr(k, 0, kl))
            return pii_rt_fail(errbuf, cap, PII_EFORMAT, f, "GGUF metadata entry %llu: bad key",
                               (unsigned long long)i);
        rt_kv *kv = &s->kv[s->nkv];
        kv->key = malloc(kl + 1);
        if (!kv->key)
            return PII_ENOMEM;
        memcpy(kv->key, k, kl);
        kv->key[kl] = 0;
        s->nkv++;
        kv->type = (pii_rt_kvtype)t;
        if (t == PII_KV_ARRAY) {
            cur c2 = c;
            uint32_t et;
            uint64_t cnt;
            if (!rd_u32(&c2, &et) || !rd_u64(&c2, &cnt))
                return pii_rt_fail(errbuf, cap, PII_ETRUNC, f, "GGUF key '%s': array truncated",
                                   kv->key);
            kv->elem = (pii_rt_kvtype)et;
            kv->count = cnt;
            kv->val = c2.p;
        } else {
            kv->val = c.p;
        }
        if (!skip_value(&c, t, 0))
            return pii_rt_fail(errbuf, cap, PII_ETRUNC, f,
                               "GGUF key '%s': value of type %u truncated or malformed", kv->key,
                               t);
        kv->vend = c.p;
        if (!strcmp(kv->key, "general.alignment")) {
            if (t != PII_KV_U32)
                return pii_rt_fail(errbuf, cap, PII_EFORMAT, f, "general.alignment is not u32");
            memcpy(&align, kv->val, 4);
            if (align == 0 || (align & (align - 1)) || align > 65536)
                return pii_rt_fail(errbuf, cap, PII_EFORMAT, f, "general.alignment %u", align);
        }
    }
    /* Tensor infos: offsets are checked once the data section is known. */
    uint64_t *offs = malloc((ntens ? ntens : 1) * sizeof *offs);
    if (!offs)
        return PII_ENOMEM;
    pii_err rc = PII_OK;
    size_t first = s->nt;
    for (uint64_t i = 0; i < ntens; i++) {
        const char *nm;
        uint64_t nl, off;
        uint32_t nd, gt;
        if (!rd_str(&c, &nm, &nl) || !rd_u32(&c, &nd)) {
            rc = pii_rt_fail(errbuf, cap, PII_ETRUNC, f, "GGUF tensor info %llu truncated",
                             (unsigned long long)i);
            goto out;
        }
        if (nl == 0 || nl > PII_RT_MAX_NAME || memchr(nm, 0, nl)) {
            rc = pii_rt_fail(errbuf, cap, PII_EFORMAT, f, "GGUF tensor info %llu: bad name",
                             (unsigned long long)i);
            goto out;
        }
        pii_rt_tensor t;
        memset(&t, 0, sizeof t);
        t.file = m->path;
        char name[PII_RT_MAX_NAME + 1];
        memcpy(name, nm, nl);
        name[nl] = 0;
        if (nd > PII_RT_MAXDIM) {
            rc = pii_rt_fail(errbuf, cap, PII_EUNSUPPORTED, f, "tensor '%s': %u dimensions", name,
                             nd);
            goto out;
        }
        t.ndim = (int)nd;
        for (uint32_t d = 0; d < nd; d++) {
            uint64_t ne;
            if (!rd_u64(&c, &ne)) {
                rc = pii_rt_fail(errbuf, cap, PII_ETRUNC, f, "tensor '%s': info truncated", name);
                goto out;
            }
            if (ne > (uint64_t)INT64_MAX) {
                rc = pii_rt_fail(errbuf, cap, PII_EFORMAT, f, "tensor '%s': bad ne[%u]", name, d);
                goto out;
            }
            t.shape[nd - 1 - d] = (int64_t)ne; /* ne[0] is innermost */
        }
        if (!rd_u32(&c, &gt) || !rd_u64(&c, &off)) {
            rc = pii_rt_fail(errbuf, cap, PII_ETRUNC, f, "tensor '%s': info truncated", name);
            goto out;
        }
        if (!ggml_dtype(gt, &t.dtype)) {
            rc = pii_rt_fail(errbuf, cap, PII_EDTYPE, f, "tensor '%s': unsupported ggml type %u",
                             name, gt);
            goto out;
        }
        int ok;
        t.nelem = pii_rt_nelem(t.shape, t.ndim, &ok);
        if (!ok) {
            rc = pii_rt_fail(errbuf, cap, PII_ETOOBIG, f, "tensor '%s': shape overflows", name);
            goto out;
        }
        pii_err de;
        uint64_t inner = nd ? (uint64_t)t.shape[nd - 1] : 1;
        t.nbytes = pii_dtype_nbytes(t.dtype, t.nelem, inner, &de);
        if (de) {
            rc = pii_rt_fail(errbuf, cap, de, f,
                             de == PII_ESHAPE ? "tensor '%s': inner dimension not a multiple of "
                                                "the %s block"
                                              : "tensor '%s': size overflows (%s)",
                             name, pii_dtype_name(t.dtype));
            goto out;
        }
        offs[i] = off;
        if ((rc = pii_rt_store_add(s, name, nl, &t, errbuf, cap)))
            goto out;
    }
    uint64_t hdr = (uint64_t)(c.p - m->base);
    uint64_t dstart = (hdr + align - 1) / align * align;
    if (dstart > m->len) {
        rc = pii_rt_fail(errbuf, cap, PII_ETRUNC, f, "GGUF data section missing");
        goto out;
    }
    uint64_t dlen = m->len - dstart;
    for (uint64_t i = 0; i < ntens; i++) {
        pii_rt_tensor *t = &s->t[first + i];
        if (offs[i] % align) {
            rc = pii_rt_fail(errbuf, cap, PII_EFORMAT, f,
                             "tensor '%s': offset %llu not aligned to %u", t->name,
                             (unsigned long long)offs[i], align);
            goto out;
        }
        if (offs[i] > dlen || t->nbytes > dlen - offs[i]) {
            rc = pii_rt_fail(errbuf, cap, PII_ETRUNC, f,
                             "tensor '%s': data [%llu, +%llu) beyond the end of the file (%llu "
                             "data bytes)",
                             t->name, (unsigned long long)offs[i], (unsigned long long)t->nbytes,
                             (unsigned long long)dlen);
            goto out;
        }
        t->data = m->base + dstart + offs[i];
    }
    /* No two tensors may share bytes (issue 18: overlapping tensors were
     * accepted).  Sort the (offset, index) pairs; empty tensors overlap
     * nothing. */
    if (ntens > 1) {
        gspan *sp = malloc(ntens * sizeof *sp);
        if (!sp) {
            rc = PII_ENOMEM;
            goto out;
        }
        for (uint64_t i = 0; i < ntens; i++)
            sp[i] = (gspan){offs[i], offs[i] + s->t[first + i].nbytes, (size_t)i};
        qsort(sp, ntens, sizeof *sp, cmp_gspan);
        size_t far = 0; /* the tensor reaching furthest so far */
        for (uint64_t i = 1; i < ntens && !rc; i++) {
            if (sp[i].b < sp[far].e && sp[i].b < sp[i].e)
                rc = pii_rt_fail(errbuf, cap, PII_EFORMAT, f, "tensors '%s' and '%s' overlap",
                                 s->t[first + sp[far].ti].name, s->t[first + sp[i].ti].name);
            if (sp[i].e > sp[far].e)
                far = (size_t)i;
        }
        free(sp);
    }
out:
    free(offs);
    return rc;
}

/* ---- metadata getters ------------------------------------------------------ */

size_t pii_rt_store_kv_count(const pii_rt_store *s)
{
    return s ? s->nkv : 0;
}

const char *pii_rt_store_kv_key(const pii_rt_store *s, size_t i)
{
    return s && i < s->nkv ? s->kv[i].key : NULL;
}

long pii_rt_store_kv_find(const pii_rt_store *s, const char *key)
{
    for (size_t i = 0; s && i < s->nkv; i++)
        if (!strcmp(s->kv[i].key, key))
            return (long)i;
    return -1;
}

static const rt_kv *kv_get(const pii_rt_store *s, const char *key)
{
    long i = pii_rt_store_kv_find(s, key);
    return i < 0 ? NULL : &s->kv[i];
}

/* Reads a scalar of type t at p as int64 / double; 0 if not numeric. */
static int scalar_num(pii_rt_kvtype t, const uint8_t *p, int64_t *iv, double *dv, int *is_int)
{
    uint8_t b[8] = {0};
    size_t n = scalar_size(t);
    if (!n)
        return 0;
    memcpy(b, p, n);
    uint64_t u = 0;
    for (size_t i = 0; i < n; i++)
        u |= (uint64_t)b[i] << (8 * i);
    *is_int = 1;
    switch (t) {
    case PII_KV_U8:
    case PII_KV_U16:
    case PII_KV_U32:
    case PII_KV_BOOL:
        *iv = (int64_t)u;
        break;
    case PII_KV_U64:
        if (u > (uint64_t)INT64_MAX)
            return 0;
        *iv = (int64_t)u;
        break;
    case PII_KV_I8:
        *iv = (int8_t)u;
        break;
    case PII_KV_I16:
        *iv = (int16_t)u;
        break;
    case PII_KV_I32:
        *iv = (int32_t)u;
        break;
    case PII_KV_I64:
        *iv = (int64_t)u;
        break;
    case PII_KV_F32: {
        float fv;
        uint32_t w = (uint32_t)u;
        memcpy(&fv, &w, 4);
        *dv = fv;
        *is_int = 0;
        return 1;
    }
    case PII_KV_F64:
        memcpy(dv, &u, 8);
        *is_int = 0;
        return 1;
    default:
        return 0;
    }
    *dv = (double)*iv;
    return 1;
}

/* The number under key (scalar_num's readings); PII_ENOTFOUND without
 * one, PII_EFORMAT when it is not a number. */
static pii_err kv_number(const pii_rt_store *s, const char *key, int64_t *iv, double *dv,
                         int *isint)
{
    const rt_kv *kv = kv_get(s, key);
    if (!kv)
        return PII_ENOTFOUND;
    return scalar_num(kv->type, kv->val, iv, dv, isint) ? PII_OK : PII_EFORMAT;
}

pii_err pii_rt_store_kv_int(const pii_rt_store *s, const char *key, int64_t *out)
{
    int64_t iv;
    double dv;
    int isint;
    pii_err e = kv_number(s, key, &iv, &dv, &isint);
    if (e)
        return e;
    if (!isint)
        return PII_EFORMAT;
    *out = iv;
    return PII_OK;
}

pii_err pii_rt_store_kv_num(const pii_rt_store *s, const char *key, double *out)
{
    int64_t iv;
    int isint;
    return kv_number(s, key, &iv, out, &isint);
}

pii_err pii_rt_store_kv_str(const pii_rt_store *s, const char *key, const char **p, size_t *len)
{
    const rt_kv *kv = kv_get(s, key);
    if (!kv)
        return PII_ENOTFOUND;
    if (kv->type != PII_KV_STRING)
        return PII_EFORMAT;
    cur c = {kv->val, kv->vend};
    uint64_t n;
    if (!rd_str(&c, p, &n))
        return PII_EFORMAT;
    *len = (size_t)n;
    return PII_OK;
}

pii_err pii_rt_store_kv_arr(const pii_rt_store *s, const char *key, pii_rt_kvtype *elem,
                            uint64_t *count, const void **data)
{
    const rt_kv *kv = kv_get(s, key);
    if (!kv)
        return PII_ENOTFOUND;
    if (kv->type != PII_KV_ARRAY)
        return PII_EFORMAT;
    *elem = kv->elem;
    *count = kv->count;
    *data = scalar_size(kv->elem) ? kv->val : NULL;
    return PII_OK;
}

pii_err pii_rt_store_kv_strings(const pii_rt_store *s, const char *key, const char **ptr,
                                uint32_t *len, uint64_t count)
{
    const rt_kv *kv = kv_get(s, key);
    if (!kv)
        return PII_ENOTFOUND;
    if (kv->type != PII_KV_ARRAY || kv->elem != PII_KV_STRING)
        return PII_EFORMAT;
    if (count != kv->count)
        return PII_EINVAL;
    cur c = {kv->val, kv->vend};
    for (uint64_t i = 0; i < count; i++) {
        const char *p;
        uint64_t n;
        if (!rd_u64(&c, &n) || n > UINT32_MAX || n > (uint64_t)(c.end - c.p))
            return PII_EFORMAT;
        p = (const char *)c.p;
        c.p += n;
        ptr[i] = p;
        len[i] = (uint32_t)n;
    }
    return PII_OK;
}
