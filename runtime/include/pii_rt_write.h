/* pii_rt_write.h — the model writers (runtime/writers.c): temporary files
 * and the streaming safetensors and GGUF writers.  Not part of
 * libpiiredact: they are in libpiitools.a (the Makefile's TOOLS_SRC), which
 * the command (mkmodel, quantize) and the tests link; include this header
 * as "pii_rt_write.h". */
#ifndef PII_RT_WRITE_H
#define PII_RT_WRITE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pii_rt.h"

/* ---- temporary files (writers.c) ----------------------------------------- */

/* Creates a new, empty file "DEST.tmp-XXXXXXXXXX" (10 random characters
 * from getrandom) beside dest, with O_CREAT | O_EXCL | O_NOFOLLOW, mode
 * 0600: a name planted in advance (a file or a symbolic link) is never
 * opened or followed, another name is drawn.  Returns the descriptor and
 * *tmp_out (malloc'd; the caller renames or unlinks it, then frees it), or
 * -1 with errno.  Every temporary file of the project is made here or by
 * the batch driver's own variant (src/batch.c, same flags). */
int pii_rt_temp_create(const char *dest, char **tmp_out);
/* The same as a stdio stream ("wb"); NULL with errno on failure. */
FILE *pii_rt_temp_fopen(const char *dest, char **tmp_out);

/* ---- writers (mkmodel, tests) ----------------------------------------- */

/* Streaming safetensors writer: declare every tensor, then write their data
 * in declaration order (any chunking).  Nothing is buffered beyond the
 * header, so multi-GB files need no memory. */
typedef struct pii_rt_st_writer pii_rt_st_writer;
pii_rt_st_writer *pii_rt_st_writer_create(pii_err *err);
void pii_rt_st_writer_free(pii_rt_st_writer *w);
pii_err pii_rt_st_writer_meta(pii_rt_st_writer *w, const char *key, const char *value);
pii_err pii_rt_st_writer_add(pii_rt_st_writer *w, const char *name, pii_dtype t, int ndim,
                             const int64_t *shape);
/* Writes the header to f (8-byte aligned data section). */
pii_err pii_rt_st_writer_begin(pii_rt_st_writer *w, FILE *f);
pii_err pii_rt_st_writer_data(pii_rt_st_writer *w, const void *p, size_t n);
/* Checks that exactly the declared bytes were written. */
pii_err pii_rt_st_writer_end(pii_rt_st_writer *w);

/* Streaming GGUF v3 writer, same protocol; alignment 32. */
typedef struct pii_rt_gguf_writer pii_rt_gguf_writer;
pii_rt_gguf_writer *pii_rt_gguf_writer_create(pii_err *err);
void pii_rt_gguf_writer_free(pii_rt_gguf_writer *w);
pii_err pii_rt_gguf_writer_kv_u32(pii_rt_gguf_writer *w, const char *key, uint32_t v);
pii_err pii_rt_gguf_writer_kv_f32(pii_rt_gguf_writer *w, const char *key, float v);
pii_err pii_rt_gguf_writer_kv_bool(pii_rt_gguf_writer *w, const char *key, int v);
pii_err pii_rt_gguf_writer_kv_str(pii_rt_gguf_writer *w, const char *key, const char *v);
pii_err pii_rt_gguf_writer_kv_strs(pii_rt_gguf_writer *w, const char *key, const char *const *v,
                                   size_t n);
/* shape outermost first (numpy order); dtype F32, F16, BF16 or Q8_0. */
pii_err pii_rt_gguf_writer_add(pii_rt_gguf_writer *w, const char *name, pii_dtype t, int ndim,
                               const int64_t *shape);
pii_err pii_rt_gguf_writer_begin(pii_rt_gguf_writer *w, FILE *f);
pii_err pii_rt_gguf_writer_data(pii_rt_gguf_writer *w, const void *p, size_t n);
pii_err pii_rt_gguf_writer_end(pii_rt_gguf_writer *w);

#endif
