/* fuzz.h — shared helpers of the fuzz targets in tests/fuzz/.
 *
 * Every target defines LLVMFuzzerTestOneInput (and may define
 * LLVMFuzzerInitialize).  It is linked either with libFuzzer
 * (clang-14 -fsanitize=fuzzer, `make fuzz`) or with replay.c, the corpus
 * replay driver that `make check` runs under the normal compiler (and
 * ASan+UBSan with SAN=1).  A failed invariant aborts, which both drivers
 * report as a crash. */
#ifndef PII_FUZZ_H
#define PII_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define FUZZ_CHECK(cond)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz invariant failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__);     \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

/* splitmix64: the chunking and choice generator, seeded from the input. */
static inline uint64_t fuzz_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Writes `len` bytes to a file in a private scratch folder (created on the
 * first call, removed at exit) and returns its path (static storage). */
const char *fuzz_tmpfile(const char *name, const void *data, size_t len, unsigned mode);

#endif
