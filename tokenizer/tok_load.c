/* tok_load.c — vocabularies people bring with their models: Hugging Face
 * tokenizer.json, tiktoken rank files, GGUF token lists.
 *
 * All three end in pii_tok__make (tok_vocab.c), which builds the same table
 * layout as the built-in one.  Every file is treated as hostile: sizes,
 * counts and ids are checked before use, and errors name the file and the
 * place. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <json-c/json.h>

#include "pii_file.h"
#include "pii_json.h"
#include "tok_internal.h"

/* The o200k pre-tokenizer regex, as tiktoken and tokenizer.json spell it. */
static const char o200k_pat[] =
    "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?i:'"
    "s|'t|'re|'ve|'m|'ll|'d)?|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}"
    "\\p{Lm}\\p{Lo}\\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/"
    "]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

/* tokenizer files: the largest real one (o200k tokenizer.json) is 28 MB */
#define MAX_FILE ((size_t)64 << 20)

static pii_err read_file(const char *path, char **out, size_t *len, char *errbuf, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        *out = NULL;
        *len = 0;
        pii_tok__err(errbuf, errlen, "%s: %s", path, strerror(errno));
        return errno == ENOENT ? PII_ENOTFOUND : PII_EIO;
    }
    pii_err e = pii_file_read_all(f, MAX_FILE, out, len);
    fclose(f);
    if (e == PII_ETOOBIG)
        pii_tok__err(errbuf, errlen, "%s: larger than 64 MiB", path);
    else if (e == PII_EIO)
        pii_tok__err(errbuf, errlen, "%s: read error", path);
    return e;
}

/* ---- GPT-2 byte-to-unicode ------------------------------------------------ */

/* Printable bytes map to the code point of the same value; the other 68
 * map to U+0100 + k in byte order.  unicode_byte[cp] = byte + 1, 0 if cp is
 * not an image. */
static void byte_unicode_table(uint16_t unicode_byte[324])
{
    memset(unicode_byte, 0, 324 * sizeof unicode_byte[0]);
    unsigned k = 0;
    for (unsigned b = 0; b < 256; b++) {
        int printable = (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || b >= 0xAE;
        unsigned cp = printable ? b : 256 + k++;
        unicode_byte[cp] = (uint16_t)(b + 1);
    }
}

/* Decodes a byte-level string s[0..n) into out (capacity n); returns the
 * length, or -1 when a character is not an image of a byte. */
static long byte_decode(const uint16_t *ub, const char *s, size_t n, uint8_t *out)
{
    size_t i = 0, o = 0;
    while (i < n) {
        uint32_t cp;
        int k = pii_utf8_decode((const uint8_t *)s + i, n - i, &cp);
        if (k <= 0 || cp >= 324 || !ub[cp])
            return -1;
        out[o++] = (uint8_t)(ub[cp] - 1);
        i += (size_t)k;
    }
    return (long)o;
}

/* ---- token lists ------------------------------------------------------------ */

typedef struct toklist {
    uint8_t **tok; /* [cap] malloc'd bytes or NULL */
    size_t *len;
    size_t n, cap; /* n = max id + 1 */
    tok_special *sp;
    size_t nsp, capsp;
} toklist;

static void toklist_free(toklist *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->tok[i]);
    free(l->tok);
    free(l->len);
    for (size_t i = 0; i < l->nsp; i++)
        free((char *)l->sp[i].name);
    free(l->sp);
}

/* Sets token id to a copy of b[0..n).  PII_EFORMAT when id is taken. */
static pii_err toklist_set(toklist *l, size_t id, const uint8_t *b, size_t n)
{
    if (id >= TOK_MAX_IDS)
        return PII_ERANGE;
    if (id >= l->cap) {
        size_t nc = l->cap ? l->cap : 1024;
        while (nc <= id)
            nc *= 2;
        uint8_t **t = realloc(l->tok, nc * sizeof *t);
        if (!t)
            return PII_ENOMEM;
        l->tok = t;
        size_t *ln = realloc(l->len, nc * sizeof *ln);
        if (!ln)
            return PII_ENOMEM;
        l->len = ln;
        memset(l->tok + l->cap, 0, (nc - l->cap) * sizeof *t);
        memset(l->len + l->cap, 0, (nc - l->cap) * sizeof *ln);
        l->cap = nc;
    }
    if (id < l->n && l->tok[id])
        return PII_EFORMAT;
    if (n == 0)
        return PII_EFORMAT;
    l->tok[id] = malloc(n);
    if (!l->tok[id])
        return PII_ENOMEM;
    memcpy(l->tok[id], b, n);
    l->len[id] = n;
    if (id >= l->n)
        l->n = id + 1;
    return PII_OK;
}

static pii_err toklist_special(toklist *l, size_t id, const char *name, size_t n)
{
    if (id >= TOK_MAX_IDS)
        return PII_ERANGE;
    if (PII_VEC_RESERVE(l->sp, l->capsp, l->nsp + 1))
        return PII_ENOMEM;
    char *c = malloc(n + 1);
    if (!c)
        return PII_ENOMEM;
    memcpy(c, name, n);
    c[n] = 0;
    l->sp[l->nsp++] = (tok_special){(uint32_t)id, (uint32_t)n, c};
    return PII_OK;
}

static pii_err toklist_make(toklist *l, pii_tok **out, const char *what, char *errbuf,
                            size_t errlen)
{
    return pii_tok__make((const uint8_t *const *)l->tok, l->len, l->n, l->sp, l->nsp, out, what,
                         errbuf, errlen);
}

/* ---- Hugging Face tokenizer.json ------------------------------------------------ */

/* Finds a Split pre-tokenizer's regex anywhere under o (Sequence or alone). */
static const char *split_regex(json_object *o)
{
    if (!o)
        return NULL;
    if (json_object_is_type(o, json_type_array)) {
        for (size_t i = 0; i < json_object_array_length(o); i++) {
            const char *r = split_regex(json_object_array_get_idx(o, i));
            if (r)
                return r;
        }
        return NULL;
    }
    if (!json_object_is_type(o, json_type_object))
        return NULL;
    json_object *t, *p, *r;
    if (json_object_object_get_ex(o, "type", &t) && json_object_is_type(t, json_type_string) &&
        strcmp(json_object_get_string(t), "Split") == 0 &&
        json_object_object_get_ex(o, "pattern", &p) && json_object_object_get_ex(p, "Regex", &r) &&
        json_object_is_type(r, json_type_string))
        return json_object_get_string(r);
    json_object *seq;
    if (json_object_object_get_ex(o, "pretokenizers", &seq))
        return split_regex(seq);
    return NULL;
}

/* Bytes of merge i ("A B" or ["A", "B"]) into buf; length or -1. */
static long merge_bytes(const uint16_t *ub, json_object *m, uint8_t *buf, size_t cap)
{
    const char *a, *b;
    size_t la, lb;
    if (json_object_is_type(m, json_type_string)) {
        a = json_object_get_string(m);
        const char *sp = strchr(a, ' ');
        if (!sp)
            return -1;
        la = (size_t)(sp - a);
        b = sp + 1;
        lb = strlen(b);
    } else if (json_object_is_type(m, json_type_array) && json_object_array_length(m) == 2) {
        json_object *x = json_object_array_get_idx(m, 0), *y = json_object_array_get_idx(m, 1);
        if (!json_object_is_type(x, json_type_string) || !json_object_is_type(y, json_type_string))
            return -1;
        a = json_object_get_string(x);
        la = (size_t)json_object_get_string_len(x);
        b = json_object_get_string(y);
        lb = (size_t)json_object_get_string_len(y);
    } else {
        return -1;
    }
    if (la + lb > cap)
        return -1;
    long n1 = byte_decode(ub, a, la, buf);
    if (n1 < 0)
        return -1;
    long n2 = byte_decode(ub, b, lb, buf + n1);
    if (n2 < 0)
        return -1;
    return n1 + n2;
}

pii_err pii_tok_load_hf_json(const char *path, pii_tok **out, char *errbuf, size_t errlen)
{
    if (!out || !path)
        return PII_EINVAL;
    *out = NULL;
    char *text;
    size_t len;
    pii_err err = read_file(path, &text, &len, errbuf, errlen);
    if (err)
        return err;
    char bound[128];
    if ((err = pii_json_check(text, len, &pii_json_tokenizer_limits, bound, sizeof bound))) {
        pii_tok__err(errbuf, errlen, "%s: refused before parsing: %s", path, bound);
        free(text);
        return err;
    }
    json_tokener *jt = json_tokener_new_ex(pii_json_tokenizer_limits.max_depth);
    json_object *root = jt ? json_tokener_parse_ex(jt, text, (int)len) : NULL;
    if (jt && !root && json_tokener_get_error(jt) == json_tokener_success) {
        /* json-c returns no object and no error when an allocation fails */
        pii_tok__err(errbuf, errlen, "%s: out of memory while parsing the JSON", path);
        err = PII_ENOMEM;
    } else if (jt && !root) {
        enum json_tokener_error je = json_tokener_get_error(jt);
        pii_tok__err(errbuf, errlen, "%s: invalid JSON at byte %zu: %s", path,
                     json_tokener_get_parse_end(jt),
                     je == json_tokener_continue ? "truncated" : json_tokener_error_desc(je));
        err = PII_EJSON;
    } else if (!jt) {
        pii_tok__err(errbuf, errlen, "%s: out of memory", path);
        err = PII_ENOMEM;
    }
    json_tokener_free(jt);
    free(text);
    if (err)
        return err;

    uint16_t ub[324];
    byte_unicode_table(ub);
    toklist l = {0};
    json_object *model, *vocab, *x;
    const char *why = NULL;
    if (!json_object_object_get_ex(root, "model", &model) ||
        !json_object_is_type(model, json_type_object)) {
        why = "no \"model\" object";
    } else if (json_object_object_get_ex(model, "type", &x) &&
               (!json_object_is_type(x, json_type_string) ||
                strcmp(json_object_get_string(x), "BPE") != 0)) {
        why = "model.type is not \"BPE\"";
        err = PII_EUNSUPPORTED;
    } else if (!json_object_object_get_ex(model, "vocab", &vocab) ||
               !json_object_is_type(vocab, json_type_object)) {
        why = "no model.vocab object";
    }
    if (!why) {
        json_object *pre = NULL;
        json_object_object_get_ex(root, "pre_tokenizer", &pre);
        const char *re = split_regex(pre);
        if (!re || strcmp(re, o200k_pat) != 0) {
            why = "the pre-tokenizer is not the o200k regex (only o200k-style vocabularies are "
                  "supported)";
            err = PII_EUNSUPPORTED;
        }
    }
    uint8_t *buf = NULL;
    if (!why) {
        json_object_object_foreach(vocab, key, val)
        {
            size_t kl = strlen(key);
            uint8_t *nb = realloc(buf, kl + 1);
            if (!nb) {
                err = PII_ENOMEM;
                break;
            }
            buf = nb;
            long bl = byte_decode(ub, key, kl, buf);
            if (bl <= 0) {
                pii_tok__err(errbuf, errlen, "%s: vocab key is not byte-level (GPT-2 mapping)",
                             path);
                err = PII_EFORMAT;
                break;
            }
            if (!json_object_is_type(val, json_type_int) || json_object_get_int64(val) < 0 ||
                json_object_get_int64(val) >= TOK_MAX_IDS) {
                pii_tok__err(errbuf, errlen, "%s: vocab id out of range (0 to %u)", path,
                             TOK_MAX_IDS - 1);
                err = PII_EFORMAT;
                break;
            }
            int64_t id = json_object_get_int64(val);
            err = toklist_set(&l, (size_t)id, buf, (size_t)bl);
            if (err) {
                if (err == PII_EFORMAT)
                    pii_tok__err(errbuf, errlen, "%s: vocab id %lld is used twice", path,
                                 (long long)id);
                break;
            }
        }
    }
    json_object *added;
    if (!why && !err && json_object_object_get_ex(root, "added_tokens", &added) &&
        json_object_is_type(added, json_type_array)) {
        for (size_t i = 0; i < json_object_array_length(added) && !err; i++) {
            json_object *a = json_object_array_get_idx(added, i), *id, *content;
            if (!json_object_object_get_ex(a, "id", &id) ||
                !json_object_is_type(id, json_type_int) ||
                !json_object_object_get_ex(a, "content", &content) ||
                !json_object_is_type(content, json_type_string) || json_object_get_int64(id) < 0 ||
                json_object_get_int64(id) >= TOK_MAX_IDS) {
                pii_tok__err(errbuf, errlen, "%s: added_tokens[%zu] is malformed", path, i);
                err = PII_EFORMAT;
                break;
            }
            err = toklist_special(&l, (size_t)json_object_get_int64(id),
                                  json_object_get_string(content),
                                  (size_t)json_object_get_string_len(content));
        }
    }
    pii_tok *t = NULL;
    if (!why && !err)
        err = toklist_make(&l, &t, path, errbuf, errlen);
    /* merges must follow the ranks: non-decreasing id of the merged token */
    json_object *merges;
    if (!why && !err && json_object_object_get_ex(model, "merges", &merges) &&
        json_object_is_type(merges, json_type_array)) {
        uint8_t mb[1024];
        int32_t prev = -1;
        for (size_t i = 0; i < json_object_array_length(merges); i++) {
            long n = merge_bytes(ub, json_object_array_get_idx(merges, i), mb, sizeof mb);
            int32_t id = n > 0 ? tok_find(t, mb, (size_t)n) : -1;
            if (id < 0) {
                pii_tok__err(errbuf, errlen, "%s: merges[%zu] does not make a vocab token", path,
                             i);
                err = PII_EFORMAT;
                break;
            }
            if (id < prev) {
                pii_tok__err(errbuf, errlen,
                             "%s: merges[%zu] is out of rank order (ids must be merge ranks)", path,
                             i);
                err = PII_EUNSUPPORTED;
                break;
            }
            prev = id;
        }
    }
    if (why) {
        pii_tok__err(errbuf, errlen, "%s: %s", path, why);
        if (!err)
            err = PII_EFORMAT;
    }
    free(buf);
    toklist_free(&l);
    json_object_put(root);
    if (err) {
        pii_tok_free(t);
        return err;
    }
    *out = t;
    return PII_OK;
}

/* ---- tiktoken rank files ------------------------------------------------------------ */

static int b64val(int c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

/* Standard base64 with optional padding; length or -1. */
static long b64_decode(const char *s, size_t n, uint8_t *out)
{
    while (n && s[n - 1] == '=')
        n--;
    if (n % 4 == 1)
        return -1;
    uint32_t acc = 0;
    int bits = 0;
    long o = 0;
    for (size_t i = 0; i < n; i++) {
        int v = b64val((unsigned char)s[i]);
        if (v < 0)
            return -1;
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (uint8_t)(acc >> bits);
        }
    }
    return o;
}

pii_err pii_tok_load_tiktoken(const char *path, pii_tok **out, char *errbuf, size_t errlen)
{
    if (!out || !path)
        return PII_EINVAL;
    *out = NULL;
    char *text;
    size_t len;
    pii_err err = read_file(path, &text, &len, errbuf, errlen);
    if (err)
        return err;
    toklist l = {0};
    uint8_t *buf = NULL;
    size_t bufcap = 0, lineno = 0;
    char *p = text, *end = text + len;
    while (p < end && !err) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        char *le = nl ? nl : end;
        lineno++;
        if (le > p && le[-1] == '\r')
            le--;
        if (le > p) {
            char *sp = memchr(p, ' ', (size_t)(le - p));
            char *num = sp ? sp + 1 : NULL;
            long long rank = -1;
            if (num && num < le) {
                rank = 0;
                for (char *q = num; q < le; q++) {
                    if (*q < '0' || *q > '9' || rank >= TOK_MAX_IDS) {
                        rank = -1;
                        break;
                    }
                    rank = rank * 10 + (*q - '0');
                }
            }
            size_t bl = sp ? (size_t)(sp - p) : 0;
            if (bl + 1 > bufcap) {
                uint8_t *nb = realloc(buf, bl + 1);
                if (!nb) {
                    err = PII_ENOMEM;
                    break;
                }
                buf = nb;
                bufcap = bl + 1;
            }
            long n = sp ? b64_decode(p, bl, buf) : -1;
            if (rank < 0 || rank >= TOK_MAX_IDS || n <= 0) {
                pii_tok__err(errbuf, errlen,
                             "%s:%zu: expected \"<base64> <rank>\" with a rank below %u", path,
                             lineno, TOK_MAX_IDS);
                err = PII_EFORMAT;
                break;
            }
            err = toklist_set(&l, (size_t)rank, buf, (size_t)n);
            if (err == PII_EFORMAT)
                pii_tok__err(errbuf, errlen, "%s:%zu: rank %lld is used twice", path, lineno, rank);
        }
        p = nl ? nl + 1 : end;
    }
    free(text);
    free(buf);
    pii_tok *t = NULL;
    if (!err)
        err = toklist_make(&l, &t, path, errbuf, errlen);
    toklist_free(&l);
    if (err)
        return err;
    *out = t;
    return PII_OK;
}

/* ---- GGUF token lists ---------------------------------------------------------------- */

pii_err pii_tok_load_gguf_tokens(const char *const *tokens, const size_t *lens,
                                 const int32_t *types, size_t n, pii_tok **out, char *errbuf,
                                 size_t errlen)
{
    if (!out || (n && (!tokens || !lens)))
        return PII_EINVAL;
    *out = NULL;
    if (n > TOK_MAX_IDS)
        return PII_ETOOBIG;
    uint16_t ub[324];
    byte_unicode_table(ub);
    toklist l = {0};
    uint8_t *buf = NULL;
    size_t bufcap = 0;
    pii_err err = PII_OK;
    for (size_t i = 0; i < n && !err; i++) {
        const char *s = tokens[i];
        size_t sl = lens[i];
        if (!s && sl) {
            err = PII_EINVAL;
            break;
        }
        int special;
        if (types) {
            if (types[i] == 3 || types[i] == 4)
                special = 1;
            else if (types[i] == 1)
                special = 0;
            else
                continue; /* unknown, unused, byte tokens */
        } else {
            special = sl > 4 && s[0] == '<' && s[1] == '|' && s[sl - 2] == '|' && s[sl - 1] == '>';
        }
        if (special) {
            err = toklist_special(&l, i, s, sl);
            continue;
        }
        if (sl > bufcap) {
            uint8_t *nb = realloc(buf, sl);
            if (!nb) {
                err = PII_ENOMEM;
                break;
            }
            buf = nb;
            bufcap = sl;
        }
        long bl = byte_decode(ub, s, sl, buf);
        if (bl <= 0) {
            pii_tok__err(errbuf, errlen,
                         "tokenizer.ggml.tokens[%zu] is not a byte-level token (GPT-2 mapping)", i);
            err = PII_EFORMAT;
            break;
        }
        err = toklist_set(&l, i, buf, (size_t)bl);
    }
    free(buf);
    pii_tok *t = NULL;
    if (!err)
        err = toklist_make(&l, &t, "tokenizer.ggml.tokens", errbuf, errlen);
    toklist_free(&l);
    if (err)
        return err;
    *out = t;
    return PII_OK;
}
