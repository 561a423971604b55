/* batch_walk.c — from the command-line arguments to the list of inputs.
 *
 * Arguments are taken as given: a symbolic link named on the command line
 * is followed (the user named it).  Under -r, directories are read in
 * byte order of the names, so runs are reproducible; there a symbolic link
 * is skipped with a notice unless --follow, and with --follow a directory
 * already on the current path (a loop) is skipped.  --include globs select
 * files (not directories); --exclude globs prune files and directories.
 * A glob without '/' matches the name; one with '/' matches the path below
 * the argument (fnmatch with FNM_PATHNAME).  Never collected: the
 * --out-dir folder itself, our own temporary files, and with --suffix the
 * files already ending in the suffix.
 *
 * Git-aware (docs/BATCH.md): folders named .git are never walked unless
 * --hidden, and ignore files are honoured unless --no-ignore (src/ignore.c
 * decides; this file only asks it per folder and per entry).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch_int.h"
#include "cli.h"
#include "pii_core.h"
#include "diffscan.h"
#include "ignore.h"
#include "staged.h"

typedef struct anc {
    dev_t dev;
    ino_t ino;
    const struct anc *up;
} anc;

static bitem *add(batch *b, const char *path, const char *root, int is_root)
{
    if (PII_VEC_RESERVE(b->items, b->capitems, b->nitems + 1))
        return NULL;
    bitem *it = &b->items[b->nitems];
    memset(it, 0, sizeof *it);
    if (!(it->path = strdup(path)))
        return NULL;
    it->root = root;
    it->is_root = is_root;
    b->nitems++;
    return it;
}

static int add_failed(batch *b, const char *path, const char *root, int err)
{
    bitem *it = add(b, path, root, 0);
    if (!it)
        return -1;
    it->status = ST_FAILED;
    it->error = strdup(strerror(err));
    b->walk_failed = 1;
    return it->error ? 0 : -1;
}

/* Lists a file or folder the walk does not read (issue 42 H4). */
static int add_skip(batch *b, const char *path, const char *root, const char *reason, enum skip k)
{
    bitem *it = add(b, path, root, 0);
    if (!it)
        return -1;
    it->status = ST_SKIPPED;
    it->reason = reason;
    it->skip = k;
    return 0;
}

int batch_is_tmp_name(const char *name)
{
    const char *m = strstr(name, BATCH_TMP_MARK);
    return name[0] == '.' && m && strlen(m) == strlen(BATCH_TMP_MARK) + 6;
}

static int glob_hit(const char *const *globs, size_t n, const char *name, const char *rel)
{
    for (size_t i = 0; i < n; i++) {
        if (strchr(globs[i], '/') ? fnmatch(globs[i], rel, FNM_PATHNAME) == 0
                                  : fnmatch(globs[i], name, 0) == 0)
            return 1;
    }
    return 0;
}

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* --follow: a link is followed only to a target inside the argument's
 * tree and on its file system, unless --cross-devices (issue 18 M5: links
 * led --in-place writes outside the tree, and a walk of / entered /sys). */
static int inside_root(const batch *b, const char *path, const struct stat *target)
{
    if (!b->root_real || target->st_dev != b->root_dev)
        return 0;
    char *rp = realpath(path, NULL);
    if (!rp)
        return 0;
    size_t rl = strlen(b->root_real);
    int in = strncmp(rp, b->root_real, rl) == 0 &&
             (rp[rl] == '/' || rp[rl] == '\0' || (rl == 1 && b->root_real[0] == '/'));
    free(rp);
    return in;
}

/* Walks directory `dir` (already stat'ed: st) found under `root`. */
static int walk(batch *b, const char *dir, const char *root, const struct stat *st, const anc *up)
{
    const pii_opts *o = b->o;
    DIR *d = opendir(dir);
    if (!d)
        return add_failed(b, dir, root, errno);
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    int rc = 0;
    errno = 0;
    while ((de = readdir(d))) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        if (PII_VEC_RESERVE(names, cap, n + 1)) {
            rc = -1;
            break;
        }
        if (!(names[n] = strdup(de->d_name))) {
            rc = -1;
            break;
        }
        n++;
    }
    int rderr = errno;
    closedir(d);
    if (rc == 0 && rderr)
        rc = add_failed(b, dir, root, rderr);
    if (n > 1)
        qsort(names, n, sizeof *names, cmp_names);
    anc me = {st->st_dev, st->st_ino, up};
    size_t dl = strlen(dir), rl = strlen(root);
    while (dl > 1 && dir[dl - 1] == '/')
        dl--;
    while (rl > 1 && root[rl - 1] == '/')
        rl--;
    size_t ign_mark = 0;
    if (b->ign) {
        const char *drel = dir + (rl <= strlen(dir) ? rl : 0);
        while (*drel == '/')
            drel++;
        ign_mark = pii_ignore_ctx_enter(b->ign, dir, drel);
    }
    for (size_t i = 0; i < n && rc == 0; i++) {
        const char *name = names[i];
        size_t nl = strlen(name);
        char *path = malloc(dl + nl + 2);
        if (!path) {
            rc = -1;
            break;
        }
        memcpy(path, dir, dl);
        path[dl] = '/';
        memcpy(path + dl + 1, name, nl + 1);
        if (dl == 1 && dir[0] == '/')
            memmove(path + 1, path + 2, nl + 1); /* "/" + name */
        /* the path below the argument, for globs with '/' */
        const char *rel = path + (rl <= strlen(path) ? rl : 0);
        while (*rel == '/')
            rel++;
        struct stat ls, ts;
        const char *why = NULL;
        enum skip kind = SKIP_SILENT;
        if (batch_is_tmp_name(name))
            why = "named like a temporary file of pii-redact (a run in progress, or one that "
                  "was killed: remove it)",
            kind = SKIP_RISKY;
        else if (glob_hit(o->exclude, o->nexclude, name, rel))
            why = "excluded (--exclude)";
        else if (!o->hidden && strcmp(name, ".git") == 0)
            why = "git folder (--hidden walks it)";
        if (why) {
            rc = add_skip(b, path, root, why, kind);
            free(path);
            continue;
        }
        if (lstat(path, &ls) != 0) {
            rc = add_failed(b, path, root, errno);
            free(path);
            continue;
        }
        if (b->ign && pii_ignore_ctx_ignored(b->ign, rel, S_ISDIR(ls.st_mode))) {
            rc = add_skip(b, path, root,
                          "ignored by git (.gitignore, .git/info/exclude or core.excludesFile; "
                          "--no-ignore reads it)",
                          SKIP_SILENT);
            free(path);
            continue;
        }
        if ((b->have_base_id && ls.st_dev == b->base_dev && ls.st_ino == b->base_ino) ||
            (b->have_report_id && ls.st_dev == b->report_dev && ls.st_ino == b->report_ino)) {
            /* issue 43 item 2: the baseline and the report are never scanned */
            rc = add_skip(b, path, root,
                          b->have_base_id && ls.st_ino == b->base_ino && ls.st_dev == b->base_dev
                              ? BATCH_BASELINE_FILE
                              : BATCH_REPORT_FILE,
                          SKIP_SILENT);
            free(path);
            continue;
        }
        const struct stat *s = &ls;
        if (S_ISLNK(ls.st_mode)) {
            if (!o->follow) {
                if (o->ninclude && !glob_hit(o->include, o->ninclude, name, rel)) {
                    rc = add_skip(b, path, root, "not matched by --include", SKIP_SILENT);
                    free(path);
                    continue;
                }
                bitem *it = add(b, path, root, 0);
                if (!it)
                    rc = -1;
                else
                    it->status = ST_SKIPPED, it->reason = "symbolic link (--follow follows it)";
                free(path);
                continue;
            }
            if (stat(path, &ts) != 0) {
                bitem *it = add(b, path, root, 0);
                if (!it)
                    rc = -1;
                else
                    it->status = ST_SKIPPED, it->reason = "broken symbolic link";
                free(path);
                continue;
            }
            s = &ts;
            if (!o->cross_devices && !inside_root(b, path, &ts)) {
                bitem *it = add(b, path, root, 0);
                if (!it)
                    rc = -1;
                else
                    it->status = ST_SKIPPED,
                    it->reason = "symbolic link leading out of the tree or to another file "
                                 "system (--cross-devices follows it)";
                free(path);
                continue;
            }
        }
        if (S_ISDIR(s->st_mode) && !o->cross_devices && s->st_dev != b->root_dev) {
            /* a mount point could hide text: not walked, and the run fails */
            rc = add_skip(b, path, root,
                          "folder on another file system, not walked (--cross-devices walks it, "
                          "--exclude leaves it out)",
                          SKIP_RISKY);
            free(path);
            continue;
        }
        if (S_ISDIR(s->st_mode)) {
            if (b->have_outdir_id && s->st_dev == b->outdir_dev && s->st_ino == b->outdir_ino) {
                rc = add_skip(b, path, root, "the --out-dir folder", SKIP_SILENT);
                free(path);
                continue;
            }
            int loop = 0;
            for (const anc *a = &me; a && !loop; a = a->up)
                loop = a->dev == s->st_dev && a->ino == s->st_ino;
            if (loop)
                rc = add_skip(b, path, root, "directory loop (a link to a folder above it)",
                              SKIP_NOTE);
            else
                rc = walk(b, path, root, s, &me);
            free(path);
            continue;
        }
        if (o->ninclude && !glob_hit(o->include, o->ninclude, name, rel)) {
            rc = add_skip(b, path, root, "not matched by --include", SKIP_SILENT);
            free(path);
            continue;
        }
        bitem *it = add(b, path, root, 0);
        free(path);
        if (!it) {
            rc = -1;
            break;
        }
        if (b->dest == DEST_SUFFIX && ends_with(name, o->suffix)) {
            /* listed, so batch_dest.c can tell a previous output from a
             * file that only shares its name (issue 42 H3) */
            it->have_id = 1;
            it->dev = s->st_dev, it->ino = s->st_ino;
            it->status = ST_SKIPPED;
            it->reason = BATCH_PREV_OUTPUT;
            it->skip = SKIP_SILENT;
            continue;
        }
        it->have_id = 1; /* batch.c re-checks these before opening */
        it->dev = s->st_dev, it->ino = s->st_ino;
        it->pdev = st->st_dev, it->pino = st->st_ino;
        if (!S_ISREG(s->st_mode)) {
            it->status = ST_SKIPPED;
            it->reason = "not a regular file";
        } else {
            it->size = (uint64_t)s->st_size;
            b->bytes_total += it->size;
        }
    }
    if (b->ign)
        pii_ignore_ctx_leave(b->ign, ign_mark);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return rc;
}

/* --staged: the files git would commit, read from the index (staged.h). */
static int collect_staged(batch *b)
{
    const pii_opts *o = b->o;
    pii_staged_file *v;
    size_t n;
    pii_err e = pii_staged_list((const char *const *)o->files, o->nfiles, &v, &n);
    if (e == PII_ENOMEM)
        goto oom;
    if (e == PII_ENOTFOUND) {
        fprintf(stderr, "pii-redact: --staged: not inside a git work tree\n");
        return PII_EXIT_IO;
    }
    if (e) {
        fprintf(stderr,
                "pii-redact: --staged: cannot list the staged files (git diff --cached: "
                "%s)\n",
                pii_strerror(e));
        return PII_EXIT_IO;
    }
    for (size_t i = 0; i < n; i++) {
        bitem *it = add(b, v[i].path, ".", 0);
        if (!it || !(it->blob = strdup(v[i].oid))) {
            pii_staged_free(v, n);
            goto oom;
        }
        struct stat fs; /* paths are relative to the top: run at the top, as hooks are */
        if (b->have_base_id && stat(v[i].path, &fs) == 0 && fs.st_dev == b->base_dev &&
            fs.st_ino == b->base_ino)
            it->status = ST_SKIPPED, it->reason = BATCH_BASELINE_FILE, it->skip = SKIP_SILENT;
        else if (v[i].mode == PII_STAGED_MODE_LINK)
            it->status = ST_SKIPPED, it->reason = "symbolic link (staged)";
        else if (v[i].mode == PII_STAGED_MODE_GITLINK)
            it->status = ST_SKIPPED, it->reason = "submodule (staged)";
    }
    pii_staged_free(v, n);
    return -1;
oom:
    fprintf(stderr, "pii-redact: out of memory while listing the inputs\n");
    return PII_EXIT_FAIL;
}

/* --diff: one item per file the diff changes, holding the lines it adds
 * (diffscan.h); the diff is read whole from standard input or the FILE. */
static int collect_diff(batch *b)
{
    const pii_opts *o = b->o;
    const char *name = o->nfiles ? o->files[0] : "-";
    int fd = strcmp(name, "-") == 0 ? STDIN_FILENO : open(name, O_RDONLY | O_CLOEXEC);
    char *buf = NULL, why[128];
    size_t n = 0, cap = 0;
    if (fd < 0) {
        fprintf(stderr, "pii-redact: --diff %s: %s\n", name, strerror(errno));
        return PII_EXIT_IO;
    }
    for (;;) {
        if (PII_VEC_RESERVE(buf, cap, n + 65536)) {
            if (fd != STDIN_FILENO)
                close(fd);
            free(buf);
            goto oom;
        }
        ssize_t k = read(fd, buf + n, cap - n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0) {
            int err = errno;
            if (fd != STDIN_FILENO)
                close(fd);
            free(buf);
            fprintf(stderr, "pii-redact: --diff %s: read error: %s\n", name, strerror(err));
            return PII_EXIT_IO;
        }
        if (k == 0)
            break;
        n += (size_t)k;
    }
    if (fd != STDIN_FILENO)
        close(fd);
    pii_diff_file *v = NULL;
    size_t nv = 0;
    pii_err e = pii_diff_parse(buf ? buf : "", n, &v, &nv, why, sizeof why);
    free(buf);
    if (e == PII_ENOMEM)
        goto oom;
    if (e) {
        fprintf(stderr, "pii-redact: --diff %s: not a unified diff: %s\n",
                strcmp(name, "-") ? name : "(standard input)", why);
        return PII_EXIT_IO;
    }
    int rc = -1;
    for (size_t i = 0; i < nv && rc < 0; i++) {
        bitem *it = add(b, v[i].path, ".", 0);
        if (!it) {
            rc = PII_EXIT_FAIL;
            break;
        }
        it->from_diff = 1;
        if (v[i].binary) {
            it->status = ST_SKIPPED, it->reason = "binary change (diff)";
            continue;
        }
        it->mem = v[i].text, it->memlen = v[i].len;
        it->lmap = v[i].line, it->nlmap = v[i].nlines;
        it->size = v[i].len;
        b->bytes_total += v[i].len;
        v[i].text = NULL, v[i].line = NULL;
    }
    pii_diff_free(v, nv);
    if (rc < 0)
        return rc;
oom:
    fprintf(stderr, "pii-redact: out of memory while listing the inputs\n");
    return PII_EXIT_FAIL;
}

static const batch *g_sort_b; /* for the qsort below (collection is single-threaded) */

static int cmp_id(const void *pa, const void *pb)
{
    const bitem *a = &g_sort_b->items[*(const size_t *)pa],
                *c = &g_sort_b->items[*(const size_t *)pb];
    if (a->dev != c->dev)
        return a->dev < c->dev ? -1 : 1;
    if (a->ino != c->ino)
        return a->ino < c->ino ? -1 : 1;
    return *(const size_t *)pa < *(const size_t *)pb ? -1 : 1;
}

/* With --follow one file may be listed under several names (a link to it,
 * or to a folder holding it): with --in-place only the first is processed,
 * so the run does not rewrite it twice (the second would find it
 * replaced since the walk). */
static int drop_duplicates(batch *b)
{
    size_t *ix = malloc((b->nitems ? b->nitems : 1) * sizeof *ix), n = 0;
    if (!ix)
        return -1;
    for (size_t i = 0; i < b->nitems; i++)
        if (b->items[i].have_id && b->items[i].status == ST_PENDING)
            ix[n++] = i;
    g_sort_b = b;
    qsort(ix, n, sizeof *ix, cmp_id);
    for (size_t k = 1; k < n; k++) {
        bitem *p = &b->items[ix[k - 1]], *it = &b->items[ix[k]];
        if (it->dev == p->dev && it->ino == p->ino) {
            it->status = ST_SKIPPED;
            it->reason = BATCH_SAME_FILE;
            b->bytes_total -= it->size;
        }
    }
    free(ix);
    return 0;
}

/* The first bytes of a baseline and a report that pii-redact wrote. */
#define BASELINE_HEAD "# pii-redact baseline"
#define REPORT_HEAD "{\"tool\":\"pii-redact\""

/* Non-zero when `path` is a regular file that starts with `head`: a
 * baseline or report of ours, which a walk lists and does not scan (issue
 * 43 item 2).  Any other file at that name is an input like the others
 * (and --report refuses to overwrite it). */
static int ours(const char *path, const char *head, struct stat *st)
{
    char buf[32];
    size_t n = strlen(head);
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return 0;
    int ok = fstat(fd, st) == 0 && S_ISREG(st->st_mode) && read(fd, buf, n) == (ssize_t)n &&
             memcmp(buf, head, n) == 0;
    close(fd);
    return ok;
}

int batch_collect(batch *b)
{
    const pii_opts *o = b->o;
    size_t nargs = o->nfiles;
    struct stat fs;
    if (o->baseline && ours(o->baseline, BASELINE_HEAD, &fs)) {
        b->have_base_id = 1;
        b->base_dev = fs.st_dev, b->base_ino = fs.st_ino;
    }
    if (o->report && ours(o->report, REPORT_HEAD, &fs)) {
        b->have_report_id = 1;
        b->report_dev = fs.st_dev, b->report_ino = fs.st_ino;
    }
    if (o->staged)
        return collect_staged(b);
    if (o->diff)
        return collect_diff(b);
    if (nargs == 0) {
        if (!add(b, "-", "-", 1))
            goto oom;
        return -1;
    }
    for (size_t i = 0; i < nargs; i++) {
        const char *arg = o->files[i];
        struct stat st;
        if (strcmp(arg, "-") == 0) {
            if (!add(b, arg, arg, 1))
                goto oom;
            continue;
        }
        if (stat(arg, &st) != 0) {
            if (add_failed(b, arg, arg, errno))
                goto oom;
            b->items[b->nitems - 1].is_root = 1;
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            if (!o->recursive) {
                bitem *it = add(b, arg, arg, 1);
                if (!it || !(it->error = strdup("is a directory (use -r)")))
                    goto oom;
                it->status = ST_FAILED;
                b->walk_failed = 1;
                continue;
            }
            /* git's ignore files decide what --check reads (what git would
             * not commit); a tree to redact is redacted whole (issue 42 H4) */
            if (o->check && !o->no_ignore && !(b->ign = pii_ignore_ctx_create(arg)) &&
                errno == ENOMEM)
                goto oom;
            b->root_real = realpath(arg, NULL); /* NULL: --follow follows nothing */
            b->root_dev = st.st_dev;
            int wr = walk(b, arg, arg, &st, NULL);
            pii_ignore_ctx_free(b->ign);
            b->ign = NULL;
            free(b->root_real);
            b->root_real = NULL;
            if (wr)
                goto oom;
            continue;
        }
        bitem *it = add(b, arg, arg, 1);
        if (!it)
            goto oom;
        it->size = S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
        b->bytes_total += it->size;
    }
    if (o->follow && b->dest == DEST_INPLACE && drop_duplicates(b) != 0)
        goto oom;
    return -1;
oom:
    fprintf(stderr, "pii-redact: out of memory while listing the inputs\n");
    return PII_EXIT_FAIL;
}

/* OUT/<the input path without leading '/' and "." components>. */
char *batch_out_path(const batch *b, const char *path)
{
    const pii_opts *o = b->o;
    size_t sl = o->suffix ? strlen(o->suffix) : 0;
    if (b->dest == DEST_SUFFIX && !o->out_dir) {
        char *r = malloc(strlen(path) + sl + 1);
        if (r) {
            strcpy(r, path);
            strcat(r, o->suffix);
        }
        return r;
    }
    size_t ol = strlen(o->out_dir);
    char *r = malloc(ol + strlen(path) + sl + 3);
    if (!r)
        return NULL;
    memcpy(r, o->out_dir, ol);
    size_t n = ol;
    while (n > 1 && r[n - 1] == '/')
        n--;
    const char *p = path;
    while (*p) {
        while (*p == '/')
            p++;
        const char *e = strchr(p, '/');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l == 0)
            break;
        if (!(l == 1 && p[0] == '.')) {
            if (!(n == 1 && r[0] == '/'))
                r[n++] = '/';
            memcpy(r + n, p, l);
            n += l;
        }
        p += l;
    }
    if (sl) {
        memcpy(r + n, o->suffix, sl);
        n += sl;
    }
    r[n] = '\0';
    return r;
}
