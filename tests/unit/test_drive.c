/* test_drive.c — the command's one driver (src/drive.h): line framing,
 * flushes, the document and block hooks, stopping, pauses, the end of an
 * input and the read loop of a file descriptor, on a stream with synthetic
 * detectors. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "pii_redact.h"
#include "src/drive.h"
#include "unit_util.h"

/* digits: maximal runs of 3+ digits → private_phone, a run that touches the
 * buffer end held back; hold: decides nothing before the document ends. */
static void *det_open(const void *shared, pii_err *err)
{
    static int state; /* nothing to keep */
    (void)shared;
    *err = PII_OK;
    return &state;
}

static pii_err digits_scan(void *st, const uint8_t *buf, size_t len, uint64_t base, int eod,
                           pii_spanvec *out, uint64_t *done, uint64_t *keep)
{
    (void)st;
    uint64_t end = base + len, i = *done;
    while (i < end) {
        if (buf[i - base] < '0' || buf[i - base] > '9') {
            i++;
            continue;
        }
        uint64_t j = i;
        while (j < end && buf[j - base] >= '0' && buf[j - base] <= '9')
            j++;
        if (j == end && !eod)
            break;
        pii_span s = {i, j, "private_phone", "digits", 1.0f, PII_SRC_RULE};
        pii_err e = j - i >= 3 ? pii_spanvec_push(out, &s) : PII_OK;
        if (e)
            return e;
        i = j;
    }
    *done = *keep = i;
    return PII_OK;
}

static pii_err hold_scan(void *st, const uint8_t *buf, size_t len, uint64_t base, int eod,
                         pii_spanvec *out, uint64_t *done, uint64_t *keep)
{
    (void)st;
    (void)buf;
    (void)out;
    if (eod)
        *done = *keep = base + len;
    return PII_OK;
}

static void det_reset(void *st)
{
    (void)st;
}

static void det_close(void *st)
{
    (void)st;
}

static const pii_detector_class digits_cls = {"digits",  det_open,  digits_scan,
                                              det_reset, det_close, NULL};
static const pii_detector_class hold_cls = {"hold",    det_open,  hold_scan,
                                            det_reset, det_close, NULL};

/* The sink: the text written, '|' at each document's end (o); and what
 * the driver's hooks saw. */
typedef struct cap {
    unit_out o;
    uint64_t docs[16]; /* the doc hook's offsets */
    size_t ndocs;
    int stop_at; /* the doc hook stops at this document (1-based; 0: never) */
    size_t blocks, bytes;
} cap;

static pii_err cap_end(void *ud)
{
    return unit_out_write(ud, (const uint8_t *)"|", 1);
}

static int on_doc(void *ud, uint64_t at)
{
    cap *c = ud;
    assert_true(c->ndocs < 16);
    c->docs[c->ndocs++] = at;
    return c->stop_at && (int)c->ndocs == c->stop_at;
}

static void on_block(void *ud, const uint8_t *p, size_t n)
{
    cap *c = ud;
    (void)p;
    c->blocks++;
    c->bytes += n;
}

typedef struct rig {
    pii_redactor *r;
    pii_stream *st;
    cap c;
    pii_drive d;
} rig;

static void rig_open(rig *g, const pii_detector_class *cls, int lines, int flush)
{
    pii_err e;
    memset(g, 0, sizeof *g);
    assert_non_null(g->r = pii_redactor_create(&e));
    pii_detector d = {cls, NULL};
    assert_int_equal(pii_redactor_add_detector(g->r, d), PII_OK);
    pii_sink sink = {unit_out_write, NULL, cap_end, &g->c.o};
    assert_non_null(g->st = pii_stream_create(g->r, &sink, &e));
    g->d = (pii_drive){
        .st = g->st, .lines = lines, .flush = flush, .doc = on_doc, .block = on_block, .ud = &g->c};
    pii_drive_begin(&g->d);
}

/* The next input: the driver begun again, the output cleared. */
static void restart(rig *g)
{
    pii_drive_begin(&g->d);
    g->c.o.n = 0;
    g->c.o.b[0] = '\0';
}

/* Ends the input; the whole output is then `want`. */
static void ends_as(rig *g, const char *want)
{
    assert_int_equal(pii_drive_end(&g->d), PII_OK);
    assert_string_equal(g->c.o.b, want);
}

static void rig_close(rig *g)
{
    pii_stream_free(g->st);
    pii_redactor_free(g->r);
}

static pii_err put(rig *g, const char *s)
{
    return pii_drive_put(&g->d, (const uint8_t *)s, strlen(s));
}

/* The suites' rigs (cmocka setup and teardown): the detector, lines and
 * flush. */
static int setup(void **state, const pii_detector_class *cls, int lines, int flush)
{
    rig *g = malloc(sizeof *g);
    assert_non_null(g);
    rig_open(g, cls, lines, flush);
    *state = g;
    return 0;
}

static int with_lines(void **state)
{
    return setup(state, &digits_cls, 1, 1);
}

static int with_whole(void **state)
{
    return setup(state, &digits_cls, 0, 0);
}

static int with_hold(void **state)
{
    return setup(state, &hold_cls, 0, 1);
}

static int with_hold_lines(void **state)
{
    return setup(state, &hold_cls, 1, 1);
}

static int teardown(void **state)
{
    rig_close(*state);
    free(*state);
    return 0;
}

/* --lines: each line a document, a line across blocks one document, the
 * doc hook at each document's first byte (input offsets), each block
 * flushed (its lines written when it is put), an unended last line ended
 * by pii_drive_end, no empty document after a final newline. */
static void test_lines(void **state)
{
    rig *g = *state;
    assert_int_equal(put(g, "a 1234\nb"), PII_OK);
    /* written at once: the line, and the open line as far as decided */
    assert_string_equal(g->c.o.b, "a <PRIVATE_PHONE>\n|b");
    assert_int_equal(put(g, "b 55\ncc 999"), PII_OK);
    assert_int_equal(put(g, ""), PII_OK); /* an empty block is nothing */
    ends_as(g, "a <PRIVATE_PHONE>\n|bb 55\n|cc <PRIVATE_PHONE>|");
    assert_int_equal(g->c.ndocs, 3);
    assert_int_equal(g->c.docs[0], 0);
    assert_int_equal(g->c.docs[1], 7);
    assert_int_equal(g->c.docs[2], 13);
    assert_int_equal(g->c.blocks, 2);
    assert_int_equal(g->c.bytes, 19);
    assert_int_equal(g->d.at, 19);
    /* a new input ending in a newline: no empty document after it */
    restart(g);
    assert_int_equal(put(g, "x\n"), PII_OK);
    ends_as(g, "x\n|");
}

/* Without lines the input is one document: fed, not flushed, unless
 * `flush`; an empty input is still one (empty) document. */
static void test_whole(void **state)
{
    rig *g = *state;
    assert_int_equal(put(g, "a 12"), PII_OK);
    assert_int_equal(put(g, "34\nb 5"), PII_OK);
    ends_as(g, "a <PRIVATE_PHONE>\nb 5|");
    assert_int_equal(g->c.ndocs, 1);
    restart(g);
    ends_as(g, "|");
}

/* The doc hook stops the input at a document's start: what was put is
 * flushed and written, nothing of that document is put. */
static void test_stop(void **state)
{
    rig *g = *state;
    g->c.stop_at = 2;
    assert_int_equal(put(g, "one 123\ntwo 456\nthree\n"), PII_OK);
    assert_true(g->d.stopped);
    assert_string_equal(g->c.o.b, "one <PRIVATE_PHONE>\n|");
    assert_int_equal(g->c.ndocs, 2);
}

/* A pause ends the document only where that changes what is written: text
 * still undecided that ends at a line end, not in --lines mode; the end
 * then adds no empty document. */
static void test_pause(void **state)
{
    rig *g = *state;
    int ended = -1;
    assert_int_equal(put(g, "abc"), PII_OK);
    assert_int_equal(pii_drive_pause(&g->d, &ended), PII_OK);
    assert_int_equal(ended, 0); /* not at a line end */
    assert_int_equal(put(g, "\n"), PII_OK);
    assert_string_equal(g->c.o.b, ""); /* held: undecided */
    assert_int_equal(pii_drive_pause(&g->d, &ended), PII_OK);
    assert_int_equal(ended, 1);
    assert_string_equal(g->c.o.b, "abc\n|");
    assert_int_equal(pii_drive_pause(&g->d, &ended), PII_OK);
    assert_int_equal(ended, 0); /* nothing pending */
    ends_as(g, "abc\n|");
    assert_int_equal(put(g, "d\n"), PII_OK);
    assert_int_equal(g->c.docs[1], 4);
    ends_as(g, "abc\n|d\n|");
}

/* With --lines a pause never ends a document. */
static void test_pause_lines(void **state)
{
    rig *g = *state;
    int ended = -1;
    assert_int_equal(put(g, "abc"), PII_OK);
    assert_int_equal(pii_drive_pause(&g->d, &ended), PII_OK);
    assert_int_equal(ended, 0);
}

/* The read loop: a first block given by the caller, then reads of cap
 * bytes to the end; a read that fills less ends the input (unless once);
 * a failed read is PII_EIO with its errno, and nothing is ended. */
static void test_fd(void **state)
{
    int p[2];
    assert_int_equal(pipe(p), 0);
    assert_int_equal(write(p[1], "b 123\nc", 7), 7);
    close(p[1]);
    rig *g = *state;
    uint8_t buf[4];
    pii_drive_src src = {.fd = p[0],
                         .buf = buf,
                         .cap = sizeof buf,
                         .first = (const uint8_t *)"a\n",
                         .nfirst = 2,
                         .first_cap = 2};
    assert_int_equal(pii_drive_fd(&g->d, &src), PII_OK);
    ends_as(g, "a\n|b <PRIVATE_PHONE>\n|c|");
    assert_int_equal(g->c.blocks, 3); /* the first, then 4 + 3 bytes */
    close(p[0]);
    /* a short first block ends a file input */
    restart(g);
    src.fd = -1;
    src.nfirst = 1;
    src.first_cap = 8;
    src.first = (const uint8_t *)"z";
    assert_int_equal(pii_drive_fd(&g->d, &src), PII_OK);
    ends_as(g, "z|");
    /* a read error */
    restart(g);
    src.first = NULL;
    src.fd = 1000; /* not open */
    assert_int_equal(pii_drive_fd(&g->d, &src), PII_EIO);
    assert_int_equal(g->d.read_errno, EBADF);
    assert_string_equal(g->c.o.b, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_lines, with_lines, teardown),
        cmocka_unit_test_setup_teardown(test_whole, with_whole, teardown),
        cmocka_unit_test_setup_teardown(test_stop, with_lines, teardown),
        cmocka_unit_test_setup_teardown(test_pause, with_hold, teardown),
        cmocka_unit_test_setup_teardown(test_pause_lines, with_hold_lines, teardown),
        cmocka_unit_test_setup_teardown(test_fd, with_lines, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
