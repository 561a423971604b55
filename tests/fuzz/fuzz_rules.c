/* fuzz_rules.c — the rule tier: PCRE2 detectors, validators (Luhn, IBAN,
 * dates, entropy) and the streaming detector contract.
 *
 * Input: byte 0 seeds the chunking, the rest is one document.  Checked:
 *  - pii_rules_scan_all succeeds; spans are ordered, inside the text, with
 *    a category label and a rule id;
 *  - the streaming detector (pii_rules_detector) driven directly, the way
 *    redact/stream.c drives it but with a random buffer growth and the
 *    buffer trimmed to its `keep`, reports exactly the scan_all spans and
 *    keeps its contract: done is non-decreasing and never below a span it
 *    reported later, keep <= done, done = end at the end of the document,
 *    every span lies inside the buffer it was reported from.
 *
 * FUZZ_ARGS: -max_len=16384
 */
#include <string.h>

#include "fuzz.h"
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

static int span_cmp(const void *pa, const void *pb)
{
    const pii_span *a = pa, *b = pb;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    if (a->end != b->end)
        return a->end < b->end ? -1 : 1;
    int c = strcmp(a->label, b->label);
    return c ? c : strcmp(a->rule ? a->rule : "", b->rule ? b->rule : "");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint64_t seed = size ? data[0] : 0;
    if (size) {
        data++;
        size--;
    }
    pii_spanvec all = {0};
    FUZZ_CHECK(pii_rules_scan_all(g_rules, data, size, &all) == PII_OK);
    for (size_t i = 0; i < all.n; i++) {
        const pii_span *s = &all.v[i];
        FUZZ_CHECK(s->start < s->end && s->end <= size);
        FUZZ_CHECK(pii_category_index(s->label) >= 0 && s->rule);
        if (i)
            FUZZ_CHECK(s->start >= all.v[i - 1].start);
    }

    /* the streaming detector, driven by hand */
    pii_detector d = pii_rules_detector(g_rules);
    pii_err e;
    void *st = d.cls->open(d.shared, &e);
    FUZZ_CHECK(st);
    static const size_t avgs[4] = {1, 9, 200, 4000};
    size_t avg = avgs[seed & 3];
    pii_spanvec got = {0}, fresh = {0};
    uint64_t done = 0, keep = 0, base = 0, end = 0;
    for (;;) {
        size_t add = (size_t)(fuzz_rand(&seed) % (2 * avg + 1));
        end = add < size - end ? end + add : size;
        int eod = end == size;
        uint64_t pd = done;
        pii_spanvec_clear(&fresh);
        /* the buffer starts anywhere between 0 and the last keep */
        base = keep ? keep - fuzz_rand(&seed) % (keep - base + 1) : 0;
        if (base < keep && (fuzz_rand(&seed) & 1))
            base = keep;
        FUZZ_CHECK(d.cls->scan(st, data + base, (size_t)(end - base), base, eod, &fresh, &done,
                               &keep) == PII_OK);
        FUZZ_CHECK(done >= pd && done <= end && keep <= done && keep >= base);
        if (eod)
            FUZZ_CHECK(done == end);
        for (size_t i = 0; i < fresh.n; i++) {
            const pii_span *s = &fresh.v[i];
            FUZZ_CHECK(s->start >= pd && s->start >= base && s->end <= end && s->start < s->end);
            FUZZ_CHECK(pii_spanvec_push(&got, s) == PII_OK);
        }
        if (eod)
            break;
    }
    d.cls->close(st);

    FUZZ_CHECK(got.n == all.n);
    if (got.n) {
        qsort(got.v, got.n, sizeof *got.v, span_cmp);
        pii_span *sorted = malloc(all.n * sizeof *sorted);
        FUZZ_CHECK(sorted);
        memcpy(sorted, all.v, all.n * sizeof *sorted);
        qsort(sorted, all.n, sizeof *sorted, span_cmp);
        for (size_t i = 0; i < all.n; i++)
            FUZZ_CHECK(span_cmp(&got.v[i], &sorted[i]) == 0);
        free(sorted);
    }
    pii_spanvec_free(&all);
    pii_spanvec_free(&got);
    pii_spanvec_free(&fresh);
    return 0;
}
