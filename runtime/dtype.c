/* dtype.c — element types: names, sizes, exact conversions to f32. */
#include <math.h>
#include <string.h>

#include "pii_rt.h"

static const struct {
    const char *name;
    unsigned block, bytes;
} dt_info[PII_DT_COUNT] = {
    [PII_DT_F32] = {"F32", 1, 4},       [PII_DT_F16] = {"F16", 1, 2},
    [PII_DT_BF16] = {"BF16", 1, 2},     [PII_DT_Q8_0] = {"Q8_0", 32, 34},
    [PII_DT_I32] = {"I32", 1, 4},       [PII_DT_I64] = {"I64", 1, 8},
    [PII_DT_I8] = {"I8", 1, 1},         [PII_DT_U8] = {"U8", 1, 1},
    [PII_DT_I16] = {"I16", 1, 2},       [PII_DT_F64] = {"F64", 1, 8},
    [PII_DT_Q8_ROW] = {"Q8_ROW", 1, 1}, [PII_DT_Q4_G32] = {"Q4_G32", 32, 16},
};

const char *pii_dtype_name(pii_dtype t)
{
    if ((unsigned)t >= PII_DT_COUNT)
        return "?";
    return dt_info[t].name;
}

unsigned pii_dtype_block(pii_dtype t)
{
    return (unsigned)t < PII_DT_COUNT ? dt_info[t].block : 0;
}

unsigned pii_dtype_block_bytes(pii_dtype t)
{
    return (unsigned)t < PII_DT_COUNT ? dt_info[t].bytes : 0;
}

uint64_t pii_dtype_nbytes(pii_dtype t, uint64_t nelem, uint64_t inner, pii_err *err)
{
    *err = PII_OK;
    if ((unsigned)t >= PII_DT_COUNT) {
        *err = PII_EDTYPE;
        return 0;
    }
    uint64_t blk = dt_info[t].block, by = dt_info[t].bytes;
    if (blk > 1 && (inner % blk != 0 || nelem % blk != 0)) {
        *err = PII_ESHAPE;
        return 0;
    }
    uint64_t nb = nelem / blk;
    if (nb > UINT64_MAX / by) {
        *err = PII_ETOOBIG;
        return 0;
    }
    return nb * by;
}

float pii_rt_bf16_to_f32(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

float pii_rt_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1f, man = h & 0x3ffu, u;
    if (exp == 0) {
        if (man == 0) {
            u = sign;
        } else { /* subnormal: normalise */
            int e = -1;
            do {
                e++;
                man <<= 1;
            } while (!(man & 0x400u));
            u = sign | (uint32_t)(127 - 15 - e) << 23 | (man & 0x3ffu) << 13;
        }
    } else if (exp == 31) {
        u = sign | 0x7f800000u | man << 13;
    } else {
        u = sign | (exp + 127 - 15) << 23 | man << 13;
    }
    float f;
    memcpy(&f, &u, 4);
    return f;
}

uint16_t pii_rt_f32_to_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u) /* NaN: keep it quiet */
        return (uint16_t)((u >> 16) | 0x40);
    u += 0x7fffu + ((u >> 16) & 1);
    return (uint16_t)(u >> 16);
}

uint16_t pii_rt_f32_to_f16(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    uint32_t a = u & 0x7fffffffu;
    if (a > 0x7f800000u)
        return sign | 0x7e00u;
    if (a >= 0x47800000u) /* >= 65536 (after rounding overflows): inf */
        return sign | 0x7c00u;
    if (a < 0x38800000u) { /* below the smallest normal f16 (2^-14) */
        /* value in units of 2^-24, rounded to nearest even */
        float af;
        memcpy(&af, &a, 4);
        float s = af * 16777216.0f; /* exact: scaling by a power of two */
        uint32_t q = (uint32_t)s;
        float rem = s - (float)q;
        if (rem > 0.5f || (rem == 0.5f && (q & 1)))
            q++;
        return sign | (uint16_t)q;
    }
    uint32_t e = (a >> 23) - 127 + 15, m = a & 0x7fffffu;
    uint32_t h = e << 10 | m >> 13;
    uint32_t rest = m & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1)))
        h++; /* may carry into the exponent: still correct, up to inf */
    return sign | (uint16_t)h;
}

static uint16_t ld16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

void pii_rt_to_f32(pii_dtype t, const void *src, size_t n, float *dst)
{
    const uint8_t *p = src;
    switch (t) {
    case PII_DT_F32:
        memcpy(dst, p, n * 4);
        break;
    case PII_DT_BF16:
        for (size_t i = 0; i < n; i++)
            dst[i] = pii_rt_bf16_to_f32(ld16(p + 2 * i));
        break;
    case PII_DT_F16:
        for (size_t i = 0; i < n; i++)
            dst[i] = pii_rt_f16_to_f32(ld16(p + 2 * i));
        break;
    case PII_DT_Q8_0:
        for (size_t b = 0; b < n / 32; b++) {
            const uint8_t *blk = p + b * 34;
            float d = pii_rt_f16_to_f32(ld16(blk));
            for (int j = 0; j < 32; j++)
                dst[b * 32 + j] = d * (float)(int8_t)blk[2 + j];
        }
        break;
    case PII_DT_I32:
        for (size_t i = 0; i < n; i++) {
            int32_t v;
            memcpy(&v, p + 4 * i, 4);
            dst[i] = (float)v;
        }
        break;
    case PII_DT_I8:
        for (size_t i = 0; i < n; i++)
            dst[i] = (float)(int8_t)p[i];
        break;
    case PII_DT_U8:
        for (size_t i = 0; i < n; i++)
            dst[i] = (float)p[i];
        break;
    case PII_DT_I16:
        for (size_t i = 0; i < n; i++)
            dst[i] = (float)(int16_t)ld16(p + 2 * i);
        break;
    case PII_DT_F64:
        for (size_t i = 0; i < n; i++) {
            double v;
            memcpy(&v, p + 8 * i, 8);
            dst[i] = (float)v;
        }
        break;
    case PII_DT_I64:
        for (size_t i = 0; i < n; i++) {
            int64_t v;
            memcpy(&v, p + 8 * i, 8);
            dst[i] = (float)v;
        }
        break;
    default:
        for (size_t i = 0; i < n; i++)
            dst[i] = NAN;
        break;
    }
}

/* ---- finiteness ---------------------------------------------------------- */

static uint16_t rd16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

/* Non-finite when the exponent bits are all ones (f32, f16, bf16). */
pii_err pii_rt_tensor_finite(const pii_rt_tensor *t, uint64_t *bad)
{
    const uint8_t *p = t->data;
    uint64_t n = t->nelem;
    switch (t->dtype) {
    case PII_DT_F32:
        for (uint64_t i = 0; i < n; i++) {
            uint32_t v = (uint32_t)rd16(p + 4 * i) | (uint32_t)rd16(p + 4 * i + 2) << 16;
            if ((v & 0x7f800000u) == 0x7f800000u)
                return *bad = i, PII_ERANGE;
        }
        return PII_OK;
    case PII_DT_BF16:
        for (uint64_t i = 0; i < n; i++)
            if ((rd16(p + 2 * i) & 0x7f80u) == 0x7f80u)
                return *bad = i, PII_ERANGE;
        return PII_OK;
    case PII_DT_F16:
        for (uint64_t i = 0; i < n; i++)
            if ((rd16(p + 2 * i) & 0x7c00u) == 0x7c00u)
                return *bad = i, PII_ERANGE;
        return PII_OK;
    case PII_DT_Q8_0: { /* the f16 scale of each block */
        uint64_t bb = pii_dtype_block_bytes(t->dtype), be = pii_dtype_block(t->dtype);
        for (uint64_t b = 0; b < t->nbytes / bb; b++)
            if ((rd16(p + b * bb) & 0x7c00u) == 0x7c00u)
                return *bad = b * be, PII_ERANGE;
        return PII_OK;
    }
    case PII_DT_F64:
        for (uint64_t i = 0; i < n; i++) {
            uint16_t top = rd16(p + 8 * i + 6);
            if ((top & 0x7ff0u) == 0x7ff0u)
                return *bad = i, PII_ERANGE;
        }
        return PII_OK;
    default: /* integers: always finite */
        return PII_OK;
    }
}
