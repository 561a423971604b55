/* opts.h — the option table of the main command and the parsed options.
 *
 * One table, src/options.def, gives the option ids, pii_flags (getopt_long's
 * table, the config file's keys, --help; src/opts.c) and the man page's
 * OPTIONS section (tools/genman.c, `make man`).  To add an option: an OPT
 * line there, a case in pii_opts_parse, then `make man`. */
#ifndef PII_OPTS_H
#define PII_OPTS_H

#include <stddef.h>

#include "cli.h"
#include "pii_redact.h"

enum pii_format { PII_FMT_TEXT, PII_FMT_JSON, PII_FMT_JSONL };
enum pii_report_format { PII_RFMT_TEXT, PII_RFMT_JSON, PII_RFMT_SARIF, PII_RFMT_CSV };

typedef struct pii_opts {
    int rules_only, model_only;
    int all_dates_urls; /* --all-dates-urls: PII_RULES_BROAD */
    int lines;
    const char *config;     /* --config (read by settings.c) */
    const char *rules_file; /* --rules-file */
    int no_rules_file;      /* --no-rules-file */
    int rules_discover;     /* read .pii-redact.rules at the repository root (main command) */
    long flush_delay;       /* --flush-delay: ms (default 200), 0: pauses never end a document */
    enum pii_format format;
    int offsets_cp;
    int show_values;
    int check;
    /* --check as a scanner (docs/CI.md) */
    enum pii_report_format report_format;
    const char *baseline;
    int write_baseline;
    int exit_code; /* 0: the default, 1 */
    int report_format_given;
    int staged; /* --staged: the index's blobs of the staged files (staged.h) */
    int diff;   /* --diff: the added lines of a unified diff (diffscan.h) */
    int quiet;
    int list_rules;
    const char *model_path;
    /* model tier: raw option strings, applied by pii_pipeline_build */
    const char *window, *operating_point, *calibration, *decode, *threads;
    const char *pack;    /* pack_tokens (no option of its own: `bench --pack`); NULL: the window */
    int act;             /* --act: a pii_rt_qact value, or -1 when not given */
    int attn;            /* --attn: a PII_MODEL_ATTN_ value, or -1 when not given */
    int no_calibration;  /* --no-calibration */
    int no_name_memory;  /* --no-name-memory */
    int no_name_lexicon; /* --no-name-lexicon */
    int no_name_filter;  /* --no-name-filter */
    int no_dict_filter;  /* --no-dictionary-filter */
    int no_honorifics;   /* --no-honorifics */
    int no_citations;    /* --no-citations */
    const char **thresholds, **biases; /* repeatable, borrowed from argv */
    size_t n_thresholds, n_biases;
    const char *key_file;
    const char *map_out; /* --map-out: reversible pseudonyms, their map file */
    const char *allow_file, *deny_file;
    /* operators: global default and "label=op" overrides, in order */
    const char *op_default;
    const char **op_label; /* "label=op" strings, borrowed from argv */
    size_t n_op_label;
    const char *labels, *exclude_labels; /* comma lists */
    char **files;
    size_t nfiles;
    /* batch mode (src/batch.c, docs/BATCH.md); lists are borrowed from argv */
    int recursive, in_place, binary, follow, progress, resume;
    int no_ignore, hidden; /* -r: ignore files not read; .git folders walked */
    int cross_devices;     /* -r: other file systems, --follow out of the tree */
    long jobs;             /* 0: one per core */
    const char *out_dir, *suffix, *report;
    const char **include, **exclude, **jsonl_fields, **csv_columns;
    size_t ninclude, nexclude, njsonl_fields, ncsv_columns;
    char csv_delimiter;            /* 0: ',' (TAB for *.tsv, *.tab) */
    int bad_records;               /* --bad-records: 0 fail, 1 text (PII_REC_BAD_*) */
    int json_doc;                  /* --json: inputs are JSON documents */
    int structured;                /* --structured: handling by extension */
    int as_text;                   /* --as-text: -r without structured handling */
    int jsonl_numbers, jsonl_keys; /* --jsonl-numbers, --jsonl-keys */
} pii_opts;

extern const pii_flag pii_flags[];

/* Parses argv into o.  Returns -1 to continue, or an exit status (help,
 * version and usage errors are handled here, messages on stdout/stderr). */
int pii_opts_parse(int argc, char **argv, pii_opts *o);
/* The places of the arguments of the next pii_opts_parse: origin[i] is
 * "FILE:LINE" for argv[i] from the config file (settings.h), else NULL
 * (borrowed; NULL: none).  An invalid value is reported with its place. */
void pii_opts_origins(const char *const *origin);
void pii_opts_free(pii_opts *o);
void pii_print_help(void);

#endif
