/* test_fault_custom.c — custom rules (pii_custom.h) under allocation
 * failure: loading a rule file and redacting through its detector fail with
 * PII_ENOMEM at every allocation, never crash or leak (ASan in the san
 * variant), and the output written before the failure is a prefix of the
 * correct output. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pii_custom.h"
#include "pii_fault.h"
#include "unit_util.h"

static const char RULES[] = "[acme_employee]\n"
                            "description = ACME employee number\n"
                            "label = account_number\n"
                            "regex = \\bEMP-[0-9]{6}\\b\n"
                            "allow = EMP-000000\n"
                            "allow = re:EMP-9+\n"
                            "[acme_card]\n"
                            "label = account_number\n"
                            "regex = \\b[0-9]{4}(?: [0-9]{4}){3}\\b\n"
                            "validator = luhn\n"
                            "keywords = card, visa\n";

static const char TEXT[] = "Staff EMP-123456, EMP-000000; card 4111 1111 1111 1111.\n";

/* Loads the rules and redacts TEXT in 7-byte pieces. */
static pii_err run(unit_out *c)
{
    pii_err e;
    size_t line;
    char msg[128];
    memset(c, 0, sizeof *c);
    pii_custom *rules = pii_custom_parse(RULES, sizeof RULES - 1, &e, &line, msg, sizeof msg);
    if (!rules)
        return e;
    pii_redactor *r = pii_redactor_create(&e);
    pii_stream *s = NULL;
    if (r && !(e = pii_redactor_add_detector(r, pii_custom_detector(rules)))) {
        pii_sink sink = {unit_out_write, NULL, NULL, c};
        s = pii_stream_create(r, &sink, &e);
    }
    for (size_t off = 0; s && !e && off < sizeof TEXT - 1; off += 7) {
        size_t n = sizeof TEXT - 1 - off < 7 ? sizeof TEXT - 1 - off : 7;
        e = pii_stream_feed(s, TEXT + off, n);
    }
    if (s && !e)
        e = pii_stream_end_doc(s);
    pii_stream_free(s);
    pii_redactor_free(r);
    pii_custom_free(rules);
    return e;
}

static void test_alloc_sweep(void **state)
{
    (void)state;
    unit_out ref, got;
    pii_fault_reset();
    assert_int_equal(run(&ref), PII_OK);
    assert_string_equal(ref.b, "Staff <ACCOUNT_NUMBER>, EMP-000000; card <ACCOUNT_NUMBER>.\n");
    int failed = 0;
    for (uint64_t k = 1;; k++) {
        pii_fault_reset();
        pii_fault_set(PII_FAULT_ALLOC, k, 0);
        pii_err e = run(&got);
        int hit = pii_fault_count(PII_FAULT_ALLOC) >= k;
        pii_fault_reset();
        if (!hit) {
            assert_int_equal(e, PII_OK); /* past the last allocation */
            assert_int_equal(got.n, ref.n);
            assert_memory_equal(got.b, ref.b, ref.n);
            break;
        }
        if (e == PII_OK) { /* a failed allocation that was not needed */
            assert_memory_equal(got.b, ref.b, ref.n);
            continue;
        }
        failed++;
        assert_int_equal(e, PII_ENOMEM);
        assert_true(got.n <= ref.n);
        assert_memory_equal(got.b, ref.b, got.n);
    }
    assert_true(failed > 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alloc_sweep),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
