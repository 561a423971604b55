/* bench_rules.c — throughput of the rule detector alone (make bench-rules).
 *
 *   bench_rules FILE        stream FILE through the detector
 *   bench_rules --a N       stream N bytes of 'a' (generated, no newline)
 *
 * Plays the stream's part: 64 KiB chunks appended to a buffer that drops
 * everything before the detector's `keep`.  Prints bytes, spans, wall and
 * CPU seconds, MB/s for both, the largest window held and the peak RSS. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define PII_STATIC_LINKING_ONLY /* the full layers, linked statically */
#include "piiredact.h"

#define CHUNK 65536

static double now(clockid_t c)
{
    struct timespec t;
    clock_gettime(c, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_rules FILE | --a N\n");
        return 2;
    }
    FILE *f = NULL;
    unsigned long long gen = 0;
    if (strcmp(argv[1], "--a") == 0 && argc > 2)
        gen = strtoull(argv[2], NULL, 10);
    else if (!(f = fopen(argv[1], "rb"))) {
        perror(argv[1]);
        return 1;
    }
    pii_err e;
    pii_rules *r = pii_rules_create(&e);
    if (!r) {
        fprintf(stderr, "rules: %s\n", pii_strerror(e));
        return 1;
    }
    pii_detector d = pii_rules_detector(r);
    void *st = d.cls->open(d.shared, &e);
    size_t cap = 4 << 20, held = 0, maxheld = 0;
    unsigned char *buf = malloc(cap);
    if (!st || !buf)
        return 1;
    uint64_t base = 0, total = 0, nspans = 0;
    pii_spanvec sv = {0};
    double w0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
    for (int eof = 0; !eof;) {
        if (held + CHUNK > cap) {
            fprintf(stderr, "window over %zu bytes\n", cap);
            return 1;
        }
        size_t k;
        if (f) {
            k = fread(buf + held, 1, CHUNK, f);
        } else {
            k = gen - total < CHUNK ? (size_t)(gen - total) : CHUNK;
            memset(buf + held, 'a', k);
        }
        eof = k == 0;
        held += k;
        total += k;
        uint64_t done, keep;
        if ((e = d.cls->scan(st, buf, held, base, eof, &sv, &done, &keep)) != PII_OK) {
            fprintf(stderr, "scan: %s\n", pii_strerror(e));
            return 1;
        }
        nspans += sv.n;
        pii_spanvec_clear(&sv);
        size_t drop = (size_t)(keep - base);
        memmove(buf, buf + drop, held - drop);
        held -= drop;
        base = keep;
        if (held > maxheld)
            maxheld = held;
    }
    double wall = now(CLOCK_MONOTONIC) - w0, cpu = now(CLOCK_PROCESS_CPUTIME_ID) - c0;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("%12llu bytes %8llu spans  wall %7.3f s %8.1f MB/s  cpu %7.3f s %8.1f MB/s  "
           "held %zu B  rss %ld KB\n",
           (unsigned long long)total, (unsigned long long)nspans, wall, total / wall / 1e6, cpu,
           total / cpu / 1e6, maxheld, ru.ru_maxrss);
    d.cls->close(st);
    pii_spanvec_free(&sv);
    pii_rules_free(r);
    free(buf);
    if (f)
        fclose(f);
    return 0;
}
