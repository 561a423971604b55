/* batch_run.c — the batch run: collects the inputs, starts the workers,
 * hands each one items (a packed group of small files to batch_pack.c, any
 * other file to batch_process in batch.c), shows progress and writes the
 * summary and report (see batch.h, batch_int.h and docs/BATCH.md).  The
 * top of the batch files: batch_run.c calls batch_pack.c and batch.c,
 * batch_pack.c calls batch.c, batch.c calls neither. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "batch.h"
#include "batch_int.h"
#include "cli.h"
#include "output.h"

static void *worker_main(void *arg)
{
    worker *w = arg;
    batch *b = w->b;
    size_t i;
    while ((i = atomic_fetch_add(&b->next, 1)) < b->nitems) {
        if (w->pack.on && batch_pack_candidate(w, &b->items[i])) {
            batch_pack_run(w, i); /* takes more items itself */
            continue;
        }
        batch_process(w, &b->items[i]);
        batch_finish(b, &b->items[i]);
    }
    return NULL;
}

/* ---- the run -------------------------------------------------------------- */

/* --report naming one of the inputs would overwrite it: refused. */
static int report_is_input(const batch *b)
{
    struct stat rs, is;
    if (stat(b->o->report, &rs) != 0)
        return -1; /* a new file: no input */
    for (size_t i = 0; i < b->nitems; i++) {
        const bitem *it = &b->items[i];
        if (it->blob || (it->is_root && strcmp(it->path, "-") == 0) ||
            (it->status == ST_SKIPPED && it->reason && strcmp(it->reason, BATCH_REPORT_FILE) == 0))
            continue; /* the report met in a walk is not read (issue 43 item 2) */
        if ((it->have_id && it->dev == rs.st_dev && it->ino == rs.st_ino) ||
            (!it->have_id && stat(it->path, &is) == 0 && is.st_dev == rs.st_dev &&
             is.st_ino == rs.st_ino)) {
            fprintf(stderr,
                    "pii-redact: --report %s is one of the inputs (%s); choose another "
                    "file\n",
                    b->o->report, it->path);
            return PII_EXIT_USAGE;
        }
    }
    return -1;
}

/* Items skipped for a reason the user did not choose that could hide text
 * (issue 42 H4): the run fails for them. */
static size_t risky(const batch *b)
{
    size_t n = 0;
    for (size_t i = 0; i < b->nitems; i++)
        n += b->items[i].status == ST_SKIPPED && b->items[i].skip == SKIP_RISKY;
    return n;
}

static unsigned ncpu(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 256 ? 256 : (unsigned)n;
}

int pii_batch_run(const pii_opts *o, pii_pipeline *p)
{
    batch b;
    memset(&b, 0, sizeof b);
    b.o = o;
    b.p = p;
    b.outdir_fd = -1;
    int rc = PII_EXIT_OK;
    worker *ws = NULL;
    unsigned nstarted = 0;

    b.dest = o->in_place  ? DEST_INPLACE
             : o->out_dir ? DEST_OUTDIR
             : o->suffix  ? DEST_SUFFIX
             : o->check   ? DEST_NONE
                          : DEST_STDOUT;
    if (batch_structured(o) && batch_auto_specs(&b) != PII_OK)
        return PII_EXIT_FAIL;
    if (o->njsonl_fields || o->ncsv_columns || o->json_doc) {
        pii_err e;
        int csv = o->ncsv_columns > 0;
        static const char *all[] = {"*"};
        size_t n = csv ? o->ncsv_columns : o->njsonl_fields ? o->njsonl_fields : 1;
        const char **sel = csv ? o->csv_columns : o->njsonl_fields ? o->jsonl_fields : all;
        if (!(b.spec = pii_rec_spec_create(csv           ? PII_REC_CSV
                                           : o->json_doc ? PII_REC_JSON
                                                         : PII_REC_JSONL,
                                           &e)))
            return PII_EXIT_FAIL;
        for (size_t i = 0; i < n; i++) {
            if ((e = pii_rec_spec_add(b.spec, sel[i]))) {
                fprintf(stderr, "pii-redact: bad %s '%s': %s\n",
                        csv ? "--csv-column" : "--jsonl-field", sel[i], pii_strerror(e));
                pii_rec_spec_free(b.spec);
                return e == PII_ENOMEM ? PII_EXIT_FAIL : PII_EXIT_USAGE;
            }
        }
        if ((o->csv_delimiter && pii_rec_spec_set_delimiter(b.spec, o->csv_delimiter)) ||
            (!csv && o->bad_records &&
             pii_rec_spec_set_bad(b.spec, (pii_rec_bad)o->bad_records) != PII_OK) ||
            (!csv && pii_rec_spec_set_scan(b.spec, (o->jsonl_numbers ? PII_REC_SCAN_NUMBERS : 0u) |
                                                       (o->jsonl_keys ? PII_REC_SCAN_KEYS : 0u)))) {
            pii_rec_spec_free(b.spec);
            return PII_EXIT_FAIL;
        }
    }
    b.umask = umask(0);
    umask(b.umask);
    pthread_mutex_init(&b.mu, NULL);
    pthread_mutex_init(&b.msgmu, NULL);
    pthread_cond_init(&b.cv, NULL);
    signal(SIGXFSZ, SIG_IGN); /* a file size limit is a write error, not a kill */

    if (o->out_dir) {
        struct stat st;
        /* the folder named is taken as given; everything below it is
         * created and entered through this descriptor (batch.c) */
        errno = 0;
        if (batch_mkdir_p(o->out_dir) != 0 ||
            (b.outdir_fd = open(o->out_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0 ||
            fstat(b.outdir_fd, &st) != 0) {
            fprintf(stderr, "pii-redact: %s: cannot create the output directory: %s\n", o->out_dir,
                    strerror(errno ? errno : ENOTDIR));
            rc = PII_EXIT_IO;
            goto done;
        }
        b.have_outdir_id = 1;
        b.outdir_dev = st.st_dev;
        b.outdir_ino = st.st_ino;
        /* the out-dir may not be an input folder: the outputs would nest
         * inside the input and the next run would walk them */
        for (size_t i = 0; i < o->nfiles; i++) {
            struct stat is;
            if (stat(o->files[i], &is) == 0 && S_ISDIR(is.st_mode) && is.st_dev == st.st_dev &&
                is.st_ino == st.st_ino) {
                fprintf(stderr,
                        "pii-redact: --out-dir %s is the input folder %s itself; choose a "
                        "folder outside it\n",
                        o->out_dir, o->files[i]);
                rc = PII_EXIT_USAGE;
                goto done;
            }
        }
    }
    if ((rc = batch_collect(&b)) >= 0)
        goto done;
    if (o->report && (rc = report_is_input(&b)) >= 0)
        goto done;
    if ((rc = batch_check_dests(&b)) >= 0)
        goto done;
    pii_cli_testhook_pause("walked");
    rc = PII_EXIT_OK;

    b.njobs = o->jobs ? (unsigned)o->jobs : ncpu();
    if (b.njobs > b.nitems)
        b.njobs = b.nitems ? (unsigned)b.nitems : 1;
    if (p->model && b.njobs > ncpu()) {
        /* issue 42 (Low): each model worker holds its own workspaces (-j 200
         * took 3 GB) while the forward passes are bound by the CPUs */
        if (!o->quiet)
            fprintf(stderr,
                    "pii-redact: -j %ld: with the model, at most one worker per CPU (%u) runs\n",
                    o->jobs, ncpu());
        b.njobs = ncpu();
    }

    int many = o->recursive || b.nitems > 1 || b.dest >= DEST_OUTDIR || o->report;
    if (o->progress)
        b.progress = isatty(STDERR_FILENO) ? 1 : 2;
    else if (!o->quiet && (many || b.bytes_total >= LARGE_INPUT) && isatty(STDERR_FILENO) &&
             (b.dest != DEST_STDOUT || !isatty(STDOUT_FILENO)))
        b.progress = 1;

    if (!(ws = calloc(b.njobs, sizeof *ws))) {
        rc = PII_EXIT_FAIL;
        goto done;
    }
    if (b.dest >= DEST_OUTDIR) {
        if (batch_slots_init(b.njobs) != 0) {
            rc = PII_EXIT_FAIL;
            goto done;
        }
    }
    for (unsigned i = 0; i < b.njobs; i++) {
        worker *w = &ws[i];
        w->b = &b;
        w->slot = batch_slot(i);
        w->oout = *o;
        w->buf = malloc(CHUNK);
        w->iobuf = malloc(IOBUF);
        pii_err e = w->buf && w->iobuf ? batch_open_streams(w) : PII_ENOMEM;
        if (e) {
            pii_cli_error("redactor", e);
            rc = pii_exit_for(e);
            goto done;
        }
        if ((rc = batch_pack_init(w)) >= 0)
            goto done;
    }
    rc = PII_EXIT_OK;

    b.t0 = batch_now();
    if (b.njobs == 1 && !b.progress) {
        worker_main(&ws[0]); /* nothing to draw: no thread needed */
    } else {
        for (; nstarted < b.njobs; nstarted++)
            if (pthread_create(&ws[nstarted].th, NULL, worker_main, &ws[nstarted]) != 0)
                break;
        if (nstarted == 0)
            worker_main(&ws[0]);
        pthread_mutex_lock(&b.mu);
        while (b.nfinished < b.nitems) {
            if (b.progress) {
                struct timespec ts;
                clock_gettime(CLOCK_REALTIME, &ts);
                ts.tv_nsec += 250000000;
                if (ts.tv_nsec >= 1000000000)
                    ts.tv_sec++, ts.tv_nsec -= 1000000000;
                pthread_cond_timedwait(&b.cv, &b.mu, &ts);
                int more = b.nfinished < b.nitems; /* else the final line follows */
                pthread_mutex_unlock(&b.mu);
                if (more)
                    batch_progress(&b, 0);
                pthread_mutex_lock(&b.mu);
            } else {
                pthread_cond_wait(&b.cv, &b.mu);
            }
        }
        pthread_mutex_unlock(&b.mu);
        for (unsigned i = 0; i < nstarted; i++)
            pthread_join(ws[i].th, NULL);
    }
    double wall = batch_now() - b.t0;
    batch_progress(&b, 1);

    int failed = 0, found = 0, stopped = atomic_load(&b.stop);
    size_t nskip = 0;
    for (size_t i = 0; i < b.nitems; i++) {
        failed |= b.items[i].status == ST_FAILED;
        found |= b.items[i].findings > 0;
    }
    if (b.stdout_err && b.stdout_err != EPIPE) {
        fprintf(stderr, "pii-redact: write error: %s\n", strerror(b.stdout_err));
        failed = 1;
    }
    stopped |= b.stdout_err == EPIPE;
    if (o->report && batch_write_report(&b, wall) != 0) {
        fprintf(stderr, "pii-redact: %s: cannot write the report: %s\n", o->report,
                strerror(errno));
        failed = 1;
    }
    long reported = 0;
    if (o->check && !stopped && (reported = batch_scan_report(&b)) < 0)
        failed = 1;
    if (fflush(stdout) != 0 && errno != EPIPE)
        failed = 1;
    if (!o->quiet && many && !stopped)
        batch_summary(&b, wall);
    if (stopped)
        rc = PII_EXIT_OK; /* a closed pipe ends us quietly */
    else if (failed)
        rc = PII_EXIT_IO;
    else if ((nskip = risky(&b)) > 0) {
        /* nothing may pass as clean or redacted that was not read (issue 42
         * H4); said even with -q, since it explains the status */
        fprintf(stderr,
                "pii-redact: %zu file%s or folder%s not read for a reason that could hide "
                "text (see the notices or --report)\n",
                nskip, nskip == 1 ? "" : "s", nskip == 1 ? " was" : "s were");
        rc = PII_EXIT_IO;
    } else if (o->check && reported > 0)
        rc = o->exit_code ? o->exit_code : PII_EXIT_FOUND;
    (void)found;

done:
    if (ws) {
        for (unsigned i = 0; i < b.njobs; i++) {
            pii_stream_free(ws[i].st);
            batch_free_rec_streams(&ws[i]);
            batch_pack_free(&ws[i]);
            free(ws[i].buf);
            free(ws[i].iobuf);
            batch_scan_free(&ws[i]);
        }
        free(ws);
    }
    batch_slots_free();
    for (size_t i = 0; i < b.nitems; i++) {
        free(b.items[i].path);
        free(b.items[i].blob);
        free(b.items[i].mem);
        free(b.items[i].lmap);
        free(b.items[i].error);
        free(b.items[i].out);
        free(b.items[i].counts);
        batch_scan_item_free(&b.items[i]);
        if (b.items[i].spool)
            fclose(b.items[i].spool);
    }
    free(b.items);
    if (b.outdir_fd >= 0)
        close(b.outdir_fd);
    pii_rec_spec_free(b.spec);
    for (int k = 0; k < BATCH_AUTO_N; k++)
        pii_rec_spec_free(b.auto_spec[k]);
    pthread_mutex_destroy(&b.mu);
    pthread_mutex_destroy(&b.msgmu);
    pthread_cond_destroy(&b.cv);
    return rc;
}
