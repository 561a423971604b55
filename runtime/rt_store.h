/* rt_store.h — private: the tensor store shared by the safetensors and GGUF
 * readers (runtime/ only). */
#ifndef PII_RT_STORE_H
#define PII_RT_STORE_H

#include <stdarg.h>

#include "pii_rt.h"

typedef struct rt_map {
    char *path; /* file name used in messages */
    const uint8_t *base;
    size_t len;
    int owned; /* munmap on free */
} rt_map;

typedef struct rt_kv {
    char *key;
    const uint8_t *val;  /* value bytes inside the mapping */
    const uint8_t *vend; /* end of the value (validated)    */
    uint64_t count;      /* arrays: element count           */
    pii_rt_kvtype type, elem;
} rt_kv;

struct pii_rt_store {
    pii_rt_format fmt;
    rt_map *maps;
    size_t nmaps;
    pii_rt_tensor *t;
    size_t nt, tcap;
    uint32_t *hash; /* open addressing: index+1, 0 = empty */
    size_t hcap;
    char **meta; /* safetensors __metadata__: key, value, key, value ... */
    size_t nmeta;
    rt_kv *kv;
    size_t nkv;
};

/* Formats "file: message" into errbuf; returns e. */
pii_err pii_rt_fail(char *errbuf, size_t cap, pii_err e, const char *file, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Appends a tensor (name copied); PII_EFORMAT on a duplicate name. */
pii_err pii_rt_store_add(pii_rt_store *s, const char *name, size_t namelen, pii_rt_tensor *t,
                         char *errbuf, size_t cap);
pii_err pii_rt_store_index(pii_rt_store *s, char *errbuf, size_t cap);

/* Validates and appends the tensors of one safetensors image. */
pii_err pii_rt_st_parse(pii_rt_store *s, const rt_map *m, char *errbuf, size_t cap);
/* Validates and loads one GGUF image (tensors and metadata). */
pii_err pii_rt_gguf_parse(pii_rt_store *s, const rt_map *m, char *errbuf, size_t cap);

/* Checked product of dims (0 on overflow, with *ok = 0). */
uint64_t pii_rt_nelem(const int64_t *shape, int ndim, int *ok);

#endif
