/* test_tok_basic.c — the spec §9 vectors, widened offsets, special tokens,
 * invalid UTF-8, long pieces, and the streaming guarantee of
 * pii_tok_stable_len / pii_tok_encode_stream. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pii_tok.h"

static pii_tok_enc *enc;

static int setup(void **state)
{
    (void)state;
    enc = pii_tok_enc_create(pii_tok_o200k());
    return enc ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    pii_tok_enc_free(enc);
    return 0;
}

/* Encodes s and checks ids and tiling. */
static void check_ids(const char *s, const int32_t *want, size_t n)
{
    pii_tok_buf out = PII_TOK_BUF_INIT;
    size_t len = strlen(s);
    assert_int_equal(pii_tok_encode(enc, s, len, &out), PII_OK);
    assert_int_equal(out.n, n);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(out.ids[i], want[i]);
        assert_int_equal(out.offs[i].start, i ? out.offs[i - 1].end : 0);
    }
    assert_int_equal(out.offs[n - 1].end, len);
    pii_tok_buf_free(&out);
}

#define CHECK(s, ...)                                                                              \
    do {                                                                                           \
        static const int32_t w_[] = {__VA_ARGS__};                                                 \
        check_ids(s, w_, sizeof w_ / sizeof w_[0]);                                                \
    } while (0)

static void test_spec_vectors(void **state)
{
    (void)state;
    CHECK("Alice Smith lives at 123 Main Street and uses alice@example.com", 100151, 16627, 8354,
          540, 220, 7633, 7956, 9903, 326, 8844, 134271, 81309, 1136);
    CHECK("Call me at +44 20 7946 0958 on 2026-04-23.", 4701, 668, 540, 659, 3336, 220, 455, 220,
          50742, 21, 220, 44607, 23, 402, 220, 1323, 21, 12, 3000, 12, 1860, 13);
    CHECK("Zo\xc3\xab paid \xc2\xa3"
          "20 and waved \xf0\x9f\x91\x8b\xf0\x9f\x8f\xbd.",
          48101, 1730, 9927, 8989, 455, 326, 135473, 61138, 233, 52622, 121, 13);
    CHECK("export OPENAI_API_KEY='sk-proj-abc123abc123abc123abc123abc123abc123'", 2474, 56852,
          17527, 24481, 12980, 2053, 3817, 9666, 73, 12, 26682, 7633, 26682, 7633, 26682, 7633,
          26682, 7633, 26682, 7633, 26682, 7633, 6);
}

/* Spec §9: the char offsets of "Zoë paid £20 and waved 👋🏽." overlap where
 * BPE splits a character. */
static void test_widened_offsets(void **state)
{
    (void)state;
    const char *s = "Zo\xc3\xab paid \xc2\xa3"
                    "20 and waved \xf0\x9f\x91\x8b\xf0\x9f\x8f\xbd.";
    static const size_t want[][2] = {{0, 2},   {2, 3},   {3, 8},   {8, 10},  {10, 12}, {12, 16},
                                     {16, 22}, {22, 24}, {23, 24}, {24, 25}, {24, 25}, {25, 26}};
    pii_tok_buf out = PII_TOK_BUF_INIT;
    assert_int_equal(pii_tok_encode(enc, s, strlen(s), &out), PII_OK);
    assert_int_equal(out.n, 12);
    pii_tok_span chars[12], bytes[12];
    assert_int_equal(pii_tok_widen(s, strlen(s), out.offs, out.n, bytes, chars), PII_OK);
    for (size_t i = 0; i < 12; i++) {
        assert_int_equal(chars[i].start, want[i][0]);
        assert_int_equal(chars[i].end, want[i][1]);
        /* widened byte ranges start and end on character boundaries */
        assert_true(bytes[i].start <= out.offs[i].start && bytes[i].end >= out.offs[i].end);
    }
    /* ' 👋' is bytes 24..29: tokens (24,28) and (28,29) widen to (24,29) and (25,29) */
    assert_int_equal(bytes[7].start, 24);
    assert_int_equal(bytes[7].end, 29);
    assert_int_equal(bytes[8].start, 25);
    assert_int_equal(bytes[8].end, 29);
    /* bad input is refused */
    pii_tok_span bad[2] = {{3, 2}, {0, 1}};
    assert_int_equal(pii_tok_widen(s, strlen(s), bad, 1, NULL, chars), PII_EINVAL);
    assert_int_equal(pii_tok_widen(s, strlen(s), bad + 1, 1, NULL, NULL), PII_OK);
    pii_tok_buf_free(&out);
}

static void test_specials(void **state)
{
    (void)state;
    const pii_tok *t = pii_tok_o200k();
    assert_int_equal(pii_tok_vocab_size(t), 200019);
    assert_int_equal(pii_tok_special_id(t, "<|endoftext|>"), 199999);
    assert_int_equal(pii_tok_special_id(t, "<|endofprompt|>"), 200018);
    assert_int_equal(pii_tok_special_id(t, "<|reserved_200013|>"), 200013);
    assert_int_equal(pii_tok_special_id(t, "<|nope|>"), -1);
    assert_true(pii_tok_is_special(t, 199998));
    assert_false(pii_tok_is_special(t, 100));
    size_t len;
    const uint8_t *b = pii_tok_token_bytes(t, 100151, &len);
    assert_int_equal(len, 5);
    assert_memory_equal(b, "Alice", 5);
    b = pii_tok_token_bytes(t, 200006, &len);
    assert_int_equal(len, 9);
    assert_memory_equal(b, "<|start|>", 9);
    assert_null(pii_tok_token_bytes(t, 200019, &len));
    assert_null(pii_tok_token_bytes(t, -1, &len));
    /* special-token text is plain text */
    CHECK("<|endoftext|>", 27, 91, 419, 1440, 919, 91, 29);
    pii_tok_free((pii_tok *)t); /* no-op on the built-in */
    pii_tok_free(NULL);
    pii_tok_enc_free(NULL);
    pii_tok_buf_free(NULL);
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

/* Each invalid byte is its own piece, encoded by its single-byte token, and
 * the tokens tile the input; random bytes never crash (ASan/UBSan build). */
static void test_invalid_utf8(void **state)
{
    (void)state;
    pii_tok_buf out = PII_TOK_BUF_INIT;
    /* "ab" FF "cd" E2 82 (truncated) "x" C0 AF (overlong) ED A0 80 (surrogate) */
    const char s[] = "ab\xff"
                     "cd\xe2\x82x\xc0\xaf\xed\xa0\x80";
    size_t len = sizeof s - 1;
    assert_int_equal(pii_tok_encode(enc, s, len, &out), PII_OK);
    size_t pos = 0, nbad = 0;
    for (size_t i = 0; i < out.n; i++) {
        assert_int_equal(out.offs[i].start, pos);
        pos = out.offs[i].end;
        size_t l;
        const uint8_t *tb = pii_tok_token_bytes(pii_tok_o200k(), out.ids[i], &l);
        assert_int_equal(l, out.offs[i].end - out.offs[i].start);
        assert_memory_equal(tb, s + out.offs[i].start, l);
        if ((uint8_t)s[out.offs[i].start] >= 0x80) {
            assert_int_equal(l, 1); /* every invalid byte is alone */
            nbad++;
        }
    }
    assert_int_equal(pos, len);
    assert_int_equal(nbad, 8);
    /* an invalid byte acts as the end of the text: "  " before it stays whole */
    pii_tok_span *sp = NULL;
    size_t n = 0, cap = 0;
    assert_int_equal(pii_tok_pretokenize("a  \xff", 4, &sp, &n, &cap), PII_OK);
    assert_int_equal(n, 3);
    assert_int_equal(sp[1].start, 1);
    assert_int_equal(sp[1].end, 3);
    free(sp);

    /* random bytes */
    static uint8_t buf[4096];
    for (int round = 0; round < 300; round++) {
        size_t l = rnd() % sizeof buf;
        for (size_t i = 0; i < l; i++) {
            uint32_t r = rnd();
            buf[i] =
                (r & 0x300) ? (uint8_t)(r & 0xFF) : (uint8_t)("a \n'1\xc3\xa9\xe4\xb8\xad"[r % 10]);
        }
        out.n = 0;
        assert_int_equal(pii_tok_encode(enc, buf, l, &out), PII_OK);
        pos = 0;
        for (size_t i = 0; i < out.n; i++) {
            assert_int_equal(out.offs[i].start, pos);
            assert_true(out.offs[i].end > pos);
            pos = out.offs[i].end;
        }
        assert_int_equal(pos, l);
        if (out.n) {
            pii_tok_span *chars = malloc(out.n * sizeof *chars);
            assert_int_equal(pii_tok_widen(buf, l, out.offs, out.n, NULL, chars), PII_OK);
            free(chars);
        }
    }
    pii_tok_buf_free(&out);
}

/* 300 kB of one letter: pieces of at most PII_TOK_MAX_PIECE bytes, tiling,
 * and the same tokens when streamed. */
static void test_long_pieces(void **state)
{
    (void)state;
    size_t len = 300000;
    char *s = malloc(len);
    for (size_t i = 0; i < len; i++)
        s[i] = i % 7000 < 6990 ? 'a' : (i % 2 ? ' ' : '\xc3');
    pii_tok_span *sp = NULL;
    size_t n = 0, cap = 0;
    assert_int_equal(pii_tok_pretokenize(s, len, &sp, &n, &cap), PII_OK);
    size_t pos = 0;
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(sp[i].start, pos);
        assert_true(sp[i].end - sp[i].start <= PII_TOK_MAX_PIECE);
        pos = sp[i].end;
    }
    assert_int_equal(pos, len);
    free(sp);

    pii_tok_buf one = PII_TOK_BUF_INIT, part = PII_TOK_BUF_INIT;
    assert_int_equal(pii_tok_encode(enc, s, len, &one), PII_OK);
    size_t done = 0, avail = 0, k = 0;
    while (done < len) {
        avail = avail + 1000 < len ? avail + 1000 : len;
        size_t used;
        part.n = 0;
        assert_int_equal(
            pii_tok_encode_stream(enc, s + done, avail - done, avail == len, &part, &used), PII_OK);
        /* the held-back tail stays below one window */
        assert_true(avail - done - used < PII_TOK_MAX_PIECE);
        for (size_t i = 0; i < part.n; i++, k++) {
            assert_true(k < one.n);
            assert_int_equal(part.ids[i], one.ids[k]);
            assert_int_equal(part.offs[i].start + done, one.offs[k].start);
            assert_int_equal(part.offs[i].end + done, one.offs[k].end);
        }
        done += used;
    }
    assert_int_equal(k, one.n);
    pii_tok_buf_free(&one);
    pii_tok_buf_free(&part);
    free(s);
}

/* Pieces of `a` in [lo, hi) shifted by -shift equal pieces of `b`. */
static void same_pieces(const pii_tok_span *a, size_t na, size_t lo, size_t hi,
                        const pii_tok_span *b, size_t nb, size_t shift)
{
    size_t k = 0;
    for (size_t i = 0; i < na; i++) {
        if (a[i].start < lo || a[i].start >= hi)
            continue;
        assert_true(a[i].end <= hi);
        assert_true(k < nb);
        assert_int_equal(a[i].start - shift, b[k].start);
        assert_int_equal(a[i].end - shift, b[k].end);
        k++;
    }
    assert_int_equal(k, nb);
}

static int is_boundary(const pii_tok_span *a, size_t na, size_t len, size_t p)
{
    if (p == 0 || p == len)
        return 1;
    for (size_t i = 0; i < na; i++)
        if (a[i].start == p)
            return 1;
    return 0;
}

/* Random texts over an alphabet that exercises every alternative of the
 * regex, invalid and truncated sequences, split at every position p: with
 * q = pii_tok_stable_len(text, p), q is a boundary of the whole text, the
 * pieces of text[0..q) alone are those of the whole text below q, and the
 * pieces of text[q..) alone are those of the whole text from q. */
static void check_stable(const char *t, size_t len, size_t step)
{
    pii_tok_span *full = NULL, *a = NULL, *b = NULL;
    size_t nf = 0, cf = 0, ca = 0, cb = 0;
    assert_int_equal(pii_tok_pretokenize(t, len, &full, &nf, &cf), PII_OK);
    for (size_t p = 0; p <= len; p += step) {
        size_t q = pii_tok_stable_len(t, p);
        assert_true(q <= p);
        assert_true(p < PII_TOK_MAX_PIECE || q > p - PII_TOK_MAX_PIECE);
        assert_true(is_boundary(full, nf, len, q));
        size_t na = 0, nb = 0;
        assert_int_equal(pii_tok_pretokenize(t, q, &a, &na, &ca), PII_OK);
        same_pieces(full, nf, 0, q, a, na, 0);
        assert_int_equal(pii_tok_pretokenize(t + q, len - q, &b, &nb, &cb), PII_OK);
        same_pieces(full, nf, q, len, b, nb, q);
    }
    free(full);
    free(a);
    free(b);
}

static void test_stable_len(void **state)
{
    (void)state;
    static const char *alpha[] = {"a",
                                  "b",
                                  "s",
                                  "l",
                                  "e",
                                  "A",
                                  "S",
                                  "L",
                                  "\xc7\x85" /* ǅ Lt */,
                                  "\xca\xb0" /* ʰ Lm */,
                                  "\xe4\xb8\xad" /* 中 Lo */,
                                  "\xcc\x81" /* U+0301 Mn */,
                                  "1",
                                  "\xd9\xa3" /* ٣ */,
                                  " ",
                                  " ",
                                  "\t",
                                  "\n",
                                  "\r",
                                  "\xc2\xa0",
                                  "\xe3\x80\x80",
                                  "'",
                                  "'",
                                  "/",
                                  "!",
                                  ".",
                                  "\xc5\xbf" /* ſ */,
                                  "\xff",
                                  "\xe2\x82" /* truncated */,
                                  "\xf0\x9f\x91\x8b" /* 👋 */,
                                  "\xed\xa0\x80"};
    const size_t na = sizeof alpha / sizeof alpha[0];
    char t[512];
    for (int round = 0; round < 3000; round++) {
        size_t len = 0, nc = 1 + rnd() % 40;
        for (size_t i = 0; i < nc; i++) {
            const char *c = alpha[rnd() % na];
            size_t l = strlen(c);
            memcpy(t + len, c, l);
            len += l;
        }
        check_stable(t, len, 1);
    }
    /* long runs cross the window */
    size_t len = 3 * PII_TOK_MAX_PIECE + 100;
    char *big = malloc(len);
    for (int kind = 0; kind < 4; kind++) {
        for (size_t i = 0; i < len; i++) {
            static const char *fill[] = {"a", " ", "A", "\n "};
            const char *f = fill[kind];
            big[i] = f[i % strlen(f)];
            if (rnd() % 1500 == 0)
                big[i] = "x!' 1\xe4"[rnd() % 6];
        }
        check_stable(big, len, 97);
    }
    free(big);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_vectors), cmocka_unit_test(test_widened_offsets),
        cmocka_unit_test(test_specials),     cmocka_unit_test(test_invalid_utf8),
        cmocka_unit_test(test_long_pieces),  cmocka_unit_test(test_stable_len),
    };
    return cmocka_run_group_tests_name("tok_basic", tests, setup, teardown);
}
