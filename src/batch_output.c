/* batch_output.c — the output file of a batch item: its destination
 * (standard output, a spool, or a temporary file beside the output), the
 * --out-dir folders made without following links, and the commit: the
 * temporary file gets the input's attributes (--in-place: owner, group,
 * mode, ACL, fsync; else a mode no more open than the input's, its ACL and
 * the --resume stamp) and is renamed over the output only when complete;
 * any failure removes it and leaves the original as it was (see
 * batch_int.h and docs/BATCH.md). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "batch_int.h"
#include "cli.h"

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

static int batch_outdir_parent(const batch *b, const char *out, const char *in)
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

static int batch_same_file(const char *path, const struct stat *st)
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

/* The destination (b->dest) of an item: standard output (a spool with
 * several workers), or a temporary file beside the output (--out-dir,
 * --suffix, --in-place), whose folder --out-dir creates without following
 * links.  Returns 1 when d->fp (or DEST_NONE) is ready, 0 when the item is
 * finished: failed, skipped (--resume) or an empty --in-place file. */
int batch_dest_open(worker *w, bitem *it, batch_input *in, bdest *d)
{
    batch *b = w->b;
    const pii_opts *o = b->o;
    const struct stat *st_in = &in->st;
    char eb[128];
    switch (b->dest) {
    case DEST_NONE:
        break;
    case DEST_STDOUT:
        if (b->njobs == 1) {
            d->fp = stdout;
        } else if (!(d->fp = it->spool = tmpfile())) {
            batch_fail(w, it, "cannot create a spool file: %s", batch_errstr(errno, eb, sizeof eb));
            return 0;
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
        d->use_at = in->dirfd >= 0 && !link; /* write through the verified directory */
        if (!it->out) {
            batch_fail(w, it, "%s", batch_errstr(errno, eb, sizeof eb));
            return 0;
        }
        if (in->n == 0) { /* an empty file stays as it is */
            it->status = ST_OK;
            return 0;
        }
        if (st_in->st_nlink > 1 && !o->quiet)
            batch_msg(b,
                      "pii-redact: %s: has %ju hard links; the other names keep the "
                      "original text\n",
                      it->path, (uintmax_t)st_in->st_nlink);
        break;
    }
    case DEST_OUTDIR:
    case DEST_SUFFIX: {
        struct stat os;
        if (!(it->out = batch_out_path(b, it->path))) {
            batch_fail(w, it, "out of memory");
            return 0;
        }
        d->use_at = b->dest == DEST_SUFFIX && in->dirfd >= 0;
        if (batch_same_file(it->out, st_in)) {
            batch_fail(w, it, "the output %s is the input itself (use --in-place)", it->out);
            return 0;
        }
        if (o->resume && stat(it->out, &os) == 0 && newer_or_same(&os, st_in) &&
            same_source(it->out, st_in)) {
            it->status = ST_SKIPPED;
            it->reason = "output is up to date (--resume)";
            return 0;
        }
        break;
    }
    }
    if (b->dest < DEST_OUTDIR)
        return 1;
    d->wdir = d->use_at ? in->dirfd : -1;
    if (b->dest == DEST_OUTDIR) {
        if ((d->wdir = batch_outdir_parent(b, it->out, it->path)) < 0) {
            batch_fail(w, it, "cannot create the output folder of %s: %s", it->out,
                       errno == ELOOP ? "a folder on its path is a symbolic link (not followed)"
                                      : batch_errstr(errno, eb, sizeof eb));
            return 0;
        }
        d->own_wdir = 1;
    }
    if ((d->tfd = batch_tmp_create(it->out, w->slot, &d->tmp, d->wdir)) < 0) {
        batch_fail(w, it, "cannot create a temporary file beside %s: %s", it->out,
                   batch_errstr(errno, eb, sizeof eb));
        return 0;
    }
    if (!(d->fp = fdopen(d->tfd, "w"))) {
        batch_fail(w, it, "%s", batch_errstr(errno, eb, sizeof eb));
        return 0;
    }
    d->tfd = -1; /* fp owns it now */
    setvbuf(d->fp, w->iobuf, _IOFBF, IOBUF);
    return 1;
}

/* --in-place: the temporary file takes the input's owner, group, mode and
 * access ACL and is synced; --out-dir/--suffix: a mode never more open than
 * the input's, its ACL, and the --resume stamp.  NULL, or what failed. */
static const char *keep_attributes(worker *w, bitem *it, batch_input *in, int fdo)
{
    const struct stat *st_in = &in->st;
    if (w->b->dest == DEST_INPLACE) {
        struct stat ts;
        if (fstat(fdo, &ts) != 0)
            return "stat";
        if ((ts.st_uid != st_in->st_uid || ts.st_gid != st_in->st_gid) &&
            fchown(fdo, ts.st_uid != st_in->st_uid ? st_in->st_uid : (uid_t)-1,
                   ts.st_gid != st_in->st_gid ? st_in->st_gid : (gid_t)-1) != 0)
            return "cannot keep the owner and group";
        if (fchmod(fdo, st_in->st_mode & 07777) != 0)
            return "cannot keep the permissions";
        if (copy_acl(it, in, st_in, fdo) != 0)
            return "cannot keep the access ACL";
        if (fsync(fdo) != 0)
            return "fsync";
        return NULL;
    }
    if (fchmod(fdo, 0666 & ~w->b->umask & st_in->st_mode) != 0)
        return "chmod"; /* never more readable than the input (issue 42 M2) */
    if (copy_acl(it, in, st_in, fdo) != 0)
        return "cannot copy the access ACL";
    char stamp[96]; /* for --resume; optional where not supported */
    source_stamp(st_in, stamp, sizeof stamp);
    (void)fsetxattr(fdo, SRC_XATTR, stamp, strlen(stamp), 0);
    return NULL;
}

void batch_dest_commit(worker *w, bitem *it, batch_input *in, bdest *d)
{
    batch *b = w->b;
    char eb[128];
    if (b->dest == DEST_INPLACE && !it->changed) {
        batch_tmp_drop(d->wdir, d->tmp); /* nothing found: the original stays untouched */
        return;
    }
    if (b->dest < DEST_OUTDIR)
        return;
    const char *what = keep_attributes(w, it, in, fileno(d->fp));
    int cerr = errno;
    int closed = fclose(d->fp); /* closes the temporary file's descriptor */
    d->fp = NULL;
    if (!what && closed != 0)
        what = "write error", cerr = errno;
    pii_cli_testhook_pause("commit");
    if (!what && b->dest == DEST_INPLACE && input_changed(in, d->use_at, it->out, &in->st))
        what = "the file changed while it was redacted (written to, replaced or moved)", cerr = 0;
    if (!what &&
        (d->wdir >= 0 ? renameat(d->wdir, batch_base_of(d->tmp), d->wdir, batch_base_of(it->out))
                      : rename(d->tmp, it->out)) != 0)
        what = "rename", cerr = errno;
    if (!what && b->dest == DEST_INPLACE &&
        (d->use_at ? fsync(in->dirfd) : fsync_dir_of(it->out)) != 0) {
        /* Renamed already: the new text is in place but may not be durable. */
        batch_fail(w, it, "redacted, but the directory of %s could not be synced: %s", it->out,
                   batch_errstr(errno, eb, sizeof eb));
    } else if (what) {
        if (cerr)
            batch_fail(w, it, "%s (%s): %s; the original is unchanged", what, it->out,
                       batch_errstr(cerr, eb, sizeof eb));
        else
            batch_fail(w, it, "%s; the original is unchanged", what);
        batch_tmp_drop(d->wdir, d->tmp);
    }
}

void batch_dest_close(worker *w, bitem *it, bdest *d)
{
    if (d->fp && d->fp != stdout && d->fp != it->spool)
        fclose(d->fp);
    d->fp = NULL;
    if (d->tfd >= 0)
        close(d->tfd);
    d->tfd = -1;
    if (d->tmp) {
        if (it->status != ST_OK)
            batch_tmp_drop(d->wdir, d->tmp);
        batch_tmp_release(w->slot);
        free(d->tmp);
        d->tmp = NULL;
    }
    if (d->own_wdir)
        close(d->wdir);
    d->own_wdir = 0;
    d->wdir = -1;
}
