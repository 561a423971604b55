/* cmd_eval.c — `pii-redact eval`: scores the redactor on files in the
 * unified eval format (../shared/eval/README.md).
 *
 * Each record's text is fed as one document to a pii_stream of the same
 * redactor the main command builds (pii_pipeline_build), and the spans the
 * stream reports are scored against the gold spans (metrics in eval.h).
 * With --predictions, spans are read from a file instead (used to score
 * other tools, and by the tests to check the metrics exactly). */
#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "eval.h"
#include "model_cli.h"
#include "opts.h"
#include "pii_rt.h"
#include "pii_core.h"
#include "pipeline.h"

/* The option table (cli.h): getopt's tables and --help come from it;
 * eval_flags[k] is option E_FIRST + k. */
enum {
    E_FIRST = 256,
    E_RULES_ONLY = E_FIRST,
    E_MODEL_ONLY,
    E_MODEL,
    E_FORMAT,
    E_PREDICTIONS,
    E_DUMP,
    E_NO_NAME_MEMORY,
    E_NO_NAME_LEXICON,
    E_NO_NAME_FILTER,
    E_NO_DICTIONARY_FILTER,
    E_ALL_DATES_URLS,
    E_ACT,
    E_ATTN,
    E_HELP,
    E_END
};
static const pii_flag eval_flags[] = {
    [E_RULES_ONLY - E_FIRST] = {"rules-only", 0, NULL, "use only the rule tier"},
    [E_MODEL_ONLY - E_FIRST] = {"model-only", 0, NULL, "use only the model tier"},
    [E_MODEL - E_FIRST] = {"model", 'm', "PATH", "model checkpoint to use instead of the default"},
    [E_FORMAT - E_FIRST] = {"format", 0, "FMT", "text (default), json, or md (a Markdown table)"},
    [E_PREDICTIONS - E_FIRST] = {"predictions", 0, "FILE",
                                 "score the spans in FILE (JSON Lines: \"spans\" with code-point "
                                 "start, end, label; one line per record, in order) instead of "
                                 "running the redactor"},
    [E_DUMP - E_FIRST] = {"dump-predictions", 0, "FILE",
                          "write the predicted spans in that format (model spans with their "
                          "\"score\")"},
    [E_NO_NAME_MEMORY - E_FIRST] = {"no-name-memory", 0, NULL,
                                    "turn the model's name memory off (as the main command's "
                                    "option)"},
    [E_NO_NAME_LEXICON - E_FIRST] = {"no-name-lexicon", 0, NULL,
                                     "turn the model's name lexicon off (as the main command's "
                                     "option)"},
    [E_NO_NAME_FILTER - E_FIRST] = {"no-name-filter", 0, NULL,
                                    "turn the model's non-person filter off (as the main "
                                    "command's option)"},
    [E_NO_DICTIONARY_FILTER - E_FIRST] = {"no-dictionary-filter", 0, NULL,
                                          "turn the model's dictionary-word filter off (as the "
                                          "main command's option)"},
    [E_ALL_DATES_URLS - E_FIRST] = {"all-dates-urls", 0, NULL,
                                    "let the rules redact every date and URL (as the main "
                                    "command's option)"},
    [E_ACT - E_FIRST] = {"act", 0, "MODE",
                         "activations of an int8/int4 model: int16 (default), int16+8 or int8 "
                         "(as the main command's option)"},
    [E_ATTN - E_FIRST] = {"attn", 0, "MODE",
                          "attention of an int8 model: auto (default), int16 or f32 (as the "
                          "main command's option)"},
    [E_HELP - E_FIRST] = {"help", 'h', NULL, "show this help and exit"},
};
enum { E_NFLAGS = E_END - E_FIRST };
_Static_assert(sizeof eval_flags / sizeof eval_flags[0] == E_NFLAGS, "one entry per option id");

static void eval_usage(FILE *fp)
{
    pii_cli_usage(fp, "pii-redact eval [OPTIONS] FILE.jsonl...",
                  "Runs the redactor on every record of each eval file (unified format:\n"
                  "text, scored_labels, spans with code-point offsets and scored/ignore\n"
                  "regions) and prints, per label, strict and overlap precision, recall and\n"
                  "F1, and the character leak rate.  Files are scored separately.",
                  eval_flags, E_NFLAGS,
                  "Metrics: strict = same label, start and end; overlap = same label and at\n"
                  "least one shared character.  A prediction matching no gold span that\n"
                  "overlaps an ignore region is neither a hit nor a false positive.  Leak rate\n"
                  "= share of gold PII characters covered by no prediction (any label).\n"
                  "Predictions with labels outside a record's scored_labels are dropped.");
}

/* ---- growing span list -------------------------------------------------- */

typedef struct spanlist {
    pii_eval_span *v;
    size_t n, cap;
} spanlist;

static int spanlist_push(spanlist *l, uint64_t s, uint64_t e, int label, float score,
                         const char *rule)
{
    if (PII_VEC_RESERVE(l->v, l->cap, l->n + 1))
        return -1;
    l->v[l->n++] = (pii_eval_span){s, e, label, score, rule};
    return 0;
}

/* ---- the detector path ---------------------------------------------------- */

typedef struct collect {
    spanlist *out;
    int oom;
} collect;

static pii_err collect_span(void *ud, const pii_span *s, const uint8_t *value, size_t len,
                            uint64_t cp_start, uint64_t cp_end)
{
    (void)value;
    (void)len;
    (void)cp_start;
    (void)cp_end;
    collect *c = ud;
    int L = pii_category_index(s->label);
    if (L < 0)
        return PII_OK; /* not one of the 8 categories: never scored */
    /* Byte offsets for now; converted to code points by the caller. */
    if (spanlist_push(c->out, s->start, s->end, L,
                      s->source == PII_SRC_MODEL ? (float)s->score : -1.0f, s->rule)) {
        c->oom = 1;
        return PII_ENOMEM;
    }
    return PII_OK;
}

/* Converts byte offsets of `l` (sorted or not) into code points of text. */
static void bytes_to_cp(spanlist *l, const uint8_t *text, size_t len, uint32_t *cp_of)
{
    uint32_t cp = 0;
    for (size_t i = 0; i < len; i++) {
        cp_of[i] = cp;
        cp += (text[i] & 0xC0) != 0x80;
    }
    cp_of[len] = cp;
    for (size_t i = 0; i < l->n; i++) {
        uint64_t s = l->v[i].start < len ? l->v[i].start : len;
        uint64_t e = l->v[i].end < len ? l->v[i].end : len;
        /* A byte offset inside a character belongs to that character:
         * round the start down and the end up. */
        uint32_t cs = cp_of[s];
        uint32_t ce = cp_of[e];
        if (e < len && (text[e] & 0xC0) == 0x80)
            ce++;
        l->v[i].start = cs;
        l->v[i].end = ce;
    }
}

static uint64_t count_cp(const uint8_t *text, size_t len)
{
    uint64_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += (text[i] & 0xC0) != 0x80;
    return n;
}

/* ---- reading records -------------------------------------------------------- */

/* Reads one line into *buf; returns its length, or -1 at end of file. */
static ssize_t read_line(FILE *f, char **buf, size_t *cap)
{
    ssize_t n = getline(buf, cap, f);
    if (n < 0)
        return -1;
    while (n > 0 && ((*buf)[n - 1] == '\n' || (*buf)[n - 1] == '\r'))
        (*buf)[--n] = '\0';
    return n;
}

static int get_u64(json_object *o, const char *key, uint64_t *v)
{
    json_object *x;
    if (!json_object_object_get_ex(o, key, &x) || !json_object_is_type(x, json_type_int))
        return -1;
    int64_t i = json_object_get_int64(x);
    if (i < 0)
        return -1;
    *v = (uint64_t)i;
    return 0;
}

/* Parses "spans" of a record (gold: with "scored"; predictions: without). */
static int parse_spans(json_object *rec, int gold, spanlist *out, const char **why)
{
    json_object *arr;
    if (!json_object_object_get_ex(rec, "spans", &arr) ||
        !json_object_is_type(arr, json_type_array)) {
        *why = "no \"spans\" array";
        return -1;
    }
    size_t n = json_object_array_length(arr);
    for (size_t i = 0; i < n; i++) {
        json_object *s = json_object_array_get_idx(arr, i), *x;
        uint64_t st, en;
        if (!json_object_is_type(s, json_type_object) || get_u64(s, "start", &st) ||
            get_u64(s, "end", &en)) {
            *why = "span without integer start/end";
            return -1;
        }
        int scored = 1;
        if (gold && json_object_object_get_ex(s, "scored", &x))
            scored = json_object_get_boolean(x);
        int L = -1;
        if (scored) {
            const char *lab = NULL;
            if (json_object_object_get_ex(s, "label", &x) &&
                json_object_is_type(x, json_type_string))
                lab = json_object_get_string(x);
            L = lab ? pii_category_index(lab) : -1;
            if (L < 0) {
                if (gold) {
                    *why = "scored span with an unknown label";
                    return -1;
                }
                continue; /* predictions of other labels: dropped */
            }
        }
        if (spanlist_push(out, st, en, L, -1.0f, NULL)) {
            *why = "out of memory";
            return -1;
        }
    }
    return 0;
}

static unsigned parse_scored_labels(json_object *rec, const char **why)
{
    json_object *arr;
    if (!json_object_object_get_ex(rec, "scored_labels", &arr))
        return (1u << PII_NCAT) - 1; /* absent: all 8 */
    if (!json_object_is_type(arr, json_type_array)) {
        *why = "\"scored_labels\" is not an array";
        return 0;
    }
    unsigned mask = 0;
    for (size_t i = 0; i < json_object_array_length(arr); i++) {
        json_object *x = json_object_array_get_idx(arr, i);
        int L = json_object_is_type(x, json_type_string)
                    ? pii_category_index(json_object_get_string(x))
                    : -1;
        if (L < 0) {
            *why = "unknown label in \"scored_labels\"";
            return 0;
        }
        mask |= 1u << L;
    }
    if (!mask)
        *why = "empty \"scored_labels\"";
    return mask;
}

/* ---- output ----------------------------------------------------------------- */

static void fmt_num(char *buf, size_t cap, double v)
{
    if (isnan(v))
        snprintf(buf, cap, "-");
    else
        snprintf(buf, cap, "%.3f", v);
}

static void print_row(const char *name, const pii_eval_label *l)
{
    pii_eval_prf s = pii_eval_score(&l->strict, l->gold);
    pii_eval_prf o = pii_eval_score(&l->overlap, l->gold);
    char b[7][16];
    fmt_num(b[0], 16, s.p);
    fmt_num(b[1], 16, s.r);
    fmt_num(b[2], 16, s.f1);
    fmt_num(b[3], 16, o.p);
    fmt_num(b[4], 16, o.r);
    fmt_num(b[5], 16, o.f1);
    if (l->gold_chars)
        snprintf(b[6], 16, "%.2f%%", 100.0 * (double)l->leaked_chars / (double)l->gold_chars);
    else
        snprintf(b[6], 16, "-");
    printf("%-16s %6llu %6llu | %6s %6s %6s | %6s %6s %6s | %7s\n", name,
           (unsigned long long)l->gold, (unsigned long long)l->pred, b[0], b[1], b[2], b[3], b[4],
           b[5], b[6]);
}

static void print_text(const char *file, const char *detectors, const pii_eval_acc *a)
{
    printf("%s: %llu records, detectors: %s\n", file, (unsigned long long)a->records, detectors);
    printf("%-16s %6s %6s | %6s %6s %6s | %6s %6s %6s | %7s\n", "label", "gold", "pred", "P", "R",
           "F1", "P", "R", "F1", "leak");
    printf("%-16s %6s %6s | %-20s | %-20s |\n", "", "", "", "strict", "overlap");
    for (int L = 0; L < PII_NCAT; L++)
        if (a->scored_mask >> L & 1u)
            print_row(pii_categories[L], &a->lab[L]);
    pii_eval_label m = pii_eval_micro(a);
    print_row("micro", &m);
    if (a->gold_chars)
        printf("character leak rate: %.2f%% (%llu of %llu gold PII characters)\n",
               100.0 * (double)a->leaked_chars / (double)a->gold_chars,
               (unsigned long long)a->leaked_chars, (unsigned long long)a->gold_chars);
    else
        printf("character leak rate: - (no gold PII characters)\n");
}

/* A number with 6 decimals and no trailing zeros ("0.4", "1.0"); null for NaN. */
static void print_md_row(const char *name, const pii_eval_label *l)
{
    pii_eval_prf s = pii_eval_score(&l->strict, l->gold);
    pii_eval_prf o = pii_eval_score(&l->overlap, l->gold);
    char b[7][16];
    fmt_num(b[0], 16, s.p);
    fmt_num(b[1], 16, s.r);
    fmt_num(b[2], 16, s.f1);
    fmt_num(b[3], 16, o.p);
    fmt_num(b[4], 16, o.r);
    fmt_num(b[5], 16, o.f1);
    if (l->gold_chars)
        snprintf(b[6], 16, "%.2f%%", 100.0 * (double)l->leaked_chars / (double)l->gold_chars);
    else
        snprintf(b[6], 16, "-");
    printf("| %s | %llu | %llu | %s | %s | %s | %s | %s | %s | %s |\n", name,
           (unsigned long long)l->gold, (unsigned long long)l->pred, b[0], b[1], b[2], b[3], b[4],
           b[5], b[6]);
}

static void print_md(const char *file, const char *detectors, const pii_eval_acc *a)
{
    const char *base = strrchr(file, '/');
    printf("#### %s — %s (%llu records)\n\n", base ? base + 1 : file, detectors,
           (unsigned long long)a->records);
    printf("| label | gold | pred | strict P | strict R | strict F1 | overlap P | overlap R | "
           "overlap F1 | leak |\n");
    printf("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
    for (int L = 0; L < PII_NCAT; L++)
        if (a->scored_mask >> L & 1u)
            print_md_row(pii_categories[L], &a->lab[L]);
    pii_eval_label m = pii_eval_micro(a);
    print_md_row("**micro**", &m);
    if (a->gold_chars)
        printf("\nCharacter leak rate: **%.2f%%** (%llu of %llu gold PII characters)\n",
               100.0 * (double)a->leaked_chars / (double)a->gold_chars,
               (unsigned long long)a->leaked_chars, (unsigned long long)a->gold_chars);
}

static json_object *jnum(double v)
{
    if (isnan(v))
        return NULL;
    char buf[48];
    snprintf(buf, sizeof buf, "%.6f", v);
    size_t n = strlen(buf);
    while (n > 2 && buf[n - 1] == '0' && buf[n - 2] != '.')
        buf[--n] = '\0';
    return json_object_new_double_s(v, buf);
}

static json_object *jmode(const pii_eval_mode *m, uint64_t gold)
{
    pii_eval_prf s = pii_eval_score(m, gold);
    json_object *o = json_object_new_object();
    json_object_object_add(o, "tp", json_object_new_int64((int64_t)m->tp));
    json_object_object_add(o, "fp", json_object_new_int64((int64_t)m->fp));
    json_object_object_add(o, "ignored", json_object_new_int64((int64_t)m->ignored));
    json_object_object_add(o, "hit", json_object_new_int64((int64_t)m->hit));
    json_object_object_add(o, "fn", json_object_new_int64((int64_t)(gold - m->hit)));
    json_object_object_add(o, "precision", jnum(s.p));
    json_object_object_add(o, "recall", jnum(s.r));
    json_object_object_add(o, "f1", jnum(s.f1));
    return o;
}

static json_object *jlabel(const pii_eval_label *l)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "gold", json_object_new_int64((int64_t)l->gold));
    json_object_object_add(o, "pred", json_object_new_int64((int64_t)l->pred));
    json_object_object_add(o, "strict", jmode(&l->strict, l->gold));
    json_object_object_add(o, "overlap", jmode(&l->overlap, l->gold));
    json_object_object_add(o, "gold_chars", json_object_new_int64((int64_t)l->gold_chars));
    json_object_object_add(o, "leaked_chars", json_object_new_int64((int64_t)l->leaked_chars));
    json_object_object_add(o, "leak_rate",
                           l->gold_chars ? jnum((double)l->leaked_chars / (double)l->gold_chars)
                                         : NULL);
    return o;
}

static json_object *json_result(const char *file, const char *detectors, const pii_eval_acc *a)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "file", json_object_new_string(file));
    json_object_object_add(o, "detectors", json_object_new_string(detectors));
    json_object_object_add(o, "records", json_object_new_int64((int64_t)a->records));
    json_object *labs = json_object_new_object();
    for (int L = 0; L < PII_NCAT; L++)
        if (a->scored_mask >> L & 1u)
            json_object_object_add(labs, pii_categories[L], jlabel(&a->lab[L]));
    json_object_object_add(o, "labels", labs);
    pii_eval_label m = pii_eval_micro(a);
    json_object_object_add(o, "micro", jlabel(&m));
    json_object *leak = json_object_new_object();
    json_object_object_add(leak, "gold_chars", json_object_new_int64((int64_t)a->gold_chars));
    json_object_object_add(leak, "leaked_chars", json_object_new_int64((int64_t)a->leaked_chars));
    json_object_object_add(
        leak, "rate", a->gold_chars ? jnum((double)a->leaked_chars / (double)a->gold_chars) : NULL);
    json_object_object_add(o, "leak", leak);
    return o;
}

/* ---- one file ------------------------------------------------------------------ */

typedef struct eval_run {
    pii_stream *st; /* NULL with --predictions */
    collect *col;   /* the stream's span sink state */
    FILE *pred_in;  /* --predictions */
    FILE *dump;     /* --dump-predictions */
} eval_run;

static void dump_record(FILE *f, json_object *id, const spanlist *pred)
{
    json_object *o = json_object_new_object();
    if (id)
        json_object_object_add(o, "id", json_object_get(id));
    json_object *arr = json_object_new_array();
    for (size_t i = 0; i < pred->n; i++) {
        json_object *s = json_object_new_object();
        json_object_object_add(s, "start", json_object_new_int64((int64_t)pred->v[i].start));
        json_object_object_add(s, "end", json_object_new_int64((int64_t)pred->v[i].end));
        json_object_object_add(s, "label",
                               json_object_new_string(pii_categories[pred->v[i].label]));
        if (pred->v[i].score >= 0.0f) { /* model spans: the span score (--threshold) */
            char num[32];
            snprintf(num, sizeof num, "%.4f", (double)pred->v[i].score);
            json_object_object_add(s, "score", json_object_new_double_s(pred->v[i].score, num));
        }
        if (pred->v[i].rule) /* the rule or name heuristic that made it */
            json_object_object_add(s, "rule", json_object_new_string(pred->v[i].rule));
        json_object_array_add(arr, s);
    }
    json_object_object_add(o, "spans", arr);
    fprintf(
        f, "%s\n",
        json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
    json_object_put(o);
}

/* Returns -1 on success, else an exit status (message printed). */
static int eval_file(const char *path, eval_run *run, pii_eval_acc *acc)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "pii-redact: %s: %s\n", path, strerror(errno));
        return PII_EXIT_IO;
    }
    char *line = NULL, *pline = NULL;
    size_t cap = 0, pcap = 0;
    spanlist gold = {0}, pred = {0};
    uint32_t *cp_of = NULL;
    size_t cp_cap = 0;
    int rc = -1;
    unsigned long lineno = 0;
    ssize_t n;
    while ((n = read_line(f, &line, &cap)) >= 0) {
        lineno++;
        if (n == 0)
            continue;
        const char *why = NULL;
        json_object *rec = json_tokener_parse(line), *pr = NULL, *x, *id = NULL;
        gold.n = pred.n = 0;
        const char *text = NULL;
        size_t tlen = 0;
        unsigned mask = 0;
        if (!rec || !json_object_is_type(rec, json_type_object))
            why = "not a JSON object";
        else if (!json_object_object_get_ex(rec, "text", &x) ||
                 !json_object_is_type(x, json_type_string))
            why = "no \"text\" string";
        else {
            text = json_object_get_string(x);
            tlen = (size_t)json_object_get_string_len(x);
            json_object_object_get_ex(rec, "id", &id);
            mask = parse_scored_labels(rec, &why);
            if (!why)
                parse_spans(rec, 1, &gold, &why);
        }
        if (!why && run->pred_in) {
            ssize_t pn;
            do
                pn = read_line(run->pred_in, &pline, &pcap);
            while (pn == 0);
            if (pn < 0)
                why = "the predictions file has fewer records";
            else if (!(pr = json_tokener_parse(pline)) ||
                     !json_object_is_type(pr, json_type_object))
                why = "a predictions line is not a JSON object";
            else {
                json_object *pid;
                if (id && json_object_object_get_ex(pr, "id", &pid) &&
                    strcmp(json_object_to_json_string(pid), json_object_to_json_string(id)) != 0)
                    why = "prediction ids do not follow the eval file's order";
                else
                    parse_spans(pr, 0, &pred, &why);
            }
        } else if (!why) {
            run->col->out = &pred;
            pii_err e = pii_stream_feed(run->st, text, tlen);
            if (!e)
                e = pii_stream_end_doc(run->st);
            if (e) {
                pii_cli_error("redaction stopped", e);
                rc = pii_exit_for(e);
                json_object_put(rec);
                break;
            }
            if (tlen + 1 > cp_cap) {
                uint32_t *p = realloc(cp_of, (tlen + 1) * sizeof *p);
                if (!p) {
                    pii_cli_error("eval", PII_ENOMEM);
                    rc = PII_EXIT_FAIL;
                    json_object_put(rec);
                    break;
                }
                cp_of = p;
                cp_cap = tlen + 1;
            }
            bytes_to_cp(&pred, (const uint8_t *)text, tlen, cp_of);
        }
        if (!why) {
            if (run->dump)
                dump_record(run->dump, id, &pred);
            pii_err e = pii_eval_add(acc, count_cp((const uint8_t *)text, tlen), mask, gold.v,
                                     gold.n, pred.v, pred.n);
            if (e == PII_EINVAL)
                why = "a span lies outside the text or is empty";
            else if (e) {
                pii_cli_error("eval", e);
                rc = pii_exit_for(e);
                json_object_put(rec);
                json_object_put(pr);
                break;
            }
        }
        json_object_put(rec);
        json_object_put(pr);
        if (why) {
            fprintf(stderr, "pii-redact: %s:%lu: %s\n", path, lineno, why);
            rc = PII_EXIT_USAGE;
            break;
        }
    }
    if (rc < 0 && ferror(f)) {
        fprintf(stderr, "pii-redact: %s: read error\n", path);
        rc = PII_EXIT_IO;
    }
    free(line);
    free(pline);
    free(gold.v);
    free(pred.v);
    free(cp_of);
    fclose(f);
    return rc;
}

int pii_cmd_eval(int argc, char **argv)
{
    pii_opts o;
    memset(&o, 0, sizeof o);
    o.act = -1;   /* keep the process-wide activation mode unless --act */
    o.attn = -1;  /* and attention mode unless --attn */
    int json = 0; /* 0 text, 1 json, 2 markdown */
    const char *pred_path = NULL, *dump_path = NULL;
    struct option lo[E_NFLAGS + 1];
    char shorts[2 * E_NFLAGS + 2];
    int short_ids[128];
    pii_cli_getopt_table(eval_flags, E_NFLAGS, E_FIRST, lo, shorts, short_ids);
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
        if (c > 0 && c < 128 && short_ids[c])
            c = short_ids[c];
        switch (c) {
        case E_RULES_ONLY:
            o.rules_only = 1;
            break;
        case E_MODEL_ONLY:
            o.model_only = 1;
            break;
        case E_MODEL:
            o.model_path = optarg;
            break;
        case E_FORMAT:
            if (strcmp(optarg, "json") == 0)
                json = 1;
            else if (strcmp(optarg, "text") == 0)
                json = 0;
            else if (strcmp(optarg, "md") == 0)
                json = 2;
            else {
                fprintf(stderr, "pii-redact eval: unknown format '%s' (text, json or md)\n",
                        optarg);
                return PII_EXIT_USAGE;
            }
            break;
        case E_PREDICTIONS:
            pred_path = optarg;
            break;
        case E_DUMP:
            dump_path = optarg;
            break;
        case E_NO_NAME_MEMORY:
            o.no_name_memory = 1;
            break;
        case E_NO_NAME_LEXICON:
            o.no_name_lexicon = 1;
            break;
        case E_NO_NAME_FILTER:
            o.no_name_filter = 1;
            break;
        case E_NO_DICTIONARY_FILTER:
            o.no_dict_filter = 1;
            break;
        case E_ALL_DATES_URLS:
            o.all_dates_urls = 1;
            break;
        case E_ATTN:
            if ((o.attn = mc_attn_parse(optarg)) < 0) {
                fprintf(stderr,
                        "pii-redact eval: unknown attention mode '%s' (auto, int16 or f32)\n",
                        optarg);
                return PII_EXIT_USAGE;
            }
            break;
        case E_ACT: {
            pii_rt_qact a;
            if (pii_rt_qact_parse(optarg, &a) != PII_OK) {
                fprintf(stderr,
                        "pii-redact eval: unknown activation mode '%s' (int16, int16+8 or int8)\n",
                        optarg);
                return PII_EXIT_USAGE;
            }
            o.act = (int)a;
            break;
        }
        case E_HELP:
            eval_usage(stdout);
            return PII_EXIT_OK;
        default: /* ':' and '?' */
            pii_cli_option_error("eval", c, argv, lo);
            return PII_EXIT_USAGE;
        }
    }
    int nfiles = argc - optind;
    if (nfiles < 1) {
        fprintf(stderr, "pii-redact eval: no eval file given\n");
        eval_usage(stderr);
        return PII_EXIT_USAGE;
    }
    if (o.rules_only && o.model_only) {
        fprintf(stderr, "pii-redact eval: --rules-only and --model-only cannot be combined\n");
        return PII_EXIT_USAGE;
    }
    if ((pred_path || dump_path) && nfiles != 1) {
        fprintf(stderr,
                "pii-redact eval: --predictions and --dump-predictions take one eval file\n");
        return PII_EXIT_USAGE;
    }
    if (pred_path && (o.rules_only || o.model_only || o.model_path)) {
        fprintf(stderr, "pii-redact eval: --predictions does not run detectors\n");
        return PII_EXIT_USAGE;
    }

    const char *detectors = pred_path      ? "predictions file"
                            : o.rules_only ? "rules"
                            : o.model_only ? "model"
                                           : "rules+model";
    eval_run run;
    memset(&run, 0, sizeof run);
    pii_pipeline p;
    memset(&p, 0, sizeof p);
    collect col = {NULL, 0};
    run.col = &col;
    int rc = -1;
    if (pred_path) {
        if (!(run.pred_in = fopen(pred_path, "r"))) {
            fprintf(stderr, "pii-redact: %s: %s\n", pred_path, strerror(errno));
            return PII_EXIT_IO;
        }
    } else {
        if ((rc = pii_pipeline_build(&o, &p)) >= 0)
            goto out;
        rc = -1;
        pii_sink sink = {NULL, collect_span, NULL, &col};
        pii_err e;
        if (!(run.st = pii_stream_create(p.red, &sink, &e))) {
            pii_cli_error("stream", e);
            rc = pii_exit_for(e);
            goto out;
        }
    }
    if (dump_path && !(run.dump = fopen(dump_path, "w"))) {
        fprintf(stderr, "pii-redact: %s: %s\n", dump_path, strerror(errno));
        rc = PII_EXIT_IO;
        goto out;
    }

    json_object *all = json == 1 ? json_object_new_array() : NULL;
    for (int i = 0; i < nfiles && rc < 0; i++) {
        pii_eval_acc acc;
        memset(&acc, 0, sizeof acc);
        rc = eval_file(argv[optind + i], &run, &acc);
        if (rc >= 0)
            break;
        if (json == 1)
            json_object_array_add(all, json_result(argv[optind + i], detectors, &acc));
        else if (json == 2) {
            if (i)
                printf("\n");
            print_md(argv[optind + i], detectors, &acc);
        } else {
            if (i)
                printf("\n");
            print_text(argv[optind + i], detectors, &acc);
        }
    }
    if (json == 1) {
        if (rc < 0) {
            json_object *top = json_object_new_object();
            json_object_object_add(top, "files", all);
            printf("%s\n", json_object_to_json_string_ext(top, JSON_C_TO_STRING_PRETTY |
                                                                   JSON_C_TO_STRING_SPACED |
                                                                   JSON_C_TO_STRING_NOSLASHESCAPE));
            json_object_put(top);
        } else
            json_object_put(all);
    }
    if (rc < 0 && (fflush(stdout) != 0 || ferror(stdout)) && errno != EPIPE) {
        fprintf(stderr, "pii-redact: write error: %s\n", strerror(errno));
        rc = PII_EXIT_IO;
    }
out:
    if (run.dump && fclose(run.dump) != 0 && rc < 0) {
        fprintf(stderr, "pii-redact: %s: write error\n", dump_path);
        rc = PII_EXIT_IO;
    }
    if (run.pred_in)
        fclose(run.pred_in);
    pii_stream_free(run.st);
    pii_pipeline_free(&p);
    return rc < 0 ? PII_EXIT_OK : rc;
}
