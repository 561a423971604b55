/* pii_sha256.h — SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104) for the
 * hash and pseudonym operators and the command's fingerprints.  Not part of
 * the installed API (the Makefile's NOINST_HDR); the shared library hides
 * it.  Plain C, no state beyond the context; thread-safe.  Tested with the
 * FIPS 180-2 and RFC 4231 vectors. */
#ifndef PII_SHA256_H
#define PII_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define PII_SHA256_LEN 32

typedef struct pii_sha256 {
    uint32_t h[8];
    uint64_t len;    /* bytes hashed so far */
    uint8_t buf[64]; /* pending block       */
    size_t nbuf;
} pii_sha256_ctx;

void pii_sha256_init(pii_sha256_ctx *c);
void pii_sha256_update(pii_sha256_ctx *c, const void *data, size_t n);
void pii_sha256_final(pii_sha256_ctx *c, uint8_t out[PII_SHA256_LEN]);
void pii_sha256(const void *data, size_t n, uint8_t out[PII_SHA256_LEN]);
void pii_hmac_sha256(const uint8_t *key, size_t keylen, const void *data, size_t n,
                     uint8_t out[PII_SHA256_LEN]);

#endif
