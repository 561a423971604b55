/* drive.h — the command's one driver: the bytes of an input, block by
 * block, put into a redactor stream (pii_redact.h) or record stream
 * (pii_records.h).  Plain mode (main.c), batch mode (batch_redact.c) and
 * `pii-redact bench` (cmd_bench.c) all feed through it, so the bench times
 * what the command runs.
 *
 * Contract.  A block is one read of the input (pii_drive_put).
 *  - lines (--lines): each complete line of a block, with its '\n', is one
 *    document, put with PII_STREAM_END_DOC (queued: the model packs the
 *    lines of a block into shared forward passes); the rest of the block
 *    opens the next document.  Otherwise the whole input is one document.
 *  - flush: the block ends with PII_STREAM_FLUSH, so what it decides is
 *    written when the read is done (plain mode, bench, batch --lines);
 *    without it the text of a document is fed (pii_stream_feed) from the
 *    caller's own pointers (batch mode's files: a small file may have been
 *    put ahead with PII_STREAM_AHEAD, which wants exactly those pointers).
 *  - rs: a record stream gets every byte as it comes (pii_rec_stream_feed)
 *    and the end (pii_rec_stream_end); lines and flush do not apply.
 *  - doc (optional): called before the first byte of each document is put,
 *    with that byte's offset in the input; non-zero stops the input: what
 *    was put is flushed and written and pii_drive_put returns with
 *    `stopped` set (the bench's deadline).
 *  - block (optional): called with each non-empty block before it is put
 *    (progress, byte counts, --check's line index).
 * Fail closed: an error stops at once and is returned; the stream then
 * fails every later call, so no text after the error is written.  An input
 * is ended only by pii_drive_end: a caller that saw a read error or any
 * other failure does not call it, and the unfinished document is never
 * written past what was decided.
 * Live input (pii_drive_fd with `live`): before a read that would wait,
 * what is written so far leaves stdio (fflush(out)); and when the text put
 * since the last document boundary ends at a line end, some of it is still
 * undecided (pii_stream_undecided) and nothing arrives for flush_delay ms
 * (> 0, not with lines), that line end ends the document
 * (docs/DESIGN.md "Pauses").
 * Not thread-safe: one per stream, used by the thread that owns it. */
#ifndef PII_DRIVE_H
#define PII_DRIVE_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "pii_records.h"
#include "pii_redact.h"

/* The command's read block: plain mode's and batch mode's reads, and the
 * bench's blocks. */
#define PII_DRIVE_BLOCK (64u * 1024u)

typedef struct pii_drive {
    pii_stream *st;     /* the stream (ignored when rs is set) */
    pii_rec_stream *rs; /* records mode: instead of st */
    int lines;          /* each line a document */
    int flush;          /* each block ends with a flush */
    int (*doc)(void *ud, uint64_t at);
    void (*block)(void *ud, const uint8_t *p, size_t n);
    void *ud;
    /* the input in hand (pii_drive_begin) */
    uint64_t at;    /* bytes put so far */
    int pending;    /* bytes were put to the open document */
    int at_eol;     /* and the last byte put is a line end */
    int paused;     /* a pause ended a document of this input */
    int stopped;    /* doc asked to stop */
    int read_errno; /* pii_drive_fd: the errno of a failed read (0: none) */
} pii_drive;

/* Starts a new input: the state above is reset (the settings kept). */
void pii_drive_begin(pii_drive *d);
/* Puts one block (a no-op for n == 0). */
pii_err pii_drive_put(pii_drive *d, const uint8_t *p, size_t n);
/* Ends the open document at a pause when that changes what is written:
 * not lines, something pending, ending at a line end, and undecided text
 * in the stream.  Returns 1 in *ended when it did. */
pii_err pii_drive_pause(pii_drive *d, int *ended);
/* Ends the input: the open document is ended (with lines, or after a
 * pause, only when one is open); a record stream is ended. */
pii_err pii_drive_end(pii_drive *d);

/* Reads until buf holds want bytes or the input ends (EINTR retried);
 * with `once`, returns what the first successful read gives (live input:
 * a line typed or piped is processed at once).  A read fails under the
 * fault hook PII_FAULT_READ too.  -1 with errno on an error. */
ssize_t pii_drive_read(int fd, uint8_t *buf, size_t want, int once);

/* Where pii_drive_fd reads. */
typedef struct pii_drive_src {
    int fd;               /* -1: nothing beyond the first block */
    uint8_t *buf;         /* read buffer of cap bytes */
    size_t cap;           /* (a read that fills less ends the input, unless once) */
    int once;             /* reads return what one read gives (pii_drive_read) */
    int live;             /* poll before reads: fflush(out), pauses */
    FILE *out;            /* live: flushed before a read that would wait */
    unsigned delay_ms;    /* live: --flush-delay (0: no pauses) */
    const uint8_t *first; /* a first block the caller read already, or NULL */
    size_t nfirst, first_cap;
} pii_drive_src;

/* Reads the input to its end, putting each block (the first one first).
 * Does not end the input (pii_drive_end).  Returns PII_EIO with
 * d->read_errno set for a failed read, PII_EWRITE when fflush(out) failed,
 * else the stream's error; PII_OK at the end or when `doc` stopped it. */
pii_err pii_drive_fd(pii_drive *d, const pii_drive_src *s);

#endif
