/* test_ner_names_detector.c — the name recognizers without the model
 * (ner/names_detector.c, pii_names.h): exact spans with rule ids and
 * source PII_SRC_RULE, the parts and the filter as configured, bad
 * configurations refused, and the spans of a feed in pieces of every size
 * (the buffer cut to the detector's keep each time) equal to one scan of
 * the whole document, with done and keep as the detector contract says. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pii_names.h"

/* The spans as "start-end:rule" joined by spaces. */
static void show(const pii_spanvec *v, char *out, size_t cap)
{
    size_t k = 0;
    out[0] = '\0';
    for (size_t i = 0; i < v->n && k < cap; i++) {
        const pii_span *s = &v->v[i];
        assert_int_equal(s->source, PII_SRC_RULE);
        assert_string_equal(s->label, "private_person");
        k += (size_t)snprintf(out + k, cap - k, "%s%llu-%llu:%s", i ? " " : "",
                              (unsigned long long)s->start, (unsigned long long)s->end, s->rule);
    }
}

/* Feeds doc in pieces of `step` bytes (0: whole), each time from the last
 * keep; checks done and keep. */
static void feed(const pii_names *n, const char *doc, size_t step, pii_spanvec *out)
{
    pii_detector d = pii_names_detector(n);
    pii_err e;
    void *st = d.cls->open(d.shared, &e);
    assert_non_null(st);
    const size_t len = strlen(doc);
    uint64_t keep = 0, done = 0, have = 0;
    do {
        have = step && have + step < len ? have + step : len;
        uint64_t d0 = done, k0 = keep;
        assert_int_equal(d.cls->scan(st, (const uint8_t *)doc + keep, (size_t)(have - keep), keep,
                                     have == len, out, &done, &keep),
                         PII_OK);
        assert_true(done >= d0 && keep >= k0 && keep <= done);
        assert_true(have - keep <= 80000); /* bounded: the reach and one long word */
        for (size_t i = 0; i < out->n; i++)
            assert_true(out->v[i].start < done || have == len);
    } while (have < len);
    assert_int_equal(done, len);
    d.cls->close(st);
}

static const char *const DOC =
    "Mr. Temple met Tom Baker (Porte, 2012). Later Temple and Baker left.\n"
    "Garcia, Maria\nJudge Kafka ruled. Dear Support, Payout failed. Klingberg et al. agreed.\n";

static void test_names_detector_spans(void **state)
{
    (void)state;
    pii_err e;
    char got[1024];
    pii_names *n = pii_names_create(PII_NAMES_ALL, &e);
    assert_non_null(n);
    pii_spanvec v = {0};
    feed(n, DOC, 0, &v);
    show(&v, got, sizeof got);
    assert_string_equal(got, "4-10:honorific 15-24:name_lexicon 26-31:citation 46-52:name_memory "
                             "57-62:name_memory 69-82:name_inverted 131-140:citation");
    pii_spanvec_free(&v);
    pii_names_free(n);
    /* without the filter "Kafka" after a judge's title is a name */
    n = pii_names_create(PII_NAMES_ALL & ~PII_NAMES_FILTER, &e);
    feed(n, DOC, 0, &v);
    show(&v, got, sizeof got);
    assert_string_equal(got, "4-10:honorific 15-24:name_lexicon 26-31:citation 46-52:name_memory "
                             "57-62:name_memory 69-82:name_inverted 89-94:honorific "
                             "131-140:citation");
    pii_spanvec_free(&v);
    pii_names_free(n);
    /* given names only, no memory */
    n = pii_names_create(PII_NAMES_PAIRS | PII_NAMES_FILTER, &e);
    assert_int_equal(pii_names_parts(n), PII_NAMES_PAIRS | PII_NAMES_FILTER);
    feed(n, DOC, 0, &v);
    show(&v, got, sizeof got);
    assert_string_equal(got, "15-24:name_lexicon 69-82:name_inverted");
    pii_spanvec_free(&v);
    pii_names_free(n);
}

static void test_names_detector_refuses(void **state)
{
    (void)state;
    pii_err e = PII_OK;
    assert_null(pii_names_create(PII_NAMES_MEMORY | PII_NAMES_FILTER, &e));
    assert_int_equal(e, PII_EINVAL);
    assert_null(pii_names_create(PII_NAMES_ALL + 1, &e));
    assert_int_equal(e, PII_EINVAL);
    assert_string_equal(pii_names_label(), "private_person");
}

static void test_names_detector_pieces(void **state)
{
    (void)state;
    pii_err e;
    /* a document longer than the memory's reach: teachers far and near */
    size_t cap = 20000, k = 0;
    char *doc = malloc(cap);
    assert_non_null(doc);
    k += (size_t)snprintf(doc + k, cap - k, "Okafor came. %s", DOC);
    memset(doc + k, ' ', 5000);
    k += 5000;
    k += (size_t)snprintf(doc + k, cap - k, "Dr. Ada Okafor and Temple. %s", DOC);
    pii_names *n = pii_names_create(PII_NAMES_ALL, &e);
    pii_spanvec whole = {0}, part = {0};
    feed(n, doc, 0, &whole);
    char want[4096], got[4096];
    show(&whole, want, sizeof want);
    assert_true(whole.n > 10);
    const size_t steps[] = {1, 2, 3, 7, 64, 1000, 4097};
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        pii_spanvec_clear(&part);
        feed(n, doc, steps[i], &part);
        show(&part, got, sizeof got);
        assert_string_equal(got, want);
    }
    /* a word over 64 KiB is stepped over, not held: the buffer stays
     * bounded and the names after it are found */
    char *big = malloc(80000);
    assert_non_null(big);
    strcpy(big, "Mr. Temple said ");
    memset(big + 16, 'x', 70000);
    strcpy(big + 70016, " Dr. Ada Okafor met Tom Baker and Temple.");
    pii_spanvec_clear(&whole);
    feed(n, big, 0, &whole);
    show(&whole, want, sizeof want);
    assert_string_equal(want, "4-10:honorific 70021-70031:honorific 70036-70045:name_lexicon "
                              "70050-70056:name_memory");
    pii_spanvec_clear(&part);
    feed(n, big, 4096, &part);
    show(&part, got, sizeof got);
    assert_string_equal(got, want);
    free(big);
    pii_spanvec_free(&whole);
    pii_spanvec_free(&part);
    pii_names_free(n);
    free(doc);
}

/* Random documents of name-like pieces: in pieces of random sizes the
 * spans are those of one scan of the whole (a fixed seed). */
static void test_names_detector_random(void **state)
{
    (void)state;
    static const char *const piece[] = {
        "Tom", "Baker",      "Mr.",   " ",      "  ",    "(",     "2012",     ", ",
        "; ",  "\n",         "et al", "Garcia", "Maria", "Dr",    ".",        "Okafor",
        "'s",  "O'",         "Brien", "Judge",  "and",   "Court", "\xC3\xA9", "\xE2\x80\x99",
        "x",   "Solicitors", "Wei",   ",",      "Li",    "&",
    };
    const size_t np = sizeof piece / sizeof piece[0];
    pii_err e;
    pii_names *n = pii_names_create(PII_NAMES_ALL, &e);
    assert_non_null(n);
    char doc[6000], want[8192], got[8192];
    pii_spanvec whole = {0}, part = {0};
    uint32_t r = 40;
    size_t total = 0;
    for (int round = 0; round < 300; round++) {
        size_t k = 0;
        while (k < 5000) {
            r = r * 1103515245u + 12345u;
            const char *p = piece[(r >> 16) % np];
            size_t l = strlen(p);
            memcpy(doc + k, p, l);
            k += l;
        }
        doc[k] = '\0';
        pii_spanvec_clear(&whole);
        feed(n, doc, 0, &whole);
        show(&whole, want, sizeof want);
        total += whole.n;
        r = r * 1103515245u + 12345u;
        size_t step = 1 + (r >> 16) % 700;
        pii_spanvec_clear(&part);
        feed(n, doc, step, &part);
        show(&part, got, sizeof got);
        assert_string_equal(got, want);
    }
    assert_true(total > 1000); /* the pieces make names: 2,213 */
    pii_spanvec_free(&whole);
    pii_spanvec_free(&part);
    pii_names_free(n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_detector_spans),
        cmocka_unit_test(test_names_detector_refuses),
        cmocka_unit_test(test_names_detector_pieces),
        cmocka_unit_test(test_names_detector_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
