/* bench.c — `make bench-tokenizer`: corpus building and the C side of the
 * tokenizer benchmark (tools/tokenizer/bench.cjs is the JavaScript side).
 *
 *   tok-bench cat OUT MAXBYTES FILE...
 *       concatenates files into OUT (at most MAXBYTES), keeping only
 *       well-formed UTF-8 so that JavaScript sees the very same bytes.
 *   tok-bench mo OUT MAXBYTES PERDIR FILE.mo...
 *       the translated strings (msgstr) of gettext catalogs, at most PERDIR
 *       bytes per directory (one locale each), at most MAXBYTES in all.
 *   tok-bench run JSON FILE...
 *       encodes each file REPS times (PII_TOK_BENCH_REPS, default 7) on one
 *       thread, each run with a fresh encoder (cold cache), prints the
 *       median MB/s and tokens/s and writes them with the token count and an
 *       FNV-1a checksum of the ids to JSON for bench.cjs.  Times are the
 *       thread's CPU time (CLOCK_THREAD_CPUTIME_ID), which a busy machine
 *       disturbs much less than wall time; the wall-clock rate is printed
 *       too.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pii_core.h"
#include "pii_file.h"
#include "pii_tok.h"

/* The whole file (pii_file_read_all, no bound); NULL if it cannot be read. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *b;
    pii_err e = pii_file_read_all(f, SIZE_MAX, &b, len);
    fclose(f);
    return e ? NULL : b;
}

/* Length of the well-formed UTF-8 sequence at p (1..4), 0 if invalid. */
static int utf8_ok(const unsigned char *p, size_t n)
{
    return (int)pii_utf8_valid(p, p + n);
}

/* Appends the valid UTF-8 of s[0..n) (NULs dropped) to out, up to max. */
static size_t put_valid(FILE *out, const char *s, size_t n, size_t room)
{
    size_t i = 0, w = 0;
    while (i < n && w < room) {
        int k = utf8_ok((const unsigned char *)s + i, n - i);
        if (!k || s[i] == 0) {
            i++;
            continue;
        }
        if (w + (size_t)k > room)
            break;
        fwrite(s + i, 1, (size_t)k, out);
        w += (size_t)k;
        i += (size_t)k;
    }
    return w;
}

static int cmd_cat(int argc, char **argv)
{
    FILE *out = fopen(argv[2], "wb");
    size_t max = strtoull(argv[3], NULL, 10), w = 0;
    if (!out)
        return 1;
    for (int i = 4; i < argc && w < max; i++) {
        size_t n;
        char *s = slurp(argv[i], &n);
        if (!s)
            continue;
        w += put_valid(out, s, n, max - w);
        free(s);
    }
    return fclose(out) != 0;
}

static uint32_t rd32(const unsigned char *p, int be)
{
    return be ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
              : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static int cmd_mo(int argc, char **argv)
{
    FILE *out = fopen(argv[2], "wb");
    size_t max = strtoull(argv[3], NULL, 10), per = strtoull(argv[4], NULL, 10), w = 0, wdir = 0;
    char lastdir[512] = "";
    if (!out)
        return 1;
    for (int i = 5; i < argc && w < max; i++) {
        /* the locale directory: path up to "/LC_MESSAGES" */
        const char *lc = strstr(argv[i], "/LC_MESSAGES");
        size_t dl = lc ? (size_t)(lc - argv[i]) : 0;
        if (dl >= sizeof lastdir)
            dl = sizeof lastdir - 1;
        if (strncmp(lastdir, argv[i], dl) != 0 || lastdir[dl] != 0) {
            memcpy(lastdir, argv[i], dl);
            lastdir[dl] = 0;
            wdir = 0;
        }
        size_t n;
        unsigned char *b = (unsigned char *)slurp(argv[i], &n);
        if (!b)
            continue;
        int be = -1;
        if (n >= 28 && rd32(b, 0) == 0x950412de)
            be = 0;
        else if (n >= 28 && rd32(b, 1) == 0x950412de)
            be = 1;
        if (be >= 0) {
            uint32_t cnt = rd32(b + 8, be), toff = rd32(b + 16, be);
            for (uint32_t k = 1; k < cnt && w < max && wdir < per; k++) {
                if ((uint64_t)toff + 8ull * k + 8 > n)
                    break;
                uint32_t len = rd32(b + toff + 8 * k, be), off = rd32(b + toff + 8 * k + 4, be);
                if ((uint64_t)off + len > n || len < 2)
                    continue;
                size_t room = max - w < per - wdir ? max - w : per - wdir;
                size_t got = put_valid(out, (const char *)b + off, len, room);
                w += got;
                wdir += got;
                if (w < max && wdir < per) {
                    fputc('\n', out);
                    w++;
                    wdir++;
                }
            }
        }
        free(b);
    }
    return fclose(out) != 0;
}

static double now(clockid_t c)
{
    struct timespec ts;
    clock_gettime(c, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int cmd_run(int argc, char **argv)
{
    const char *r = getenv("PII_TOK_BENCH_REPS");
    int reps = r ? atoi(r) : 7;
    if (reps < 1 || reps > 100)
        reps = 7;
    FILE *js = fopen(argv[2], "w");
    if (!js)
        return 1;
    fprintf(js, "{");
    for (int i = 3; i < argc; i++) {
        size_t len;
        char *text = slurp(argv[i], &len);
        if (!text) {
            fprintf(stderr, "tok-bench: cannot read %s\n", argv[i]);
            return 1;
        }
        double t[100], w[100];
        pii_tok_buf out = PII_TOK_BUF_INIT;
        for (int k = 0; k < reps; k++) {
            pii_tok_enc *enc = pii_tok_enc_create(pii_tok_o200k());
            out.n = 0;
            double t0 = now(CLOCK_THREAD_CPUTIME_ID), w0 = now(CLOCK_MONOTONIC);
            if (pii_tok_encode(enc, text, len, &out) != PII_OK)
                return 1;
            t[k] = now(CLOCK_THREAD_CPUTIME_ID) - t0;
            w[k] = now(CLOCK_MONOTONIC) - w0;
            pii_tok_enc_free(enc);
        }
        qsort(t, (size_t)reps, sizeof t[0], cmp_d);
        qsort(w, (size_t)reps, sizeof w[0], cmp_d);
        double med = t[reps / 2], wmed = w[reps / 2];
        uint32_t h = 2166136261u;
        for (size_t k = 0; k < out.n; k++) {
            h ^= (uint32_t)out.ids[k];
            h *= 16777619u;
        }
        const char *base = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
        printf("%-18s %6.2f MB  %9zu tokens  C (pii_tok)      %8.1f MB/s  %6.2f Mtok/s  (wall "
               "%.1f MB/s)\n",
               base, len / 1e6, out.n, len / med / 1e6, out.n / med / 1e6, len / wmed / 1e6);
        fprintf(js,
                "%s\"%s\":{\"bytes\":%zu,\"tokens\":%zu,\"fnv\":%u,\"mbps\":%.3f,\"mtps\":%.4f}",
                i > 3 ? "," : "", base, len, out.n, h, len / med / 1e6, out.n / med / 1e6);
        pii_tok_buf_free(&out);
        free(text);
    }
    fprintf(js, "}\n");
    return fclose(js) != 0;
}

int main(int argc, char **argv)
{
    if (argc >= 4 && strcmp(argv[1], "cat") == 0)
        return cmd_cat(argc, argv);
    if (argc >= 5 && strcmp(argv[1], "mo") == 0)
        return cmd_mo(argc, argv);
    if (argc >= 4 && strcmp(argv[1], "run") == 0)
        return cmd_run(argc, argv);
    fprintf(stderr, "usage: tok-bench cat OUT MAXBYTES FILE... | mo OUT MAXBYTES PERDIR FILE.mo... "
                    "| run JSON FILE...\n");
    return 2;
}
