/* clihelp.c — --help in one style, and getopt's tables from an option
 * table (cli.h). */
#include <string.h>

#include "cli.h"

enum {
    HELP_LEFT = 28,  /* "  " + the option column, padded to this width */
    HELP_COL = 31,   /* where descriptions start */
    HELP_WIDTH = 79, /* no line of a description passes this column */
};

/* Writes text at column col (already reached), breaking at spaces so no
 * line passes HELP_WIDTH (a longer word stays whole), continuation lines
 * at column indent; the spaces between words are kept where no break
 * falls. */
static void wrap(FILE *f, const char *text, int col, int indent)
{
    const char *p = text;
    while (*p) {
        size_t sp = strspn(p, " ");
        size_t wl = strcspn(p + sp, " ");
        if (col > indent && col + (int)(sp + wl) > HELP_WIDTH) {
            fprintf(f, "\n%*s", indent, "");
            col = indent;
        } else {
            fprintf(f, "%.*s", (int)sp, p);
            col += (int)sp;
        }
        fwrite(p + sp, 1, wl, f);
        col += (int)wl;
        p += sp + wl;
    }
    fputc('\n', f);
}

void pii_cli_print_item(FILE *f, const char *left, const char *text)
{
    int col = fprintf(f, "  %s", left);
    if (col > 2 + HELP_LEFT)
        fprintf(f, "\n%*s", HELP_COL, "");
    else
        fprintf(f, "%*s", HELP_COL - col, "");
    wrap(f, text, HELP_COL, HELP_COL);
}

void pii_cli_print_options(FILE *f, const pii_flag *flags, size_t n)
{
    for (size_t k = 0; k < n && flags[k].name; k++) {
        const pii_flag *o = &flags[k];
        char left[80];
        snprintf(left, sizeof left, "%c%c%c --%s%s%s", o->short_name ? '-' : ' ',
                 o->short_name ? o->short_name : ' ', o->short_name ? ',' : ' ', o->name,
                 o->arg ? " " : "", o->arg ? o->arg : "");
        pii_cli_print_item(f, left, o->help);
    }
}

void pii_cli_usage(FILE *f, const char *synopsis, const char *about, const pii_flag *flags,
                   size_t n, const char *epilogue)
{
    /* "Usage: pii-redact CMD ..." continues under the first argument */
    const char *args = strchr(synopsis, ' ');
    args = args ? strchr(args + 1, ' ') : NULL;
    int indent = args ? (int)(args - synopsis) + 8 : 7;
    fputs("Usage: ", f);
    wrap(f, synopsis, 7, indent);
    fprintf(f, "\n%s\n\nOptions:\n", about);
    pii_cli_print_options(f, flags, n);
    if (epilogue)
        fprintf(f, "\n%s\n", epilogue);
}

void pii_cli_getopt_table(const pii_flag *flags, size_t n, int first_id, struct option *lo,
                          char *shorts, int short_ids[128])
{
    size_t ns = 0;
    shorts[ns++] = ':';
    memset(short_ids, 0, 128 * sizeof *short_ids);
    for (size_t k = 0; k < n; k++) {
        const pii_flag *o = &flags[k];
        lo[k].name = o->name;
        lo[k].has_arg = o->arg ? required_argument : no_argument;
        lo[k].flag = NULL;
        lo[k].val = first_id + (int)k;
        if (o->short_name > 0 && o->short_name < 128) {
            short_ids[o->short_name] = first_id + (int)k;
            shorts[ns++] = (char)o->short_name;
            if (o->arg)
                shorts[ns++] = ':';
        }
    }
    memset(&lo[n], 0, sizeof lo[n]);
    shorts[ns] = '\0';
}

static void cli_usage_error(const char *cmd, const char *msg)
{
    fprintf(stderr, "pii-redact%s%s: %s\nTry 'pii-redact%s%s --help' for more information.\n",
            cmd ? " " : "", cmd ? cmd : "", msg, cmd ? " " : "", cmd ? cmd : "");
}

void pii_cli_option_error(const char *cmd, int c, char **argv, const struct option *lo)
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
            cli_usage_error(cmd, buf);
            return;
        }
    }
    if (c == ':')
        snprintf(buf, sizeof buf, "option '-%c' requires an argument", optopt);
    else if (optopt > 32 && optopt < 127)
        snprintf(buf, sizeof buf, "unknown option '-%c'", optopt);
    else
        snprintf(buf, sizeof buf, "unknown option '%.60s'", a);
    cli_usage_error(cmd, buf);
}
