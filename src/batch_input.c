/* batch_input.c — opening an item of batch mode and reading its first
 * block: a named file, a walked one (only if it and its folder are the
 * ones the walk listed), standard input, a staged blob (--staged) or a
 * diff's added lines (--diff); the first block is sniffed (UTF-16/32 text
 * refused, binary files skipped or, when named, failed) before anything
 * is written (see batch_int.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch_int.h"
#include "diffscan.h"
#include "drive.h"
#include "sniff.h"
#include "staged.h"

/* Opens a walked input relative to its directory, and only if both are the
 * ones the walk listed (dev/ino): a directory swapped for a symbolic link,
 * or a file replaced, between the walk and now is refused, and every later
 * access (the temporary file and the rename of --in-place and --suffix)
 * goes through the directory descriptor kept in `in`, so a later swap
 * cannot redirect it either.  Returns 1, or 0 after failing the item. */
int batch_open_walked_dir(worker *w, bitem *it, batch_input *in)
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
        batch_fail(w, it, "%s", batch_errstr(errno, eb, sizeof eb));
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
    if (!batch_open_walked_dir(w, it, in))
        return 0;
    int fl = O_RDONLY | O_NOCTTY | O_CLOEXEC | (w->b->o->follow ? 0 : O_NOFOLLOW);
    if ((in->fd = openat(in->dirfd, in->base, fl)) < 0) {
        batch_fail(w, it, "%s",
                   errno == ELOOP ? "is now a symbolic link; not read"
                                  : batch_errstr(errno, eb, sizeof eb));
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
                       batch_errstr(errno, eb, sizeof eb));
            return 0;
        }
    } else if (it->blob) {
        if ((in->fd = pii_staged_open(it->blob, &in->git)) < 0) {
            batch_fail(w, it, "cannot run git cat-file: %s", batch_errstr(errno, eb, sizeof eb));
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
            batch_fail(w, it, "%s", batch_errstr(errno, eb, sizeof eb));
            return 0;
        }
    }
    const char *why = NULL;
    ssize_t got = -1;
    if (fstat(in->fd, &in->st) != 0)
        why = batch_errstr(errno, eb, sizeof eb);
    else if (S_ISDIR(in->st.st_mode))
        why = "is a directory";
    else if (b->dest == DEST_INPLACE && !S_ISREG(in->st.st_mode))
        why = "not a regular file; --in-place needs one";
    else if ((got = pii_drive_read(in->fd, buf, cap, in->is_stdin)) < 0) {
        char e2[100];
        snprintf(eb, sizeof eb, "read error: %s", batch_errstr(errno, e2, sizeof e2));
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
