/* store.c — the tensor store: file mapping, safetensors (single and
 * sharded), metadata getters.  GGUF parsing is in gguf.c; the tensor table
 * (adding, the name index, lookup by name) in store_index.c, which both
 * readers call. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "pii_file.h"
#include "rt_store.h"

/* ---- mapping ------------------------------------------------------------ */

static pii_err map_file(const char *path, rt_map *m, char *errbuf, size_t cap)
{
    memset(m, 0, sizeof *m);
    m->path = strdup(path);
    if (!m->path)
        return PII_ENOMEM;
    /* O_NONBLOCK: a FIFO named as a model file must not hang in open();
     * it is refused below (not a regular file) */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return pii_rt_fail(errbuf, cap, errno == ENOENT ? PII_ENOTFOUND : PII_EIO, path, "%s",
                           strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return pii_rt_fail(errbuf, cap, PII_EIO, path, "%s", strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return pii_rt_fail(errbuf, cap, PII_EIO, path, "not a regular file");
    }
    if (st.st_size < 8) {
        close(fd);
        return pii_rt_fail(errbuf, cap, PII_ETRUNC, path,
                           "file too short (%lld bytes) for a header", (long long)st.st_size);
    }
    if ((uint64_t)st.st_size > (uint64_t)SIZE_MAX) {
        close(fd);
        return pii_rt_fail(errbuf, cap, PII_ETOOBIG, path, "file too large to map");
    }
    void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    int e = errno;
    close(fd);
    if (p == MAP_FAILED)
        return pii_rt_fail(errbuf, cap, PII_EIO, path, "mmap: %s", strerror(e));
    m->base = p;
    m->len = (size_t)st.st_size;
    m->owned = 1;
    return PII_OK;
}

static pii_err push_map(pii_rt_store *s, rt_map *m)
{
    rt_map *nm = realloc(s->maps, (s->nmaps + 1) * sizeof *nm);
    if (!nm)
        return PII_ENOMEM;
    s->maps = nm;
    s->maps[s->nmaps++] = *m;
    return PII_OK;
}

void pii_rt_store_release(const pii_rt_store *s, const void *p, size_t len)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < s->nmaps; i++) {
        const rt_map *m = &s->maps[i];
        if (!m->owned || b < m->base || len > m->len || b - m->base > (ptrdiff_t)(m->len - len))
            continue;
        /* Only pages wholly inside the range (neighbours keep theirs). */
        uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
        uintptr_t a = ((uintptr_t)b + pg - 1) / pg * pg, z = ((uintptr_t)b + len) / pg * pg;
        if (z > a)
            madvise((void *)a, z - a, MADV_DONTNEED); /* read-only private: refetched if read */
        return;
    }
}

void pii_rt_store_free(pii_rt_store *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->nmaps; i++) {
        if (s->maps[i].owned)
            munmap((void *)s->maps[i].base, s->maps[i].len);
        free(s->maps[i].path);
    }
    free(s->maps);
    for (size_t i = 0; i < s->nt; i++)
        free((char *)s->t[i].name);
    free(s->t);
    free(s->hash);
    for (size_t i = 0; i < s->nmeta; i++)
        free(s->meta[i]);
    free(s->meta);
    for (size_t i = 0; i < s->nkv; i++)
        free(s->kv[i].key);
    free(s->kv);
    free(s);
}

/* ---- safetensors -------------------------------------------------------- */

static int st_dtype(const char *s, pii_dtype *t)
{
    static const struct {
        const char *n;
        pii_dtype t;
    } tab[] = {{"F32", PII_DT_F32}, {"F16", PII_DT_F16}, {"BF16", PII_DT_BF16},
               {"I32", PII_DT_I32}, {"I64", PII_DT_I64}, {"I8", PII_DT_I8},
               {"U8", PII_DT_U8},   {"I16", PII_DT_I16}, {"F64", PII_DT_F64}};
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (!strcmp(s, tab[i].n)) {
            *t = tab[i].t;
            return 1;
        }
    return 0;
}

static int get_u64(json_object *o, uint64_t *v)
{
    if (!o || !json_object_is_type(o, json_type_int))
        return 0;
    errno = 0;
    int64_t x = json_object_get_int64(o);
    if (x < 0)
        return 0;
    if (x == INT64_MAX) { /* json-c saturates: try the unsigned reading */
        uint64_t u = json_object_get_uint64(o);
        if (errno)
            return 0;
        *v = u;
        return 1;
    }
    *v = (uint64_t)x;
    return 1;
}

/* Parses a JSON text of exactly len bytes (trailing whitespace allowed). */
static json_object *parse_json(const char *p, size_t len, const char **why)
{
    if (len > INT_MAX) {
        *why = "JSON text too large";
        return NULL;
    }
    json_tokener *tok = json_tokener_new_ex(64);
    if (!tok) {
        *why = "out of memory";
        return NULL;
    }
    json_object *o = json_tokener_parse_ex(tok, p, (int)len);
    enum json_tokener_error je = json_tokener_get_error(tok);
    size_t end = json_tokener_get_parse_end(tok);
    json_tokener_free(tok);
    if (!o || je != json_tokener_success) {
        json_object_put(o);
        *why = je == json_tokener_continue ? "JSON text ends early" : json_tokener_error_desc(je);
        return NULL;
    }
    for (size_t i = end; i < len; i++)
        if (p[i] != ' ' && p[i] != '\t' && p[i] != '\n' && p[i] != '\r' && p[i] != 0) {
            json_object_put(o);
            *why = "garbage after the JSON header";
            return NULL;
        }
    return o;
}

typedef struct span_ {
    uint64_t b, e;
    size_t ti;
} span_;

static int cmp_span(const void *a, const void *b)
{
    const span_ *x = a, *y = b;
    return x->b < y->b ? -1 : x->b > y->b ? 1 : (x->e < y->e ? -1 : x->e > y->e);
}

pii_err pii_rt_st_parse(pii_rt_store *s, const rt_map *m, char *errbuf, size_t cap)
{
    const char *f = m->path;
    if (m->len < 8)
        return pii_rt_fail(errbuf, cap, PII_ETRUNC, f, "file too short for a safetensors header");
    uint64_t hlen = 0;
    for (int i = 7; i >= 0; i--)
        hlen = hlen << 8 | m->base[i];
    if (hlen > PII_RT_MAX_HEADER)
        return pii_rt_fail(errbuf, cap, PII_ETOOBIG, f,
                           "header claims %llu bytes (limit %u): not a safetensors file?",
                           (unsigned long long)hlen, PII_RT_MAX_HEADER);
    if (hlen < 2 || hlen > m->len - 8)
        return pii_rt_fail(errbuf, cap, PII_ETRUNC, f,
                           "header claims %llu bytes but the file has %zu after the length",
                           (unsigned long long)hlen, m->len - 8);
    const char *hp = (const char *)m->base + 8;
    if (hp[0] != '{')
        return pii_rt_fail(errbuf, cap, PII_EFORMAT, f, "header is not a JSON object");
    const char *why = "";
    json_object *root = parse_json(hp, (size_t)hlen, &why);
    if (!root)
        return pii_rt_fail(errbuf, cap, PII_EJSON, f, "header: %s", why);
    pii_err rc = PII_OK;
    if (!json_object_is_type(root, json_type_object)) {
        rc = pii_rt_fail(errbuf, cap, PII_EFORMAT, f, "header is not a JSON object");
        goto out;
    }
    const uint8_t *data = m->base + 8 + hlen;
    uint64_t dlen = m->len - 8 - hlen;
    size_t first = s->nt;
    json_object_object_foreach(root, key, val)
    {
        if (!strcmp(key, "__metadata__")) {
            if (!json_object_is_type(val, json_type_object)) {
                rc = pii_rt_fail(errbuf, cap, PII_EFORMAT, f, "__metadata__ is not an object");
                goto out;
            }
            json_object_object_foreach(val, mk, mv)
            {
                if (!json_object_is_type(mv, json_type_string))
                    continue;
                char **nm = realloc(s->meta, (s->nmeta + 2) * sizeof *nm);
                if (!nm) {
                    rc = PII_ENOMEM;
                    goto out;
                }
                s->meta = nm;
                s->meta[s->nmeta] = strdup(mk);
                s->meta[s->nmeta + 1] = strdup(json_object_get_string(mv));
                s->nmeta += 2;
                if (!s->meta[s->nmeta - 2] || !s->meta[s->nmeta - 1]) {
                    rc = PII_ENOMEM;
                    goto out;
                }
            }
            continue;
        }
        size_t klen = strlen(key);
        if (klen == 0 || klen > PII_RT_MAX_NAME) {
            rc = pii_rt_fail(errbuf, cap, PII_EFORMAT, f, "tensor name of %zu bytes", klen);
            goto out;
        }
        json_object *jd, *js, *jo;
        if (!json_object_is_type(val, json_type_object) ||
            !json_object_object_get_ex(val, "dtype", &jd) ||
            !json_object_object_get_ex(val, "shape", &js) ||
            !json_object_object_get_ex(val, "data_offsets", &jo) ||
            !json_object_is_type(jd, json_type_string) ||
            !json_object_is_type(js, json_type_array) ||
            !json_object_is_type(jo, json_type_array) || json_object_array_length(jo) != 2) {
            rc = pii_rt_fail(errbuf, cap, PII_EFORMAT, f,
                             "tensor '%s': entry needs dtype, shape and data_offsets[2]", key);
            goto out;
        }
        pii_rt_tensor t;
        memset(&t, 0, sizeof t);
        t.file = m->path;
        const char *ds = json_object_get_string(jd);
        if (!st_dtype(ds, &t.dtype)) {
            rc = pii_rt_fail(errbuf, cap, PII_EDTYPE, f, "tensor '%s': unsupported dtype '%.32s'",
                             key, ds);
            goto out;
        }
        size_t nd = json_object_array_length(js);
        if (nd > PII_RT_MAXDIM) {
            rc = pii_rt_fail(errbuf, cap, PII_EUNSUPPORTED, f,
                             "tensor '%s': %zu dimensions (max %d)", key, nd, PII_RT_MAXDIM);
            goto out;
        }
        t.ndim = (int)nd;
        for (size_t d = 0; d < nd; d++) {
            uint64_t v;
            if (!get_u64(json_object_array_get_idx(js, d), &v) || v > (uint64_t)INT64_MAX) {
                rc =
                    pii_rt_fail(errbuf, cap, PII_EFORMAT, f, "tensor '%s': bad shape[%zu]", key, d);
                goto out;
            }
            t.shape[d] = (int64_t)v;
        }
        int ok;
        t.nelem = pii_rt_nelem(t.shape, t.ndim, &ok);
        if (!ok) {
            rc = pii_rt_fail(errbuf, cap, PII_ETOOBIG, f, "tensor '%s': shape overflows", key);
            goto out;
        }
        pii_err de;
        t.nbytes = pii_dtype_nbytes(t.dtype, t.nelem, 1, &de);
        if (de) {
            rc = pii_rt_fail(errbuf, cap, de, f, "tensor '%s': size overflows", key);
            goto out;
        }
        uint64_t b, e;
        if (!get_u64(json_object_array_get_idx(jo, 0), &b) ||
            !get_u64(json_object_array_get_idx(jo, 1), &e) || e < b) {
            rc = pii_rt_fail(errbuf, cap, PII_EFORMAT, f, "tensor '%s': bad data_offsets", key);
            goto out;
        }
        if (e - b != t.nbytes) {
            rc = pii_rt_fail(errbuf, cap, PII_ESHAPE, f,
                             "tensor '%s': data_offsets span %llu bytes but %s%s needs %llu", key,
                             (unsigned long long)(e - b), pii_dtype_name(t.dtype),
                             t.ndim ? " shape" : "", (unsigned long long)t.nbytes);
            goto out;
        }
        if (e > dlen) {
            rc = pii_rt_fail(errbuf, cap, PII_ETRUNC, f,
                             "tensor '%s': data [%llu, %llu) beyond the end of the file (%llu data "
                             "bytes)",
                             key, (unsigned long long)b, (unsigned long long)e,
                             (unsigned long long)dlen);
            goto out;
        }
        t.data = data + b;
        if ((rc = pii_rt_store_add(s, key, klen, &t, errbuf, cap)))
            goto out;
    }
    /* No two tensors may share bytes. */
    size_t cnt = s->nt - first;
    if (cnt > 1) {
        span_ *sp = malloc(cnt * sizeof *sp);
        if (!sp) {
            rc = PII_ENOMEM;
            goto out;
        }
        for (size_t i = 0; i < cnt; i++) {
            sp[i].b = (uint64_t)((const uint8_t *)s->t[first + i].data - data);
            sp[i].e = sp[i].b + s->t[first + i].nbytes;
            sp[i].ti = first + i;
        }
        qsort(sp, cnt, sizeof *sp, cmp_span);
        size_t far = 0; /* the non-empty tensor reaching furthest so far */
        for (size_t i = 1; i < cnt; i++) {
            if (sp[i].e > sp[i].b && sp[i].b < sp[far].e) {
                rc = pii_rt_fail(errbuf, cap, PII_EFORMAT, f, "tensors '%s' and '%s' overlap",
                                 s->t[sp[far].ti].name, s->t[sp[i].ti].name);
                break;
            }
            if (sp[i].e > sp[far].e)
                far = i;
        }
        free(sp);
    }
out:
    json_object_put(root);
    return rc;
}

/* ---- opening -------------------------------------------------------------- */

static int has_suffix(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

static char *path_join(const char *dir, const char *name)
{
    size_t a = strlen(dir), b = strlen(name);
    char *p = malloc(a + b + 2);
    if (!p)
        return NULL;
    memcpy(p, dir, a);
    size_t k = a;
    if (k && p[k - 1] != '/')
        p[k++] = '/';
    memcpy(p + k, name, b + 1);
    return p;
}

static char *dir_of(const char *path)
{
    const char *sl = strrchr(path, '/');
    if (!sl)
        return strdup(".");
    size_t n = (size_t)(sl - path);
    char *d = malloc(n + 2);
    if (!d)
        return NULL;
    if (n == 0)
        d[n++] = '/';
    else
        memcpy(d, path, n);
    d[n] = 0;
    return d;
}

static pii_err open_one(pii_rt_store *s, const char *path, char *errbuf, size_t cap)
{
    rt_map m;
    pii_err rc = map_file(path, &m, errbuf, cap);
    if (rc) {
        free(m.path);
        return rc;
    }
    if ((rc = push_map(s, &m))) {
        munmap((void *)m.base, m.len);
        free(m.path);
        return rc;
    }
    const rt_map *mm = &s->maps[s->nmaps - 1];
    if (has_suffix(path, ".gguf") && (mm->len < 4 || memcmp(mm->base, "GGUF", 4) != 0))
        return pii_rt_fail(errbuf, cap, PII_EFORMAT, path,
                           "not a GGUF file (the first 4 bytes are not \"GGUF\")");
    if (mm->len >= 4 && !memcmp(mm->base, "GGUF", 4)) {
        if (s->nmaps > 1)
            return pii_rt_fail(errbuf, cap, PII_EFORMAT, path, "GGUF files cannot be sharded");
        s->fmt = PII_RT_FMT_GGUF;
        return pii_rt_gguf_parse(s, mm, errbuf, cap);
    }
    s->fmt = PII_RT_FMT_SAFETENSORS;
    return pii_rt_st_parse(s, mm, errbuf, cap);
}

static pii_err read_small_file(const char *path, char **out, size_t *len, char *errbuf, size_t cap)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC); /* a FIFO must not hang */
    struct stat st;
    if (fd < 0)
        return pii_rt_fail(errbuf, cap, errno == ENOENT ? PII_ENOTFOUND : PII_EIO, path, "%s",
                           strerror(errno));
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return pii_rt_fail(errbuf, cap, PII_EIO, path, "not a regular file");
    }
    FILE *fp = fdopen(fd, "rb");
    if (!fp) {
        close(fd);
        return pii_rt_fail(errbuf, cap, PII_ENOMEM, path, "%s", strerror(errno));
    }
    /* PII_RT_MAX_HEADER bytes at most: the bound is the first size refused */
    pii_err e = pii_file_read_all(fp, (size_t)PII_RT_MAX_HEADER + 1, out, len);
    fclose(fp);
    if (e == PII_ETOOBIG)
        return pii_rt_fail(errbuf, cap, e, path, "file larger than %u bytes", PII_RT_MAX_HEADER);
    if (e == PII_EIO)
        return pii_rt_fail(errbuf, cap, e, path, "read error");
    return e;
}

static pii_err open_index(pii_rt_store *s, const char *ipath, char *errbuf, size_t cap)
{
    char *txt = NULL, *dir = NULL;
    size_t len = 0;
    pii_err rc = read_small_file(ipath, &txt, &len, errbuf, cap);
    if (rc)
        return rc;
    const char *why = "";
    json_object *root = parse_json(txt, len, &why), *wm = NULL;
    free(txt);
    if (!root)
        return pii_rt_fail(errbuf, cap, PII_EJSON, ipath, "%s", why);
    if (!json_object_object_get_ex(root, "weight_map", &wm) ||
        !json_object_is_type(wm, json_type_object)) {
        rc = pii_rt_fail(errbuf, cap, PII_EFORMAT, ipath, "no \"weight_map\" object");
        goto out;
    }
    dir = dir_of(ipath);
    if (!dir) {
        rc = PII_ENOMEM;
        goto out;
    }
    /* Open each distinct shard once, in first-mention order. */
    json_object_object_foreach(wm, tn, fv)
    {
        (void)tn;
        if (!json_object_is_type(fv, json_type_string)) {
            rc = pii_rt_fail(errbuf, cap, PII_EFORMAT, ipath, "weight_map['%s'] is not a string",
                             tn);
            goto out;
        }
        const char *fn = json_object_get_string(fv);
        if (!*fn || strchr(fn, '/') || !strcmp(fn, "..") || !strcmp(fn, ".")) {
            rc = pii_rt_fail(errbuf, cap, PII_EFORMAT, ipath,
                             "weight_map['%s']: shard name must be a plain file name", tn);
            goto out;
        }
        char *sp = path_join(dir, fn);
        if (!sp) {
            rc = PII_ENOMEM;
            goto out;
        }
        int seen = 0;
        for (size_t i = 0; i < s->nmaps && !seen; i++)
            seen = !strcmp(s->maps[i].path, sp);
        if (!seen)
            rc = open_one(s, sp, errbuf, cap);
        free(sp);
        if (rc)
            goto out;
        if (s->fmt != PII_RT_FMT_SAFETENSORS) {
            rc = pii_rt_fail(errbuf, cap, PII_EFORMAT, ipath, "shard '%s' is not safetensors", fn);
            goto out;
        }
    }
    if (s->nmaps == 0) {
        rc = pii_rt_fail(errbuf, cap, PII_EFORMAT, ipath, "empty weight_map");
        goto out;
    }
    if ((rc = pii_rt_store_index(s, errbuf, cap)))
        goto out;
    /* Every mapped tensor must be found in the shard the index names. */
    json_object_object_foreach(wm, tn2, fv2)
    {
        const pii_rt_tensor *t = pii_rt_store_find(s, tn2);
        const char *fn = json_object_get_string(fv2);
        const char *base = t ? strrchr(t->file, '/') : NULL;
        base = base ? base + 1 : t ? t->file : NULL;
        if (!t || strcmp(base, fn)) {
            rc = pii_rt_fail(errbuf, cap, PII_ENOTFOUND, ipath, "tensor '%s' is not in shard '%s'",
                             tn2, fn);
            goto out;
        }
    }
out:
    free(dir);
    json_object_put(root);
    return rc;
}

static pii_rt_store *store_new(void)
{
    return calloc(1, sizeof(pii_rt_store));
}

/* The end of an open: indexes s unless its parser did, then hands it to
 * *out, or frees it on any error (rc's or the index's). */
static pii_err store_done(pii_rt_store *s, pii_err rc, pii_rt_store **out, char *errbuf, size_t cap)
{
    if (!rc && !s->hash)
        rc = pii_rt_store_index(s, errbuf, cap);
    if (rc) {
        pii_rt_store_free(s);
        return rc;
    }
    *out = s;
    return PII_OK;
}

pii_err pii_rt_store_open(const char *path, pii_rt_store **out, char *errbuf, size_t cap)
{
    *out = NULL;
    if (errbuf && cap)
        errbuf[0] = 0;
    if (!path || !*path)
        return PII_EINVAL;
    pii_rt_store *s = store_new();
    if (!s)
        return PII_ENOMEM;
    pii_err rc;
    struct stat st;
    if (stat(path, &st) != 0) {
        rc = pii_rt_fail(errbuf, cap, errno == ENOENT ? PII_ENOTFOUND : PII_EIO, path, "%s",
                         strerror(errno));
    } else if (S_ISDIR(st.st_mode)) {
        char *ip = path_join(path, "model.safetensors.index.json");
        char *sp = path_join(path, "model.safetensors");
        if (!ip || !sp)
            rc = PII_ENOMEM;
        else if (access(ip, F_OK) == 0)
            rc = open_index(s, ip, errbuf, cap);
        else if (access(sp, F_OK) == 0)
            rc = open_one(s, sp, errbuf, cap);
        else
            rc = pii_rt_fail(errbuf, cap, PII_ENOTFOUND, path,
                             "no model.safetensors or model.safetensors.index.json");
        free(ip);
        free(sp);
    } else if (has_suffix(path, ".json")) {
        rc = open_index(s, path, errbuf, cap);
    } else {
        rc = open_one(s, path, errbuf, cap);
    }
    return store_done(s, rc, out, errbuf, cap);
}

pii_err pii_rt_store_open_mem(const void *bytes, size_t len, const char *label, pii_rt_store **out,
                              char *errbuf, size_t cap)
{
    *out = NULL;
    if (errbuf && cap)
        errbuf[0] = 0;
    if (!label)
        label = "<memory>";
    if (!bytes || len < 8)
        return pii_rt_fail(errbuf, cap, PII_ETRUNC, label, "image too short (%zu bytes)", len);
    pii_rt_store *s = store_new();
    if (!s)
        return PII_ENOMEM;
    rt_map m = {strdup(label), bytes, len, 0};
    pii_err rc = m.path ? push_map(s, &m) : PII_ENOMEM;
    if (rc) {
        free(m.path);
        pii_rt_store_free(s);
        return rc;
    }
    if (!memcmp(bytes, "GGUF", 4)) {
        s->fmt = PII_RT_FMT_GGUF;
        rc = pii_rt_gguf_parse(s, &s->maps[0], errbuf, cap);
    } else {
        s->fmt = PII_RT_FMT_SAFETENSORS;
        rc = pii_rt_st_parse(s, &s->maps[0], errbuf, cap);
    }
    return store_done(s, rc, out, errbuf, cap);
}

/* ---- accessors ------------------------------------------------------------ */

pii_rt_format pii_rt_store_format(const pii_rt_store *s)
{
    return s->fmt;
}

size_t pii_rt_store_count(const pii_rt_store *s)
{
    return s ? s->nt : 0;
}

const pii_rt_tensor *pii_rt_store_at(const pii_rt_store *s, size_t i)
{
    return s && i < s->nt ? &s->t[i] : NULL;
}

size_t pii_rt_store_nfiles(const pii_rt_store *s)
{
    return s ? s->nmaps : 0;
}

const char *pii_rt_store_file(const pii_rt_store *s, size_t i)
{
    return s && i < s->nmaps ? s->maps[i].path : NULL;
}

uint64_t pii_rt_store_bytes(const pii_rt_store *s)
{
    uint64_t n = 0;
    for (size_t i = 0; s && i < s->nmaps; i++)
        n += s->maps[i].len;
    return n;
}

const char *pii_rt_store_st_meta(const pii_rt_store *s, const char *key)
{
    for (size_t i = 0; s && i + 1 < s->nmeta; i += 2)
        if (!strcmp(s->meta[i], key))
            return s->meta[i + 1];
    return NULL;
}
