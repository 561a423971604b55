/* batch.c — the batch driver: options, destinations and the per-file
 * pipeline (see batch.h, batch_int.h and docs/BATCH.md); the run and the
 * worker pool are in batch_run.c.
 *
 * One file, start to end, in one worker:
 *   open (O_NOFOLLOW for walked entries) → read the first block → binary
 *   sniff (sniff.h, as in single-file mode) → destination → feed the
 *   worker's stream block by block → finish.
 * File outputs are written to a temporary file beside the destination
 * (".NAME.pii-redact-XXXXXX") and renamed over it only when complete, so a
 * destination name only ever holds a complete output.  --in-place also
 * keeps the owner, group and mode, fsyncs the file before the rename and
 * the directory after it, and leaves a file with no finding untouched.
 * Any failure (read, write, full disk, a bad record, a detector error)
 * removes the temporary file and leaves the original as it was; a kill at
 * any moment leaves at worst a stale temporary file, never a damaged
 * original (SIGINT, SIGTERM and SIGHUP remove the temporary files first).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "batch.h"
#include "batch_csvcheck.h"
#include "batch_int.h"
#include "cli.h"
#include "output.h"
#include "pii_fault.h"
#include "sniff.h"
#include "diffscan.h"
#include "staged.h"

/* ---- options ------------------------------------------------------------- */

int pii_batch_wanted(const pii_opts *o)
{
    return o->check || o->recursive || o->out_dir || o->in_place || o->suffix || o->report ||
           o->njsonl_fields || o->ncsv_columns || o->json_doc || o->structured || o->resume ||
           o->ninclude || o->nexclude || o->follow || o->no_ignore || o->hidden || o->staged ||
           o->diff || o->cross_devices;
}

static int usage(const char *msg)
{
    fprintf(stderr, "pii-redact: %s\nTry 'pii-redact --help' for more information.\n", msg);
    return PII_EXIT_USAGE;
}

static int has_dotdot(const char *p)
{
    for (const char *s = p; (s = strstr(s, "..")); s += 2)
        if ((s == p || s[-1] == '/') && (s[2] == '/' || s[2] == '\0'))
            return 1;
    return 0;
}

int pii_batch_validate(const pii_opts *o)
{
    int writes = o->out_dir || o->in_place || o->suffix;
    if (o->in_place && (o->out_dir || o->suffix))
        return usage("--in-place cannot be combined with --out-dir or --suffix");
    if (o->check && writes)
        return usage("--check writes nothing; drop --out-dir, --in-place or --suffix");
    if (o->in_place && o->format != PII_FMT_TEXT)
        return usage("--in-place writes text; --format json/jsonl needs --out-dir or --suffix");
    if (o->njsonl_fields && o->ncsv_columns)
        return usage("--jsonl-field and --csv-column cannot be combined");
    if ((o->njsonl_fields || o->ncsv_columns || o->json_doc || o->structured) &&
        o->format == PII_FMT_JSON)
        return usage("--jsonl-field/--csv-column/--json/--structured write records (text) or "
                     "spans (--format jsonl), not json");
    if ((o->njsonl_fields || o->ncsv_columns || o->json_doc || o->structured) && o->lines)
        return usage("--lines cannot be combined with --jsonl-field/--csv-column (records "
                     "are already their own documents)");
    if (!o->recursive &&
        (o->ninclude || o->nexclude || o->follow || o->no_ignore || o->hidden || o->cross_devices))
        return usage("--include, --exclude, --follow, --no-ignore, --hidden and --cross-devices "
                     "apply to -r");
    if (o->staged && !o->check)
        return usage("--staged needs --check");
    if (o->staged && o->recursive)
        return usage("--staged takes pathspecs, not -r (it reads the staged files, not a tree)");
    if (o->diff && !o->check)
        return usage("--diff needs --check");
    if (o->diff && (o->staged || o->recursive || o->njsonl_fields || o->ncsv_columns || o->lines ||
                    o->nfiles > 1))
        return usage("--diff reads one diff (standard input or one FILE): not with --staged, "
                     "-r, --lines, --jsonl-field or --csv-column");
    if (o->recursive && o->nfiles == 0)
        return usage("-r needs at least one DIR");
    if (o->suffix && !o->suffix[0])
        return usage("--suffix needs a non-empty suffix");
    if (o->suffix && strchr(o->suffix, '/'))
        return usage("--suffix cannot contain '/' (it would lead the output elsewhere)");
    if (writes && o->nfiles == 0)
        return usage("--out-dir, --in-place and --suffix need FILE or DIR arguments (standard "
                     "input is written to standard output)");
    if (o->out_dir && !o->out_dir[0])
        return usage("--out-dir needs a directory");
    if (o->resume && !o->out_dir && !o->suffix)
        return usage("--resume needs --out-dir or --suffix");
    if (!writes && !o->check && o->format == PII_FMT_TEXT && (o->recursive || o->nfiles > 1))
        return usage("several inputs would be concatenated on standard output; use "
                     "--out-dir, --in-place or --suffix (or --check, or --format json/jsonl)");
    for (size_t i = 0; i < o->nfiles; i++) {
        if (writes && strcmp(o->files[i], "-") == 0)
            return usage("standard input (-) can only be written to standard output");
        if (o->out_dir && has_dotdot(o->files[i]))
            return usage("with --out-dir, give input paths without '..' (the output mirrors "
                         "the path)");
    }
    return -1;
}

void pii_batch_tune(pii_opts *o)
{
    if (!o->threads && o->jobs != 1 && (o->recursive || o->nfiles > 1))
        o->threads = "1";
}

/* ---- temporary files and signals ------------------------------------------ */

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

static void slot_clear(tslot *s)
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

int batch_mkdir_p(const char *dir)
{
    char *d = strdup(dir);
    if (!d)
        return -1;
    int rc = 0;
    for (char *p = d + 1;; p++) {
        if (*p == '/' || *p == '\0') {
            char c = *p;
            *p = '\0';
            if (mkdir(d, 0777) != 0 && errno != EEXIST) {
                rc = -1;
                break;
            }
            *p = c;
            if (!c)
                break;
        }
    }
    int err = errno;
    free(d);
    errno = err;
    return rc;
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
        slot_clear(slot);
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
static int make_temp(const char *out, tslot *slot, char **tmp, int dirfd)
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

/* --out-dir (issue 42 H1): the folder of `out` (a path below the
 * --out-dir folder, batch_out_path), created and entered one component at
 * a time from the held --out-dir descriptor with mkdirat and openat
 * (O_NOFOLLOW | O_DIRECTORY): a symbolic link planted anywhere in the
 * mirrored tree is never followed (ELOOP or ENOTDIR).  A folder it creates
 * gets the permission bits of the input folder it mirrors (`in`, the input
 * path; 0700 when that cannot be read), so it is never more open than
 * that folder (issue 42 M2).  Returns a new descriptor, or -1 with errno. */
static mode_t mirrored_mode(const char *in, size_t k)
{
    /* the prefix of `in` made of its first k+1 names ("" and "." skipped,
     * as batch_out_path skips them) */
    const char *p = in;
    size_t seen = 0;
    for (;;) {
        while (*p == '/')
            p++;
        if (!*p)
            return 0700;
        const char *e = strchr(p, '/');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        int dot = l == 1 && p[0] == '.';
        p += l;
        if (!dot && seen++ == k)
            break;
    }
    char *dir = strndup(in, (size_t)(p - in));
    struct stat st;
    mode_t m =
        dir && stat(dir, &st) == 0 && S_ISDIR(st.st_mode) ? (st.st_mode & 0777) | 0700 : 0700;
    free(dir);
    return m;
}

static int outdir_parent(const batch *b, const char *out, const char *in)
{
    const char *od = b->o->out_dir;
    size_t ol = strlen(od);
    while (ol > 1 && od[ol - 1] == '/')
        ol--;
    if (strncmp(out, od, ol) != 0) {
        errno = EINVAL;
        return -1;
    }
    const char *p = out + ol, *last = strrchr(out, '/');
    int cur = b->outdir_fd;
    char name[NAME_MAX + 1];
    size_t k = 0; /* the component's index */
    while (last && p < last) {
        while (*p == '/')
            p++;
        const char *e = strchr(p, '/');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (!e || p >= last)
            break;
        if (l > NAME_MAX) {
            errno = ENAMETOOLONG;
            goto fail;
        }
        memcpy(name, p, l);
        name[l] = '\0';
        int fl = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
        int nfd = openat(cur, name, fl);
        if (nfd < 0 && errno == ENOENT) {
            if (mkdirat(cur, name, mirrored_mode(in, k)) != 0 && errno != EEXIST)
                goto fail;
            nfd = openat(cur, name, fl);
        }
        if (nfd < 0)
            goto fail;
        if (cur != b->outdir_fd)
            close(cur);
        cur = nfd;
        p = e;
        k++;
    }
    return cur == b->outdir_fd ? fcntl(cur, F_DUPFD_CLOEXEC, 0) : cur;
fail:;
    int err = errno;
    if (cur != b->outdir_fd)
        close(cur);
    errno = err == ELOOP || err == ENOTDIR ? ELOOP : err;
    return -1;
}

static int fsync_dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    if (!dir)
        return -1;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    free(dir);
    if (fd < 0)
        return -1;
    int rc = fsync(fd);
    close(fd);
    return rc;
}

/* Outputs are never more readable than their input (issue 42 M2): the
 * input's POSIX access ACL (the raw "system.posix_acl_access" attribute)
 * is copied to the output after its mode, and an ACL the output inherited
 * from a default ACL of its folder is removed when the input has none, so
 * an input's "group::---" under a wider mask stays "---".  The input is
 * read through its open descriptor, or reopened (without following a link)
 * and checked against the stat taken when it was read.  0, or -1 with
 * errno. */
#define ACL_XATTR "system.posix_acl_access"

static int copy_acl(const bitem *it, const batch_input *in, const struct stat *st_in, int dst)
{
    int src = in->fd, own = 0, rc = 0;
    if (src < 0) {
        src = in->dirfd >= 0 ? openat(in->dirfd, in->base,
                                      O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
                             : open(it->path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        struct stat s;
        if (src < 0)
            return -1;
        own = 1;
        if (fstat(src, &s) != 0 || s.st_dev != st_in->st_dev || s.st_ino != st_in->st_ino) {
            close(src);
            errno = ESTALE;
            return -1;
        }
    }
    char small[512], *buf = small;
    ssize_t n = fgetxattr(src, ACL_XATTR, small, sizeof small);
    if (n < 0 && errno == ERANGE && (n = fgetxattr(src, ACL_XATTR, NULL, 0)) > 0) {
        if ((buf = malloc((size_t)n)))
            n = fgetxattr(src, ACL_XATTR, buf, (size_t)n);
        else
            buf = small, n = -1, errno = ENOMEM;
    }
    if (n >= 0) {
        rc = fsetxattr(dst, ACL_XATTR, buf, (size_t)n, 0);
    } else if (errno == ENODATA || errno == ENOTSUP) {
        if (fremovexattr(dst, ACL_XATTR) != 0 && errno != ENODATA && errno != ENOTSUP)
            rc = -1;
    } else {
        rc = -1;
    }
    int err = errno;
    if (buf != small)
        free(buf);
    if (own)
        close(src);
    errno = err;
    return rc;
}

/* --resume (issue 42, Low: it trusted the mtime alone, which `touch -r` or
 * `cp -p` of older content sets back): every --out-dir/--suffix output
 * records its input's size, modification and change time in the extended
 * attribute "user.pii-redact.source" (the change time cannot be set back);
 * an output is up to date only when that record matches the input now.  An
 * output without it (a file system without user attributes, an older
 * output) is redone. */
#define SRC_XATTR "user.pii-redact.source"

static void source_stamp(const struct stat *st, char *buf, size_t n)
{
    snprintf(buf, n, "%jd %jd.%09ld %jd.%09ld", (intmax_t)st->st_size, (intmax_t)st->st_mtim.tv_sec,
             st->st_mtim.tv_nsec, (intmax_t)st->st_ctim.tv_sec, st->st_ctim.tv_nsec);
}

static int same_source(const char *out, const struct stat *st_in)
{
    char want[96], got[96];
    source_stamp(st_in, want, sizeof want);
    ssize_t n = getxattr(out, SRC_XATTR, got, sizeof got - 1);
    if (n < 0)
        return 0;
    got[n] = '\0';
    return strcmp(got, want) == 0;
}

/* ---- workers ------------------------------------------------------------- */

static pii_err w_write(void *ud, const uint8_t *p, size_t n)
{
    worker *w = ud;
    w->it->bytes_out += n;
    return w->osink.write ? w->osink.write(w->osink.ud, p, n) : PII_OK;
}

static pii_err w_span(void *ud, const pii_span *s, const uint8_t *v, size_t len, uint64_t c0,
                      uint64_t c1)
{
    worker *w = ud;
    bitem *it = w->it;
    size_t i = 0;
    while (i < it->ncounts && strcmp(it->counts[i].label, s->label) != 0)
        i++;
    if (i == it->ncounts) {
        lcount *nv = realloc(it->counts, (it->ncounts + 1) * sizeof *nv);
        if (!nv)
            return PII_ENOMEM;
        it->counts = nv;
        memset(&nv[i], 0, sizeof nv[i]);
        nv[i].label = s->label;
        it->ncounts++;
    }
    if ((unsigned)s->source < 3)
        it->counts[i].n[s->source]++;
    it->findings++;
    atomic_fetch_add(&w->b->findings, 1);
    if (w->b->o->check) {
        pii_err e = batch_scan_span(w, s, v, len);
        if (e)
            return e;
    }
    if (w->rs && w->out && w->osink.span) {
        pii_rec_stream_field(w->rs, w->field, sizeof w->field);
        pii_out_set_record(w->out, pii_rec_stream_record(w->rs), w->field);
    }
    return w->osink.span ? w->osink.span(w->osink.ud, s, v, len, c0, c1) : PII_OK;
}

static pii_err w_end(void *ud)
{
    worker *w = ud;
    if (w->rs)
        w->it->records++;
    return w->osink.end_doc ? w->osink.end_doc(w->osink.ud) : PII_OK;
}

int batch_structured(const pii_opts *o)
{
    if (o->structured)
        return 1;
    return o->recursive && !o->as_text && !o->json_doc && !o->njsonl_fields && !o->ncsv_columns &&
           !o->lines && o->format != PII_FMT_JSON;
}

/* --structured: JSON Lines (every string value and number; a line that is
 * not JSON redacted as text), one JSON document (every string value and
 * number), CSV (every field). */
pii_err batch_auto_specs(batch *b)
{
    static const pii_rec_format fmt[BATCH_AUTO_N] = {PII_REC_JSONL, PII_REC_JSON, PII_REC_CSV};
    pii_err e = PII_OK;
    for (int k = 0; k < BATCH_AUTO_N && !e; k++) {
        if (!(b->auto_spec[k] = pii_rec_spec_create(fmt[k], &e)))
            break;
        e = pii_rec_spec_add(b->auto_spec[k], "*");
        if (!e && fmt[k] != PII_REC_CSV)
            e = pii_rec_spec_set_scan(b->auto_spec[k], PII_REC_SCAN_NUMBERS);
        /* fail closed: JSON that does not parse (a tsconfig.json with
         * comments, one JSON Lines line) is redacted as plain text */
        if (!e && fmt[k] != PII_REC_CSV)
            e = pii_rec_spec_set_bad(b->auto_spec[k], PII_REC_BAD_TEXT);
    }
    return e;
}

static int ends_in(const char *s, const char *suf);

/* The format --structured reads a file in (BATCH_AUTO_*), or -1: text. */
static int auto_kind(const char *path, int *tab)
{
    *tab = ends_in(path, ".tsv") || ends_in(path, ".tab");
    if (ends_in(path, ".jsonl") || ends_in(path, ".ndjson"))
        return BATCH_AUTO_JSONL;
    if (ends_in(path, ".json"))
        return BATCH_AUTO_JSON;
    if (ends_in(path, ".csv") || *tab)
        return BATCH_AUTO_CSV;
    return -1;
}

void batch_free_rec_streams(worker *w)
{
    int shared = 0;
    for (int k = 0; k < BATCH_AUTO_N; k++) {
        shared |= w->rs && w->rs == w->ars[k];
        pii_rec_stream_free(w->ars[k]);
        w->ars[k] = NULL;
    }
    if (!shared)
        pii_rec_stream_free(w->rs);
    w->rs = NULL;
}

pii_err batch_open_streams(worker *w)
{
    batch *b = w->b;
    pii_sink s = {b->dest == DEST_NONE ? NULL : w_write, w_span, w_end, w};
    pii_err e = PII_OK;
    pii_stream_free(w->st);
    batch_free_rec_streams(w);
    w->st = NULL;
    if (b->spec)
        w->rs = pii_rec_stream_create(b->spec, b->p->red, b->p->ops, &s, &e);
    else
        w->st = pii_stream_create(b->p->red, &s, &e);
    w->cur = w->st;
    w->sc.docs_started = 0; /* a new stream numbers its documents from 0 */
    return e;
}

void batch_fail(worker *w, bitem *it, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    it->status = ST_FAILED;
    free(it->error);
    it->error = strdup(msg);
    batch_msg(w->b, "pii-redact: %s: %s\n",
              it->is_root && strcmp(it->path, "-") == 0 ? "standard input" : it->path, msg);
}

static const char *errstr(int err, char *buf, size_t n)
{
    if (strerror_r(err, buf, n) != 0)
        snprintf(buf, n, "error %d", err);
    return buf;
}

/* Feeds one block; in --lines mode each line is its own document. */
static pii_err feed(worker *w, const uint8_t *p, size_t n, int *pending)
{
    uint64_t at = w->sc.fed; /* the file offset of p */
    if (w->b->o->check)
        batch_scan_data(w, p, n);
    if (w->rs)
        return pii_rec_stream_feed(w->rs, p, n);
    if (!w->b->o->lines)
        return pii_stream_feed(w->cur, p, n);
    size_t off = 0;
    const uint8_t *nl;
    pii_err e;
    /* each line a document, queued (pii_stream_put); the block ends with a
     * flush, so the lines of one block share forward passes and a line read
     * from a pipe is still written at once */
    while ((nl = memchr(p + off, '\n', n - off))) {
        size_t len = (size_t)(nl - (p + off)) + 1;
        if (!*pending)
            w->sc.doc_base[w->sc.docs_started++ % BATCH_DOC_RING] = at + off;
        if ((e = pii_stream_put(w->cur, p + off, len, PII_STREAM_END_DOC)))
            return e;
        off += len;
        *pending = 0;
    }
    if (off < n && !*pending)
        w->sc.doc_base[w->sc.docs_started++ % BATCH_DOC_RING] = at + off;
    if (off < n)
        *pending = 1;
    return pii_stream_put(w->cur, p + off, n - off, PII_STREAM_FLUSH);
}

static pii_err finish_input(worker *w, int pending)
{
    if (w->rs)
        return pii_rec_stream_end(w->rs);
    if (w->b->o->lines && !pending)
        return PII_OK;
    return pii_stream_end_doc(w->cur);
}

/* Reads until the buffer holds `want` bytes or the input ends; with
 * `once`, returns what the first successful read gives (standard input:
 * a line typed or piped is processed at once). */
static ssize_t read_some(int fd, uint8_t *buf, size_t want, int once)
{
    size_t n = 0;
    while (n < want && !(once && n)) {
        ssize_t r = pii_fault_hit(PII_FAULT_READ) ? (errno = EIO, -1) : read(fd, buf + n, want - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        n += (size_t)r;
    }
    return (ssize_t)n;
}

static int ends_in(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

static int same_file(const char *path, const struct stat *st)
{
    struct stat o;
    return stat(path, &o) == 0 && o.st_dev == st->st_dev && o.st_ino == st->st_ino;
}

static int newer_or_same(const struct stat *a, const struct stat *b)
{
    if (a->st_mtim.tv_sec != b->st_mtim.tv_sec)
        return a->st_mtim.tv_sec > b->st_mtim.tv_sec;
    return a->st_mtim.tv_nsec >= b->st_mtim.tv_nsec;
}

/* Opens a walked input relative to its directory, and only if both are the
 * ones the walk listed (dev/ino): a directory swapped for a symbolic link,
 * or a file replaced, between the walk and now is refused, and every later
 * access (the temporary file and the rename of --in-place and --suffix)
 * goes through the directory descriptor kept in `in`, so a later swap
 * cannot redirect it either.  Returns 1, or 0 after failing the item. */
static int open_walked_dir(worker *w, bitem *it, batch_input *in)
{
    char eb[128];
    const char *slash = strrchr(it->path, '/');
    char *dir =
        slash ? strndup(it->path, slash == it->path ? 1 : (size_t)(slash - it->path)) : strdup(".");
    if (!dir) {
        batch_fail(w, it, "out of memory");
        return 0;
    }
    in->base = slash ? slash + 1 : it->path;
    in->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    free(dir);
    struct stat ds;
    if (in->dirfd < 0) {
        batch_fail(w, it, "%s", errstr(errno, eb, sizeof eb));
        return 0;
    }
    if (fstat(in->dirfd, &ds) != 0 || ds.st_dev != it->pdev || ds.st_ino != it->pino) {
        batch_fail(w, it, "its directory changed since the walk (replaced or moved); not read");
        batch_input_close(in);
        return 0;
    }
    return 1;
}

static int open_walked(worker *w, bitem *it, batch_input *in)
{
    char eb[128];
    if (!open_walked_dir(w, it, in))
        return 0;
    int fl = O_RDONLY | O_NOCTTY | O_CLOEXEC | (w->b->o->follow ? 0 : O_NOFOLLOW);
    if ((in->fd = openat(in->dirfd, in->base, fl)) < 0) {
        batch_fail(w, it, "%s",
                   errno == ELOOP ? "is now a symbolic link; not read"
                                  : errstr(errno, eb, sizeof eb));
        batch_input_close(in);
        return 0;
    }
    if (fstat(in->fd, &in->st) != 0 || in->st.st_dev != it->dev || in->st.st_ino != it->ino) {
        batch_fail(w, it, "was replaced since the walk; not read");
        batch_input_close(in);
        return 0;
    }
    return 1;
}

int batch_prepare(worker *w, bitem *it, uint8_t *buf, size_t cap, batch_input *in)
{
    batch *b = w->b;
    const pii_opts *o = b->o;
    char eb[128];
    memset(in, 0, sizeof *in);
    in->t0 = batch_now();
    in->fd = -1;
    in->dirfd = -1;
    in->is_stdin = it->is_root && strcmp(it->path, "-") == 0;

    if (it->status == ST_SKIPPED) {
        /* a skip that could hide text is said even with -q (issue 42 H4);
         * one the user chose (--exclude, ignore files) is only listed */
        if (it->skip == SKIP_RISKY || (it->skip == SKIP_NOTE && !o->quiet))
            batch_msg(b, "pii-redact: %s: skipped: %s\n", it->path, it->reason);
        return 0;
    }
    if (it->status == ST_FAILED) {
        batch_msg(b, "pii-redact: %s: %s\n", it->path, it->error ? it->error : "failed");
        return 0;
    }
    if (w->dead) {
        batch_fail(w, it, "not processed: a worker could not recover from an earlier failure");
        return 0;
    }
    if (atomic_load(&b->stop)) { /* stdout was closed: stop quietly */
        it->status = ST_FAILED;
        it->error = strdup("not processed: standard output was closed");
        return 0;
    }
    if (in->is_stdin) {
        in->fd = STDIN_FILENO;
    } else if (it->from_diff) {
        if ((in->fd = pii_diff_memfd(it->mem ? it->mem : "", it->memlen)) < 0) {
            batch_fail(w, it, "cannot hold the diff's added lines: %s",
                       errstr(errno, eb, sizeof eb));
            return 0;
        }
    } else if (it->blob) {
        if ((in->fd = pii_staged_open(it->blob, &in->git)) < 0) {
            batch_fail(w, it, "cannot run git cat-file: %s", errstr(errno, eb, sizeof eb));
            return 0;
        }
    } else if (it->have_id) {
        if (!open_walked(w, it, in))
            return 0;
    } else {
        int fl = O_RDONLY | O_NOCTTY | O_CLOEXEC;
        if (!it->is_root && !o->follow)
            fl |= O_NOFOLLOW;
        if ((in->fd = open(it->path, fl)) < 0) {
            batch_fail(w, it, "%s", errstr(errno, eb, sizeof eb));
            return 0;
        }
    }
    const char *why = NULL;
    ssize_t got = -1;
    if (fstat(in->fd, &in->st) != 0)
        why = errstr(errno, eb, sizeof eb);
    else if (S_ISDIR(in->st.st_mode))
        why = "is a directory";
    else if (b->dest == DEST_INPLACE && !S_ISREG(in->st.st_mode))
        why = "not a regular file; --in-place needs one";
    else if ((got = read_some(in->fd, buf, cap, in->is_stdin)) < 0) {
        char e2[100];
        snprintf(eb, sizeof eb, "read error: %s", errstr(errno, e2, sizeof e2));
        why = eb;
    }
    if (why) {
        batch_fail(w, it, "%s", why);
        batch_input_close(in);
        return 0;
    }
    in->data = buf;
    in->n = (size_t)got;
    in->cap = cap;
    pii_wide wide;
    pii_wide_init(&wide);
    if (!o->binary &&
        pii_wide_feed(&wide, buf, in->n < PII_SNIFF_BYTES ? in->n : PII_SNIFF_BYTES)) {
        batch_fail(w, it, "%s at byte %llu; convert it to UTF-8 (iconv -f UTF-16 -t UTF-8)",
                   pii_strerror(PII_EENCODING), (unsigned long long)wide.hit_at);
        batch_input_close(in);
        return 0;
    }
    if (!in->is_stdin && !o->binary && pii_sniff_binary(buf, in->n)) {
        if (it->is_root) { /* a file the user named is never skipped (issue 42 H5) */
            batch_fail(w, it, "%s", PII_SNIFF_NAMED_REASON);
            batch_input_close(in);
            return 0;
        }
        it->status = ST_SKIPPED;
        it->reason = PII_SNIFF_SKIP_REASON;
        if (!o->quiet)
            batch_msg(b, "pii-redact: %s: skipped: %s\n", it->path, it->reason);
        batch_input_close(in);
        return 0;
    }
    return 1;
}

int batch_input_close(batch_input *in)
{
    int rc = 0;
    if (in->git > 0)
        rc = pii_staged_close(in->fd, in->git);
    else if (in->fd > STDIN_FILENO || (in->fd == STDIN_FILENO && !in->is_stdin))
        close(in->fd);
    in->fd = -1;
    in->git = 0;
    if (in->dirfd >= 0)
        close(in->dirfd);
    in->dirfd = -1;
    return rc;
}

static const char *base_of(const char *path)
{
    const char *sl = strrchr(path, '/');
    return sl ? sl + 1 : path;
}

/* Removes a temporary file: through the input's directory when dirfd >= 0. */
static void drop_tmp(int dirfd, const char *tmp)
{
    if (dirfd >= 0)
        unlinkat(dirfd, base_of(tmp), 0);
    else
        unlink(tmp);
}

/* --in-place: non-zero when the input changed since it was opened: the
 * file its name now leads to is another inode, or its size, modification
 * or change time differ (someone wrote to it).  Checked just before the
 * rename; a write in the last instant before it is still lost
 * (docs/BATCH.md). */
static int input_changed(const batch_input *in, int use_at, const char *out, const struct stat *was)
{
    struct stat now;
    int r = use_at ? fstatat(in->dirfd, in->base, &now, AT_SYMLINK_NOFOLLOW) : stat(out, &now);
    return r != 0 || now.st_dev != was->st_dev || now.st_ino != was->st_ino ||
           now.st_size != was->st_size || now.st_mtim.tv_sec != was->st_mtim.tv_sec ||
           now.st_mtim.tv_nsec != was->st_mtim.tv_nsec ||
           now.st_ctim.tv_sec != was->st_ctim.tv_sec || now.st_ctim.tv_nsec != was->st_ctim.tv_nsec;
}

void batch_redact(worker *w, bitem *it, batch_input *in, pii_stream *st)
{
    batch *b = w->b;
    const pii_opts *o = b->o;
    char eb[128];
    int is_stdin = in->is_stdin, fd = in->fd, tfd = -1, pending = 0, use_at = 0;
    int wdir = -1, own_wdir = 0; /* the folder written through (>= 0), if any */
    char *tmp = NULL;
    FILE *fp = NULL;
    struct stat st_in = in->st;
    pii_err e = PII_OK;
    size_t n = in->n;
    ssize_t got;
    w->cur = st;
    if (!w->rs)
        pii_stream_new_input(st); /* the wide-text guard starts over */
    /* custom rules' paths (pii_custom.h) */
    if (w->rs)
        pii_rec_stream_set_input_name(w->rs, is_stdin ? NULL : it->path);
    else
        pii_stream_set_input_name(st, is_stdin ? NULL : it->path);
    /* A packed input was read whole and closed: its folder is opened and
     * checked against the walk again before anything is written there. */
    if (it->have_id && in->dirfd < 0 && (b->dest == DEST_INPLACE || b->dest == DEST_SUFFIX)) {
        if (!open_walked_dir(w, it, in))
            goto out;
        struct stat fs;
        if (fstatat(in->dirfd, in->base, &fs, o->follow ? 0 : AT_SYMLINK_NOFOLLOW) != 0 ||
            fs.st_dev != it->dev || fs.st_ino != it->ino) {
            batch_fail(w, it, "was replaced since the walk; not written");
            goto out;
        }
    }

    /* The destination. */
    switch (b->dest) {
    case DEST_NONE:
        break;
    case DEST_STDOUT:
        if (b->njobs == 1) {
            fp = stdout;
        } else if (!(fp = it->spool = tmpfile())) {
            batch_fail(w, it, "cannot create a spool file: %s", errstr(errno, eb, sizeof eb));
            goto out;
        }
        break;
    case DEST_INPLACE: {
        struct stat ls;
        int link = in->dirfd >= 0 ? fstatat(in->dirfd, in->base, &ls, AT_SYMLINK_NOFOLLOW) == 0 &&
                                        S_ISLNK(ls.st_mode)
                                  : lstat(it->path, &ls) == 0 && S_ISLNK(ls.st_mode);
        if (link)
            it->out = realpath(it->path, NULL); /* replace the link's target */
        else
            it->out = strdup(it->path);
        use_at = in->dirfd >= 0 && !link; /* write through the verified directory */
        if (!it->out) {
            batch_fail(w, it, "%s", errstr(errno, eb, sizeof eb));
            goto out;
        }
        if (n == 0) { /* an empty file stays as it is */
            it->status = ST_OK;
            goto out;
        }
        if (st_in.st_nlink > 1 && !o->quiet)
            batch_msg(b,
                      "pii-redact: %s: has %ju hard links; the other names keep the "
                      "original text\n",
                      it->path, (uintmax_t)st_in.st_nlink);
        break;
    }
    case DEST_OUTDIR:
    case DEST_SUFFIX: {
        struct stat os;
        if (!(it->out = batch_out_path(b, it->path))) {
            batch_fail(w, it, "out of memory");
            goto out;
        }
        use_at = b->dest == DEST_SUFFIX && in->dirfd >= 0;
        if (same_file(it->out, &st_in)) {
            batch_fail(w, it, "the output %s is the input itself (use --in-place)", it->out);
            goto out;
        }
        if (o->resume && stat(it->out, &os) == 0 && newer_or_same(&os, &st_in) &&
            same_source(it->out, &st_in)) {
            it->status = ST_SKIPPED;
            it->reason = "output is up to date (--resume)";
            goto out;
        }
        break;
    }
    }
    if (b->dest >= DEST_OUTDIR) {
        wdir = use_at ? in->dirfd : -1;
        if (b->dest == DEST_OUTDIR) {
            if ((wdir = outdir_parent(b, it->out, it->path)) < 0) {
                batch_fail(w, it, "cannot create the output folder of %s: %s", it->out,
                           errno == ELOOP ? "a folder on its path is a symbolic link (not followed)"
                                          : errstr(errno, eb, sizeof eb));
                goto out;
            }
            own_wdir = 1;
        }
        if ((tfd = make_temp(it->out, w->slot, &tmp, wdir)) < 0) {
            batch_fail(w, it, "cannot create a temporary file beside %s: %s", it->out,
                       errstr(errno, eb, sizeof eb));
            goto out;
        }
        if (!(fp = fdopen(tfd, "w"))) {
            batch_fail(w, it, "%s", errstr(errno, eb, sizeof eb));
            goto out;
        }
        tfd = -1; /* fp owns it now */
        setvbuf(fp, w->iobuf, _IOFBF, IOBUF);
    }
    if (fp) {
        /* Records from standard input to standard output are flushed one by
         * one, so `tail -f events.ndjson | pii-redact --jsonl-field m` works. */
        w->oout.lines = b->dest >= DEST_OUTDIR && o->format == PII_FMT_TEXT ? 0 : o->lines;
        if (b->spec && is_stdin && fp == stdout && o->format == PII_FMT_TEXT)
            w->oout.lines = 1;
        if (!(w->out = pii_out_create(fp, &w->oout))) {
            batch_fail(w, it, "out of memory");
            goto out;
        }
        pii_out_set_file(w->out, is_stdin ? NULL : it->path);
        pii_out_set_input(w->out,
                          !is_stdin && !it->blob && !it->from_diff && S_ISREG(st_in.st_mode));
        w->osink = pii_out_sink(w->out);
    }

    /* Redact.  A *.tsv or *.tab file is TAB-separated unless --csv-delimiter
     * says otherwise. */
    w->it = it;
    batch_scan_begin(w);
    if (w->rs && b->spec && pii_rec_spec_format(b->spec) == PII_REC_CSV && !o->csv_delimiter &&
        !is_stdin && (ends_in(it->path, ".tsv") || ends_in(it->path, ".tab")))
        pii_rec_stream_set_delimiter(w->rs, '\t');
    uint64_t bad0 = 0;     /* the format's stream: lines redacted as text before */
    if (b->auto_spec[0]) { /* structured handling by extension */
        int tab, k = is_stdin ? -1 : auto_kind(it->path, &tab);
        /* fail closed: a CSV file that records mode would refuse is
         * redacted as plain text */
        /* one JSON document is one record: a larger file is redacted as text */
        if (k == BATCH_AUTO_JSON && S_ISREG(st_in.st_mode) &&
            (uint64_t)st_in.st_size > PII_REC_MAX_RECORD) {
            k = -1;
            if (!o->quiet)
                batch_msg(b,
                          "pii-redact: %s: a JSON document over %u MiB; redacted as plain text\n",
                          it->path, PII_REC_MAX_RECORD >> 20);
        }
        if (k == BATCH_AUTO_CSV &&
            !batch_csv_parses(fd, in->data, in->n, in->cap, tab ? '\t' : ',')) {
            k = -1;
            if (!o->quiet)
                batch_msg(b, "pii-redact: %s: not valid %s; redacted as plain text\n", it->path,
                          tab ? "TSV" : "CSV");
        }
        pii_sink s = {b->dest == DEST_NONE ? NULL : w_write, w_span, w_end, w};
        pii_err ce = PII_OK;
        if (k >= 0 && !w->ars[k])
            w->ars[k] = pii_rec_stream_create(b->auto_spec[k], b->p->red, b->p->ops, &s, &ce);
        if (ce) {
            batch_fail(w, it, "out of memory");
            goto out;
        }
        w->rs = k >= 0 ? w->ars[k] : NULL;
        if (k == BATCH_AUTO_CSV)
            pii_rec_stream_set_delimiter(w->rs, tab ? '\t' : ',');
        if (w->rs)
            bad0 = pii_rec_stream_bad_records(w->rs);
    }
    int rerr = 0;
    const uint8_t *data = in->data;
    size_t cap = in->cap;
    for (;;) {
        it->bytes_in += n;
        atomic_fetch_add(&b->bytes_done, n);
        if (n && (e = feed(w, data, n, &pending)))
            break;
        if ((n < cap && !is_stdin) || fd < 0)
            break; /* read_some stops short only at the end of the input */
        data = w->buf;
        cap = CHUNK;
        got = read_some(fd, w->buf, CHUNK, is_stdin);
        if (got < 0) {
            rerr = errno;
            break;
        }
        if (got == 0)
            break;
        n = (size_t)got;
    }
    int werr = errno;
    /* a staged blob is whole only when git says so */
    int gitbad = !rerr && !e && in->git > 0 && batch_input_close(in) != 0;
    if (!e && !rerr && !gitbad)
        e = finish_input(w, pending);
    if (!e && b->auto_spec[0] && w->rs && !o->quiet) {
        uint64_t bad = pii_rec_stream_bad_records(w->rs) - bad0;
        if (bad && w->rs == w->ars[BATCH_AUTO_JSON])
            batch_msg(b, "pii-redact: %s: not valid JSON; redacted as plain text\n", it->path);
        else if (bad)
            batch_msg(b, "pii-redact: %s: %llu line%s not JSON; redacted as plain text\n", it->path,
                      (unsigned long long)bad, bad == 1 ? "" : "s");
    }
    if (!e && !rerr && fp && fflush(fp) != 0)
        e = PII_EWRITE, werr = errno;
    if (gitbad) {
        batch_fail(w, it, "git cat-file %s failed: the staged content was not read whole",
                   it->blob);
    } else if (rerr) {
        batch_fail(w, it, "read error: %s", errstr(rerr, eb, sizeof eb));
    } else if (e == PII_EWRITE) {
        if (werr == EPIPE && fp == stdout) {
            atomic_store(&b->stop, 1); /* stop taking files, quietly */
            it->status = ST_FAILED;
            it->error = strdup("standard output was closed");
        } else {
            batch_fail(w, it, "write error%s%s: %s", it->out ? " on " : "", it->out ? it->out : "",
                       errstr(werr, eb, sizeof eb));
        }
    } else if (e == PII_EENCODING) {
        batch_fail(w, it, "%s; convert it to UTF-8 (iconv -f UTF-16 -t UTF-8)%s", pii_strerror(e),
                   fp == stdout || it->spool ? "; output stopped there" : "");
    } else if (e && w->rs) {
        const char *d = pii_rec_stream_detail(w->rs);
        batch_fail(w, it, "record %llu: %s%s%s", (unsigned long long)pii_rec_stream_record(w->rs),
                   pii_strerror(e), d[0] ? ": " : "", d);
    } else if (e) {
        batch_fail(w, it, "redaction stopped: %s", pii_strerror(e));
    }
    if (it->status == ST_FAILED) {
        if (batch_open_streams(w) != PII_OK)
            w->dead = 1;
        goto out;
    }

    /* Commit. */
    it->status = ST_OK;
    it->changed = it->findings > 0 || (b->dest != DEST_INPLACE && o->format != PII_FMT_TEXT);
    if (b->dest == DEST_INPLACE && !it->changed) {
        drop_tmp(wdir, tmp); /* nothing found: the original stays untouched */
        goto out;
    }
    if (b->dest >= DEST_OUTDIR) {
        const char *what = NULL;
        int fdo = fileno(fp);
        if (b->dest == DEST_INPLACE) {
            struct stat ts;
            if (fstat(fdo, &ts) != 0)
                what = "stat";
            else if ((ts.st_uid != st_in.st_uid || ts.st_gid != st_in.st_gid) &&
                     fchown(fdo, ts.st_uid != st_in.st_uid ? st_in.st_uid : (uid_t)-1,
                            ts.st_gid != st_in.st_gid ? st_in.st_gid : (gid_t)-1) != 0)
                what = "cannot keep the owner and group";
            else if (fchmod(fdo, st_in.st_mode & 07777) != 0)
                what = "cannot keep the permissions";
            else if (copy_acl(it, in, &st_in, fdo) != 0)
                what = "cannot keep the access ACL";
            else if (fsync(fdo) != 0)
                what = "fsync";
        } else if (fchmod(fdo, 0666 & ~b->umask & st_in.st_mode) != 0) {
            what = "chmod"; /* never more readable than the input (issue 42 M2) */
        } else if (copy_acl(it, in, &st_in, fdo) != 0) {
            what = "cannot copy the access ACL";
        } else {
            char stamp[96]; /* for --resume; optional where not supported */
            source_stamp(&st_in, stamp, sizeof stamp);
            (void)fsetxattr(fdo, SRC_XATTR, stamp, strlen(stamp), 0);
        }
        int cerr = errno;
        int closed = fclose(fp); /* closes the temporary file's descriptor */
        fp = NULL;
        if (!what && closed != 0)
            what = "write error", cerr = errno;
        pii_cli_testhook_pause("commit");
        if (!what && b->dest == DEST_INPLACE && input_changed(in, use_at, it->out, &st_in))
            what = "the file changed while it was redacted (written to, replaced or moved)",
            cerr = 0;
        if (!what && (wdir >= 0 ? renameat(wdir, base_of(tmp), wdir, base_of(it->out))
                                : rename(tmp, it->out)) != 0)
            what = "rename", cerr = errno;
        if (!what && b->dest == DEST_INPLACE &&
            (use_at ? fsync(in->dirfd) : fsync_dir_of(it->out)) != 0) {
            /* Renamed already: the new text is in place but may not be durable. */
            batch_fail(w, it, "redacted, but the directory of %s could not be synced: %s", it->out,
                       errstr(errno, eb, sizeof eb));
        } else if (what) {
            if (cerr)
                batch_fail(w, it, "%s (%s): %s; the original is unchanged", what, it->out,
                           errstr(cerr, eb, sizeof eb));
            else
                batch_fail(w, it, "%s; the original is unchanged", what);
            drop_tmp(wdir, tmp);
        }
    }
out:
    if (w->out) {
        pii_out_free(w->out);
        w->out = NULL;
        memset(&w->osink, 0, sizeof w->osink);
    }
    if (fp && fp != stdout && fp != it->spool)
        fclose(fp);
    if (tfd >= 0)
        close(tfd);
    if (tmp) {
        if (it->status != ST_OK)
            drop_tmp(wdir, tmp);
        slot_clear(w->slot);
        free(tmp);
    }
    if (own_wdir)
        close(wdir);
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
