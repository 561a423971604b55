/* easy_cli.c — the easy layer against the command, for tests/lib/run.sh.
 *
 *   easy_cli OPTIONS < in > out
 * redacts stdin with pii_easy_create_args(OPTIONS) twice, through
 * pii_easy_redact_buffer and through a stream fed in 7-byte chunks; exits 1
 * when the two differ, else writes the text (run.sh compares it with
 * `pii-redact OPTIONS`).
 *   easy_cli --error OPTIONS
 * prints "CODE_NAME: message" of a failing create and exits 0 only when it
 * failed. */
#include <piiredact.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char *p;
    size_t n, cap;
} buf;

static pii_err put(void *ud, const void *data, size_t len)
{
    buf *b = ud;
    if (b->n + len > b->cap) {
        size_t cap = (b->n + len) * 2;
        char *p = realloc(b->p, cap);
        if (!p)
            return PII_ENOMEM;
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, data, len);
    b->n += len;
    return PII_OK;
}

int main(int argc, char **argv)
{
    char msg[512] = "";
    pii_err e = PII_OK;
    if (argc == 3 && strcmp(argv[1], "--error") == 0) {
        pii_easy *h = pii_easy_create_args(argv[2], &e, msg, sizeof msg);
        printf("%s: %s\n", pii_errname(e), msg);
        pii_easy_free(h);
        return h ? 1 : 0;
    }
    if (argc != 2)
        return 2;
    buf in = {0}, st = {0};
    char chunk[4096];
    size_t k;
    while ((k = fread(chunk, 1, sizeof chunk, stdin)) > 0)
        if (put(&in, chunk, k))
            return 1;
    pii_easy *h = pii_easy_create_args(argv[1], &e, msg, sizeof msg);
    if (!h) {
        fprintf(stderr, "easy_cli: %s: %s\n", pii_errname(e), msg);
        return 1;
    }
    char *out = NULL;
    size_t out_len = 0;
    if ((e = pii_easy_redact_buffer(h, in.p, in.n, &out, &out_len, NULL, NULL))) {
        fprintf(stderr, "easy_cli: redact_buffer: %s\n", pii_errname(e));
        return 1;
    }
    pii_easy_stream *s = pii_easy_stream_open(h, put, &st, &e);
    for (size_t i = 0; s && !e && i < in.n; i += 7)
        e = pii_easy_stream_feed(s, in.p + i, in.n - i < 7 ? in.n - i : 7);
    if (s && !e)
        e = pii_easy_stream_finish(s);
    pii_easy_stream_free(s);
    int rc = 0;
    if (e || st.n != out_len || (out_len && memcmp(st.p, out, out_len))) {
        fprintf(stderr, "easy_cli: the stream (%s, %zu bytes) differs from the buffer (%zu)\n",
                pii_errname(e), st.n, out_len);
        rc = 1;
    } else if (out[out_len] != 0) {
        fprintf(stderr, "easy_cli: no NUL after the text\n");
        rc = 1;
    } else {
        fwrite(out, 1, out_len, stdout);
    }
    pii_free(out);
    pii_easy_free(h);
    free(in.p);
    free(st.p);
    return rc;
}
