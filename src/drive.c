/* drive.c — the command's one driver (see drive.h). */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "drive.h"
#include "pii_fault.h"

void pii_drive_begin(pii_drive *d)
{
    d->at = 0;
    d->pending = 0;
    d->at_eol = 0;
    d->paused = 0;
    d->stopped = 0;
    d->read_errno = 0;
}

/* A document begins at input offset `at`: 1 when doc asks to stop. */
static int doc_begins(pii_drive *d, uint64_t at)
{
    return d->doc && d->doc(d->ud, at) != 0;
}

pii_err pii_drive_put(pii_drive *d, const uint8_t *p, size_t n)
{
    if (!n)
        return PII_OK;
    if (d->block)
        d->block(d->ud, p, n);
    const uint64_t at = d->at;
    d->at += n;
    d->at_eol = p[n - 1] == '\n';
    if (d->rs)
        return pii_rec_stream_feed(d->rs, p, n);
    size_t off = 0;
    const uint8_t *nl;
    pii_err e;
    /* each line a document, queued (pii_stream_put); the block ends with a
     * flush, so the lines of one block share forward passes and a line read
     * from a pipe is still written at once */
    while (d->lines && off < n && (nl = memchr(p + off, '\n', n - off))) {
        size_t len = (size_t)(nl - (p + off)) + 1;
        if (!d->pending && doc_begins(d, at + off)) {
            d->stopped = 1;
            return pii_stream_put(d->st, p + off, 0, PII_STREAM_FLUSH);
        }
        if ((e = pii_stream_put(d->st, p + off, len, PII_STREAM_END_DOC)))
            return e;
        off += len;
        d->pending = 0;
    }
    if (off < n && !d->pending) {
        if (doc_begins(d, at + off)) {
            d->stopped = 1;
            return pii_stream_put(d->st, p + off, 0, PII_STREAM_FLUSH);
        }
        d->pending = 1;
    }
    if (d->flush)
        return pii_stream_put(d->st, p + off, n - off, PII_STREAM_FLUSH);
    return off < n ? pii_stream_feed(d->st, p + off, n - off) : PII_OK;
}

pii_err pii_drive_pause(pii_drive *d, int *ended)
{
    *ended = 0;
    if (d->rs || d->lines || !d->pending || !d->at_eol || !pii_stream_undecided(d->st))
        return PII_OK;
    pii_err e = pii_stream_end_doc(d->st);
    if (e)
        return e;
    d->pending = 0;
    d->paused = 1;
    *ended = 1;
    return PII_OK;
}

pii_err pii_drive_end(pii_drive *d)
{
    if (d->rs)
        return pii_rec_stream_end(d->rs);
    if (!d->pending && (d->lines || d->paused))
        return PII_OK;
    return pii_stream_end_doc(d->st);
}

ssize_t pii_drive_read(int fd, uint8_t *buf, size_t want, int once)
{
    size_t n = 0;
    while (n < want && !(once && n)) {
        ssize_t r = pii_fault_hit(PII_FAULT_READ) ? (errno = EIO, -1) : read(fd, buf + n, want - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        n += (size_t)r;
    }
    return (ssize_t)n;
}

/* Live input: whether fd has nothing to read now, or (ms > 0) still
 * nothing after ms milliseconds.  Errors say "ready": the read that
 * follows reports them. */
static int idle(int fd, int ms)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    int r;
    while ((r = poll(&p, 1, ms)) < 0 && errno == EINTR)
        ;
    return r == 0;
}

/* Live input, before a read: flushes stdio when the read would wait, and
 * ends the document at a pause of delay_ms. */
static pii_err before_read(pii_drive *d, const pii_drive_src *s)
{
    if (!s->live || !idle(s->fd, 0))
        return PII_OK;
    if (s->out && fflush(s->out) != 0)
        return PII_EWRITE;
    int ended = 0;
    pii_err e;
    if (s->delay_ms > 0 && !d->rs && !d->lines && d->pending && d->at_eol &&
        pii_stream_undecided(d->st) && idle(s->fd, (int)s->delay_ms) &&
        (e = pii_drive_pause(d, &ended)))
        return e;
    if (ended && s->out && fflush(s->out) != 0)
        return PII_EWRITE;
    return PII_OK;
}

pii_err pii_drive_fd(pii_drive *d, const pii_drive_src *s)
{
    const uint8_t *p = s->first;
    size_t n = s->nfirst, cap = s->first_cap;
    for (int have = p != NULL;; have = 0) {
        if (!have) {
            pii_err e;
            if (s->fd < 0)
                return PII_OK;
            if ((e = before_read(d, s)))
                return e;
            ssize_t r = pii_drive_read(s->fd, s->buf, s->cap, s->once);
            if (r < 0) {
                d->read_errno = errno ? errno : EIO;
                return PII_EIO;
            }
            if (r == 0)
                return PII_OK;
            p = s->buf;
            n = (size_t)r;
            cap = s->cap;
        }
        pii_err e = pii_drive_put(d, p, n);
        if (e || d->stopped)
            return e;
        if (n < cap && !s->once)
            return PII_OK; /* a read that fills less ends the input */
    }
}
