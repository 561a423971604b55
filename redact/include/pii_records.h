/* pii_records.h — redaction of selected fields of JSON Lines and CSV records.
 *
 * A record stream reads JSON Lines (one JSON value per line) or CSV (RFC
 * 4180 records, quoted fields may hold commas, quotes and newlines) and
 * writes the same records back with only the selected string values
 * redacted (JSONL: also numbers and keys on request, see
 * pii_rec_spec_set_scan).  Every other byte is copied unchanged: keys,
 * numbers, whitespace, escapes, quoting, line ends, unselected values.
 *
 * Each selected value is decoded (JSON escapes resolved, CSV "" undoubled),
 * redacted as one document through a pii_stream of the given redactor —
 * read as a line of text, the value and a LF, after "KEY: " for a member
 * of an object (its own key, up to 64 bytes; spans are cut to the value),
 * so that it is found as the same words are in text mode — and
 * written back re-escaped minimally: the parts of the value outside every
 * span keep their original raw bytes (escapes included), and only the
 * replacement text is escaped ("\"" "\\" and control characters for JSON;
 * doubled quotes for CSV, where an unquoted field that now needs quotes
 * gets them).  A span whose edge falls inside an escape or a UTF-8
 * sequence is widened to cover it, so output stays valid.  Span offsets
 * reported to the sink are UTF-8 byte offsets into the decoded value.
 *
 * Selectors (pii_rec_spec_add):
 *   JSONL  a dot path of object keys: "message", "user.email".  Arrays are
 *          transparent (a path selects every string in an array at that
 *          path).  A "*" segment matches any one key; a final "*" matches
 *          any number of further keys, so "*" alone selects every string
 *          value of the record.  "\." and "\\" escape a dot and a
 *          backslash inside a key.  Keys are compared after decoding.
 *          PII_REC_JSON reads the whole input as one JSON value (a
 *          pretty-printed document: whitespace, line breaks and every byte
 *          outside the redacted values are kept), with the same selectors,
 *          scan options and errors as one JSONL record; its size limit is
 *          PII_REC_MAX_RECORD.
 *   CSV    "*" every column (every record is data), a 1-based column INDEX
 *          (all digits, like cut(1)) or a column
 *          NAME.  When any NAME is given, the first record of each input is
 *          a header: it is copied unscanned and names are looked up in it
 *          (a name missing from the header is an error for that input).
 *          With indexes only, every record is data.
 *          Fields are separated by ',' unless pii_rec_spec_set_delimiter
 *          (or pii_rec_stream_set_delimiter for one input) says ';', TAB
 *          or '|'.
 *
 * Selectors that match nothing fail the input (PII_ENOTFOUND), so a typo
 * never passes a file through unredacted: a CSV NAME missing from the
 * header, a CSV INDEX past the last field of the first record, a JSONL
 * path that matched no key (of any value type) in the input's first
 * PII_REC_PROBE_RECORDS records (checked after that record, or at the end
 * of a shorter input; an input with no record passes).  When the
 * separator was not set explicitly, a CSV first record that holds no
 * separator but holds another of ';' TAB '|' fails (PII_EFORMAT), as does
 * a CR inside an unquoted CSV field (CR-only line ends).
 *
 * Failure (fail closed): a record that does not parse — invalid JSON, a
 * CSV quote that is not closed or is followed by something other than a
 * comma or a line end, a record over PII_REC_MAX_RECORD bytes (its final
 * LF not counted) — stops the stream with an error (PII_EJSON,
 * PII_EFORMAT, PII_ETOOBIG), as does UTF-16/UTF-32 text (PII_EENCODING,
 * the wide-text guard of pii_redact.h, run on each complete record before
 * it is parsed); nothing of that record or later ones is written.  The
 * error, its record number and the output never depend on how the input
 * was cut into feeds.  pii_rec_stream_record() names the
 * record and pii_rec_stream_detail() says what was wrong (never quoting
 * input text).  Lenient on purpose: blank (whitespace-only) JSONL lines are
 * copied as they are; invalid UTF-8 inside strings and fields passes
 * through untouched; a UTF-8 byte-order mark at the start of the input is
 * kept; a quote inside an unquoted CSV field is literal text; CSV records
 * end at LF or CRLF.
 *
 * Shared forward passes: when the redactor has a detector with a
 * lookahead (pii_stream_lookahead: the model), the stream announces the
 * non-empty selected values of the complete records it holds, up to 1024
 * records, PII_STREAM_QUEUE_DOCS values and PII_STREAM_QUEUE_BYTES at a
 * time (pii_stream_put, PII_STREAM_AHEAD; whole records, but one whose values alone pass
 * the caps), before redacting them one by one, so the model computes them
 * together.  Output, spans, errors, their order and record numbers are
 * exactly those of redacting each value alone; a feed holding many records
 * gains most.  Memory: up to PII_STREAM_QUEUE_BYTES of decoded values
 * besides the record buffer.
 *
 * Threads: a pii_rec_spec is immutable once built and may be shared; a
 * pii_rec_stream belongs to one thread (it owns one pii_stream).
 */
#ifndef PII_RECORDS_H
#define PII_RECORDS_H

#include <stddef.h>
#include <stdint.h>

#include "pii_error.h"
#include "pii_redact.h"

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API of libpiiredact.so */
#endif

#define PII_REC_MAX_RECORD (32u * 1024u * 1024u)
#define PII_REC_PROBE_RECORDS 1000u /* JSONL selectors must match by then */

typedef enum pii_rec_format {
    PII_REC_JSONL = 1,
    PII_REC_CSV = 2,
    PII_REC_JSON = 3, /* one JSON document: the whole input is one record */
} pii_rec_format;

typedef struct pii_rec_spec pii_rec_spec;

pii_rec_spec *pii_rec_spec_create(pii_rec_format fmt, pii_err *err);
void pii_rec_spec_free(pii_rec_spec *s);
/* Adds a selector (see above).  PII_EINVAL for an empty or malformed one
 * (an empty key, index 0). */
pii_err pii_rec_spec_add(pii_rec_spec *s, const char *selector);
pii_rec_format pii_rec_spec_format(const pii_rec_spec *s);
/* CSV field separator: ',' (default), ';', '\t' or '|'.  PII_EINVAL for
 * another byte or a JSONL spec. */
pii_err pii_rec_spec_set_delimiter(pii_rec_spec *s, int c);

/* JSONL: what is scanned besides the selected string values (default: 0,
 * strings only).
 *   PII_REC_SCAN_NUMBERS  numbers at a selected path.  A number with a span
 *       is written back as a JSON string holding the number's text with the
 *       span replaced: {"card":4111111111111111} becomes
 *       {"card":"<ACCOUNT_NUMBER>"}, so the line stays valid JSON but the
 *       value's type changes from number to string.  A number without a
 *       span is copied unchanged.
 *   PII_REC_SCAN_KEYS  object keys whose own path (the parents' keys and
 *       the key itself) is selected: with "*" every key, with "user.*" the
 *       keys below "user".  A key is redacted like a string value; two keys
 *       of one object may then be equal (RFC 8259 allows it; most parsers
 *       keep the last).  Selectors are matched against the original keys.
 * true, false and null are never scanned.  PII_EINVAL for a CSV spec or an
 * unknown bit. */
#define PII_REC_SCAN_NUMBERS 1u
#define PII_REC_SCAN_KEYS 2u
pii_err pii_rec_spec_set_scan(pii_rec_spec *s, unsigned what);

/* JSONL: what a line that is not valid JSON becomes (default
 * PII_REC_BAD_FAIL: the stream stops with PII_EJSON, as described above).
 * PII_REC_BAD_TEXT: the whole line is redacted as plain text (every byte
 * scanned, the replacements written unescaped) and written in its place;
 * the stream goes on (pii_rec_stream_bad_records counts such lines).  No
 * part of a bad line is ever written unscanned.  PII_EINVAL for a CSV spec
 * or another value. */
typedef enum pii_rec_bad {
    PII_REC_BAD_FAIL = 0,
    PII_REC_BAD_TEXT = 1,
} pii_rec_bad;
pii_err pii_rec_spec_set_bad(pii_rec_spec *s, pii_rec_bad how);
typedef struct pii_rec_stream pii_rec_stream;

/* Sink use: write receives output bytes, whole records with their line
 * ends; span receives each redacted span of a selected value (offsets and
 * value refer to the decoded value); end_doc is called after each record.
 * ops replaces the spans (NULL: the "<LABEL>" placeholder); both spec, r
 * and ops are borrowed and must outlive the stream. */
pii_rec_stream *pii_rec_stream_create(const pii_rec_spec *spec, const pii_redactor *r, pii_ops *ops,
                                      const pii_sink *sink, pii_err *err);
void pii_rec_stream_free(pii_rec_stream *rs);
/* pii_stream_set_input_name for the values of the next input. */
void pii_rec_stream_set_input_name(pii_rec_stream *rs, const char *name);
/* Feeds input bytes; complete records are processed and written. */
pii_err pii_rec_stream_feed(pii_rec_stream *rs, const void *data, size_t len);
/* Ends the input: the last record (without a final line end) is processed.
 * The next feed starts a new input (CSV: a new header). */
pii_err pii_rec_stream_end(pii_rec_stream *rs);
/* The separator of the current input (overrides the spec's; before its
 * first byte is fed).  PII_EINVAL as for the spec, or after input began. */
pii_err pii_rec_stream_set_delimiter(pii_rec_stream *rs, int c);
/* Drops any partial input and error state; the next feed starts a new
 * input.  Needed after an error before reusing the stream. */
pii_err pii_rec_stream_reset(pii_rec_stream *rs);
/* 1-based number of the record being processed (after an error: the
 * record that failed).  Counts every record, the CSV header included. */
uint64_t pii_rec_stream_record(const pii_rec_stream *rs);
/* Lines redacted as text under PII_REC_BAD_TEXT so far (all inputs). */
uint64_t pii_rec_stream_bad_records(const pii_rec_stream *rs);
/* The field being redacted, for span callbacks: JSONL the key path of the
 * value ("user.email"; dots and backslashes inside keys escaped with a
 * backslash; "" for a value outside any object), CSV the 1-based column
 * number.  Writes a NUL-terminated string of at most cap-1 bytes and
 * returns its untruncated length. */
size_t pii_rec_stream_field(const pii_rec_stream *rs, char *buf, size_t cap);
/* For span callbacks: the byte offset, from the start of this input as
 * fed, of the first raw byte of the span reported (the span widened to
 * whole escapes and UTF-8 sequences, as it is replaced), so a caller can
 * give the input's own line and column.  Undefined outside a callback. */
uint64_t pii_rec_stream_span_offset(const pii_rec_stream *rs);
/* What went wrong in the last error, e.g. "expected ':' at byte 17 of the
 * record"; "" if nothing to add.  Never contains input text, except CSV
 * column names given as selectors. */
const char *pii_rec_stream_detail(const pii_rec_stream *rs);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif

#endif
