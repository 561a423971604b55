/* fuzz_names.c — the name memory and the name lexicon (ner/names.c and its recognizers) on
 * arbitrary bytes: invalid UTF-8, words cut at every byte, joiners at the
 * edges, possessives.
 *
 * Input: bytes 0..3 seed the chunking (its top bit turns the lexicon on),
 * the rest is the text.  Teachers are
 * the runs of two or more words that start with an ASCII capital, one space
 * apart (a stand-in for the model's person spans).  Checked:
 *  - a reference run offers every teacher and scans the whole text at once;
 *  - a streamed run grows the view in random steps, drops the bytes more
 *    than NER_NAMES_REACH + NER_NAMES_SLACK before the scan position (and
 *    before the next teacher), offers each teacher
 *    once its bytes are in view, and scans to a random limit each time, as
 *    ner.c does; its spans equal the reference's exactly;
 *  - without the lexicon, every span is a whole word (or the word before a
 *    possessive "'s"), equal to a word of a teacher that ends at or before
 *    its start or starts after it, at most NER_NAMES_REACH bytes on (the
 *    reach back); with it, every span starts with a capital letter.
 *
 * FUZZ_ARGS: -max_len=4096
 */
#include <string.h>

#include "fuzz.h"
#include "ner/ner_internal.h"

static const char *const PERSON = "private_person";

typedef struct teacher {
    size_t s, e;
} teacher;

static int cap_ascii(uint8_t c)
{
    return c >= 'A' && c <= 'Z';
}

static int alpha_ascii(uint8_t c)
{
    return cap_ascii(c) || (c >= 'a' && c <= 'z');
}

/* Runs of >= 2 capitalised ASCII words, one space apart. */
static size_t find_teachers(const uint8_t *t, size_t n, teacher *out, size_t cap)
{
    size_t k = 0, i = 0;
    while (i < n && k < cap) {
        if (!cap_ascii(t[i]) || (i > 0 && (alpha_ascii(t[i - 1]) || t[i - 1] >= 0x80))) {
            i++;
            continue;
        }
        size_t s = i, words = 0, e = i;
        while (i < n && cap_ascii(t[i])) {
            while (i < n && alpha_ascii(t[i]))
                i++;
            words++;
            e = i;
            if (i + 1 < n && t[i] == ' ' && cap_ascii(t[i + 1]))
                i++;
            else
                break;
        }
        if (words >= 2 && (e == n || (!alpha_ascii(t[e]) && t[e] < 0x80)))
            out[k++] = (teacher){s, e};
        if (i == s)
            i++;
    }
    return k;
}

static void offer(ner_names *m, const ner_text *tx, const teacher *t, ner_resolver *rs)
{
    pii_span sp = {t->s, t->e, PERSON, NULL, 0.5f, PII_SRC_MODEL};
    FUZZ_CHECK(pii_ner_names_offer(m, tx, &sp, PERSON, rs) == PII_OK);
}

/* First byte a teacher's reach back needs in view (NER_NAMES_REACH, less
 * the NER_NAMES_SLACK that shows where a word starts). */
static size_t reach_from(const teacher *t)
{
    size_t r = NER_NAMES_REACH + NER_NAMES_SLACK;
    return t->s > r ? t->s - r : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4)
        return 0;
    uint64_t seed = (uint64_t)data[0] | (uint64_t)data[1] << 8 | (uint64_t)data[2] << 16 |
                    (uint64_t)data[3] << 24;
    const uint8_t *text = data + 4;
    size_t n = size - 4;
    teacher tch[256];
    size_t nt = find_teachers(text, n, tch, 256);

    int lexicon = (int)(seed >> 31);

    /* reference */
    ner_names m = {0};
    pii_ner_names_reset(&m);
    m.memory = 1;
    m.lexicon = lexicon;
    ner_resolver rs = {0};
    ner_text all = {text, 0, n};
    for (size_t i = 0; i < nt; i++)
        offer(&m, &all, &tch[i], &rs);
    uint64_t pos = 0;
    FUZZ_CHECK(pii_ner_names_scan(&m, &all, &pos, n, 1, PERSON, &rs) == PII_OK);
    FUZZ_CHECK(pos == n);
    pii_spanvec ref = {0};
    FUZZ_CHECK(pii_ner_resolver_flush(&rs, UINT64_MAX, &ref) == PII_OK);
    pii_ner_resolver_free(&rs);
    pii_ner_names_free(&m);

    /* each span: a whole word, taught before it or within reach after it */
    for (size_t i = 0; i < ref.n; i++) {
        size_t s = (size_t)ref.v[i].start, e = (size_t)ref.v[i].end;
        FUZZ_CHECK(s < e && e <= n && (lexicon || cap_ascii(text[s])));
        FUZZ_CHECK(s == 0 || !alpha_ascii(text[s - 1]));
        if (lexicon)
            continue; /* a lexicon pair is taught by no teacher */
        int taught = 0;
        for (size_t j = 0; j < nt && !taught; j++)
            for (size_t p = tch[j].s;
                 (tch[j].e <= s || (e <= tch[j].s && s + NER_NAMES_REACH >= tch[j].s)) &&
                 p + (e - s) <= tch[j].e && !taught;
                 p++)
                taught = !memcmp(text + p, text + s, e - s) &&
                         (p == tch[j].s || text[p - 1] == ' ') &&
                         (p + (e - s) == tch[j].e || text[p + (e - s)] == ' ');
        FUZZ_CHECK(taught);
    }

    /* streamed */
    ner_names ms = {0};
    pii_ner_names_reset(&ms);
    ms.memory = 1;
    ms.lexicon = lexicon;
    ner_resolver rss = {0};
    uint64_t rng = seed, spos = 0;
    size_t seen = 0, next_t = 0, avg = 1 + (size_t)(seed % 64);
    for (;;) {
        size_t step = (size_t)(fuzz_rand(&rng) % (2 * avg + 1));
        seen = seen + step < n ? seen + step : n;
        int eod = seen == n && fuzz_rand(&rng) % 2;
        /* the view: from the reach back of a span starting at the scan
         * position (a lexicon pair) or at the next teacher */
        teacher at_scan = {(size_t)spos, (size_t)spos};
        size_t base = reach_from(&at_scan);
        if (next_t < nt && reach_from(&tch[next_t]) < base)
            base = reach_from(&tch[next_t]);
        ner_text tx = {text + base, base, seen - base};
        while (next_t < nt && tch[next_t].e <= seen)
            offer(&ms, &tx, &tch[next_t++], &rss);
        /* every teacher ending at or before lim is offered */
        size_t lim = eod ? seen : (size_t)(fuzz_rand(&rng) % (seen + 1));
        if (next_t < nt && tch[next_t].e <= lim)
            lim = tch[next_t].e - 1;
        if (lim < spos)
            lim = (size_t)spos;
        uint64_t before = spos;
        FUZZ_CHECK(pii_ner_names_scan(&ms, &tx, &spos, lim, eod, PERSON, &rss) == PII_OK);
        FUZZ_CHECK(spos >= before);
        if (eod) {
            FUZZ_CHECK(spos == n);
            break;
        }
    }
    pii_spanvec got = {0};
    FUZZ_CHECK(pii_ner_resolver_flush(&rss, UINT64_MAX, &got) == PII_OK);
    FUZZ_CHECK(got.n == ref.n);
    for (size_t i = 0; i < ref.n; i++)
        FUZZ_CHECK(got.v[i].start == ref.v[i].start && got.v[i].end == ref.v[i].end);
    pii_ner_resolver_free(&rss);
    pii_ner_names_free(&ms);
    free(ref.v);
    free(got.v);
    return 0;
}
