/* cpu.c — CPU feature detection and execution plans (pii_rt.h).  Nothing
 * here is process-wide: a plan is a value its owner passes to the kernels. */
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "kern.h"

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

static int cpu_vnni(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512vnni") ? 1 : 0;
#else
    return 0;
#endif
}

pii_err pii_rt_plan_init(pii_rt_plan *p, int isa, pii_rt_qact qact)
{
    static const rt_kernels *const tables[PII_RT_ISA_COUNT] = {
        &pii_rt_kern_scalar, &pii_rt_kern_avx2, &pii_rt_kern_avx512};
    memset(p, 0, sizeof *p);
    if (isa >= PII_RT_ISA_COUNT ||
        (qact != PII_RT_QACT_I16 && qact != PII_RT_QACT_I8 && qact != PII_RT_QACT_I16R8))
        return PII_EINVAL;
    pii_rt_isa best = pii_rt_isa_detect();
    if (isa > (int)best)
        return PII_EUNSUPPORTED;
    p->isa = isa < 0 ? best : (pii_rt_isa)isa;
    p->vnni = p->isa == PII_RT_ISA_AVX512 && cpu_vnni();
    p->qact = qact;
    p->kern = tables[p->isa];
    return PII_OK;
}
