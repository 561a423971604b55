/* config_cli.c — the configuration API against the command, for
 * tests/lib/run.sh.
 *
 *   config_cli --list
 * prints the option table, one "KEY ARG REPEATABLE HIDDEN" line per entry
 * (ARG "-" for a switch).
 *   config_cli KEY VALUE [KEY VALUE ...] < in > out
 * sets each pair with pii_config_set (VALUE "" for a switch), builds a handle
 * with pii_easy_create_config and writes the redacted stdin; a failure is
 * "CODE_NAME: message" on stdout and exit 1 (run.sh compares the message
 * with the command's). */
#include <piiredact.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        const pii_config_info *o;
        for (size_t i = 0; (o = pii_config_option(i)); i++)
            printf("%s %s %d %d\n", o->key, o->arg ? o->arg : "-", o->repeatable, o->hidden);
        return 0;
    }
    if (argc % 2 == 0)
        return 2;
    pii_config *c = pii_config_create();
    pii_err e = c ? PII_OK : PII_ENOMEM;
    char msg[512] = "";
    for (int i = 1; !e && i + 1 < argc; i += 2)
        if ((e = pii_config_set(c, argv[i], argv[i + 1])))
            snprintf(msg, sizeof msg, "%s", pii_config_message(c));
    pii_easy *h = e ? NULL : pii_easy_create_config(c, &e, msg, sizeof msg);
    pii_config_free(c);
    if (!h) {
        printf("%s: %s\n", pii_errname(e), msg);
        return 1;
    }
    char *in = NULL, chunk[4096];
    size_t n = 0, k;
    while ((k = fread(chunk, 1, sizeof chunk, stdin)) > 0) {
        char *p = realloc(in, n + k);
        if (!p)
            return 1;
        memcpy(p + n, chunk, k);
        in = p, n += k;
    }
    char *out = NULL;
    size_t out_len = 0;
    if ((e = pii_easy_redact_buffer(h, in, n, &out, &out_len, NULL, NULL))) {
        printf("%s: redact\n", pii_errname(e));
        return 1;
    }
    fwrite(out, 1, out_len, stdout);
    pii_free(out);
    pii_easy_free(h);
    free(in);
    return 0;
}
