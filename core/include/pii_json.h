/* pii_json.h — bounds for the JSON files a model brings (tokenizer.json,
 * config.json, viterbi_calibration.json) before json-c parses them.
 *
 * json-c allocates an object of roughly 50-100 bytes per JSON value, so a
 * hostile file of empty arrays ("[[],[],...]") costs ~50x its size before
 * any semantic check can refuse it.  pii_json_check makes one pass over
 * the text (no allocation) and refuses, before parsing, a text longer than
 * max_bytes, nesting deeper than max_depth, or holding more than
 * max_values values (objects, arrays, strings — keys included — numbers
 * and literals).  Caps are sized to real files with a wide margin: the
 * largest real tokenizer.json (o200k) is 28 MB and about 1 M values
 * (200 K vocabulary entries, key and id, and 200 K merges of 3 values).
 * Thread-safe: pure functions.  (core/json_bounds.c) */
#ifndef PII_JSON_H
#define PII_JSON_H

#include <stddef.h>

#include "pii_error.h"

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API of libpiiredact.so */
#endif

typedef struct pii_json_limits {
    size_t max_bytes;
    size_t max_values;
    int max_depth;
} pii_json_limits;

/* tokenizer.json: 64 MiB, 2 M values (json-c then holds at most about
 * 320 MB: 3 M empty arrays measured 470 MB RSS), depth 64. */
extern const pii_json_limits pii_json_tokenizer_limits;
/* config.json, calibration files: 16 MiB, 256 K values, depth 32. */
extern const pii_json_limits pii_json_small_limits;

/* PII_OK, or PII_ETOOBIG (bytes, values) / PII_EJSON (depth) with a
 * message in msg ("N values, more than the M allowed"); never quotes the
 * text.  The scan does not validate the JSON (json-c does that). */
pii_err pii_json_check(const char *text, size_t len, const pii_json_limits *lim, char *msg,
                       size_t cap);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif

#endif
