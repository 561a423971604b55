/* test_ner_code_values.c — pii_ner_code_value (ner/code_values.c): which
 * model value spans are code, not values.  Each case is a line of text, the
 * span's label and its bytes (the first occurrence of `span` in the text),
 * and the exact answer; the values that must stay (fail closed) are as many
 * as the code that must go. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "ner/ner_internal.h"

typedef struct cv_case {
    const char *text, *label, *span;
    int code;
} cv_case;

static const cv_case cases[] = {
    /* C preprocessor and typedef lines */
    {"#define CAST_BLOCK 8\n#define CAST_KEY_LENGTH 16\n", "private_address",
     "#define CAST_KEY_LENGTH 16", 1},
    {"#define sz_xGLXQueryMaxSwapBarriersSGIXReq 16\n", "private_address",
     "xGLXQueryMaxSwapBarriersSGIXReq 16", 1},
    {"typedef CARD32 GLXContextTag;\n", "secret", "CARD32 GLXContextTag", 1},
    {"#endif /* OPENSSL_NO_DEPRECATED_3_0 */\n", "secret", "_3_0", 1},
    {"  #  ifdef HAVE_PHONE_5551234\n", "private_phone", "5551234", 1},
    {"#define API_KEY \"sk_live_4eC39HqLyjWDarjtT1zdp7dc\"\n", "secret",
     "sk_live_4eC39HqLyjWDarjtT1zdp7dc", 0},
    {"#defined is no directive: 555 0100\n", "private_phone", "555 0100", 0},
    {"typedefs aside, call 555 0100\n", "private_phone", "555 0100", 0},
    {"#define CAST_KEY_LENGTH 16\n", "private_person", "CAST_KEY_LENGTH", 0},
    /* hex dumps */
    {"176x144\t\tFF FF 00 FF 96 64 00\tno\n", "account_number", "FF FF 00 FF", 1},
    {"176x144\t\tFF FF 00 FF 96 64 00\tno\n", "private_phone", "96 64 00", 1},
    {"320x240\t\tFF FF 00 FF 96 64 06\tno\n", "account_number", "FF FF 00", 1},
    {"call 96 64 00 12 today\n", "private_phone", "96 64 00 12", 0},
    {"Tel. 06 12 34 56 78\n", "private_phone", "06 12 34 56 78", 0},
    {"ref AB CD\n", "account_number", "AB CD", 0},
    /* sizes read as phones */
    {"\t\t\t\t640x480\t\tFF FF\n", "private_phone", "640x480", 1},
    {"ext 555-0100x12\n", "private_phone", "555-0100x12", 0},
    {"640x480\n", "private_date", "640x480", 0},
    /* version numbers read as dates */
    {"Changes in dconf 0.35.1\n", "private_date", "0.35.1", 1},
    {"Changes in dconf 0.29.2\n", "private_date", "29.2", 1},
    {"Linux man-pages 6.03              2023-02-05\n", "private_date", "6.03", 1},
    {"release 1.2.3.4 is out\n", "private_date", "1.2.3.4", 1},
    {"born on 6.3.1985 in Ulm\n", "private_date", "6.3.1985", 0},
    {"born on 12.03.2021.\n", "private_date", "12.03.2021.", 0},
    {"Geburtstag am 06.03.\n", "private_date", "06.03.", 0},
    {"seit 03.2021 im Haus\n", "private_date", "03.2021", 0},
    {"admitted 2021.03.04\n", "private_date", "2021.03.04", 0},
    {"born 1985\n", "private_date", "1985", 0},
    {"born 12 March 1985\n", "private_date", "12 March 1985", 0},
    {"Changes in dconf 0.35.1\n", "secret", "0.35.1", 0},
};

static void test_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const cv_case *c = &cases[i];
        const char *at = strstr(c->text, c->span);
        assert_non_null(at);
        ner_text tx = {(const uint8_t *)c->text, 0, strlen(c->text)};
        uint64_t s = (uint64_t)(at - c->text), e = s + strlen(c->span);
        int got = pii_ner_code_value(&tx, c->label, s, e);
        if (got != c->code)
            fprintf(stderr, "case %zu: \"%s\" (%s) in \"%s\": %d, want %d\n", i, c->span, c->label,
                    c->text, got, c->code);
        assert_int_equal(got, c->code);
    }
}

/* The bytes in view decide: a line that starts more than NER_DIGEST_BACK
 * bytes before the span, or before the view, is not read as code; the same
 * span with its line in view is. */
static void test_view(void **state)
{
    (void)state;
    char line[256];
    int n = snprintf(line, sizeof line, "#define %*s 16\n", NER_DIGEST_BACK, "LONG_NAME");
    assert_true(n > 0 && (size_t)n < sizeof line);
    const char *at = strstr(line, "16");
    uint64_t s = (uint64_t)(at - line);
    ner_text whole = {(const uint8_t *)line, 0, (size_t)n};
    assert_int_equal(pii_ner_code_value(&whole, "private_phone", s, s + 2), 0);
    const char *near = "#define LONG_NAME 16\n";
    ner_text tx = {(const uint8_t *)near, 0, strlen(near)};
    assert_int_equal(pii_ner_code_value(&tx, "private_phone", 18, 20), 1);
    /* the same bytes seen from offset 8 on (the view starts mid-line) */
    ner_text cut = {(const uint8_t *)near + 8, 8, strlen(near) - 8};
    assert_int_equal(pii_ner_code_value(&cut, "private_phone", 18, 20), 0);
    /* a span outside the view or empty is left alone */
    assert_int_equal(pii_ner_code_value(&tx, "private_phone", 18, 40), 0);
    assert_int_equal(pii_ner_code_value(&tx, "private_phone", 18, 18), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cases),
        cmocka_unit_test(test_view),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
