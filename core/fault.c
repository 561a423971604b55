/* fault.c — the fault-injection counters (see core/include/pii_fault.h). */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "pii_fault.h"

static atomic_int g_active;                             /* any site armed or counting */
static atomic_uint_fast64_t g_count[PII_FAULT_NSITES];  /* events seen        */
static atomic_uint_fast64_t g_target[PII_FAULT_NSITES]; /* failing event, 0 off */
static atomic_int g_sticky[PII_FAULT_NSITES];
static atomic_uint_fast64_t g_max_alloc; /* largest request while counting */

static const char *const site_names[PII_FAULT_NSITES] = {"alloc", "scan", "forward", "write",
                                                         "read"};

const char *pii_fault_site_name(pii_fault_site site)
{
    return (unsigned)site < PII_FAULT_NSITES ? site_names[site] : "?";
}

void pii_fault_set(pii_fault_site site, uint64_t n, int sticky)
{
    if ((unsigned)site >= PII_FAULT_NSITES)
        return;
    atomic_store(&g_target[site], 0);
    atomic_store(&g_count[site], 0);
    atomic_store(&g_sticky[site], sticky != 0);
    atomic_store(&g_target[site], n);
    atomic_store(&g_active, 1);
}

void pii_fault_count_all(void)
{
    atomic_store(&g_active, 1);
}

void pii_fault_reset(void)
{
    atomic_store(&g_active, 0);
    atomic_store(&g_max_alloc, 0);
    for (int i = 0; i < PII_FAULT_NSITES; i++) {
        atomic_store(&g_target[i], 0);
        atomic_store(&g_sticky[i], 0);
        atomic_store(&g_count[i], 0);
    }
}

uint64_t pii_fault_count(pii_fault_site site)
{
    return (unsigned)site < PII_FAULT_NSITES ? atomic_load(&g_count[site]) : 0;
}

int pii_fault_hit(pii_fault_site site)
{
    if (!atomic_load_explicit(&g_active, memory_order_relaxed))
        return 0;
    if ((unsigned)site >= PII_FAULT_NSITES)
        return 0;
    uint64_t k = atomic_fetch_add(&g_count[site], 1) + 1;
    uint64_t t = atomic_load(&g_target[site]);
    if (t == 0)
        return 0;
    return k == t || (k > t && atomic_load(&g_sticky[site]));
}

pii_err pii_fault_parse(const char *spec)
{
    struct {
        int site;
        uint64_t n;
        int sticky;
    } item[16];
    size_t nitem = 0;
    int count = 0;
    if (!spec || !*spec)
        return PII_OK;
    const char *p = spec;
    while (*p) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == 5 && memcmp(p, "count", 5) == 0) {
            count = 1;
        } else {
            const char *colon = memchr(p, ':', len);
            if (!colon || nitem == sizeof item / sizeof item[0])
                return PII_EINVAL;
            size_t nl = (size_t)(colon - p);
            int site = -1;
            for (int i = 0; i < PII_FAULT_NSITES; i++)
                if (strlen(site_names[i]) == nl && memcmp(site_names[i], p, nl) == 0)
                    site = i;
            const char *d = colon + 1, *stop = p + len;
            uint64_t n = 0;
            if (site < 0 || d == stop || *d < '0' || *d > '9')
                return PII_EINVAL;
            for (; d < stop && *d >= '0' && *d <= '9'; d++) {
                if (n > (UINT64_MAX - 9) / 10)
                    return PII_EINVAL;
                n = n * 10 + (uint64_t)(*d - '0');
            }
            int sticky = 0;
            if (d < stop && *d == '+')
                sticky = 1, d++;
            if (d != stop || n == 0)
                return PII_EINVAL;
            item[nitem].site = site;
            item[nitem].n = n;
            item[nitem].sticky = sticky;
            nitem++;
        }
        p += len;
        if (*p == ',' && !*++p)
            return PII_EINVAL; /* a trailing comma */
    }
    for (size_t i = 0; i < nitem; i++)
        pii_fault_set((pii_fault_site)item[i].site, item[i].n, item[i].sticky);
    if (count)
        pii_fault_count_all();
    return PII_OK;
}

void pii_fault_alloc_size(uint64_t bytes)
{
    if (!atomic_load_explicit(&g_active, memory_order_relaxed))
        return;
    uint64_t cur = atomic_load(&g_max_alloc);
    while (bytes > cur && !atomic_compare_exchange_weak(&g_max_alloc, &cur, bytes))
        ;
}

uint64_t pii_fault_max_alloc(void)
{
    return atomic_load(&g_max_alloc);
}
