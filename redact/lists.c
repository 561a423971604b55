/* lists.c — --allow and --deny lists.
 *
 * File format (both): UTF-8 text, one entry per line; a line whose first
 * non-blank character is '#' is a comment; blank lines are skipped; spaces
 * and tabs at the start of a line and spaces and CR/LF at its end are
 * trimmed (use a regex for significant blanks).  An entry is
 * an exact string, or "re:" followed by a PCRE2 regular expression.
 *
 * Allow: pii_allow_match(value) is true when the value equals an exact
 * entry byte for byte, or when a regex matches the WHOLE value (anchored at
 * both ends).  The stream then leaves that span alone, after scanning it
 * again for other values inside it (pii_redactor_set_allow_rescan).
 *
 * Deny: "[label<TAB>]entry", label [A-Za-z0-9_.-]{1,64}, default "secret".
 * Matches are redacted with that label (source PII_SRC_DENY, rule "deny"
 * for exact strings, "deny_re" for regexes).  An exact string matches
 * case-sensitively anywhere, except that an entry that starts (ends) with a
 * letter, digit or '_' must not be preceded (followed) by one: "Bob" does
 * not match inside "Bobby" (letters and digits in the Unicode sense; an
 * invalid UTF-8 byte counts as neither).  The leftmost match wins and
 * matches never overlap; at one position the longest exact string wins,
 * then (if none) the first matching regex in file order.  Exact strings
 * live in a byte trie searched in C (thousands of entries are cheap); the
 * regexes form one PCRE2 alternation searched like the rule tier (rx.h).
 * Streaming gives the one-shot result: the detector holds back from the
 * first position where either side needs more bytes.
 * Deny regexes must be bounded so that streaming stays exact with bounded
 * memory: no '*', '+' or '{n,}' repetition, no recursion or subroutine
 * calls, no (*VERBS) or callouts, no numbered back-references (\g{-1}
 * works), and no empty match.  A deny match attempt that would need more
 * than 1 MiB of look-ahead fails the stream with PII_ETOOBIG.  An exact
 * entry may hold at most 1024 characters and must be valid UTF-8; the
 * regexes together must fit one compiled PCRE2 pattern (64 KiB of compiled
 * code with Debian's build).  Cost: the exact-string search tries the trie
 * at every position whose byte starts some entry (O(text x longest entry)
 * in the worst case, a few steps per position in practice).
 * Thread safety: both objects are immutable after loading. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <utf8proc.h>

#include <errno.h>
#include <sys/types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pii_redact.h"
#include "rx.h"

#define MAX_LITERAL_CPS 1024
#define MAX_LABEL 64

/* ---- reading ----------------------------------------------------------- */

typedef struct entry {
    char *label; /* deny only; NULL: default                 */
    char *text;  /* the string or the regex (after "re:")    */
    size_t len;
    int is_re;
    unsigned line;
} entry;

typedef struct entries {
    entry *v;
    size_t n, cap;
} entries;

static void entries_free(entries *es)
{
    for (size_t i = 0; i < es->n; i++) {
        free(es->v[i].label);
        free(es->v[i].text);
    }
    free(es->v);
    memset(es, 0, sizeof *es);
}

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static int label_ok(const char *s, size_t n)
{
    if (n == 0 || n > MAX_LABEL)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '.' || c == '-'))
            return 0;
    }
    return 1;
}

static pii_err read_entries(const char *path, int deny, entries *es, char *msg, size_t msgcap)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(msg, msgcap, "%s", strerror(errno));
        return PII_EIO;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    unsigned lineno = 0;
    pii_err e = PII_OK;
    while (e == PII_OK && (got = getline(&line, &cap, f)) >= 0) {
        lineno++;
        size_t b = 0, n = (size_t)got;
        while (b < n && is_blank(line[b]))
            b++;
        while (n > b && (line[n - 1] == ' ' || line[n - 1] == '\r' || line[n - 1] == '\n'))
            n--;
        if (b == n || line[b] == '#')
            continue;
        const char *s = line + b;
        size_t len = n - b;
        char *label = NULL;
        if (deny) {
            const char *tab = memchr(s, '\t', len);
            if (tab) {
                size_t ln = (size_t)(tab - s);
                if (!label_ok(s, ln)) {
                    snprintf(msg, msgcap, "line %u: bad label (want [A-Za-z0-9_.-]{1,%d})", lineno,
                             MAX_LABEL);
                    e = PII_EFORMAT;
                    break;
                }
                if (!(label = strndup(s, ln))) {
                    e = PII_ENOMEM;
                    break;
                }
                s = tab + 1;
                len -= ln + 1;
                while (len && is_blank(*s))
                    s++, len--;
                if (len == 0) {
                    free(label);
                    snprintf(msg, msgcap, "line %u: label without an entry", lineno);
                    e = PII_EFORMAT;
                    break;
                }
            }
        }
        int is_re = len >= 3 && memcmp(s, "re:", 3) == 0;
        if (is_re) {
            s += 3;
            len -= 3;
            if (len == 0) {
                free(label);
                snprintf(msg, msgcap, "line %u: empty regular expression", lineno);
                e = PII_EFORMAT;
                break;
            }
        }
        if (PII_VEC_RESERVE(es->v, es->cap, es->n + 1)) {
            free(label);
            e = PII_ENOMEM;
            break;
        }
        entry *en = &es->v[es->n];
        en->label = label;
        en->text = malloc(len + 1);
        if (!en->text) {
            free(label);
            e = PII_ENOMEM;
            break;
        }
        memcpy(en->text, s, len);
        en->text[len] = 0;
        en->len = len;
        en->is_re = is_re;
        en->line = lineno;
        es->n++;
    }
    if (e == PII_OK && ferror(f)) {
        snprintf(msg, msgcap, "read error");
        e = PII_EIO;
    }
    free(line);
    fclose(f);
    return e;
}

/* Compiles one user regex on its own (syntax check, and the allow list's
 * matcher). */
static pcre2_code *compile_user(const entry *en, uint32_t opts, pii_err *err, char *msg,
                                size_t msgcap)
{
    int ec;
    PCRE2_SIZE eo;
    if (memchr(en->text, 0, en->len)) {
        snprintf(msg, msgcap, "line %u: NUL byte in a regular expression", en->line);
        *err = PII_EREGEX;
        return NULL;
    }
    pcre2_code *c = pcre2_compile((PCRE2_SPTR)en->text, en->len,
                                  PCRE2_UTF | PCRE2_MATCH_INVALID_UTF | opts, &ec, &eo, NULL);
    if (!c) {
        PCRE2_UCHAR m[160];
        if (pcre2_get_error_message(ec, m, sizeof m) < 0)
            strcpy((char *)m, "error");
        snprintf(msg, msgcap, "line %u: %s at offset %zu", en->line, (const char *)m, (size_t)eo);
        *err = PII_EREGEX;
    }
    return c;
}

/* ---- allow ---------------------------------------------------------------- */

typedef struct lit {
    const char *p;
    size_t n;
} lit;

/* An allow regex gets at most this many match steps per value (PCRE2's
 * match limit; its default is 10 M): a pattern that backtracks
 * catastrophically on a long span then fails to match, so the value is
 * redacted (fail closed) in bounded time (issue 42, Low). */
#define ALLOW_MATCH_LIMIT 1000000u

struct pii_allow {
    entries es;
    lit *lits; /* exact entries, sorted */
    size_t nlit;
    pcre2_code **res;
    size_t nre;
    pcre2_match_context *mctx; /* ALLOW_MATCH_LIMIT; read-only once built */
};

static int lit_cmp(const void *a, const void *b)
{
    const lit *x = a, *y = b;
    size_t m = x->n < y->n ? x->n : y->n;
    int c = memcmp(x->p, y->p, m);
    if (c)
        return c;
    return x->n < y->n ? -1 : x->n > y->n;
}

pii_allow *pii_allow_load(const char *path, pii_err *err, char *msg, size_t msgcap)
{
    char dummy[1];
    if (!msg || !msgcap) {
        msg = dummy;
        msgcap = sizeof dummy;
    }
    msg[0] = 0;
    pii_err e = PII_ENOMEM;
    pii_allow *a = calloc(1, sizeof *a);
    if (!a)
        goto fail;
    if (!path) {
        e = PII_EINVAL;
        goto fail;
    }
    if ((e = read_entries(path, 0, &a->es, msg, msgcap)) != PII_OK)
        goto fail;
    e = PII_ENOMEM;
    a->lits = calloc(a->es.n + 1, sizeof *a->lits);
    a->res = calloc(a->es.n + 1, sizeof *a->res);
    a->mctx = pcre2_match_context_create(NULL);
    if (!a->lits || !a->res || !a->mctx)
        goto fail;
    pcre2_set_match_limit(a->mctx, ALLOW_MATCH_LIMIT);
    for (size_t i = 0; i < a->es.n; i++) {
        const entry *en = &a->es.v[i];
        if (!en->is_re) {
            a->lits[a->nlit++] = (lit){en->text, en->len};
            continue;
        }
        pcre2_code *c = compile_user(en, PCRE2_ANCHORED | PCRE2_ENDANCHORED, &e, msg, msgcap);
        if (!c)
            goto fail;
        pcre2_jit_compile(c, PCRE2_JIT_COMPLETE); /* optional speed-up */
        a->res[a->nre++] = c;
    }
    qsort(a->lits, a->nlit, sizeof *a->lits, lit_cmp);
    if (err)
        *err = PII_OK;
    return a;
fail:
    pii_allow_free(a);
    if (err)
        *err = e;
    return NULL;
}

void pii_allow_free(pii_allow *a)
{
    if (!a)
        return;
    for (size_t i = 0; i < a->nre; i++)
        pcre2_code_free(a->res[i]);
    free(a->res);
    free(a->lits);
    pcre2_match_context_free(a->mctx);
    entries_free(&a->es);
    free(a);
}

int pii_allow_match(const pii_allow *a, const uint8_t *value, size_t len)
{
    if (!a || (len && !value))
        return 0;
    lit key = {(const char *)value, len};
    if (a->nlit && bsearch(&key, a->lits, a->nlit, sizeof *a->lits, lit_cmp))
        return 1;
    for (size_t i = 0; i < a->nre; i++) {
        pcre2_match_data *md = pcre2_match_data_create(1, NULL);
        if (!md)
            return 0;
        int rc =
            pcre2_match(a->res[i], value ? value : (const uint8_t *)"", len, 0, 0, md, a->mctx);
        pcre2_match_data_free(md);
        if (rc >= 0)
            return 1;
    }
    return 0;
}

/* ---- deny: the pattern ------------------------------------------------------ */

/* NULL when the regex is bounded (see the contract above), else why not. */
static const char *unbounded_reason(const char *re, size_t n)
{
    static const char *const rep = "unbounded repetition (*, + or {n,}): use {0,N}";
    size_t i = 0;
    int after_quant = 0;
    while (i < n) {
        char c = re[i];
        if (c == '\\') {
            char d = i + 1 < n ? re[i + 1] : 0;
            if (d == 'Q') {
                const char *e = NULL;
                for (size_t k = i + 2; k + 1 < n; k++)
                    if (re[k] == '\\' && re[k + 1] == 'E') {
                        e = re + k;
                        break;
                    }
                i = e ? (size_t)(e - re) + 2 : n;
                after_quant = 0;
                continue;
            }
            if (d >= '1' && d <= '9')
                return "numbered back-references are not allowed: use \\g{-1}";
            if (d == 'g') {
                char e2 = i + 2 < n ? re[i + 2] : 0, e3 = i + 3 < n ? re[i + 3] : 0;
                if (e2 == '<' || e2 == '\'')
                    return "subroutine calls are not allowed";
                if ((e2 >= '0' && e2 <= '9') || e2 == '+' ||
                    (e2 == '{' && ((e3 >= '0' && e3 <= '9') || e3 == '+')))
                    return "numbered back-references are not allowed: use \\g{-1}";
            }
            i += 2;
            after_quant = 0;
            continue;
        }
        if (c == '[') {
            size_t j = i + 1;
            if (j < n && re[j] == '^')
                j++;
            if (j < n && re[j] == ']')
                j++;
            while (j < n && re[j] != ']') {
                if (re[j] == '\\')
                    j += 2;
                else if (re[j] == '[' && j + 1 < n && re[j + 1] == ':') {
                    const char *e = strstr(re + j + 2, ":]");
                    j = e ? (size_t)(e - re) + 2 : n;
                } else
                    j++;
            }
            i = j + 1;
            after_quant = 0;
            continue;
        }
        if (c == '(') {
            char d = i + 1 < n ? re[i + 1] : 0, e2 = i + 2 < n ? re[i + 2] : 0,
                 e3 = i + 3 < n ? re[i + 3] : 0;
            if (d == '*')
                return "(*VERB) items are not allowed";
            if (d == '?' &&
                (e2 == 'R' || (e2 >= '0' && e2 <= '9') || e2 == '+' || e2 == '&' || e2 == 'C' ||
                 (e2 == 'P' && e3 == '>') || (e2 == '-' && e3 >= '0' && e3 <= '9')))
                return "recursion, subroutine calls and callouts are not allowed";
            i++;
            after_quant = 0;
            continue;
        }
        if (c == '*')
            return rep;
        if (c == '+') {
            if (!after_quant)
                return rep;
            i++;
            after_quant = 0; /* possessive marker */
            continue;
        }
        if (c == '?') {
            i++;
            after_quant = 1;
            continue;
        }
        if (c == '{') {
            size_t j = i + 1, d1 = 0, d2 = 0;
            while (j < n && re[j] >= '0' && re[j] <= '9')
                j++, d1++;
            if (j < n && re[j] == '}' && d1) {
                i = j + 1;
                after_quant = 1;
                continue;
            }
            if (j < n && re[j] == ',') {
                j++;
                while (j < n && re[j] >= '0' && re[j] <= '9')
                    j++, d2++;
                if (j < n && re[j] == '}' && (d1 || d2)) {
                    if (!d2)
                        return rep;
                    i = j + 1;
                    after_quant = 1;
                    continue;
                }
            }
            i++; /* a literal '{' */
            after_quant = 0;
            continue;
        }
        i++;
        after_quant = 0;
    }
    return NULL;
}

/* Growing string. */
typedef struct sbuf {
    char *p;
    size_t n, cap;
    int oom;
} sbuf;

static void sb_add(sbuf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (PII_VEC_RESERVE(b->p, b->cap, b->n + n + 1)) {
        b->oom = 1;
        return;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

static void sb_str(sbuf *b, const char *s)
{
    sb_add(b, s, strlen(s));
}

/* ---- deny: exact strings as a byte trie ------------------------------------ */

/* Build form: first-child / next-sibling lists. */
typedef struct bnode {
    uint8_t byte; /* the edge into this node */
    int term;     /* alternative index + 1 of an entry ending here, 0 */
    size_t child, next;
} bnode;

typedef struct btrie {
    bnode *v;
    size_t n, cap;
} btrie;

static size_t bt_node(btrie *t, uint8_t byte)
{
    if (PII_VEC_RESERVE(t->v, t->cap, t->n + 1))
        return 0;
    t->v[t->n] = (bnode){byte, 0, 0, 0};
    return t->n++;
}

/* Frozen form: node i has edges edge[first[i] .. first[i]+nedge[i]) sorted
 * by byte. */
typedef struct fedge {
    uint8_t byte;
    uint32_t child;
} fedge;

typedef struct fnode {
    uint32_t first;
    uint16_t nedge;
    int32_t term; /* alternative index + 1, 0 */
} fnode;

static int word_cp(int32_t cp)
{
    if (cp == '_')
        return 1;
    if (cp < 0x80)
        return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9');
    utf8proc_category_t k = utf8proc_category(cp);
    return k == UTF8PROC_CATEGORY_LU || k == UTF8PROC_CATEGORY_LL || k == UTF8PROC_CATEGORY_LT ||
           k == UTF8PROC_CATEGORY_LM || k == UTF8PROC_CATEGORY_LO || k == UTF8PROC_CATEGORY_ND ||
           k == UTF8PROC_CATEGORY_NL || k == UTF8PROC_CATEGORY_NO;
}

/* The code point starting at b[i] (i < n), or -1 if invalid. */
static int32_t cp_at(const uint8_t *b, size_t i, size_t n)
{
    utf8proc_int32_t cp;
    utf8proc_ssize_t l = utf8proc_iterate(b + i, (utf8proc_ssize_t)(n - i < 4 ? n - i : 4), &cp);
    return l > 0 ? cp : -1;
}

/* The code point ending just before b[i], or -1 (none, or invalid). */
static int32_t cp_before(const uint8_t *b, size_t i)
{
    size_t k = i;
    while (k > 0 && i - k < 4) {
        k--;
        if ((b[k] & 0xC0) != 0x80) {
            utf8proc_int32_t cp;
            utf8proc_ssize_t l = utf8proc_iterate(b + k, (utf8proc_ssize_t)(i - k), &cp);
            return l == (utf8proc_ssize_t)(i - k) ? cp : -1;
        }
    }
    return -1;
}

struct pii_deny {
    fnode *node; /* node[0] is the root; NULL when there are no strings */
    fedge *edge;
    size_t nnode;
    uint8_t first[256]; /* bytes that start some string */
    size_t maxlit;      /* longest string, bytes */
    pii_rx rx;          /* the regexes; rx.code NULL when there are none */
    pii_rx_alt *alts;   /* per label k: [2k] exact ("deny"), [2k+1] regex */
    size_t nalt;
    char **labels;
    size_t nlabels;
    size_t ctx; /* left context kept before the next start */
};

/* Freezes the build trie (DFS order). */
static int bt_freeze(pii_deny *d, const btrie *t)
{
    d->nnode = t->n;
    d->node = calloc(t->n, sizeof *d->node);
    d->edge = calloc(t->n, sizeof *d->edge);
    size_t *stack = malloc(t->n * sizeof *stack);
    if (!d->node || !d->edge || !stack) {
        free(stack);
        return 0;
    }
    uint32_t ne = 0;
    for (size_t i = 0; i < t->n; i++) {
        /* children of i, sorted by byte (insertion sort on the list) */
        size_t m = 0;
        for (size_t c = t->v[i].child; c; c = t->v[c].next)
            stack[m++] = c;
        for (size_t x = 1; x < m; x++)
            for (size_t y = x; y > 0 && t->v[stack[y - 1]].byte > t->v[stack[y]].byte; y--) {
                size_t tmp = stack[y];
                stack[y] = stack[y - 1];
                stack[y - 1] = tmp;
            }
        d->node[i].first = ne;
        d->node[i].nedge = (uint16_t)m;
        d->node[i].term = t->v[i].term;
        for (size_t x = 0; x < m; x++)
            d->edge[ne++] = (fedge){t->v[stack[x]].byte, (uint32_t)stack[x]};
    }
    free(stack);
    for (size_t x = 0; x < d->node[0].nedge; x++)
        d->first[d->edge[x].byte] = 1;
    return 1;
}

static long fn_child(const pii_deny *d, uint32_t n, uint8_t byte)
{
    const fedge *e = d->edge + d->node[n].first;
    size_t lo = 0, hi = d->node[n].nedge;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (e[mid].byte < byte)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < d->node[n].nedge && e[lo].byte == byte ? (long)e[lo].child : -1;
}

enum { EV_NONE = 0, EV_MATCH = 1, EV_HOLD = 2 };

typedef struct event {
    int kind;
    size_t s, e; /* buffer offsets; s only for EV_HOLD */
    long alt;
} event;

/* The first exact-string event at or after `at` in b[0, lim): the longest
 * string matching at the leftmost position, or the position where more
 * bytes are needed to decide. */
static event lit_next(const pii_deny *d, const uint8_t *b, size_t at, size_t lim, int eod,
                      int doc_start_in_buf)
{
    event ev = {EV_NONE, lim, lim, -1};
    if (!d->node)
        return ev;
    for (size_t p = at; p < lim; p++) {
        if (!d->first[b[p]])
            continue;
        uint32_t n = 0;
        size_t q = p, best = 0;
        long best_alt = -1;
        int hold = 0;
        while (q < lim) {
            long c = fn_child(d, n, b[q]);
            if (c < 0)
                break;
            n = (uint32_t)c;
            q++;
            if (d->node[n].term) {
                /* a string whose last character is a word character must
                 * not be followed by one */
                int32_t last = cp_before(b, q);
                if (last >= 0 && word_cp(last)) {
                    if (q == lim && !eod) {
                        hold = 1;
                        break;
                    }
                    int32_t nx = q < lim ? cp_at(b, q, lim) : -1;
                    if (nx >= 0 && word_cp(nx))
                        continue;
                }
                best = q;
                best_alt = d->node[n].term - 1;
            }
        }
        if (!hold && q == lim && !eod && d->node[n].nedge)
            hold = 1; /* a longer string might still match */
        if (hold) {
            ev.kind = EV_HOLD;
            ev.s = p;
            return ev;
        }
        if (best_alt < 0)
            continue;
        /* a string whose first character is a word character must not
         * follow one */
        int32_t first = cp_at(b, p, lim);
        int32_t prev = (p == 0 && doc_start_in_buf) ? -1 : cp_before(b, p);
        if (first >= 0 && word_cp(first) && prev >= 0 && word_cp(prev))
            continue;
        ev.kind = EV_MATCH;
        ev.s = p;
        ev.e = best;
        ev.alt = best_alt;
        return ev;
    }
    return ev;
}

/* ---- deny: the detector ---------------------------------------------------- */

typedef struct deny_state {
    const pii_deny *d;
    void *rx; /* regex search state, or NULL */
    uint64_t pos, keep;
} deny_state;

static void deny_close(void *st)
{
    deny_state *s = st;
    if (!s)
        return;
    pii_rx_state_close(s->rx);
    free(s);
}

static void *deny_open(const void *shared, pii_err *err)
{
    const pii_deny *d = shared;
    deny_state *s = calloc(1, sizeof *s);
    pii_err e = PII_ENOMEM;
    if (!s)
        goto fail;
    s->d = d;
    if (d->rx.code && !(s->rx = pii_rx_state_open(&d->rx, &e)))
        goto fail;
    if (err)
        *err = PII_OK;
    return s;
fail:
    deny_close(s);
    if (err)
        *err = e;
    return NULL;
}

static void deny_reset(void *st)
{
    deny_state *s = st;
    s->pos = s->keep = 0;
}

static pii_err deny_scan(void *st, const uint8_t *buf, size_t len, uint64_t base, int eod,
                         pii_spanvec *out, uint64_t *done, uint64_t *keep)
{
    deny_state *s = st;
    const pii_deny *d = s->d;
    uint64_t end = base + len;
    if (base > s->keep || s->pos < s->keep || (len && !buf))
        return PII_EINVAL;
    size_t lim = eod ? len : pii_rx_complete_prefix(buf, len);
    size_t at = (size_t)(s->pos - base);
    if (at > lim)
        at = lim;
    /* Each side's next event, recomputed only when `at` passes it. */
    event L = {EV_NONE, 0, 0, -1}, R = {EV_NONE, 0, 0, -1};
    int have_l = 0, have_r = 0;
    while (at < lim) {
        if (!have_l || (L.kind != EV_NONE && L.s < at)) {
            L = lit_next(d, buf, at, lim, eod, base == 0);
            have_l = 1;
        }
        if (!have_r || (R.kind != EV_NONE && R.s < at)) {
            R.kind = EV_NONE;
            if (s->rx) {
                pii_err e;
                int k = pii_rx_step(s->rx, buf, lim, at, eod, &R.s, &R.e, &R.alt, &e);
                if (k < 0)
                    return e;
                R.kind = k;
            }
            have_r = 1;
        }
        size_t ls = L.kind ? L.s : SIZE_MAX, rs = R.kind ? R.s : SIZE_MAX;
        if (ls == SIZE_MAX && rs == SIZE_MAX) {
            at = lim;
            break;
        }
        /* The leftmost event wins; at the same position an exact string
         * (decided or not) goes before a regex. */
        const event *w = (ls <= rs) ? &L : &R;
        if (w->kind == EV_HOLD) {
            at = w->s;
            break;
        }
        pii_span sp = {.start = base + w->s,
                       .end = base + w->e,
                       .label = d->alts[w->alt].label,
                       .rule = d->alts[w->alt].id,
                       .score = 1.0f,
                       .source = PII_SRC_DENY};
        pii_err e = pii_spanvec_push(out, &sp);
        if (e != PII_OK)
            return e;
        at = w->e;
    }
    s->pos = base + at;
    if (eod) {
        *done = *keep = s->keep = end;
        return PII_OK;
    }
    uint64_t k = s->pos > d->ctx ? s->pos - d->ctx : 0;
    if (k < s->keep)
        k = s->keep;
    s->keep = k;
    *done = s->pos;
    *keep = k;
    if (end - k > PII_RX_MAX_HOLD)
        return PII_ETOOBIG;
    return PII_OK;
}

static const pii_detector_class deny_class = {
    .name = "deny",
    .open = deny_open,
    .scan = deny_scan,
    .reset = deny_reset,
    .close = deny_close,
};

static long label_index(pii_deny *d, const char *label)
{
    for (size_t i = 0; i < d->nlabels; i++)
        if (strcmp(d->labels[i], label) == 0)
            return (long)i;
    char **v = realloc(d->labels, (d->nlabels + 1) * sizeof *v);
    if (!v)
        return -1;
    d->labels = v;
    if (!(v[d->nlabels] = strdup(label)))
        return -1;
    return (long)d->nlabels++;
}

size_t pii_deny_nlabels(const pii_deny *d)
{
    return d ? d->nlabels : 0;
}

const char *pii_deny_label(const pii_deny *d, size_t i)
{
    return d && i < d->nlabels ? d->labels[i] : NULL;
}

/* Number of code points of valid UTF-8, or -1. */
static long count_cps(const char *s, size_t n)
{
    long k = 0;
    const utf8proc_uint8_t *p = (const utf8proc_uint8_t *)s;
    while (n) {
        utf8proc_int32_t cp;
        utf8proc_ssize_t l = utf8proc_iterate(p, (utf8proc_ssize_t)n, &cp);
        if (l <= 0)
            return -1;
        k++;
        p += l;
        n -= (size_t)l;
    }
    return k;
}

pii_deny *pii_deny_load(const char *path, pii_err *err, char *msg, size_t msgcap)
{
    char dummy[1];
    if (!msg || !msgcap) {
        msg = dummy;
        msgcap = sizeof dummy;
    }
    msg[0] = 0;
    entries es = {0};
    btrie t = {0};
    sbuf pat = {0};
    long *lab = NULL;
    pii_err e = PII_ENOMEM;
    pii_deny *d = calloc(1, sizeof *d);
    if (!d)
        goto fail;
    if (!path) {
        e = PII_EINVAL;
        goto fail;
    }
    if ((e = read_entries(path, 1, &es, msg, msgcap)) != PII_OK)
        goto fail;
    e = PII_ENOMEM;
    if (!(lab = calloc(es.n + 1, sizeof *lab)) || bt_node(&t, 0) != 0) /* the root */
        goto fail;
    size_t nlit = 0;
    for (size_t i = 0; i < es.n; i++) {
        const entry *en = &es.v[i];
        if ((lab[i] = label_index(d, en->label ? en->label : "secret")) < 0)
            goto fail;
        if (en->is_re)
            continue;
        long m = count_cps(en->text, en->len);
        if (m < 0 || m > MAX_LITERAL_CPS) {
            snprintf(msg, msgcap, "line %u: %s", en->line,
                     m < 0 ? "not valid UTF-8" : "entry longer than 1024 characters");
            e = PII_EFORMAT;
            goto fail;
        }
        size_t k = 0;
        for (size_t j = 0; j < en->len; j++) {
            uint8_t by = (uint8_t)en->text[j];
            size_t c = t.v[k].child, prev = 0;
            while (c && t.v[c].byte != by) {
                prev = c;
                c = t.v[c].next;
            }
            if (!c) {
                if (!(c = bt_node(&t, by)))
                    goto fail;
                if (prev)
                    t.v[prev].next = c;
                else
                    t.v[k].child = c;
            }
            k = c;
        }
        if (!t.v[k].term) /* the first entry of a string decides its label */
            t.v[k].term = (int)(2 * lab[i]) + 1;
        if (en->len > d->maxlit)
            d->maxlit = en->len;
        nlit++;
    }
    if (nlit && !bt_freeze(d, &t))
        goto fail;
    /* The regexes, in file order, as one alternation. */
    int any = 0;
    for (size_t i = 0; i < es.n; i++) {
        const entry *en = &es.v[i];
        if (!en->is_re)
            continue;
        const char *why = unbounded_reason(en->text, en->len);
        if (why) {
            snprintf(msg, msgcap, "line %u: %s", en->line, why);
            e = PII_EREGEX;
            goto fail;
        }
        pcre2_code *c = compile_user(en, 0, &e, msg, msgcap);
        if (!c)
            goto fail;
        uint32_t minlen = 0;
        pcre2_pattern_info(c, PCRE2_INFO_MINLENGTH, &minlen);
        pcre2_code_free(c);
        if (minlen == 0) {
            snprintf(msg, msgcap, "line %u: the expression can match an empty string", en->line);
            e = PII_EREGEX;
            goto fail;
        }
        char mark[32];
        snprintf(mark, sizeof mark, ")(*:%ld)", 2 * lab[i] + 1);
        if (any)
            sb_str(&pat, "|");
        sb_str(&pat, "(?:");
        sb_add(&pat, en->text, en->len);
        sb_str(&pat, mark);
        any = 1;
    }
    e = PII_ENOMEM;
    if (pat.oom)
        goto fail;
    d->nalt = 2 * d->nlabels;
    if (!(d->alts = calloc(d->nalt + 1, sizeof *d->alts)))
        goto fail;
    for (size_t i = 0; i < d->nlabels; i++) {
        d->alts[2 * i] = (pii_rx_alt){"deny", d->labels[i], NULL, 0, NULL};
        d->alts[2 * i + 1] = (pii_rx_alt){"deny_re", d->labels[i], NULL, 0, NULL};
    }
    d->ctx = 8;
    if (any) {
        char cmsg[200] = "";
        e = pii_rx_compile(&d->rx, pat.p, 0, 1, 0, cmsg, sizeof cmsg);
        if (e != PII_OK) {
            snprintf(msg, msgcap, "the regular expressions do not compile as one pattern: %s",
                     cmsg);
            goto fail;
        }
        d->rx.alts = d->alts;
        d->rx.nalt = d->nalt;
        d->rx.max_hold = PII_RX_MAX_HOLD;
        d->rx.source = PII_SRC_DENY;
        if (d->rx.ctx > d->ctx)
            d->ctx = d->rx.ctx;
    }
    free(lab);
    entries_free(&es);
    free(t.v);
    free(pat.p);
    if (err)
        *err = PII_OK;
    return d;
fail:
    free(lab);
    entries_free(&es);
    free(t.v);
    free(pat.p);
    pii_deny_free(d);
    if (err)
        *err = e;
    return NULL;
}

void pii_deny_free(pii_deny *d)
{
    if (!d)
        return;
    pii_rx_destroy(&d->rx);
    for (size_t i = 0; i < d->nlabels; i++)
        free(d->labels[i]);
    free(d->labels);
    free(d->alts);
    free(d->node);
    free(d->edge);
    free(d);
}

pii_detector pii_deny_detector(const pii_deny *d)
{
    pii_detector x = {&deny_class, d};
    return x;
}

pii_err pii_deny_scan_all(const pii_deny *d, const uint8_t *text, size_t len, pii_spanvec *out)
{
    if (!d || !out || (len && !text))
        return PII_EINVAL;
    pii_err e = PII_OK;
    void *st = deny_open(d, &e);
    if (!st)
        return e;
    uint64_t done, keep;
    e = deny_scan(st, text, len, 0, 1, out, &done, &keep);
    deny_close(st);
    return e;
}
