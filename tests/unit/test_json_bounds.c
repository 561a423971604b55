/* test_json_bounds.c — pii_json_check (tokenizer/json_bounds.c): values
 * and depth are counted exactly (strings with escaped quotes and brackets
 * inside count once), each limit refuses at one past it, and the byte cap
 * comes first. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pii_json.h"

static pii_err check(const char *t, size_t bytes, size_t values, int depth)
{
    pii_json_limits l = {bytes, values, depth};
    char msg[128];
    pii_err e = pii_json_check(t, strlen(t), &l, msg, sizeof msg);
    assert_true(e == PII_OK || msg[0] != '\0');
    return e;
}

static void test_counts(void **state)
{
    (void)state;
    /* object, key "a", array, 1, -2.5, true, string with "[{\"]" inside,
     * key "b", null, nested object: 10 values; depth 2 */
    const char *t = "{\"a\": [1, -2.5e3, true, \"x[{\\\"]}\"], \"b\" :null, \"c\": {}}";
    /* values: { a [ 1 -2.5e3 true "x.." b null c {} = 11 */
    assert_int_equal(check(t, 1000, 11, 2), PII_OK);
    assert_int_equal(check(t, 1000, 10, 2), PII_ETOOBIG);
    assert_int_equal(check(t, 1000, 11, 1), PII_EJSON);
    assert_int_equal(check(t, strlen(t), 11, 2), PII_OK);
    assert_int_equal(check(t, strlen(t) - 1, 100, 9), PII_ETOOBIG);
    assert_int_equal(check("  42 ", 10, 1, 1), PII_OK);
    assert_int_equal(check("  42 ", 10, 0, 1), PII_ETOOBIG);
    assert_int_equal(check("", 10, 0, 0), PII_OK);
}

static void test_hostile(void **state)
{
    (void)state;
    /* 100,000 empty arrays: 100,001 values */
    size_t n = 100000, len = 2 + 3 * n;
    char *t = malloc(len + 1);
    assert_non_null(t);
    t[0] = '[';
    for (size_t i = 0; i < n; i++)
        memcpy(t + 1 + 3 * i, "[],", 3);
    t[len - 2] = ']';
    t[len - 1] = ']';
    t[len] = '\0';
    assert_int_equal(check(t, len, n + 1, 2), PII_OK);
    assert_int_equal(check(t, len, n, 2), PII_ETOOBIG);
    /* deep nesting */
    memset(t, '[', 100);
    memset(t + 100, ']', 100);
    t[200] = '\0';
    assert_int_equal(check(t, 1000, 1000, 100), PII_OK);
    assert_int_equal(check(t, 1000, 1000, 99), PII_EJSON);
    /* brackets inside a string do not nest; an unterminated string is
     * json-c's to refuse */
    assert_int_equal(check("\"[[[[[[[[\"", 100, 1, 0), PII_OK);
    assert_int_equal(check("\"abc", 100, 1, 0), PII_OK);
    free(t);
    /* the shipped limits */
    assert_true(pii_json_tokenizer_limits.max_bytes >= (28u << 20));
    assert_true(pii_json_tokenizer_limits.max_values >= 1500000u);
    assert_true(pii_json_small_limits.max_depth >= 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_hostile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
