/* cmd_tokenize.c — `pii-redact tokenize`: prints o200k token ids.
 *
 *   pii-redact tokenize [FILE]          ids of the whole input, space-separated
 *   pii-redact tokenize --jsonl [FILE]  one {"ids":[...],"offsets":[[s,e],...]}
 *                                       line per {"text": ...} input line
 *
 * The built-in o200k_base vocabulary is used unless --tokenizer names a
 * tokenizer.json or tiktoken rank file. */
#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pii_file.h"
#include "pii_tok.h"

/* The option table (cli.h): getopt's tables and --help come from it;
 * tok_flags[k] is option T_FIRST + k. */
enum { T_FIRST = 256, T_JSONL = T_FIRST, T_CHARS, T_TOKENIZER, T_HELP, T_END };
static const pii_flag tok_flags[] = {
    [T_JSONL - T_FIRST] = {"jsonl", 0, NULL,
                           "read JSON Lines objects with a \"text\" string and write one line "
                           "per object: {\"ids\":[...],\"offsets\":[[s,e],...]} with UTF-8 byte "
                           "offsets [s,e) that tile the text"},
    [T_CHARS - T_FIRST] = {"chars", 0, NULL,
                           "with --jsonl: character (code point) offsets, widened to whole "
                           "characters where a token splits one"},
    [T_TOKENIZER - T_FIRST] = {"tokenizer", 't', "FILE",
                               "vocabulary from FILE: a Hugging Face tokenizer.json (name ends in "
                               ".json) or a tiktoken rank file"},
    [T_HELP - T_FIRST] = {"help", 'h', NULL, "show this help and exit"},
};
enum { T_NFLAGS = T_END - T_FIRST };
_Static_assert(sizeof tok_flags / sizeof tok_flags[0] == T_NFLAGS, "one entry per option id");

static void tok_usage(FILE *fp)
{
    pii_cli_usage(fp, "pii-redact tokenize [OPTIONS] [FILE]",
                  "Reads all of FILE (default: standard input) and prints its o200k_base token\n"
                  "ids separated by spaces, then a newline.  Input is bytes: invalid UTF-8 is\n"
                  "encoded byte by byte, and special-token text such as <|endoftext|> is plain\n"
                  "text.",
                  tok_flags, T_NFLAGS, NULL);
}

/* ---- output ---------------------------------------------------------------- */

typedef struct outbuf {
    char b[1 << 16];
    size_t n;
    int err;
} outbuf;

static void ob_flush(outbuf *o)
{
    if (o->n && fwrite(o->b, 1, o->n, stdout) != o->n)
        o->err = 1;
    o->n = 0;
}

static void ob_put(outbuf *o, const char *s, size_t n)
{
    if (o->n + n > sizeof o->b)
        ob_flush(o);
    memcpy(o->b + o->n, s, n);
    o->n += n;
}

static void ob_num(outbuf *o, size_t v)
{
    char t[24];
    size_t i = sizeof t;
    do {
        t[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    ob_put(o, t + i, sizeof t - i);
}

/* ---- input ------------------------------------------------------------------ */

/* All of f (pii_file.h): 0, -1 out of memory, -2 a read error. */
static int read_all(FILE *f, char **out, size_t *len)
{
    pii_err e = pii_file_read_all(f, SIZE_MAX, out, len);
    return e == PII_EIO ? -2 : e ? -1 : 0;
}

static int fail_err(const char *what, pii_err e)
{
    fprintf(stderr, "pii-redact: %s: %s\n", what, pii_strerror(e));
    return pii_exit_for(e);
}

static int tokenize_plain(FILE *in, const char *name, pii_tok_enc *enc, outbuf *o)
{
    char *text;
    size_t len;
    int r = read_all(in, &text, &len);
    if (r == -2) {
        fprintf(stderr, "pii-redact: %s: read error\n", name);
        return PII_EXIT_IO;
    }
    if (r)
        return fail_err("tokenize", PII_ENOMEM);
    pii_tok_buf tb = PII_TOK_BUF_INIT;
    pii_err e = pii_tok_encode(enc, text, len, &tb);
    free(text);
    if (e) {
        pii_tok_buf_free(&tb);
        return fail_err("tokenize", e);
    }
    for (size_t i = 0; i < tb.n; i++) {
        if (i)
            ob_put(o, " ", 1);
        ob_num(o, (size_t)tb.ids[i]);
    }
    ob_put(o, "\n", 1);
    pii_tok_buf_free(&tb);
    return PII_EXIT_OK;
}

static int tokenize_jsonl(FILE *in, const char *name, pii_tok_enc *enc, int chars, outbuf *o)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    unsigned long lineno = 0;
    pii_tok_buf tb = PII_TOK_BUF_INIT;
    pii_tok_span *co = NULL;
    size_t cocap = 0;
    int rc = PII_EXIT_OK;
    json_tokener *jt = json_tokener_new();
    if (!jt)
        return fail_err("tokenize", PII_ENOMEM);
    while ((n = getline(&line, &cap, in)) > 0) {
        lineno++;
        size_t l = (size_t)n;
        while (l && (line[l - 1] == '\n' || line[l - 1] == '\r' || line[l - 1] == ' ' ||
                     line[l - 1] == '\t'))
            l--;
        if (!l)
            continue;
        json_tokener_reset(jt);
        json_object *rec = json_tokener_parse_ex(jt, line, (int)l), *t;
        const char *why = NULL;
        if (!rec || json_tokener_get_parse_end(jt) != l)
            why = "not a JSON object";
        else if (!json_object_is_type(rec, json_type_object))
            why = "not a JSON object";
        else if (!json_object_object_get_ex(rec, "text", &t) ||
                 !json_object_is_type(t, json_type_string))
            why = "no \"text\" string";
        if (why) {
            fprintf(stderr, "pii-redact: %s:%lu: %s\n", name, lineno, why);
            json_object_put(rec);
            rc = PII_EXIT_USAGE;
            break;
        }
        const char *text = json_object_get_string(t);
        size_t len = (size_t)json_object_get_string_len(t);
        tb.n = 0;
        pii_err e = pii_tok_encode(enc, text, len, &tb);
        if (!e && chars && tb.n > cocap) {
            pii_tok_span *nc = realloc(co, tb.n * sizeof *nc);
            if (!nc)
                e = PII_ENOMEM;
            else {
                co = nc;
                cocap = tb.n;
            }
        }
        if (!e && chars)
            e = pii_tok_widen(text, len, tb.offs, tb.n, NULL, co);
        if (e) {
            json_object_put(rec);
            rc = fail_err("tokenize", e);
            break;
        }
        const pii_tok_span *off = chars ? co : tb.offs;
        ob_put(o, "{\"ids\":[", 8);
        for (size_t i = 0; i < tb.n; i++) {
            if (i)
                ob_put(o, ",", 1);
            ob_num(o, (size_t)tb.ids[i]);
        }
        ob_put(o, "],\"offsets\":[", 13);
        for (size_t i = 0; i < tb.n; i++) {
            ob_put(o, i ? ",[" : "[", i ? 2 : 1);
            ob_num(o, off[i].start);
            ob_put(o, ",", 1);
            ob_num(o, off[i].end);
            ob_put(o, "]", 1);
        }
        ob_put(o, "]}\n", 3);
        json_object_put(rec);
    }
    if (rc == PII_EXIT_OK && ferror(in)) {
        fprintf(stderr, "pii-redact: %s: read error\n", name);
        rc = PII_EXIT_IO;
    }
    json_tokener_free(jt);
    free(line);
    free(co);
    pii_tok_buf_free(&tb);
    return rc;
}

int pii_cmd_tokenize(int argc, char **argv)
{
    int jsonl = 0, chars = 0, c;
    const char *vocab = NULL;
    struct option lo[T_NFLAGS + 1];
    char shorts[2 * T_NFLAGS + 2];
    int short_ids[128];
    pii_cli_getopt_table(tok_flags, T_NFLAGS, T_FIRST, lo, shorts, short_ids);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
        if (c > 0 && c < 128 && short_ids[c])
            c = short_ids[c];
        switch (c) {
        case T_JSONL:
            jsonl = 1;
            break;
        case T_CHARS:
            chars = 1;
            break;
        case T_TOKENIZER:
            vocab = optarg;
            break;
        case T_HELP:
            tok_usage(stdout);
            return PII_EXIT_OK;
        default: /* ':' and '?' */
            pii_cli_option_error("tokenize", c, argv, lo);
            return PII_EXIT_USAGE;
        }
    }
    if (argc - optind > 1 || (chars && !jsonl)) {
        tok_usage(stderr);
        return PII_EXIT_USAGE;
    }
    const char *name = optind < argc ? argv[optind] : "-";
    FILE *in = stdin;
    if (strcmp(name, "-") != 0 && !(in = fopen(name, "rb"))) {
        fprintf(stderr, "pii-redact: %s: %s\n", name, strerror(errno));
        return PII_EXIT_IO;
    }
    if (in == stdin)
        name = "<stdin>";
    pii_tok *loaded = NULL;
    const pii_tok *tok = pii_tok_o200k();
    if (vocab) {
        char err[512] = "";
        size_t vl = strlen(vocab);
        pii_err e = vl >= 5 && strcmp(vocab + vl - 5, ".json") == 0
                        ? pii_tok_load_hf_json(vocab, &loaded, err, sizeof err)
                        : pii_tok_load_tiktoken(vocab, &loaded, err, sizeof err);
        if (e) {
            fprintf(stderr, "pii-redact: %s\n", err[0] ? err : pii_strerror(e));
            if (in != stdin)
                fclose(in);
            return pii_exit_for(e);
        }
        tok = loaded;
    }
    pii_tok_enc *enc = pii_tok_enc_create(tok);
    outbuf *o = calloc(1, sizeof *o);
    int rc;
    if (!enc || !o)
        rc = fail_err("tokenize", PII_ENOMEM);
    else if (jsonl)
        rc = tokenize_jsonl(in, name, enc, chars, o);
    else
        rc = tokenize_plain(in, name, enc, o);
    if (o) {
        ob_flush(o);
        if ((o->err || fflush(stdout) != 0) && errno != EPIPE && rc == PII_EXIT_OK) {
            fprintf(stderr, "pii-redact: write error: %s\n", strerror(errno));
            rc = PII_EXIT_IO;
        }
    }
    free(o);
    pii_tok_enc_free(enc);
    pii_tok_free(loaded);
    if (in != stdin)
        fclose(in);
    return rc;
}
