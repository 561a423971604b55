/* unit_util.h — small fixtures several unit suites share (static
 * functions; each suite is one binary): a reproducible random generator,
 * a sink that gathers a stream's output, and the label names of the
 * Privacy Filter's 33 classes.  Include after <cmocka.h>. */
#ifndef UNIT_UTIL_H
#define UNIT_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pii_redact.h"

/* splitmix64: the next number of the sequence that *state holds (each
 * suite keeps its own state, so its inputs do not depend on another's). */
__attribute__((unused)) static uint64_t unit_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A float in [-1, 1) with 24 random bits from unit_splitmix64. */
__attribute__((unused)) static float unit_frand(uint64_t *state)
{
    return (float)((int64_t)(unit_splitmix64(state) >> 40) - (1 << 23)) / (float)(1 << 23);
}

/* The output of a stream: unit_out_write is a pii_sink's write function
 * (user data: a unit_out); it appends the bytes and keeps them
 * NUL-terminated.  An output that does not fit fails the test. */
typedef struct unit_out {
    char b[8192];
    size_t n;
} unit_out;

__attribute__((unused)) static pii_err unit_out_write(void *ud, const uint8_t *p, size_t n)
{
    unit_out *o = ud;
    assert_true(o->n + n < sizeof o->b);
    memcpy(o->b + o->n, p, n);
    o->n += n;
    o->b[o->n] = '\0';
    return PII_OK;
}

/* The Privacy Filter's classes: O, then B/I/E/S for each of the eight
 * labels in their order (the label of class c > 0 is (c - 1) / 4). */
__attribute__((unused)) static const char *const unit_names33[33] = {
    "O",
    "B-account_number",
    "I-account_number",
    "E-account_number",
    "S-account_number",
    "B-private_address",
    "I-private_address",
    "E-private_address",
    "S-private_address",
    "B-private_date",
    "I-private_date",
    "E-private_date",
    "S-private_date",
    "B-private_email",
    "I-private_email",
    "E-private_email",
    "S-private_email",
    "B-private_person",
    "I-private_person",
    "E-private_person",
    "S-private_person",
    "B-private_phone",
    "I-private_phone",
    "E-private_phone",
    "S-private_phone",
    "B-private_url",
    "I-private_url",
    "E-private_url",
    "S-private_url",
    "B-secret",
    "I-secret",
    "E-secret",
    "S-secret",
};

#endif
