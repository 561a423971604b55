/* batch_tmp.c — batch mode's temporary files: created exclusively beside
 * their destination (".NAME.pii-redact-XXXXXX"), registered in a worker's
 * slot before they exist, and removed by SIGINT, SIGTERM and SIGHUP, so a
 * kill at any moment leaves at worst a stale temporary file, never a
 * damaged original (see batch_int.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "batch_int.h"

struct tslot {
    volatile sig_atomic_t on;
    int dirfd;  /* >= 0: remove path + off relative to it (never a path */
    size_t off; /* through folders that may have been swapped since) */
    char path[PATH_MAX];
};

static tslot *g_slots;
static unsigned g_nslots;

static void on_fatal_signal(int sig)
{
    for (unsigned i = 0; i < g_nslots; i++)
        if (g_slots[i].on && g_slots[i].dirfd >= 0)
            unlinkat(g_slots[i].dirfd, g_slots[i].path + g_slots[i].off, 0);
        else if (g_slots[i].on)
            unlink(g_slots[i].path);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void slot_set(tslot *s, const char *path, int dirfd, size_t off)
{
    if (!s)
        return;
    size_t n = strlen(path);
    if (n >= sizeof s->path)
        return;
    memcpy(s->path, path, n + 1);
    s->dirfd = dirfd;
    s->off = off;
    atomic_signal_fence(memory_order_seq_cst);
    s->on = 1;
}

void batch_tmp_release(tslot *s)
{
    if (s)
        s->on = 0;
}

int batch_slots_init(unsigned n)
{
    if (!(g_slots = calloc(n, sizeof *g_slots)))
        return -1;
    g_nslots = n;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    return 0;
}

tslot *batch_slot(unsigned i)
{
    return g_slots && i < g_nslots ? &g_slots[i] : NULL;
}

void batch_slots_free(void)
{
    if (!g_slots)
        return;
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    g_nslots = 0;
    free(g_slots);
    g_slots = NULL;
}

/* Creates t (ending in six 'X') exclusively, with a fresh suffix each try.
 * The path is registered in `slot` BEFORE the file exists, so a signal that
 * arrives at any moment finds it there and removes it (mkstemp would leave a
 * window between creating the file and registering it). */
static int open_registered(char *t, tslot *slot, int dirfd, size_t base_off)
{
    static const char al[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    static atomic_ulong counter;
    char *x = t + strlen(t) - 6;
    for (int tries = 0; tries < 100; tries++) {
        uint64_t v = 0;
        if (getrandom(&v, sizeof v, GRND_NONBLOCK) != (ssize_t)sizeof v) {
            struct timespec ts; /* no entropy yet: unique, less secret */
            clock_gettime(CLOCK_REALTIME, &ts);
            v = (uint64_t)getpid() << 32 ^ (uint64_t)ts.tv_nsec ^
                (uint64_t)atomic_fetch_add(&counter, 1) * 0x9E3779B97F4A7C15u;
        }
        v ^= v >> 31; /* splitmix64 finalizer */
        v *= 0xBF58476D1CE4E5B9u;
        v ^= v >> 27;
        for (int i = 0; i < 6; i++, v /= 62)
            x[i] = al[v % 62];
        slot_set(slot, t, dirfd == AT_FDCWD ? -1 : dirfd, base_off);
        int fd =
            openat(dirfd, t + base_off, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd >= 0)
            return fd;
        int err = errno;
        batch_tmp_release(slot);
        errno = err;
        if (err != EEXIST)
            return -1;
    }
    return -1;
}

/* Creates ".BASE.pii-redact-XXXXXX" beside `out`, registered in `slot`;
 * *tmp gets its path.  With dirfd >= 0 (the verified folder of a walked
 * input, or the --out-dir folder entered without following links) the
 * file is created there, whatever its path now leads to. */
int batch_tmp_create(const char *out, tslot *slot, char **tmp, int dirfd)
{
    const char *slash = strrchr(out, '/');
    size_t dl = slash ? (size_t)(slash - out) + 1 : 0;
    const char *base = out + dl;
    size_t bl = strlen(base);
    if (bl > 200)
        bl = 200;
    char *t = malloc(dl + bl + 32);
    if (!t)
        return -1;
    memcpy(t, out, dl);
    t[dl] = '.';
    memcpy(t + dl + 1, base, bl);
    strcpy(t + dl + 1 + bl, BATCH_TMP_MARK "XXXXXX");
    int fd = open_registered(t, slot, dirfd >= 0 ? dirfd : AT_FDCWD, dirfd >= 0 ? dl : 0);
    if (fd < 0) {
        int err = errno;
        free(t);
        errno = err;
        return -1;
    }
    *tmp = t;
    return fd;
}

const char *batch_base_of(const char *path)
{
    const char *sl = strrchr(path, '/');
    return sl ? sl + 1 : path;
}

/* Removes a temporary file: through the input's directory when dirfd >= 0. */
void batch_tmp_drop(int dirfd, const char *tmp)
{
    if (dirfd >= 0)
        unlinkat(dirfd, batch_base_of(tmp), 0);
    else
        unlink(tmp);
}
