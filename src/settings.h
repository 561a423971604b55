/* settings.h — the main command's lasting settings: which model runs, and
 * option defaults from a config file.  CLI only, not part of the library.
 *
 * Precedence (docs in pii-redact(1), FILES and ENVIRONMENT):
 *   command-line flags  >  $PII_REDACT_MODEL  >  the config file  >  built-in.
 * The config file is $XDG_CONFIG_HOME/pii-redact/config, or
 * $HOME/.config/pii-redact/config when XDG_CONFIG_HOME is unset or empty.
 * Each line is "NAME = VALUE" or "NAME" (a switch) with NAME a long option
 * of the main command (without "--"; not help or version); blank lines and
 * lines starting with '#' are ignored.  A switch in the file cannot be
 * turned off by a flag.
 *
 * Model names: "builtin" is the model compiled in; "opf" is OpenAI opf's
 * checkpoint ($OPF_CHECKPOINT, else ~/.opf/privacy_filter).  With no model
 * set anywhere, an opf checkpoint that exists there is used (announced on
 * stderr once per process, unless quiet); else the built-in model. */
#ifndef PII_SETTINGS_H
#define PII_SETTINGS_H

#include <stddef.h>

/* argv with the config file's options and $PII_REDACT_MODEL (as --model)
 * inserted after argv[0], before the command line's own arguments, so that
 * later flags win.  Returns -1 on success (*out_argv, holding *ninserted
 * new strings at [1, 1 + *ninserted), to be freed with
 * pii_settings_argv_free), else an exit status after printing a message
 * naming the file and line. */
int pii_settings_argv(int argc, char **argv, int *out_argc, char ***out_argv, int *ninserted);
void pii_settings_argv_free(int ninserted, char **argv);

/* The model named by $PII_REDACT_MODEL, else by the config file's "model"
 * line, else NULL.  Returns -1, or an exit status after a message. */
int pii_settings_default_model(char *buf, size_t cap, const char **out);

/* Resolves a model setting (NULL: none given) to a path, or to NULL for the
 * built-in model: the keywords above, and opf auto-detection.  Returns -1,
 * or an exit status after a message ("opf" with no checkpoint found). */
int pii_settings_model(const char *given, int quiet, char *buf, size_t cap, const char **out);

#endif
