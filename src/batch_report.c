/* batch_report.c — messages, the progress line, the summary line and the
 * JSON report of a batch run.  Nothing here ever prints input text: the
 * report and the lines carry paths, counts, labels, sizes and times. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "batch_int.h"
#include "names.h"
#include "pii_core.h"
#include "pii_json_write.h"
#include "pii_rt.h"
#include "pii_rt_write.h"

double batch_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Clears a drawn progress line; caller holds msgmu. */
static void clear_line(batch *b)
{
    if (b->progress == 1 && b->progress_drawn) {
        fputs("\r\033[K", stderr);
        b->progress_drawn = 0;
    }
}

/* Writes s to stderr escaped (names.h: a file name may hold a newline, an
 * escape sequence or bytes that are not UTF-8), except a final newline. */
static void put_escaped(const char *s)
{
    size_t n = strlen(s);
    int nl = n && s[n - 1] == '\n';
    pii_name_putn(stderr, s, n - (size_t)nl);
    if (nl)
        fputc('\n', stderr);
}

void batch_msg(batch *b, const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (k >= (int)sizeof buf) /* keep the line's end */
        memcpy(buf + sizeof buf - 5, "...\n", 5);
    pthread_mutex_lock(&b->msgmu);
    clear_line(b);
    put_escaped(buf);
    fflush(stderr);
    pthread_mutex_unlock(&b->msgmu);
}

static void human(double v, char *buf, size_t n)
{
    static const char *const unit[] = {"B", "kB", "MB", "GB", "TB"};
    int u = 0;
    while (v >= 1000 && u < 4)
        v /= 1000, u++;
    if (u == 0)
        snprintf(buf, n, "%.0f %s", v, unit[u]);
    else
        snprintf(buf, n, "%.1f %s", v, unit[u]);
}

void batch_progress(batch *b, int final)
{
    static double last;
    if (!b->progress)
        return;
    double now = batch_now(), el = now - b->t0;
    if (final && b->progress == 1) {
        pthread_mutex_lock(&b->msgmu);
        clear_line(b);
        pthread_mutex_unlock(&b->msgmu);
        return;
    }
    if (b->progress == 2 && now - last < 1.0 && !final)
        return; /* plain lines: one a second, and a last one at the end */
    last = now;
    uint64_t done = atomic_load(&b->done), bytes = atomic_load(&b->bytes_done);
    uint64_t found = atomic_load(&b->findings);
    double rate = el > 0 ? (double)bytes / el : 0;
    char r[32], eta[32] = "?";
    human(rate, r, sizeof r);
    if (rate > 0 && b->bytes_total >= bytes) {
        double s = (double)(b->bytes_total - bytes) / rate;
        if (s < 360000)
            snprintf(eta, sizeof eta, "%d:%02d:%02d", (int)s / 3600, (int)s / 60 % 60, (int)s % 60);
    }
    char bd[32], bt[32];
    human((double)bytes, bd, sizeof bd);
    human((double)b->bytes_total, bt, sizeof bt);
    if (final && done == b->nitems)
        snprintf(eta, sizeof eta, "0:00:00");
    pthread_mutex_lock(&b->msgmu);
    fprintf(stderr, "%spii-redact: %llu/%zu files, %s of %s, %s/s, ETA %s, %llu findings%s",
            b->progress == 1 ? "\r" : "", (unsigned long long)done, b->nitems, bd, bt, r, eta,
            (unsigned long long)found, b->progress == 1 ? "\033[K" : "\n");
    fflush(stderr);
    b->progress_drawn = b->progress == 1;
    pthread_mutex_unlock(&b->msgmu);
}

/* ---- totals ------------------------------------------------------------- */

typedef struct totals {
    size_t ok, changed, skipped, failed, with_pii;
    uint64_t bytes_in, bytes_out, findings;
    lcount *counts;
    size_t ncounts;
} totals;

static void add_counts(lcount **v, size_t *n, const lcount *c)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp((*v)[i].label, c->label) == 0) {
            for (int k = 0; k < 3; k++)
                (*v)[i].n[k] += c->n[k];
            return;
        }
    lcount *w = realloc(*v, (*n + 1) * sizeof *w);
    if (!w)
        return; /* the summary loses a label; the run is not failed for it */
    w[(*n)++] = *c;
    *v = w;
}

static void sum(const batch *b, totals *t)
{
    memset(t, 0, sizeof *t);
    for (size_t i = 0; i < b->nitems; i++) {
        const bitem *it = &b->items[i];
        t->ok += it->status == ST_OK;
        t->skipped += it->status == ST_SKIPPED;
        t->failed += it->status == ST_FAILED;
        t->changed += it->status == ST_OK && it->changed;
        t->with_pii += it->findings > 0;
        t->bytes_in += it->bytes_in;
        t->bytes_out += it->bytes_out;
        t->findings += it->findings;
        for (size_t k = 0; k < it->ncounts; k++)
            add_counts(&t->counts, &t->ncounts, &it->counts[k]);
    }
}

#define PLURAL(n) ((n) == 1 ? "" : "s")

void batch_summary(batch *b, double wall)
{
    totals t;
    sum(b, &t);
    char in[32], rate[32];
    human((double)t.bytes_in, in, sizeof in);
    human(wall > 0 ? (double)t.bytes_in / wall : 0, rate, sizeof rate);
    if (b->o->check) {
        /* what was reported: findings on an allow-marker line or in the
         * baseline are counted apart, and nothing is "changed" */
        size_t rep = 0, with = 0;
        for (size_t i = 0; i < b->nitems; i++) {
            rep += b->items[i].reported;
            with += b->items[i].reported > 0;
        }
        char sup[80] = "";
        if (t.findings > rep)
            snprintf(sup, sizeof sup, "; %llu more not reported (allow marker, baseline)",
                     (unsigned long long)(t.findings - rep));
        batch_msg(b,
                  "pii-redact: %zu file%s: %zu scanned, %zu skipped, %zu failed; %s in %.2f s "
                  "(%s/s); %zu finding%s in %zu file%s%s\n",
                  b->nitems, PLURAL(b->nitems), t.ok, t.skipped, t.failed, in, wall, rate, rep,
                  PLURAL(rep), with, PLURAL(with), sup);
    } else {
        batch_msg(b,
                  "pii-redact: %zu file%s: %zu done (%zu changed), %zu skipped, %zu failed; "
                  "%s in %.2f s (%s/s); %llu finding%s in %zu file%s\n",
                  b->nitems, PLURAL(b->nitems), t.ok, t.changed, t.skipped, t.failed, in, wall,
                  rate, (unsigned long long)t.findings, PLURAL(t.findings), t.with_pii,
                  PLURAL(t.with_pii));
    }
    free(t.counts);
}

/* ---- the JSON report ---------------------------------------------------- */

/* A JSON string; bytes that are not UTF-8 become U+FFFD
 * (pii_json_write.h; write errors show in ferror). */
static void jstr(FILE *f, const char *s)
{
    (void)pii_json_fput(f, s, strlen(s), 0);
}

static void jlabels(FILE *f, const lcount *c, size_t n)
{
    fputc('{', f);
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputc(',', f);
        jstr(f, c[i].label);
        fputs(":{", f);
        int first = 1;
        for (int k = 0; k < 3; k++) {
            if (!c[i].n[k])
                continue;
            fprintf(f, "%s\"%s\":%llu", first ? "" : ",", pii_source_name((pii_source)k),
                    (unsigned long long)c[i].n[k]);
            first = 0;
        }
        fputc('}', f);
    }
    fputc('}', f);
}

static const char *mode_name(const batch *b)
{
    switch (b->dest) {
    case DEST_OUTDIR:
        return "out-dir";
    case DEST_SUFFIX:
        return "suffix";
    case DEST_INPLACE:
        return "in-place";
    case DEST_NONE:
        return "check";
    default:
        return "stdout";
    }
}

int batch_write_report(batch *b, double wall)
{
    const char *path = b->o->report;
    char *tmp = NULL;
    /* a new file beside the report (never a planted name or link), 0600,
     * renamed over it when complete */
    FILE *f = pii_rt_temp_fopen(path, &tmp);
    if (!f)
        return -1;
    totals t;
    sum(b, &t);
    fprintf(f, "{\"tool\":\"pii-redact\",\"version\":\"%s\",\"mode\":\"%s\",\"jobs\":%u,\n",
            PII_VERSION, mode_name(b), b->njobs);
    fprintf(f,
            "\"summary\":{\"files\":%zu,\"ok\":%zu,\"changed\":%zu,\"skipped\":%zu,"
            "\"failed\":%zu,\"files_with_findings\":%zu,\"bytes_in\":%llu,\"bytes_out\":%llu,"
            "\"findings\":%llu,\"seconds\":%.6f,\"labels\":",
            b->nitems, t.ok, t.changed, t.skipped, t.failed, t.with_pii,
            (unsigned long long)t.bytes_in, (unsigned long long)t.bytes_out,
            (unsigned long long)t.findings, wall);
    jlabels(f, t.counts, t.ncounts);
    fputs("},\n\"files\":[", f);
    free(t.counts);
    static const char *const st[] = {"pending", "ok", "skipped", "failed"};
    for (size_t i = 0; i < b->nitems; i++) {
        const bitem *it = &b->items[i];
        fputs(i ? ",\n" : "\n", f);
        fputs("{\"path\":", f);
        jstr(f, it->path);
        fprintf(f, ",\"status\":\"%s\"", st[it->status]);
        if (it->status == ST_SKIPPED) {
            fputs(",\"reason\":", f);
            jstr(f, it->reason ? it->reason : "");
            fputs("}", f);
            continue;
        }
        if (it->status == ST_FAILED) {
            fputs(",\"error\":", f);
            jstr(f, it->error ? it->error : "");
        }
        if (it->out) {
            fputs(",\"output\":", f);
            jstr(f, it->out);
        }
        fprintf(f,
                ",\"changed\":%s,\"bytes_in\":%llu,\"bytes_out\":%llu,\"seconds\":%.6f,"
                "\"findings\":%llu",
                it->changed ? "true" : "false", (unsigned long long)it->bytes_in,
                (unsigned long long)it->bytes_out, it->seconds, (unsigned long long)it->findings);
        if (b->spec)
            fprintf(f, ",\"records\":%llu", (unsigned long long)it->records);
        fputs(",\"labels\":", f);
        jlabels(f, it->counts, it->ncounts);
        fputs("}", f);
    }
    fputs("\n]}\n", f);
    int bad = ferror(f);
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0) {
        remove(tmp);
        free(tmp);
        return -1;
    }
    free(tmp);
    return 0;
}
