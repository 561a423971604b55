/* writers.c — streaming safetensors and GGUF v3 writers.  Tensors are
 * declared first (so the header with all offsets can be written), then their
 * bytes are streamed in declaration order. */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "pii_core.h"
#include "pii_rt.h"
#include "pii_rt_write.h"

/* ---- temporary files ------------------------------------------------------ */

int pii_rt_temp_create(const char *dest, char **tmp_out)
{
    static const char al[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    static atomic_ulong counter;
    size_t dl = strlen(dest);
    char *t = malloc(dl + 32);
    if (!t) {
        errno = ENOMEM;
        return -1;
    }
    for (int tries = 0; tries < 100; tries++) {
        uint64_t v = 0;
        if (getrandom(&v, sizeof v, GRND_NONBLOCK) != (ssize_t)sizeof v) {
            struct timespec ts; /* no entropy yet: still unique, less secret */
            clock_gettime(CLOCK_REALTIME, &ts);
            v = (uint64_t)getpid() << 32 ^ (uint64_t)ts.tv_nsec ^
                (uint64_t)atomic_fetch_add(&counter, 1) * 0x9E3779B97F4A7C15u;
        }
        memcpy(t, dest, dl);
        memcpy(t + dl, ".tmp-", 5);
        for (int i = 0; i < 10; i++, v /= 62)
            t[dl + 5 + i] = al[v % 62];
        t[dl + 15] = '\0';
        int fd = open(t, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd >= 0) {
            *tmp_out = t;
            return fd;
        }
        if (errno != EEXIST)
            break;
    }
    int err = errno;
    free(t);
    errno = err;
    return -1;
}

FILE *pii_rt_temp_fopen(const char *dest, char **tmp_out)
{
    int fd = pii_rt_temp_create(dest, tmp_out);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        int err = errno;
        close(fd);
        unlink(*tmp_out);
        free(*tmp_out);
        *tmp_out = NULL;
        errno = err;
    }
    return f;
}

typedef struct wtensor {
    char *name;
    int64_t shape[PII_RT_MAXDIM];
    uint64_t nbytes;
    int ndim;
    pii_dtype dt;
} wtensor;

typedef struct wbuf {
    char *p;
    size_t n, cap;
} wbuf;

static int wb_put(wbuf *b, const void *d, size_t n)
{
    if (PII_VEC_RESERVE(b->p, b->cap, b->n + n))
        return 0;
    memcpy(b->p + b->n, d, n);
    b->n += n;
    return 1;
}

static int wb_str(wbuf *b, const char *s)
{
    return wb_put(b, s, strlen(s));
}

/* JSON string literal (names and metadata are ours, but escape anyway). */
static int wb_json_str(wbuf *b, const char *s)
{
    if (!wb_put(b, "\"", 1))
        return 0;
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        char esc[8];
        if (ch == '"' || ch == '\\') {
            esc[0] = '\\';
            esc[1] = (char)ch;
            if (!wb_put(b, esc, 2))
                return 0;
        } else if (ch < 0x20) {
            snprintf(esc, sizeof esc, "\\u%04x", ch);
            if (!wb_put(b, esc, 6))
                return 0;
        } else if (!wb_put(b, s, 1)) {
            return 0;
        }
    }
    return wb_put(b, "\"", 1);
}

static pii_err tensor_push(wtensor **v, size_t *n, const char *name, pii_dtype t, int ndim,
                           const int64_t *shape)
{
    if (!name || !*name || strlen(name) > PII_RT_MAX_NAME || ndim < 0 || ndim > PII_RT_MAXDIM ||
        (unsigned)t >= PII_DT_COUNT)
        return PII_EINVAL;
    uint64_t ne = 1;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] < 0 || (shape[i] && ne > UINT64_MAX / (uint64_t)shape[i]))
            return PII_EINVAL;
        ne *= (uint64_t)shape[i];
    }
    pii_err e;
    uint64_t nb = pii_dtype_nbytes(t, ne, ndim ? (uint64_t)shape[ndim - 1] : 1, &e);
    if (e)
        return e;
    wtensor *nv = realloc(*v, (*n + 1) * sizeof *nv);
    if (!nv)
        return PII_ENOMEM;
    *v = nv;
    wtensor *w = &nv[*n];
    memset(w, 0, sizeof *w);
    w->name = strdup(name);
    if (!w->name)
        return PII_ENOMEM;
    w->ndim = ndim;
    w->dt = t;
    w->nbytes = nb;
    for (int i = 0; i < ndim; i++)
        w->shape[i] = shape[i];
    (*n)++;
    return PII_OK;
}

/* ---- safetensors ---------------------------------------------------------- */

struct pii_rt_st_writer {
    wtensor *t;
    size_t nt;
    char **meta;
    size_t nmeta;
    FILE *f;
    uint64_t total, written;
    int begun;
};

pii_rt_st_writer *pii_rt_st_writer_create(pii_err *err)
{
    pii_rt_st_writer *w = calloc(1, sizeof *w);
    *err = w ? PII_OK : PII_ENOMEM;
    return w;
}

void pii_rt_st_writer_free(pii_rt_st_writer *w)
{
    if (!w)
        return;
    for (size_t i = 0; i < w->nt; i++)
        free(w->t[i].name);
    free(w->t);
    for (size_t i = 0; i < w->nmeta; i++)
        free(w->meta[i]);
    free(w->meta);
    free(w);
}

pii_err pii_rt_st_writer_meta(pii_rt_st_writer *w, const char *key, const char *value)
{
    if (w->begun)
        return PII_EINVAL;
    char **nm = realloc(w->meta, (w->nmeta + 2) * sizeof *nm);
    if (!nm)
        return PII_ENOMEM;
    w->meta = nm;
    nm[w->nmeta] = strdup(key);
    nm[w->nmeta + 1] = strdup(value);
    w->nmeta += 2;
    return nm[w->nmeta - 2] && nm[w->nmeta - 1] ? PII_OK : PII_ENOMEM;
}

pii_err pii_rt_st_writer_add(pii_rt_st_writer *w, const char *name, pii_dtype t, int ndim,
                             const int64_t *shape)
{
    if (w->begun || t == PII_DT_Q8_0 || t >= PII_DT_Q8_ROW)
        return PII_EINVAL; /* safetensors has no block types */
    return tensor_push(&w->t, &w->nt, name, t, ndim, shape);
}

pii_err pii_rt_st_writer_begin(pii_rt_st_writer *w, FILE *f)
{
    if (w->begun)
        return PII_EINVAL;
    wbuf b = {0};
    int ok = wb_str(&b, "{");
    if (w->nmeta) {
        ok = ok && wb_str(&b, "\"__metadata__\":{");
        for (size_t i = 0; ok && i < w->nmeta; i += 2) {
            ok = ok && (i == 0 || wb_str(&b, ",")) && wb_json_str(&b, w->meta[i]) &&
                 wb_str(&b, ":") && wb_json_str(&b, w->meta[i + 1]);
        }
        ok = ok && wb_str(&b, "}");
    }
    uint64_t off = 0;
    for (size_t i = 0; ok && i < w->nt; i++) {
        const wtensor *t = &w->t[i];
        char num[64];
        ok = ok && ((i == 0 && !w->nmeta) || wb_str(&b, ",")) && wb_json_str(&b, t->name) &&
             wb_str(&b, ":{\"dtype\":\"") && wb_str(&b, pii_dtype_name(t->dt)) &&
             wb_str(&b, "\",\"shape\":[");
        for (int d = 0; ok && d < t->ndim; d++) {
            snprintf(num, sizeof num, "%s%lld", d ? "," : "", (long long)t->shape[d]);
            ok = wb_str(&b, num);
        }
        snprintf(num, sizeof num, "],\"data_offsets\":[%llu,%llu]}", (unsigned long long)off,
                 (unsigned long long)(off + t->nbytes));
        ok = ok && wb_str(&b, num);
        off += t->nbytes;
    }
    ok = ok && wb_str(&b, "}");
    while (ok && (8 + b.n) % 64)
        ok = wb_str(&b, " ");
    if (!ok) {
        free(b.p);
        return PII_ENOMEM;
    }
    uint8_t len[8];
    for (int i = 0; i < 8; i++)
        len[i] = (uint8_t)((uint64_t)b.n >> (8 * i));
    int wok = fwrite(len, 1, 8, f) == 8 && fwrite(b.p, 1, b.n, f) == b.n;
    free(b.p);
    if (!wok)
        return PII_EWRITE;
    w->f = f;
    w->total = off;
    w->begun = 1;
    return PII_OK;
}

pii_err pii_rt_st_writer_data(pii_rt_st_writer *w, const void *p, size_t n)
{
    if (!w->begun || n > w->total - w->written)
        return PII_EINVAL;
    if (n && fwrite(p, 1, n, w->f) != n)
        return PII_EWRITE;
    w->written += n;
    return PII_OK;
}

pii_err pii_rt_st_writer_end(pii_rt_st_writer *w)
{
    if (!w->begun || w->written != w->total)
        return PII_EINVAL;
    return fflush(w->f) ? PII_EWRITE : PII_OK;
}

/* ---- GGUF v3 ------------------------------------------------------------ */

#define GG_ALIGN 32u

struct pii_rt_gguf_writer {
    wtensor *t;
    size_t nt;
    wbuf kv;
    uint64_t nkv;
    FILE *f;
    size_t cur;        /* tensor being written                */
    uint64_t cur_left; /* its bytes still to come             */
    int begun;
};

pii_rt_gguf_writer *pii_rt_gguf_writer_create(pii_err *err)
{
    pii_rt_gguf_writer *w = calloc(1, sizeof *w);
    *err = w ? PII_OK : PII_ENOMEM;
    return w;
}

void pii_rt_gguf_writer_free(pii_rt_gguf_writer *w)
{
    if (!w)
        return;
    for (size_t i = 0; i < w->nt; i++)
        free(w->t[i].name);
    free(w->t);
    free(w->kv.p);
    free(w);
}

static int put_u32(wbuf *b, uint32_t v)
{
    uint8_t x[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    return wb_put(b, x, 4);
}

static int put_u64(wbuf *b, uint64_t v)
{
    return put_u32(b, (uint32_t)v) && put_u32(b, (uint32_t)(v >> 32));
}

static int put_gstr(wbuf *b, const char *s)
{
    size_t n = strlen(s);
    return put_u64(b, n) && wb_put(b, s, n);
}

static pii_err kv_head(pii_rt_gguf_writer *w, const char *key, uint32_t type)
{
    if (w->begun)
        return PII_EINVAL;
    if (!put_gstr(&w->kv, key) || !put_u32(&w->kv, type))
        return PII_ENOMEM;
    w->nkv++;
    return PII_OK;
}

pii_err pii_rt_gguf_writer_kv_u32(pii_rt_gguf_writer *w, const char *key, uint32_t v)
{
    pii_err e = kv_head(w, key, PII_KV_U32);
    return e ? e : put_u32(&w->kv, v) ? PII_OK : PII_ENOMEM;
}

pii_err pii_rt_gguf_writer_kv_f32(pii_rt_gguf_writer *w, const char *key, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    pii_err e = kv_head(w, key, PII_KV_F32);
    return e ? e : put_u32(&w->kv, u) ? PII_OK : PII_ENOMEM;
}

pii_err pii_rt_gguf_writer_kv_bool(pii_rt_gguf_writer *w, const char *key, int v)
{
    uint8_t b = v ? 1 : 0;
    pii_err e = kv_head(w, key, PII_KV_BOOL);
    return e ? e : wb_put(&w->kv, &b, 1) ? PII_OK : PII_ENOMEM;
}

pii_err pii_rt_gguf_writer_kv_str(pii_rt_gguf_writer *w, const char *key, const char *v)
{
    pii_err e = kv_head(w, key, PII_KV_STRING);
    return e ? e : put_gstr(&w->kv, v) ? PII_OK : PII_ENOMEM;
}

pii_err pii_rt_gguf_writer_kv_strs(pii_rt_gguf_writer *w, const char *key, const char *const *v,
                                   size_t n)
{
    pii_err e = kv_head(w, key, PII_KV_ARRAY);
    if (e)
        return e;
    if (!put_u32(&w->kv, PII_KV_STRING) || !put_u64(&w->kv, n))
        return PII_ENOMEM;
    for (size_t i = 0; i < n; i++)
        if (!put_gstr(&w->kv, v[i]))
            return PII_ENOMEM;
    return PII_OK;
}

pii_err pii_rt_gguf_writer_add(pii_rt_gguf_writer *w, const char *name, pii_dtype t, int ndim,
                               const int64_t *shape)
{
    if (w->begun || (t != PII_DT_F32 && t != PII_DT_F16 && t != PII_DT_BF16 && t != PII_DT_Q8_0))
        return PII_EINVAL;
    return tensor_push(&w->t, &w->nt, name, t, ndim, shape);
}

static uint32_t ggml_type_of(pii_dtype t)
{
    switch (t) {
    case PII_DT_F16:
        return 1;
    case PII_DT_Q8_0:
        return 8;
    case PII_DT_BF16:
        return 30;
    default:
        return 0;
    }
}

static pii_err write_pad(FILE *f, uint64_t pos)
{
    static const uint8_t zero[GG_ALIGN];
    size_t pad = (size_t)((GG_ALIGN - pos % GG_ALIGN) % GG_ALIGN);
    return pad && fwrite(zero, 1, pad, f) != pad ? PII_EWRITE : PII_OK;
}

pii_err pii_rt_gguf_writer_begin(pii_rt_gguf_writer *w, FILE *f)
{
    if (w->begun)
        return PII_EINVAL;
    wbuf b = {0};
    int ok = wb_put(&b, "GGUF", 4) && put_u32(&b, 3) && put_u64(&b, w->nt) && put_u64(&b, w->nkv) &&
             wb_put(&b, w->kv.p, w->kv.n);
    uint64_t off = 0;
    for (size_t i = 0; ok && i < w->nt; i++) {
        const wtensor *t = &w->t[i];
        ok = put_gstr(&b, t->name) && put_u32(&b, (uint32_t)t->ndim);
        for (int d = t->ndim - 1; ok && d >= 0; d--)
            ok = put_u64(&b, (uint64_t)t->shape[d]);
        ok = ok && put_u32(&b, ggml_type_of(t->dt)) && put_u64(&b, off);
        off += (t->nbytes + GG_ALIGN - 1) / GG_ALIGN * GG_ALIGN;
    }
    if (!ok) {
        free(b.p);
        return PII_ENOMEM;
    }
    int wok = fwrite(b.p, 1, b.n, f) == b.n;
    pii_err e = wok ? write_pad(f, b.n) : PII_EWRITE;
    free(b.p);
    if (e)
        return e;
    w->f = f;
    w->begun = 1;
    w->cur = 0;
    w->cur_left = w->nt ? w->t[0].nbytes : 0;
    /* skip empty tensors */
    while (w->cur < w->nt && w->cur_left == 0 && ++w->cur < w->nt)
        w->cur_left = w->t[w->cur].nbytes;
    return PII_OK;
}

pii_err pii_rt_gguf_writer_data(pii_rt_gguf_writer *w, const void *p, size_t n)
{
    const uint8_t *q = p;
    if (!w->begun)
        return PII_EINVAL;
    while (n) {
        if (w->cur >= w->nt)
            return PII_EINVAL;
        size_t k = n < w->cur_left ? n : (size_t)w->cur_left;
        if (fwrite(q, 1, k, w->f) != k)
            return PII_EWRITE;
        q += k;
        n -= k;
        w->cur_left -= k;
        while (w->cur < w->nt && w->cur_left == 0) {
            pii_err e = write_pad(w->f, w->t[w->cur].nbytes);
            if (e)
                return e;
            if (++w->cur < w->nt)
                w->cur_left = w->t[w->cur].nbytes;
        }
    }
    return PII_OK;
}

pii_err pii_rt_gguf_writer_end(pii_rt_gguf_writer *w)
{
    if (!w->begun || w->cur < w->nt)
        return PII_EINVAL;
    return fflush(w->f) ? PII_EWRITE : PII_OK;
}
