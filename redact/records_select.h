/* records_select.h — the selectors of a record stream (internal to
 * redact/records*.c; the public side is pii_rec_spec in pii_records.h).
 *
 * A pii_rec_spec holds JSON key paths ("a.b\.c.*", split into segments
 * where "*" matches any one key and a final "*" anything below) or CSV
 * columns (1-based indexes, header names, or "*" for all), and the CSV
 * field separator.  It is built before the streams that use it and only
 * read by them.  (redact/records_select.c) */
#ifndef PII_RECORDS_SELECT_H
#define PII_RECORDS_SELECT_H

#include <stddef.h>
#include <stdint.h>

#include "pii_records.h"

#define IS_JSON(f) ((f) == PII_REC_JSONL || (f) == PII_REC_JSON)

typedef struct seg {
    char *s;
    size_t n;
    int star; /* unescaped "*" */
} seg;

typedef struct jpath {
    seg *seg;
    size_t nseg;
    char *text; /* the selector as given, for messages */
} jpath;

struct pii_rec_spec {
    pii_rec_format fmt;
    jpath *paths;
    size_t npaths;
    size_t *idx; /* CSV 0-based column indexes */
    size_t nidx;
    char **names; /* CSV column names */
    size_t nnames;
    char delim;      /* CSV field separator, ',' by default */
    int delim_given; /* set by pii_rec_spec_set_delimiter */
    unsigned scan;   /* JSONL: PII_REC_SCAN_* */
    int bad;         /* JSONL: PII_REC_BAD_* */
    int all;         /* CSV: "*", every column */
};

/* Non-zero for a CSV separator the stream accepts: ',' ';' TAB '|'. */
int pii_rec_delim_ok(int c);

/* Does the key path keys[koff[k] .. koff[k+1]), k < nk, match selector p?
 * A selector that names an object or an array selects everything inside
 * it, so the path only has to start with the selector's keys.  keys may
 * be NULL while every key is empty. */
int pii_rec_path_hit(const jpath *p, const uint8_t *keys, const size_t *koff, size_t nk);

#endif
