/* pii_core.h — the contract types every layer shares (core/labels.c):
 * the label categories, the UTF-8 character rule, spans and span vectors,
 * and the detector interface the stream engine (pii_redact.h) drives.
 * Offsets: UTF-8 byte offsets from the start of the current document,
 * half-open [start, end). */
#ifndef PII_CORE_H
#define PII_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "pii_error.h"

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API of libpiiredact.so */
#endif

/* ---- labels ---------------------------------------------------------- */

/* The 8 Privacy Filter categories, alphabetical (spec §5). */
#define PII_NCAT 8
extern const char *const pii_categories[PII_NCAT];

/* Index of a category name in pii_categories, or -1. */
int pii_category_index(const char *label);

/* Placeholder name of a label per spec §5: upper-cased, each run of
 * non-alphanumerics replaced by '_', trimmed of '_', "REDACTED" if empty.
 * Writes a NUL-terminated string of at most cap-1 bytes; returns its
 * untruncated length. */
size_t pii_label_upper(const char *label, char *buf, size_t cap);

/* ---- UTF-8 ----------------------------------------------------------
 * The project's one UTF-8 decoder.  Well-formed UTF-8 per RFC 3629 /
 * Unicode table 3-7: no overlongs, no surrogates, nothing above U+10FFFF.
 * Returns the sequence length (1..4) with the code point in *cp, 0 for an
 * invalid lead or continuation byte within the avail bytes (avail >= 1),
 * and -k when the avail bytes are a valid but incomplete prefix of a k-byte
 * sequence.  Inline: the tokenizer's pre-tokenizer calls it per character. */
static inline int pii_utf8_decode(const uint8_t *p, size_t avail, uint32_t *cp)
{
    uint8_t b0 = p[0];
    if (b0 < 0x80) {
        *cp = b0;
        return 1;
    }
    int need;
    uint8_t lo = 0x80, hi = 0xBF;
    uint32_t c;
    if (b0 < 0xC2) {
        return 0;
    } else if (b0 < 0xE0) {
        need = 2;
        c = b0 & 0x1F;
    } else if (b0 < 0xF0) {
        need = 3;
        c = b0 & 0x0F;
        if (b0 == 0xE0)
            lo = 0xA0;
        else if (b0 == 0xED)
            hi = 0x9F;
    } else if (b0 < 0xF5) {
        need = 4;
        c = b0 & 0x07;
        if (b0 == 0xF0)
            lo = 0x90;
        else if (b0 == 0xF4)
            hi = 0x8F;
    } else {
        return 0;
    }
    for (int k = 1; k < need; k++) {
        if ((size_t)k >= avail)
            return -need;
        uint8_t b = p[k];
        if (b < lo || b > hi)
            return 0;
        lo = 0x80;
        hi = 0xBF;
        c = (c << 6) | (uint32_t)(b & 0x3F);
    }
    *cp = c;
    return need;
}

/* Length (1..4) of the valid, complete UTF-8 sequence at p; 1 for a byte
 * that starts no valid sequence; 0 when [p, end) holds only the valid start
 * of a sequence cut by end (p < end).  The project's character rule: a valid
 * sequence is one character, every other byte is one character. */
size_t pii_utf8_seq(const uint8_t *p, const uint8_t *end);

/* Length (1..4) of the well-formed UTF-8 sequence at p (RFC 3629: no
 * overlongs, surrogates or code points above U+10FFFF) within [p, end), or
 * 0 when the bytes there start none (invalid or cut by end; p < end). */
size_t pii_utf8_valid(const uint8_t *p, const uint8_t *end);
/* (Both are pii_utf8_decode read two ways.) */

/* ---- growable arrays ------------------------------------------------
 * The project's one "grow the array" helper.  PII_VEC_RESERVE(p, cap, need)
 * makes the array p (a T * lvalue, NULL at first) with capacity cap (a
 * size_t lvalue, in elements) hold at least need elements: the capacity
 * doubles from 16 (or from cap) until it does and the contents are kept
 * (realloc).  PII_OK, or PII_ENOMEM (also on size overflow) with p and cap
 * unchanged.  Usage:
 *     if (PII_VEC_RESERVE(v->p, v->cap, v->n + 1))
 *         return PII_ENOMEM;
 *     v->p[v->n++] = x; */
pii_err pii_vec_grow(void *pp, size_t *cap, size_t need, size_t esz);
#define PII_VEC_RESERVE(p, cap, need)                                                              \
    ((need) <= (cap) ? PII_OK : pii_vec_grow(&(p), &(cap), (need), sizeof *(p)))

/* ---- spans ----------------------------------------------------------- */

typedef enum pii_source {
    PII_SRC_MODEL = 0,
    PII_SRC_RULE = 1,
    PII_SRC_DENY = 2,
} pii_source;

const char *pii_source_name(pii_source s); /* "model", "rule", "deny" */

typedef struct pii_span {
    uint64_t start, end; /* byte offsets in the document, half-open      */
    const char *label;   /* category name; static storage or owned by the
                            detector's shared object (outlives streams)  */
    const char *rule;    /* rule id (rules, deny); NULL for the model     */
    float score;         /* model: mean chosen-label probability; else 1  */
    pii_source source;
} pii_span;

typedef struct pii_spanvec {
    pii_span *v;
    size_t n, cap;
} pii_spanvec;

pii_err pii_spanvec_push(pii_spanvec *sv, const pii_span *s);
void pii_spanvec_clear(pii_spanvec *sv); /* n = 0, keeps capacity */
void pii_spanvec_free(pii_spanvec *sv);

/* ---- detectors ------------------------------------------------------- */

/* A detector class scans a document delivered through a sliding buffer.
 *
 * open(shared) creates per-stream state from the shared, immutable object.
 * scan(): buf holds document bytes [base, base+len).  The buffer always
 * starts at or before the `keep` this state returned last time (0 at the
 * start of a document) and ends at or after the previous end.  eod != 0
 * means the document ends at base+len.  The detector appends to `out` the
 * spans that are final and sets
 *   *done: no span that starts before *done will be reported later;
 *          non-decreasing; must equal base+len when eod.
 *   *keep: the lowest offset it needs to see again (<= *done).
 * A detector must keep done - keep bounded (documented per detector) so the
 * stream's memory stays bounded.  reset() starts a new document (offsets
 * restart at 0).  Errors are returned; the stream then fails closed. */
typedef struct pii_detector_class {
    const char *name;
    void *(*open)(const void *shared, pii_err *err);
    pii_err (*scan)(void *state, const uint8_t *buf, size_t len, uint64_t base, int eod,
                    pii_spanvec *out, uint64_t *done, uint64_t *keep);
    void (*reset)(void *state);
    void (*close)(void *state);
    /* Optional (NULL: not used).  Lookahead: the next n documents this
     * state will scan, after any announced earlier and not yet scanned, are
     * docs[0..n), complete (borrowed for the call only).  A detector that
     * gains by seeing several documents at once (the model: shared forward
     * passes) may compute them now; what it then reports for each must equal
     * what it reports without the call.  n == 0 (docs NULL) withdraws every
     * announcement not yet started.  The stream guarantees the documents it
     * then scans are exactly these bytes, in order. */
    pii_err (*ahead)(void *state, const uint8_t *const *docs, const size_t *lens, size_t n);
} pii_detector_class;

typedef struct pii_detector {
    const pii_detector_class *cls;
    const void *shared;
} pii_detector;

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif

#endif
