/* progress.h — the progress line of one input in single-file mode: bytes
 * done (of the size, when known), rate and ETA, on standard error.
 *
 * Contract: mode 0 draws nothing; mode 1 (a terminal) redraws one line in
 * place ("\r...\033[K") at most four times a second, starting only once the
 * input has taken a second (a quick run shows nothing), and clears it at
 * the end; mode 2 (--progress when standard error is not a terminal) writes
 * one line a second and always a last one at the end.  The line names the
 * input and carries sizes and times only, never input text.  Not
 * thread-safe: one per input, driven by the thread that reads it. */
#ifndef PII_PROGRESS_H
#define PII_PROGRESS_H

#include <stdint.h>

typedef struct pii_progress {
    int mode;
    const char *name; /* borrowed */
    uint64_t total;   /* 0: unknown (a pipe) */
    uint64_t done;
    double t0, last;
    int drawn;
} pii_progress;

/* The mode for the options: --progress: 1 on a terminal, else 2; without
 * it 1 when standard error is a terminal and standard output is not (the
 * redacted text would otherwise break the line), unless quiet. */
int pii_progress_mode(int progress, int quiet);
void pii_progress_start(pii_progress *p, int mode, const char *name, uint64_t total);
/* n more bytes were read; draws when due. */
void pii_progress_add(pii_progress *p, uint64_t n);
void pii_progress_end(pii_progress *p);
/* "1.2 MB": powers of 1000, one decimal from kB on. */
void pii_progress_human(double v, char *buf, unsigned long n);

#endif
