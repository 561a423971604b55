/* commands.c — the subcommand table.  Add one line per subcommand. */
#include <stddef.h>

#include "cli.h"

const pii_subcommand pii_subcommands[] = {
    {NULL, NULL, NULL},
};
