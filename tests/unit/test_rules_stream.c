/* test_rules_stream.c — the rule detector is exact under streaming and
 * bounded in memory.
 *
 *  - documents with PII next to every kind of boundary (invalid UTF-8,
 *    multi-byte characters, start and end of input): every 2-chunk split,
 *    byte-by-byte feeding and random splits give pii_rules_scan_all's spans;
 *  - a differential fuzz: generated documents scanned by the four engine
 *    variants (JIT/interpreter x prefilter/plain PCRE2 search) and by random
 *    chunkings agree;
 *  - the held-back window stays small on long runs without a match and is
 *    bounded by the longest rule (a PEM block) on an unterminated one;
 *  - the detector contract: reset() between documents, a buffer that starts
 *    after `keep` is refused, several threads may share one pii_rules. */
#include <pthread.h>

#include "rules_test_util.h"

static const char *const boundary_docs[] = {
    "bob@example.com",
    "a bob@example.com",
    "Mail bob.smith@example.com or call +1 415-555-0100 today.\n",
    "x bob@example.com y",
    "\xff\xfe"
    "bob@example.com\xc3"
    "\xa9 caf\xc3\xa9 +44 20 7946 0958\xe2\x82",
    "\xe2\x82\xac"
    "4111 1111 1111 1111\xf0\x9f\x98\x80 DE89 3704 0044 0532 0130 00\x80",
    "\xc3\xc3\xa9@x.io \xe2\x82\xe2\x82\xac 07700 900123 \xed\xa0\x80 23 April 2026",
    "token=ghp_0123456789abcdefghijABCDEFGHIJ012345\npassword: \"s3cr3t!pass\"\n",
    "see https://en.wikipedia.org/wiki/Foo_(bar)). www.b\xc3\xbc"
    "cher.de/x, 2026-04-23T10:00 2026-04-23",
    "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5dd\n-----END EC "
    "PRIVATE "
    "KEY-----",
    "Authorization: Bearer abcDEF123456ghiJKL789\r\nX-Api-Key: "
    "5f2b8c1d9e3a4f6b7c8d9e0f1a2b3c4d\r\n",
    "Tel: (415) 555-0100 ext. 42; acct no. 1234-5678-90; 1st of May, 2026.",
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_"
    "XgL0n3I9PlFUP0THsR8U",
    "\xc5\xbf"
    "ept. 1, 2026 and ora\xc3\xa7\xc3\xa3o +49 171 1234567 and \xe2\x84\xaaonto 12345678",
    "aaaa bbbb@cccc.dd.ee 1111 2222 3333 4444 5555 0000-1111-2222-3333 +1 23 45 67 89 01 23",
    "",
    "@",
    "+",
};

static void test_boundaries(void **state)
{
    (void)state;
    rules_set rs;
    rules_set_open(&rs);
    for (size_t i = 0; i < sizeof boundary_docs / sizeof boundary_docs[0]; i++) {
        const uint8_t *t = (const uint8_t *)boundary_docs[i];
        size_t n = strlen(boundary_docs[i]);
        pii_spanvec want = {0};
        assert_int_equal(pii_rules_scan_all(rs.v[0], t, n, &want), PII_OK);
        for (int v = 1; v < 4; v++) {
            pii_spanvec other = {0};
            assert_int_equal(pii_rules_scan_all(rs.v[v], t, n, &other), PII_OK);
            if (!spans_equal(&other, &want)) {
                fprintf(stderr, "doc %zu variant %d\n", i, v);
                print_spans("want", t, &want);
                print_spans("got", t, &other);
                fail();
            }
            pii_spanvec_free(&other);
        }
        for (int v = 0; v < 4; v++)
            check_stream_exact(pii_rules_detector(rs.v[v]), &want, t, n, v < 2 ? 40 : 4, i);
        pii_spanvec_free(&want);
    }
    rules_set_close(&rs);
}

/* ---- differential fuzz ---------------------------------------------------- */

static uint64_t rng_state;

static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static const char *const fragments[] = {
    /* url_profile and the prefilter's clause (h) */
    "github.com/",
    "GitHub.com/kofi",
    "t.me/",
    "linkedin.com/in/",
    "medium.com/@",
    "gist.github.com/",
    "/features",
    "jdoe",
    "?tab=1",
    "github.com/nodejs/node",
    "x.com/jd.",
    "t.me/j-d/",
    "linkedin.com/in/j_d/@",
    "/",
    "bob@example.com",
    "a.b@x.co.uk",
    "@",
    "x@y",
    ".",
    "-",
    "+",
    "(",
    ")",
    ":",
    "=",
    "\"",
    "'",
    " ",
    "  ",
    "\n",
    "\t",
    "/",
    "#",
    "_",
    ",",
    ";",
    "0",
    "1",
    "12",
    "123",
    "2026",
    "-04-",
    "23",
    "4111 1111 1111 1111",
    "4111111111111111",
    "5555555555554444",
    "+1 415-555-0100",
    "(415) 555-0100",
    "020 7946 0958",
    "01 23 45 67 89",
    "98765 43210",
    "+44 (0)20 7946 0958",
    "DE89 3704 0044 0532 0130 00",
    "GB82WEST12345698765432",
    "account ",
    "acct #",
    "routing ",
    "phone ",
    "tel:",
    "call ",
    "password",
    "password=",
    "api_key",
    "token: ",
    "secret",
    "key",
    "Bearer ",
    "Authorization: Basic ",
    "dXNlcjpwYXNzd29yZA==",
    "AKIAIOSFODNN7EXAMPLE",
    "ghp_0123456789abcdefghijABCDEFGHIJ012345",
    "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z",
    "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
    "xoxb-123456789012-abcdef",
    "eyJhbGciOiJIUzI1NiJ9",
    ".eyJzdWIiOiIxMjM0NTY3ODkwIn0.",
    "-----BEGIN RSA PRIVATE KEY-----",
    "-----END RSA PRIVATE KEY-----",
    "MIIEowIBAAKCAQEA",
    "https://",
    "http://",
    "www.",
    "example.com",
    "/path?q=1",
    "2026-04-23",
    "23.04.2026",
    "04/23/2026",
    "23 April 2026",
    "April 23, 2026",
    "Sept. ",
    "May",
    "T10:00",
    " 10:15:30",
    "192.168.1.1",
    "1.2.3",
    "v2.0",
    "$1,234.56",
    "order ",
    "#",
    "uuid ",
    "123e4567-e89b-12d3-a456-426614174000",
    "9fceb02d0ae598e95dc970b74767f19372d61af8",
    "the ",
    "quick ",
    "brown ",
    "fox ",
    "\xc3\xa9",
    "\xe2\x82\xac",
    "\xf0\x9f\x98\x80",
    "\xc3",
    "\xe2\x82",
    "\x80",
    "\xff",
    "\xc5\xbf",
    "\xe2\x84\xaa",
    "\xc2\xa0",
    "m\xc3\xbcller",
    "M\xc3\xa4rz ",
    "\xe4\xbe\x8b\xe3\x81\x88.\xe3\x83\x86\xe3\x82\xb9\xe3\x83\x88",
    "ext. 12",
    "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz012345",
    "glpat-abcdefghij0123456789",
    "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW",
    "rk_test_4eC39HqLyjWDarjtT1zdp7dc",
    "xapp-1-A0123456789B",
    "NL91ABNA0417164300",
    "routing 021000021",
    "Kontonummer 1234567890",
    "sort code 12-34-56",
    "3782 822463 10005",
    "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXkt\n",
    "-----END OPENSSH PRIVATE KEY-----",
    "proxy-authorization: basic ",
    "client_secret",
    "DB_PASSWORD",
    "X-Api-Key: ",
    "5f2b8c1d9e3a4f6b7c8d9e0f1a2b3c4d",
    "mobile:",
    "t\xc3\xa9l\xc3\xa9phone ",
    "+49 171 1234567",
    "07700 900123",
    "06.12.34.56.78",
    "(0)20",
    "aba",
    "spring.datasource.password=",
    "Tr0ub4dor&3",
    "\"password\": \"",
    "FR1420041010050500013M02606",
    "1er janvier 2026",
    "Feb 29, 2024",
    "1-415-555-0100",
    "1 (415) 555-0100",
    "1415.555.0100",
    "98765-43210",
    "0044 20 7946 0958",
    "(030) 12345678",
    "030/1234567",
    "1st of May, 2026",
    "3. M\xc3\xa4rz 2026",
    "12\xc2\xa0"
    "April 2026",
    "2nd",
    "th ",
    "1.5",
    "10.0.0.1",
    "2026/04/23",
    "9549-7757",
    "4111-1111",
    "3782 822463 10005",
    "0123456789012",
    "1 ",
    "01.02.2026",
    "1/2/2026",
    "02110-1301",
    " 0",
    "00",
    " Terrace Road",
    " Bis road",
    " bis, ",
    "ter ",
    " Bishop St",
    "5 d\xc3\xa9"
    "cembre 2025",
    "\xc5\xbf"
    "ept. 1, 2026",
    "o\xe2\x84\xaa"
    "t",
    "1111_",
    "_token: ",
    "2_password=",
    "www.x",
    "Bearer",
    "x123",
    "221B Baker Street",
    "12 Elm St.",
    " Street",
    " Avenue NW",
    ", Apt 4",
    ", Springfield, IL 62704",
    ", London NW1 6XE",
    ", Ottawa, ON K1M 1M4",
    "350 5th Avenue",
    "12 rue de la Paix",
    " bis, avenue Foch",
    ", 75016 Paris",
    "12-14 ",
    "7 ",
    "Kings Road",
    "section 12 ",
    "No. 7 ",
    "\xc3\x96sterreich ",
    "Hauptstra\xc3\x9f"
    "e 12",
    "Berliner Strasse ",
    "Kerkstraat",
    ", 10115 Berlin",
    "Calle Mayor",
    "C/ ",
    "Avenida de la ",
    "Pra\xc3\xa7"
    "a ",
    "Hauptstr.",
    " 5a",
    "PO Box ",
    "P.O. Box 12",
    "Postfach ",
    "Apartado de Correos ",
    "post office box #",
    "Sveav\xc3\xa4gen",
    "S\xc3\xb8ndergade ",
    "Mannerheimintie",
    " u. ",
    " \xc3\xbat ",
    "Luite tee ",
    "ul. ",
    "al. Jerozolimskie ",
    "Brigade ",
    "\xe4\xbc\x9a\xe5\x93\xa1\xe7\x95\xaa\xe5\x8f\xb7:",
    "\xe9\x9b\xbb\xe8\xa9\xb1\xe7\x95\xaa\xe5\x8f\xb7 ",
    "\xe5\x8f\x97\xe4\xbb\x98ID\xef\xbc\x9a",
    "\xe7\xac\xac",
    "M-882901",
    "\xe3\x80\x92"
    "812-0011 ",
    "\xe7\xa6\x8f\xe5\xb2\xa1\xe7\x9c\x8c",
    "\xe6\x9d\xb1\xe4\xba\xac\xe9\x83\xbd",
    "\xe7\xa6\x8f\xe5\xb2\xa1\xe5\xb8\x82",
    "\xe5\x8d\x9a\xe5\xa4\x9a\xe5\x8c\xba",
    "2-99-3",
    "2\xe4\xb8\x81\xe7\x9b\xae"
    "99\xe7\x95\xaa\xe5\x9c\xb0",
    "\xe3\x83\x86\xe3\x82\xb9\xe3\x83\x88\xe3\x83\x93\xe3\x83\xab"
    "5\xe9\x9a\x8e",
    " \xe3\x82\xb3\xe3\x83\xbc\xe3\x83\x9d"
    "202\xe5\x8f\xb7\xe5\xae\xa4",
    "\xe5\x9b\xbd\xe9\x81\x93"
    "121\xe5\x8f\xb7",
    "\xe3\x81\xa7\xe3\x81\xaf",
    "Phone:\n",
    "acct:\r\n ",
    "USNS Comfort",
    "USS ",
    "uscgc x (WMEC-9)",
    "PSC 1234, Box 5678",
    "Unit 2050 Box ",
    "\nAPO AE 09204",
    "FPO AP ",
    " dpo aa 34090-1234",
    "0044 20 7946 0958",
    "001 ",
    "00",
};

static size_t gen_doc(uint8_t *buf, size_t cap)
{
    size_t n = 0, want = 20 + (size_t)(rnd() % (cap - 80));
    const size_t nf = sizeof fragments / sizeof fragments[0];
    while (n < want) {
        uint64_t r = rnd();
        if (r % 10 == 0) {
            buf[n++] = (uint8_t)(rnd() & 0xFF); /* any byte */
        } else if (r % 10 == 1) {
            buf[n++] = (uint8_t)('a' + rnd() % 26);
        } else {
            const char *f = fragments[rnd() % nf];
            size_t m = strlen(f);
            if (n + m > cap)
                break;
            memcpy(buf + n, f, m);
            n += m;
        }
    }
    return n;
}

static void test_fuzz_differential(void **state)
{
    (void)state;
    rules_set rs;
    rules_set_open(&rs);
    rng_state = 0x1234567887654321ull;
    uint8_t *buf = malloc(1200);
    assert_non_null(buf);
    size_t total_spans = 0;
    for (int it = 0; it < 400; it++) {
        size_t n = gen_doc(buf, 1200);
        pii_spanvec want = {0};
        assert_int_equal(pii_rules_scan_all(rs.v[0], buf, n, &want), PII_OK);
        total_spans += want.n;
        for (int v = 1; v < 4; v++) {
            pii_spanvec other = {0};
            assert_int_equal(pii_rules_scan_all(rs.v[v], buf, n, &other), PII_OK);
            if (!spans_equal(&other, &want)) {
                fprintf(stderr, "fuzz doc %d variant %d\n", it, v);
                print_spans("want", buf, &want);
                print_spans("got", buf, &other);
                fail();
            }
            pii_spanvec_free(&other);
        }
        /* random chunkings, prefiltered and plain */
        size_t cuts[1300], m = 0, at = 0;
        for (int v = 0; v < 2; v++) {
            for (int rep = 0; rep < 3; rep++) {
                m = 0;
                at = 0;
                while (at < n) {
                    at += 1 + (size_t)(rnd() % (rep == 0 ? 3 : 97));
                    if (at < n)
                        cuts[m++] = at;
                }
                pii_spanvec got = {0};
                harness_feed(pii_rules_detector(rs.v[v]), buf, n, cuts, m, &got);
                if (!spans_equal(&got, &want)) {
                    fprintf(stderr, "fuzz doc %d variant %d chunking %d\n", it, v, rep);
                    print_spans("want", buf, &want);
                    print_spans("got", buf, &got);
                    fail();
                }
                pii_spanvec_free(&got);
            }
        }
        pii_spanvec_free(&want);
    }
    assert_true(total_spans > 400); /* the generator does produce PII */
    free(buf);
    rules_set_close(&rs);
}

/* ---- memory bounds ----------------------------------------------------------- */

/* Streams `n` bytes produced by fill() in 64 KiB chunks; returns the largest
 * window the detector made the harness hold. */
static size_t stream_generated(const pii_rules *r, size_t n,
                               void (*fill)(uint8_t *, size_t, size_t), size_t *nspans)
{
    pii_detector d = pii_rules_detector(r);
    pii_err e = PII_OK;
    void *st = d.cls->open(d.shared, &e);
    assert_non_null(st);
    const size_t chunk = 65536;
    uint8_t *buf = malloc(4 << 20);
    assert_non_null(buf);
    size_t held = 0, maxheld = 0, fed = 0;
    uint64_t base = 0;
    pii_spanvec sv = {0};
    *nspans = 0;
    while (fed < n || fed == 0) {
        size_t k = n - fed < chunk ? n - fed : chunk;
        assert_true(held + k <= (size_t)(4 << 20));
        fill(buf + held, k, fed);
        held += k;
        fed += k;
        uint64_t done, keep;
        int eod = fed == n;
        assert_int_equal(d.cls->scan(st, buf, held, base, eod, &sv, &done, &keep), PII_OK);
        *nspans += sv.n;
        pii_spanvec_clear(&sv);
        size_t drop = (size_t)(keep - base);
        memmove(buf, buf + drop, held - drop);
        held -= drop;
        base = keep;
        if (held > maxheld)
            maxheld = held;
        if (eod)
            break;
    }
    pii_spanvec_free(&sv);
    free(buf);
    d.cls->close(st);
    return maxheld;
}

static void fill_a(uint8_t *p, size_t n, size_t off)
{
    (void)off;
    memset(p, 'a', n);
}

static void fill_digits(uint8_t *p, size_t n, size_t off)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)('0' + (off + i) % 10);
}

static void fill_words(uint8_t *p, size_t n, size_t off)
{
    static const char txt[] = "password a.b.c-d_e+f%g ";
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)txt[(off + i) % (sizeof txt - 1)];
}

static void fill_pem_open(uint8_t *p, size_t n, size_t off)
{
    static const char hdr[] = "-----BEGIN RSA PRIVATE KEY-----\n";
    for (size_t i = 0; i < n; i++) {
        size_t k = off + i;
        p[i] = k < sizeof hdr - 1 ? (uint8_t)hdr[k] : (uint8_t)("MIIEowIBAAKCAQ\n"[k % 15]);
    }
}

static void fill_high(uint8_t *p, size_t n, size_t off)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (off + i) % 2 ? 0xA9 : 0xC3; /* "ééé..." */
}

static void test_bounded_hold(void **state)
{
    (void)state;
    pii_err e;
    pii_rules *r = pii_rules_create(&e);
    assert_non_null(r);
    size_t ns;
    assert_true(stream_generated(r, 8 << 20, fill_a, &ns) <= 65536 + 64);
    assert_int_equal(ns, 0);
    assert_true(stream_generated(r, 4 << 20, fill_digits, &ns) <= 65536 + 64);
    assert_true(stream_generated(r, 4 << 20, fill_words, &ns) <= 65536 + 1024);
    assert_true(stream_generated(r, 4 << 20, fill_high, &ns) <= 65536 + 64);
    /* An unterminated PEM block is one span however long (no cap fails
     * open): its body is held while it goes on, within the hold. */
    size_t h = stream_generated(r, 1 << 19, fill_pem_open, &ns);
    assert_true(h <= (1 << 19) + 256);
    assert_int_equal(ns, 1);
    pii_rules_free(r);
}

/* ---- contract -------------------------------------------------------------------- */

static void test_reset_and_contract(void **state)
{
    (void)state;
    pii_err e;
    pii_rules *r = pii_rules_create(&e);
    assert_non_null(r);
    pii_detector d = pii_rules_detector(r);
    void *st = d.cls->open(d.shared, &e);
    assert_non_null(st);
    const char *doc = "x bob@example.com y";
    pii_spanvec sv = {0};
    uint64_t done, keep;
    for (int k = 0; k < 2; k++) {
        assert_int_equal(d.cls->scan(st, (const uint8_t *)doc, 19, 0, 1, &sv, &done, &keep),
                         PII_OK);
        assert_int_equal(done, 19);
        d.cls->reset(st);
    }
    assert_int_equal(sv.n, 2);
    assert_int_equal(sv.v[1].start, 2);
    assert_int_equal(sv.v[1].end, 17);
    assert_string_equal(sv.v[1].label, "private_email");
    assert_string_equal(sv.v[1].rule, "email");
    assert_int_equal(sv.v[1].source, PII_SRC_RULE);
    /* a buffer that starts after `keep` is a contract violation */
    assert_int_equal(d.cls->scan(st, (const uint8_t *)doc, 10, 0, 0, &sv, &done, &keep), PII_OK);
    assert_true(keep < 10);
    assert_int_equal(d.cls->scan(st, (const uint8_t *)doc, 5, keep + 1, 0, &sv, &done, &keep),
                     PII_EINVAL);
    d.cls->close(st);
    d.cls->close(NULL);
    pii_spanvec_free(&sv);
    pii_rules_free(r);
    pii_rules_free(NULL);
}

static void test_info(void **state)
{
    (void)state;
    /* the label space (docs/LABELS.md); logins are private_person (issue 41) */
    static const char *const cats[] = {"account_number", "private_address", "private_date",
                                       "private_email",  "private_phone",   "private_url",
                                       "secret",         "private_person"};
    pii_err e;
    pii_rules *r = pii_rules_create(&e);
    assert_non_null(r);
    size_t n = pii_rules_count(r);
    assert_true(n >= 20);
    for (size_t i = 0; i < n; i++) {
        const pii_rule_info *in = pii_rules_info(r, i);
        assert_non_null(in);
        assert_non_null(in->about);
        int ok = 0;
        for (size_t c = 0; c < sizeof cats / sizeof cats[0]; c++)
            ok |= strcmp(in->label, cats[c]) == 0;
        assert_true(ok);
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(in->id, pii_rules_info(r, j)->id);
    }
    assert_null(pii_rules_info(r, n));
    pii_rules_free(r);
}

typedef struct thr_arg {
    const pii_rules *r;
    const uint8_t *t;
    size_t n;
    pii_spanvec out;
} thr_arg;

static void *thr_main(void *p)
{
    thr_arg *a = p;
    for (int k = 0; k < 20; k++) {
        pii_spanvec_clear(&a->out);
        if (pii_rules_scan_all(a->r, a->t, a->n, &a->out) != PII_OK)
            return p;
    }
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    pii_err e;
    pii_rules *r = pii_rules_create(&e);
    assert_non_null(r);
    uint8_t buf[4000];
    rng_state = 99;
    size_t n = gen_doc(buf, sizeof buf);
    pii_spanvec want = {0};
    assert_int_equal(pii_rules_scan_all(r, buf, n, &want), PII_OK);
    thr_arg a[4];
    pthread_t th[4];
    for (int i = 0; i < 4; i++) {
        a[i] = (thr_arg){r, buf, n, {0}};
        assert_int_equal(pthread_create(&th[i], NULL, thr_main, &a[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        void *ret;
        pthread_join(th[i], &ret);
        assert_null(ret);
        assert_true(spans_equal(&a[i].out, &want));
        pii_spanvec_free(&a[i].out);
    }
    pii_spanvec_free(&want);
    pii_rules_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_boundaries),   cmocka_unit_test(test_fuzz_differential),
        cmocka_unit_test(test_bounded_hold), cmocka_unit_test(test_reset_and_contract),
        cmocka_unit_test(test_info),         cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
