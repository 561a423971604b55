/* fault_alloc.c — allocation wrappers for fault injection.
 *
 * Linked in only by binaries built with the wrap flags (FAULT_WRAP in
 * mk/fuzz.mk, -Wl,--wrap=malloc,...): the linker then sends every call to
 * malloc & co. made by those binaries' own objects here, and __real_X names
 * the C library's X.  Without the flags nothing references __wrap_malloc,
 * so this archive member is never pulled in.  See core/include/pii_fault.h. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pii_fault.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t k, size_t n);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);
int __real_posix_memalign(void **p, size_t align, size_t n);
void *__real_aligned_alloc(size_t align, size_t n);

void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t k, size_t n);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t n);
int __wrap_posix_memalign(void **p, size_t align, size_t n);
void *__wrap_aligned_alloc(size_t align, size_t n);

static int fail(uint64_t bytes)
{
    pii_fault_alloc_size(bytes);
    if (!pii_fault_hit(PII_FAULT_ALLOC))
        return 0;
    errno = ENOMEM;
    return 1;
}

void *__wrap_malloc(size_t n)
{
    return fail(n) ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t k, size_t n)
{
    uint64_t bytes = n && k > UINT64_MAX / n ? UINT64_MAX : (uint64_t)k * n;
    return fail(bytes) ? NULL : __real_calloc(k, n);
}

void *__wrap_realloc(void *p, size_t n)
{
    return fail(n) ? NULL : __real_realloc(p, n); /* p stays valid on failure */
}

char *__wrap_strdup(const char *s)
{
    return fail(strlen(s) + 1) ? NULL : __real_strdup(s);
}

char *__wrap_strndup(const char *s, size_t n)
{
    return fail(strnlen(s, n) + 1) ? NULL : __real_strndup(s, n);
}

int __wrap_posix_memalign(void **p, size_t align, size_t n)
{
    return fail(n) ? ENOMEM : __real_posix_memalign(p, align, n);
}

void *__wrap_aligned_alloc(size_t align, size_t n)
{
    return fail(n) ? NULL : __real_aligned_alloc(align, n);
}
