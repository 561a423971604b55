/* fuzz_stream.c — the streaming engine: chunking never changes the output,
 * bytes outside spans are never changed, failures stop at a prefix.
 *
 * Input: byte 0 flags, byte 1 failure plan, bytes 2..5 chunking seed, the
 * rest is the text.  Each input is redacted
 *   1. in one feed (the reference), then
 *   2. in random chunks (0 .. 2*avg bytes, avg chosen by the seed),
 * with the rule tier, the deny list and four synthetic detectors (chosen by
 * the flags) whose hold-back patterns stress the engine: a look-back keep
 * below done, spans ending inside a UTF-8 sequence, spans that are decided
 * only far to the right, overlapping spans from several detectors.
 * Checked:
 *  - both runs give the same bytes, spans, code-point offsets and documents;
 *  - spans are ordered, disjoint, inside their document, and each span's
 *    value is the input bytes it covers;
 *  - the output is exactly the input with each span replaced by its
 *    operator's output (computed independently): bytes outside spans are
 *    unchanged, none is dropped or duplicated;
 *  - code-point offsets equal an independent count;
 *  - with an injected failure (a detector scan or a sink write, from the
 *    failure plan) the stream returns an error, the output is a prefix of
 *    the reference output, and later feeds keep failing.
 * Flags: bit 0 --lines mode (end_doc after each '\n'); bit 1 rule tier;
 * bit 2 synthetic detectors; bit 3 exclude private_phone; bits 4-6
 * operator set; bit 7 deny list.
 *
 * FUZZ_ARGS: -max_len=16384
 */
#include <string.h>

#include "fuzz.h"
#include "pii_fault.h"
#include "pii_redact.h"

#include "fuzz_util.inc"

/* ---- synthetic detectors -------------------------------------------------- */

enum { SYN_DIGITS, SYN_BRACKET, SYN_HIGH, SYN_CAPWORD, SYN_N };

typedef struct syn {
    int kind;
    uint64_t pos; /* next offset to examine */
} syn;

static const int syn_kinds[SYN_N] = {SYN_DIGITS, SYN_BRACKET, SYN_HIGH, SYN_CAPWORD};

static void *syn_open(const void *shared, pii_err *err)
{
    syn *s = calloc(1, sizeof *s);
    if (s)
        s->kind = *(const int *)shared;
    *err = s ? PII_OK : PII_ENOMEM;
    return s;
}

static void syn_reset(void *st)
{
    ((syn *)st)->pos = 0;
}

static int is_digit(uint8_t c)
{
    return c >= '0' && c <= '9';
}
static int is_upper(uint8_t c)
{
    return c >= 'A' && c <= 'Z';
}
static int is_lower(uint8_t c)
{
    return c >= 'a' && c <= 'z';
}

static pii_err push(pii_spanvec *out, uint64_t a, uint64_t b, const char *label, const char *rule)
{
    pii_span sp = {a, b, label, rule, 0.5f, PII_SRC_MODEL};
    return pii_spanvec_push(out, &sp);
}

/* digits: maximal digit runs of >= 3 → private_phone; keeps 8 bytes of
 * look-back below done (keep < done).
 * bracket: '[' up to the next ']' within 64 bytes → private_person; a '['
 * stays undecided until its ']' or 64 bytes are seen.
 * high: 3 bytes >= 0x80 after a byte < 0x80 → private_address [i, i+3),
 * which may end inside a UTF-8 sequence; needs byte i-1 (keep = done-1).
 * capword: an upper-case letter followed by >= 4 lower-case letters →
 * secret, overlapping the others freely. */
static pii_err syn_scan(void *st, const uint8_t *buf, size_t len, uint64_t base, int eod,
                        pii_spanvec *out, uint64_t *done, uint64_t *keep)
{
    syn *s = st;
    uint64_t end = base + len, i = s->pos;
    pii_err e = PII_OK;
#define AT(x) buf[(x)-base]
    while (i < end && !e) {
        uint64_t j = i;
        switch (s->kind) {
        case SYN_DIGITS:
            if (!is_digit(AT(i))) {
                i++;
                continue;
            }
            while (j < end && is_digit(AT(j)))
                j++;
            if (j == end && !eod)
                goto hold;
            if (j - i >= 3)
                e = push(out, i, j, "private_phone", "syn_digits");
            i = j;
            break;
        case SYN_BRACKET:
            if (AT(i) != '[') {
                i++;
                continue;
            }
            j = i + 1;
            while (j < end && j < i + 64 && AT(j) != ']')
                j++;
            if (j < end && j < i + 64) {
                e = push(out, i, j + 1, "private_person", "syn_bracket");
                i = j + 1;
            } else if (j == i + 64 || eod) {
                i++;
            } else {
                goto hold;
            }
            break;
        case SYN_HIGH:
            if (AT(i) < 0x80 || (i > 0 && AT(i - 1) >= 0x80)) {
                i++;
                continue;
            }
            if (i + 3 > end) {
                if (!eod)
                    goto hold;
                i = end;
                continue;
            }
            if (AT(i + 1) >= 0x80 && AT(i + 2) >= 0x80) {
                e = push(out, i, i + 3, "private_address", "syn_high");
                i += 3;
            } else {
                i++;
            }
            break;
        case SYN_CAPWORD:
            if (!is_upper(AT(i))) {
                i++;
                continue;
            }
            j = i + 1;
            while (j < end && is_lower(AT(j)))
                j++;
            if (j == end && !eod)
                goto hold;
            if (j - i >= 5)
                e = push(out, i, j, "secret", "syn_capword");
            i = j;
            break;
        }
    }
#undef AT
    if (e)
        return e;
    i = end;
hold:
    s->pos = i;
    *done = i;
    switch (s->kind) {
    case SYN_DIGITS:
        *keep = i >= 8 ? i - 8 : 0;
        break;
    case SYN_HIGH:
        *keep = i >= 1 ? i - 1 : 0;
        break;
    default:
        *keep = i;
    }
    if (*keep < base) /* never below what the stream still holds */
        *keep = base;
    return e;
}

static const pii_detector_class syn_cls = {"syn", syn_open, syn_scan, syn_reset, free, NULL};

/* ---- shared objects ------------------------------------------------------- */

static pii_rules *g_rules;
static pii_deny *g_deny;
static const uint8_t g_key[] = "fuzz-key-0123456789";

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    pii_err e;
    g_rules = pii_rules_create(&e);
    FUZZ_CHECK(g_rules);
    static const char deny[] = "# deny list of the stream fuzzer\n"
                               "Zorblax Wimbleton\n"
                               "private_person\tQuux\n"
                               "re:[Xx]yzzy[0-9]+\n"
                               "secret\tre:K[0-9]{3}\n";
    const char *path = fuzz_tmpfile("deny.txt", deny, sizeof deny - 1, 0600);
    char msg[256];
    g_deny = pii_deny_load(path, &e, msg, sizeof msg); /* NULL while lists are stubs */
    return 0;
}

/* Builds the operator set chosen by `which` (0: none, the stream's built-in
 * placeholder).  NULL when an operator is not available in this build. */
static pii_ops *make_ops(int which)
{
    static const char *const defs[8] = {NULL,   "placeholder", "mask:#:2", "remove",
                                        "hash", "pseudonym",   NULL,       "mask"};
    pii_op def;
    pii_err e;
    if (which == 0)
        return NULL;
    if (which == 6) {
        pii_op_default(&def, PII_OP_PLACEHOLDER);
        def.tmpl = "[{label}:{LABEL}]";
    } else if (pii_op_parse(defs[which], &def) != PII_OK) {
        return NULL;
    }
    pii_ops *o = pii_ops_create(&def, &e);
    if (!o)
        return NULL;
    int ok = pii_ops_set_key(o, g_key, sizeof g_key - 1) == PII_OK || def.kind != PII_OP_HASH;
    if (ok && which == 7) {
        pii_op rm, h;
        ok = pii_op_parse("remove", &rm) == PII_OK && pii_op_parse("hash:8", &h) == PII_OK &&
             pii_ops_set(o, "private_phone", &rm) == PII_OK &&
             pii_ops_set(o, "secret", &h) == PII_OK &&
             pii_ops_set_key(o, g_key, sizeof g_key - 1) == PII_OK;
    }
    if (ok)
        pii_ops_set_pseudonym_limit(o, 4);
    if (!ok || pii_ops_check(o) != PII_OK) {
        pii_ops_free(o);
        return NULL;
    }
    return o;
}

/* memcmp that accepts NULL for zero lengths. */
static int same(const void *a, const void *b, size_t n)
{
    return n == 0 || memcmp(a, b, n) == 0;
}

/* ---- capture -------------------------------------------------------------- */

typedef struct rec {
    size_t doc;
    pii_span s;
    uint64_t c0, c1;
    const uint8_t *val; /* points into the input (checked on arrival) */
} rec;

typedef struct cap {
    const uint8_t *text; /* the whole input, for value checks */
    const size_t *doc_start;
    size_t ndoc_max;
    uint8_t *out;
    size_t n, capn;
    rec *spans;
    size_t ns, caps;
    size_t docs;     /* end_doc calls */
    long fail_write; /* fail the n-th write call (0: never) */
    long writes;
} cap;

static pii_err cap_write(void *ud, const uint8_t *p, size_t n)
{
    cap *c = ud;
    if (c->fail_write && ++c->writes == c->fail_write)
        return PII_EWRITE;
    if (c->n + n > c->capn) {
        size_t k = c->capn ? c->capn : 256;
        while (k < c->n + n)
            k *= 2;
        c->out = realloc(c->out, k);
        FUZZ_CHECK(c->out);
        c->capn = k;
    }
    memcpy(c->out + c->n, p, n);
    c->n += n;
    return PII_OK;
}

static pii_err cap_span(void *ud, const pii_span *s, const uint8_t *value, size_t len, uint64_t c0,
                        uint64_t c1)
{
    cap *c = ud;
    FUZZ_CHECK(c->docs < c->ndoc_max);
    FUZZ_CHECK(s->start < s->end && len == s->end - s->start);
    size_t ds = c->doc_start[c->docs];
    FUZZ_CHECK(s->end <= c->doc_start[c->docs + 1] - ds);
    FUZZ_CHECK(same(value, c->text + ds + s->start, len));
    if (c->ns == c->caps) {
        c->caps = c->caps ? 2 * c->caps : 16;
        c->spans = realloc(c->spans, c->caps * sizeof *c->spans);
        FUZZ_CHECK(c->spans);
    }
    rec *r = &c->spans[c->ns++];
    r->doc = c->docs;
    r->s = *s;
    r->c0 = c0;
    r->c1 = c1;
    r->val = c->text + ds + s->start;
    return PII_OK;
}

static pii_err cap_end(void *ud)
{
    ((cap *)ud)->docs++;
    return PII_OK;
}

static void cap_free(cap *c)
{
    free(c->out);
    free(c->spans);
}

/* ---- runs ----------------------------------------------------------------- */

/* Feeds text as the CLI does: whole input one document, or one document per
 * line.  chunk == NULL: everything in one feed call.  Returns the first
 * error; after an error, checks that the stream stays failed. */
/* The wide-text guard's contract (pii_redact.h), written out naively. */
static int ptext(uint8_t c)
{
    return (c >= 0x20 && c < 0x7f) || c == '\t' || c == '\n' || c == '\r';
}

/* Rule 3: 16 UTF-16 units at d, high byte at offset hb (1 LE, 0 BE). */
static int naive_small(const uint8_t *d, int hb)
{
    int h = -1, nh = 0, distinct = 0;
    for (int k = 0; k < 16; k++) {
        uint8_t hi = d[2 * k + hb], lo = d[2 * k + 1 - hb];
        if (hi == 0) {
            if (!ptext(lo) && lo < 0xA0)
                return 0;
            continue;
        }
        if (h < 0)
            h = hi;
        if (hi != h || hi >= 0x20 || hi == '\t' || hi == '\n' || hi == '\r')
            return 0;
        int seen = 0;
        for (int j = 0; j < k; j++)
            seen |= d[2 * j + hb] == hi && d[2 * j + 1 - hb] == lo;
        distinct += !seen;
        nh++;
    }
    return nh >= 8 && distinct >= 4;
}

/* Rule 4: 128 bytes at d as 64 UTF-16 units. */
static int naive_cjk(const uint8_t *d, int hb)
{
    int changes = 0, z = 0, bad = 0;
    for (int k = 0; k < 64; k++) {
        uint8_t hi = d[2 * k + hb], lo = d[2 * k + 1 - hb];
        if (!((hi >= 0x20 && hi <= 0x9F) || (hi >= 0xAC && hi <= 0xD7) || (hi == 0 && ptext(lo)) ||
              (hi == 0xFF && lo >= 1 && lo <= 0xEF)))
            return 0;
        if (k && (d[2 * k] != d[2 * k - 2] || d[2 * k + 1] != d[2 * k - 1]))
            changes++;
    }
    for (int i = 0; i < 128; i++) {
        uint8_t c = d[i];
        z += c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != 0x1b;
        if (i &&
            ((c >= 0x80 && c <= 0xBF && d[i - 1] < 0x80) || c == 0xC0 || c == 0xC1 || c >= 0xF5))
            bad = 1;
    }
    return changes >= 8 && z >= 3 && bad;
}

static int naive_wide(const uint8_t *d, size_t n)
{
    if (n >= 2 && ((d[0] == 0xFF && d[1] == 0xFE) || (d[0] == 0xFE && d[1] == 0xFF)))
        return 1;
    if (n >= 4 && d[0] == 0 && d[1] == 0 && d[2] == 0xFE && d[3] == 0xFF)
        return 1;
    for (size_t s = 0; s < n; s++) {
        if (s + 8 <= n && ptext(d[s]) && !d[s + 1] && ptext(d[s + 2]) && !d[s + 3] &&
            ptext(d[s + 4]) && !d[s + 5] && ptext(d[s + 6]) && !d[s + 7])
            return 1;
        if (s + 9 <= n && ptext(d[s]) && !d[s + 1] && !d[s + 2] && !d[s + 3] && ptext(d[s + 4]) &&
            !d[s + 5] && !d[s + 6] && !d[s + 7] && ptext(d[s + 8]))
            return 1;
        if (s + 32 <= n && (naive_small(d + s, 1) || naive_small(d + s, 0)))
            return 1;
        if (s + 128 <= n && (naive_cjk(d + s, 1) || naive_cjk(d + s, 0)))
            return 1;
    }
    return 0;
}

static pii_err run(const pii_redactor *red, const uint8_t *text, size_t len, int lines,
                   uint64_t *chunk_seed, size_t avg, cap *c)
{
    pii_sink sink = {cap_write, cap_span, cap_end, c};
    pii_err e;
    pii_stream *st = pii_stream_create(red, &sink, &e);
    if (!st)
        return e;
    size_t off = 0;
    int pending = 0;
    e = PII_OK;
    while (off < len && !e) {
        size_t n = len - off;
        if (chunk_seed) {
            size_t want = (size_t)(fuzz_rand(chunk_seed) % (2 * avg + 1));
            if (want < n)
                n = want;
        }
        const uint8_t *p = text + off;
        size_t left = n;
        while (left && !e) {
            const uint8_t *nl = lines ? memchr(p, '\n', left) : NULL;
            size_t k = nl ? (size_t)(nl - p) + 1 : left;
            e = pii_stream_feed(st, p, k);
            pending = 1;
            if (!e && nl) {
                e = pii_stream_end_doc(st);
                pending = 0;
            }
            p += k;
            left -= k;
        }
        if (!e && n == 0)
            e = pii_stream_feed(st, p, 0); /* empty feeds are harmless */
        off += n;
    }
    if (!e && (pending || !lines))
        e = pii_stream_end_doc(st);
    if (e) {
        uint8_t x = 'x';
        FUZZ_CHECK(pii_stream_feed(st, &x, 1) == e);
        FUZZ_CHECK(pii_stream_end_doc(st) == e);
    }
    pii_stream_free(st);
    return e;
}

static int utf8_len(const uint8_t *p, const uint8_t *end)
{
    uint8_t c = p[0];
    int k;
    uint32_t min, cp;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        k = 2, min = 0x80, cp = c & 0x1F;
    else if (c >= 0xE0 && c <= 0xEF)
        k = 3, min = 0x800, cp = c & 0x0F;
    else if (c >= 0xF0 && c <= 0xF4)
        k = 4, min = 0x10000, cp = c & 0x07;
    else
        return 1;
    if (end - p < k)
        return 1;
    for (int i = 1; i < k; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 1;
        cp = (cp << 6) | (p[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 1;
    return k;
}

/* Code points of doc that start before x (an invalid byte counts one). */
static uint64_t cp_before(const uint8_t *doc, size_t dlen, uint64_t x)
{
    uint64_t n = 0;
    size_t i = 0;
    while (i < x) {
        i += (size_t)utf8_len(doc + i, doc + dlen);
        n++;
    }
    return n;
}

/* The expected output: the input with each recorded span replaced. */
static void expect(const uint8_t *text, const size_t *ds, size_t ndoc, const cap *c, int which,
                   pii_buf *exp)
{
    pii_ops *ops = make_ops(which);
    pii_buf rep = {0};
    size_t k = 0;
    for (size_t d = 0; d < ndoc; d++) {
        const uint8_t *doc = text + ds[d];
        size_t dlen = ds[d + 1] - ds[d];
        uint64_t cur = 0;
        for (; k < c->ns && c->spans[k].doc == d; k++) {
            const rec *r = &c->spans[k];
            FUZZ_CHECK(r->s.start >= cur && r->s.end <= dlen);
            FUZZ_CHECK(r->c0 == cp_before(doc, dlen, r->s.start));
            FUZZ_CHECK(r->c1 == cp_before(doc, dlen, r->s.end));
            FUZZ_CHECK(pii_buf_append(exp, doc + cur, r->s.start - cur) == PII_OK);
            rep.n = 0;
            if (ops) {
                FUZZ_CHECK(pii_ops_apply(ops, &r->s, r->val, r->s.end - r->s.start, &rep) ==
                           PII_OK);
            } else {
                char name[128];
                size_t n = pii_label_upper(r->s.label, name, sizeof name);
                FUZZ_CHECK(n < sizeof name);
                FUZZ_CHECK(pii_buf_append(&rep, "<", 1) == PII_OK);
                FUZZ_CHECK(pii_buf_append(&rep, name, n) == PII_OK);
                FUZZ_CHECK(pii_buf_append(&rep, ">", 1) == PII_OK);
            }
            FUZZ_CHECK(pii_buf_append(exp, rep.p, rep.n) == PII_OK);
            cur = r->s.end;
        }
        FUZZ_CHECK(pii_buf_append(exp, doc + cur, dlen - cur) == PII_OK);
    }
    FUZZ_CHECK(k == c->ns);
    pii_buf_free(&rep);
    pii_ops_free(ops);
}

static int same_spans(const cap *a, const cap *b)
{
    if (a->ns != b->ns)
        return 0;
    for (size_t i = 0; i < a->ns; i++) {
        const rec *x = &a->spans[i], *y = &b->spans[i];
        if (x->doc != y->doc || x->s.start != y->s.start || x->s.end != y->s.end ||
            strcmp(x->s.label, y->s.label) != 0 || x->s.source != y->s.source || x->c0 != y->c0 ||
            x->c1 != y->c1)
            return 0;
    }
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t flags = 0x06, plan = 0;
    uint64_t seed = 1;
    if (size >= 6) {
        flags = data[0];
        plan = data[1];
        seed = (uint64_t)data[2] | (uint64_t)data[3] << 8 | (uint64_t)data[4] << 16 |
               (uint64_t)data[5] << 24;
        data += 6;
        size -= 6;
    }
    int lines = flags & 1;
    int which_ops = (flags >> 4) & 7;

    /* Document boundaries as the runs will see them. */
    size_t ndoc = 0, *ds = malloc((size + 2) * sizeof *ds);
    FUZZ_CHECK(ds);
    ds[0] = 0;
    if (lines) {
        for (size_t i = 0; i < size; i++)
            if (data[i] == '\n')
                ds[++ndoc] = i + 1;
        if (ds[ndoc] < size)
            ds[++ndoc] = size;
    } else {
        ds[++ndoc] = size;
    }

    pii_err e;
    pii_redactor *red = pii_redactor_create(&e);
    FUZZ_CHECK(red);
    if (flags & 2)
        FUZZ_CHECK(pii_redactor_add_detector(red, pii_rules_detector(g_rules)) == PII_OK);
    if ((flags & 4) || !(flags & 2))
        for (int k = 0; k < SYN_N; k++) {
            pii_detector d = {&syn_cls, &syn_kinds[k]};
            FUZZ_CHECK(pii_redactor_add_detector(red, d) == PII_OK);
        }
    if ((flags & 0x80) && g_deny)
        FUZZ_CHECK(pii_redactor_add_detector(red, pii_deny_detector(g_deny)) == PII_OK);
    if (flags & 8) {
        const char *ex[] = {"private_phone"};
        FUZZ_CHECK(pii_redactor_select_labels(red, ex, 1, 1) == PII_OK);
    }

    /* 1. the reference: one feed (the wide-text guard off; step 4 tests it) */
    pii_redactor_set_wide_guard(red, 0);
    pii_ops *ops1 = make_ops(which_ops);
    pii_redactor_set_ops(red, ops1);
    cap ref = {data, ds, ndoc, NULL, 0, 0, NULL, 0, 0, 0, 0, 0};
    e = run(red, data, size, lines, NULL, 0, &ref);
    FUZZ_CHECK(e == PII_OK);
    FUZZ_CHECK(ref.docs == ndoc);
    pii_buf exp = {0};
    expect(data, ds, ndoc, &ref, which_ops, &exp);
    FUZZ_CHECK(exp.n == ref.n && same(exp.p, ref.out, ref.n));

    /* 2. random chunks */
    static const size_t avgs[4] = {1, 7, 100, 5000};
    size_t avg = avgs[seed & 3];
    uint64_t rs = seed;
    pii_ops *ops2 = make_ops(which_ops);
    pii_redactor_set_ops(red, ops2);
    cap ch = {data, ds, ndoc, NULL, 0, 0, NULL, 0, 0, 0, 0, 0};
    e = run(red, data, size, lines, &rs, avg, &ch);
    FUZZ_CHECK(e == PII_OK);
    FUZZ_CHECK(ch.docs == ref.docs);
    FUZZ_CHECK(same_spans(&ref, &ch));
    FUZZ_CHECK(ch.n == ref.n && same(ch.out, ref.out, ref.n));

    /* 3. fail closed: a detector scan or a sink write fails part-way */
    if (plan) {
        pii_ops *ops3 = make_ops(which_ops);
        pii_redactor_set_ops(red, ops3);
        cap fl = {data, ds, ndoc, NULL, 0, 0, NULL, 0, 0, 0, 0, 0};
        rs = seed ^ 0x5555;
        if (plan & 0x80)
            fl.fail_write = (plan & 0x7F) + 1;
        else
            pii_fault_set(PII_FAULT_SCAN, (uint64_t)plan, 0);
        e = run(red, data, size, lines, &rs, avg, &fl);
        pii_fault_reset();
        if (e != PII_OK)
            FUZZ_CHECK(e == PII_EWRITE || e == PII_EINJECTED);
        FUZZ_CHECK(fl.n <= ref.n && same(fl.out, ref.out, fl.n));
        if (e == PII_OK)
            FUZZ_CHECK(fl.n == ref.n);
        cap_free(&fl);
        pii_ops_free(ops3);
    }

    /* 4. the wide-text guard on: fails exactly when the contract says so,
     * having written a prefix of the reference, whatever the chunking */
    {
        pii_redactor_set_wide_guard(red, 1);
        int wide = naive_wide(data, size);
        pii_ops *ops4 = make_ops(which_ops);
        pii_redactor_set_ops(red, ops4);
        cap wg = {data, ds, ndoc, NULL, 0, 0, NULL, 0, 0, 0, 0, 0};
        rs = seed ^ 0xAAAA;
        e = run(red, data, size, lines, &rs, avg, &wg);
        FUZZ_CHECK(e == (wide ? PII_EENCODING : PII_OK));
        FUZZ_CHECK(wg.n <= ref.n && same(wg.out, ref.out, wg.n));
        if (!wide)
            FUZZ_CHECK(wg.n == ref.n);
        cap_free(&wg);
        pii_ops_free(ops4);
    }

    pii_buf_free(&exp);
    cap_free(&ref);
    cap_free(&ch);
    pii_redactor_free(red);
    pii_ops_free(ops1);
    pii_ops_free(ops2);
    free(ds);
    return 0;
}
