/* fuzz_records.c — JSON Lines and CSV field redaction (pii_records.h).
 *
 * Input: byte 0 flags, bytes 1..2 chunking seed, the rest is the input.
 * Flags: bit 0 CSV (else JSONL); bits 1-2 the selector set; bit 3 adds a
 * synthetic detector that flags every byte >= 0x80 and every '"' on its own
 * (spans that cut UTF-8 sequences and escapes, replacements that need
 * escaping through the mask operator is not available here, so the
 * placeholder "<SECRET>" is used); JSONL bits 4-5: PII_REC_SCAN_NUMBERS,
 * PII_REC_SCAN_KEYS.  Each input is redacted
 *   1. in one feed (the reference), then
 *   2. in random chunks,
 *   3. in random chunks with a detector that finds nothing but has a
 *      lookahead (as the model has: the record stream then announces the
 *      values of the records it holds, PII_STREAM_AHEAD, and feeds them
 *      from the announced copies),
 * by the rule tier (plus the synthetic detector).  Checked:
 *  - the runs give the same result, output bytes, spans and record number;
 *  - on success, the output parses again with a selector and no detector
 *    (JSONL "*", CSV column 1 with ',' set explicitly), gives the same
 *    number of records, and is copied through unchanged (so every output record is as valid as the
 * records format requires: JSON on every non-blank line, closed CSV quotes);
 *  - on success with the synthetic detector off and no rule finding, the
 *    output equals the input;
 *  - a JSONL path that matched no key (PII_ENOTFOUND) writes nothing;
 *  - on other failures, the output is a prefix of the input's record structure:
 *    it is the output of the records before the failing one, i.e. a prefix
 *    of what the same stream writes when fed only those records.
 *
 * FUZZ_ARGS: -max_len=8192
 */
#include <string.h>

#include "fuzz.h"
#include "pii_records.h"
#include "pii_redact.h"

static pii_rules *g_rules;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    pii_err e;
    g_rules = pii_rules_create(&e);
    FUZZ_CHECK(g_rules);
    return 0;
}

static void *hi_open(const void *shared, pii_err *err)
{
    *err = PII_OK;
    return (void *)shared;
}

static pii_err hi_scan(void *st, const uint8_t *buf, size_t len, uint64_t base, int eod,
                       pii_spanvec *out, uint64_t *done, uint64_t *keep)
{
    (void)st, (void)eod;
    for (uint64_t i = *done; i < base + len; i++)
        if (buf[i - base] >= 0x80 || buf[i - base] == '"') {
            pii_span s = {i, i + 1, "secret", "hi", 1.0f, PII_SRC_RULE};
            pii_err e = pii_spanvec_push(out, &s);
            if (e)
                return e;
        }
    *done = *keep = base + len;
    return PII_OK;
}

static const pii_detector_class hi_cls = {"hi", hi_open, hi_scan, NULL, NULL, NULL};
static const int hi_shared = 0;

/* Finds nothing; has a lookahead (the stream checks that the documents fed
 * are the ones announced). */
static pii_err la_scan(void *st, const uint8_t *buf, size_t len, uint64_t base, int eod,
                       pii_spanvec *out, uint64_t *done, uint64_t *keep)
{
    (void)st, (void)buf, (void)eod, (void)out;
    *done = *keep = base + len;
    return PII_OK;
}

static pii_err la_ahead(void *st, const uint8_t *const *docs, const size_t *lens, size_t n)
{
    (void)st;
    for (size_t i = 0; i < n; i++)
        FUZZ_CHECK(docs[i] && lens[i] > 0);
    return PII_OK;
}

static const pii_detector_class la_cls = {"la", hi_open, la_scan, NULL, NULL, la_ahead};

typedef struct out {
    uint8_t *p;
    size_t n, cap;
    size_t records, spans;
} out;

static pii_err o_write(void *ud, const uint8_t *p, size_t n)
{
    out *o = ud;
    if (o->n + n > o->cap) {
        o->cap = 2 * (o->n + n) + 64;
        o->p = realloc(o->p, o->cap);
        FUZZ_CHECK(o->p);
    }
    memcpy(o->p + o->n, p, n);
    o->n += n;
    return PII_OK;
}

static pii_err o_span(void *ud, const pii_span *s, const uint8_t *v, size_t len, uint64_t c0,
                      uint64_t c1)
{
    (void)v;
    FUZZ_CHECK(s->start < s->end && len == s->end - s->start && c0 < c1);
    ((out *)ud)->spans++;
    return PII_OK;
}

static pii_err o_end(void *ud)
{
    ((out *)ud)->records++;
    return PII_OK;
}

static pii_err run(const pii_rec_spec *spec, const pii_redactor *r, const uint8_t *d, size_t n,
                   uint64_t *seed, out *o, uint64_t *record)
{
    pii_sink sink = {o_write, o_span, o_end, o};
    pii_err e;
    memset(o, 0, sizeof *o);
    pii_rec_stream *rs = pii_rec_stream_create(spec, r, NULL, &sink, &e);
    FUZZ_CHECK(rs);
    size_t off = 0;
    while (!e && off < n) {
        size_t k = seed ? (size_t)(fuzz_rand(seed) % 64) + 1 : n - off;
        if (k > n - off)
            k = n - off;
        e = pii_rec_stream_feed(rs, d + off, k);
        off += k;
    }
    if (!e)
        e = pii_rec_stream_end(rs);
    *record = pii_rec_stream_record(rs);
    pii_rec_stream_free(rs);
    return e;
}

static const char *const jsonl_sets[4][3] = {
    {"message", NULL, NULL}, {"*", NULL, NULL}, {"a.b", "*.m", NULL}, {"u.*", "x\\.y", "0"}};
static const char *const csv_sets[4][3] = {
    {"2", NULL, NULL}, {"1", "3", NULL}, {"email", NULL, NULL}, {"a", "2", NULL}};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    int flags = data[0];
    uint64_t seed = (uint64_t)data[1] << 8 | data[2];
    data += 3;
    size -= 3;
    int csv = flags & 1;
    const char *const *set = csv ? csv_sets[(flags >> 1) & 3] : jsonl_sets[(flags >> 1) & 3];
    pii_err e;
    pii_rec_spec *spec = pii_rec_spec_create(csv ? PII_REC_CSV : PII_REC_JSONL, &e);
    FUZZ_CHECK(spec);
    for (size_t i = 0; i < 3 && set[i]; i++)
        FUZZ_CHECK(pii_rec_spec_add(spec, set[i]) == PII_OK);
    if (!csv) /* bits 4-5: numbers, keys scanned too */
        FUZZ_CHECK(pii_rec_spec_set_scan(spec, (unsigned)(flags >> 4) & 3u) == PII_OK);
    pii_redactor *r = pii_redactor_create(&e);
    FUZZ_CHECK(r);
    FUZZ_CHECK(pii_redactor_add_detector(r, pii_rules_detector(g_rules)) == PII_OK);
    if (flags & 8)
        FUZZ_CHECK(pii_redactor_add_detector(r, (pii_detector){&hi_cls, &hi_shared}) == PII_OK);
    pii_redactor *ra = pii_redactor_create(&e);
    FUZZ_CHECK(ra);
    FUZZ_CHECK(pii_redactor_add_detector(ra, pii_rules_detector(g_rules)) == PII_OK);
    if (flags & 8)
        FUZZ_CHECK(pii_redactor_add_detector(ra, (pii_detector){&hi_cls, &hi_shared}) == PII_OK);
    FUZZ_CHECK(pii_redactor_add_detector(ra, (pii_detector){&la_cls, &hi_shared}) == PII_OK);

    out one, two, three;
    uint64_t rec1, rec2, rec3a;
    pii_err e1 = run(spec, r, data, size, NULL, &one, &rec1);
    pii_err e2 = run(spec, r, data, size, &seed, &two, &rec2);
    pii_err e3 = run(spec, ra, data, size, &seed, &three, &rec3a);
    FUZZ_CHECK(e3 == e1 && rec3a == rec1);
    FUZZ_CHECK(three.n == one.n && (one.n == 0 || memcmp(three.p, one.p, one.n) == 0));
    FUZZ_CHECK(three.spans == one.spans && three.records == one.records);
    free(three.p);
    pii_redactor_free(ra);
    /* The wide-text guard sees the input record by record, before each
     * record is parsed (and each decoded value alone), so its verdict too
     * is the same whatever the feed boundaries. */
    FUZZ_CHECK(e1 == e2 && rec1 == rec2);
    FUZZ_CHECK(one.n == two.n && (one.n == 0 || memcmp(one.p, two.p, one.n) == 0));
    FUZZ_CHECK(one.spans == two.spans);
    FUZZ_CHECK(e1 == PII_OK || e1 == PII_EJSON || e1 == PII_EFORMAT || e1 == PII_ENOTFOUND ||
               e1 == PII_EENCODING);

    if (e1 == PII_OK) {
        if (one.spans == 0)
            FUZZ_CHECK(one.n == size && (size == 0 || memcmp(one.p, data, size) == 0));
        /* The output is well-formed records: they parse again, as many, and
         * a selector that matches nothing copies them through unchanged. */
        pii_rec_spec *none = pii_rec_spec_create(csv ? PII_REC_CSV : PII_REC_JSONL, &e);
        FUZZ_CHECK(none && pii_rec_spec_add(none, csv ? "1" : "*") == PII_OK);
        FUZZ_CHECK(!csv || pii_rec_spec_set_delimiter(none, ',') == PII_OK);
        pii_redactor *r0 = pii_redactor_create(&e);
        FUZZ_CHECK(r0);
        pii_redactor_set_wide_guard(r0, 0); /* a placeholder may complete a pattern */
        out again;
        uint64_t rec3;
        FUZZ_CHECK(run(none, r0, one.p, one.n, NULL, &again, &rec3) == PII_OK);
        FUZZ_CHECK(again.n == one.n && (one.n == 0 || memcmp(again.p, one.p, one.n) == 0));
        FUZZ_CHECK(again.records == one.records);
        free(again.p);
        pii_redactor_free(r0);
        pii_rec_spec_free(none);
    } else if (e1 == PII_ENOTFOUND && !csv) {
        FUZZ_CHECK(rec1 >= 1 && one.n == 0);
    } else {
        FUZZ_CHECK(rec1 >= 1 && one.records == rec1 - 1);
    }
    free(one.p);
    free(two.p);
    pii_redactor_free(r);
    pii_rec_spec_free(spec);
    return 0;
}
