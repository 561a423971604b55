/* config.c — the redactor's options as key/value pairs (pii_config.h,
 * piiredact.h): the table of api/include/pii_config.def, pii_config_set's
 * checks, pii_config_parse's shell-like words, and the hash key files. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "piiredact.h"
#include "pii_config.h"
#include "pii_rt.h"

enum {
#define CFG(id, key, arg, kind, def, help) CFG_##id,
#include "config.def"
#undef CFG
    CFG_N
};

static const pii_config_info table[] = {
#define CFG(id, key, arg, kind, def, help)                                                         \
    {key, arg, def, help, ((kind)&PII_CFG_LIST) != 0, ((kind)&PII_CFG_HIDDEN) != 0},
#include "config.def"
#undef CFG
    {NULL, NULL, NULL, NULL, 0, 0},
};
static const int kinds[] = {
#define CFG(id, key, arg, kind, def, help) (kind) & ~PII_CFG_HIDDEN,
#include "config.def"
#undef CFG
};

struct pii_config {
    char *val[CFG_N];   /* PII_CFG_VALUE, PII_CFG_SWITCH ("1"): NULL when unset */
    char **list[CFG_N]; /* PII_CFG_LIST */
    size_t nlist[CFG_N];
    uint8_t *key; /* pii_config_set_key */
    size_t keylen;
    int key_given;  /* a key was given, maybe empty (refused when built) */
    char *key_name; /* what messages call it; NULL: "key" */
    char msg[512];
};

const pii_config_info *pii_config_option(size_t i)
{
    return i < CFG_N ? &table[i] : NULL;
}

static int find(const char *key)
{
    for (int i = 0; key && i < CFG_N; i++)
        if (strcmp(table[i].key, key) == 0)
            return i;
    /* the easy layer's earlier names */
    if (key && strcmp(key, "allow-file") == 0)
        return CFG_ALLOW;
    if (key && strcmp(key, "deny-file") == 0)
        return CFG_DENY;
    return -1;
}

pii_config *pii_config_create(void)
{
    return calloc(1, sizeof(pii_config));
}

static void wipe_key(pii_config *c)
{
    if (c->key) {
        volatile uint8_t *k = c->key;
        for (size_t i = 0; i < c->keylen; i++)
            k[i] = 0;
        free(c->key);
    }
    c->key = NULL;
    c->keylen = 0;
    c->key_given = 0;
    free(c->key_name);
    c->key_name = NULL;
}

static void clear_list(pii_config *c, int i)
{
    for (size_t k = 0; k < c->nlist[i]; k++)
        free(c->list[i][k]);
    free(c->list[i]);
    c->list[i] = NULL;
    c->nlist[i] = 0;
}

void pii_config_free(pii_config *c)
{
    if (!c)
        return;
    for (int i = 0; i < CFG_N; i++) {
        free(c->val[i]);
        clear_list(c, i);
    }
    wipe_key(c);
    free(c);
}

const char *pii_config_message(const pii_config *c)
{
    return c ? c->msg : "";
}

static pii_err say(pii_config *c, pii_err e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static pii_err say(pii_config *c, pii_err e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->msg, sizeof c->msg, fmt, ap);
    va_end(ap);
    return e;
}

/* A decimal count in 1..max (the command's --window, --threads). */
static int count_ok(const char *s, unsigned long max)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    return !(errno || end == s || *end || s[0] == '-' || v == 0 || v > max);
}

/* The value checks that need no model: the messages are the command's. */
static pii_err check(pii_config *c, int i, const char *v)
{
    pii_rt_qact a;
    pii_rt_isa isa;
    switch (i) {
    case CFG_WINDOW:
    case CFG_PACK:
        if (!count_ok(v, 1ul << 24))
            return say(c, PII_EINVAL, "--%s: '%s' is not a number in 1..%lu", table[i].key, v,
                       1ul << 24);
        break;
    case CFG_THREADS:
        if (!count_ok(v, 1024))
            return say(c, PII_EINVAL, "--threads: '%s' is not a number in 1..1024", v);
        break;
    case CFG_ACT:
        if (pii_rt_qact_parse(v, &a) != PII_OK)
            return say(c, PII_EINVAL, "unknown activation mode '%s' (int16, int16+8 or int8)", v);
        break;
    case CFG_ATTN:
        if (strcmp(v, "auto") && strcmp(v, "int16") && strcmp(v, "f32"))
            return say(c, PII_EINVAL, "unknown attention mode '%s' (auto, int16 or f32)", v);
        break;
    case CFG_DECODE:
        if (strcmp(v, "viterbi") && strcmp(v, "argmax"))
            return say(c, PII_EINVAL, "--decode: '%s' is not viterbi or argmax", v);
        break;
    case CFG_ISA:
        if (pii_rt_isa_parse(v, &isa) != PII_OK || isa > pii_rt_isa_detect())
            return say(c, PII_EINVAL, "isa: '%s' is not scalar, avx2 or avx512 of this CPU", v);
        break;
    case CFG_THRESHOLD:
    case CFG_BIAS: { /* the syntax; labels are resolved when built */
        pii_ner_params np = pii_ner_default_params();
        if (i == CFG_THRESHOLD && pii_ner_params_threshold(&np, v))
            return say(c, PII_EINVAL, "--threshold: bad value '%s' (X or LABEL=X, 0 <= X <= 1)", v);
        if (i == CFG_BIAS && pii_ner_params_bias(&np, v))
            return say(c, PII_EINVAL, "--bias: bad value '%s' (KEY=VALUE)", v);
        break;
    }
    case CFG_OPERATING_POINT:
        if (strlen(v) >= sizeof(((pii_ner_params *)0)->operating_point))
            return say(c, PII_EINVAL, "--operating-point: name too long");
        break;
    default:
        break;
    }
    return PII_OK;
}

pii_err pii_config_set(pii_config *c, const char *key, const char *value)
{
    if (!c || !key)
        return PII_EINVAL;
    c->msg[0] = 0;
    int i = find(key);
    if (i < 0)
        return say(c, PII_EINVAL, "unknown option '--%s'", key);
    if (kinds[i] == PII_CFG_SWITCH) {
        int on;
        if (!value || !strcmp(value, "") || !strcmp(value, "1") || !strcmp(value, "true") ||
            !strcmp(value, "yes"))
            on = 1;
        else if (!strcmp(value, "0") || !strcmp(value, "false") || !strcmp(value, "no"))
            on = 0;
        else
            return say(c, PII_EINVAL, "--%s: '%s' is not true or false", key, value);
        free(c->val[i]);
        c->val[i] = on ? strdup("1") : NULL;
        return on && !c->val[i] ? PII_ENOMEM : PII_OK;
    }
    if (!value) { /* back to the default */
        free(c->val[i]);
        c->val[i] = NULL;
        clear_list(c, i);
        return PII_OK;
    }
    pii_err e = check(c, i, value);
    if (e)
        return e;
    char *copy = strdup(value);
    if (!copy)
        return PII_ENOMEM;
    if (kinds[i] == PII_CFG_LIST) {
        char **v = realloc(c->list[i], (c->nlist[i] + 1) * sizeof *v);
        if (!v) {
            free(copy);
            return PII_ENOMEM;
        }
        v[c->nlist[i]++] = copy;
        c->list[i] = v;
    } else {
        free(c->val[i]);
        c->val[i] = copy;
    }
    return PII_OK;
}

pii_err pii_config_set_key(pii_config *c, const void *key, size_t len)
{
    if (!c || (!key && len))
        return PII_EINVAL;
    wipe_key(c);
    if (!len)
        return PII_OK;
    return pii_config_set_key_named(c, key, len, NULL);
}

pii_err pii_config_set_key_named(pii_config *c, const void *key, size_t len, const char *name)
{
    if (!c || (!key && len))
        return PII_EINVAL;
    wipe_key(c);
    c->key_given = 1;
    if ((len && !(c->key = malloc(len))) || (name && !(c->key_name = strdup(name)))) {
        wipe_key(c);
        return PII_ENOMEM;
    }
    if (len)
        memcpy(c->key, key, len);
    c->keylen = len;
    return PII_OK;
}

const char *pii_config_get(const pii_config *c, const char *key)
{
    int i = find(key);
    if (!c || i < 0)
        return NULL;
    return kinds[i] == PII_CFG_LIST ? (c->nlist[i] ? c->list[i][c->nlist[i] - 1] : NULL)
                                    : c->val[i];
}

const char *const *pii_config_list(const pii_config *c, const char *key, size_t *n)
{
    int i = find(key);
    *n = 0;
    if (!c || i < 0 || kinds[i] != PII_CFG_LIST)
        return NULL;
    *n = c->nlist[i];
    return (const char *const *)c->list[i];
}

const uint8_t *pii_config_key_bytes(const pii_config *c, size_t *n, const char **name)
{
    *n = c->keylen;
    *name = c->key_name ? c->key_name : "key";
    return c->key_given ? (c->key ? c->key : (const uint8_t *)"") : NULL;
}

/* ---- option strings ------------------------------------------------------ */

/* The next word of *s as a POSIX shell reads it without expansions: blanks
 * separate words; '...' keeps every byte; "..." keeps every byte but a
 * backslash before " \ $ ` or newline; outside quotes a backslash keeps the
 * next byte.  Writes it (NUL-terminated) into out, which has room for
 * strlen(*s) + 1.  1: a word; 0: none left; -1: an unterminated quote or
 * a final backslash. */
static int next_word(const char **s, char *out)
{
    const char *p = *s;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    if (!*p) {
        *s = p;
        return 0;
    }
    size_t n = 0;
    while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') {
        if (*p == '\'') {
            const char *q = strchr(p + 1, '\'');
            if (!q)
                return -1;
            memcpy(out + n, p + 1, (size_t)(q - p - 1));
            n += (size_t)(q - p - 1);
            p = q + 1;
        } else if (*p == '"') {
            for (p++; *p != '"'; p++) {
                if (!*p)
                    return -1;
                if (*p == '\\' && p[1] && strchr("\"\\$`\n", p[1]))
                    p++;
                out[n++] = *p;
            }
            p++;
        } else if (*p == '\\') {
            if (!p[1])
                return -1;
            out[n++] = p[1];
            p += 2;
        } else {
            out[n++] = *p++;
        }
    }
    out[n] = 0;
    *s = p;
    return 1;
}

pii_err pii_config_parse(pii_config *c, const char *args)
{
    if (!c)
        return PII_EINVAL;
    c->msg[0] = 0;
    if (!args)
        return PII_OK;
    size_t len = strlen(args);
    char *w = malloc(len + 1), *v = malloc(len + 1);
    pii_err e = w && v ? PII_OK : PII_ENOMEM;
    const char *s = args;
    int r;
    while (!e && (r = next_word(&s, w)) != 0) {
        if (r < 0) {
            e = say(c, PII_EINVAL, "unterminated quote or final backslash in the options");
            break;
        }
        const char *name, *val = NULL;
        char *eq;
        if (strcmp(w, "-m") == 0) {
            name = "model";
        } else if (strncmp(w, "-m", 2) == 0) {
            name = "model", val = w + 2;
        } else if (strncmp(w, "--", 2) == 0 && w[2]) {
            name = w + 2;
            if ((eq = strchr(w, '=')))
                *eq = 0, val = eq + 1;
        } else {
            e = say(c, PII_EINVAL, "unknown option '%s'", w);
            break;
        }
        int i = find(name);
        if (i < 0 || table[i].hidden) {
            e = say(c, PII_EINVAL, "unknown option '%s'", w);
            break;
        }
        if (kinds[i] == PII_CFG_SWITCH) {
            if (val) {
                e = say(c, PII_EINVAL, "option '--%s' takes no argument", table[i].key);
                break;
            }
            e = pii_config_set(c, table[i].key, "1");
            continue;
        }
        if (!val) {
            if ((r = next_word(&s, v)) <= 0) {
                e = say(c, PII_EINVAL,
                        r < 0 ? "unterminated quote or final backslash in the options"
                              : "option '--%s' needs a value",
                        table[i].key);
                break;
            }
            val = v;
        }
        e = pii_config_set(c, table[i].key, val);
    }
    free(w);
    free(v);
    return e;
}

/* ---- hash keys ----------------------------------------------------------- */

static void put(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void put(char *buf, size_t cap, const char *fmt, ...)
{
    if (buf && cap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(buf, cap, fmt, ap);
        va_end(ap);
    }
}

pii_err pii_key_check(const char *src, size_t n, char *msg, size_t cap, char *warn, size_t wcap)
{
    put(warn, wcap, "%s", "");
    if (n == 0) {
        put(msg, cap, "the hash key is empty");
        return PII_EINVAL;
    }
    if (n > PII_KEY_MAX) {
        put(msg, cap, "%s: the hash key is longer than %d bytes", src, PII_KEY_MAX);
        return PII_EINVAL;
    }
    if (n < PII_KEY_MIN) {
        put(msg, cap,
            "%s: the hash key has %zu bytes; at least %d random bytes are needed (a short key is "
            "found by brute force): head -c 32 /dev/urandom >KEYFILE",
            src, n, PII_KEY_MIN);
        return PII_EINVAL;
    }
    if (n < PII_KEY_GOOD)
        put(warn, wcap, "warning: %s: the hash key has %zu bytes; use %d or more random bytes", src,
            n, PII_KEY_GOOD);
    return PII_OK;
}

pii_err pii_key_load(const char *path, uint8_t key[PII_KEY_BUF], size_t *out_n, char *msg,
                     size_t cap, char *warn, size_t wcap)
{
    size_t n = 0;
    *out_n = 0;
    put(warn, wcap, "%s", "");
    /* O_NONBLOCK: a FIFO named as the key file must not hang in open() */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        put(msg, cap, "%s: %s", path, strerror(errno));
        return PII_EIO;
    }
    struct stat st;
    memset(&st, 0, sizeof st);
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (st.st_mode & 077)) {
        int reg = S_ISREG(st.st_mode);
        close(fd);
        put(msg, cap, "%s: %s", path,
            reg ? "key file is accessible by group or others; run chmod 600 on it"
                : "the key file must be a regular file");
        return PII_EINVAL;
    }
    ssize_t r = 0;
    while (n < PII_KEY_BUF &&
           ((r = read(fd, key + n, PII_KEY_BUF - n)) > 0 || (r < 0 && errno == EINTR)))
        n += r > 0 ? (size_t)r : 0;
    close(fd);
    if (r < 0) {
        put(msg, cap, "%s: unreadable: %s", path, strerror(errno));
        memset(key, 0, PII_KEY_BUF);
        return PII_EIO;
    }
    while (n && (key[n - 1] == '\n' || key[n - 1] == '\r'))
        n--;
    pii_err e = pii_key_check(path, n, msg, cap, warn, wcap);
    if (e) {
        memset(key, 0, PII_KEY_BUF);
        return e;
    }
    *out_n = n;
    return PII_OK;
}
