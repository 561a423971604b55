/* test_rules_long.c — no length cap fails open (issue 41): a secret of any
 * length is one span from its first byte to its last, with every engine
 * variant and every way of cutting the stream; bounded hold (fail closed
 * with PII_ETOOBIG past it). */
#include "rules_test_util.h"

/* Deterministic pseudo-random bytes from the alphabet a. */
static void fill(char *p, size_t n, const char *a, uint64_t seed)
{
    size_t m = strlen(a);
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 7;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        p[i] = a[x % m];
    }
}

#define ALNUM "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

typedef struct long_case {
    const char *rule, *pre, *alpha, *post;
    size_t len;
    const char *head; /* fixed start of the value ("ghp_", "eyJ...") or "" */
} long_case;

static void check_long(const long_case *lc, size_t k, int streams)
{
    size_t hp = strlen(lc->pre), hh = strlen(lc->head), tp = strlen(lc->post);
    size_t n = hp + lc->len + tp;
    char *t = malloc(n + 1);
    assert_non_null(t);
    memcpy(t, lc->pre, hp);
    memcpy(t + hp, lc->head, hh);
    fill(t + hp + hh, lc->len - hh, lc->alpha, k + 1);
    memcpy(t + hp + lc->len, lc->post, tp);
    t[n] = 0;
    rules_set rs;
    rules_set_open(&rs);
    for (int v = 0; v < 4; v++) {
        pii_spanvec got = {0};
        assert_int_equal(pii_rules_scan_all(rs.v[v], (const uint8_t *)t, n, &got), PII_OK);
        if (got.n != 1 || strcmp(got.v[0].rule, lc->rule) != 0 || got.v[0].start != hp ||
            got.v[0].end != hp + lc->len) {
            fprintf(stderr, "case %zu (%s, %zu bytes), variant %d\n", k, lc->rule, lc->len, v);
            for (size_t i = 0; i < got.n; i++)
                fprintf(stderr, "  got %s %llu %llu\n", got.v[i].rule,
                        (unsigned long long)got.v[i].start, (unsigned long long)got.v[i].end);
            fail();
        }
        if (streams && v < 2)
            check_stream_exact(pii_rules_detector(rs.v[v]), &got, (const uint8_t *)t, n, 8, k);
        pii_spanvec_free(&got);
    }
    rules_set_close(&rs);
    free(t);
}

static const long_case long_cases[] = {
    {"password_assignment", "db password=", ALNUM "!#%&*+-./:=?@^_|~", " next", 300, ""},
    {"password_assignment", "{\"password\":\"", ALNUM "!#%&*", "\"}", 2000, ""},
    {"secret_assignment", "secret_key=", ALNUM "+/=", "\n", 600, ""},
    {"secret_assignment", "AWS_SESSION_TOKEN=", ALNUM "+/=", "\n", 900, ""},
    {"secret_assignment", "    client-key-data: ", ALNUM "+/", "\n    token: x\n", 3300, ""},
    {"bearer_token", "Authorization: Bearer ", ALNUM "-._~+/", "\r\n", 5000, ""},
    {"basic_auth", "Authorization: Basic ", ALNUM "+/", "\r\n", 1500, ""},
    {"github_token", "token ", ALNUM, " ok", 300, "ghp_"},
    {"slack_token", "", ALNUM "-", ". ", 400, "xoxb-"},
    {"openai_key", "key ", ALNUM "_-", " end", 400, "sk-"},
    {"jwt", "t=", ALNUM "_-", ". ", 12000, "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ"},
};

static void test_long(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof long_cases / sizeof long_cases[0]; k++)
        check_long(&long_cases[k], k, long_cases[k].len <= 3300);
}

/* The cap's own length and one less still end where the value ends. */
static void test_at_cap(void **state)
{
    (void)state;
    static const long_case at_cap[] = {
        {"password_assignment", "pw=", ALNUM, " x", 255, ""},
        {"password_assignment", "pw=", ALNUM, " x", 256, ""},
        {"password_assignment", "pw=", ALNUM, " x", 257, ""},
        {"secret_assignment", "token: ", ALNUM, "", 512, ""},
        {"secret_assignment", "token: ", ALNUM, "", 513, ""},
    };
    for (size_t k = 0; k < sizeof at_cap / sizeof at_cap[0]; k++)
        check_long(&at_cap[k], 100 + k, 1);
}

/* One span of `rule` over t[start, end) with every engine variant; the
 * stream cut once at every step-th offset and at every offset from
 * `from` on (the value's closing part). */
static void check_one(const char *t, size_t n, const char *rule, size_t start, size_t end,
                      size_t step, size_t from)
{
    rules_set rs;
    rules_set_open(&rs);
    size_t cuts[1];
    for (int v = 0; v < 4; v++) {
        pii_spanvec got = {0};
        assert_int_equal(pii_rules_scan_all(rs.v[v], (const uint8_t *)t, n, &got), PII_OK);
        if (got.n != 1 || strcmp(got.v[0].rule, rule) != 0 || got.v[0].start != start ||
            got.v[0].end != end) {
            fprintf(stderr, "%s (%zu bytes), variant %d\n", rule, n, v);
            for (size_t i = 0; i < got.n; i++)
                fprintf(stderr, "  got %s %llu %llu\n", got.v[i].rule,
                        (unsigned long long)got.v[i].start, (unsigned long long)got.v[i].end);
            fail();
        }
        for (size_t k = 0; v < 2 && k <= n; k += k >= from ? 1 : step) {
            pii_spanvec s = {0};
            cuts[0] = k;
            harness_feed(pii_rules_detector(rs.v[v]), (const uint8_t *)t, n, cuts, 1, &s);
            if (!spans_equal(&s, &got)) {
                fprintf(stderr, "%s (%zu bytes), variant %d, cut at %zu\n", rule, n, v, k);
                fail();
            }
            pii_spanvec_free(&s);
        }
        pii_spanvec_free(&got);
    }
    rules_set_close(&rs);
}

/* A JWT whose header (an x5c chain) is longer than the header's cap, and
 * parts of exactly their cap followed by the next part: one span. */
static void test_jwt_long_header(void **state)
{
    (void)state;
    static const char head[] = "eyJhbGciOiJSUzI1NiIsIng1YyI6WyJ"; /* {"alg":"RS256","x5c":[" */
    static const size_t hdr[] = {6000, 4096, 4095};
    for (size_t c = 0; c < 4; c++) {
        size_t hl = c < 3 ? hdr[c] : 40, pl = c < 3 ? 2000 : 8192, sl = 342;
        size_t n = 2 + 3 + hl + 4 + pl + 1 + sl + 3;
        char *t = malloc(n + 1);
        assert_non_null(t);
        size_t at = 0;
        memcpy(t, "t=", 2);
        at = 2;
        memcpy(t + at, head, sizeof head - 1);
        fill(t + at + sizeof head - 1, 3 + hl - (sizeof head - 1), ALNUM "_-", c + 1);
        at += 3 + hl;
        memcpy(t + at, ".eyJ", 4);
        at += 4;
        fill(t + at, pl, ALNUM "_-", c + 11);
        at += pl;
        t[at++] = '.';
        fill(t + at, sl, ALNUM "_-", c + 21);
        at += sl;
        memcpy(t + at, ". x", 3);
        t[n] = 0;
        check_one(t, n, "jwt", 2, n - 3, 613, n - 8);
        free(t);
    }
}

/* A PEM private key with a body longer than the 16 KiB cap, as lines and
 * as a JSON string with "\\n" escapes: one span from BEGIN to the end of
 * its END line. */
static void test_pem_long(void **state)
{
    (void)state;
    static const char begin[] = "-----BEGIN RSA PRIVATE KEY-----",
                      end[] = "-----END RSA PRIVATE KEY-----";
    for (int json = 0; json < 2; json++) {
        const char *pre = json ? "{\"key\":\"" : "key:\n", *post = json ? "\"}\n" : "\ndone\n";
        const char *nl = json ? "\\n" : "\n";
        size_t body = 40000, lines = body / 64, nll = strlen(nl);
        size_t n =
            strlen(pre) + strlen(begin) + nll + body + lines * nll + strlen(end) + strlen(post);
        char *t = malloc(n + 1);
        assert_non_null(t);
        size_t at = 0;
        memcpy(t, pre, strlen(pre));
        at = strlen(pre);
        size_t start = at;
        memcpy(t + at, begin, strlen(begin));
        at += strlen(begin);
        memcpy(t + at, nl, nll);
        at += nll;
        for (size_t l = 0; l < lines; l++) {
            size_t m = l + 1 < lines ? 64 : body - 64 * (lines - 1);
            fill(t + at, m, ALNUM "+/", 50 + l);
            at += m;
            memcpy(t + at, nl, nll);
            at += nll;
        }
        memcpy(t + at, end, strlen(end));
        at += strlen(end);
        size_t stop = at;
        memcpy(t + at, post, strlen(post));
        at += strlen(post);
        assert_int_equal(at, n);
        t[n] = 0;
        check_one(t, n, "pem_private_key_open", start, stop, 4999, stop - strlen(end) - 4);
        free(t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_long),
        cmocka_unit_test(test_at_cap),
        cmocka_unit_test(test_jwt_long_header),
        cmocka_unit_test(test_pem_long),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
