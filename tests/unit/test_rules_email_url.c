/* test_rules_email_url.c — private_email and private_url rules.
 *
 * Each case lists the exact spans (rule, byte offsets, text) of the
 * one-shot scan; check_cases() also requires the same spans from every
 * engine variant (JIT/interpreter x prefilter/plain) and from every
 * 2-chunk split of the input.  Cases without spans are hard negatives.
 * Expected values were checked by hand against docs/RULES.md. */
#include "rules_test_util.h"

static const rcase email_cases[] = {
    {"Mail bob.smith@example.com or call", {{"email", 5, 26, "bob.smith@example.com"}}},
    {"x bob@example.com y", {{"email", 2, 17, "bob@example.com"}}},
    /* issue 18 M6: an e-mail followed by ":/" (a passwd GECOS field) */
    {"root:x:0:0:maria.garcia@example.com:/root:/bin/bash",
     {{"email", 11, 35, "maria.garcia@example.com"}}},
    {"<jane_doe+news@mail.example.co.uk>", {{"email", 1, 33, "jane_doe+news@mail.example.co.uk"}}},
    {"m\xc3\xbcller@b\xc3\xbc"
     "cher.de schrieb",
     {{"email", 0, 18,
       "m\xc3\xbcller@b\xc3\xbc"
       "cher.de"}}},
    {"Contact: a.b-c@sub-domain.example.org.", {{"email", 9, 37, "a.b-c@sub-domain.example.org"}}},
    {"write to info@xn--bcher-kva.xn--p1ai now", {{"email", 9, 36, "info@xn--bcher-kva.xn--p1ai"}}},
    {"\"email\":\"ops@corp.example.io\",", {{"email", 9, 28, "ops@corp.example.io"}}},
    {"Dear bob@example.com, hi", {{"email", 5, 20, "bob@example.com"}}},
    {"icon@2x.png logo@3x.webp", {{0}}},
    {"lodash@4.17.21 and @types/node", {{0}}},
    {"git@github.com:org/repo.git", {{0}}},
    {"user@localhost and root@127.0.0.1", {{0}}},
    {"a..b@example.com .x@example.com y.@example.com", {{0}}},
    {"bob@example foo@bar.c", {{0}}},
    {"docker pull image@sha256:0123abcd", {{0}}},
};
static const rcase url_cases[] = {
    {"see https://example.com/path?q=1.", {{"url", 4, 32, "https://example.com/path?q=1"}}},
    {"(https://en.wikipedia.org/wiki/Foo_(bar))",
     {{"url", 1, 40, "https://en.wikipedia.org/wiki/Foo_(bar)"}}},
    {"[docs](https://docs.example.com/a/b)", {{"url", 7, 35, "https://docs.example.com/a/b"}}},
    {"www.example.org, and WWW.Example.COM",
     {{"url", 0, 15, "www.example.org"}, {"url", 21, 36, "WWW.Example.COM"}}},
    {"http://user:pw@host.example.com:8080/x#frag",
     {{"url", 0, 43, "http://user:pw@host.example.com:8080/x#frag"}}},
    {"https://\xe4\xbe\x8b\xe3\x81\x88.\xe3\x83\x86\xe3\x82\xb9\xe3\x83\x88/"
     "\xe3\x83\x91\xe3\x82\xb9",
     {{"url", 0, 31,
       "https://\xe4\xbe\x8b\xe3\x81\x88.\xe3\x83\x86\xe3\x82\xb9\xe3\x83\x88/"
       "\xe3\x83\x91\xe3\x82\xb9"}}},
    {"https://b\xc3\xbc"
     "cher.example/stra\xc3\x9f"
     "e?x=1",
     {{"url", 0, 35,
       "https://b\xc3\xbc"
       "cher.example/stra\xc3\x9f"
       "e?x=1"}}},
    {"ftp://files.example.net/pub/file.tar.gz",
     {{"url", 0, 39, "ftp://files.example.net/pub/file.tar.gz"}}},
    {"wss://chat.example.com/socket ok", {{"url", 0, 29, "wss://chat.example.com/socket"}}},
    {"url=\"https://example.com/a\"", {{"url", 5, 26, "https://example.com/a"}}},
    {"http://localhost:8080/api http://192.168.1.1/admin", {{0}}},
    {"example.com file:///etc/passwd https:// wss://10.0.0.1", {{0}}},
    {"v1.2.3 or 1.2.3.4 or node.js or README.md", {{0}}},
    {"http://example.com:99999/ has a bad port", {{0}}},
};

static void test_email(void **state)
{
    (void)state;
    check_cases(email_cases, sizeof email_cases / sizeof email_cases[0]);
}

static void test_url(void **state)
{
    (void)state;
    check_cases(url_cases, sizeof url_cases / sizeof url_cases[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_email),
        cmocka_unit_test(test_url),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
