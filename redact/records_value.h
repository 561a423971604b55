/* records_value.h — one selected value of a record: its units, its decoded
 * text, and its redaction (internal to redact/records*.c).
 *
 * A raw value is read unit by unit: one escape ('j' JSON string body,
 * 'q' quoted CSV field body: "") or one UTF-8 sequence (an invalid or cut
 * byte is a unit of its own).  Kinds: 'j', 'q', 'u' unquoted CSV field,
 * 'n' JSON number (taken verbatim like 'u'; a changed number is written
 * back as a JSON string), 't' a line that is not JSON, redacted as text.
 * (redact/records_value.c) */
#ifndef PII_RECORDS_VALUE_H
#define PII_RECORDS_VALUE_H

#include <stddef.h>
#include <stdint.h>

#include "pii_records.h"

typedef struct fspan {
    pii_span s;
    size_t raw0, raw1; /* raw range replaced */
} fspan;

/* The value being redacted.  Spans arrive from the inner stream in order
 * and are widened, merged and written out one by one (nothing is kept per
 * span, so memory does not grow with the number of spans). */
typedef struct vctx {
    int kind;           /* see above */
    const uint8_t *raw; /* the raw value, raw[0..n) */
    size_t n;
    const uint8_t *dec; /* the decoded value, dec[0..dn) (raw itself when */
    size_t dn;          /* decoding changes nothing)                      */
    size_t r, d;        /* unit walk: raw and decoded offsets             */
    size_t cpos;        /* code-point walk over dec for the span sink     */
    uint64_t ccount;
    size_t pos; /* raw bytes before pos are written               */
    int have;   /* `last` holds a widened span not written yet    */
    fspan last;
    int started;        /* the value's output has begun in rs->out        */
    size_t fstart;      /* where it begins in rs->out                     */
    int need_quotes;    /* 'u': a replacement holds a CSV special         */
    const uint8_t *rec; /* the record, and how much of it is in rs->out   */
    size_t *copied;
    size_t a;    /* the value's offset in rec                      */
    size_t plen; /* the fed document's prefix: "KEY: " (key_prefix) */
} vctx;

/* The value of a hex digit, or -1. */
int pii_rec_hexval(uint8_t c);
/* One unit of the raw value raw[0..n) at raw[k] (already validated): its
 * raw length, and its decoded bytes in d[0..*dl). */
size_t pii_rec_unit(int kind, const uint8_t *raw, size_t n, size_t k, uint8_t d[4], size_t *dl);
/* out = the decoded form of raw[0..n) (replaces out's bytes). */
pii_err pii_rec_decode(int kind, const uint8_t *raw, size_t n, pii_buf *out);

/* The inner stream's span sink (ud: the pii_rec_stream): widens a span of
 * the value in hand to whole units and writes it out (see the file). */
pii_err pii_rec_collect(void *ud, const pii_span *s, const uint8_t *v, size_t n, uint64_t c0,
                        uint64_t c1);

/* Redacts the value rec[a, a + n) of the given kind.  When it has a span,
 * rs->out receives rec[*copied, a) and the value's rebuilt raw form (raw
 * bytes between spans, escaped replacements in them), *copied becomes
 * a + n and *changed 1; the rebuilt value is rs->out[*vstart, out.n).
 * While the stream gathers (its first pass), the value is only noted for
 * the announcement; while it checks, nothing happens. */
pii_err pii_rec_redact_value(pii_rec_stream *rs, int kind, const uint8_t *rec, size_t *copied,
                             size_t a, size_t n, int *changed, size_t *vstart);

#endif
