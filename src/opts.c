/* opts.c — option table, parsing and --help for the main command. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "opts.h"
#include "pii_rt.h"

enum {
    O_HELP = 'h',
    O_VERSION = 'V',
    O_QUIET = 'q',
    O_MODEL = 'm',
    O_RULES_ONLY = 256,
    O_MODEL_ONLY,
    O_LINES,
    O_FORMAT,
    O_OFFSETS,
    O_SHOW_VALUES,
    O_OPERATOR,
    O_KEY_FILE,
    O_LABELS,
    O_EXCLUDE_LABELS,
    O_ALLOW,
    O_DENY,
    O_CHECK,
    O_LIST_RULES,
    O_WINDOW,
    O_THRESHOLD,
    O_OPERATING_POINT,
    O_CALIBRATION,
    O_NO_CALIBRATION,
    O_BIAS,
    O_DECODE,
    O_THREADS,
    O_ACT,
    O_RECURSIVE = 'r',
    O_JOBS = 'j',
    O_INCLUDE = 512,
    O_EXCLUDE,
    O_FOLLOW,
    O_BINARY,
    O_OUT_DIR,
    O_IN_PLACE,
    O_SUFFIX,
    O_RESUME,
    O_JSONL_FIELD,
    O_JSONL_NUM,
    O_JSONL_KEY,
    O_CSV_COLUMN,
    O_CSV_DELIMITER,
    O_REPORT,
    O_PROGRESS,
    O_NO_IGNORE,
    O_HIDDEN,
    O_CROSS_DEVICES,
    O_REPORT_FORMAT,
    O_BASELINE,
    O_WRITE_BASELINE,
    O_EXIT_CODE,
    O_STAGED,
};

/* The order here is the order of --help and of the man page. */
const pii_flag pii_flags[] = {
    {"model", 'm', "PATH",
     "model: HF or opf directory, .safetensors, .gguf, builtin or opf (default: "
     "$PII_REDACT_MODEL, the config file, an opf checkpoint, else built-in)"},
    {"rules-only", 0, NULL, "use only the rule tier (PCRE2 detectors)"},
    {"model-only", 0, NULL, "use only the model tier"},
    {"window", 0, "N",
     "tokens per forward pass (default 4096); longer inputs run as "
     "exact overlapping windows"},
    {"threshold", 0, "[LABEL=]X", "minimum model span score, globally or per label (repeatable)"},
    {"operating-point", 0, "NAME", "Viterbi operating point from viterbi_calibration.json"},
    {"calibration", 0, "FILE", "viterbi_calibration.json to read (default: the model's)"},
    {"no-calibration", 0, NULL, "ignore the model's viterbi_calibration.json (all biases 0)"},
    {"bias", 0, "KEY=VALUE", "override one Viterbi transition bias (repeatable)"},
    {"decode", 0, "MODE", "viterbi (default) or argmax"},
    {"threads", 0, "N", "threads for the model (default: all cores)"},
    {"act", 0, "MODE",
     "activations of int8/int4 models: int16 (default), int16+8 (closest to "
     "float, slower) or int8"},
    {"lines", 0, NULL, "treat each line as its own document; flush output per line"},
    {"format", 0, "FMT",
     "output format: text (default), json (at most 1 M spans a document), jsonl (streamed)"},
    {"offsets", 0, "UNIT", "offset unit in json/jsonl: byte (default) or codepoint"},
    {"show-values", 0, NULL, "include the original values in json/jsonl output"},
    {"operator", 0, "[LABEL=]OP",
     "replacement operator, globally or per label: placeholder[:TEMPLATE], "
     "mask[:CHAR[:KEEP]], remove, hash[:HEXDIGITS], pseudonym (repeatable)"},
    {"key-file", 0, "FILE", "HMAC key for the hash operator (else $PII_REDACT_KEY)"},
    {"labels", 0, "LIST", "redact only these comma-separated labels"},
    {"exclude-labels", 0, "LIST", "never redact these comma-separated labels"},
    {"allow", 0, "FILE", "values never redacted: exact strings or re:REGEX lines"},
    {"deny", 0, "FILE", "values always redacted: [LABEL<TAB>]string or re:REGEX lines"},
    {"check", 0, NULL,
     "scan only: print one line per finding (path:line:col: label (source) fingerprint), no "
     "value; exit 1 if any, 0 if none"},
    {"report-format", 0, "FMT", "with --check: text (default), json, sarif (2.1.0) or csv"},
    {"baseline", 0, "FILE", "with --check: findings whose fingerprint is in FILE are not reported"},
    {"write-baseline", 0, NULL,
     "with --check: write every finding's fingerprint to --baseline FILE"},
    {"exit-code", 0, "N", "with --check: exit status when findings are reported (default 1)"},
    {"staged", 0, NULL,
     "with --check: scan the staged content of the files git would commit (FILEs: pathspecs)"},
    {"list-rules", 0, NULL, "list the rule tier's rules and exit"},
    /* batch mode (docs/BATCH.md) */
    {"recursive", 'r', NULL, "redact the files under each DIR argument"},
    {"include", 0, "GLOB", "with -r: only files whose name matches GLOB (repeatable)"},
    {"exclude", 0, "GLOB", "with -r: skip files and directories matching GLOB (repeatable)"},
    {"follow", 0, NULL, "with -r: follow symbolic links (default: skip them)"},
    {"no-ignore", 0, NULL,
     "with -r: do not read .gitignore, .ignore, .git/info/exclude or the global excludes"},
    {"hidden", 0, NULL, "with -r: walk .git folders too (other hidden files are always walked)"},
    {"cross-devices", 0, NULL,
     "with -r: walk into other file systems, and let --follow lead out of the tree"},
    {"binary", 0, NULL,
     "redact binary-looking files as bytes instead of skipping them (UTF-16/32 text then passes "
     "undecoded)"},
    {"out-dir", 0, "DIR", "write each output under DIR, mirroring the input paths"},
    {"in-place", 0, NULL, "replace each file atomically by its redacted version"},
    {"suffix", 0, "SUF", "write each output beside its input, named FILE+SUF"},
    {"resume", 0, NULL, "skip inputs whose --out-dir/--suffix output is newer"},
    {"jsonl-field", 0, "PATH",
     "JSON Lines: redact only the string values at PATH (a.b, *) (repeatable); numbers and "
     "keys are not scanned unless asked:"},
    {"jsonl-numbers", 0, NULL,
     "with --jsonl-field: scan numbers at PATH too; a redacted number becomes a JSON string "
     "(4111111111111111 -> \"<ACCOUNT_NUMBER>\")"},
    {"jsonl-keys", 0, NULL, "with --jsonl-field: scan the object keys at PATH too"},
    {"csv-column", 0, "COL", "CSV: redact only column COL, a name or 1-based index (repeatable)"},
    {"csv-delimiter", 0, "SEP",
     "CSV field separator: ',' (default; TAB for *.tsv and *.tab files), ';', tab or '|'"},
    {"jobs", 'j', "N", "worker threads over files (default: one per core)"},
    {"report", 0, "FILE", "write a JSON report: per file counts, bytes, time (no values)"},
    {"progress", 0, NULL, "show a progress line on stderr even when it is not a terminal"},
    {"quiet", 'q', NULL, "no notices on stderr"},
    {"help", 'h', NULL, "show this help and exit"},
    {"version", 'V', NULL, "show the version, the built-in model and the kernel path, and exit"},
    {NULL, 0, NULL, NULL},
};

static const int flag_ids[] = {
    O_MODEL,       O_RULES_ONLY,     O_MODEL_ONLY, O_WINDOW,        O_THRESHOLD,  O_OPERATING_POINT,
    O_CALIBRATION, O_NO_CALIBRATION, O_BIAS,       O_DECODE,        O_THREADS,    O_ACT,
    O_LINES,       O_FORMAT,         O_OFFSETS,    O_SHOW_VALUES,   O_OPERATOR,   O_KEY_FILE,
    O_LABELS,      O_EXCLUDE_LABELS, O_ALLOW,      O_DENY,          O_CHECK,      O_REPORT_FORMAT,
    O_BASELINE,    O_WRITE_BASELINE, O_EXIT_CODE,  O_STAGED,        O_LIST_RULES, O_RECURSIVE,
    O_INCLUDE,     O_EXCLUDE,        O_FOLLOW,     O_NO_IGNORE,     O_HIDDEN,     O_CROSS_DEVICES,
    O_BINARY,      O_OUT_DIR,        O_IN_PLACE,   O_SUFFIX,        O_RESUME,     O_JSONL_FIELD,
    O_JSONL_NUM,   O_JSONL_KEY,      O_CSV_COLUMN, O_CSV_DELIMITER, O_JOBS,       O_REPORT,
    O_PROGRESS,    O_QUIET,          O_HELP,       O_VERSION,
};

void pii_print_help(void)
{
    printf("Usage: pii-redact [OPTIONS] [FILE...]\n"
           "       pii-redact COMMAND [ARGS...]\n\n"
           "Finds personal data (PII) in text and redacts it.  With no FILE, or when FILE\n"
           "is -, reads standard input.  Writes the redacted text to standard output;\n"
           "every byte outside a redacted span is copied unchanged.\n\nOptions:\n");
    for (const pii_flag *f = pii_flags; f->name; f++) {
        char left[64];
        if (f->short_name)
            snprintf(left, sizeof left, "-%c, --%s%s%s", f->short_name, f->name, f->arg ? " " : "",
                     f->arg ? f->arg : "");
        else
            snprintf(left, sizeof left, "    --%s%s%s", f->name, f->arg ? " " : "",
                     f->arg ? f->arg : "");
        printf("  %-28s %s\n", left, f->help);
    }
    printf("\nCommands:\n");
    for (const pii_subcommand *c = pii_subcommands; c->name; c++)
        printf("  %-28s %s\n", c->name, c->summary);
    printf("\nDefaults for these options: $XDG_CONFIG_HOME/pii-redact/config (or\n"
           "~/.config/pii-redact/config), one NAME = VALUE per line; flags override\n"
           "$PII_REDACT_MODEL, which overrides the file.\n");
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

static void usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "pii-redact: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'pii-redact --help' for more information.\n");
}

/* Reports an option getopt_long refused (c: ':' or '?'): a missing
 * argument, an argument to an option that takes none, an ambiguous
 * abbreviation, or an unknown option.  A long option has just been consumed
 * (argv[optind - 1]) when optopt is 0 (unknown, ambiguous) or when that
 * argument names an option whose id is optopt; otherwise optopt is a short
 * option letter. */
static void option_error(int c, char **argv, const struct option *lo)
{
    const char *a = optind > 0 ? argv[optind - 1] : "";
    char buf[160];
    if (strncmp(a, "--", 2) == 0 && a[2]) {
        const char *name = a + 2;
        size_t n = strcspn(name, "=");
        const struct option *hit = NULL;
        size_t nhit = 0;
        for (const struct option *l = lo; l->name; l++) {
            if (strncmp(l->name, name, n) != 0)
                continue;
            if (strlen(l->name) == n) { /* an exact name is never ambiguous */
                hit = l;
                nhit = 1;
                break;
            }
            hit = l;
            nhit++;
        }
        if (optopt == 0 || (hit && nhit == 1 && hit->val == optopt)) {
            if (nhit == 1 && c == ':') {
                snprintf(buf, sizeof buf, "option '--%s' requires an argument", hit->name);
            } else if (nhit == 1 && name[n] == '=' && hit->has_arg == no_argument) {
                snprintf(buf, sizeof buf, "option '--%s' doesn't allow an argument", hit->name);
            } else if (nhit > 1) {
                int k = snprintf(buf, sizeof buf, "option '--%.*s' is ambiguous; possibilities:",
                                 (int)(n < 60 ? n : 60), name);
                for (const struct option *l = lo; l->name && k > 0 && (size_t)k < sizeof buf; l++)
                    if (strncmp(l->name, name, n) == 0)
                        k += snprintf(buf + k, sizeof buf - (size_t)k, " '--%s'", l->name);
            } else {
                snprintf(buf, sizeof buf, "unknown option '--%.*s'", (int)(n < 60 ? n : 60), name);
            }
            usage_error("%s", buf);
            return;
        }
    }
    if (c == ':')
        snprintf(buf, sizeof buf, "option '-%c' requires an argument", optopt);
    else if (optopt > 32 && optopt < 127)
        snprintf(buf, sizeof buf, "unknown option '-%c'", optopt);
    else
        snprintf(buf, sizeof buf, "unknown option '%.60s'", a);
    usage_error("%s", buf);
}

int pii_opts_parse(int argc, char **argv, pii_opts *o)
{
    enum { NFLAGS = sizeof flag_ids / sizeof flag_ids[0] };
    struct option lo[NFLAGS + 1];
    char shorts[2 * NFLAGS + 2];
    size_t ns = 0;
    shorts[ns++] = ':'; /* a missing argument is ':', not '?' */
    /* GNU argument order: options may follow file names ("-r DIR --out-dir
     * OUT"); "--" ends the options. */
    for (size_t i = 0; i < NFLAGS; i++) {
        const pii_flag *f = &pii_flags[i];
        lo[i].name = f->name;
        lo[i].has_arg = f->arg ? required_argument : no_argument;
        lo[i].flag = NULL;
        lo[i].val = flag_ids[i];
        if (f->short_name) {
            shorts[ns++] = (char)f->short_name;
            if (f->arg)
                shorts[ns++] = ':';
        }
    }
    memset(&lo[NFLAGS], 0, sizeof lo[NFLAGS]);
    shorts[ns] = '\0';

    memset(o, 0, sizeof *o);
    o->act = -1;
    opterr = 0;
    optind = 0; /* glibc: 0 re-initialises getopt completely (a stale short-option
                   cluster from an earlier parse is forgotten); 1 does not */
    int c;
    while ((c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
        switch (c) {
        case O_HELP:
            pii_print_help();
            return PII_EXIT_OK;
        case O_VERSION:
            pii_cli_print_version();
            return PII_EXIT_OK;
        case O_QUIET:
            o->quiet = 1;
            break;
        case O_RULES_ONLY:
            o->rules_only = 1;
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
            option_error(c, argv, lo);
            return PII_EXIT_USAGE;
        }
    }
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
    if ((o->jsonl_numbers || o->jsonl_keys) && !o->njsonl_fields) {
        usage_error("%s", "--jsonl-numbers and --jsonl-keys apply to --jsonl-field");
        return PII_EXIT_USAGE;
    }
    if (o->calibration && o->no_calibration) {
        usage_error("%s", "--calibration and --no-calibration cannot be combined");
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
