/* test_ner_viterbi.c — label space, log-softmax, operating points, and the
 * constrained BIOES Viterbi against brute-force enumeration of every path. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ner/ner_internal.h"
#include "pii_ner.h"
#include "unit_util.h"

/* ---- helpers -------------------------------------------------------------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rng(void)
{
    return unit_splitmix64(&rng_state);
}

static double urand(void) /* [0, 1) */
{
    return (double)(rng() >> 11) / 9007199254740992.0;
}

static const char *const pf_cats[8] = {"account_number", "private_address", "private_date",
                                       "private_email",  "private_person",  "private_phone",
                                       "private_url",    "secret"};

/* Label names for k categories in the spec §5 layout: O, then B,I,E,S per
 * category.  names[] must hold 1 + 4k entries of 40 bytes. */
static size_t make_names(size_t k, char names[][40], const char **ptr)
{
    size_t n = 0;
    snprintf(names[n], 40, "O");
    ptr[n] = names[n];
    n++;
    for (size_t c = 0; c < k; c++)
        for (int t = 0; t < 4; t++) {
            snprintf(names[n], 40, "%c-%s", "BIES"[t], pf_cats[c % 8]);
            if (c >= 8)
                snprintf(names[n], 40, "%c-cat%zu", "BIES"[t], c);
            ptr[n] = names[n];
            n++;
        }
    return n;
}

static pii_ner_labels *labels_k(size_t k)
{
    char names[1 + 4 * 16][40];
    const char *ptr[1 + 4 * 16];
    size_t n = make_names(k, names, ptr);
    pii_err err;
    pii_ner_labels *L = pii_ner_labels_create(ptr, n, &err, NULL, 0);
    assert_non_null(L);
    return L;
}

/* Random emissions: log_softmax of logits in [-spread, spread]. */
static void random_emissions(float *e, size_t n, size_t C, double spread)
{
    for (size_t i = 0; i < n * C; i++)
        e[i] = (float)((urand() * 2 - 1) * spread);
    pii_ner_log_softmax(e, n, C, e);
}

static void random_biases(pii_ner_biases *b, double spread)
{
    for (int i = 0; i < PII_NER_NBIAS; i++)
        b->v[i] = (float)((urand() * 2 - 1) * spread);
}

/* Legal under the constraints: every start/trans/end used is not NEG. */
static int path_legal(const pii_ner_viterbi *v, const int32_t *lab, size_t n)
{
    if (n == 0)
        return 1;
    if (pii_ner_viterbi_start(v, (size_t)lab[0]) <= PII_NER_NEG / 2)
        return 0;
    for (size_t t = 1; t < n; t++)
        if (pii_ner_viterbi_trans(v, (size_t)lab[t - 1], (size_t)lab[t]) <= PII_NER_NEG / 2)
            return 0;
    return pii_ner_viterbi_end(v, (size_t)lab[n - 1]) > PII_NER_NEG / 2;
}

/* ---- label space ------------------------------------------------------------- */

static void test_labels_pf33(void **st)
{
    (void)st;
    pii_ner_labels *L = labels_k(8);
    assert_int_equal(pii_ner_labels_count(L), 33);
    assert_int_equal(pii_ner_labels_ncat(L), 8);
    /* spec §5: id = 1 + 4c + t */
    assert_string_equal(pii_ner_labels_name(L, 19), "E-private_person");
    assert_int_equal(pii_ner_labels_tag(L, 19), PII_NER_E);
    assert_int_equal(pii_ner_labels_category_of(L, 19), 4);
    assert_int_equal(pii_ner_labels_category_of(L, 0), -1);
    assert_int_equal(pii_ner_labels_tag(L, 0), PII_NER_O);
    assert_string_equal(pii_ner_labels_category(L, 7), "secret");
    assert_int_equal(pii_ner_labels_find_category(L, "private_url"), 6);
    assert_int_equal(pii_ner_labels_find_category(L, "nope"), -1);
    pii_ner_labels_free(L);
    pii_ner_labels_free(NULL);
}

static void test_labels_errors(void **st)
{
    (void)st;
    char msg[200];
    pii_err err;
    const char *dup[] = {"O", "B-x", "B-x"};
    assert_null(pii_ner_labels_create(dup, 3, &err, msg, sizeof msg));
    assert_int_equal(err, PII_EFORMAT);
    assert_non_null(strstr(msg, "labels 1 and 2"));
    const char *bad[] = {"O", "X-foo"};
    assert_null(pii_ner_labels_create(bad, 2, &err, msg, sizeof msg));
    assert_int_equal(err, PII_EFORMAT);
    assert_non_null(strstr(msg, "label 1"));
    const char *bad2[] = {"O", "B-"};
    assert_null(pii_ner_labels_create(bad2, 2, &err, msg, sizeof msg));
    assert_int_equal(err, PII_EFORMAT);
    const char *bad3[] = {"o"};
    assert_null(pii_ner_labels_create(bad3, 1, &err, NULL, 0));
    assert_int_equal(err, PII_EFORMAT);
    assert_null(pii_ner_labels_create(bad3, 0, &err, NULL, 0));
    assert_int_equal(err, PII_EINVAL);
    /* an unusual but well-formed space: categories in first-appearance order */
    const char *odd[] = {"S-zeta", "O", "B-alpha", "E-alpha", "S-alpha"};
    pii_ner_labels *L = pii_ner_labels_create(odd, 5, &err, NULL, 0);
    assert_non_null(L);
    assert_int_equal(pii_ner_labels_ncat(L), 2);
    assert_string_equal(pii_ner_labels_category(L, 0), "zeta");
    assert_string_equal(pii_ner_labels_category(L, 1), "alpha");
    pii_ner_labels_free(L);
}

/* ---- emissions --------------------------------------------------------------- */

static void test_log_softmax(void **st)
{
    (void)st;
    float x[2 * 4] = {1, 2, 3, 4, -1000, 0, 1000, 5};
    float y[8];
    pii_ner_log_softmax(x, 2, 4, y);
    for (int t = 0; t < 2; t++) {
        double s = 0;
        for (int c = 0; c < 4; c++) {
            assert_true(y[t * 4 + c] <= 0.0f);
            s += exp(y[t * 4 + c]);
        }
        assert_true(fabs(s - 1.0) < 1e-6);
    }
    assert_true(fabsf(y[6]) < 1e-6f);
    /* in place */
    pii_ner_log_softmax(x, 2, 4, x);
    assert_memory_equal(x, y, sizeof y);
}

static void test_argmax_first_index(void **st)
{
    (void)st;
    float e[3 * 3] = {0, 0, 0, 1, 2, 2, -5, -1, -3};
    int32_t lab[3];
    pii_ner_argmax(e, 3, 3, lab);
    assert_int_equal(lab[0], 0);
    assert_int_equal(lab[1], 1);
    assert_int_equal(lab[2], 1);
}

/* ---- operating points ------------------------------------------------------- */

static void test_bias_keys(void **st)
{
    (void)st;
    assert_int_equal(pii_ner_bias_index("transition_bias_background_stay"), 0);
    assert_int_equal(pii_ner_bias_index("end_to_start"), 5);
    assert_int_equal(pii_ner_bias_index("inside_to_end"), 3);
    assert_int_equal(pii_ner_bias_index("nope"), -1);
    assert_int_equal(pii_ner_bias_index(NULL), -1);
}

static void test_calibration(void **st)
{
    (void)st;
    const char *doc =
        "{\"operating_points\":{\"default\":{\"biases\":{"
        "\"transition_bias_background_stay\":0,\"transition_bias_background_to_start\":0.0,"
        "\"transition_bias_inside_to_continue\":0,\"transition_bias_inside_to_end\":0,"
        "\"transition_bias_end_to_background\":0,\"transition_bias_end_to_start\":0}},"
        "\"recall\":{\"biases\":{"
        "\"transition_bias_background_stay\":-2.5,\"transition_bias_background_to_start\":2.5,"
        "\"transition_bias_inside_to_continue\":1,\"transition_bias_inside_to_end\":0,"
        "\"transition_bias_end_to_background\":-1.0,\"transition_bias_end_to_start\":1.0}}}}\n";
    pii_ner_biases b;
    char msg[300];
    assert_int_equal(pii_ner_calibration_parse(doc, strlen(doc), NULL, &b, msg, sizeof msg),
                     PII_OK);
    for (int i = 0; i < PII_NER_NBIAS; i++)
        assert_true(b.v[i] == 0.0f);
    assert_int_equal(pii_ner_calibration_parse(doc, strlen(doc), "recall", &b, msg, sizeof msg),
                     PII_OK);
    assert_true(b.v[0] == -2.5f && b.v[1] == 2.5f && b.v[2] == 1.0f && b.v[3] == 0.0f &&
                b.v[4] == -1.0f && b.v[5] == 1.0f);
    assert_int_equal(pii_ner_calibration_parse(doc, strlen(doc), "fast", &b, msg, sizeof msg),
                     PII_ENOTFOUND);
    assert_non_null(strstr(msg, "default, recall"));

    const char *missing = "{\"operating_points\":{\"default\":{\"biases\":{"
                          "\"transition_bias_background_stay\":0}}}}";
    assert_int_equal(pii_ner_calibration_parse(missing, strlen(missing), NULL, &b, msg, sizeof msg),
                     PII_EFORMAT);
    assert_non_null(strstr(msg, "background_to_start"));
    const char *unknown = "{\"operating_points\":{\"default\":{\"biases\":{\"x\":0}}}}";
    assert_int_equal(pii_ner_calibration_parse(unknown, strlen(unknown), NULL, &b, msg, sizeof msg),
                     PII_EFORMAT);
    /* the single-point schema, short key names, an unknown key: a warning */
    const char *single = "{\"operating_point\":{\"transition_biases\":{"
                         "\"background_stay\":-2.5,\"background_to_start\":2.5,"
                         "\"inside_to_continue\":1,\"inside_to_end\":0,\"end_to_background\":-1,"
                         "\"end_to_start\":1,\"x\":7}}}";
    char warn[200];
    assert_int_equal(pii_ner_calibration_parse_ex(single, strlen(single), NULL, &b, warn,
                                                  sizeof warn, msg, sizeof msg),
                     PII_OK);
    assert_true(b.v[0] == -2.5f && b.v[1] == 2.5f && b.v[2] == 1.0f && b.v[3] == 0.0f &&
                b.v[4] == -1.0f && b.v[5] == 1.0f);
    assert_string_equal(warn, "calibration: unknown key \"x\" in \"transition_biases\" ignored");
    assert_int_equal(pii_ner_calibration_parse_ex(doc, strlen(doc), NULL, &b, warn, sizeof warn,
                                                  msg, sizeof msg),
                     PII_OK);
    assert_string_equal(warn, "");
    assert_int_equal(
        pii_ner_calibration_parse(single, strlen(single), "recall", &b, msg, sizeof msg),
        PII_ENOTFOUND);
    const char *both = "{\"operating_point\":{},\"operating_points\":{}}";
    assert_int_equal(pii_ner_calibration_parse(both, strlen(both), NULL, &b, msg, sizeof msg),
                     PII_EFORMAT);
    const char *notnum = "{\"operating_points\":{\"default\":{\"biases\":{"
                         "\"transition_bias_background_stay\":\"0\"}}}}";
    assert_int_equal(pii_ner_calibration_parse(notnum, strlen(notnum), NULL, &b, msg, sizeof msg),
                     PII_EFORMAT);
    const char *bad = "{\"operating_points\":";
    assert_int_equal(pii_ner_calibration_parse(bad, strlen(bad), NULL, &b, msg, sizeof msg),
                     PII_EJSON);
    const char *trail = "{} x";
    assert_int_equal(pii_ner_calibration_parse(trail, strlen(trail), NULL, &b, msg, sizeof msg),
                     PII_EJSON);
    const char *shape = "[1,2]";
    assert_int_equal(pii_ner_calibration_parse(shape, strlen(shape), NULL, &b, msg, sizeof msg),
                     PII_EFORMAT);
    assert_int_equal(pii_ner_calibration_load("/nonexistent/cal.json", NULL, &b, msg, sizeof msg),
                     PII_ENOTFOUND);
}

/* ---- tables -------------------------------------------------------------------- */

static void test_tables(void **st)
{
    (void)st;
    pii_ner_labels *L = labels_k(8);
    pii_ner_biases b = {{1, 2, 3, 4, 5, 6}};
    pii_ner_viterbi *v = pii_ner_viterbi_create(L, &b, NULL);
    assert_non_null(v);
    const float N = PII_NER_NEG;
    /* ids: O=0, B-person=17, I=18, E=19, S=20, B-phone=21, I-phone=22 */
    assert_true(pii_ner_viterbi_start(v, 0) == 0 && pii_ner_viterbi_start(v, 17) == 0 &&
                pii_ner_viterbi_start(v, 18) == N && pii_ner_viterbi_start(v, 19) == N &&
                pii_ner_viterbi_start(v, 20) == 0);
    assert_true(pii_ner_viterbi_end(v, 0) == 0 && pii_ner_viterbi_end(v, 17) == N &&
                pii_ner_viterbi_end(v, 18) == N && pii_ner_viterbi_end(v, 19) == 0 &&
                pii_ner_viterbi_end(v, 20) == 0);
    assert_true(pii_ner_viterbi_trans(v, 0, 0) == 1);   /* O→O stay */
    assert_true(pii_ner_viterbi_trans(v, 0, 17) == 2);  /* O→B */
    assert_true(pii_ner_viterbi_trans(v, 0, 20) == 2);  /* O→S */
    assert_true(pii_ner_viterbi_trans(v, 0, 18) == N);  /* O→I */
    assert_true(pii_ner_viterbi_trans(v, 17, 18) == 3); /* B→I */
    assert_true(pii_ner_viterbi_trans(v, 18, 18) == 3); /* I→I */
    assert_true(pii_ner_viterbi_trans(v, 18, 19) == 4); /* I→E */
    assert_true(pii_ner_viterbi_trans(v, 17, 22) == N); /* B-person→I-phone */
    assert_true(pii_ner_viterbi_trans(v, 17, 0) == N);  /* B→O */
    assert_true(pii_ner_viterbi_trans(v, 18, 21) == N); /* I→B */
    assert_true(pii_ner_viterbi_trans(v, 19, 0) == 5);  /* E→O */
    assert_true(pii_ner_viterbi_trans(v, 20, 0) == 5);  /* S→O */
    assert_true(pii_ner_viterbi_trans(v, 19, 17) == 6); /* E→B same */
    assert_true(pii_ner_viterbi_trans(v, 20, 21) == 6); /* S→B other */
    assert_true(pii_ner_viterbi_trans(v, 19, 24) == 6); /* E→S other */
    assert_true(pii_ner_viterbi_trans(v, 19, 18) == N); /* E→I */
    assert_true(pii_ner_viterbi_trans(v, 20, 19) == N); /* S→E */
    pii_ner_viterbi_free(v);
    pii_ner_viterbi_free(NULL);
    pii_ner_labels_free(L);
}

/* ---- brute force ---------------------------------------------------------------- */

/* Enumerates all C^n paths; returns the best score and the second-best
 * (over paths differing from the best). */
static void brute(const pii_ner_viterbi *v, const float *e, size_t n, size_t C, int32_t *best,
                  double *bestv, double *second)
{
    int32_t cur[8] = {0};
    *bestv = -INFINITY;
    *second = -INFINITY;
    for (;;) {
        double s = pii_ner_viterbi_path_score(v, e, n, cur);
        if (s > *bestv) {
            *second = *bestv;
            *bestv = s;
            memcpy(best, cur, n * sizeof *cur);
        } else if (s > *second) {
            *second = s;
        }
        size_t i = 0;
        while (i < n && (size_t)++cur[i] == C)
            cur[i++] = 0;
        if (i == n)
            break;
    }
}

static void run_brute(size_t k, size_t maxn, int trials, double espread, double bspread)
{
    pii_ner_labels *L = labels_k(k);
    size_t C = pii_ner_labels_count(L);
    float e[8 * 64];
    int32_t vit[8], bf[8];
    int compared_paths = 0;
    for (int trial = 0; trial < trials; trial++) {
        pii_ner_biases b;
        random_biases(&b, bspread);
        if (trial % 5 == 0)
            memset(&b, 0, sizeof b);
        pii_ner_viterbi *v = pii_ner_viterbi_create(L, &b, NULL);
        assert_non_null(v);
        size_t n = 1 + (size_t)(rng() % maxn);
        random_emissions(e, n, C, espread);
        assert_int_equal(pii_ner_viterbi_decode(v, e, n, vit), PII_OK);
        double bv, second;
        brute(v, e, n, C, bf, &bv, &second);
        double sv = pii_ner_viterbi_path_score(v, e, n, vit);
        assert_true(path_legal(v, vit, n));
        if (fabs(sv - bv) > 1e-6 * (1 + fabs(bv))) {
            fprintf(stderr, "k=%zu n=%zu trial=%d viterbi %.9g brute %.9g\n", k, n, trial, sv, bv);
            fail();
        }
        if (bv - second > 1e-5) {
            assert_memory_equal(vit, bf, n * sizeof *vit);
            compared_paths++;
        }
        pii_ner_viterbi_free(v);
    }
    assert_true(compared_paths > trials / 2);
    pii_ner_labels_free(L);
}

static void test_brute_one_category(void **st)
{
    (void)st;
    run_brute(1, 7, 300, 3.0, 2.0); /* C = 5, n <= 7: 78,125 paths */
}

static void test_brute_two_categories(void **st)
{
    (void)st;
    run_brute(2, 5, 150, 4.0, 3.0); /* C = 9, n <= 5: 59,049 paths */
}

static void test_brute_pf33(void **st)
{
    (void)st;
    run_brute(8, 3, 40, 5.0, 3.0); /* C = 33, n <= 3: 35,937 paths */
}

static void test_brute_large_biases(void **st)
{
    (void)st;
    run_brute(2, 4, 100, 1.0, 20.0); /* biases dominate the emissions */
}

/* ---- the fast step equals the dense reference ----------------------------- */

static void check_step_twins(const pii_ner_labels *L, const pii_ner_biases *b, int steps)
{
    pii_ner_viterbi *v = pii_ner_viterbi_create(L, b, NULL);
    assert_non_null(v);
    size_t C = pii_ner_labels_count(L), nc = pii_ner_viterbi_ncol(v);
    double *prev = malloc(C * sizeof *prev), *o1 = malloc(C * sizeof *o1),
           *o2 = malloc(C * sizeof *o2), *cv = malloc(nc * sizeof *cv);
    uint16_t *b1 = malloc(C * sizeof *b1), *b2 = malloc(C * sizeof *b2),
             *cb = malloc(nc * sizeof *cb);
    float *e = malloc(C * sizeof *e);
    for (int it = 0; it < steps; it++) {
        int mode = it % 4;
        for (size_t c = 0; c < C; c++) {
            /* random, coarse (many exact ties), dead (~NEG) or -inf scores */
            double x = (urand() * 2 - 1) * 5;
            if (mode == 1)
                x = (double)(rng() % 3);
            if (mode == 2 && rng() % 2)
                x = (double)PII_NER_NEG + (double)(rng() % 3);
            if (mode == 3 && rng() % 3 == 0)
                x = -INFINITY;
            prev[c] = x;
            e[c] = mode == 1 ? 0.0f : (float)(urand() * -3);
        }
        pii_ner_viterbi_step_ref(v, prev, e, o1, b1);
        pii_ner_viterbi_step(v, prev, e, o2, b2, cv, cb);
        assert_memory_equal(b1, b2, C * sizeof *b1);
        for (size_t c = 0; c < C; c++)
            assert_true(o1[c] == o2[c] || (isnan(o1[c]) && isnan(o2[c])));
    }
    free(prev);
    free(o1);
    free(o2);
    free(cv);
    free(b1);
    free(b2);
    free(cb);
    free(e);
    pii_ner_viterbi_free(v);
}

static void test_step_twins(void **st)
{
    (void)st;
    for (size_t k = 1; k <= 16; k *= 2) {
        pii_ner_labels *L = labels_k(k);
        pii_ner_biases b;
        check_step_twins(L, NULL, 400);
        random_biases(&b, 2.0);
        check_step_twins(L, &b, 400);
        b.v[2] = b.v[3]; /* I and E columns equal again */
        check_step_twins(L, &b, 400);
        pii_ner_labels_free(L);
    }
    /* an irregular space: categories lacking tags, O not first */
    const char *odd[] = {"B-x", "S-y", "O", "I-x", "E-x", "E-y", "B-z", "I-z", "S-x"};
    pii_ner_labels *L = pii_ner_labels_create(odd, 9, NULL, NULL, 0);
    assert_non_null(L);
    pii_ner_biases b;
    random_biases(&b, 2.0);
    check_step_twins(L, &b, 2000);
    check_step_twins(L, NULL, 2000);
    pii_ner_labels_free(L);
}

/* ---- ties: first index ----------------------------------------------------------- */

static void test_ties(void **st)
{
    (void)st;
    pii_ner_labels *L = labels_k(8);
    pii_ner_viterbi *v = pii_ner_viterbi_create(L, NULL, NULL);
    float e[5 * 33];
    int32_t lab[5];
    /* all equal: every legal path scores 0; first-index choices give all O */
    memset(e, 0, sizeof e);
    assert_int_equal(pii_ner_viterbi_decode(v, e, 5, lab), PII_OK);
    for (int t = 0; t < 5; t++)
        assert_int_equal(lab[t], 0);
    /* one token, O disfavoured, all S-x tied: the first, S-account_number (4) */
    for (int c = 0; c < 33; c++)
        e[c] = -1.0f;
    e[0] = -3.0f;
    assert_int_equal(pii_ner_viterbi_decode(v, e, 1, lab), PII_OK);
    assert_int_equal(lab[0], 4);
    /* empty input */
    assert_int_equal(pii_ner_viterbi_decode(v, e, 0, lab), PII_OK);
    pii_ner_viterbi_free(v);
    pii_ner_labels_free(L);
}

/* ---- online == one-shot -------------------------------------------------------------- */

/* Emissions with structure: runs of "entity" tokens in long O stretches. */
static void structured_emissions(float *e, size_t n, size_t C, size_t k)
{
    size_t t = 0;
    while (t < n) {
        size_t run = 1 + (size_t)(rng() % 12);
        int entity = (rng() % 3) == 0;
        size_t cat = (size_t)(rng() % k);
        for (size_t i = 0; i < run && t < n; i++, t++) {
            for (size_t c = 0; c < C; c++)
                e[t * C + c] = (float)(urand() * 2 - 1);
            if (entity) {
                size_t tag = i == 0 ? 0 : (i + 1 == run ? 2 : 1);
                if (run == 1)
                    tag = 3;
                e[t * C + 1 + 4 * cat + tag] += 3.0f + (float)urand() * 2;
            } else {
                e[t * C] += 3.0f;
            }
        }
    }
    pii_ner_log_softmax(e, n, C, e);
}

/* Pushes rows in random pieces (sizes 1..maxpiece), taking labels at random
 * moments; returns the forced-commit count. */
static uint64_t online_run(pii_ner_online *o, const float *e, size_t n, size_t C, size_t maxpiece,
                           int32_t *out)
{
    pii_ner_online_reset(o);
    size_t got = 0, i = 0;
    while (i < n) {
        size_t k = 1 + (size_t)(rng() % maxpiece);
        if (k > n - i)
            k = n - i;
        assert_int_equal(pii_ner_online_push(o, e + i * C, k), PII_OK);
        i += k;
        if (rng() % 2)
            got += pii_ner_online_take(o, out + got, n - got);
        assert_true(got + pii_ner_online_ready(o) <= i);
    }
    assert_int_equal(pii_ner_online_finish(o), PII_OK);
    got += pii_ner_online_take(o, out + got, n - got);
    assert_int_equal(got, n);
    assert_int_equal(pii_ner_online_pushed(o), n);
    return pii_ner_online_forced(o);
}

static void test_online_equals_oneshot(void **st)
{
    (void)st;
    pii_ner_labels *L = labels_k(8);
    size_t C = 33;
    enum { N = 3000 };
    float *e = malloc(N * C * sizeof *e);
    int32_t *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
    for (int trial = 0; trial < 12; trial++) {
        pii_ner_biases bias;
        random_biases(&bias, 1.5);
        pii_ner_viterbi *v = pii_ner_viterbi_create(L, &bias, NULL);
        size_t n = 1 + (size_t)(rng() % N);
        if (trial % 2)
            structured_emissions(e, n, C, 8);
        else
            random_emissions(e, n, C, 2.0);
        assert_int_equal(pii_ner_viterbi_decode(v, e, n, a), PII_OK);
        size_t lags[3] = {0, 4096, 64};
        for (int li = 0; li < 3; li++) {
            pii_ner_online *o = pii_ner_online_create(v, lags[li], NULL);
            assert_non_null(o);
            size_t pieces[3] = {1, 7, 500};
            for (int pi = 0; pi < 3; pi++) {
                uint64_t forced = online_run(o, e, n, C, pieces[pi], b);
                if (forced == 0)
                    assert_memory_equal(a, b, n * sizeof *a);
                else
                    assert_true(lags[li] == 64); /* only the tight bound may commit */
            }
            pii_ner_online_free(o);
        }
        pii_ner_viterbi_free(v);
    }
    free(e);
    free(a);
    free(b);
    pii_ner_labels_free(L);
}

/* With a bound that is reached, the result is still a legal path, the same
 * for every way of pushing, and the wait never exceeds the bound. */
static void test_online_bound(void **st)
{
    (void)st;
    pii_ner_labels *L = labels_k(2);
    size_t C = pii_ner_labels_count(L);
    enum { N = 2000 };
    float *e = malloc(N * C * sizeof *e);
    int32_t *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
    pii_ner_viterbi *v = pii_ner_viterbi_create(L, NULL, NULL);
    /* An ambiguous stretch: O and I-x equally likely for a long time keeps
     * the O survivor and the entity survivor apart. */
    for (size_t t = 0; t < N; t++) {
        for (size_t c = 0; c < C; c++)
            e[t * C + c] = -20.0f;
        e[t * C + 0] = -0.7f;
        e[t * C + 2] = -0.7f;                         /* I-cat0 */
        e[t * C + 1] = t % 400 == 0 ? -0.7f : -20.0f; /* B-cat0 now and then */
    }
    size_t lag = 50;
    pii_ner_online *o = pii_ner_online_create(v, lag, NULL);
    uint64_t f1 = 0, f2 = 0;
    for (int pass = 0; pass < 4; pass++) {
        uint64_t f = online_run(o, e, N, C, pass == 0 ? 1 : 1 + (size_t)pass * 97, pass ? b : a);
        assert_true(path_legal(v, pass ? b : a, N));
        if (pass == 0)
            f1 = f;
        else
            assert_memory_equal(a, b, N * sizeof *a);
        f2 = f;
    }
    assert_int_equal(f1, f2);
    assert_true(f1 > 0);
    /* the wait is bounded: after every push, at most `lag` labels pending */
    pii_ner_online_reset(o);
    size_t taken = 0;
    for (size_t t = 0; t < N; t++) {
        assert_int_equal(pii_ner_online_push(o, e + t * C, 1), PII_OK);
        taken += pii_ner_online_take(o, a, N);
        assert_true(t + 1 - taken <= lag);
    }
    pii_ner_online_free(o);
    pii_ner_viterbi_free(v);
    free(e);
    free(a);
    free(b);
    pii_ner_labels_free(L);
}

/* Typical text merges quickly: with structured emissions the number of
 * pending labels stays small. */
static void test_online_latency(void **st)
{
    (void)st;
    pii_ner_labels *L = labels_k(8);
    size_t C = 33;
    enum { N = 4000 };
    float *e = malloc(N * C * sizeof *e);
    int32_t *lab = malloc(N * sizeof *lab);
    structured_emissions(e, N, C, 8);
    pii_ner_viterbi *v = pii_ner_viterbi_create(L, NULL, NULL);
    pii_ner_online *o = pii_ner_online_create(v, 4096, NULL);
    size_t taken = 0, maxpend = 0;
    for (size_t t = 0; t < N; t++) {
        assert_int_equal(pii_ner_online_push(o, e + t * C, 1), PII_OK);
        taken += pii_ner_online_take(o, lab + taken, N - taken);
        if (t + 1 - taken > maxpend)
            maxpend = t + 1 - taken;
    }
    assert_true(maxpend < 64);
    assert_int_equal(pii_ner_online_forced(o), 0);
    pii_ner_online_free(o);
    pii_ner_viterbi_free(v);
    free(e);
    free(lab);
    pii_ner_labels_free(L);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_labels_pf33),
        cmocka_unit_test(test_labels_errors),
        cmocka_unit_test(test_log_softmax),
        cmocka_unit_test(test_argmax_first_index),
        cmocka_unit_test(test_bias_keys),
        cmocka_unit_test(test_calibration),
        cmocka_unit_test(test_tables),
        cmocka_unit_test(test_brute_one_category),
        cmocka_unit_test(test_brute_two_categories),
        cmocka_unit_test(test_brute_pf33),
        cmocka_unit_test(test_brute_large_biases),
        cmocka_unit_test(test_step_twins),
        cmocka_unit_test(test_ties),
        cmocka_unit_test(test_online_equals_oneshot),
        cmocka_unit_test(test_online_bound),
        cmocka_unit_test(test_online_latency),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
