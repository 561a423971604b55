/* redact.c — the easy layer in ten lines: redacts one string with the rule
 * tier and prints it.  Build against an installed libpiiredact:
 *   cc redact.c $(pkg-config --cflags --libs piiredact) -o redact */
#include <piiredact.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    const char *text = "Mail bob.smith@example.com or call +1 415-555-0100 today.\n";
    char msg[256], *out;
    size_t out_len, n_spans;
    pii_span *spans;
    pii_err e;
    pii_easy *h = pii_easy_create_args("--rules-only", &e, msg, sizeof msg);
    if (!h ||
        (e = pii_easy_redact_buffer(h, text, strlen(text), &out, &out_len, &spans, &n_spans))) {
        fprintf(stderr, "redact: %s: %s\n", pii_strerror(e), h ? "" : msg);
        return 1;
    }
    fwrite(out, 1, out_len, stdout);
    for (size_t i = 0; i < n_spans; i++)
        printf("%s [%llu, %llu)\n", spans[i].label, (unsigned long long)spans[i].start,
               (unsigned long long)spans[i].end);
    pii_free(out);
    pii_free(spans);
    pii_easy_free(h);
    return 0;
}
