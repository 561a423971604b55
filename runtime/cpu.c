/* cpu.c — CPU feature detection and the active kernel path.
 *
 * The only environment read of the library lives here: PII_ISA (see
 * pii_rt.h).  It can only lower the path, never raise it above what the CPU
 * supports; an unknown value is ignored. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "pii_rt.h"

static const char *const isa_names[PII_RT_ISA_COUNT] = {"scalar", "avx2", "avx512"};

const char *pii_rt_isa_name(pii_rt_isa isa)
{
    return (unsigned)isa < PII_RT_ISA_COUNT ? isa_names[isa] : "?";
}

pii_err pii_rt_isa_parse(const char *s, pii_rt_isa *out)
{
    for (int i = 0; i < PII_RT_ISA_COUNT; i++)
        if (s && !strcmp(s, isa_names[i])) {
            *out = (pii_rt_isa)i;
            return PII_OK;
        }
    return PII_EINVAL;
}

pii_rt_isa pii_rt_isa_detect(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("fma"))
        return PII_RT_ISA_AVX512;
    /* F16C from CPUID leaf 1 (ECX bit 29): clang 14 has no
     * __builtin_cpu_supports("f16c"). */
    unsigned a, b, c, d;
    int f16c = __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 29));
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && f16c)
        return PII_RT_ISA_AVX2;
#endif
    return PII_RT_ISA_SCALAR;
}

/* -1 until the first call decides. */
static atomic_int active_isa = -1;

pii_rt_isa pii_rt_isa_active(void)
{
    int v = atomic_load_explicit(&active_isa, memory_order_relaxed);
    if (v >= 0)
        return (pii_rt_isa)v;
    pii_rt_isa best = pii_rt_isa_detect(), want = best;
    const char *env = getenv("PII_ISA"); /* the documented dispatch override */
    pii_rt_isa forced;
    if (env && pii_rt_isa_parse(env, &forced) == PII_OK && forced < best)
        want = forced;
    int expect = -1;
    atomic_compare_exchange_strong(&active_isa, &expect, (int)want);
    return (pii_rt_isa)atomic_load(&active_isa);
}

pii_err pii_rt_isa_set(pii_rt_isa isa)
{
    if ((unsigned)isa >= PII_RT_ISA_COUNT)
        return PII_EINVAL;
    if (isa > pii_rt_isa_detect())
        return PII_EUNSUPPORTED;
    atomic_store(&active_isa, (int)isa);
    return PII_OK;
}
