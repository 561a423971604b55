/* test_batch_derive.c — pii_redactor_derive: a copy of a redactor's
 * configuration with one detector replaced, as batch packing uses to replay
 * precomputed model spans.  The copy keeps the other detectors, the
 * operators, the allow list and the label selection; the original is not
 * changed; an unknown detector is refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pii_redact.h"

/* A detector that reports every occurrence of one byte as a span of its
 * shared label; `which` says which byte. */
typedef struct bytedet {
    uint8_t which;
    const char *label;
} bytedet;

static void *bd_open(const void *shared, pii_err *err)
{
    *err = PII_OK;
    return (void *)shared;
}

static pii_err bd_scan(void *st, const uint8_t *buf, size_t len, uint64_t base, int eod,
                       pii_spanvec *out, uint64_t *done, uint64_t *keep)
{
    const bytedet *d = st;
    (void)eod;
    for (uint64_t i = *done; i < base + len; i++)
        if (buf[i - base] == d->which) {
            pii_span s = {i, i + 1, d->label, "byte", 1.0f, PII_SRC_RULE};
            pii_err e = pii_spanvec_push(out, &s);
            if (e)
                return e;
        }
    *done = *keep = base + len;
    return PII_OK;
}

static const pii_detector_class bd_cls = {"byte", bd_open, bd_scan, NULL, NULL};

typedef struct cap {
    char out[256];
    size_t n;
} cap;

static pii_err cap_write(void *ud, const uint8_t *p, size_t n)
{
    cap *c = ud;
    assert_true(c->n + n < sizeof c->out);
    memcpy(c->out + c->n, p, n);
    c->n += n;
    c->out[c->n] = '\0';
    return PII_OK;
}

static const char *run(const pii_redactor *r, const char *text, cap *c)
{
    pii_sink sink = {cap_write, NULL, NULL, c};
    pii_err e;
    memset(c, 0, sizeof *c);
    pii_stream *s = pii_stream_create(r, &sink, &e);
    assert_non_null(s);
    assert_int_equal(pii_stream_feed(s, text, strlen(text)), PII_OK);
    assert_int_equal(pii_stream_end_doc(s), PII_OK);
    pii_stream_free(s);
    return c->out;
}

static void test_derive_replaces_one_detector(void **state)
{
    (void)state;
    bytedet x = {'x', "secret"}, y = {'y', "private_url"}, z = {'z', "private_phone"};
    pii_err e;
    pii_redactor *r = pii_redactor_create(&e);
    assert_int_equal(pii_redactor_add_detector(r, (pii_detector){&bd_cls, &x}), PII_OK);
    assert_int_equal(pii_redactor_add_detector(r, (pii_detector){&bd_cls, &y}), PII_OK);
    const char *only[] = {"secret", "private_phone"};
    assert_int_equal(pii_redactor_select_labels(r, only, 2, 0), PII_OK);

    /* y (private_url, not selected anyway) is replaced by z */
    pii_redactor *d = pii_redactor_derive(r, &y, (pii_detector){&bd_cls, &z}, &e);
    assert_non_null(d);
    assert_int_equal(e, PII_OK);
    cap c;
    assert_string_equal(run(d, "axyz", &c), "a<SECRET>y<PRIVATE_PHONE>");
    /* the original is unchanged, and the two are independent */
    assert_string_equal(run(r, "axyz", &c), "a<SECRET>yz");
    pii_redactor_free(r);
    assert_string_equal(run(d, "zx", &c), "<PRIVATE_PHONE><SECRET>");

    /* an unknown shared object is refused */
    bytedet w = {'w', "secret"};
    assert_null(pii_redactor_derive(d, &w, (pii_detector){&bd_cls, &z}, &e));
    assert_int_equal(e, PII_ENOTFOUND);
    assert_null(pii_redactor_derive(d, &z, (pii_detector){NULL, &z}, &e));
    assert_int_equal(e, PII_EINVAL);
    pii_redactor_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_derive_replaces_one_detector),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
