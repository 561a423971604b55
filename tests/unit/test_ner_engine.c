/* test_ner_engine.c — the detector engine on an exact fake model: window
 * stitching, streaming in random chunks, packing, parameters.
 *
 * The fake model's logits for token t are sums of small dyadic numbers over
 * the tokens t-H .. t+H of its sequence (no absolute positions, like RoPE),
 * so they are exact in f32: any difference between a windowed, streamed or
 * packed run and a single pass is an engine bug, not rounding. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pii_ner.h"
#include "pii_redact.h"
#include "unit_util.h"

#include "ner/ner_internal.h" /* NER_NAMES_REACH, NER_NAMES_SLACK */

static uint64_t rng_state = 12345;
static uint64_t rng(void)
{
    return unit_splitmix64(&rng_state);
}

/* ---- the fake backend ---------------------------------------------------- */

typedef struct fake {
    size_t H; /* true receptive field */
    size_t C;
    size_t forwards;  /* calls */
    size_t max_seq;   /* longest sequence seen */
    size_t max_total; /* most tokens in one call */
    size_t seqs;      /* sequences seen */
    size_t max_nseq;  /* most sequences in one call */
    int fail_at;      /* forward call number that fails (0: never) */
} fake;

static int isword(uint8_t b)
{
    return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') || b >= 0x80;
}

#define MAXPIECE 64

/* Pre-tokens: runs of word bytes (at most MAXPIECE from their start), or
 * one other byte.  Tokens: a run is cut into pieces of 3 bytes (so UTF-8
 * characters get split across tokens). */
static pii_err fake_tokenize(void *ud, void *ctx, const uint8_t *text, size_t len, int last,
                             pii_ner_toks *out, size_t *consumed)
{
    (void)ud;
    assert_non_null(ctx);
    size_t s = 0;
    while (s < len) {
        size_t e = s + 1;
        if (isword(text[s])) {
            while (e < len && e - s < MAXPIECE && isword(text[e]))
                e++;
            if (!last && e == len && e - s < MAXPIECE)
                break; /* may continue */
        }
        for (size_t p = s; p < e; p += 3) {
            size_t q = p + 3 < e ? p + 3 : e;
            uint32_t h = 2166136261u;
            for (size_t i = p; i < q; i++)
                h = (h ^ text[i]) * 16777619u;
            pii_err err = pii_ner_toks_push(out, (int32_t)(h % 1000), q);
            if (err)
                return err;
        }
        s = e;
    }
    *consumed = s;
    return PII_OK;
}

static float weight(int32_t id, int d, size_t c)
{
    uint32_t h = (uint32_t)id * 2654435761u ^ (uint32_t)(d + 64) * 40503u ^ (uint32_t)c * 9973u;
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    h ^= h >> 15;
    return (float)((int)(h % 33) - 16) / 8.0f;
}

static pii_err fake_forward(void *ud, void *ctx, const int32_t *ids, const size_t *lens,
                            size_t nseq, float *logits)
{
    fake *f = ud;
    assert_non_null(ctx);
    f->forwards++;
    if (f->fail_at && (int)f->forwards == f->fail_at)
        return PII_EMODEL;
    if (nseq > f->max_nseq)
        f->max_nseq = nseq;
    size_t off = 0;
    for (size_t q = 0; q < nseq; q++) {
        size_t n = lens[q];
        assert_true(n > 0);
        if (n > f->max_seq)
            f->max_seq = n;
        f->seqs++;
        for (size_t t = 0; t < n; t++) {
            float *row = logits + (off + t) * f->C;
            for (size_t c = 0; c < f->C; c++) {
                float acc = 0;
                int H = (int)f->H;
                for (int d = -H; d <= H; d++) {
                    long u = (long)t + d;
                    if (u < 0 || u >= (long)n)
                        continue;
                    acc += weight(ids[off + (size_t)u], d, c);
                }
                if (c == 0 && ids[off + t] % 4 != 0)
                    acc += 6.0f; /* mostly background */
                row[c] = acc;
            }
        }
        off += n;
    }
    if (off > f->max_total)
        f->max_total = off;
    return PII_OK;
}

static int ctx_token;
static void *fake_ctx_create(void *ud, pii_err *err)
{
    (void)ud;
    *err = PII_OK;
    return &ctx_token;
}
static void fake_ctx_free(void *ud, void *ctx)
{
    (void)ud;
    assert_ptr_equal(ctx, &ctx_token);
}

static pii_ner_backend fake_backend(fake *f, size_t H)
{
    memset(f, 0, sizeof *f);
    f->H = H;
    f->C = 33;
    pii_ner_backend be = {
        f, unit_names33, 33, H, NULL, fake_ctx_create, fake_ctx_free, fake_tokenize, fake_forward,
        1};
    return be;
}

static pii_ner *make_ner(fake *f, size_t H, size_t halo, size_t window, pii_ner_params *pp)
{
    pii_ner_backend be = fake_backend(f, H);
    be.halo = halo;
    pii_ner_params p = pp ? *pp : pii_ner_default_params();
    p.window = window;
    char msg[256];
    pii_err err;
    pii_ner *n = pii_ner_create_backend(&be, &p, &err, msg, sizeof msg);
    if (!n)
        fprintf(stderr, "create: %s (%s)\n", msg, pii_errname(err));
    assert_non_null(n);
    return n;
}

/* Random text: words (ASCII and multibyte), spaces, CRLF, punctuation,
 * emoji, NBSP, an occasional invalid byte. */
static char *random_text(size_t nbytes)
{
    static const char *const parts[] = {"Alice",
                                        "Smith",
                                        "z\xC3\xB6"
                                        "e",
                                        "\xE5\x8C\x97\xE4\xBA\xAC",
                                        "\xF0\x9F\x91\x8B",
                                        " ",
                                        " ",
                                        " ",
                                        "\r\n",
                                        ",",
                                        ".",
                                        "@",
                                        "555",
                                        "1234",
                                        "\xC2\xA0",
                                        "\xE3\x80\x80",
                                        "x",
                                        "\xFF",
                                        "street",
                                        "\t",
                                        "-",
                                        "42"};
    size_t np = sizeof parts / sizeof parts[0];
    char *t = malloc(nbytes + 16);
    size_t n = 0;
    while (n < nbytes) {
        const char *p = parts[rng() % np];
        size_t l = strlen(p);
        if (n + l > nbytes)
            break;
        memcpy(t + n, p, l);
        n += l;
    }
    t[n] = '\0';
    return t;
}

static void spans_equal(const pii_spanvec *a, const pii_spanvec *b)
{
    if (a->n != b->n)
        fprintf(stderr, "span count %zu vs %zu\n", a->n, b->n);
    assert_int_equal(a->n, b->n);
    for (size_t i = 0; i < a->n; i++) {
        assert_int_equal(a->v[i].start, b->v[i].start);
        assert_int_equal(a->v[i].end, b->v[i].end);
        assert_string_equal(a->v[i].label, b->v[i].label);
        assert_true(a->v[i].score == b->v[i].score);
        assert_int_equal(a->v[i].source, PII_SRC_MODEL);
        /* the model's own spans have no rule; the name heuristics' name theirs */
        if (a->v[i].rule || b->v[i].rule) {
            assert_non_null(a->v[i].rule);
            assert_non_null(b->v[i].rule);
            assert_string_equal(a->v[i].rule, b->v[i].rule);
            assert_true(!strcmp(a->v[i].rule, "name_lexicon") ||
                        !strcmp(a->v[i].rule, "honorific") || !strcmp(a->v[i].rule, "citation") ||
                        !strcmp(a->v[i].rule, "name_memory"));
        }
    }
}

/* Spans are sorted, non-overlapping, on character boundaries, trimmed. */
static void spans_sane(const pii_spanvec *s, const char *text, size_t len)
{
    uint64_t prev = 0;
    for (size_t i = 0; i < s->n; i++) {
        assert_true(s->v[i].start >= prev);
        assert_true(s->v[i].end > s->v[i].start);
        assert_true(s->v[i].end <= len);
        const uint8_t *p = (const uint8_t *)text;
        assert_int_equal(pii_ner_char_start(p, len, (size_t)s->v[i].start), s->v[i].start);
        if (s->v[i].end < len)
            assert_int_equal(pii_ner_char_start(p, len, (size_t)s->v[i].end), s->v[i].end);
        assert_true(text[s->v[i].start] != ' ' && text[s->v[i].end - 1] != ' ');
        prev = s->v[i].end;
    }
}

/* ---- windows -------------------------------------------------------------------- */

static void test_windows_exact(void **st)
{
    (void)st;
    char *text = random_text(12000);
    size_t len = strlen(text);
    fake f1;
    pii_ner *one = make_ner(&f1, 8, 8, 1 << 20, NULL);
    pii_ner_result ref;
    assert_int_equal(pii_ner_analyze(one, (const uint8_t *)text, len, &ref), PII_OK);
    assert_true(ref.n > 3000);
    assert_int_equal(f1.forwards, 1);
    assert_true(ref.spans.n > 20);
    spans_sane(&ref.spans, text, len);
    /* tokens tile the text */
    for (size_t i = 0; i < ref.n; i++)
        assert_int_equal(ref.start[i], i ? ref.end[i - 1] : 0);
    assert_int_equal(ref.end[ref.n - 1], len);
    size_t windows[] = {17, 18, 40, 100, 1000, 2999, 3000, ref.n - 1, ref.n, ref.n + 1};
    for (size_t w = 0; w < sizeof windows / sizeof windows[0]; w++) {
        fake f;
        pii_ner *n = make_ner(&f, 8, 8, windows[w], NULL);
        pii_ner_result r;
        assert_int_equal(pii_ner_analyze(n, (const uint8_t *)text, len, &r), PII_OK);
        assert_int_equal(r.n, ref.n);
        assert_memory_equal(r.ids, ref.ids, r.n * sizeof *r.ids);
        assert_memory_equal(r.logits, ref.logits, r.n * 33 * sizeof *r.logits);
        assert_memory_equal(r.labels, ref.labels, r.n * sizeof *r.labels);
        spans_equal(&r.spans, &ref.spans);
        /* the layout: windows of W tokens at stride W - 2 x halo (16 here),
         * the last taking a remainder of up to W + W/4 whole */
        size_t W = windows[w], tail = W / 4, want = 1;
        while (ref.n - (want - 1) * (W - 16) > W + tail)
            want++;
        assert_int_equal(f.seqs, want);
        assert_true(f.max_seq <= W + tail);
        if (W + tail < ref.n)
            assert_true(f.seqs > 1);
        else
            assert_int_equal(f.seqs, 1);
        pii_ner_result_free(&r);
        pii_ner_free(n);
    }
    /* control: a halo smaller than the receptive field changes logits */
    fake fb;
    pii_ner *bad = make_ner(&fb, 8, 4, 100, NULL);
    pii_ner_result r;
    assert_int_equal(pii_ner_analyze(bad, (const uint8_t *)text, len, &r), PII_OK);
    assert_int_equal(r.n, ref.n);
    assert_memory_not_equal(r.logits, ref.logits, r.n * 33 * sizeof *r.logits);
    pii_ner_result_free(&r);
    pii_ner_free(bad);
    pii_ner_result_free(&ref);
    pii_ner_free(one);
    free(text);
}

/* ---- streams ------------------------------------------------------------------------ */

typedef struct stream_stats {
    size_t max_held; /* most bytes between keep and the end of input */
    size_t scans;
} stream_stats;

/* Drives the detector like pii_stream does: a buffer from the last `keep`
 * to the bytes received so far (copied fresh each time, so reads outside
 * it are caught by ASan), chunk sizes from next_chunk(). */
static void stream_run(const pii_ner *n, const char *text, size_t len, size_t maxchunk,
                       pii_spanvec *out, stream_stats *stats)
{
    pii_detector det = pii_ner_detector(n);
    pii_err err;
    void *st = det.cls->open(det.shared, &err);
    assert_non_null(st);
    assert_string_equal(det.cls->name, "model");
    for (int docn = 0; docn < 2; docn++) { /* twice: reset() must start afresh */
        if (docn)
            det.cls->reset(st);
        out->n = 0;
        uint64_t keep = 0, done = 0, pos = 0;
        memset(stats, 0, sizeof *stats);
        int ended = 0;
        while (!ended) {
            size_t k = 1 + (size_t)(rng() % maxchunk);
            if (rng() % 8 == 0)
                k = 0; /* a scan with nothing new */
            if (k > len - pos)
                k = (size_t)(len - pos);
            pos += k;
            int eod = pos == len && (rng() % 2 || k == 0);
            size_t blen = (size_t)(pos - keep);
            uint8_t *buf = malloc(blen ? blen : 1);
            memcpy(buf, text + keep, blen);
            uint64_t nd = 0, nk = 0;
            size_t before = out->n;
            assert_int_equal(det.cls->scan(st, buf, blen, keep, eod, out, &nd, &nk), PII_OK);
            free(buf);
            stats->scans++;
            /* the contract */
            assert_true(nd >= done);
            assert_true(nk >= keep);
            assert_true(nk <= nd);
            assert_true(nd <= pos);
            for (size_t i = before; i < out->n; i++)
                assert_true(out->v[i].start >= done);
            if (eod) {
                assert_int_equal(nd, pos);
                ended = 1;
            }
            done = nd;
            keep = nk;
            if (pos - keep > stats->max_held)
                stats->max_held = (size_t)(pos - keep);
        }
    }
    det.cls->close(st);
}

/* Streams text with chunks of up to 1, 3, 64 and 4096 bytes through models
 * with a 40-token and a whole-document window; each result must equal the
 * one-shot one.  *long_opaque (optional) counts one-shot spans of widening
 * categories longer than one 3-byte token. */
static void stream_vs_oneshot(const char *text, size_t len, size_t *long_opaque)
{
    size_t windows[] = {40, 1 << 20};
    for (size_t w = 0; w < 2; w++) {
        fake f;
        pii_ner *n = make_ner(&f, 8, 8, windows[w], NULL);
        pii_spanvec ref = {0}, got = {0};
        assert_int_equal(pii_ner_detect(n, (const uint8_t *)text, len, &ref), PII_OK);
        for (size_t i = 0; long_opaque && i < ref.n; i++)
            if (strcmp(ref.v[i].label, "private_person") &&
                strcmp(ref.v[i].label, "private_date") &&
                strcmp(ref.v[i].label, "private_address") && ref.v[i].end - ref.v[i].start > 3)
                ++*long_opaque;
        size_t chunks[] = {1, 3, 64, 4096};
        for (size_t c = 0; c < 4; c++) {
            stream_stats ss;
            stream_run(n, text, len, chunks[c], &got, &ss);
            spans_equal(&got, &ref);
        }
        free(ref.v);
        free(got.v);
        pii_ner_free(n);
    }
}

static void test_stream_equals_oneshot(void **st)
{
    (void)st;
    size_t sizes[] = {0, 1, 5, 300, 5000};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        char *text = random_text(sizes[si]);
        size_t len = strlen(text);
        stream_vs_oneshot(text, len, NULL);
        free(text);
    }
}

/* Name memory: on text where capitalised names recur, streaming in every
 * chunking still equals the one-shot result (windows of 40 tokens, so a
 * name taught in one window is found in later ones; the name lexicon on,
 * honorifics among the words), and the memory adds
 * spans: each a whole word equal to a capitalised word of an earlier
 * multi-word person span, or of one that starts at most NER_NAMES_REACH
 * bytes after it (the reach back). */
static void test_stream_name_memory(void **st)
{
    (void)st;
    static const char *const words[] = {"Okafor", "Ngozi",        "L\u00FAc\u00EDa",
                                        "ZHANG",  "Morgan-Short", "O'Brien",
                                        "the",    "met",          "and",
                                        "said",   "Okafor's",     "Dr.",
                                        "x",      "Lee",          "\u00C9mile",
                                        "of",     "na\u00EFve",   "Mr",
                                        "Karen"};
    size_t cap = 24000, len = 0;
    char *text = malloc(cap);
    while (len + 40 < cap) {
        const char *w = words[rng() % (sizeof words / sizeof words[0])];
        len += (size_t)snprintf(text + len, cap - len, "%s%s", w,
                                rng() % 9 == 0   ? ".\r\n"
                                : rng() % 7 == 0 ? ", "
                                                 : " ");
    }
    stream_vs_oneshot(text, len, NULL);
    fake f;
    pii_ner *with = make_ner(&f, 8, 8, 40, NULL), *without = make_ner(&f, 8, 8, 40, NULL);
    assert_true(pii_ner_name_memory(with));
    pii_ner_set_name_memory(without, 0);
    assert_false(pii_ner_name_memory(without));
    /* the spans the memory adds, alone (the name lexicon's honorific spans
     * teach words they do not cover; stream_vs_oneshot ran with it) */
    pii_ner_set_name_lexicon(with, 0);
    pii_ner_set_name_lexicon(without, 0);
    pii_spanvec a = {0}, b = {0};
    assert_int_equal(pii_ner_detect(with, (const uint8_t *)text, len, &a), PII_OK);
    assert_int_equal(pii_ner_detect(without, (const uint8_t *)text, len, &b), PII_OK);
    spans_sane(&a, text, len);
    size_t added = 0;
    for (size_t i = 0; i < a.n; i++) {
        int seen = 0;
        for (size_t j = 0; j < b.n && !seen; j++)
            seen = b.v[j].start < a.v[i].end && a.v[i].start < b.v[j].end;
        if (seen)
            continue;
        added++;
        const pii_span *x = &a.v[i];
        size_t wl = (size_t)(x->end - x->start);
        assert_string_equal(x->label, "private_person");
        assert_true(x->start == 0 || text[x->start - 1] == ' ' || text[x->start - 1] == '\n');
        /* taught by an earlier person span of two words or more, or by one
         * within reach after it */
        int taught = 0;
        for (size_t j = 0; j < a.n && !taught; j++) {
            const pii_span *t = &a.v[j];
            int before = t->end <= x->start,
                after = t->start >= x->end && t->start - x->start <= NER_NAMES_REACH;
            if (!(before || after) || strcmp(t->label, "private_person"))
                continue;
            for (uint64_t p = t->start; p + wl <= t->end && !taught; p++)
                taught = !memcmp(text + p, text + x->start, wl) &&
                         memchr(text + t->start, ' ', (size_t)(t->end - t->start));
        }
        assert_true(taught);
    }
    assert_true(added > 0);
    free(a.v);
    free(b.v);
    pii_ner_free(with);
    pii_ner_free(without);
    free(text);
}

/* A backend that runs par sequences at once (the model's thread pool):
 * the windows of one document share passes of up to par x window tokens,
 * in one-shot runs and in streams of every chunking, and the spans are
 * those of one window per pass, byte for byte. */
static void test_stream_parallel_passes(void **st)
{
    (void)st;
    char *text = random_text(20000);
    size_t len = strlen(text);
    fake fr, fp;
    pii_ner *ref_n = make_ner(&fr, 8, 8, 40, NULL);
    pii_ner_backend be = fake_backend(&fp, 8);
    be.par = 3;
    pii_ner_params p = pii_ner_default_params();
    p.window = 40;
    pii_err err;
    pii_ner *par_n = pii_ner_create_backend(&be, &p, &err, NULL, 0);
    assert_non_null(par_n);
    pii_spanvec ref = {0}, got = {0};
    assert_int_equal(pii_ner_detect(ref_n, (const uint8_t *)text, len, &ref), PII_OK);
    assert_true(ref.n > 0);
    assert_int_equal(fr.max_nseq, 1);
    assert_int_equal(pii_ner_detect(par_n, (const uint8_t *)text, len, &got), PII_OK);
    spans_equal(&got, &ref);
    assert_int_equal(fp.max_nseq, 3);
    assert_true(fp.max_total <= 3 * 40);
    assert_true(fp.forwards < fr.forwards / 2);
    size_t chunks[] = {1, 64, 4096, 1 << 20};
    for (size_t c = 0; c < 4; c++) {
        stream_stats ss;
        fp.max_nseq = 0;
        stream_run(par_n, text, len, chunks[c], &got, &ss);
        spans_equal(&got, &ref);
        if (chunks[c] >= 4096)
            assert_int_equal(fp.max_nseq, 3);
    }
    free(ref.v);
    free(got.v);
    pii_ner_free(ref_n);
    pii_ner_free(par_n);
    free(text);
}

/* Long runs of ASCII letters and digits: spans of secrets, accounts, URLs,
 * e-mails and phones widen to the whole run (up to 128 bytes each way),
 * which in a stream may wait for bytes that have not arrived yet; the
 * result still equals the one-shot one for every chunking. */
static void test_stream_widen(void **st)
{
    (void)st;
    static const char *const parts[] = {"ab1", "Z9", "q", "77", "xY", "c0d", "e", "5", " ", "-"};
    for (int round = 0; round < 3; round++) {
        size_t len = 3000 + (size_t)round * 700;
        char *text = malloc(len + 1);
        size_t k = 0;
        while (k < len) {
            const char *p = parts[rng() % (round == 2 ? 8 : 10)]; /* round 2: one run */
            size_t l = strlen(p);
            if (k + l > len)
                l = len - k;
            memcpy(text + k, p, l);
            k += l;
        }
        text[len] = '\0';
        size_t widened = 0;
        stream_vs_oneshot(text, len, &widened);
        assert_true(widened > 0);
        free(text);
    }
}

/* An address span grows over a country after it (and a postcode), which in
 * a stream may wait for bytes not yet received: every chunking still equals
 * the one-shot result, and some one-shot address spans end in a country. */
static void test_stream_country_tail(void **st)
{
    (void)st;
    static const char *const parts[] = {
        "Leeds", "France", "United", "Kingdom", ", ", "\n", "\r\n", " ", "75018", "12345-", "6789",
        "UK", "us", "Deutschland", "\xc3\x96sterreich", ".", "New", "Zealand", "Street", "12",
        "Road", "Elm", ",",
        /* long enough to reach past the window's halo */
        ",      \r\n    Saint Vincent and the Grenadines 12345-6789",
        ", Bosnia and Herzegovina,  76543", "\t\t, \n  United States of America"};
    const size_t np = sizeof parts / sizeof parts[0];
    size_t tails = 0;
    for (int round = 0; round < 4; round++) {
        size_t cap = 6000, len = 0;
        char *text = malloc(cap);
        while (len + 80 < cap) { /* room for the longest part and the NUL */
            const char *p = parts[rng() % np];
            memcpy(text + len, p, strlen(p));
            len += strlen(p);
        }
        text[len] = '\0';
        stream_vs_oneshot(text, len, NULL);
        fake f;
        pii_ner *n = make_ner(&f, 8, 8, 1 << 20, NULL);
        pii_spanvec ref = {0};
        assert_int_equal(pii_ner_detect(n, (const uint8_t *)text, len, &ref), PII_OK);
        static const char *const countries[] = {
            "France",      "United Kingdom", "UK",    "Deutschland", "\xc3\x96sterreich",
            "New Zealand", "6789",           "76543", "of America"};
        for (size_t i = 0; i < ref.n; i++) {
            if (strcmp(ref.v[i].label, "private_address"))
                continue;
            for (size_t c = 0; c < sizeof countries / sizeof countries[0]; c++) {
                size_t cl = strlen(countries[c]);
                uint64_t e = ref.v[i].end;
                if (e >= ref.v[i].start + cl + 1 && !memcmp(text + e - cl, countries[c], cl) &&
                    strchr(", \n", text[e - cl - 1]))
                    tails++;
            }
        }
        free(ref.v);
        pii_ner_free(n);
        free(text);
    }
    assert_true(tails > 0);
}

/* Memory is flat: a long document never makes the detector hold more than
 * a bounded tail. */
static void test_stream_bounded(void **st)
{
    (void)st;
    char *text = random_text(400000);
    size_t len = strlen(text);
    pii_ner_params p = pii_ner_default_params();
    p.max_lag = 256;
    p.max_span_tokens = 256;
    fake f;
    pii_ner *n = make_ner(&f, 8, 8, 64, &p);
    pii_spanvec ref = {0}, got = {0};
    assert_int_equal(pii_ner_detect(n, (const uint8_t *)text, len, &ref), PII_OK);
    stream_stats ss;
    stream_run(n, text, len, 2000, &got, &ss);
    spans_equal(&got, &ref);
    /* a chunk, plus window + halo + lag + span tokens of at most 3 bytes,
     * plus the tokenizer's unstable piece, plus the name memory's reach
     * back and the vote's reach either side of a span (ner.c, doc_keep) */
    size_t bound = 2000 + (64 + 64 / 4 + 8 + 2 + 256 + 256) * 3 + MAXPIECE + 3 +
                   3 * NER_NAMES_REACH + NER_NAMES_SLACK + 256 * 3;
    fprintf(stderr, "stream: held at most %zu bytes (bound %zu), %zu scans\n", ss.max_held, bound,
            ss.scans);
    assert_true(ss.max_held <= bound);
    free(ref.v);
    free(got.v);
    pii_ner_free(n);
    free(text);
}

/* A tight Viterbi bound and argmax decoding stay chunking-independent. */
static void test_stream_modes(void **st)
{
    (void)st;
    char *text = random_text(6000);
    size_t len = strlen(text);
    for (int mode = 0; mode < 3; mode++) {
        pii_ner_params p = pii_ner_default_params();
        if (mode == 0)
            p.max_lag = 2;
        if (mode == 1)
            assert_int_equal(pii_ner_params_decode(&p, "argmax"), PII_OK);
        if (mode == 2)
            p.max_span_tokens = 2;
        fake f;
        pii_ner *n = make_ner(&f, 8, 8, 50, &p);
        pii_spanvec ref = {0}, got = {0};
        assert_int_equal(pii_ner_detect(n, (const uint8_t *)text, len, &ref), PII_OK);
        assert_true(ref.n > 0);
        spans_sane(&ref, text, len);
        for (int c = 0; c < 3; c++) {
            stream_stats ss;
            stream_run(n, text, len, c == 0 ? 1 : 97, &got, &ss);
            spans_equal(&got, &ref);
        }
        free(ref.v);
        free(got.v);
        pii_ner_free(n);
    }
    free(text);
}

/* ---- packing ------------------------------------------------------------------------ */

static void test_packing(void **st)
{
    (void)st;
    enum { ND = 60 };
    char *docs[ND];
    size_t lens[ND];
    for (int i = 0; i < ND; i++) {
        size_t sz = i % 10 == 0 ? 0 : (i % 7 == 0 ? 3000 : 20 + rng() % 200);
        docs[i] = random_text(sz);
        lens[i] = strlen(docs[i]);
    }
    fake fa, fb;
    pii_ner_params p = pii_ner_default_params();
    p.pack_tokens = 512;
    pii_ner *n = make_ner(&fa, 8, 8, 100, &p);
    pii_ner *m = make_ner(&fb, 8, 8, 100, NULL);
    pii_spanvec packed[ND], single[ND];
    memset(packed, 0, sizeof packed);
    memset(single, 0, sizeof single);
    assert_int_equal(pii_ner_detect_batch(n, (const uint8_t *const *)docs, lens, ND, packed),
                     PII_OK);
    for (int i = 0; i < ND; i++)
        assert_int_equal(pii_ner_detect(m, (const uint8_t *)docs[i], lens[i], &single[i]), PII_OK);
    size_t total = 0;
    for (int i = 0; i < ND; i++) {
        spans_equal(&packed[i], &single[i]);
        total += single[i].n;
        free(packed[i].v);
        free(single[i].v);
        free(docs[i]);
    }
    assert_true(total > 0);
    assert_true(fa.forwards < fb.forwards / 3); /* shared passes */
    assert_true(fa.max_total <= 512);
    assert_true(fa.max_seq <= 100 + 100 / 4); /* a last window of W + W/4 */
    pii_ner_free(n);
    pii_ner_free(m);
    /* an empty batch */
    fake fc;
    pii_ner *e = make_ner(&fc, 8, 8, 100, NULL);
    assert_int_equal(pii_ner_detect_batch(e, NULL, NULL, 0, NULL), PII_OK);
    pii_ner_free(e);
}

/* ---- parameters --------------------------------------------------------------------- */

static void test_params(void **st)
{
    (void)st;
    pii_ner_params p = pii_ner_default_params();
    assert_int_equal(p.window, 0); /* auto */
    assert_string_equal(p.operating_point, "default");
    assert_int_equal(pii_ner_params_threshold(&p, "0.5"), PII_OK);
    assert_true(p.threshold == 0.5f);
    assert_int_equal(pii_ner_params_threshold(&p, "private_person=0.7"), PII_OK);
    assert_int_equal(pii_ner_params_threshold(&p, "private_person=0.8"), PII_OK);
    assert_int_equal(p.nlabel_thresholds, 1);
    assert_true(p.label_thresholds[0].value == 0.8f);
    assert_int_equal(pii_ner_params_threshold(&p, "1.5"), PII_EINVAL);
    assert_int_equal(pii_ner_params_threshold(&p, "x"), PII_EINVAL);
    assert_int_equal(pii_ner_params_threshold(&p, "=0.1"), PII_EINVAL);
    assert_int_equal(pii_ner_params_threshold(&p, "a=0.1x"), PII_EINVAL);
    assert_int_equal(pii_ner_params_bias(&p, "background_stay=-1.5"), PII_OK);
    assert_int_equal(pii_ner_params_bias(&p, "transition_bias_end_to_start=2"), PII_OK);
    assert_int_equal(p.bias_mask, (1u << 0) | (1u << 5));
    assert_int_equal(pii_ner_params_bias(&p, "nope=1"), PII_EINVAL);
    assert_int_equal(pii_ner_params_bias(&p, "background_stay"), PII_EINVAL);
    assert_int_equal(pii_ner_params_bias(&p, "background_stay=inf"), PII_EINVAL);
    assert_int_equal(pii_ner_params_decode(&p, "beam"), PII_EINVAL);

    fake f;
    pii_ner_backend be = fake_backend(&f, 8);
    char msg[256];
    pii_err err;
    /* unknown label in a threshold */
    pii_ner_params q = pii_ner_default_params();
    assert_int_equal(pii_ner_params_threshold(&q, "private_pet=0.5"), PII_OK);
    assert_null(pii_ner_create_backend(&be, &q, &err, msg, sizeof msg));
    assert_int_equal(err, PII_EINVAL);
    assert_non_null(strstr(msg, "private_pet"));
    /* window too small for the halo */
    q = pii_ner_default_params();
    q.window = 16;
    assert_null(pii_ner_create_backend(&be, &q, &err, msg, sizeof msg));
    assert_int_equal(err, PII_EINVAL);
    assert_non_null(strstr(msg, "17"));
    /* a named operating point without any calibration file */
    q = pii_ner_default_params();
    snprintf(q.operating_point, sizeof q.operating_point, "recall");
    assert_null(pii_ner_create_backend(&be, &q, &err, msg, sizeof msg));
    assert_int_equal(err, PII_ENOTFOUND);
    /* bias overrides on the default point */
    q = pii_ner_default_params();
    assert_int_equal(pii_ner_params_bias(&q, "background_to_start=-3"), PII_OK);
    pii_ner *n = pii_ner_create_backend(&be, &q, &err, msg, sizeof msg);
    assert_non_null(n);
    pii_ner_biases b = pii_ner_get_biases(n);
    assert_true(b.v[1] == -3.0f && b.v[0] == 0.0f);
    assert_int_equal(pii_ner_halo(n), 8);
    assert_int_equal(pii_ner_window(n), 8192);
    assert_int_equal(pii_ner_labels_ncat(pii_ner_get_labels(n)), 8);
    pii_ner_free(n);
    pii_ner_free(NULL);
}

static void test_calibration_dir(void **st)
{
    (void)st;
    char dir[] = "/tmp/ner_cal_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/viterbi_calibration.json", dir);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs("{\"operating_points\":{\"default\":{\"biases\":{"
          "\"transition_bias_background_stay\":0,\"transition_bias_background_to_start\":0,"
          "\"transition_bias_inside_to_continue\":0,\"transition_bias_inside_to_end\":0,"
          "\"transition_bias_end_to_background\":0,\"transition_bias_end_to_start\":0}},"
          "\"strict\":{\"biases\":{"
          "\"transition_bias_background_stay\":4,\"transition_bias_background_to_start\":-4,"
          "\"transition_bias_inside_to_continue\":0,\"transition_bias_inside_to_end\":0,"
          "\"transition_bias_end_to_background\":0,\"transition_bias_end_to_start\":0}}}}",
          fp);
    fclose(fp);
    fake f;
    pii_ner_backend be = fake_backend(&f, 8);
    be.model_dir = dir;
    pii_ner_params q = pii_ner_default_params();
    snprintf(q.operating_point, sizeof q.operating_point, "strict");
    pii_err err;
    char msg[256];
    pii_ner *strict = pii_ner_create_backend(&be, &q, &err, msg, sizeof msg);
    assert_non_null(strict);
    assert_true(pii_ner_get_biases(strict).v[0] == 4.0f);
    pii_ner *def = pii_ner_create_backend(&be, NULL, &err, msg, sizeof msg);
    assert_non_null(def);
    /* the strict point finds fewer spans on the same text */
    char *text = random_text(4000);
    pii_spanvec a = {0}, b = {0};
    assert_int_equal(pii_ner_detect(def, (const uint8_t *)text, strlen(text), &a), PII_OK);
    assert_int_equal(pii_ner_detect(strict, (const uint8_t *)text, strlen(text), &b), PII_OK);
    assert_true(b.n < a.n);
    /* an unknown point names the available ones */
    snprintf(q.operating_point, sizeof q.operating_point, "fast");
    assert_null(pii_ner_create_backend(&be, &q, &err, msg, sizeof msg));
    assert_int_equal(err, PII_ENOTFOUND);
    assert_non_null(strstr(msg, "strict"));
    free(a.v);
    free(b.v);
    free(text);
    pii_ner_free(strict);
    pii_ner_free(def);
    unlink(path);
    rmdir(dir);
}

static void test_thresholds(void **st)
{
    (void)st;
    char *text = random_text(4000);
    size_t len = strlen(text);
    fake f;
    pii_ner *all = make_ner(&f, 8, 8, 4096, NULL);
    pii_spanvec a = {0}, b = {0};
    assert_int_equal(pii_ner_detect(all, (const uint8_t *)text, len, &a), PII_OK);
    pii_ner_params p = pii_ner_default_params();
    assert_int_equal(pii_ner_params_threshold(&p, "0.6"), PII_OK);
    assert_int_equal(pii_ner_params_threshold(&p, "private_person=0.9"), PII_OK);
    pii_ner *thr = make_ner(&f, 8, 8, 4096, &p);
    assert_int_equal(pii_ner_detect(thr, (const uint8_t *)text, len, &b), PII_OK);
    /* every kept span passes its threshold, and (overlaps aside, which
     * only arise on split characters) the passing spans of the unfiltered
     * run are kept */
    size_t pass = 0, found = 0;
    for (size_t i = 0; i < b.n; i++) {
        float t = strcmp(b.v[i].label, "private_person") == 0 ? 0.9f : 0.6f;
        assert_true(b.v[i].score >= t);
    }
    for (size_t i = 0; i < a.n; i++) {
        float t = strcmp(a.v[i].label, "private_person") == 0 ? 0.9f : 0.6f;
        if (a.v[i].score < t)
            continue;
        pass++;
        for (size_t j = 0; j < b.n; j++)
            if (b.v[j].start == a.v[i].start && b.v[j].end == a.v[i].end)
                found++;
    }
    assert_true(pass > 0 && found * 10 >= pass * 9);
    assert_true(b.n < a.n);
    free(a.v);
    free(b.v);
    free(text);
    pii_ner_free(all);
    pii_ner_free(thr);
}

static void test_forward_error(void **st)
{
    (void)st;
    char *text = random_text(3000);
    size_t len = strlen(text);
    fake f;
    pii_ner *n = make_ner(&f, 8, 8, 100, NULL);
    f.fail_at = 3;
    pii_spanvec a = {0};
    assert_int_equal(pii_ner_detect(n, (const uint8_t *)text, len, &a), PII_EMODEL);
    free(a.v);
    pii_ner_free(n);
    free(text);
}

/* ---- announced and queued documents through the real stream ------------------------------ */

typedef struct sink_buf {
    pii_buf text;
    size_t spans;
} sink_buf;

static pii_err sink_write(void *ud, const uint8_t *p, size_t n)
{
    return pii_buf_append(&((sink_buf *)ud)->text, p, n);
}

static pii_err sink_span(void *ud, const pii_span *s, const uint8_t *v, size_t len, uint64_t a,
                         uint64_t b)
{
    (void)s, (void)v, (void)len, (void)a, (void)b;
    ((sink_buf *)ud)->spans++;
    return PII_OK;
}

static pii_stream *make_stream(pii_detector det, pii_redactor **red, pii_ops **ops, sink_buf *sb)
{
    pii_err e;
    pii_op op;
    pii_op_default(&op, PII_OP_PLACEHOLDER);
    *ops = pii_ops_create(&op, &e);
    assert_non_null(*ops);
    assert_int_equal(pii_ops_check(*ops), PII_OK);
    *red = pii_redactor_create(&e);
    assert_non_null(*red);
    assert_int_equal(pii_redactor_add_detector(*red, det), PII_OK);
    pii_redactor_set_ops(*red, *ops);
    pii_sink sink = {sink_write, sink_span, NULL, sb};
    pii_stream *st = pii_stream_create(*red, &sink, &e);
    assert_non_null(st);
    return st;
}

static void test_ahead(void **st)
{
    (void)st;
    enum { ND = 30 };
    char *docs[ND];
    size_t lens[ND];
    for (int i = 0; i < ND; i++) {
        docs[i] = random_text(i % 9 == 0 ? 1 : 30 + rng() % 300);
        lens[i] = strlen(docs[i]);
    }
    fake fa, fb;
    pii_ner *live = make_ner(&fa, 8, 8, 100, NULL);
    pii_ner *packed = make_ner(&fb, 8, 8, 100, NULL);
    sink_buf ra = {{0}, 0}, rb = {{0}, 0};
    pii_redactor *reda, *redb;
    pii_ops *opsa, *opsb;
    pii_stream *sa = make_stream(pii_ner_detector(live), &reda, &opsa, &ra);
    pii_stream *sb = make_stream(pii_ner_detector(packed), &redb, &opsb, &rb);
    for (int i = 0; i < ND; i++) {
        assert_int_equal(pii_stream_feed(sa, docs[i], lens[i]), PII_OK);
        assert_int_equal(pii_stream_end_doc(sa), PII_OK);
    }
    /* 20 documents announced (in two groups), 10 live */
    size_t fw = 0;
    for (int i = 0; i < ND; i++) {
        if (i == 0 || i == 12) {
            size_t k = i ? 8 : 12;
            for (size_t d = 0; d < k; d++)
                assert_int_equal(pii_stream_put(sb, docs[i + d], lens[i + d], PII_STREAM_AHEAD),
                                 PII_OK);
            assert_int_equal(pii_stream_put(sb, NULL, 0, PII_STREAM_FLUSH), PII_OK);
            fw = fb.forwards;
        }
        /* feed in two pieces to exercise partial reporting */
        size_t h = lens[i] / 2;
        assert_int_equal(pii_stream_feed(sb, docs[i], h), PII_OK);
        assert_int_equal(pii_stream_feed(sb, docs[i] + h, lens[i] - h), PII_OK);
        assert_int_equal(pii_stream_end_doc(sb), PII_OK);
        if (i < 20)
            assert_int_equal(fb.forwards, fw); /* nothing ran while announced */
    }
    assert_true(fb.forwards < fa.forwards);
    assert_true(ra.spans > 0);
    assert_int_equal(ra.spans, rb.spans);
    assert_int_equal(ra.text.n, rb.text.n);
    assert_memory_equal(ra.text.p, rb.text.p, ra.text.n);
    /* other bytes than announced: the announcement is withdrawn, the
     * document detected live (same output as the live stream) */
    size_t was = rb.text.n;
    assert_int_equal(pii_stream_put(sb, docs[1], lens[1], PII_STREAM_AHEAD), PII_OK);
    char *other = strdup(docs[1]);
    assert_int_equal(pii_stream_feed(sb, other, lens[1]), PII_OK);
    assert_int_equal(pii_stream_end_doc(sb), PII_OK);
    assert_true(rb.text.n > was);
    /* ... but a document that starts as announced and goes on elsewhere
     * fails closed */
    assert_int_equal(pii_stream_put(sb, docs[1], lens[1], PII_STREAM_AHEAD), PII_OK);
    size_t h = lens[1] / 2;
    assert_int_equal(pii_stream_feed(sb, docs[1], h), PII_OK);
    assert_int_equal(pii_stream_feed(sb, other + h, lens[1] - h), PII_EINVAL);
    free(other);
    pii_stream_free(sa);
    pii_stream_free(sb);
    pii_redactor_free(reda);
    pii_redactor_free(redb);
    pii_ops_free(opsa);
    pii_ops_free(opsb);
    pii_buf_free(&ra.text);
    pii_buf_free(&rb.text);
    pii_ner_free(live);
    pii_ner_free(packed);
    for (int i = 0; i < ND; i++)
        free(docs[i]);
}

/* pii_stream_put: documents (with repeats, some long enough to outgrow the
 * queue, pieces cut anywhere, flushes now and then) give byte for byte the
 * output of feeding them one by one live, with the result cache and
 * without, and with 1 and 3 pool threads.  The cache saves forward passes. */
static void put_run(pii_ner *n, char **docs, const size_t *lens, size_t nd, sink_buf *out)
{
    pii_redactor *red;
    pii_ops *ops;
    pii_stream *st = make_stream(pii_ner_detector(n), &red, &ops, out);
    uint32_t r = 7;
    for (size_t i = 0; i < nd; i++) {
        size_t off = 0;
        while (off < lens[i]) {
            r = r * 1103515245u + 12345u;
            size_t k = 1 + (r >> 8) % (lens[i] - off);
            if ((r >> 20) % 3)
                k = lens[i] - off;
            pii_stream_directive how = off + k == lens[i]   ? PII_STREAM_END_DOC
                                       : (r >> 24) % 5 == 0 ? PII_STREAM_FLUSH
                                                            : PII_STREAM_CONTINUE;
            assert_int_equal(pii_stream_put(st, docs[i] + off, k, how), PII_OK);
            off += k;
        }
        if (i % 37 == 36)
            assert_int_equal(pii_stream_put(st, NULL, 0, PII_STREAM_FLUSH), PII_OK);
    }
    assert_int_equal(pii_stream_put(st, NULL, 0, PII_STREAM_FLUSH), PII_OK);
    assert_int_equal(pii_stream_doc(st), nd);
    pii_stream_free(st);
    pii_redactor_free(red);
    pii_ops_free(ops);
}

static void test_put_cache(void **st)
{
    (void)st;
    enum { ND = 700, NU = 60 };
    char *uniq[NU];
    char *docs[ND];
    size_t lens[ND];
    for (int i = 0; i < NU; i++)
        uniq[i] = random_text(i == 5 ? 3000 : i == 9 ? 1100000 : 20 + rng() % 200);
    for (int i = 0; i < ND; i++) {
        int u = i < NU ? i : (int)(rng() % NU);
        if (u == 9 && i >= NU)
            u = 8; /* the 1 MB document once */
        docs[i] = uniq[u];
        lens[i] = strlen(docs[i]);
    }
    fake fl;
    pii_ner *live = make_ner(&fl, 8, 8, 100, NULL);
    sink_buf ref = {{0}, 0};
    {
        pii_redactor *red;
        pii_ops *ops;
        pii_stream *s = make_stream(pii_ner_detector(live), &red, &ops, &ref);
        for (int i = 0; i < ND; i++) {
            assert_int_equal(pii_stream_feed(s, docs[i], lens[i]), PII_OK);
            assert_int_equal(pii_stream_end_doc(s), PII_OK);
        }
        pii_stream_free(s);
        pii_redactor_free(red);
        pii_ops_free(ops);
    }
    size_t fw[2][2];
    for (int cache = 0; cache < 2; cache++)
        for (int th = 0; th < 2; th++) {
            pii_ner_params p = pii_ner_default_params();
            p.no_cache = !cache;
            p.window = 100;
            fake f;
            pii_ner_backend be = fake_backend(&f, 8);
            be.par = th ? 3 : 1; /* passes spread over 3 pool threads */
            pii_err err;
            pii_ner *n = pii_ner_create_backend(&be, &p, &err, NULL, 0);
            assert_non_null(n);
            sink_buf out = {{0}, 0};
            put_run(n, docs, lens, ND, &out);
            assert_int_equal(out.spans, ref.spans);
            assert_int_equal(out.text.n, ref.text.n);
            assert_memory_equal(out.text.p, ref.text.p, ref.text.n);
            fw[cache][th] = f.seqs;
            pii_buf_free(&out.text);
            pii_ner_free(n);
        }
    assert_true(fw[1][0] < fw[0][0]); /* the cache skipped repeated documents */
    pii_buf_free(&ref.text);
    pii_ner_free(live);
    for (int i = 0; i < NU; i++)
        free(uniq[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_windows_exact),
        cmocka_unit_test(test_stream_equals_oneshot),
        cmocka_unit_test(test_stream_widen),
        cmocka_unit_test(test_stream_country_tail),
        cmocka_unit_test(test_stream_bounded),
        cmocka_unit_test(test_stream_modes),
        cmocka_unit_test(test_packing),
        cmocka_unit_test(test_params),
        cmocka_unit_test(test_calibration_dir),
        cmocka_unit_test(test_thresholds),
        cmocka_unit_test(test_forward_error),
        cmocka_unit_test(test_ahead),
        cmocka_unit_test(test_stream_parallel_passes),
        cmocka_unit_test(test_put_cache),
        cmocka_unit_test(test_stream_name_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
