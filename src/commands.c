/* commands.c — the subcommand table.  Add one line per subcommand. */
#include <stddef.h>

#include "cli.h"

int pii_cmd_eval(int argc, char **argv);
int pii_cmd_mkmodel(int argc, char **argv);
int pii_cmd_info(int argc, char **argv);
int pii_cmd_logits(int argc, char **argv);
int pii_cmd_tokenize(int argc, char **argv);

const pii_subcommand pii_subcommands[] = {
    {"eval", pii_cmd_eval, "score the redactor on eval files (per-label P/R/F1, leak rate)"},
    {"mkmodel", pii_cmd_mkmodel, "write a random-weight model (HF layout or GGUF)"},
    {"info", pii_cmd_info, "describe a model: format, shapes, dtypes, labels"},
    {"logits", pii_cmd_logits, "print the encoder's logits for stdin, one JSON line per token"},
    {"tokenize", pii_cmd_tokenize, "print o200k token ids (and byte offsets)"},
    {NULL, NULL, NULL},
};
