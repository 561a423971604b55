/* progress.c — the single-input progress line (see progress.h). */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void pii_progress_human(double v, char *buf, unsigned long n)
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

int pii_progress_mode(int progress, int quiet)
{
    int tty = isatty(STDERR_FILENO);
    if (progress)
        return tty ? 1 : 2;
    return !quiet && tty && !isatty(STDOUT_FILENO) ? 1 : 0;
}

void pii_progress_start(pii_progress *p, int mode, const char *name, uint64_t total)
{
    p->mode = mode;
    p->name = name;
    p->total = total;
    p->done = 0;
    p->t0 = p->last = now();
    p->drawn = 0;
}

static void draw(pii_progress *p, double t, int final)
{
    double el = t - p->t0;
    double rate = el > 0 ? (double)p->done / el : 0;
    char d[32], tot[32], r[32], eta[32] = "?";
    pii_progress_human((double)p->done, d, sizeof d);
    pii_progress_human(rate, r, sizeof r);
    const char *pre = p->mode == 1 ? "\r" : "", *post = p->mode == 1 ? "\033[K" : "\n";
    if (p->total) {
        uint64_t left = p->total > p->done ? p->total - p->done : 0;
        if (final || left == 0)
            snprintf(eta, sizeof eta, "0:00:00");
        else if (rate > 0 && (double)left / rate < 360000) {
            int s = (int)((double)left / rate);
            snprintf(eta, sizeof eta, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
        }
        pii_progress_human((double)p->total, tot, sizeof tot);
        unsigned pct =
            (unsigned)(p->done >= p->total ? 100 : 100.0 * (double)p->done / (double)p->total);
        fprintf(stderr, "%spii-redact: %s: %s of %s (%u%%), %s/s, ETA %s%s", pre, p->name, d, tot,
                pct, r, eta, post);
    } else {
        fprintf(stderr, "%spii-redact: %s: %s, %s/s%s", pre, p->name, d, r, post);
    }
    fflush(stderr);
    p->drawn = p->mode == 1;
    p->last = t;
}

void pii_progress_add(pii_progress *p, uint64_t n)
{
    p->done += n;
    if (!p->mode)
        return;
    double t = now();
    if (p->mode == 1 ? t - p->t0 >= 1.0 && t - p->last >= 0.25 : t - p->last >= 1.0)
        draw(p, t, 0);
}

void pii_progress_end(pii_progress *p)
{
    if (p->mode == 2)
        draw(p, now(), 1);
    else if (p->mode == 1 && p->drawn) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    p->mode = 0;
}
