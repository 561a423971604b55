/* commands.c — the subcommand table.  Add one line per subcommand. */
#include <stddef.h>

#include "cli.h"

int pii_cmd_eval(int argc, char **argv);

const pii_subcommand pii_subcommands[] = {
    {"eval", pii_cmd_eval, "score the redactor on eval files (per-label P/R/F1, leak rate)"},
    {NULL, NULL, NULL},
};
