/* replay.c — the corpus replay driver: runs a fuzz target's
 * LLVMFuzzerTestOneInput on every file named on the command line (folders
 * are walked one level deep, sorted), without libFuzzer, so the committed
 * corpora and regression inputs run in `make check` under gcc (and under
 * ASan+UBSan with SAN=1) and under valgrind.
 *
 *   replay_<target> [-q] FILE_OR_DIR...
 * Prints one line per target: the number of inputs run.  An input that
 * breaks an invariant aborts (its name is printed first). */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "pii_file.h"

__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);
/* Present in sanitizer builds: called before a sanitizer ends the process. */
__attribute__((weak)) void __sanitizer_set_death_callback(void (*cb)(void));

static size_t n_run;
static const char *volatile current;
static int err_fd = 2; /* a copy of stderr: targets may silence fd 2 */

/* Names the input that was running when the process dies. */
static void crash_note(void)
{
    const char *c = current;
    if (!c)
        return;
    static const char pre[] = "replay: crashed on input ";
    ssize_t r = write(err_fd, pre, sizeof pre - 1);
    r = write(err_fd, c, strlen(c));
    r = write(err_fd, "\n", 1);
    (void)r;
}

static void on_signal(int sig)
{
    crash_note();
    signal(sig, SIG_DFL);
    raise(sig);
}

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    char *buf;
    size_t n;
    pii_err e = pii_file_read_all(f, SIZE_MAX, &buf, &n);
    fclose(f);
    if (e == PII_ENOMEM) {
        fprintf(stderr, "replay: out of memory\n");
        exit(1);
    }
    if (e) {
        fprintf(stderr, "replay: %s: read error\n", path);
        return -1;
    }
    /* An exact-size copy so ASan sees reads past the end of the input. */
    uint8_t *exact = malloc(n ? n : 1);
    if (!exact)
        exit(1);
    memcpy(exact, buf, n);
    free(buf);
    current = path;
    LLVMFuzzerTestOneInput(exact, n);
    current = NULL;
    free(exact);
    n_run++;
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "replay: %s: %s\n", dir, strerror(errno));
        return -1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            names = realloc(names, cap * sizeof *names);
            if (!names)
                exit(1);
        }
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        names[n] = malloc(len);
        if (!names[n])
            exit(1);
        snprintf(names[n], len, "%s/%s", dir, e->d_name);
        n++;
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_str);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode) && run_file(names[i]))
            rc = -1;
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    int quiet = 0, rc = 0;
    err_fd = dup(2);
    if (err_fd < 0)
        err_fd = 2;
    signal(SIGABRT, on_signal);
    signal(SIGSEGV, on_signal);
    signal(SIGBUS, on_signal);
    signal(SIGFPE, on_signal);
    if (__sanitizer_set_death_callback)
        __sanitizer_set_death_callback(crash_note);
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (strcmp(argv[i], "-q") == 0) {
            quiet = 1;
            continue;
        }
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
            rc = 1;
        } else if (S_ISDIR(st.st_mode) ? run_dir(argv[i]) : run_file(argv[i])) {
            rc = 1;
        }
    }
    if (!quiet)
        printf("replay %s: %zu inputs\n", argv[0], n_run);
    return rc;
}
