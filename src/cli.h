/* cli.h — shared pieces of the pii-redact command (not part of the library).
 *
 * Subcommands live in src/cmd_<name>.c as `int pii_cmd_<name>(int argc,
 * char **argv)` (argv[0] is the subcommand name) and are registered in the
 * table in src/commands.c.  They return one of the exit statuses below. */
#ifndef PII_CLI_H
#define PII_CLI_H

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

#include "pii_error.h"

enum {
    PII_EXIT_OK = 0,    /* success; --check: no PII found               */
    PII_EXIT_FOUND = 1, /* --check: PII found                           */
    PII_EXIT_USAGE = 2, /* bad option or argument                       */
    PII_EXIT_IO = 3,    /* input/output error (some file failed)        */
    PII_EXIT_MODEL = 4, /* model could not be loaded or failed          */
    PII_EXIT_FAIL = 5,  /* anything else: out of memory, internal error */
};

typedef struct pii_subcommand {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary; /* one line for --help */
} pii_subcommand;

/* NULL-name-terminated table, src/commands.c. */
extern const pii_subcommand pii_subcommands[];

/* The subcommand within two edits of `word` ("bnech": "bench"), or NULL;
 * never for a word with a '/' or a '.' (a path). */
const char *pii_subcommand_near(const char *word);

/* One option of a command's table: the main command's (src/options.def)
 * and each subcommand's.  Parsing and --help are both driven by the table. */
typedef struct pii_flag {
    const char *name; /* long name without "--" */
    int short_name;   /* 0 if none */
    const char *arg;  /* argument name, NULL if none */
    const char *help; /* one line for --help, lower case, no final stop */
} pii_flag;

/* --help in one style for the command and every subcommand (src/clihelp.c):
 *
 *   Usage: SYNOPSIS
 *
 *   ABOUT
 *
 *   Options:
 *     -x, --long ARG               help, wrapped at 79 columns under itself
 *         --other                  ...
 *
 *   EPILOGUE
 *
 * The synopsis is wrapped (continued under the subcommand's first
 * argument); ABOUT and EPILOGUE are paragraphs without the final newline, printed as
 * they are (EPILOGUE may be NULL).  The first n entries of flags are printed
 * (fewer if a NULL name comes first). */
void pii_cli_usage(FILE *f, const char *synopsis, const char *about, const pii_flag *flags,
                   size_t n, const char *epilogue);
/* One line of such a list: "  LEFT", TEXT from column 31 (the next line
 * when LEFT is wider than 28), wrapped. */
void pii_cli_print_item(FILE *f, const char *left, const char *text);
/* Just the option lines of pii_cli_usage. */
void pii_cli_print_options(FILE *f, const pii_flag *flags, size_t n);
/* getopt_long's tables from flags[0..n): lo (n + 1 entries, the last one
 * zero) with flags[k]'s value first_id + k, and shorts (2n + 2 chars: ':'
 * first, so a missing argument is ':', then each short letter, with ':'
 * after it when it takes an argument).  short_ids[c] (128 entries) is set
 * to the value of the option whose letter is c, 0 for other letters: map
 * what getopt returns through it to switch on the values alone. */
void pii_cli_getopt_table(const pii_flag *flags, size_t n, int first_id, struct option *lo,
                          char *shorts, int short_ids[128]);

/* Reports an option getopt_long refused (c: ':' or '?', with ':' first in
 * the short options and opterr 0) on stderr: a missing argument, an
 * argument to an option that takes none, an ambiguous abbreviation (with
 * the possibilities), or an unknown option; then "Try 'pii-redact[ CMD]
 * --help' ...".  cmd: the subcommand, NULL for the main command.  A long
 * option has just been consumed (argv[optind - 1]) when optopt is 0
 * (unknown, ambiguous) or when that argument names an option whose value
 * is optopt; otherwise optopt is a short option letter. */
void pii_cli_option_error(const char *cmd, int c, char **argv, const struct option *lo);

/* Maps a library error to an exit status. */
int pii_exit_for(pii_err e);

/* --version: the version, the built-in model (size and sha256 prefix of its
 * model.safetensors, or "none built in") and the kernel path this CPU runs
 * (mc_isa_active: $PII_ISA or the best the CPU has), one per line:
 *   pii-redact 0.1.0
 *   model:   built-in, 33446596 bytes, sha256 1f2e3d4c5b6a
 *   kernels: avx2
 * (src/cmd_info.c) */
void pii_cli_print_version(void);

/* Test hook (src/testhook.c, docs/HARDENING.md): reads $PII_REDACT_FAULT once
 * and arms the library's fault-injection counters; with "count" in it the
 * event counts are printed to stderr at exit.  Non-zero (after a message)
 * when the variable is malformed. */
#ifdef PII_FAULT_INJECTION /* the fault, san and fuzz variants (pii_fault.h) */
int pii_cli_testhook_init(void);
/* Test hook for races (docs/HARDENING.md): when $PII_REDACT_PAUSE is
 * "POINT:FIFO" and `point` is POINT, opens FIFO for reading and reads one
 * byte, so a test can change the file system at exactly that point (it
 * opens the FIFO for writing, which returns once we are waiting, acts,
 * then writes a byte).  Points: "walked" (batch: after the inputs are
 * listed, before any is opened), "commit" (batch: an output is complete,
 * before it replaces anything).  Otherwise does nothing. */
void pii_cli_testhook_pause(const char *point);
#else /* release: no test hooks, nothing read from the environment */
#define pii_cli_testhook_init() 0
#define pii_cli_testhook_pause(point) ((void)(point))
#endif

#endif
