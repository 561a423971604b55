/* cli.h — shared pieces of the pii-redact command (not part of the library).
 *
 * Subcommands live in src/cmd_<name>.c as `int pii_cmd_<name>(int argc,
 * char **argv)` (argv[0] is the subcommand name) and are registered in the
 * table in src/commands.c.  They return one of the exit statuses below. */
#ifndef PII_CLI_H
#define PII_CLI_H

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

/* Maps a library error to an exit status. */
int pii_exit_for(pii_err e);

/* --version: the version, the built-in model (size and sha256 prefix of its
 * model.safetensors, or "none built in") and the kernel path this CPU runs
 * (pii_rt_isa_active: $PII_ISA or the best the CPU has), one per line:
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
