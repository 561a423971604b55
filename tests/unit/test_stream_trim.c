/* test_stream_trim.c — exact boundaries (issue 41): a model span that
 * overlaps a rule span of its label is cut to the rule's edges; the key
 * names and words around survive, a value the model span also holds stays
 * redacted, and a piece glued to the rule's value keeps the union.
 *
 * The "model" here is a scripted detector that reports given byte spans
 * (source PII_SRC_MODEL) at the end of the document; the rules are the
 * real rule tier. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pii_redact.h"
#include "unit_util.h"

typedef struct script {
    const char *label;
    const char *from, *to; /* the span: first occurrence of `from` to the end of `to` after it */
    const char *text;
} script;

static void *sc_open(const void *shared, pii_err *err)
{
    *err = PII_OK;
    return (void *)shared;
}

static pii_err sc_scan(void *st, const uint8_t *buf, size_t len, uint64_t base, int eod,
                       pii_spanvec *out, uint64_t *done, uint64_t *keep)
{
    const script *sc = st;
    if (!eod) {
        *done = base;
        *keep = base;
        return PII_OK;
    }
    assert_int_equal(base, 0);
    const char *t = (const char *)buf;
    assert_int_equal(len, strlen(sc->text));
    const char *a = strstr(t, sc->from);
    assert_non_null(a);
    const char *b = strstr(a, sc->to);
    assert_non_null(b);
    pii_span sp = {(uint64_t)(a - t), (uint64_t)(b + strlen(sc->to) - t), sc->label, NULL, 0.9f,
                   PII_SRC_MODEL};
    *done = len;
    *keep = len;
    return pii_spanvec_push(out, &sp);
}

static void sc_reset(void *st)
{
    (void)st;
}

static void sc_close(void *st)
{
    (void)st;
}

static const pii_detector_class sc_cls = {"script", sc_open, sc_scan, sc_reset, sc_close, NULL};

static void check(const script *sc, const char *want)
{
    pii_err e;
    pii_rules *rules = pii_rules_create(&e);
    assert_non_null(rules);
    pii_redactor *r = pii_redactor_create(&e);
    assert_non_null(r);
    pii_detector m = {&sc_cls, sc};
    assert_int_equal(pii_redactor_add_detector(r, pii_rules_detector(rules)), PII_OK);
    assert_int_equal(pii_redactor_add_detector(r, m), PII_OK);
    unit_out out = {{0}, 0};
    pii_sink sink = {unit_out_write, NULL, NULL, &out};
    pii_stream *s = pii_stream_create(r, &sink, &e);
    assert_non_null(s);
    assert_int_equal(pii_stream_feed(s, sc->text, strlen(sc->text)), PII_OK);
    assert_int_equal(pii_stream_end_doc(s), PII_OK);
    pii_stream_free(s);
    if (strcmp(out.b, want) != 0)
        fail_msg("\n  in:   %s\n  want: %s\n  got:  %s", sc->text, want, out.b);
    pii_redactor_free(r);
    pii_rules_free(rules);
}

static void test_rule_edges_win(void **state)
{
    (void)state;
    /* the first sample of `make demo`: the model's span runs on past the key */
    static const script demo = {"secret", "AKIA", "west-1",
                                "aws_access_key_id=AKIAIOSFODNN7EXAMPLE region=eu-west-1"};
    check(&demo, "aws_access_key_id=<SECRET> region=eu-west-1");
    /* one model span over two keys: the key name between them survives */
    static const script two = {"secret", "AKIA", "KEY",
                               "AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE "
                               "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"};
    check(&two, "AWS_ACCESS_KEY_ID=<SECRET> AWS_SECRET_ACCESS_KEY=<SECRET>");
    /* the model's span starts early ("key=") */
    static const script early = {"secret", "id=", "EXAMPLE",
                                 "aws_access_key_id=AKIAIOSFODNN7EXAMPLE region=eu-west-1"};
    check(&early, "aws_access_key_id=<SECRET> region=eu-west-1");
    /* a card: "exp 12/27" after it is no account number */
    static const script card = {"account_number", "4111", "27",
                                "card 4111 1111 1111 1111 exp 12/27, thanks"};
    check(&card, "card <ACCOUNT_NUMBER> exp 12/27, thanks");
}

static void test_union_kept(void **state)
{
    (void)state;
    /* the model's span reaches another value: that value stays redacted */
    static const script more = {"secret", "AKIA", "Q9",
                                "id=AKIAIOSFODNN7EXAMPLE pass=hunter2Xk8rT55mQ9 ok"};
    check(&more, "id=<SECRET> pass=<SECRET> ok");
    /* glued to the rule's value (no boundary): one value, the union */
    static const script glued = {"secret", "AKIA", "zz9", "id AKIAIOSFODNN7EXAMPLE.zz9 ok"};
    check(&glued, "id <SECRET> ok");
    /* another label: the union as before */
    static const script other = {"private_person", "Li", "example.com",
                                 "to Li Wei <li.wei@example.com> now"};
    check(&other, "to <PRIVATE_PERSON>> now");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rule_edges_win),
        cmocka_unit_test(test_union_kept),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
