/* custom_rules.c — named custom rules of a project; see pii_custom.h.
 *
 * Each rule is compiled into its own pii_rx (rx.h) as "(?:RE)(*:0)", with
 * the validator as callout 1, so its search is exactly the rule tier's.
 * The detector opens one rx state per rule, runs each over the stream's
 * buffer and filters the spans it reports (allow list, entropy, keywords).
 * done is the least of the rules' done; keep the least of their keep and of
 * done - context, so the bytes a keyword may sit in are still in view when
 * a later span is reported. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <fnmatch.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pii_custom.h"
#include "rx.h"
#include "validators.h"

#define MAX_FILE (1u << 20)
#define MAX_CONTEXT 4096
#define DEFAULT_CONTEXT 64

typedef struct crule {
    char *id, *label, *about, *regex;
    pii_rx_alt alt;
    pii_rx rx;
    int compiled;
    uint32_t group;
    char **keywords; /* lower-case ASCII */
    size_t nkeywords;
    size_t context;
    double entropy;
    char **paths; /* globs; none: every input */
    size_t npaths;
    char **allow; /* exact values */
    size_t nallow;
    pcre2_code **allow_re;
    size_t nallow_re;
    int seen[16];                           /* keys given (key_index) */
    size_t id_line, regex_line, group_line; /* where they are */
} crule;

struct pii_custom {
    crule *r;
    size_t n;
    pii_rule_info *info;
};

/* ---- validators --------------------------------------------------------- */

/* The digits of the span (spaces, '-' and '.' between them ignored) pass
 * the Luhn check; at least two digits, nothing else. */
static int check_luhn(const uint8_t *p, size_t n)
{
    char d[64];
    size_t nd = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] >= '0' && p[i] <= '9') {
            if (nd == sizeof d)
                return 0;
            d[nd++] = (char)p[i];
        } else if (p[i] != ' ' && p[i] != '-' && p[i] != '.') {
            return 0;
        }
    }
    return nd >= 2 && pii_val_luhn(d, nd);
}

static const struct {
    const char *name;
    pii_rx_check check;
} validators[] = {
    {"none", NULL},
    {"luhn", check_luhn},
    {"card", pii_val_card},
    {"iban", pii_val_iban},
};

/* ---- loading ------------------------------------------------------------ */

static const char *const keys[] = {"description", "label",   "regex",   "group",
                                   "keywords",    "context", "entropy", "validator",
                                   "allow",       "paths",   NULL};

static int key_index(const char *k)
{
    for (int i = 0; keys[i]; i++)
        if (!strcmp(keys[i], k))
            return i;
    return -1;
}

static void rule_free(crule *r)
{
    free(r->id);
    free(r->label);
    free(r->about);
    free(r->regex);
    if (r->compiled)
        pii_rx_destroy(&r->rx);
    for (size_t i = 0; i < r->nkeywords; i++)
        free(r->keywords[i]);
    free(r->keywords);
    for (size_t i = 0; i < r->nallow; i++)
        free(r->allow[i]);
    free(r->allow);
    for (size_t i = 0; i < r->npaths; i++)
        free(r->paths[i]);
    free(r->paths);
    for (size_t i = 0; i < r->nallow_re; i++)
        pcre2_code_free(r->allow_re[i]);
    free(r->allow_re);
}

void pii_custom_free(pii_custom *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n; i++)
        rule_free(&c->r[i]);
    free(c->r);
    free(c->info);
    free(c);
}

static int name_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 64)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '_' || *s == '.' || *s == '-'))
            return 0;
    return 1;
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        s[--n] = '\0';
    return s;
}

static int push_str(char ***v, size_t *n, const char *s)
{
    char **nv = realloc(*v, (*n + 1) * sizeof *nv);
    if (!nv)
        return -1;
    *v = nv;
    if (!(nv[*n] = strdup(s)))
        return -1;
    (*n)++;
    return 0;
}

typedef struct perr {
    pii_err e;
    char *msg;
    size_t cap;
    size_t line; /* the line of the error (finish: not the current one) */
} perr;

static pii_err fail(perr *p, pii_err e, const char *fmt, const char *arg)
{
    p->e = e;
    if (p->msg && p->cap)
        snprintf(p->msg, p->cap, fmt, arg);
    return e;
}

static pii_err parse_num(perr *p, const char *key, const char *v, double lo, double hi, double *out)
{
    char *end;
    double x = strtod(v, &end);
    if (end == v || *end || !(x >= lo && x <= hi)) {
        char m[96];
        snprintf(m, sizeof m, "%s: '%%.40s' is not a number from %g to %g", key, lo, hi);
        return fail(p, PII_EFORMAT, m, v);
    }
    *out = x;
    return PII_OK;
}

/* One "key = value" line of rule r. */
static pii_err set_key(perr *p, crule *r, const char *key, char *val)
{
    int k = key_index(key);
    if (k < 0)
        return fail(p, PII_EFORMAT,
                    "unknown key '%.64s' (description, label, regex, group, keywords, "
                    "context, entropy, validator, allow, paths)",
                    key);
    if (r->seen[k] && strcmp(key, "allow"))
        return fail(p, PII_EFORMAT, "'%s' given twice in one rule", key);
    r->seen[k] = 1;
    double x;
    if (!strcmp(key, "description")) {
        if (!(r->about = strdup(val)))
            return fail(p, PII_ENOMEM, "%s", "out of memory");
    } else if (!strcmp(key, "label")) {
        if (!name_ok(val))
            return fail(p, PII_EFORMAT, "label '%.64s': want [A-Za-z0-9_.-]{1,64}", val);
        if (!(r->label = strdup(val)))
            return fail(p, PII_ENOMEM, "%s", "out of memory");
    } else if (!strcmp(key, "regex")) {
        if (!*val)
            return fail(p, PII_EFORMAT, "%s", "empty regex");
        if (!(r->regex = strdup(val)))
            return fail(p, PII_ENOMEM, "%s", "out of memory");
    } else if (!strcmp(key, "group")) {
        if (parse_num(p, key, val, 0, 99, &x) || x != (double)(uint32_t)x)
            return fail(p, PII_EFORMAT, "group: '%.40s' is not a whole number from 0 to 99", val);
        r->group = (uint32_t)x;
    } else if (!strcmp(key, "paths")) {
        for (char *q = val, *comma; q; q = comma ? comma + 1 : NULL) {
            comma = strchr(q, ',');
            if (comma)
                *comma = '\0';
            char *g = trim(q);
            if (!*g)
                return fail(p, PII_EFORMAT, "%s", "paths: an empty glob");
            if (push_str(&r->paths, &r->npaths, g))
                return fail(p, PII_ENOMEM, "%s", "out of memory");
        }
    } else if (!strcmp(key, "keywords")) {
        for (char *s = val, *comma; s; s = comma ? comma + 1 : NULL) {
            comma = strchr(s, ',');
            if (comma)
                *comma = '\0';
            char *w = trim(s);
            if (!*w)
                return fail(p, PII_EFORMAT, "%s", "keywords: an empty keyword");
            for (char *q = w; *q; q++)
                if (*q >= 'A' && *q <= 'Z')
                    *q = (char)(*q - 'A' + 'a');
            if (push_str(&r->keywords, &r->nkeywords, w))
                return fail(p, PII_ENOMEM, "%s", "out of memory");
        }
    } else if (!strcmp(key, "context")) {
        if (parse_num(p, key, val, 0, MAX_CONTEXT, &x) || x != (double)(size_t)x)
            return fail(p, PII_EFORMAT, "context: '%.40s' is not a whole number from 0 to 4096",
                        val);
        r->context = (size_t)x;
    } else if (!strcmp(key, "entropy")) {
        if (parse_num(p, key, val, 0, 8, &x))
            return p->e;
        r->entropy = x;
    } else if (!strcmp(key, "validator")) {
        size_t i = 0, nv = sizeof validators / sizeof *validators;
        while (i < nv && strcmp(validators[i].name, val))
            i++;
        if (i == nv)
            return fail(p, PII_EFORMAT, "validator '%.40s': want none, luhn, card or iban", val);
        r->alt.check = validators[i].check;
    } else { /* allow */
        if (!strncmp(val, "re:", 3)) {
            int ec;
            PCRE2_SIZE eo;
            pcre2_code *c = pcre2_compile((PCRE2_SPTR)(val + 3), PCRE2_ZERO_TERMINATED,
                                          PCRE2_UTF | PCRE2_MATCH_INVALID_UTF, &ec, &eo, NULL);
            if (!c) {
                char m[160];
                pcre2_get_error_message(ec, (PCRE2_UCHAR *)m, sizeof m);
                return fail(p, PII_EREGEX, "allow: %s", m);
            }
            pcre2_code **v = realloc(r->allow_re, (r->nallow_re + 1) * sizeof *v);
            if (!v) {
                pcre2_code_free(c);
                return fail(p, PII_ENOMEM, "%s", "out of memory");
            }
            r->allow_re = v;
            v[r->nallow_re++] = c;
        } else if (!*val) {
            return fail(p, PII_EFORMAT, "%s", "allow: an empty value");
        } else if (push_str(&r->allow, &r->nallow, val)) {
            return fail(p, PII_ENOMEM, "%s", "out of memory");
        }
    }
    return PII_OK;
}

/* Compiles a complete rule. */
static pii_err finish(perr *p, crule *r)
{
    p->line = r->id_line;
    if (!r->label)
        return fail(p, PII_EFORMAT, "rule '%s' has no label", r->id);
    if (!r->regex)
        return fail(p, PII_EFORMAT, "rule '%s' has no regex", r->id);
    p->line = r->regex_line;
    size_t need = strlen(r->regex) + 32;
    char *pat = malloc(need), cmsg[192] = "";
    if (!pat)
        return fail(p, PII_ENOMEM, "%s", "out of memory");
    snprintf(pat, need, "(?:%s)(*:0)%s", r->regex, r->alt.check ? "(?C1)" : "");
    pii_err e = pii_rx_compile(&r->rx, pat, 0, 1, 0, cmsg, sizeof cmsg);
    free(pat);
    if (e)
        return fail(p, e, "regex: %s", cmsg);
    r->compiled = 1;
    uint32_t ng = 0, minlen = 0;
    pcre2_pattern_info((const pcre2_code *)r->rx.code, PCRE2_INFO_CAPTURECOUNT, &ng);
    pcre2_pattern_info((const pcre2_code *)r->rx.code, PCRE2_INFO_MINLENGTH, &minlen);
    if (minlen == 0)
        return fail(p, PII_EFORMAT, "rule '%s': the regex can match an empty string", r->id);
    if (r->group > ng) {
        p->line = r->group_line;
        return fail(p, PII_EFORMAT, "rule '%s': group is past the regex's capture groups", r->id);
    }
    r->alt.id = r->id;
    r->alt.label = r->label;
    r->alt.vgroup = r->group;
    r->rx.alts = &r->alt;
    r->rx.nalt = 1;
    r->rx.max_hold = PII_RX_MAX_HOLD;
    r->rx.source = PII_SRC_RULE;
    r->rx.prefilter = NULL;
    return PII_OK;
}

pii_custom *pii_custom_parse(const char *text, size_t len, pii_err *err, size_t *line, char *msg,
                             size_t msgcap)
{
    perr p = {PII_OK, msg, msgcap, 0};
    pii_custom *c = calloc(1, sizeof *c);
    char *buf = malloc(len + 1);
    size_t lineno = 0;
    crule *cur = NULL;
    if (msg && msgcap)
        msg[0] = '\0';
    if (!c || !buf || !(c->r = calloc(PII_CUSTOM_MAX_RULES, sizeof *c->r))) {
        fail(&p, PII_ENOMEM, "%s", "out of memory");
        goto out;
    }
    if (len > MAX_FILE) {
        fail(&p, PII_ETOOBIG, "%s", "the file is larger than 1 MiB");
        goto out;
    }
    memcpy(buf, text, len);
    buf[len] = '\0';
    if (memchr(buf, '\0', len)) {
        fail(&p, PII_EFORMAT, "%s", "a NUL byte: not a text file");
        goto out;
    }
    for (char *s = buf, *nl; s && *s; s = nl ? nl + 1 : NULL) {
        nl = strchr(s, '\n');
        if (nl)
            *nl = '\0';
        lineno++;
        char *t = trim(s);
        if (!*t || *t == '#' || *t == ';')
            continue;
        if (*t == '[') {
            size_t n = strlen(t);
            if (t[n - 1] != ']') {
                fail(&p, PII_EFORMAT, "%s", "a section line is [RULE_ID]");
                goto out;
            }
            t[n - 1] = '\0';
            char *id = trim(t + 1);
            if (!name_ok(id)) {
                fail(&p, PII_EFORMAT, "rule id '%.64s': want [A-Za-z0-9_.-]{1,64}", id);
                goto out;
            }
            if (cur && finish(&p, cur)) {
                lineno = p.line;
                goto out;
            }
            for (size_t i = 0; i < c->n; i++)
                if (!strcmp(c->r[i].id, id)) {
                    fail(&p, PII_EFORMAT, "rule id '%s' used twice", id);
                    goto out;
                }
            if (c->n == PII_CUSTOM_MAX_RULES) {
                fail(&p, PII_ETOOBIG, "%s", "more than 256 rules");
                goto out;
            }
            cur = &c->r[c->n++];
            cur->context = DEFAULT_CONTEXT;
            cur->id_line = lineno;
            if (!(cur->id = strdup(id))) {
                fail(&p, PII_ENOMEM, "%s", "out of memory");
                goto out;
            }
            continue;
        }
        char *eq = strchr(t, '=');
        if (!eq) {
            fail(&p, PII_EFORMAT, "%s", "want KEY = VALUE or [RULE_ID]");
            goto out;
        }
        *eq = '\0';
        char *key = trim(t), *val = trim(eq + 1);
        if (!cur) {
            fail(&p, PII_EFORMAT, "'%.64s' before the first [RULE_ID]", key);
            goto out;
        }
        if (!strcmp(key, "regex"))
            cur->regex_line = lineno;
        if (!strcmp(key, "group"))
            cur->group_line = lineno;
        if (set_key(&p, cur, key, val))
            goto out;
    }
    if (cur && finish(&p, cur)) {
        lineno = p.line;
        goto out;
    }
    if (!(c->info = calloc(c->n ? c->n : 1, sizeof *c->info))) {
        fail(&p, PII_ENOMEM, "%s", "out of memory");
        goto out;
    }
    for (size_t i = 0; i < c->n; i++) {
        c->info[i].id = c->r[i].id;
        c->info[i].label = c->r[i].label;
        c->info[i].about = c->r[i].about ? c->r[i].about : "custom rule";
    }
out:
    free(buf);
    if (line)
        *line = p.e ? lineno : 0;
    if (err)
        *err = p.e;
    if (p.e) {
        pii_custom_free(c);
        return NULL;
    }
    return c;
}

pii_custom *pii_custom_load(const char *path, pii_err *err, size_t *line, char *msg, size_t msgcap)
{
    if (line)
        *line = 0;
    if (msg && msgcap)
        msg[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (err)
            *err = PII_EIO;
        return NULL;
    }
    char *text = malloc(MAX_FILE + 1);
    size_t n = text ? fread(text, 1, MAX_FILE + 1, f) : 0;
    int bad = !text || ferror(f);
    fclose(f);
    if (bad) {
        free(text);
        if (err)
            *err = text ? PII_EIO : PII_ENOMEM;
        return NULL;
    }
    pii_custom *c = pii_custom_parse(text, n, err, line, msg, msgcap);
    free(text);
    return c;
}

size_t pii_custom_count(const pii_custom *c)
{
    return c ? c->n : 0;
}

const pii_rule_info *pii_custom_info(const pii_custom *c, size_t i)
{
    return c && i < c->n ? &c->info[i] : NULL;
}

/* ---- paths ---------------------------------------------------------------- */

/* Whether input (NULL: none) is one of rule r's paths: a glob matches the
 * path (a leading "./" dropped; '*' crosses '/'), and one without '/' also
 * its last component. */
static int path_ok(const crule *r, const char *input)
{
    if (!r->npaths)
        return 1;
    if (!input)
        return 0;
    while (input[0] == '.' && input[1] == '/')
        input += 2;
    const char *base = strrchr(input, '/');
    base = base ? base + 1 : input;
    for (size_t i = 0; i < r->npaths; i++) {
        const char *g = r->paths[i];
        while (g[0] == '.' && g[1] == '/')
            g += 2;
        if (fnmatch(g, input, 0) == 0 || (!strchr(g, '/') && fnmatch(g, base, 0) == 0))
            return 1;
    }
    return 0;
}

int pii_custom_has_paths(const pii_custom *c)
{
    for (size_t i = 0; c && i < c->n; i++)
        if (c->r[i].npaths)
            return 1;
    return 0;
}

int pii_custom_keep_span(void *ud, const pii_span *sp, const char *input)
{
    const pii_custom *c = ud;
    for (size_t i = 0; i < c->n; i++)
        if (sp->rule == c->r[i].id) /* the rule's own id string: its spans */
            return path_ok(&c->r[i], input);
    return 1;
}

/* ---- the detector ------------------------------------------------------- */

typedef struct cstate {
    const pii_custom *c;
    void **rx; /* one rx state per rule */
    uint64_t *done, *keep;
    pii_spanvec tmp;
    pcre2_match_data *md; /* allow regexes */
} cstate;

static void c_close(void *st)
{
    cstate *s = st;
    if (!s)
        return;
    for (size_t i = 0; s->rx && i < s->c->n; i++)
        if (s->rx[i])
            pii_rx_detector_class.close(s->rx[i]);
    free(s->rx);
    free(s->done);
    free(s->keep);
    pii_spanvec_free(&s->tmp);
    pcre2_match_data_free(s->md);
    free(s);
}

static void *c_open(const void *shared, pii_err *err)
{
    const pii_custom *c = shared;
    pii_err e = PII_ENOMEM;
    cstate *s = calloc(1, sizeof *s);
    size_t n = c->n ? c->n : 1;
    if (!s)
        goto fail;
    s->c = c;
    if (!(s->rx = calloc(n, sizeof *s->rx)) || !(s->done = calloc(n, sizeof *s->done)) ||
        !(s->keep = calloc(n, sizeof *s->keep)) || !(s->md = pcre2_match_data_create(1, NULL)))
        goto fail;
    for (size_t i = 0; i < c->n; i++)
        if (!(s->rx[i] = pii_rx_detector_class.open(&c->r[i].rx, &e)))
            goto fail;
    if (err)
        *err = PII_OK;
    return s;
fail:
    c_close(s);
    if (err)
        *err = e;
    return NULL;
}

static void c_reset(void *st)
{
    cstate *s = st;
    for (size_t i = 0; i < s->c->n; i++) {
        pii_rx_detector_class.reset(s->rx[i]);
        s->done[i] = s->keep[i] = 0;
    }
}

static int allowed(cstate *s, const crule *r, const uint8_t *v, size_t n)
{
    for (size_t i = 0; i < r->nallow; i++)
        if (strlen(r->allow[i]) == n && !memcmp(r->allow[i], v, n))
            return 1;
    for (size_t i = 0; i < r->nallow_re; i++)
        if (pcre2_match(r->allow_re[i], v, n, 0, PCRE2_ANCHORED | PCRE2_ENDANCHORED, s->md, NULL) >
            0)
            return 1;
    return 0;
}

/* A keyword in p[0, n), ASCII case-insensitive. */
static int has_keyword(const crule *r, const uint8_t *p, size_t n)
{
    for (size_t k = 0; k < r->nkeywords; k++) {
        const char *w = r->keywords[k];
        size_t m = strlen(w);
        for (size_t i = 0; i + m <= n; i++) {
            size_t j = 0;
            while (j < m) {
                uint8_t b = p[i + j];
                if (b >= 'A' && b <= 'Z')
                    b = (uint8_t)(b - 'A' + 'a');
                if (b != (uint8_t)w[j])
                    break;
                j++;
            }
            if (j == m)
                return 1;
        }
    }
    return 0;
}

static pii_err c_scan(void *st, const uint8_t *buf, size_t len, uint64_t base, int eod,
                      pii_spanvec *out, uint64_t *done, uint64_t *keep)
{
    cstate *s = st;
    uint64_t end = base + len, D = end, K = end;
    for (size_t i = 0; i < s->c->n; i++) {
        const crule *r = &s->c->r[i];
        pii_spanvec_clear(&s->tmp);
        pii_err e = pii_rx_detector_class.scan(s->rx[i], buf, len, base, eod, &s->tmp, &s->done[i],
                                               &s->keep[i]);
        if (e)
            return e;
        for (size_t j = 0; j < s->tmp.n; j++) {
            const pii_span *sp = &s->tmp.v[j];
            const uint8_t *v = buf + (sp->start - base);
            size_t n = (size_t)(sp->end - sp->start);
            if (n == 0 || allowed(s, r, v, n) ||
                (r->entropy > 0 && pii_val_entropy(v, n) < r->entropy))
                continue;
            if (r->nkeywords) {
                /* keep (below) holds `context` bytes before every later
                 * start in view; before offset 0 there is nothing */
                uint64_t from = sp->start > r->context ? sp->start - r->context : 0;
                if (from < base)
                    return PII_EINTERNAL;
                if (!has_keyword(r, buf + (from - base), (size_t)(sp->end - from)))
                    continue;
            }
            if ((e = pii_spanvec_push(out, sp)))
                return e;
        }
        uint64_t d = s->done[i], k = s->keep[i];
        uint64_t kc = d > r->context ? d - r->context : 0;
        if (kc < k)
            k = kc;
        if (d < D)
            D = d;
        if (k < K)
            K = k;
    }
    *done = D;
    *keep = K > D ? D : K;
    return PII_OK;
}

static const pii_detector_class custom_class = {
    .name = "custom rules",
    .open = c_open,
    .scan = c_scan,
    .reset = c_reset,
    .close = c_close,
};

pii_detector pii_custom_detector(const pii_custom *c)
{
    pii_detector d = {&custom_class, c};
    return d;
}
