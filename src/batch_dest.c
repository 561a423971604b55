/* batch_dest.c — no output may destroy an input (issue 42 H3).
 *
 * Before any file is opened, for --out-dir and --suffix runs: the
 * destination of every input is computed and refused when
 *   - it exists and is one of the run's inputs (same device and inode:
 *     `--suffix .red x x.red`, `out/a/f a/f --out-dir out`), or
 *   - its resolved path is another input's resolved path or another input's
 *     destination (`--suffix .red /abs/x x`: two inputs, one output).
 * A file skipped because it ends in --suffix (batch_walk.c) is a previous
 * output only when it is at least as new as its input; one older than its
 * input (`app.log.1`, rotated before `app.log` was last written, under
 * `--suffix .1`) is a file of its own, and the run fails.  A conflict fails
 * the whole run (exit 3) with nothing written; the caller prints nothing
 * more.  Paths are resolved without their last component (a link at the
 * destination is replaced by the rename, not followed), and missing
 * folders of an --out-dir mirror are resolved through their nearest
 * existing ancestor. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "batch_int.h"
#include "cli.h"
#include "names.h"

typedef struct idrec {
    dev_t dev;
    ino_t ino;
    size_t item;
} idrec;

typedef struct pathrec {
    char *path;   /* resolved */
    size_t item;  /* the input it belongs to */
    int is_input; /* the input's own path (else its destination) */
} pathrec;

static char *join2(const char *a, const char *b)
{
    size_t x = strlen(a), y = strlen(b);
    char *r = malloc(x + y + 2);
    if (!r)
        return NULL;
    memcpy(r, a, x);
    size_t n = x;
    if (!(x == 1 && a[0] == '/'))
        r[n++] = '/';
    memcpy(r + n, b, y + 1);
    return r;
}

/* The resolved form of folder `dir`: realpath, or, while it does not
 * exist, its parent's resolved form with its name appended. */
static char *resolve_dir(const char *dir, int depth)
{
    char *r = realpath(dir, NULL);
    if (r || errno != ENOENT || depth > 256)
        return r;
    const char *sl = strrchr(dir, '/');
    char *up = sl ? strndup(dir, sl == dir ? 1 : (size_t)(sl - dir)) : strdup(".");
    char *ru = up ? resolve_dir(up, depth + 1) : NULL;
    free(up);
    if (!ru)
        return NULL;
    char *j = join2(ru, sl ? sl + 1 : dir);
    free(ru);
    return j;
}

/* `path` with its folder resolved and its last name kept as it is. */
static char *resolve_loose(const char *path)
{
    const char *sl = strrchr(path, '/');
    char *dir = sl ? strndup(path, sl == path ? 1 : (size_t)(sl - path)) : strdup(".");
    char *rd = dir ? resolve_dir(dir, 0) : NULL;
    free(dir);
    if (!rd)
        return NULL;
    char *j = join2(rd, sl ? sl + 1 : path);
    free(rd);
    return j;
}

static int cmp_id(const void *pa, const void *pb)
{
    const idrec *a = pa, *b = pb;
    if (a->dev != b->dev)
        return a->dev < b->dev ? -1 : 1;
    if (a->ino != b->ino)
        return a->ino < b->ino ? -1 : 1;
    return 0;
}

static int cmp_path(const void *pa, const void *pb)
{
    const pathrec *a = pa, *b = pb;
    int c = strcmp(a->path, b->path);
    if (c)
        return c;
    return a->item < b->item ? -1 : a->item > b->item;
}

static int is_input(const bitem *it)
{
    return !it->blob && !(it->is_root && strcmp(it->path, "-") == 0);
}

static int newer_or_same(const struct stat *a, const struct stat *b)
{
    if (a->st_mtim.tv_sec != b->st_mtim.tv_sec)
        return a->st_mtim.tv_sec > b->st_mtim.tv_sec;
    return a->st_mtim.tv_nsec >= b->st_mtim.tv_nsec;
}

#define SHOW_MAX 5

static void conflict(size_t *n, const char *fmt, const char *a, const char *b, const char *c)
{
    if ((*n)++ < SHOW_MAX) {
        fputs("pii-redact: ", stderr);
        char line[PATH_MAX * 3 + 256];
        snprintf(line, sizeof line, fmt, a, b, c);
        pii_name_put(stderr, line);
        fputc('\n', stderr);
    }
}

int batch_check_dests(batch *b)
{
    if (b->dest != DEST_OUTDIR && b->dest != DEST_SUFFIX)
        return -1;
    size_t n = b->nitems, nid = 0, np = 0, bad = 0;
    idrec *ids = calloc(n ? n : 1, sizeof *ids);
    pathrec *ps = calloc(2 * (n ? n : 1), sizeof *ps);
    char **outs = calloc(n ? n : 1, sizeof *outs);
    struct stat *ist = calloc(n ? n : 1, sizeof *ist);
    char *have = calloc(n ? n : 1, 1);
    int rc = -1;
    if (!ids || !ps || !outs || !ist || !have)
        goto oom;
    /* every input's identity and resolved path */
    for (size_t i = 0; i < n; i++) {
        const bitem *it = &b->items[i];
        if (!is_input(it) || it->status == ST_FAILED)
            continue;
        if (stat(it->path, &ist[i]) != 0)
            continue; /* it fails when opened */
        have[i] = 1;  /* bit 1: ist[i] is set; bit 2: its output exists */
        ids[nid++] = (idrec){ist[i].st_dev, ist[i].st_ino, i};
        char *rp = resolve_loose(it->path);
        if (!rp && errno == ENOMEM)
            goto oom;
        if (rp)
            ps[np++] = (pathrec){rp, i, 1};
    }
    if (nid > 1)
        qsort(ids, nid, sizeof *ids, cmp_id);
    /* every pending input's destination */
    for (size_t i = 0; i < n; i++) {
        const bitem *it = &b->items[i];
        if (it->status != ST_PENDING || !is_input(it))
            continue;
        if (!(outs[i] = batch_out_path(b, it->path)))
            goto oom;
        struct stat os;
        if (stat(outs[i], &os) == 0) {
            have[i] |= 2; /* decided by its identity: not by its path below */
            idrec key = {os.st_dev, os.st_ino, 0};
            const idrec *hit = nid ? bsearch(&key, ids, nid, sizeof *ids, cmp_id) : NULL;
            if (hit) {
                const bitem *x = &b->items[hit->item];
                int prev = x->status == ST_SKIPPED && x->reason &&
                           strcmp(x->reason, BATCH_PREV_OUTPUT) == 0;
                if (prev && (have[i] & 1) && newer_or_same(&os, &ist[i]))
                    ; /* an output of an earlier run: replaced */
                else if (hit->item == i)
                    conflict(&bad, "%s: the output %s is the input itself%s", it->path, outs[i],
                             " (use --in-place)");
                else if (prev)
                    conflict(&bad,
                             "%s: the output %s exists and is older than its input, so it is "
                             "not an output of an earlier run%s",
                             it->path, outs[i], "; rename it or choose another --suffix");
                else
                    conflict(&bad, "%s: the output %s is another input of the run (%s)", it->path,
                             outs[i], x->path);
            }
        }
        char *rp = resolve_loose(outs[i]);
        if (!rp && errno == ENOMEM)
            goto oom;
        if (rp)
            ps[np++] = (pathrec){rp, i, 0};
    }
    if (np > 1)
        qsort(ps, np, sizeof *ps, cmp_path);
    for (size_t k = 1; k < np; k++) {
        const pathrec *p = &ps[k - 1], *q = &ps[k];
        if (strcmp(p->path, q->path) != 0 || (!p->is_input && !q->is_input && p->item == q->item))
            continue;
        if (p->is_input && q->is_input)
            continue; /* one file named twice: each has its own destination */
        const pathrec *in = p->is_input ? p : q->is_input ? q : NULL;
        const pathrec *out = in == p ? q : p;
        if (in && (have[out->item] & 2))
            continue; /* it exists: its identity decided above */
        if (in && in->item != out->item)
            conflict(&bad, "%s: the output %s is another input of the run (%s)",
                     b->items[out->item].path, outs[out->item], b->items[in->item].path);
        else
            conflict(&bad, "%s and %s would both be written to %s", b->items[p->item].path,
                     b->items[q->item].path, outs[q->item]);
    }
    if (bad) {
        fprintf(stderr,
                "pii-redact: %zu output%s would overwrite an input or another output; nothing "
                "was written\n",
                bad, bad == 1 ? "" : "s");
        rc = PII_EXIT_IO;
    }
    goto done;
oom:
    fprintf(stderr, "pii-redact: out of memory while checking the outputs\n");
    rc = PII_EXIT_FAIL;
done:
    for (size_t k = 0; ps && k < np; k++)
        free(ps[k].path);
    for (size_t i = 0; outs && i < n; i++)
        free(outs[i]);
    free(ids);
    free(ps);
    free(outs);
    free(ist);
    free(have);
    return rc;
}
