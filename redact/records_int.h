/* records_int.h — the record stream's state, shared by the modules of
 * redact/records*.c (internal; the contract is pii_records.h):
 *   records.c         the stream: input framing, record batches, output;
 *   records_json.c    JSON records: parse, select, redact;
 *   records_csv.c     CSV records: fields, header, columns;
 *   records_value.c   one value: units, decoding, redaction;
 *   records_select.c  the selectors (pii_rec_spec). */
#ifndef PII_RECORDS_INT_H
#define PII_RECORDS_INT_H

#include <stddef.h>
#include <stdint.h>

#include "pii_records.h"
#include "records_select.h"
#include "records_value.h"

#define GATHER_RECORDS 1024u /* records per batch of the stream's drain() */

struct pii_rec_stream {
    const pii_rec_spec *spec;
    pii_ops *ops;
    pii_sink sink;
    const pii_redactor *r;
    pii_stream *st;
    vctx v;           /* the value being redacted */
    pii_buf in;       /* input not yet written: [start, n) */
    uint64_t in_base; /* bytes of this input dropped before in.p[0] */
    size_t start;     /* first byte of the next record in `in` */
    size_t scan;      /* bytes of `in` scanned for a record end */
    int cstate;       /* CSV scanner state at `scan` */
    int bom;          /* -1 undecided, 0 none, 1 present (input start) */
    pii_buf out;      /* the current record's output */
    pii_buf dec;      /* decoded value */
    pii_buf line;     /* a value with its key prefix and a LF, as fed (redact_value) */
    pii_buf rep;      /* operator output */
    pii_buf keys;     /* JSON key path bytes */
    size_t *koff;     /* key k is keys[koff[k] .. koff[k+1]) (koff[nk] = keys.n) */
    pii_buf kshow;    /* the key path as reported: a redacted key by its replacement */
    size_t *kso;      /* key k is kshow[kso[k] .. kso[k+1]) */
    size_t nk, capk;
    uint64_t record;       /* records begun in this input */
    char delim;            /* CSV: this input's field separator */
    unsigned char *pmatch; /* JSONL: path p matched some key in this input */
    int holding;           /* JSONL: output held until every path matched */
    uint64_t values;       /* JSONL: records of this input that hold a value */
    pii_buf hold;
    unsigned char *colsel; /* CSV: column k is selected */
    size_t ncolsel, capcolsel;
    int header_pending; /* CSV: next record is the header */
    size_t col;         /* CSV: 0-based column being redacted */
    pii_err failed;
    char detail[160];
    pii_wide wide; /* the wide-text guard over the raw input */
    /* values put ahead to `st` (PII_STREAM_AHEAD), see the top comment */
    int lookahead;        /* `st` has a lookahead: gather values ahead */
    int gathering;        /* first pass: parse, collect values, write nothing */
    int checking;         /* PII_REC_BAD_TEXT: parse only, to know a bad record first */
    int keyctx;           /* the value in hand is an object member's (key_prefix) */
    pii_buf pre;          /* its prefix */
    uint64_t nbad;        /* records that did not parse, redacted as text */
    int gfull;            /* the batch's value cap is reached */
    pii_buf gbuf;         /* decoded copies of gathered values */
    const uint8_t **gdoc; /* announced values [0, gn), the next fed is gnext */
    size_t *glen, *goff;  /* goff: offset in gbuf, or SIZE_MAX (gdoc set) */
    size_t gn, gnext, gbytes;
    size_t gend[GATHER_RECORDS]; /* ends (in `in`) of the batch's records */
};

/* ---- records.c ---------------------------------------------------------- */

/* Sets rs->detail from fmt (one %zu: at) and returns e. */
pii_err pii_rec_fail(pii_rec_stream *rs, pii_err e, const char *fmt, size_t at);
/* Writes a record's output bytes, or holds them while a JSONL selector is
 * still to be checked; nothing while the stream gathers or checks. */
pii_err pii_rec_emit(pii_rec_stream *rs, const uint8_t *p, size_t n);

/* ---- records_json.c, records_csv.c ------------------------------------- */

/* Redacts one record rec[0..n) (its line end included, if any; skip: the
 * bytes of a byte-order mark before it) and emits it.  Errors set
 * rs->detail; while rs->gathering, nothing is written and only the values
 * are noted. */
pii_err pii_rec_jsonl_record(pii_rec_stream *rs, const uint8_t *rec, size_t n, size_t skip);
pii_err pii_rec_csv_record(pii_rec_stream *rs, const uint8_t *rec, size_t n, size_t skip);

#endif
