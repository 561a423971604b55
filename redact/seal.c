/* seal.c — the sealed map file: HMAC-SHA256 in counter mode, then an
 * HMAC-SHA256 tag over magic, nonce and ciphertext (encrypt-then-MAC with
 * independent keys derived from the caller's key).  pii_pseudo.h gives the
 * exact construction. */
#include <errno.h>
#include <string.h>
#include <sys/random.h>

#include "pii_pseudo.h"
#include "pii_sha256.h"

#define MAGIC "PIIMAP1\n"
#define MAGIC_LEN 8
#define NONCE_LEN 16
#define TAG_LEN PII_SHA256_LEN
#define KEY_MIN 16
#define KEY_MAX 4096

int pii_pseudo_is_sealed(const uint8_t *blob, size_t n)
{
    return blob && n >= MAGIC_LEN && memcmp(blob, MAGIC, MAGIC_LEN) == 0;
}

static void derive(const uint8_t *key, size_t keylen, uint8_t kenc[32], uint8_t kmac[32])
{
    static const char enc[] = "pii-redact map enc v1", mac[] = "pii-redact map mac v1";
    pii_hmac_sha256(key, keylen, enc, sizeof enc - 1, kenc);
    pii_hmac_sha256(key, keylen, mac, sizeof mac - 1, kmac);
}

/* dst[i] = src[i] XOR keystream[i], the keystream of (kenc, nonce). */
static void xor_stream(const uint8_t kenc[32], const uint8_t nonce[NONCE_LEN], const uint8_t *src,
                       uint8_t *dst, size_t n)
{
    uint8_t in[NONCE_LEN + 8], ks[PII_SHA256_LEN];
    memcpy(in, nonce, NONCE_LEN);
    for (uint64_t blk = 0; n; blk++) {
        for (int b = 0; b < 8; b++)
            in[NONCE_LEN + b] = (uint8_t)(blk >> (56 - 8 * b));
        pii_hmac_sha256(kenc, 32, in, sizeof in, ks);
        size_t k = n < sizeof ks ? n : sizeof ks;
        for (size_t i = 0; i < k; i++)
            dst[i] = src[i] ^ ks[i];
        src += k;
        dst += k;
        n -= k;
    }
    memset(ks, 0, sizeof ks);
}

static void tag_of(const uint8_t kmac[32], const uint8_t *hdr_ct, size_t n, uint8_t tag[TAG_LEN])
{
    pii_hmac_sha256(kmac, 32, hdr_ct, n, tag);
}

pii_err pii_pseudo_seal(const uint8_t *key, size_t keylen, const uint8_t *pt, size_t n,
                        pii_buf *out)
{
    if (!key || keylen < KEY_MIN || keylen > KEY_MAX || !out || (n && !pt))
        return PII_EINVAL;
    size_t total = MAGIC_LEN + NONCE_LEN + n + TAG_LEN;
    if (n > SIZE_MAX - MAGIC_LEN - NONCE_LEN - TAG_LEN - out->n)
        return PII_ENOMEM;
    if (PII_VEC_RESERVE(out->p, out->cap, out->n + total))
        return PII_ENOMEM;
    uint8_t *o = out->p + out->n, nonce[NONCE_LEN];
    size_t got = 0;
    while (got < NONCE_LEN) {
        ssize_t r = getrandom(nonce + got, NONCE_LEN - got, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return PII_EIO;
        got += (size_t)r;
    }
    uint8_t kenc[32], kmac[32];
    derive(key, keylen, kenc, kmac);
    memcpy(o, MAGIC, MAGIC_LEN);
    memcpy(o + MAGIC_LEN, nonce, NONCE_LEN);
    xor_stream(kenc, nonce, pt, o + MAGIC_LEN + NONCE_LEN, n);
    tag_of(kmac, o, MAGIC_LEN + NONCE_LEN + n, o + MAGIC_LEN + NONCE_LEN + n);
    memset(kenc, 0, sizeof kenc);
    memset(kmac, 0, sizeof kmac);
    out->n += total;
    return PII_OK;
}

pii_err pii_pseudo_open(const uint8_t *key, size_t keylen, const uint8_t *blob, size_t n,
                        pii_buf *out)
{
    if (!key || keylen < KEY_MIN || keylen > KEY_MAX || !out || (n && !blob))
        return PII_EINVAL;
    if (n < MAGIC_LEN + NONCE_LEN + TAG_LEN || !pii_pseudo_is_sealed(blob, n))
        return PII_EFORMAT;
    size_t ctn = n - MAGIC_LEN - NONCE_LEN - TAG_LEN;
    uint8_t kenc[32], kmac[32], tag[TAG_LEN];
    derive(key, keylen, kenc, kmac);
    tag_of(kmac, blob, n - TAG_LEN, tag);
    uint8_t diff = 0;
    for (size_t i = 0; i < TAG_LEN; i++)
        diff |= (uint8_t)(tag[i] ^ blob[n - TAG_LEN + i]);
    pii_err e = PII_OK;
    if (diff)
        e = PII_EFORMAT;
    else if (PII_VEC_RESERVE(out->p, out->cap, out->n + ctn + 1))
        e = PII_ENOMEM;
    if (e == PII_OK) {
        xor_stream(kenc, blob + MAGIC_LEN, blob + MAGIC_LEN + NONCE_LEN, out->p + out->n, ctn);
        out->n += ctn;
    }
    memset(kenc, 0, sizeof kenc);
    memset(kmac, 0, sizeof kmac);
    return e;
}
