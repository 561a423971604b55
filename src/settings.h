/* settings.h — the main command's lasting settings: which model runs, and
 * option defaults from a config file.  CLI only, not part of the library.
 *
 * Precedence (docs in pii-redact(1), FILES and ENVIRONMENT):
 *   command-line flags  >  $PII_REDACT_MODEL  >  the config file  >  built-in.
 * The config file is --config FILE, else $PII_REDACT_CONFIG (both must
 * exist), else $XDG_CONFIG_HOME/pii-redact/config, or
 * $HOME/.config/pii-redact/config when XDG_CONFIG_HOME is unset or empty
 * (may be missing); --no-config reads none, and --help/--version never
 * read it.  Each line is "NAME = VALUE" or "NAME" (a switch, also
 * "NAME = true"/"NAME = false") with NAME a long option of the main command
 * (without "--"); blank lines and lines starting with '#' are ignored.  An
 * unknown NAME (or help, version, config, no-config) is a warning naming
 * the file and line, and is skipped; every other error names them too.
 *
 * Switches: "--NAME=true" is "--NAME"; "--NAME=false" undoes every earlier
 * setting of the switch (the config file's and the command line's), so a
 * switch set in the config file is turned off with --NAME=false.
 *
 * Model names: "builtin" is the model compiled in; "opf" is OpenAI opf's
 * checkpoint ($OPF_CHECKPOINT, else ~/.opf/privacy_filter).  With no model
 * set anywhere, an opf checkpoint that exists there is used (announced on
 * stderr once per process, unless quiet); else the built-in model. */
#ifndef PII_SETTINGS_H
#define PII_SETTINGS_H

#include <stddef.h>

/* The argument vector the options are parsed from. */
typedef struct pii_settings_args {
    int argc;
    char **argv;         /* NULL-terminated */
    const char **origin; /* origin[i]: "FILE:LINE" of argv[i] from the config file, else NULL */
    char **owned;        /* strings allocated here */
    int nowned, capowned;
} pii_settings_args;

/* argv with the config file's options and $PII_REDACT_MODEL (as --model)
 * inserted after argv[0], before the command line's own arguments, so that
 * later flags win, and switch values resolved (above).  Returns -1 on
 * success (free *a with pii_settings_argv_free), else an exit status after
 * a message naming the file and line. */
int pii_settings_argv(int argc, char **argv, pii_settings_args *a);
void pii_settings_argv_free(pii_settings_args *a);

/* The model named by $PII_REDACT_MODEL, else by the config file's "model"
 * line, else NULL.  Returns -1, or an exit status after a message. */
int pii_settings_default_model(char *buf, size_t cap, const char **out);

/* Resolves a model setting (NULL: none given) to a path, or to NULL for the
 * built-in model: the keywords above, and opf auto-detection.  Returns -1,
 * or an exit status after a message ("opf" with no checkpoint found). */
int pii_settings_model(const char *given, int quiet, char *buf, size_t cap, const char **out);

#endif
