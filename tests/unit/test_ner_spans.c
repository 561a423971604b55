/* test_ner_spans.c — characters, §6.3 repair rules and §6.4 byte spans:
 * multibyte text, emoji split across tokens, CRLF, Unicode spaces. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pii_ner.h"
#include "unit_util.h"

enum {
    O = 0,
    B_PER = 17,
    I_PER = 18,
    E_PER = 19,
    S_PER = 20,
    B_PH = 21,
    I_PH = 22,
    E_PH = 23,
    S_PH = 24,
    B_ACC = 1,
    I_ACC = 2,
    E_ACC = 3,
    S_ACC = 4,
    S_ADDR = 8,
    B_DATE = 9,
    I_DATE = 10,
    E_DATE = 11,
    B_EM = 13,
    E_EM = 15,
    S_URL = 28,
    B_SEC = 29,
    E_SEC = 31,
    S_SEC = 32
};

/* Span i of sv is the bytes [start, end). */
#define assert_span(sv, i, start_, end_)                                                           \
    do {                                                                                           \
        assert_int_equal((sv).v[i].start, start_);                                                 \
        assert_int_equal((sv).v[i].end, end_);                                                     \
    } while (0)

static pii_ner_labels *L33(void)
{
    pii_ner_labels *L = pii_ner_labels_create(unit_names33, 33, NULL, NULL, 0);
    assert_non_null(L);
    return L;
}

/* Tokens from a text split at the given byte offsets (cuts[] ascending,
 * excluding 0 and len). */
static size_t toks_from_cuts(size_t len, const size_t *cuts, size_t ncut, pii_ner_tok *tok)
{
    size_t prev = 0, n = 0;
    for (size_t i = 0; i <= ncut; i++) {
        size_t end = i < ncut ? cuts[i] : len;
        tok[n].start = prev;
        tok[n].end = end;
        n++;
        prev = end;
    }
    return n;
}

static void extract(const pii_ner_labels *L, const char *text, const pii_ner_tok *tok,
                    const int32_t *lab, size_t n, const float *thr, pii_spanvec *out)
{
    pii_ner_span_opts o = {thr, 0};
    out->n = 0;
    assert_int_equal(
        pii_ner_extract_spans(L, &o, (const uint8_t *)text, strlen(text), tok, NULL, lab, n, out),
        PII_OK);
}

/* ---- characters -------------------------------------------------------------- */

static void test_chars(void **st)
{
    (void)st;
    /* "aé€😀" + invalid: lone continuation, truncated 3-byte, overlong, surrogate */
    const uint8_t t[] = {'a',  0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x98, 0x80,
                         0x80, 0xE2, 0x82, 'b',  0xC0, 0xAF, 0xED, 0xA0, 0x80};
    size_t n = sizeof t;
    size_t expect_start[] = {0, 1, 1, 3, 3, 3, 6, 6, 6, 6, 10, 11, 12, 13, 14, 15, 16, 17, 18};
    size_t expect_end[] = {1, 3, 3, 6, 6, 6, 10, 10, 10, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19};
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(pii_ner_char_start(t, n, i), expect_start[i]);
        assert_int_equal(pii_ner_char_end(t, n, i), expect_end[i]);
    }
    /* a sequence cut by the end of the buffer is not a character */
    const uint8_t cut[] = {'x', 0xF0, 0x9F};
    assert_int_equal(pii_ner_char_start(cut, 3, 2), 2);
    assert_int_equal(pii_ner_char_end(cut, 3, 1), 2);
}

static void test_isspace(void **st)
{
    (void)st;
    /* /usr/bin/python3 -c "print([hex(c) for c in range(0x110000) if chr(c).isspace()])" */
    static const uint32_t py[] = {0x9,    0xa,    0xb,    0xc,    0xd,    0x1c,   0x1d,   0x1e,
                                  0x1f,   0x20,   0x85,   0xa0,   0x1680, 0x2000, 0x2001, 0x2002,
                                  0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a,
                                  0x2028, 0x2029, 0x202f, 0x205f, 0x3000};
    size_t k = 0, count = 0;
    for (uint32_t c = 0; c < 0x110000; c++) {
        int want = k < sizeof py / sizeof py[0] && py[k] == c;
        if (want)
            k++;
        assert_int_equal(!!pii_ner_isspace(c), want);
        count += want;
    }
    assert_int_equal(count, 29);
}

/* ---- §6.3 ------------------------------------------------------------------------- */

static void test_repair_rules(void **st)
{
    (void)st;
    pii_ner_labels *L = L33();
    pii_ner_tspan sp[16];
    /* B I E | S | O | I(opens) I | E(other cat: single) | B B | I(other cat opens) */
    int32_t lab[] = {B_PER, I_PER, E_PER, S_PH, O, I_PER, I_PER, E_PH, B_PER, B_PER, I_PH};
    size_t n = pii_ner_labels_to_spans(L, lab, 11, sp);
    size_t want[][3] = {{4, 0, 3}, {5, 3, 4},  {4, 5, 7},  {5, 7, 8},
                        {4, 8, 9}, {4, 9, 10}, {5, 10, 11}};
    assert_int_equal(n, 7);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(sp[i].cat, want[i][0]);
        assert_int_equal(sp[i].tok_start, want[i][1]);
        assert_int_equal(sp[i].tok_end, want[i][2]);
    }
    /* O closes at the previous token; E closes including itself; open at end */
    int32_t lab2[] = {B_PER, I_PER, O, B_PH, E_PH, I_PER};
    n = pii_ner_labels_to_spans(L, lab2, 6, sp);
    assert_int_equal(n, 3);
    assert_true(sp[0].tok_start == 0 && sp[0].tok_end == 2);
    assert_true(sp[1].tok_start == 3 && sp[1].tok_end == 5 && sp[1].cat == 5);
    assert_true(sp[2].tok_start == 5 && sp[2].tok_end == 6 && sp[2].cat == 4);
    assert_int_equal(pii_ner_labels_to_spans(L, lab2, 0, sp), 0);
    pii_ner_labels_free(L);
}

/* ---- §6.4 byte spans ---------------------------------------------------------------- */

static void test_multibyte(void **st)
{
    (void)st;
    pii_ner_labels *L = L33();
    pii_spanvec sv = {0};
    /* "Zoë Ünal paid" : tokens "Zo" "ë" " Ün" "al" " paid" */
    const char *text = "Zo\xC3\xAB \xC3\x9Cnal paid";
    size_t cuts[] = {2, 4, 8, 10};
    pii_ner_tok tok[5];
    size_t n = toks_from_cuts(strlen(text), cuts, 4, tok);
    int32_t lab[] = {B_PER, I_PER, I_PER, E_PER, O};
    extract(L, text, tok, lab, n, NULL, &sv);
    assert_int_equal(sv.n, 1);
    assert_span(sv, 0, 0, 10);
    assert_string_equal(sv.v[0].label, "private_person");
    assert_int_equal(sv.v[0].source, PII_SRC_MODEL);
    assert_null(sv.v[0].rule);
    /* the leading space of " Ün" is trimmed when the span starts there */
    int32_t lab2[] = {O, O, B_PER, E_PER, O};
    extract(L, text, tok, lab2, n, NULL, &sv);
    assert_int_equal(sv.n, 1);
    assert_span(sv, 0, 5, 10);
    free(sv.v);
    pii_ner_labels_free(L);
}

/* A token boundary inside a character; secrets keep every byte, so the
 * spans here are secrets (a person span of emoji alone is dropped). */
static void test_emoji_split(void **st)
{
    (void)st;
    pii_ner_labels *L = L33();
    pii_spanvec sv = {0};
    /* "hi 👋🏽 Bob": 👋 = F0 9F 91 8B, 🏽 = F0 9F 8F BD.
     * tokens: "hi" | " F0 9F" | "91 8B" | "F0 9F 8F" | "BD" | " Bob" */
    const char *text = "hi \xF0\x9F\x91\x8B\xF0\x9F\x8F\xBD Bob";
    size_t cuts[] = {2, 5, 7, 10, 11};
    pii_ner_tok tok[6];
    size_t n = toks_from_cuts(strlen(text), cuts, 5, tok);
    assert_int_equal(n, 6);
    /* one token inside the emoji: widened to the whole character */
    int32_t a[] = {O, O, S_SEC, O, O, O};
    extract(L, text, tok, a, n, NULL, &sv);
    assert_int_equal(sv.n, 1);
    assert_span(sv, 0, 3, 7);
    /* " F0 9F" alone: widened to " 👋", trimmed to "👋" */
    int32_t b[] = {O, S_SEC, O, O, O, O};
    extract(L, text, tok, b, n, NULL, &sv);
    assert_int_equal(sv.n, 1);
    assert_span(sv, 0, 3, 7);
    /* two single spans on the same character: the same bytes twice; after
     * sorting by (start, -length, label) only the first survives */
    int32_t c[] = {O, S_PH, S_SEC, O, O, O};
    extract(L, text, tok, c, n, NULL, &sv);
    assert_int_equal(sv.n, 1);
    assert_string_equal(sv.v[0].label, "private_phone");
    assert_span(sv, 0, 3, 7);
    /* spans sharing the split 🏽: "91 8B F0 9F 8F" (person) and "BD Bob"
     * (phone) overlap on 🏽; the earlier start wins, the other is dropped */
    int32_t d[] = {O, O, B_SEC, E_SEC, B_PH, E_PH};
    extract(L, text, tok, d, n, NULL, &sv);
    assert_int_equal(sv.n, 1);
    assert_string_equal(sv.v[0].label, "secret");
    assert_span(sv, 0, 3, 11);
    /* spans that merely touch are both kept */
    int32_t e[] = {O, O, S_SEC, B_PH, I_PH, E_PH};
    extract(L, text, tok, e, n, NULL, &sv);
    assert_int_equal(sv.n, 2);
    assert_true(sv.v[0].start == 3 && sv.v[0].end == 7 && sv.v[1].start == 7);
    /* a longer span starting at the same character wins over a shorter one */
    int32_t f[] = {O, O, O, S_SEC, B_PH, E_PH};
    extract(L, text, tok, f, n, NULL, &sv);
    assert_int_equal(sv.n, 1);
    assert_string_equal(sv.v[0].label, "private_phone");
    assert_span(sv, 0, 7, 15);
    free(sv.v);
    pii_ner_labels_free(L);
}

static void test_crlf(void **st)
{
    (void)st;
    pii_ner_labels *L = L33();
    pii_spanvec sv = {0};
    /* "Name: Bob\r\nTel 555\r\n" tokens "Name" ":" " Bob" "\r\n" "Tel" " " "555" "\r\n" */
    const char *text = "Name: Bob\r\nTel 555\r\n";
    size_t cuts[] = {4, 5, 9, 11, 14, 15, 18};
    pii_ner_tok tok[8];
    size_t n = toks_from_cuts(strlen(text), cuts, 7, tok);
    int32_t lab[] = {O, O, B_PER, E_PER, O, B_PH, I_PH, E_PH};
    extract(L, text, tok, lab, n, NULL, &sv);
    assert_int_equal(sv.n, 2);
    assert_span(sv, 0, 6, 9);
    assert_span(sv, 1, 15, 18);
    /* a span made only of whitespace disappears */
    int32_t ws[] = {O, O, O, S_PER, O, O, O, S_PH};
    extract(L, text, tok, ws, n, NULL, &sv);
    assert_int_equal(sv.n, 0);
    free(sv.v);
    pii_ner_labels_free(L);
}

static void test_unicode_spaces(void **st)
{
    (void)st;
    pii_ner_labels *L = L33();
    pii_spanvec sv = {0};
    /* U+3000 "Alice" U+00A0 U+2028 | U+200B "x" U+001C U+0085 |  (U+200B is not a space) */
    const char *text = "\xE3\x80\x80"
                       "Alice\xC2\xA0\xE2\x80\xA8"
                       "\xE2\x80\x8B"
                       "x\x1C\xC2\x85";
    size_t cuts[] = {3, 8, 13, 16, 17};
    pii_ner_tok tok[6];
    size_t n = toks_from_cuts(strlen(text), cuts, 5, tok);
    assert_int_equal(tok[5].end, 20);
    int32_t lab[] = {B_PER, I_PER, E_PER, B_PH, I_PH, E_PH};
    extract(L, text, tok, lab, n, NULL, &sv);
    assert_int_equal(sv.n, 2);
    assert_span(sv, 0, 3, 8);
    assert_span(sv, 1, 13, 17); /* U+200B kept; U+001C and U+0085 trimmed */
    free(sv.v);
    pii_ner_labels_free(L);
}

static void test_leading_punct(void **st)
{
    (void)st;
    pii_ner_labels *L = L33();
    pii_spanvec sv = {0};
    /* "user=jane@x.org (555) 12 k=\"(pw" tokens "user" "=jane" "@x.org" " (555" ") 12"
     * " k" "=\"(pw": "=" cannot start an e-mail address, "(" can start a
     * phone number, and a secret keeps every byte but the "=" of an
     * assignment */
    const char *text = "user=jane@x.org (555) 12 k=\"(pw";
    size_t cuts[] = {4, 9, 15, 20, 24, 26};
    pii_ner_tok tok[7];
    size_t n = toks_from_cuts(strlen(text), cuts, 6, tok);
    int32_t lab[] = {O, B_EM, E_EM, B_PH, E_PH, O, S_SEC};
    extract(L, text, tok, lab, n, NULL, &sv);
    assert_int_equal(sv.n, 3);
    assert_string_equal(sv.v[0].label, "private_email");
    assert_span(sv, 0, 5, 15); /* "jane@x.org" */
    assert_string_equal(sv.v[1].label, "private_phone");
    assert_span(sv, 1, 16, 24); /* "(555) 12" */
    assert_string_equal(sv.v[2].label, "secret");
    assert_span(sv, 2, 27, 31); /* "\"(pw" */
    /* after a blank the "=" is the secret's own */
    const char *blank = "pw =x9";
    size_t bc[] = {2};
    pii_ner_tok bt[2];
    size_t bn = toks_from_cuts(strlen(blank), bc, 1, bt);
    int32_t bl[] = {O, S_SEC};
    extract(L, blank, bt, bl, bn, NULL, &sv);
    assert_int_equal(sv.n, 1);
    assert_span(sv, 0, 3, 6);
    /* a person span that is only punctuation disappears */
    int32_t junk[] = {O, O, O, O, O, O, S_PER};
    tok[6].end = 28; /* "=\"" */
    extract(L, text, tok, junk, n, NULL, &sv);
    assert_int_equal(sv.n, 0);
    free(sv.v);
    pii_ner_labels_free(L);
}

/* Spans of opaque-value categories that cut a run of ASCII letters and
 * digits grow to the whole run, at most NER_WIDEN_MAX (128) bytes each way;
 * a person grows to the whole word (test_word_edges). */
static void test_widen_runs(void **st)
{
    (void)st;
    pii_ner_labels *L = L33();
    pii_spanvec sv = {0};
    /* "build 3f2a9c1d7e8b6a5f ok-x9" tokens "build" " 3f2" "a9c" "1d7" "e8b" "6a5f"
     * " ok" "-x9" */
    const char *text = "build 3f2a9c1d7e8b6a5f ok-x9";
    size_t cuts[] = {5, 9, 12, 15, 18, 22, 25};
    pii_ner_tok tok[8];
    size_t n = toks_from_cuts(strlen(text), cuts, 7, tok);
    int32_t sec[] = {O, O, S_SEC, O, O, O, O, S_URL};
    extract(L, text, tok, sec, n, NULL, &sv);
    assert_int_equal(sv.n, 2);
    assert_string_equal(sv.v[0].label, "secret"); /* "a9c" -> the whole hash */
    assert_span(sv, 0, 6, 22);
    assert_string_equal(sv.v[1].label, "private_url"); /* "-x9": "-" ends the run */
    assert_span(sv, 1, 25, 28);
    int32_t per[] = {O, O, S_PER, O, O, O, O, O};
    extract(L, text, tok, per, n, NULL, &sv);
    assert_int_equal(sv.n, 1);
    assert_span(sv, 0, 6, 22); /* a person grows to the word */

    /* a 400-byte run: 128 bytes to the left; a secret grows to the end of
     * its value on the right however long (issue 41), a word 128 bytes */
    char big[401];
    for (int i = 0; i < 400; i++)
        big[i] = "abc+/="[i % 6];
    big[400] = '\0';
    size_t bc[] = {200, 203};
    pii_ner_tok bt[3];
    size_t bn = toks_from_cuts(400, bc, 2, bt);
    int32_t bl[] = {O, S_SEC, O};
    extract(L, big, bt, bl, bn, NULL, &sv);
    assert_int_equal(sv.n, 1);
    assert_span(sv, 0, 200 - 2, 400); /* only letters and digits on the left */
    for (int i = 0; i < 400; i++)
        big[i] = "abc123"[i % 6];
    extract(L, big, bt, bl, bn, NULL, &sv);
    assert_int_equal(sv.n, 1);
    assert_span(sv, 0, 200 - 128, 400);
    int32_t bp[] = {O, S_PER, O};
    extract(L, big, bt, bp, bn, NULL, &sv);
    assert_int_equal(sv.n, 1);
    assert_span(sv, 0, 200 - 128, 203 + 128);
    free(sv.v);
    pii_ner_labels_free(L);
}

static void test_number_words(void **st)
{
    (void)st;
    pii_ner_labels *L = L33();
    pii_spanvec sv = {0};
    /* "my" " cc" " 4111" " 1111" " 1111" " 1111" " expires" "," " call" " 415"
     * " 555" " 0199" " ext" ":" " hunter" " two" */
    const char *text = "my cc 4111 1111 1111 1111 expires, call 415 555 0199 ext: hunter two";
    size_t cuts[] = {2, 5, 10, 15, 20, 25, 33, 34, 39, 43, 47, 52, 56, 57, 64};
    pii_ner_tok tok[16];
    size_t n = toks_from_cuts(strlen(text), cuts, 15, tok);
    int32_t lab[] = {O,    B_ACC, I_ACC, I_ACC, I_ACC, I_ACC, E_ACC, O,
                     B_PH, I_PH,  I_PH,  I_PH,  I_PH,  E_PH,  B_SEC, E_SEC};
    extract(L, text, tok, lab, n, NULL, &sv);
    assert_int_equal(sv.n, 3);
    assert_string_equal(sv.v[0].label, "account_number"); /* less "cc" and "expires" */
    assert_span(sv, 0, 6, 25);
    assert_string_equal(sv.v[1].label, "private_phone"); /* less "call" and "ext:" */
    assert_span(sv, 1, 40, 52);
    assert_string_equal(sv.v[2].label, "secret"); /* a password keeps its words */
    assert_span(sv, 2, 58, 68);
    /* a span that is one word keeps it; "cc" alone stays whole */
    int32_t one[] = {O, S_ACC, O, O, O, O, O, O, O, O, O, O, O, O, O, O};
    extract(L, text, tok, one, n, NULL, &sv);
    assert_int_equal(sv.n, 1);
    assert_span(sv, 0, 3, 5);
    free(sv.v);
    pii_ner_labels_free(L);
}

static void test_invalid_bytes(void **st)
{
    (void)st;
    pii_ner_labels *L = L33();
    pii_spanvec sv = {0};
    /* invalid bytes are characters of their own; a span over them is exact */
    const char *text = "k=\xFF\xFE\x80z \xF0\x9F";
    size_t cuts[] = {2, 4, 6, 7};
    pii_ner_tok tok[5];
    size_t n = toks_from_cuts(strlen(text), cuts, 4, tok);
    int32_t lab[] = {O, B_PER, E_PER, O, S_PH};
    extract(L, text, tok, lab, n, NULL, &sv);
    assert_int_equal(sv.n, 2);
    assert_span(sv, 0, 2, 6);
    assert_span(sv, 1, 7, 9); /* the truncated sequence: two 1-byte chars */
    free(sv.v);
    pii_ner_labels_free(L);
}

static void test_scores_thresholds(void **st)
{
    (void)st;
    pii_ner_labels *L = L33();
    pii_spanvec sv = {0};
    const char *text = "Bob Smith 555 1234 x";
    size_t cuts[] = {3, 9, 13, 18};
    pii_ner_tok tok[5];
    size_t n = toks_from_cuts(strlen(text), cuts, 4, tok);
    float e[5 * 33];
    for (size_t i = 0; i < 5 * 33; i++)
        e[i] = -10.0f;
    int32_t lab[] = {B_PER, E_PER, B_PH, E_PH, O};
    float p[] = {0.9f, 0.5f, 0.6f, 0.4f, 0.99f};
    for (size_t t = 0; t < 5; t++)
        e[t * 33 + (size_t)lab[t]] = logf(p[t]);
    pii_ner_span_opts o = {NULL, 0};
    assert_int_equal(
        pii_ner_extract_spans(L, &o, (const uint8_t *)text, strlen(text), tok, e, lab, n, &sv),
        PII_OK);
    assert_int_equal(sv.n, 2);
    assert_true(fabsf(sv.v[0].score - 0.7f) < 1e-6f);
    assert_true(fabsf(sv.v[1].score - 0.5f) < 1e-6f);
    /* global 0.6 drops the phone; a per-label 0.8 for persons drops the person */
    float thr[8] = {0.6f, 0.6f, 0.6f, 0.6f, 0.6f, 0.6f, 0.6f, 0.6f};
    o.cat_threshold = thr;
    sv.n = 0;
    assert_int_equal(
        pii_ner_extract_spans(L, &o, (const uint8_t *)text, strlen(text), tok, e, lab, n, &sv),
        PII_OK);
    assert_int_equal(sv.n, 1);
    assert_string_equal(sv.v[0].label, "private_person");
    thr[4] = 0.8f;
    thr[5] = 0.45f;
    sv.n = 0;
    assert_int_equal(
        pii_ner_extract_spans(L, &o, (const uint8_t *)text, strlen(text), tok, e, lab, n, &sv),
        PII_OK);
    assert_int_equal(sv.n, 1);
    assert_string_equal(sv.v[0].label, "private_phone");
    free(sv.v);
    pii_ner_labels_free(L);
}

/* Person, address and date spans never end or start inside a word and
 * never keep closing punctuation that is not part of the value. */
static void test_word_edges(void **st)
{
    (void)st;
    pii_ner_labels *L = L33();
    pii_spanvec sv = {0};
    /* "Met" " Amy" " Win" "ehouse" " and" " (" "WEI" " ZHANG)," " Smith" "'s," " ok." */
    const char *text = "Met Amy Winehouse and (WEI ZHANG), Smith's, ok.";
    size_t cuts[] = {3, 7, 11, 17, 21, 23, 26, 34, 40, 43};
    pii_ner_tok tok[11];
    size_t n = toks_from_cuts(strlen(text), cuts, 10, tok);
    int32_t lab[] = {O, B_PER, E_PER, O, O, O, B_PER, E_PER, B_PER, E_PER, O};
    extract(L, text, tok, lab, n, NULL, &sv);
    assert_int_equal(sv.n, 3);
    assert_span(sv, 0, 4, 17);  /* "Amy Win" -> "Amy Winehouse" */
    assert_span(sv, 1, 23, 32); /* "WEI ZHANG)," -> "WEI ZHANG" */
    assert_span(sv, 2, 35, 40); /* "Smith's," -> "Smith" */

    /* a person span of emoji alone is no name */
    const char *t5 = "Great \xf0\x9f\x94\xa5 night";
    size_t c5[] = {5, 10};
    n = toks_from_cuts(strlen(t5), c5, 2, tok);
    int32_t l5[] = {O, S_PER, O};
    extract(L, t5, tok, l5, n, NULL, &sv);
    assert_int_equal(sv.n, 0);

    /* a form of address alone names nobody: "/Madam", "Dear Ma'am";
     * with a name it stays ("Mr Lee") */
    const char *t6 = "Dear Sir/Madam, Dear Ma'am and Mr Lee";
    size_t c6[] = {4, 8, 9, 14, 15, 20, 26, 30, 33};
    /* "Dear" " Sir" "/" "Madam" "," " Dear" " Ma'am" " and" " Mr" " Lee" */
    n = toks_from_cuts(strlen(t6), c6, 9, tok);
    int32_t l6[] = {O, O, B_PER, E_PER, O, B_PER, E_PER, O, B_PER, E_PER};
    extract(L, t6, tok, l6, n, NULL, &sv);
    assert_int_equal(sv.n, 1);
    assert_span(sv, 0, 31, 37);

    /* an abbreviated rank alone is no name either: "Maj" goes, "Lyons" stays */
    const char *t7 = "said Maj. Lyons";
    size_t c7[] = {4, 8, 9}; /* "said" " Maj" "." " Lyons" */
    n = toks_from_cuts(strlen(t7), c7, 3, tok);
    int32_t l7[] = {O, S_PER, O, S_PER};
    extract(L, t7, tok, l7, n, NULL, &sv);
    assert_int_equal(sv.n, 1);
    assert_span(sv, 0, 10, 15);

    /* nor an interjection or an informal contraction: "Ok. Imma", "Gotta" */
    const char *t8 = "Ok. Imma go. Gotta run";
    size_t c8[] = {2, 3, 8, 11, 12, 18}; /* "Ok" "." " Imma" " go" "." " Gotta" " run" */
    n = toks_from_cuts(strlen(t8), c8, 6, tok);
    int32_t l8[] = {B_PER, I_PER, E_PER, O, O, S_PER, O};
    extract(L, t8, tok, l8, n, NULL, &sv);
    assert_int_equal(sv.n, 0);

    /* a sentence's full stop goes; an abbreviation's stays */
    const char *t2 = "Ask John Smith.";
    size_t c2[] = {3, 8};
    n = toks_from_cuts(strlen(t2), c2, 2, tok);
    int32_t l2[] = {O, B_PER, E_PER};
    extract(L, t2, tok, l2, n, NULL, &sv);
    assert_int_equal(sv.n, 1);
    assert_span(sv, 0, 4, 14);
    const char *t3 = "Ask Sam Jr.";
    size_t c3[] = {3, 7};
    n = toks_from_cuts(strlen(t3), c3, 2, tok);
    extract(L, t3, tok, l2, n, NULL, &sv);
    assert_int_equal(sv.n, 1);
    assert_int_equal(sv.v[0].end, 11);

    /* a non-ASCII word: "Guter" "res" -> "Guterres"; Han is never widened */
    const char *t4 = "Ant\xc3\xb3nio Guter"
                     "res \xe5\xb1\xb1\xe7\x94\xb0\xe5\xa4\xaa\xe9\x83\x8e";
    size_t c4[] = {8, 14, 18, 24}; /* "António" " Guter" "res " "山田" "太郎" */
    n = toks_from_cuts(strlen(t4), c4, 4, tok);
    int32_t l4[] = {B_PER, E_PER, O, S_PER, O};
    extract(L, t4, tok, l4, n, NULL, &sv);
    assert_int_equal(sv.n, 2);
    assert_span(sv, 0, 0, 17);
    assert_span(sv, 1, 18, 24);
    free(sv.v);
    pii_ner_labels_free(L);
}

/* The model marks ADDR (one token) in TEXT; the address span must be WANT,
 * which starts where ADDR does. */
static void check_tail(const pii_ner_labels *L, const char *text, const char *addr,
                       const char *want)
{
    const char *a = strstr(text, addr);
    assert_non_null(a);
    size_t s = (size_t)(a - text), cuts[] = {s, s + strlen(addr)};
    pii_ner_tok tok[3];
    size_t n = toks_from_cuts(strlen(text), cuts, 2, tok);
    int32_t lab[] = {O, S_ADDR, O};
    pii_spanvec sv = {0};
    extract(L, text, tok, lab, n, NULL, &sv);
    assert_int_equal(sv.n, 1);
    assert_int_equal(sv.v[0].start, s);
    if (sv.v[0].end - s != strlen(want) || memcmp(text + s, want, strlen(want)))
        fail_msg("\"%s\": got \"%.*s\", want \"%s\"", text, (int)(sv.v[0].end - s), text + s, want);
    free(sv.v);
}

/* An address span grows over a country's name after it, and a postcode
 * after that (docs/NER.md, "Spans"). */
static void test_address_country(void **st)
{
    (void)st;
    pii_ner_labels *L = L33();
    check_tail(L, "At 12 Elm St, Leeds, United Kingdom 12345. Next", "12 Elm St, Leeds",
               "12 Elm St, Leeds, United Kingdom 12345");
    check_tail(L,
               "Ship: Hauptstra\xc3\x9f"
               "e 12, 10115 Berlin\r\nDeutschland\nThanks",
               "Hauptstra\xc3\x9f"
               "e 12, 10115 Berlin",
               "Hauptstra\xc3\x9f"
               "e 12, 10115 Berlin\r\nDeutschland");
    check_tail(L, "Go to 7 Rue Lepic, Paris, France.", "7 Rue Lepic, Paris",
               "7 Rue Lepic, Paris, France");
    check_tail(L, "Wien: Ring 3, 1010 Wien, \xc3\x96sterreich", "Ring 3, 1010 Wien",
               "Ring 3, 1010 Wien, \xc3\x96sterreich");
    check_tail(L, "Lives at 5 Oak Road, Georgia 30301-1234 now", "5 Oak Road",
               "5 Oak Road, Georgia 30301-1234");
    check_tail(L, "Lives at 5 Oak Road, USA 1234567", "5 Oak Road", "5 Oak Road, USA");
    check_tail(L, "5 Oak Road\n  New Zealand", "5 Oak Road", "5 Oak Road\n  New Zealand");
    /* nothing to take: a lower-case "us", a longer word, two line breaks,
     * no separator, a possessive */
    check_tail(L, "See 5 Oak Road, us and them", "5 Oak Road", "5 Oak Road");
    check_tail(L, "See 5 Oak Road, Francesca", "5 Oak Road", "5 Oak Road");
    check_tail(L, "See 5 Oak Road,\n\nFrance", "5 Oak Road", "5 Oak Road");
    check_tail(L, "See 5 Oak Road.France", "5 Oak Road", "5 Oak Road");
    check_tail(L, "See 5 Oak Road, New Zealand's", "5 Oak Road", "5 Oak Road");
    check_tail(L, "See 5 Oak Road, france 75018x", "5 Oak Road", "5 Oak Road, france");
    pii_ner_labels_free(L);
}

static void test_max_span_tokens(void **st)
{
    (void)st;
    pii_ner_labels *L = L33();
    pii_spanvec sv = {0};
    const char *text = "1.2.3.4"; /* no word crosses a cut: nothing widens */
    size_t cuts[] = {1, 2, 3, 4, 5, 6};
    pii_ner_tok tok[7];
    size_t n = toks_from_cuts(7, cuts, 6, tok);
    int32_t lab[] = {B_DATE, I_DATE, I_DATE, I_DATE, I_DATE, I_DATE, E_DATE};
    pii_ner_span_opts o = {NULL, 3};
    assert_int_equal(pii_ner_extract_spans(L, &o, (const uint8_t *)text, 7, tok, NULL, lab, n, &sv),
                     PII_OK);
    assert_int_equal(sv.n, 3);
    assert_true(sv.v[0].start == 0 && sv.v[0].end == 3);
    assert_true(sv.v[1].start == 3 && sv.v[1].end == 6);
    assert_true(sv.v[2].start == 6 && sv.v[2].end == 7);
    free(sv.v);
    pii_ner_labels_free(L);
}

static void test_bad_labels(void **st)
{
    (void)st;
    pii_ner_labels *L = L33();
    pii_spanvec sv = {0};
    pii_ner_tok tok[1] = {{0, 1}};
    int32_t lab[] = {33};
    assert_int_equal(
        pii_ner_extract_spans(L, NULL, (const uint8_t *)"a", 1, tok, NULL, lab, 1, &sv),
        PII_EINVAL);
    free(sv.v);
    pii_ner_labels_free(L);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chars),
        cmocka_unit_test(test_isspace),
        cmocka_unit_test(test_repair_rules),
        cmocka_unit_test(test_multibyte),
        cmocka_unit_test(test_emoji_split),
        cmocka_unit_test(test_crlf),
        cmocka_unit_test(test_unicode_spaces),
        cmocka_unit_test(test_leading_punct),
        cmocka_unit_test(test_widen_runs),
        cmocka_unit_test(test_address_country),
        cmocka_unit_test(test_number_words),
        cmocka_unit_test(test_invalid_bytes),
        cmocka_unit_test(test_scores_thresholds),
        cmocka_unit_test(test_word_edges),
        cmocka_unit_test(test_max_span_tokens),
        cmocka_unit_test(test_bad_labels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
