/* diffscan.c — see diffscan.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "diffscan.h"
#include "pii_core.h"

typedef struct parser {
    pii_diff_file *v;
    size_t n, cap;
    int git; /* the current file began with "diff --git" */
} parser;

static int starts(const char *l, size_t n, const char *pre)
{
    size_t k = strlen(pre);
    return n >= k && memcmp(l, pre, k) == 0;
}

/* The path of a "+++ " line's rest l[0..n): C-quoted, or up to a TAB. */
static char *new_path(const char *l, size_t n, int git)
{
    char *out = malloc(n + 1);
    size_t k = 0;
    if (!out)
        return NULL;
    if (n && l[0] == '"') {
        for (size_t i = 1; i < n && l[i] != '"'; i++) {
            if (l[i] != '\\' || i + 1 >= n) {
                out[k++] = l[i];
                continue;
            }
            char c = l[++i];
            if (c >= '0' && c <= '3' && i + 2 < n && l[i + 1] >= '0' && l[i + 1] <= '7' &&
                l[i + 2] >= '0' && l[i + 2] <= '7') { /* \ooo */
                out[k++] = (char)(((c - '0') << 6) | ((l[i + 1] - '0') << 3) | (l[i + 2] - '0'));
                i += 2;
            } else {
                out[k++] = c == 'n'   ? '\n'
                           : c == 't' ? '\t'
                           : c == 'a' ? '\a'
                           : c == 'b' ? '\b'
                           : c == 'f' ? '\f'
                           : c == 'v' ? '\v'
                           : c == 'r' ? '\r'
                                      : c;
            }
        }
    } else {
        const char *tab = memchr(l, '\t', n);
        k = tab ? (size_t)(tab - l) : n;
        memcpy(out, l, k);
    }
    out[k] = '\0';
    /* git's destination prefix: b/, or with diff.mnemonicPrefix w/ (work
     * tree), i/ (index), c/ (commit) or o/ (object) */
    if (git && k >= 2 && out[1] == '/' && out[0] && strchr("bwico", out[0]))
        memmove(out, out + 2, k - 1);
    return out;
}

static pii_err add_line(pii_diff_file *f, const char *l, size_t n, uint64_t line)
{
    if (PII_VEC_RESERVE(f->text, f->capt, f->len + n + 1) ||
        PII_VEC_RESERVE(f->line, f->capl, f->nlines + 1))
        return PII_ENOMEM;
    memcpy(f->text + f->len, l, n);
    f->len += n;
    f->text[f->len++] = '\n';
    f->line[f->nlines++] = line;
    return PII_OK;
}

/* "@@ -a[,b] +c[,d] @@": the old and new line counts and the first new line. */
static int hunk_header(const char *l, size_t n, uint64_t *old, uint64_t *nw, uint64_t *first)
{
    char buf[128];
    unsigned long long a, b = 1, c, d = 1;
    int k = 0;
    if (n >= sizeof buf)
        n = sizeof buf - 1;
    memcpy(buf, l, n);
    buf[n] = '\0';
    if (sscanf(buf, "@@ -%llu,%llu +%llu,%llu @@%n", &a, &b, &c, &d, &k) == 4 && k)
        ;
    else if (b = 1, d = 1, k = 0, sscanf(buf, "@@ -%llu +%llu,%llu @@%n", &a, &c, &d, &k) == 3 && k)
        ;
    else if (b = 1, d = 1, k = 0, sscanf(buf, "@@ -%llu,%llu +%llu @@%n", &a, &b, &c, &k) == 3 && k)
        ;
    else if (b = 1, d = 1, k = 0, sscanf(buf, "@@ -%llu +%llu @@%n", &a, &c, &k) == 2 && k)
        ;
    else
        return -1;
    (void)a;
    *old = b;
    *nw = d;
    *first = c;
    return 0;
}

pii_err pii_diff_parse(const char *p, size_t n, pii_diff_file **files, size_t *nfiles, char *why,
                       size_t whycap)
{
    parser ps = {NULL, 0, 0, 0};
    pii_diff_file *cur = NULL; /* the file hunks go to; NULL: deleted or none */
    uint64_t old_left = 0, new_left = 0, line = 0, lineno = 0;
    pii_err e = PII_OK;
    int diffish = 0; /* a line only a diff (or git show) holds was seen */
    why[0] = '\0';
    for (size_t at = 0; at < n && !e;) {
        const char *l = p + at, *nl = memchr(l, '\n', n - at);
        size_t len = nl ? (size_t)(nl - l) : n - at;
        at += len + (nl != NULL);
        lineno++;
        if (old_left || new_left) {    /* inside a hunk */
            char c = len ? l[0] : ' '; /* an empty line: a context line whose space was lost */
            if (c == ' ' && old_left && new_left) {
                old_left--, new_left--, line++;
            } else if (c == '-' && old_left) {
                old_left--;
            } else if (c == '+' && new_left) {
                new_left--;
                if (cur)
                    e = add_line(cur, l + 1, len - 1, line);
                line++;
            } else if (c == '\\') {
                /* "\ No newline at end of file" */
            } else {
                snprintf(why, whycap, "line %llu: a hunk ends before its counted lines",
                         (unsigned long long)lineno);
                e = PII_EFORMAT;
            }
            continue;
        }
        if (starts(l, len, "diff ") || starts(l, len, "--- ") || starts(l, len, "+++ ") ||
            starts(l, len, "commit ") || starts(l, len, "Binary files "))
            diffish = 1;
        if (starts(l, len, "diff --git ")) {
            ps.git = 1;
            cur = NULL;
        } else if (starts(l, len, "diff --cc ") || starts(l, len, "diff --combined ") ||
                   starts(l, len, "@@@")) {
            snprintf(why, whycap, "line %llu: a combined diff (of a merge) is not supported",
                     (unsigned long long)lineno);
            e = PII_EFORMAT;
        } else if (starts(l, len, "+++ ")) {
            size_t k = len - 4;
            if (k && l[4 + k - 1] == '\r')
                k--;
            if (k == 9 && memcmp(l + 4, "/dev/null", 9) == 0) {
                cur = NULL; /* deleted */
                continue;
            }
            if (PII_VEC_RESERVE(ps.v, ps.cap, ps.n + 1)) {
                e = PII_ENOMEM;
                break;
            }
            cur = &ps.v[ps.n];
            memset(cur, 0, sizeof *cur);
            if (!(cur->path = new_path(l + 4, k, ps.git)) || !(cur->text = malloc(1))) {
                free(cur->path);
                e = PII_ENOMEM;
                break;
            }
            cur->capt = 1;
            ps.n++;
        } else if (starts(l, len, "Binary files ")) {
            /* "Binary files a/x and b/y differ": the name after " and " */
            const char *and = NULL;
            for (size_t i = 13; i + 5 <= len; i++)
                if (memcmp(l + i, " and ", 5) == 0)
                    and = l + i + 5;
            const char *end = l + len;
            if (len > 7 && memcmp(end - 7, " differ", 7) == 0)
                end -= 7;
            if (!and || (end - and == 9 && memcmp(and, "/dev/null", 9) == 0))
                continue;
            if (PII_VEC_RESERVE(ps.v, ps.cap, ps.n + 1)) {
                e = PII_ENOMEM;
                break;
            }
            cur = &ps.v[ps.n];
            memset(cur, 0, sizeof *cur);
            if (!(cur->path = new_path(and, (size_t)(end - and), ps.git))) {
                e = PII_ENOMEM;
                break;
            }
            cur->binary = 1;
            ps.n++;
            cur = NULL;
        } else if (starts(l, len, "@@ ")) {
            if (hunk_header(l, len, &old_left, &new_left, &line)) {
                snprintf(why, whycap, "line %llu: a hunk header that does not parse",
                         (unsigned long long)lineno);
                e = PII_EFORMAT;
            } else if (line == 0) {
                line = 1; /* "+0,0": nothing on the new side */
            }
        }
    }
    if (!e && (old_left || new_left)) {
        snprintf(why, whycap, "the input ends inside a hunk");
        e = PII_EFORMAT;
    }
    if (!e && n && !diffish) { /* text that is no diff is never passed as clean */
        snprintf(why, whycap, "no diff, ---/+++ or commit line in it");
        e = PII_EFORMAT;
    }
    if (e) {
        pii_diff_free(ps.v, ps.n);
        if (e == PII_ENOMEM)
            snprintf(why, whycap, "out of memory");
        return e;
    }
    *files = ps.v;
    *nfiles = ps.n;
    return PII_OK;
}

void pii_diff_free(pii_diff_file *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(v[i].path);
        free(v[i].text);
        free(v[i].line);
    }
    free(v);
}

int pii_diff_memfd(const char *p, size_t n)
{
    int fd = (int)syscall(SYS_memfd_create, "pii-redact-diff", 1u /* MFD_CLOEXEC */);
    if (fd < 0)
        return -1;
    for (size_t off = 0; off < n;) {
        ssize_t k = write(fd, p + off, n - off);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            int err = k < 0 ? errno : EIO;
            close(fd);
            errno = err;
            return -1;
        }
        off += (size_t)k;
    }
    if (lseek(fd, 0, SEEK_SET) != 0) {
        int err = errno;
        close(fd);
        errno = err;
        return -1;
    }
    return fd;
}
