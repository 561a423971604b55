/* test_ner_names.c — the name memory (ner/names.c): which spans teach which
 * words, which later words become person spans (exact offsets), forward
 * only, scans cut at any byte, the title list and the size bound. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ner/ner_internal.h"

static const char *const PERSON = "private_person";

static ner_text view(const char *s)
{
    ner_text t = {(const uint8_t *)s, 0, strlen(s)};
    return t;
}

/* Teaches the span [s, e) of text. */
static void teach(ner_names *m, const ner_text *tx, uint64_t s, uint64_t e)
{
    pii_span sp = {s, e, PERSON, NULL, 0.75f, PII_SRC_MODEL};
    assert_int_equal(pii_ner_names_offer(m, tx, &sp), PII_OK);
}

/* Flushes rs (then freed) into got as "s-e" pairs; every span a person
 * span of the teachers' score. */
static void flush_str(ner_resolver *rs, char *got, size_t cap)
{
    pii_spanvec out = {0};
    assert_int_equal(pii_ner_resolver_flush(rs, UINT64_MAX, &out), PII_OK);
    got[0] = '\0';
    for (size_t i = 0; i < out.n; i++) {
        size_t l = strlen(got);
        snprintf(got + l, cap - l, "%s%llu-%llu", i ? " " : "", (unsigned long long)out.v[i].start,
                 (unsigned long long)out.v[i].end);
        assert_string_equal(out.v[i].label, PERSON);
        assert_true(out.v[i].score == 0.75f);
        assert_int_equal(out.v[i].source, PII_SRC_MODEL);
    }
    free(out.v);
    pii_ner_resolver_free(rs);
}

/* Scans the whole text (eod) from 0; the spans found as "s-e" pairs. */
static void scan_all(ner_names *m, const ner_text *tx, char *got, size_t cap)
{
    ner_resolver rs = {0};
    uint64_t pos = 0;
    assert_int_equal(pii_ner_names_scan(m, tx, &pos, tx->len, 1, PERSON, &rs), PII_OK);
    assert_int_equal(pos, tx->len);
    flush_str(&rs, got, cap);
}

static void test_names_basic(void **st)
{
    (void)st;
    /*                 0         1         2         3         4         5         6
     *                 0123456789012345678901234567890123456789012345678901234567890123 */
    const char *s = "Okafor came. Dr. Ngozi Okafor spoke; Okafor's aide, okafor, "
                    /* 60 */ "Okafors and Okafor-Smith left. Ngozi! Dr met Dr.";
    ner_text tx = view(s);
    ner_names m = {0};
    teach(&m, &tx, 13, 29);   /* "Dr. Ngozi Okafor" */
    assert_int_equal(m.n, 0); /* offered; learned when a scan reaches its end */
    char got[256];
    scan_all(&m, &tx, got, sizeof got);
    assert_int_equal(m.n, 2); /* Ngozi, Okafor; "Dr" is a title */
    /* not the "Okafor" before the teacher ends (0-6), nor the teacher's own
     * words; "Okafor" of "Okafor's" (37-43); not "okafor", "Okafors" or
     * "Okafor-Smith" (one word); "Ngozi" at 91 */
    assert_string_equal(got, "37-43 91-96");
    pii_ner_names_free(&m);
}

static void test_names_who_teaches(void **st)
{
    (void)st;
    const char *s = "Okafor spoke. WEI ZHANG, Mr Lee, J. Smith, Louis XIV, R2 D2, "
                    "Okafor ZHANG WEI Lee Smith Louis XIV Mr";
    ner_text tx = view(s);
    ner_names m = {0};
    teach(&m, &tx, 0, 6);   /* one word: teaches nothing */
    teach(&m, &tx, 14, 23); /* WEI ZHANG */
    teach(&m, &tx, 25, 31); /* Mr Lee: Lee */
    teach(&m, &tx, 33, 41); /* J. Smith: Smith (J is one letter) */
    teach(&m, &tx, 43, 52); /* Louis XIV: Louis (XIV a numeral) */
    teach(&m, &tx, 54, 59); /* R2 D2: digits */
    char got[256];
    scan_all(&m, &tx, got, sizeof got);
    assert_int_equal(m.n, 5);
    const char *want = "68-73 74-77 78-81 82-87 88-93";
    assert_string_equal(got, want);
    assert_int_equal(s[68], 'Z');
    pii_ner_names_free(&m);
}

/* Scanning in pieces, each stopping at an arbitrary byte (a word crossing
 * the limit waits), finds the same spans as one scan. */
static void test_names_pieces(void **st)
{
    (void)st;
    const char *s = "Ana Lucía Pérez-Gómez wrote. Then Lucía and Pérez-Gómez, "
                    "O\u2019Brien\u2019s and Lucía\u2019s note: Ana.";
    ner_text tx = view(s);
    ner_names m = {0};
    teach(&m, &tx, 0, 24); /* "Ana Lucía Pérez-Gómez" (UTF-8 bytes) */
    char whole[256];
    scan_all(&m, &tx, whole, sizeof whole);
    /* Lucía, Pérez-Gómez, Lucía of "Lucía’s", Ana; O’Brien was never taught */
    assert_string_equal(whole, "37-43 48-61 81-87 98-101");
    for (uint64_t step = 1; step < 9; step++) {
        ner_resolver rs = {0};
        uint64_t pos = 0;
        for (uint64_t lim = 0; pos < tx.len; lim += step) {
            uint64_t l = lim < tx.len ? lim : tx.len;
            ner_text part = tx;
            part.len = (size_t)l; /* only the bytes "seen" so far */
            uint64_t before = pos;
            assert_int_equal(pii_ner_names_scan(&m, &part, &pos, l, l == tx.len, PERSON, &rs),
                             PII_OK);
            assert_true(pos >= before);
            if (l == tx.len)
                assert_int_equal(pos, tx.len);
        }
        char got[256];
        flush_str(&rs, got, sizeof got);
        assert_string_equal(got, whole);
    }
    pii_ner_names_free(&m);
}

/* At most NER_NAMES_MAX words; the later ones are not taught. */
static void test_names_bound(void **st)
{
    (void)st;
    size_t cap = (NER_NAMES_MAX + 10) * 16;
    char *s = malloc(cap);
    size_t len = 0;
    for (int i = 0; i < NER_NAMES_MAX + 10; i++)
        len += (size_t)snprintf(s + len, cap - len, "Ab%c%c Cd, ", 'a' + i % 26, 'a' + i / 26);
    ner_text tx = {(const uint8_t *)s, 0, len};
    ner_names m = {0};
    uint64_t p = 0;
    for (int i = 0; i < NER_NAMES_MAX + 10; i++) {
        teach(&m, &tx, p, p + 7); /* "Abxy Cd" */
        p += 9;
    }
    char got[16];
    ner_resolver rs = {0};
    uint64_t pos = 0;
    assert_int_equal(pii_ner_names_scan(&m, &tx, &pos, tx.len, 1, PERSON, &rs), PII_OK);
    assert_int_equal(m.n, NER_NAMES_MAX);
    assert_int_equal(m.np, 0);
    /* "Cd" came first: the table holds it and the first 511 "Abxy" words */
    snprintf(got, sizeof got, "%.*s", (int)m.v[1].len, m.v[1].w);
    assert_string_equal(got, "Cd");
    pii_ner_resolver_free(&rs);
    pii_ner_names_reset(&m);
    assert_int_equal(m.n, 0);
    pii_ner_names_free(&m);
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_basic),
        cmocka_unit_test(test_names_who_teaches),
        cmocka_unit_test(test_names_pieces),
        cmocka_unit_test(test_names_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
