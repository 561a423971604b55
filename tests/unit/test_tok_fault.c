/* test_tok_fault.c — allocation failures (include/pii_fault.h; this suite
 * is linked with the malloc wrappers, see mk/tokenizer.mk): the n-th
 * allocation fails, for every n that a call makes, and every call either
 * succeeds or fails cleanly with PII_ENOMEM, leaking nothing (ASan) and
 * leaving its outputs usable. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "pii_fault.h"
#include "pii_tok.h"

static const char text[] =
    "Alice Smith lives at 123 Main Street and uses alice@example.com.  "
    "Zo\xc3\xab paid \xc2\xa3"
    "20 and waved \xf0\x9f\x91\x8b\xf0\x9f\x8f\xbd. pseudonymization \xe4\xb8\xad\xe6\x96\x87 "
    "\xd0\xbf\xd1\x81\xd0\xb5\xd0\xb2\xd0\xb4\xd0\xbe\xd0\xbd\xd0\xb8\xd0\xbc \xff\xfe";

static void test_encoder_alloc_failures(void **state)
{
    (void)state;
    const pii_tok *tok = pii_tok_o200k();
    /* the reference, without faults */
    pii_tok_enc *ref = pii_tok_enc_create(tok);
    pii_tok_buf want = PII_TOK_BUF_INIT;
    assert_int_equal(pii_tok_encode(ref, text, sizeof text - 1, &want), PII_OK);
    pii_tok_enc_free(ref);
    int completed = 0;
    for (uint64_t n = 1; n < 100 && !completed; n++) {
        pii_fault_set(PII_FAULT_ALLOC, n, 1);
        pii_tok_enc *enc = pii_tok_enc_create(tok);
        pii_tok_buf out = PII_TOK_BUF_INIT;
        pii_err e = enc ? pii_tok_encode(enc, text, sizeof text - 1, &out) : PII_ENOMEM;
        pii_fault_reset();
        if (e == PII_OK) {
            completed = 1;
            assert_int_equal(out.n, want.n);
            assert_memory_equal(out.ids, want.ids, want.n * sizeof *want.ids);
        } else {
            assert_int_equal(e, PII_ENOMEM);
            /* whatever was appended is a prefix of the right tokens */
            assert_true(out.n <= want.n);
            if (out.n)
                assert_memory_equal(out.ids, want.ids, out.n * sizeof *want.ids);
        }
        pii_tok_buf_free(&out);
        pii_tok_enc_free(enc);
    }
    assert_true(completed);
    pii_tok_buf_free(&want);
}

static void test_buffer_growth_failure_keeps_prefix(void **state)
{
    (void)state;
    pii_tok_enc *enc = pii_tok_enc_create(pii_tok_o200k());
    assert_non_null(enc);
    /* a long text so that the buffer has to grow several times */
    size_t len = 200000;
    char *big = malloc(len);
    for (size_t i = 0; i < len; i++)
        big[i] = "the quick brown fox "[i % 20];
    pii_tok_buf want = PII_TOK_BUF_INIT;
    assert_int_equal(pii_tok_encode(enc, big, len, &want), PII_OK);
    for (uint64_t n = 1; n <= 12; n++) {
        pii_tok_buf out = PII_TOK_BUF_INIT;
        pii_fault_set(PII_FAULT_ALLOC, n, 1);
        pii_err e = pii_tok_encode(enc, big, len, &out);
        pii_fault_reset();
        if (e == PII_OK) {
            assert_int_equal(out.n, want.n);
        } else {
            assert_int_equal(e, PII_ENOMEM);
            assert_true(out.n < want.n);
            if (out.n) {
                assert_memory_equal(out.ids, want.ids, out.n * sizeof *out.ids);
                assert_memory_equal(out.offs, want.offs, out.n * sizeof *out.offs);
            }
        }
        pii_tok_buf_free(&out);
    }
    pii_tok_buf_free(&want);
    free(big);
    pii_tok_enc_free(enc);
}

static void test_loader_alloc_failures(void **state)
{
    (void)state;
    char path[256];
    const char *t = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/pii_tok_fault_%d.tiktoken", t && *t ? t : "/tmp",
             (int)getpid());
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    static const char A[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (int b = 0; b < 256; b++)
        fprintf(f, "%c%c== %d\n", A[b >> 2], A[(b & 3) << 4], b);
    fprintf(f, "YWI= 256\nYWJj 257\n");
    fclose(f);
    int completed = 0;
    for (uint64_t n = 1; n < 2000 && !completed; n++) {
        pii_tok *tok = NULL;
        char err[256];
        pii_fault_set(PII_FAULT_ALLOC, n, 1);
        pii_err e = pii_tok_load_tiktoken(path, &tok, err, sizeof err);
        pii_fault_reset();
        if (e == PII_OK) {
            completed = 1;
            pii_tok_enc *enc = pii_tok_enc_create(tok);
            pii_tok_buf out = PII_TOK_BUF_INIT;
            assert_int_equal(pii_tok_encode(enc, "abc abd", 7, &out), PII_OK);
            assert_int_equal(out.n, 4);
            assert_int_equal(out.ids[0], 257);
            pii_tok_buf_free(&out);
            pii_tok_enc_free(enc);
        } else {
            assert_true(e == PII_ENOMEM || e == PII_EIO);
            assert_null(tok);
        }
        pii_tok_free(tok);
    }
    assert_true(completed);
    remove(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_encoder_alloc_failures),
        cmocka_unit_test(test_buffer_growth_failure_keeps_prefix),
        cmocka_unit_test(test_loader_alloc_failures),
    };
    return cmocka_run_group_tests_name("tok_fault", tests, NULL, NULL);
}
