/* ignore.c — gitignore-style ignore files (contract in ignore.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ignore.h"
#include "pii_core.h"

#define IGNORE_FILE_MAX (4u * 1024u * 1024u) /* larger ignore files are skipped */

typedef struct rule {
    char *pat;    /* the glob, without "!", leading "/" and trailing "/" */
    int negate;   /* "!" */
    int dir_only; /* trailing "/" */
    int anchored; /* a "/" at the start or in the middle */
} rule;

struct pii_ignore_list {
    char *base; /* folder of the file, relative to the top; "" for the top */
    rule *v;
    size_t n;
};

/* ---- the glob ------------------------------------------------------------ */

/* [...] at p (p[0] == '['); *end gets the byte after ']'.  -1: not a
 * class (no closing ']'), else whether c is in it. */
static int class_match(const char *p, unsigned char c, const char **end)
{
    const char *q = p + 1;
    int neg = 0, hit = 0;
    if (*q == '!' || *q == '^')
        neg = 1, q++;
    for (int first = 1; *q && (first || *q != ']'); first = 0) {
        unsigned char lo = (unsigned char)*q;
        if (lo == '\\' && q[1])
            lo = (unsigned char)*++q;
        q++;
        unsigned char hi = lo;
        if (q[0] == '-' && q[1] && q[1] != ']') {
            hi = (unsigned char)q[1];
            if (hi == '\\' && q[2])
                hi = (unsigned char)q[2], q++;
            q += 2;
        }
        if (c >= lo && c <= hi)
            hit = 1;
    }
    if (*q != ']')
        return -1;
    *end = q + 1;
    return hit != neg;
}

static int wm(const char *start, const char *p, const char *t)
{
    for (; *p; p++, t++) {
        switch (*p) {
        case '\\':
            if (!p[1])
                return 0;
            p++;
            if (*t != *p)
                return 0;
            break;
        case '?':
            if (!*t || *t == '/')
                return 0;
            break;
        case '[': {
            const char *end;
            if (!*t || *t == '/')
                return 0;
            int r = class_match(p, (unsigned char)*t, &end);
            if (r < 0) { /* a lone '[' is literal */
                if (*t != '[')
                    return 0;
                break;
            }
            if (!r)
                return 0;
            p = end - 1;
            break;
        }
        case '*': {
            const char *q = p;
            while (*q == '*')
                q++;
            if (q - p >= 2 && (p == start || p[-1] == '/') && (*q == '/' || !*q)) {
                if (!*q)
                    return 1; /* trailing "**": everything below */
                q++;          /* "**" + "/": zero or more folders */
                for (const char *s = t;;) {
                    if (wm(start, q, s))
                        return 1;
                    if (!(s = strchr(s, '/')))
                        return 0;
                    s++;
                }
            }
            for (const char *s = t;; s++) { /* "*": anything but '/' */
                if (wm(start, q, s))
                    return 1;
                if (!*s || *s == '/')
                    return 0;
            }
        }
        default:
            if (*t != *p)
                return 0;
        }
    }
    return !*t;
}

int pii_ignore_glob(const char *pattern, const char *text)
{
    return wm(pattern, pattern, text);
}

/* ---- one file -------------------------------------------------------------- */

void pii_ignore_list_free(pii_ignore_list *l)
{
    if (!l)
        return;
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i].pat);
    free(l->v);
    free(l->base);
    free(l);
}

/* Adds the pattern line s[0..n) (no line end). */
static int add_line(pii_ignore_list *l, const char *s, size_t n)
{
    if (n && s[n - 1] == '\r')
        n--;
    while (n && s[n - 1] == ' ' && !(n >= 2 && s[n - 2] == '\\'))
        n--; /* trailing spaces, unless escaped */
    if (n == 0 || s[0] == '#')
        return 0;
    rule r = {0};
    if (s[0] == '!')
        r.negate = 1, s++, n--;
    if (n && s[n - 1] == '/')
        r.dir_only = 1, n--;
    if (n && s[0] == '/')
        r.anchored = 1, s++, n--;
    if (n == 0)
        return 0;
    if (memchr(s, '/', n))
        r.anchored = 1;
    if (!(r.pat = malloc(n + 1)))
        return -1;
    /* "\#" "\!" at the start and "\ " at the end stay escapes: the glob
     * reads "\x" as x. */
    memcpy(r.pat, s, n);
    r.pat[n] = '\0';
    rule *v = realloc(l->v, (l->n + 1) * sizeof *v);
    if (!v) {
        free(r.pat);
        return -1;
    }
    l->v = v;
    l->v[l->n++] = r;
    return 0;
}

pii_ignore_list *pii_ignore_list_parse(const char *text, size_t len, const char *base)
{
    pii_ignore_list *l = calloc(1, sizeof *l);
    if (!l || !(l->base = strdup(base ? base : ""))) {
        free(l);
        return NULL;
    }
    size_t i = 0;
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        i = 3;
    while (i < len) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t e = nl ? (size_t)(nl - text) : len;
        if (add_line(l, text + i, e - i)) {
            pii_ignore_list_free(l);
            return NULL;
        }
        i = e + 1;
    }
    return l;
}

int pii_ignore_list_match(const pii_ignore_list *l, const char *path, int is_dir)
{
    size_t bl = strlen(l->base);
    if (bl) {
        if (strncmp(path, l->base, bl) != 0 || path[bl] != '/')
            return -1;
        path += bl + 1;
    }
    const char *name = strrchr(path, '/');
    name = name ? name + 1 : path;
    for (size_t i = l->n; i-- > 0;) {
        const rule *r = &l->v[i];
        if (r->dir_only && !is_dir)
            continue;
        if (pii_ignore_glob(r->pat, r->anchored ? path : name))
            return !r->negate;
    }
    return -1;
}

/* ---- a walk ---------------------------------------------------------------- */

typedef struct frame {
    pii_ignore_list *l;
} frame;

struct pii_ignore_ctx {
    char *prefix; /* the walk argument relative to the top ("" for the top) */
    int in_repo;  /* .gitignore counts */
    pii_ignore_list *global, *exclude;
    frame *v; /* per folder: its .gitignore; the last decides first */
    size_t n, cap;
};

/* Reads a whole small regular file; NULL when absent, unreadable or large. */
static char *slurp(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return NULL;
    struct stat st;
    char *buf = NULL;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size <= IGNORE_FILE_MAX &&
        (buf = malloc((size_t)st.st_size + 1))) {
        size_t n = 0;
        ssize_t r;
        while (n < (size_t)st.st_size &&
               ((r = read(fd, buf + n, (size_t)st.st_size - n)) > 0 || (r < 0 && errno == EINTR)))
            if (r > 0)
                n += (size_t)r;
        buf[n] = '\0';
        *len = n;
    }
    close(fd);
    return buf;
}

static pii_ignore_list *load(const char *path, const char *base)
{
    size_t len = 0;
    char *text = slurp(path, &len);
    if (!text)
        return NULL;
    pii_ignore_list *l = pii_ignore_list_parse(text, len, base);
    free(text);
    return l;
}

static char *join(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    char *r = malloc(la + lb + 2);
    if (!r)
        return NULL;
    memcpy(r, a, la);
    size_t n = la;
    if (la && lb && a[la - 1] != '/')
        r[n++] = '/';
    memcpy(r + n, b, lb + 1);
    return r;
}

static int push(pii_ignore_ctx *c, pii_ignore_list *l)
{
    if (!l)
        return 0;
    if (PII_VEC_RESERVE(c->v, c->cap, c->n + 1)) {
        pii_ignore_list_free(l);
        return -1;
    }
    c->v[c->n++].l = l;
    return 0;
}

/* Pushes dir/.gitignore (in a repository), base `base`.  ripgrep's .ignore
 * is not read: it is no git rule, and one planted in a tree hid committed
 * files from --check (issue 42 H4). */
static int push_dir(pii_ignore_ctx *c, const char *dir, const char *base)
{
    if (!c->in_repo)
        return 0;
    char *p = join(dir, ".gitignore");
    if (!p || push(c, load(p, base))) {
        free(p);
        return -1;
    }
    free(p);
    return 0;
}

/* The value of core.excludesFile in git config text, or NULL (malloc'd). */
static char *config_excludes(const char *text)
{
    char *val = NULL;
    int in_core = 0;
    for (const char *s = text; *s;) {
        const char *e = strchr(s, '\n');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        const char *a = s, *z = s + n;
        while (a < z && (*a == ' ' || *a == '\t'))
            a++;
        while (z > a && (z[-1] == ' ' || z[-1] == '\t' || z[-1] == '\r'))
            z--;
        if (a < z && *a == '[') {
            in_core = (size_t)(z - a) >= 6 && strncasecmp(a, "[core]", 6) == 0;
        } else if (in_core && (size_t)(z - a) > 12 && strncasecmp(a, "excludesfile", 12) == 0) {
            const char *v = a + 12;
            while (v < z && (*v == ' ' || *v == '\t'))
                v++;
            if (v < z && *v == '=') {
                v++;
                while (v < z && (*v == ' ' || *v == '\t'))
                    v++;
                if (z - v >= 2 && *v == '"' && z[-1] == '"')
                    v++, z--;
                free(val);
                val = strndup(v, (size_t)(z - v));
            }
        }
        s += n + (e ? 1 : 0);
    }
    return val;
}

static char *global_excludes_path(const char *repo_git)
{
    const char *home = getenv("HOME"), *xdg = getenv("XDG_CONFIG_HOME");
    char *cfg[3] = {NULL, NULL, NULL}, *val = NULL;
    if (xdg && *xdg)
        cfg[0] = join(xdg, "git/config");
    else if (home)
        cfg[0] = join(home, ".config/git/config");
    if (home)
        cfg[1] = join(home, ".gitconfig");
    if (repo_git)
        cfg[2] = join(repo_git, "config");
    for (int i = 0; i < 3; i++) { /* later files override earlier ones */
        size_t len;
        char *text = cfg[i] ? slurp(cfg[i], &len) : NULL;
        char *v = text ? config_excludes(text) : NULL;
        if (v) {
            free(val);
            val = v;
        }
        free(text);
        free(cfg[i]);
    }
    if (val && val[0] == '~' && val[1] == '/' && home) {
        char *x = join(home, val + 2);
        free(val);
        val = x;
    }
    if (!val) {
        if (xdg && *xdg)
            val = join(xdg, "git/ignore");
        else if (home)
            val = join(home, ".config/git/ignore");
    }
    return val;
}

pii_ignore_ctx *pii_ignore_ctx_create(const char *dir)
{
    pii_ignore_ctx *c = calloc(1, sizeof *c);
    char *abs = c ? realpath(dir, NULL) : NULL;
    char *top = NULL, *gitdir = NULL, *gp = NULL;
    if (!abs)
        goto fail;
    /* The enclosing repository: the nearest folder holding ".git". */
    top = strdup(abs);
    while (top) {
        struct stat st;
        char *g = join(top, ".git");
        if (!g)
            goto fail;
        if (lstat(g, &st) == 0) {
            c->in_repo = 1;
            if (S_ISDIR(st.st_mode))
                gitdir = g;
            else
                free(g);
            break;
        }
        free(g);
        char *slash = strrchr(top, '/');
        if (!slash || slash == top) {
            free(top);
            top = NULL;
            break;
        }
        *slash = '\0';
    }
    if (!c->in_repo) {
        free(top);
        top = strdup(abs);
    }
    if (!top)
        goto fail;
    size_t tl = strlen(top);
    c->prefix = strdup(strlen(abs) > tl ? abs + tl + 1 : "");
    if (!c->prefix)
        goto fail;
    if (c->in_repo) {
        char *ex = gitdir ? join(gitdir, "info/exclude") : NULL;
        gp = global_excludes_path(gitdir);
        c->global = gp ? load(gp, "") : NULL;
        c->exclude = ex ? load(ex, "") : NULL;
        free(ex);
    }
    /* The ignore files of the folders above the argument, top first (the
     * argument's own are pushed by the walk's first enter). */
    int bad = 0;
    size_t pl = strlen(c->prefix);
    for (size_t i = 0; !bad && pl && i <= pl; i++) {
        if (i != 0 && c->prefix[i] != '/' && c->prefix[i] != '\0')
            continue;
        if (i == pl)
            break;
        char *b = strndup(c->prefix, i);
        char *d = b ? join(top, b) : NULL;
        bad = !d || push_dir(c, d, b);
        free(d);
        free(b);
    }
    if (bad)
        goto fail;
    free(gp);
    free(gitdir);
    free(top);
    free(abs);
    return c;
fail:
    free(gp);
    free(gitdir);
    free(top);
    free(abs);
    pii_ignore_ctx_free(c);
    return NULL;
}

void pii_ignore_ctx_free(pii_ignore_ctx *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n; i++)
        pii_ignore_list_free(c->v[i].l);
    free(c->v);
    pii_ignore_list_free(c->global);
    pii_ignore_list_free(c->exclude);
    free(c->prefix);
    free(c);
}

/* rel below the argument → path below the top. */
static char *top_path(const pii_ignore_ctx *c, const char *rel)
{
    return join(c->prefix, rel);
}

size_t pii_ignore_ctx_enter(pii_ignore_ctx *c, const char *path, const char *rel)
{
    size_t mark = c->n;
    char *base = top_path(c, rel);
    if (base)
        push_dir(c, path, base); /* out of memory: fewer rules, never a crash */
    free(base);
    return mark;
}

void pii_ignore_ctx_leave(pii_ignore_ctx *c, size_t mark)
{
    while (c->n > mark)
        pii_ignore_list_free(c->v[--c->n].l);
}

int pii_ignore_ctx_ignored(const pii_ignore_ctx *c, const char *rel, int is_dir)
{
    char *p = top_path(c, rel);
    int r = -1;
    if (!p)
        return 0;
    for (size_t i = c->n; r < 0 && i-- > 0;)
        r = pii_ignore_list_match(c->v[i].l, p, is_dir);
    if (r < 0 && c->exclude)
        r = pii_ignore_list_match(c->exclude, p, is_dir);
    if (r < 0 && c->global)
        r = pii_ignore_list_match(c->global, p, is_dir);
    free(p);
    return r == 1;
}
