/* staged.c — the staged files of a git repository and their blobs (see
 * staged.h). */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pii_core.h"
#include "staged.h"

extern char **environ;

/* Spawns argv with standard input from /dev/null and standard output into
 * a new pipe (standard error to /dev/null when `quiet`); returns the read
 * end.  SIGPIPE is reset to its default in the
 * child (we ignore it), so git stops at once when we stop reading. */
static int spawn_reader(char *const argv[], int quiet, pid_t *pid)
{
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0)
        return -1;
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    sigset_t def;
    sigemptyset(&def);
    sigaddset(&def, SIGPIPE);
    int rc = posix_spawnattr_init(&at);
    if (rc == 0) {
        if ((rc = posix_spawn_file_actions_init(&fa)) == 0) {
            if ((rc = posix_spawnattr_setsigdefault(&at, &def)) == 0 &&
                (rc = posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF)) == 0 &&
                (rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0)) == 0 &&
                (rc = posix_spawn_file_actions_adddup2(&fa, p[1], 1)) == 0 &&
                (!quiet ||
                 (rc = posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0)) == 0))
                rc = posix_spawnp(pid, argv[0], &fa, &at, argv, environ);
            posix_spawn_file_actions_destroy(&fa);
        }
        posix_spawnattr_destroy(&at);
    }
    close(p[1]);
    if (rc != 0) {
        close(p[0]);
        errno = rc;
        return -1;
    }
    return p[0];
}

static int reap(pid_t pid)
{
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

int pii_staged_open(const char *oid, pid_t *pid)
{
    char *argv[] = {"git", "cat-file", "blob", (char *)oid, NULL};
    return spawn_reader(argv, 0, pid);
}

int pii_staged_close(int fd, pid_t pid)
{
    close(fd);
    return reap(pid);
}

void pii_staged_free(pii_staged_file *files, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(files[i].path);
    free(files);
}

/* Reads all of fd into a NUL-terminated buffer. */
static pii_err slurp(int fd, char **out, size_t *len)
{
    size_t n = 0, cap = 4096;
    char *b = malloc(cap);
    if (!b)
        return PII_ENOMEM;
    for (;;) {
        if (cap - n < 2) {
            char *nb = realloc(b, cap * 2);
            if (!nb) {
                free(b);
                return PII_ENOMEM;
            }
            b = nb;
            cap *= 2;
        }
        ssize_t r = read(fd, b + n, cap - n - 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            free(b);
            return PII_EIO;
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    b[n] = '\0';
    *out = b;
    *len = n;
    return PII_OK;
}

/* One record: ":OLDMODE NEWMODE OLDID NEWID STATUS\0PATH\0". */
static pii_err parse(const char *b, size_t len, pii_staged_file **files, size_t *nfiles)
{
    size_t cap = 0, n = 0, at = 0;
    pii_staged_file *v = NULL;
    pii_err e = PII_OK;
    while (at < len) {
        const char *rec = b + at, *nul = memchr(rec, '\0', len - at);
        if (!nul || rec[0] != ':' || (size_t)(nul - b) + 1 >= len) {
            e = PII_EFORMAT;
            break;
        }
        const char *path = nul + 1, *pend = memchr(path, '\0', len - (size_t)(path - b));
        if (!pend || pend == path) {
            e = PII_EFORMAT;
            break;
        }
        /* the fields of the header: modes, ids, status */
        const char *f[5];
        int nf = 0;
        for (const char *p = rec + 1; p < nul && nf < 5;) {
            f[nf++] = p;
            const char *sp = memchr(p, ' ', (size_t)(nul - p));
            p = sp ? sp + 1 : nul;
        }
        size_t idlen = nf == 5 ? (size_t)(f[4] - f[3]) - 1 : 0;
        char *mend;
        unsigned long mode = nf == 5 ? strtoul(f[1], &mend, 8) : 0;
        if (nf != 5 || mend != f[2] - 1 || idlen < 40 || idlen >= sizeof v->oid ||
            strspn(f[3], "0123456789abcdef") != idlen) {
            e = PII_EFORMAT;
            break;
        }
        if (PII_VEC_RESERVE(v, cap, n + 1)) {
            e = PII_ENOMEM;
            break;
        }
        if (!(v[n].path = strdup(path))) {
            e = PII_ENOMEM;
            break;
        }
        v[n].mode = (unsigned)mode;
        memcpy(v[n].oid, f[3], idlen);
        v[n].oid[idlen] = '\0';
        n++;
        at = (size_t)(pend - b) + 1;
    }
    if (e) {
        pii_staged_free(v, n);
        return e;
    }
    *files = v;
    *nfiles = n;
    return PII_OK;
}

pii_err pii_staged_list(const char *const *pathspec, size_t npathspec, pii_staged_file **files,
                        size_t *n)
{
    static const char *const head[] = {
        "git",         "diff",          "--cached",           "--raw", "-z", "--no-renames",
        "--no-abbrev", "--no-ext-diff", "--diff-filter=ACMT", "--",
    };
    enum { NHEAD = sizeof head / sizeof head[0] };
    *files = NULL;
    *n = 0;
    /* outside a work tree, git diff would turn into diff --no-index */
    char *probe[] = {"git", "rev-parse", "--is-inside-work-tree", NULL};
    char *out = NULL;
    size_t len = 0;
    pid_t pid;
    int fd = spawn_reader(probe, 1, &pid);
    if (fd < 0)
        return errno == ENOMEM ? PII_ENOMEM : PII_EIO;
    pii_err e = slurp(fd, &out, &len);
    int bad = pii_staged_close(fd, pid);
    int inside = !e && !bad && strcmp(out, "true\n") == 0;
    free(out);
    out = NULL;
    if (e)
        return e;
    if (!inside)
        return PII_ENOTFOUND;
    char **argv = malloc((NHEAD + npathspec + 1) * sizeof *argv);
    if (!argv)
        return PII_ENOMEM;
    for (size_t i = 0; i < NHEAD; i++)
        argv[i] = (char *)head[i];
    for (size_t i = 0; i < npathspec; i++)
        argv[NHEAD + i] = (char *)pathspec[i];
    argv[NHEAD + npathspec] = NULL;
    fd = spawn_reader(argv, 0, &pid);
    free(argv);
    if (fd < 0)
        return errno == ENOMEM ? PII_ENOMEM : PII_EIO;
    e = slurp(fd, &out, &len);
    bad = pii_staged_close(fd, pid);
    if (!e && bad)
        e = PII_EIO;
    if (!e)
        e = parse(out, len, files, n);
    free(out);
    return e;
}
