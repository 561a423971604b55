/* batch_redact.c — one item of batch mode, start to end, in one worker:
 * the input opened and its first block read (batch_input.c) → the
 * destination (batch_output.c) → the worker's stream or record stream fed
 * through the command's driver (drive.h) → errors reported → the output
 * committed (batch_output.c); and the in-order release of spooled outputs
 * to standard output (see batch_int.h and docs/BATCH.md). */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch_csvcheck.h"
#include "batch_int.h"
#include "drive.h"

/* The stream takes a new input: the wide-text guard starts over and the
 * custom rules see its path (pii_custom.h). */
static void start_input(worker *w, bitem *it, batch_input *in, pii_stream *st)
{
    const char *name = in->is_stdin ? NULL : it->path;
    w->cur = st;
    if (w->rs) {
        pii_rec_stream_set_input_name(w->rs, name);
    } else {
        pii_stream_new_input(st);
        pii_stream_set_input_name(st, name);
    }
}

/* A packed input was read whole and closed: its folder is opened and
 * checked against the walk again before anything is written there.
 * 1, or 0 after failing the item. */
static int recheck_packed(worker *w, bitem *it, batch_input *in)
{
    batch *b = w->b;
    if (!it->have_id || in->dirfd >= 0 || (b->dest != DEST_INPLACE && b->dest != DEST_SUFFIX))
        return 1;
    if (!batch_open_walked_dir(w, it, in))
        return 0;
    struct stat fs;
    if (fstatat(in->dirfd, in->base, &fs, b->o->follow ? 0 : AT_SYMLINK_NOFOLLOW) != 0 ||
        fs.st_dev != it->dev || fs.st_ino != it->ino) {
        batch_fail(w, it, "was replaced since the walk; not written");
        return 0;
    }
    return 1;
}

/* The item's text output (pii_out) on fp, when there is one.  1, or 0
 * after failing the item. */
static int open_output(worker *w, bitem *it, batch_input *in, FILE *fp)
{
    batch *b = w->b;
    const pii_opts *o = b->o;
    if (!fp)
        return 1;
    /* Records from standard input to standard output are flushed one by
     * one, so `tail -f events.ndjson | pii-redact --jsonl-field m` works. */
    w->oout.lines = b->dest >= DEST_OUTDIR && o->format == PII_FMT_TEXT ? 0 : o->lines;
    if (b->spec && in->is_stdin && fp == stdout && o->format == PII_FMT_TEXT)
        w->oout.lines = 1;
    if (!(w->out = pii_out_create(fp, &w->oout))) {
        batch_fail(w, it, "out of memory");
        return 0;
    }
    pii_out_set_file(w->out, in->is_stdin ? NULL : it->path);
    pii_out_set_input(w->out,
                      !in->is_stdin && !it->blob && !it->from_diff && S_ISREG(in->st.st_mode));
    w->osink = pii_out_sink(w->out);
    return 1;
}

/* The record stream of the item, if any: a *.tsv or *.tab file is
 * TAB-separated unless --csv-delimiter says otherwise; --structured picks
 * one by extension (batch_auto_kind), failing closed to plain text for a
 * JSON document over PII_REC_MAX_RECORD and a CSV file that does not
 * parse.  *bad0: the stream's lines redacted as text before.  1, or 0
 * after failing the item. */
static int pick_records(worker *w, bitem *it, batch_input *in, uint64_t *bad0)
{
    batch *b = w->b;
    const pii_opts *o = b->o;
    *bad0 = 0;
    if (w->rs && b->spec && pii_rec_spec_format(b->spec) == PII_REC_CSV && !o->csv_delimiter &&
        !in->is_stdin && (batch_ends_in(it->path, ".tsv") || batch_ends_in(it->path, ".tab")))
        pii_rec_stream_set_delimiter(w->rs, '\t');
    if (!b->auto_spec[0])
        return 1;
    int tab, k = in->is_stdin ? -1 : batch_auto_kind(it->path, &tab);
    /* one JSON document is one record: a larger file is redacted as text */
    if (k == BATCH_AUTO_JSON && S_ISREG(in->st.st_mode) &&
        (uint64_t)in->st.st_size > PII_REC_MAX_RECORD) {
        k = -1;
        if (!o->quiet)
            batch_msg(b, "pii-redact: %s: a JSON document over %u MiB; redacted as plain text\n",
                      it->path, PII_REC_MAX_RECORD >> 20);
    }
    /* a CSV file that records mode would refuse is redacted as plain text */
    if (k == BATCH_AUTO_CSV &&
        !batch_csv_parses(in->fd, in->data, in->n, in->cap, tab ? '\t' : ',')) {
        k = -1;
        if (!o->quiet)
            batch_msg(b, "pii-redact: %s: not valid %s; redacted as plain text\n", it->path,
                      tab ? "TSV" : "CSV");
    }
    pii_sink s = batch_sink(w);
    pii_err ce = PII_OK;
    if (k >= 0 && !w->ars[k])
        w->ars[k] = pii_rec_stream_create(b->auto_spec[k], b->p->red, b->p->ops, &s, &ce);
    if (ce) {
        batch_fail(w, it, "out of memory");
        return 0;
    }
    w->rs = k >= 0 ? w->ars[k] : NULL;
    if (k == BATCH_AUTO_CSV)
        pii_rec_stream_set_delimiter(w->rs, tab ? '\t' : ',');
    if (w->rs)
        *bad0 = pii_rec_stream_bad_records(w->rs);
    return 1;
}

/* drive.h's hooks: each block counts and, with --check, is indexed (line
 * ends, allow markers) before it is put; with --lines each document's
 * file offset is kept for the spans that come at the flush. */
static void on_block(void *ud, const uint8_t *p, size_t n)
{
    worker *w = ud;
    w->it->bytes_in += n;
    atomic_fetch_add(&w->b->bytes_done, n);
    if (w->b->o->check)
        batch_scan_data(w, p, n);
}

static int on_doc(void *ud, uint64_t at)
{
    worker *w = ud;
    w->sc.doc_base[w->sc.docs_started++ % BATCH_DOC_RING] = at;
    return 0;
}

/* What feeding an input came to. */
typedef struct fed {
    pii_err e;  /* the stream's error, or PII_EWRITE */
    int rerr;   /* a read error's errno */
    int werr;   /* a write error's errno */
    int gitbad; /* --staged: git did not give the whole blob */
} fed;

/* Feeds the input through the worker's stream (the first block read
 * already, the rest read here), ends it and flushes fp. */
static fed feed_input(worker *w, bitem *it, batch_input *in, FILE *fp, uint64_t bad0)
{
    batch *b = w->b;
    const pii_opts *o = b->o;
    fed r = {PII_OK, 0, 0, 0};
    pii_drive d = {.st = w->cur,
                   .rs = w->rs,
                   .lines = o->lines,
                   .flush = o->lines,
                   .doc = o->lines ? on_doc : NULL,
                   .block = on_block,
                   .ud = w};
    pii_drive_src src = {.fd = in->fd,
                         .buf = w->buf,
                         .cap = CHUNK,
                         .once = in->is_stdin,
                         .first = in->data,
                         .nfirst = in->n,
                         .first_cap = in->cap};
    pii_drive_begin(&d);
    r.e = pii_drive_fd(&d, &src);
    r.werr = errno;
    if (r.e == PII_EIO && d.read_errno) {
        r.rerr = d.read_errno;
        r.e = PII_OK;
    }
    /* a staged blob is whole only when git says so */
    r.gitbad = !r.rerr && !r.e && in->git > 0 && batch_input_close(in) != 0;
    if (!r.e && !r.rerr && !r.gitbad)
        r.e = pii_drive_end(&d);
    if (!r.e && b->auto_spec[0] && w->rs && !o->quiet) {
        uint64_t bad = pii_rec_stream_bad_records(w->rs) - bad0;
        if (bad && w->rs == w->ars[BATCH_AUTO_JSON])
            batch_msg(b, "pii-redact: %s: not valid JSON; redacted as plain text\n", it->path);
        else if (bad)
            batch_msg(b, "pii-redact: %s: %llu line%s not JSON; redacted as plain text\n", it->path,
                      (unsigned long long)bad, bad == 1 ? "" : "s");
    }
    if (!r.e && !r.rerr && fp && fflush(fp) != 0)
        r.e = PII_EWRITE, r.werr = errno;
    return r;
}

/* Fails the item for what feeding it came to, if anything failed. */
static void report(worker *w, bitem *it, const fed *r, FILE *fp)
{
    batch *b = w->b;
    char eb[128];
    if (r->gitbad) {
        batch_fail(w, it, "git cat-file %s failed: the staged content was not read whole",
                   it->blob);
    } else if (r->rerr) {
        batch_fail(w, it, "read error: %s", batch_errstr(r->rerr, eb, sizeof eb));
    } else if (r->e == PII_EWRITE) {
        if (r->werr == EPIPE && fp == stdout) {
            atomic_store(&b->stop, 1); /* stop taking files, quietly */
            it->status = ST_FAILED;
            it->error = strdup("standard output was closed");
        } else {
            batch_fail(w, it, "write error%s%s: %s", it->out ? " on " : "", it->out ? it->out : "",
                       batch_errstr(r->werr, eb, sizeof eb));
        }
    } else if (r->e == PII_EENCODING) {
        batch_fail(w, it, "%s; convert it to UTF-8 (iconv -f UTF-16 -t UTF-8)%s",
                   pii_strerror(r->e), fp == stdout || it->spool ? "; output stopped there" : "");
    } else if (r->e && w->rs) {
        const char *d = pii_rec_stream_detail(w->rs);
        batch_fail(w, it, "record %llu: %s%s%s", (unsigned long long)pii_rec_stream_record(w->rs),
                   pii_strerror(r->e), d[0] ? ": " : "", d);
    } else if (r->e) {
        batch_fail(w, it, "redaction stopped: %s", pii_strerror(r->e));
    }
}

/* Redacts the item into its destination; 1 when it is ready to commit. */
static int redact(worker *w, bitem *it, batch_input *in, FILE *fp)
{
    uint64_t bad0;
    w->it = it;
    batch_scan_begin(w);
    if (!pick_records(w, it, in, &bad0))
        return 0;
    fed r = feed_input(w, it, in, fp, bad0);
    report(w, it, &r, fp);
    if (it->status == ST_FAILED) {
        /* a failed stream fails every later call: start the next item on
         * fresh ones */
        if (batch_open_streams(w) != PII_OK)
            w->dead = 1;
        return 0;
    }
    it->status = ST_OK;
    it->changed =
        it->findings > 0 || (w->b->dest != DEST_INPLACE && w->b->o->format != PII_FMT_TEXT);
    return 1;
}

void batch_redact(worker *w, bitem *it, batch_input *in, pii_stream *st)
{
    bdest d = {.tfd = -1, .wdir = -1};
    start_input(w, it, in, st);
    if (recheck_packed(w, it, in) && batch_dest_open(w, it, in, &d) &&
        open_output(w, it, in, d.fp) && redact(w, it, in, d.fp))
        batch_dest_commit(w, it, in, &d);
    if (w->out) {
        pii_out_free(w->out);
        w->out = NULL;
        memset(&w->osink, 0, sizeof w->osink);
    }
    batch_dest_close(w, it, &d);
    batch_input_close(in);
    it->seconds += batch_now() - in->t0;
}

void batch_process(worker *w, bitem *it)
{
    batch_input in;
    if (batch_prepare(w, it, w->buf, CHUNK, &in))
        batch_redact(w, it, &in, w->st);
    else
        it->seconds += batch_now() - in.t0;
}

/* Publishes a finished item; writes spooled outputs to stdout in order. */
void batch_finish(batch *b, bitem *it)
{
    char buf[CHUNK];
    pthread_mutex_lock(&b->mu);
    it->finished = 1;
    b->nfinished++;
    while (b->emit_next < b->nitems && b->items[b->emit_next].finished) {
        bitem *x = &b->items[b->emit_next++];
        if (!x->spool)
            continue;
        if (!b->stdout_err) {
            size_t r;
            rewind(x->spool);
            while ((r = fread(buf, 1, sizeof buf, x->spool)) > 0)
                if (fwrite(buf, 1, r, stdout) != r) {
                    b->stdout_err = errno ? errno : EIO;
                    atomic_store(&b->stop, 1); /* nobody will see the rest */
                    break;
                }
        }
        fclose(x->spool);
        x->spool = NULL;
    }
    atomic_fetch_add(&b->done, 1);
    if (b->nfinished == b->nitems)
        pthread_cond_signal(&b->cv); /* the progress loop polls on its own */
    pthread_mutex_unlock(&b->mu);
}
