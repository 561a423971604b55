/* batch_csvcheck.c — see batch_csvcheck.h. */
#include "batch_csvcheck.h"

#include <stdlib.h>
#include <unistd.h>

#include "pii_records.h"

enum { S_START, S_UNQ, S_QUOTED, S_QEND, S_CR };

typedef struct csvck {
    int state, delim, bad;
    int after_cr;    /* the state a CR came from (S_UNQ or S_QEND) */
    uint64_t record; /* 0: the first record */
    uint64_t len;    /* bytes of the current record */
    size_t fields;   /* fields of the first record so far */
    int other;       /* the first record holds another separator unquoted */
} csvck;

static void rec_end(csvck *c)
{
    if (c->record == 0 && c->fields == 1 && c->other)
        c->bad = 1;
    c->record++;
    c->len = 0;
    c->state = S_START;
}

static void feed(csvck *c, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n && !c->bad; i++) {
        uint8_t b = p[i];
        if (++c->len > PII_REC_MAX_RECORD) {
            c->bad = 1;
            break;
        }
        switch (c->state) {
        case S_START:
            if (c->record == 0 && c->fields == 0)
                c->fields = 1;
            if (b == '"') {
                c->state = S_QUOTED;
                break;
            }
            c->state = S_UNQ;
            /* fall through */
        case S_UNQ:
            if (b == (uint8_t)c->delim) {
                c->state = S_START;
                c->fields++;
            } else if (b == '\n') {
                rec_end(c);
            } else if (b == '\r') {
                c->state = S_CR;
            } else if (b == ';' || b == '\t' || b == '|') {
                c->other = 1;
            }
            break;
        case S_QUOTED:
            if (b == '"')
                c->state = S_QEND;
            break;
        case S_QEND:
            if (b == '"') {
                c->state = S_QUOTED;
            } else if (b == (uint8_t)c->delim) {
                c->state = S_START;
                c->fields++;
            } else if (b == '\n') {
                rec_end(c);
            } else if (b == '\r') {
                c->state = S_CR;
            } else {
                c->bad = 1;
            }
            break;
        case S_CR:
            if (b == '\n')
                rec_end(c);
            else
                c->bad = 1;
            break;
        }
    }
}

int batch_csv_parses(int fd, const uint8_t *first, size_t nfirst, size_t cap, int delim)
{
    csvck c = {.state = S_START, .delim = delim};
    if (fd < 0 || nfirst < cap) {
        feed(&c, first, nfirst);
    } else {
        enum { BUF = 1 << 16 };
        uint8_t *buf = malloc(BUF);
        if (!buf)
            return 0;
        off_t off = 0;
        for (;;) {
            ssize_t got = pread(fd, buf, BUF, off);
            if (got < 0) {
                free(buf);
                return 0;
            }
            if (got == 0 || c.bad)
                break;
            feed(&c, buf, (size_t)got);
            off += got;
        }
        free(buf);
    }
    if (c.state == S_QUOTED || c.state == S_CR)
        return 0;
    if (c.state != S_START || c.len)
        rec_end(&c);
    return !c.bad;
}
