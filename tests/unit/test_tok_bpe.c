/* test_tok_bpe.c — white-box: BPE with the merge table (one canonical pair
 * per token, see tokenizer/tok_internal.h) must give exactly what the
 * reference rule gives, which looks every pair up by its bytes.  The second
 * tokenizer is a copy of the built-in one without its merge table, which is
 * the path taken by vocabularies too large for the table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pii_tok.h"
#include "tokenizer/tok_internal.h"

static uint64_t rng = 0x243F6A8885A308D3ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

static void compare(pii_tok_enc *a, pii_tok_enc *b, const char *text, size_t len)
{
    static pii_tok_buf x = PII_TOK_BUF_INIT, y = PII_TOK_BUF_INIT;
    x.n = y.n = 0;
    assert_int_equal(pii_tok_encode(a, text, len, &x), PII_OK);
    assert_int_equal(pii_tok_encode(b, text, len, &y), PII_OK);
    assert_int_equal(x.n, y.n);
    assert_memory_equal(x.ids, y.ids, x.n * sizeof *x.ids);
    assert_memory_equal(x.offs, y.offs, x.n * sizeof *x.offs);
}

static void test_merge_table_is_exact(void **state)
{
    (void)state;
    const pii_tok *o = pii_tok_o200k();
    assert_non_null(o->pair);
    pii_tok plain = *o; /* same vocabulary, no merge table */
    plain.pair = NULL;
    pii_tok_enc *a = pii_tok_enc_create(o), *b = pii_tok_enc_create(&plain);
    static char text[8192];
    for (int round = 0; round < 3000; round++) {
        /* concatenations of random tokens, so that many merges compete */
        size_t len = 0, want = 1 + rnd() % (round % 10 == 0 ? 6000 : 300);
        int letters = rnd() % 2;
        while (len < want) {
            size_t l;
            const uint8_t *t = pii_tok_token_bytes(o, (int32_t)(rnd() % 199998), &l);
            if (letters) { /* keep letters only: long pieces */
                int ok = 1;
                for (size_t i = 0; i < l; i++)
                    ok &= (t[i] >= 'a' && t[i] <= 'z') || t[i] >= 0x80;
                if (!ok)
                    continue;
            }
            if (len + l > sizeof text)
                break;
            memcpy(text + len, t, l);
            len += l;
        }
        compare(a, b, text, len);
    }
    pii_tok_enc_free(a);
    pii_tok_enc_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_merge_table_is_exact),
    };
    return cmocka_run_group_tests_name("tok_bpe", tests, NULL, NULL);
}
