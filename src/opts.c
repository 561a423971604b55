/* opts.c — option table, parsing and --help for the main command. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "model_cli.h"
#include "opts.h"
#include "pii_rt.h"

/* The option ids: O_<ID> for each entry of options.def, in its order, from
 * O_FIRST on (above every char, so a short option's letter is never an id;
 * pii_opts_parse maps the letters getopt returns to ids). */
enum {
    O_BEFORE_FIRST = 255,
#define OPT(id, name, short_name, arg, help, man) O_##id,
#define OPT_SECTION(title, man)
#include "options.def"
#undef OPT
#undef OPT_SECTION
    O_END
};
enum { O_FIRST = O_BEFORE_FIRST + 1, NFLAGS = O_END - O_FIRST };

/* The order of options.def is the order of --help and of the man page;
 * pii_flags[i] is option O_FIRST + i. */
const pii_flag pii_flags[] = {
#define OPT(id, name, short_name, arg, help, man) {name, short_name, arg, help},
#define OPT_SECTION(title, man)
#include "options.def"
#undef OPT
#undef OPT_SECTION
    {NULL, 0, NULL, NULL},
};

void pii_print_help(void)
{
    printf("Usage: pii-redact [OPTIONS] [FILE...]\n"
           "       pii-redact COMMAND [ARGS...]\n\n"
           "Finds personal data (PII) in text and redacts it.  With no FILE, or when FILE\n"
           "is -, reads standard input.  Writes the redacted text to standard output;\n"
           "every byte outside a redacted span is copied unchanged.\n\nOptions:\n");
    pii_cli_print_options(stdout, pii_flags, NFLAGS);
    printf("\nCommands:\n");
    for (const pii_subcommand *c = pii_subcommands; c->name; c++)
        pii_cli_print_item(stdout, c->name, c->summary);
    printf("\nDefaults for these options: --config FILE, else $PII_REDACT_CONFIG, else\n"
           "$XDG_CONFIG_HOME/pii-redact/config (or ~/.config/pii-redact/config), one\n"
           "NAME = VALUE per line; flags override $PII_REDACT_MODEL, which overrides the\n"
           "file.  A switch is undone by --NAME=false.\n");
    printf("\nExit status: 0 success (--check: no PII), 1 PII found (--check), 2 usage error,\n"
           "3 input/output error, 4 model error, 5 other failure.\n"
           "See pii-redact(1) for details.\n");
}

/* Appends a repeatable option's argument to a list. */
static int push_arg(const char ***list, size_t *n, const char *arg)
{
    const char **v = realloc(*list, (*n + 1) * sizeof *v);
    if (!v)
        return -1;
    v[(*n)++] = arg;
    *list = v;
    return 0;
}

static const char *const *origins; /* pii_opts_origins */
static const char *where;          /* the place of the option being parsed */

void pii_opts_origins(const char *const *origin)
{
    origins = origin;
}

static void usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "pii-redact: ");
    if (where)
        fprintf(stderr, "%s: ", where);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'pii-redact --help' for more information.\n");
}

int pii_opts_parse(int argc, char **argv, pii_opts *o)
{
    struct option lo[NFLAGS + 1];
    char shorts[2 * NFLAGS + 2];
    int short_ids[128]; /* option letter -> id */
    /* GNU argument order: options may follow file names ("-r DIR --out-dir
     * OUT"); "--" ends the options.  A missing argument is ':', not '?'. */
    pii_cli_getopt_table(pii_flags, NFLAGS, O_FIRST, lo, shorts, short_ids);

    memset(o, 0, sizeof *o);
    o->act = -1;
    o->attn = -1;
    o->flush_delay = 200;
    o->rules_discover = 1; /* the main command looks for .pii-redact.rules */
    opterr = 0;
    optind = 0; /* glibc: 0 re-initialises getopt completely (a stale short-option
                   cluster from an earlier parse is forgotten); 1 does not */
    int c;
    while ((c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
        if (c > 0 && c < 128 && short_ids[c])
            c = short_ids[c];
        /* config items are single "--name=value" arguments before the
         * command line's (getopt never moves them) */
        where = origins && optind > 0 ? origins[optind - 1] : NULL;
        switch (c) {
        case O_HELP:
            pii_print_help();
            return PII_EXIT_OK;
        case O_VERSION:
            pii_cli_print_version();
            return PII_EXIT_OK;
        case O_CONFIG:
            o->config = optarg;
            break;
        case O_NO_CONFIG:
            break;
        case O_RULES_FILE:
            o->rules_file = optarg;
            break;
        case O_NO_RULES_FILE:
            o->no_rules_file = 1;
            break;
        case O_QUIET:
            o->quiet = 1;
            break;
        case O_RULES_ONLY:
            o->rules_only = 1;
            break;
        case O_ALL_DATES_URLS:
            o->all_dates_urls = 1;
            break;
        case O_MODEL:
            o->model_path = optarg;
            break;
        case O_MODEL_ONLY:
            o->model_only = 1;
            break;
        case O_WINDOW:
            o->window = optarg;
            break;
        case O_OPERATING_POINT:
            o->operating_point = optarg;
            break;
        case O_CALIBRATION:
            o->calibration = optarg;
            break;
        case O_NO_CALIBRATION:
            o->no_calibration = 1;
            break;
        case O_DECODE:
            o->decode = optarg;
            break;
        case O_NO_NAME_MEMORY:
            o->no_name_memory = 1;
            break;
        case O_NO_NAME_LEXICON:
            o->no_name_lexicon = 1;
            break;
        case O_NO_NAME_FILTER:
            o->no_name_filter = 1;
            break;
        case O_NO_DICTIONARY_FILTER:
            o->no_dict_filter = 1;
            break;
        case O_NO_HONORIFICS:
            o->no_honorifics = 1;
            break;
        case O_NO_CITATIONS:
            o->no_citations = 1;
            break;
        case O_THREADS:
            o->threads = optarg;
            break;
        case O_ACT: {
            pii_rt_qact a;
            if (pii_rt_qact_parse(optarg, &a) != PII_OK) {
                usage_error("unknown activation mode '%s' (int16, int16+8 or int8)", optarg);
                return PII_EXIT_USAGE;
            }
            o->act = (int)a;
            break;
        }
        case O_ATTN:
            if ((o->attn = mc_attn_parse(optarg)) < 0) {
                usage_error("unknown attention mode '%s' (auto, int16 or f32)", optarg);
                return PII_EXIT_USAGE;
            }
            break;
        case O_THRESHOLD:
        case O_BIAS: {
            const char ***v = c == O_BIAS ? &o->biases : &o->thresholds;
            size_t *n = c == O_BIAS ? &o->n_biases : &o->n_thresholds;
            const char **nv = realloc(*v, (*n + 1) * sizeof *nv);
            if (!nv)
                return PII_EXIT_FAIL;
            nv[(*n)++] = optarg;
            *v = nv;
            break;
        }
        case O_LINES:
            o->lines = 1;
            break;
        case O_FLUSH_DELAY: {
            char *end;
            o->flush_delay = strtol(optarg, &end, 10);
            if (*end || end == optarg || o->flush_delay < 0 || o->flush_delay > 60000) {
                usage_error("bad --flush-delay '%s' (0 to 60000 milliseconds)", optarg);
                return PII_EXIT_USAGE;
            }
            break;
        }
        case O_FORMAT:
            if (strcmp(optarg, "text") == 0)
                o->format = PII_FMT_TEXT;
            else if (strcmp(optarg, "json") == 0)
                o->format = PII_FMT_JSON;
            else if (strcmp(optarg, "jsonl") == 0)
                o->format = PII_FMT_JSONL;
            else {
                usage_error("unknown format '%s' (text, json or jsonl)", optarg);
                return PII_EXIT_USAGE;
            }
            break;
        case O_OFFSETS:
            if (strcmp(optarg, "byte") == 0)
                o->offsets_cp = 0;
            else if (strcmp(optarg, "codepoint") == 0)
                o->offsets_cp = 1;
            else {
                usage_error("unknown offset unit '%s' (byte or codepoint)", optarg);
                return PII_EXIT_USAGE;
            }
            break;
        case O_SHOW_VALUES:
            o->show_values = 1;
            break;
        case O_OPERATOR: {
            const char *eq = strchr(optarg, '=');
            const char *colon = strchr(optarg, ':');
            if (eq && (!colon || eq < colon)) {
                const char **v = realloc(o->op_label, (o->n_op_label + 1) * sizeof *v);
                if (!v)
                    return PII_EXIT_FAIL;
                o->op_label = v;
                v[o->n_op_label++] = optarg;
            } else {
                o->op_default = optarg;
            }
            break;
        }
        case O_KEY_FILE:
            o->key_file = optarg;
            break;
        case O_MAP_OUT:
            o->map_out = optarg;
            break;
        case O_LABELS:
            o->labels = optarg;
            break;
        case O_EXCLUDE_LABELS:
            o->exclude_labels = optarg;
            break;
        case O_ALLOW:
            o->allow_file = optarg;
            break;
        case O_DENY:
            o->deny_file = optarg;
            break;
        case O_CHECK:
            o->check = 1;
            break;
        case O_REPORT_FORMAT:
            if (strcmp(optarg, "text") == 0)
                o->report_format = PII_RFMT_TEXT;
            else if (strcmp(optarg, "json") == 0)
                o->report_format = PII_RFMT_JSON;
            else if (strcmp(optarg, "sarif") == 0)
                o->report_format = PII_RFMT_SARIF;
            else if (strcmp(optarg, "csv") == 0)
                o->report_format = PII_RFMT_CSV;
            else {
                usage_error("unknown report format '%s' (text, json, sarif or csv)", optarg);
                return PII_EXIT_USAGE;
            }
            o->report_format_given = 1;
            break;
        case O_BASELINE:
            o->baseline = optarg;
            break;
        case O_WRITE_BASELINE:
            o->write_baseline = 1;
            break;
        case O_EXIT_CODE: {
            char *end;
            long v = strtol(optarg, &end, 10);
            if (*end || end == optarg || v < 1 || v > 125) {
                usage_error("bad --exit-code '%s' (1 to 125)", optarg);
                return PII_EXIT_USAGE;
            }
            o->exit_code = (int)v;
            break;
        }
        case O_STAGED:
            o->staged = 1;
            break;
        case O_DIFF:
            o->diff = 1;
            break;
        case O_LIST_RULES:
            o->list_rules = 1;
            break;
        case O_RECURSIVE:
            o->recursive = 1;
            break;
        case O_FOLLOW:
            o->follow = 1;
            break;
        case O_NO_IGNORE:
            o->no_ignore = 1;
            break;
        case O_HIDDEN:
            o->hidden = 1;
            break;
        case O_CROSS_DEVICES:
            o->cross_devices = 1;
            break;
        case O_BINARY:
            o->binary = 1;
            break;
        case O_IN_PLACE:
            o->in_place = 1;
            break;
        case O_RESUME:
            o->resume = 1;
            break;
        case O_JSONL_NUM:
            o->jsonl_numbers = 1;
            break;
        case O_JSONL_KEY:
            o->jsonl_keys = 1;
            break;
        case O_PROGRESS:
            o->progress = 1;
            break;
        case O_OUT_DIR:
            o->out_dir = optarg;
            break;
        case O_SUFFIX:
            o->suffix = optarg;
            break;
        case O_REPORT:
            o->report = optarg;
            break;
        case O_JSON_DOC:
            o->json_doc = 1;
            break;
        case O_STRUCTURED:
            o->structured = 1;
            break;
        case O_AS_TEXT:
            o->as_text = 1;
            break;
        case O_BAD_RECORDS:
            if (strcmp(optarg, "fail") == 0)
                o->bad_records = 0;
            else if (strcmp(optarg, "text") == 0)
                o->bad_records = 1;
            else {
                usage_error("bad --bad-records '%s' (fail or text)", optarg);
                return PII_EXIT_USAGE;
            }
            break;
        case O_CSV_DELIMITER:
            if (strcmp(optarg, ",") == 0 || strcmp(optarg, ";") == 0 || strcmp(optarg, "|") == 0)
                o->csv_delimiter = optarg[0];
            else if (strcmp(optarg, "\t") == 0 || strcmp(optarg, "tab") == 0 ||
                     strcmp(optarg, "TAB") == 0 || strcmp(optarg, "\\t") == 0)
                o->csv_delimiter = '\t';
            else {
                usage_error("bad --csv-delimiter '%s' (',', ';', tab or '|')", optarg);
                return PII_EXIT_USAGE;
            }
            break;
        case O_JOBS: {
            char *end;
            o->jobs = strtol(optarg, &end, 10);
            if (*end || end == optarg || o->jobs < 1 || o->jobs > 1024) {
                usage_error("bad number of jobs '%s' (1 to 1024)", optarg);
                return PII_EXIT_USAGE;
            }
            break;
        }
        case O_INCLUDE:
        case O_EXCLUDE:
        case O_JSONL_FIELD:
        case O_CSV_COLUMN: {
            int r = c == O_INCLUDE       ? push_arg(&o->include, &o->ninclude, optarg)
                    : c == O_EXCLUDE     ? push_arg(&o->exclude, &o->nexclude, optarg)
                    : c == O_JSONL_FIELD ? push_arg(&o->jsonl_fields, &o->njsonl_fields, optarg)
                                         : push_arg(&o->csv_columns, &o->ncsv_columns, optarg);
            if (r)
                return PII_EXIT_FAIL;
            break;
        }
        default: /* ':' and '?' */
            pii_cli_option_error(NULL, c, argv, lo);
            return PII_EXIT_USAGE;
        }
    }
    where = NULL;
    if (o->labels && o->exclude_labels) {
        usage_error("%s", "--labels and --exclude-labels cannot be combined");
        return PII_EXIT_USAGE;
    }
    if (!o->check && (o->report_format_given || o->baseline || o->write_baseline || o->exit_code)) {
        usage_error("%s",
                    "--report-format, --baseline, --write-baseline and --exit-code need --check");
        return PII_EXIT_USAGE;
    }
    if (o->write_baseline && !o->baseline) {
        usage_error("%s", "--write-baseline needs --baseline FILE");
        return PII_EXIT_USAGE;
    }
    if (o->csv_delimiter && !o->ncsv_columns) {
        usage_error("%s", "--csv-delimiter applies to --csv-column");
        return PII_EXIT_USAGE;
    }
    if (o->json_doc && o->ncsv_columns) {
        usage_error("%s", "--json and --csv-column cannot be combined");
        return PII_EXIT_USAGE;
    }
    if (o->structured && (o->json_doc || o->njsonl_fields || o->ncsv_columns)) {
        usage_error("%s",
                    "--structured chooses by extension: drop --json, --jsonl-field, --csv-column");
        return PII_EXIT_USAGE;
    }
    if (o->structured && o->as_text) {
        usage_error("%s", "--structured and --as-text cannot be combined");
        return PII_EXIT_USAGE;
    }
    if (o->bad_records && !o->njsonl_fields && !o->json_doc) {
        usage_error("%s", "--bad-records applies to --jsonl-field and --json");
        return PII_EXIT_USAGE;
    }
    if ((o->jsonl_numbers || o->jsonl_keys) && !o->njsonl_fields && !o->json_doc) {
        usage_error("%s", "--jsonl-numbers and --jsonl-keys apply to --jsonl-field");
        return PII_EXIT_USAGE;
    }
    if (o->calibration && o->no_calibration) {
        usage_error("%s", "--calibration and --no-calibration cannot be combined");
        return PII_EXIT_USAGE;
    }
    if (o->rules_file && o->no_rules_file) {
        usage_error("%s", "--rules-file and --no-rules-file cannot be combined");
        return PII_EXIT_USAGE;
    }
    if (o->rules_file && o->model_only) {
        usage_error("%s", "--rules-file adds rules: it cannot be combined with --model-only");
        return PII_EXIT_USAGE;
    }
    if (o->rules_only && o->model_only) {
        usage_error("%s", "--rules-only and --model-only cannot be combined");
        return PII_EXIT_USAGE;
    }
    o->files = argv + optind;
    o->nfiles = (size_t)(argc - optind);
    return -1;
}

void pii_opts_free(pii_opts *o)
{
    free(o->op_label);
    free(o->thresholds);
    free(o->biases);
    o->op_label = NULL;
    o->thresholds = o->biases = NULL;
    free(o->include);
    free(o->exclude);
    free(o->jsonl_fields);
    free(o->csv_columns);
    o->include = o->exclude = o->jsonl_fields = o->csv_columns = NULL;
}
