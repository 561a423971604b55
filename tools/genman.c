/* genman.c — writes man/pii-redact.1 with its OPTIONS section generated
 * from the option table, src/options.def (the one --help prints from).
 *
 *   genman MANPAGE > NEW     (make man: NEW replaces MANPAGE)
 *
 * Copies MANPAGE and replaces the lines between the two markers below by
 * one entry per option (".TP", the option line, its man text) and a ".SS"
 * heading per OPT_SECTION, in the table's order.  Everything outside the
 * markers is hand-written and kept as it is.  tests/cli/t_cli_table.sh
 * fails when the committed page differs from the generated one.  Built
 * with the host compiler alone (mk/man.mk): no library, no link step
 * beyond libc. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BEGIN_MARK ".\\\" OPTIONS: generated from src/options.def by make man (tools/genman.c)"
#define END_MARK ".\\\" end of the generated OPTIONS"

/* Writes s with every '-' as roff's minus sign "\-". */
static void roff_dashes(const char *s)
{
    for (; *s; s++) {
        if (*s == '-')
            fputc('\\', stdout);
        fputc(*s, stdout);
    }
}

static void option(const char *name, int short_name, const char *arg, const char *man)
{
    /* .B --name | .BI --name " ARG" | .BR -x ", " --name | .BI -x ", " --name " ARG" */
    fputs(".TP\n", stdout);
    fputs(short_name ? (arg ? ".BI " : ".BR ") : (arg ? ".BI " : ".B "), stdout);
    if (short_name)
        printf("\\-%c \", \" ", short_name);
    fputs("\\-\\-", stdout);
    roff_dashes(name);
    if (arg) {
        fputs(" \" ", stdout);
        roff_dashes(arg);
        fputc('"', stdout);
    }
    fputc('\n', stdout);
    fputs(man, stdout);
}

static void section(const char *title, const char *man)
{
    printf(".SS \"%s\"\n", title);
    fputs(man, stdout);
}

static void generate(void)
{
    printf("%s\n", BEGIN_MARK);
    fputs(".\\\" Edit src/options.def, then run make man; do not edit these lines.\n", stdout);
#define OPT(id, name, short_name, arg, help, man) option(name, short_name, arg, man);
#define OPT_SECTION(title, man) section(title, man);
#include "src/options.def"
#undef OPT
#undef OPT_SECTION
    printf("%s\n", END_MARK);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: genman MANPAGE > NEW\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    char line[4096];
    int state = 0; /* 0 before the section, 1 inside, 2 after */
    while (fgets(line, sizeof line, f)) {
        size_t n = strcspn(line, "\n");
        if (state == 0 && n == strlen(BEGIN_MARK) && !strncmp(line, BEGIN_MARK, n)) {
            generate();
            state = 1;
        } else if (state == 1) {
            if (n == strlen(END_MARK) && !strncmp(line, END_MARK, n))
                state = 2;
        } else {
            fputs(line, stdout);
        }
    }
    fclose(f);
    if (state != 2) {
        fprintf(stderr, "genman: %s: the markers of the OPTIONS section are missing\n", argv[1]);
        return 1;
    }
    return ferror(stdout) || fflush(stdout) ? 1 : 0;
}
