/* batch_csvcheck.h — does a file parse as CSV the way records mode reads
 * it?  -r reads *.csv / *.tsv files as CSV only when it does; any other
 * file is redacted as plain text (fail closed: a file that records mode
 * would refuse is still redacted, never written unscanned).
 *
 * The check mirrors redact/records.c's CSV reader: records end at a LF
 * outside quotes (CRLF too); a quoted field is closed and followed by the
 * separator or the record's end; a CR inside an unquoted field is refused;
 * a first record with one field holding ';', TAB or '|' (another
 * separator) is refused; no record is longer than PII_REC_MAX_RECORD.  One
 * pass, a fixed buffer, no allocation beyond it. */
#ifndef BATCH_CSVCHECK_H
#define BATCH_CSVCHECK_H

#include <stddef.h>
#include <stdint.h>

/* 1 when the input parses as CSV with separator delim: the bytes of
 * first[0, nfirst) when whole (fd < 0 or nfirst < cap), else the regular
 * file fd read from offset 0 with pread (its file offset is unchanged).
 * 0 when it does not, or when it cannot be read again. */
int batch_csv_parses(int fd, const uint8_t *first, size_t nfirst, size_t cap, int delim);

#endif
