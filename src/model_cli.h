/* model_cli.h — helpers shared by the model subcommands (mkmodel, info,
 * logits): a small flag table driving parsing and --help, and model loading
 * with error reporting.  CLI only, not part of the library. */
#ifndef PII_MODEL_CLI_H
#define PII_MODEL_CLI_H

#include <stdio.h>

#include "cli.h"
#include "pii_model.h"

/* The subcommand's option table (cli.h): drives mc_next and --help. */
typedef pii_flag mc_opt;

/* Returns the index of the option at argv[*i] (advancing *i past it and its
 * argument, *val set), MC_END after the last argument, MC_POS for a
 * positional argument (*val = it), or MC_ERR after printing a message. */
enum { MC_END = -1, MC_POS = -2, MC_ERR = -3 };
int mc_next(const char *cmd, int argc, char **argv, int *i, const mc_opt *opts, size_t nopts,
            const char **val);
/* --help in the one style of every command (pii_cli_usage). */
void mc_usage(FILE *f, const char *synopsis, const char *about, const mc_opt *opts, size_t nopts);
/* Parses a non-negative integer with an upper bound; prints on error. */
int mc_uint(const char *cmd, const char *opt, const char *s, unsigned long long max,
            unsigned long long *out);

/* Default load parameters plus the environment's PII_GGUF_Q8_0 ("exact":
 * keep Q8_0 GGUF experts as stored instead of repacking them to int8) and
 * the command's kernel choice: isa from mc_isa_choice, qact from mc_qact. */
void mc_params(pii_model_params *p);
/* The kernel path the command asks for: --isa, else $PII_ISA (read here and
 * nowhere else: the library takes the path as a parameter; a value the CPU
 * cannot run, or an unknown one, is ignored), else -1 (the best). */
int mc_isa_choice(void);
void mc_isa_choice_set(int c); /* back to a value mc_isa_choice returned */
/* The same resolved to a path (what the models of this process run). */
pii_rt_isa mc_isa_active(void);
/* Activation precision of quantized models loaded after this (--act). */
void mc_qact(pii_rt_qact a);
/* The attention of int8 models (pii_model_params.attn): mc_attn_parse
 * gives the PII_MODEL_ATTN_ value of "auto", "f32" or "int16", -1 for
 * anything else. */
void mc_attn(int a);
int mc_attn_active(void); /* the choice of mc_attn, PII_MODEL_ATTN_AUTO by default */
int mc_attn_parse(const char *s);
/* --attn NAME of a subcommand: sets the choice, or prints a usage error
 * naming cmd and returns -1. */
int mc_attn_opt(const char *cmd, const char *name);
pii_rt_qact mc_qact_active(void);
/* Loads a model, printing "pii-redact CMD: message" on failure. */
pii_model *mc_load(const char *cmd, const char *path, int rope_f32, int *status);
/* The tokenizer for a model: tokenizer.json beside it, else the GGUF's
 * tokenizer.ggml.tokens, else the built-in o200k_base.  *owned receives a
 * loaded tokenizer to free (NULL for the built-in one); *source names it.
 * Prints and returns NULL on error. */
struct pii_tok;
const struct pii_tok *mc_tokenizer(const char *cmd, const pii_model *m, struct pii_tok **owned,
                                   const char **source, int *status);

/* Applies --isa NAME to models loaded after it; prints on error.  Returns 0
 * on success. */
int mc_isa(const char *cmd, const char *name);

#endif
