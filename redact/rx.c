/* rx.c — the streaming PCRE2 scanner behind the rule tier and the deny list
 * (contract in rx.h). */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rx.h"

/* JIT stack per stream state: the bounded patterns need little, but a long
 * alternation with captures inside repeats is cheaper with room to spare. */
#define RX_JIT_STACK_MIN (32 * 1024)
#define RX_JIT_STACK_MAX (1024 * 1024)

/* Generous: every pattern is bounded, this only stops a runaway. */
#define RX_MATCH_LIMIT 100000000u

size_t pii_rx_complete_prefix(const uint8_t *p, size_t n)
{
    /* Find the last lead byte among the final 4 bytes. */
    size_t i = n, back = 0;
    while (i > 0 && back < 4) {
        uint8_t c = p[i - 1];
        if ((c & 0xC0) != 0x80) {
            size_t need;
            if (c < 0xC2)
                return n; /* ASCII or a byte that never leads: complete */
            else if (c < 0xE0)
                need = 2;
            else if (c < 0xF0)
                need = 3;
            else if (c < 0xF5)
                need = 4;
            else
                return n;
            return (n - (i - 1) < need) ? i - 1 : n;
        }
        i--;
        back++;
    }
    return n; /* only continuation bytes: invalid whatever follows */
}

static void set_msg(char *msg, size_t msgcap, int ec, size_t off)
{
    if (!msg || !msgcap)
        return;
    PCRE2_UCHAR m[160];
    if (pcre2_get_error_message(ec, m, sizeof m) < 0)
        strcpy((char *)m, "unknown error");
    snprintf(msg, msgcap, "%s at offset %zu", (const char *)m, off);
}

static pcre2_code *compile1(const char *pattern, uint32_t opts, int use_jit, int *jit_ok,
                            pii_err *err, char *msg, size_t msgcap)
{
    int ec = 0;
    PCRE2_SIZE eo = 0;
    pcre2_code *code = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
                                     PCRE2_UTF | PCRE2_MATCH_INVALID_UTF | opts, &ec, &eo, NULL);
    if (!code) {
        set_msg(msg, msgcap, ec, (size_t)eo);
        *err = ec == PCRE2_ERROR_HEAP_FAILED ? PII_ENOMEM : PII_EREGEX;
        return NULL;
    }
    *jit_ok = use_jit && pcre2_jit_compile(code, PCRE2_JIT_COMPLETE | PCRE2_JIT_PARTIAL_HARD) == 0;
    return code;
}

/* Length (1-4) of the well-formed UTF-8 sequence at p[i], or 0. */
static size_t utf8_seq(const uint8_t *p, size_t i, size_t n)
{
    return pii_utf8_valid(p + i, p + n);
}

pii_err pii_rx_compile(pii_rx *rx, const char *pattern, uint32_t extra_opts, int use_jit,
                       int anchored, char *msg, size_t msgcap)
{
    pii_err e = PII_OK;
    int jit = 0;
    rx->code = rx->acode = NULL;
    rx->jit = 0;
    /* One copy: the anchored one for a prefilter's candidates, else the
     * unanchored one (compiling and JIT-compiling both cost twice). */
    pcre2_code *code = compile1(pattern, extra_opts | (anchored ? PCRE2_ANCHORED : 0), use_jit,
                                &jit, &e, msg, msgcap);
    if (!code)
        return e;
    uint32_t lb = 0;
    if (pcre2_pattern_info(code, PCRE2_INFO_MAXLOOKBEHIND, &lb) != 0)
        lb = 0;
    /* A lookbehind of lb characters reads at most 4*lb bytes; the margin
     * covers the backward UTF-8 decoding around an invalid sequence and the
     * prefilter's look at the previous byte. */
    rx->ctx = 4 * (size_t)lb + 8;
    if (anchored)
        rx->acode = code;
    else
        rx->code = code;
    rx->jit = jit;
    return PII_OK;
}

void pii_rx_destroy(pii_rx *rx)
{
    if (!rx)
        return;
    pcre2_code_free((pcre2_code *)rx->code);
    pcre2_code_free((pcre2_code *)rx->acode);
    rx->code = rx->acode = NULL;
}

/* ---- per-stream state ------------------------------------------------ */

typedef struct rx_state {
    const pii_rx *rx;
    pcre2_match_data *md;
    pcre2_match_context *mctx;
    pcre2_jit_stack *js;
    uint64_t pos; /* next start position (document offset)            */
    uint64_t keep;
} rx_state;

static int rx_callout(pcre2_callout_block *cb, void *data)
{
    const pii_rx *rx = data;
    uint32_t n = cb->callout_number;
    if (n == 0 || n > rx->nalt || !rx->alts[n - 1].check)
        return 0;
    const pii_rx_alt *a = &rx->alts[n - 1];
    size_t s = cb->start_match, e = cb->current_position;
    if (a->vgroup) {
        if (a->vgroup >= cb->capture_top)
            return 1;
        s = cb->offset_vector[2 * a->vgroup];
        e = cb->offset_vector[2 * a->vgroup + 1];
        if (s == PCRE2_UNSET || e == PCRE2_UNSET)
            return 1;
    }
    if (e < s)
        return 1;
    return a->check(cb->subject + s, e - s) ? 0 : 1;
}

static void rx_close(void *st)
{
    rx_state *s = st;
    if (!s)
        return;
    pcre2_match_data_free(s->md);
    pcre2_match_context_free(s->mctx);
    pcre2_jit_stack_free(s->js);
    free(s);
}

static void *rx_open(const void *shared, pii_err *err)
{
    const pii_rx *rx = shared;
    rx_state *s = calloc(1, sizeof *s);
    if (!s)
        goto nomem;
    s->rx = rx;
    s->md = pcre2_match_data_create_from_pattern(pii_rx_code(rx), NULL);
    s->mctx = pcre2_match_context_create(NULL);
    if (!s->md || !s->mctx)
        goto nomem;
    if (rx->jit) {
        s->js = pcre2_jit_stack_create(RX_JIT_STACK_MIN, RX_JIT_STACK_MAX, NULL);
        if (!s->js)
            goto nomem;
        pcre2_jit_stack_assign(s->mctx, NULL, s->js);
    }
    pcre2_set_callout(s->mctx, rx_callout, (void *)rx);
    pcre2_set_match_limit(s->mctx, RX_MATCH_LIMIT);
    if (err)
        *err = PII_OK;
    return s;
nomem:
    rx_close(s);
    if (err)
        *err = PII_ENOMEM;
    return NULL;
}

static void rx_reset(void *st)
{
    rx_state *s = st;
    s->pos = 0;
    s->keep = 0;
}

static pii_err rx_error(int rc)
{
    switch (rc) {
    case PCRE2_ERROR_NOMEMORY:
        return PII_ENOMEM;
    case PCRE2_ERROR_MATCHLIMIT:
    case PCRE2_ERROR_DEPTHLIMIT:
    case PCRE2_ERROR_HEAPLIMIT:
    case PCRE2_ERROR_JIT_STACKLIMIT:
        return PII_ETOOBIG;
    default:
        return PII_EREGEX;
    }
}

/* Index of the alternative named by the match's (*MARK). */
static long rx_alt_of(const rx_state *s)
{
    PCRE2_SPTR m = pcre2_get_mark(s->md);
    if (!m || !*m)
        return -1;
    char *end = NULL;
    long i = strtol((const char *)m, &end, 10);
    if (*end || i < 0 || (size_t)i >= s->rx->nalt)
        return -1;
    return i;
}

static int rx_match(const rx_state *s, const pcre2_code *code, const uint8_t *buf, size_t lim,
                    size_t at, uint32_t opts)
{
    if (s->rx->jit)
        return pcre2_jit_match(code, buf, lim, at, opts, s->md, s->mctx);
    return pcre2_match(code, buf, lim, at, opts, s->md, s->mctx);
}

/* A complete match [ms, me) (buffer offsets) of alternative alt; returns
 * PII_OK to go on, PII_EINTERNAL + 1000 (RX_STOP) to stop the search there,
 * or an error. */
#define RX_STOP ((pii_err)1000)
typedef pii_err (*rx_on_match)(void *ctx, size_t ms, size_t me, long alt);

/* The span of a complete match: the whole match or the alternative's
 * value group. */
static int rx_span_of(const rx_state *s, int rc, const PCRE2_SIZE *ov, size_t *ms, size_t *me,
                      long *alt)
{
    long ai = rx_alt_of(s);
    if (ai < 0)
        return 0;
    *ms = ov[0];
    *me = ov[1];
    uint32_t g = s->rx->alts[ai].vgroup;
    if (g && (uint32_t)rc > g && ov[2 * g] != PCRE2_UNSET) {
        *ms = ov[2 * g];
        *me = ov[2 * g + 1];
    }
    *alt = ai;
    return 1;
}

/* The end of the run of ext's bytes from buf[i] (at most lim). */
static size_t rx_extend(const pii_rx_ext *x, const uint8_t *buf, size_t i, size_t lim)
{
    while (i < lim) {
        uint8_t c = buf[i];
        if (c < 0x80) {
            if (!x->ascii[c])
                break;
            i++;
        } else {
            size_t l = x->high ? utf8_seq(buf, i, lim) : 0;
            if (!l)
                break;
            i += l;
        }
    }
    return i;
}

/* Searches subject buf[fs, fe) from *at (buffer offsets), calling cb for
 * every complete match.  On return *at is the next position to search (fe
 * when the fragment is done); *stop is 1 after a partial match at *at, 2
 * when cb asked to stop (then *at is the end of that match). */
static pii_err rx_search(rx_state *s, const uint8_t *buf, size_t fs, size_t fe, size_t *at,
                         uint32_t opts, int fe_is_end, rx_on_match cb, void *ctx, int *stop)
{
    const pii_rx *rx = s->rx;
    int pre = rx->acode != NULL;
    const pcre2_code *code = pii_rx_code(rx);
    pii_rx_pfcache pc;
    memset(&pc, 0, sizeof pc);
    size_t a = *at;
    *stop = 0;
    while (a < fe) {
        if (pre) {
            a = rx->prefilter(buf, a, fe, fe_is_end, &pc);
            if (a >= fe) {
                a = fe;
                break;
            }
        }
        int rc = rx_match(s, code, buf + fs, fe - fs, a - fs, opts);
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(s->md);
        if (rc >= 0) {
            size_t ms, me;
            long alt;
            if (!rx_span_of(s, rc, ov, &ms, &me, &alt))
                return PII_EINTERNAL;
            const pii_rx_ext *x = rx->alts[alt].ext;
            if (x && fs + me == fe && !fe_is_end) {
                if (fs + ov[0] > a) /* the value may go on: undecided */
                    a = fs + ov[0];
                *stop = 1;
                break;
            }
            if (x && fs + me < fe && (buf[fs + me] < 0x80 ? x->gate[buf[fs + me]] != 0 : x->high)) {
                size_t xe = rx_extend(x, buf, fs + me, fe);
                if (xe >= fe && !fe_is_end) {
                    /* the value may go on past the buffer: undecided */
                    if (fs + ov[0] > a)
                        a = fs + ov[0];
                    *stop = 1;
                    break;
                }
                while (xe > fs + me && buf[xe - 1] < 0x80 && x->notlast[buf[xe - 1]])
                    xe--;
                if (x->tail) {
                    size_t te = x->tail(buf, xe, fe, fe_is_end);
                    if (te == PII_RX_UNDECIDED) {
                        if (fs + ov[0] > a)
                            a = fs + ov[0];
                        *stop = 1;
                        break;
                    }
                    xe = te;
                }
                if (xe - fs > ov[1])
                    ov[1] = xe - fs;
                me = xe - fs;
            }
            size_t next = fs + ov[1] > a ? fs + ov[1] : a + 1;
            pii_err e = me > ms ? cb(ctx, fs + ms, fs + me, alt) : PII_OK;
            a = next;
            if (e == RX_STOP) {
                *stop = 2;
                break;
            }
            if (e != PII_OK)
                return e;
        } else if (rc == PCRE2_ERROR_PARTIAL) {
            if (fs + ov[0] > a)
                a = fs + ov[0];
            *stop = 1;
            break;
        } else if (rc == PCRE2_ERROR_NOMATCH) {
            if (!pre) {
                a = fe;
                break;
            }
            a++; /* the prefilter never proposes a continuation byte */
        } else {
            return rx_error(rc);
        }
    }
    *at = a;
    return PII_OK;
}

/* Runs the search over buf[0, lim) from *at: JIT code on the whole buffer,
 * the interpreter fragment by fragment (see below).  *stop as rx_search. */
static pii_err rx_run(rx_state *s, const uint8_t *buf, size_t lim, size_t *at, int eod,
                      rx_on_match cb, void *ctx, int *stop)
{
    uint32_t opts = eod ? 0 : PCRE2_PARTIAL_HARD;
    *stop = 0;
    if (s->rx->jit) {
        /* JIT code treats invalid UTF-8 as a barrier no match crosses, with
         * the same result whatever the subject's extent. */
        return rx_search(s, buf, 0, lim, at, opts, eod, cb, ctx, stop);
    }
    /* The 10.42 interpreter does not give chunk-independent results around
     * invalid UTF-8 under partial matching, so it only ever sees valid
     * fragments: an invalid sequence ends the subject (a true end, no
     * partial match) exactly as the JIT treats it as a barrier.  A fragment
     * starts at the buffer start or after an invalid byte; the ctx bytes of
     * left context keep lookbehinds identical. */
    size_t i = 0, fs = 0, a = *at;
    while (i < a) {
        size_t l = utf8_seq(buf, i, lim);
        i += l ? l : 1;
        if (!l)
            fs = i;
    }
    pii_err e = PII_OK;
    while (e == PII_OK && !*stop && a < lim) {
        if (!utf8_seq(buf, a, lim)) {
            a++;
            fs = a;
            continue;
        }
        size_t fe = a;
        while (fe < lim) {
            size_t l = utf8_seq(buf, fe, lim);
            if (!l)
                break;
            fe += l;
        }
        int real_end = fe == lim;
        e = rx_search(s, buf, fs, fe, &a, real_end ? opts : 0, real_end ? eod : 1, cb, ctx, stop);
    }
    *at = a;
    return e;
}

typedef struct push_ctx {
    const pii_rx *rx;
    uint64_t base;
    pii_spanvec *out;
} push_ctx;

static pii_err push_span(void *ctx, size_t ms, size_t me, long alt)
{
    push_ctx *c = ctx;
    pii_span sp = {.start = c->base + ms,
                   .end = c->base + me,
                   .label = c->rx->alts[alt].label,
                   .rule = c->rx->alts[alt].id,
                   .score = 1.0f,
                   .source = c->rx->source};
    return pii_spanvec_push(c->out, &sp);
}

static pii_err rx_scan(void *st, const uint8_t *buf, size_t len, uint64_t base, int eod,
                       pii_spanvec *out, uint64_t *done, uint64_t *keep)
{
    rx_state *s = st;
    const pii_rx *rx = s->rx;
    uint64_t end = base + len;
    if (base > s->keep || s->pos < s->keep || (len && !buf))
        return PII_EINVAL; /* the buffer must start at or before keep */
    size_t lim = eod ? len : pii_rx_complete_prefix(buf, len);
    size_t at = (size_t)(s->pos - base);
    if (at > lim)
        at = lim; /* a previous scan saw bytes now left out (cannot happen) */
    int stop = 0;
    push_ctx pc = {rx, base, out};
    pii_err e = rx_run(s, buf, lim, &at, eod, push_span, &pc, &stop);
    if (e != PII_OK)
        return e;
    s->pos = base + at;
    if (eod) {
        *done = end;
        *keep = end;
        s->keep = end;
        return PII_OK;
    }
    uint64_t k = s->pos > rx->ctx ? s->pos - rx->ctx : 0;
    if (k < s->keep)
        k = s->keep;
    s->keep = k;
    *done = s->pos;
    *keep = k;
    if (end - k > rx->max_hold)
        return PII_ETOOBIG;
    return PII_OK;
}

/* ---- one step, for detectors that merge the regex search with another ---- */

typedef struct step_ctx {
    size_t ms, me;
    long alt;
} step_ctx;

static pii_err step_first(void *ctx, size_t ms, size_t me, long alt)
{
    step_ctx *c = ctx;
    c->ms = ms;
    c->me = me;
    c->alt = alt;
    return RX_STOP;
}

void *pii_rx_state_open(const pii_rx *rx, pii_err *err)
{
    return rx_open(rx, err);
}

void pii_rx_state_close(void *st)
{
    rx_close(st);
}

int pii_rx_step(void *st, const uint8_t *buf, size_t lim, size_t at, int eod, size_t *ms,
                size_t *me, long *alt, pii_err *err)
{
    rx_state *s = st;
    step_ctx c = {0, 0, -1};
    int stop = 0;
    *err = rx_run(s, buf, lim, &at, eod, step_first, &c, &stop);
    if (*err != PII_OK)
        return -1;
    if (stop == 2) {
        *ms = c.ms;
        *me = c.me;
        *alt = c.alt;
        return 1;
    }
    if (stop == 1) {
        *ms = at;
        return 2;
    }
    return 0;
}

const pii_detector_class pii_rx_detector_class = {
    .name = "regex",
    .open = rx_open,
    .scan = rx_scan,
    .reset = rx_reset,
    .close = rx_close,
};

pii_err pii_rx_scan_all(const pii_rx *rx, const uint8_t *text, size_t len, pii_spanvec *out)
{
    pii_err e = PII_OK;
    void *st = rx_open(rx, &e);
    if (!st)
        return e;
    uint64_t done = 0, keep = 0;
    e = rx_scan(st, text, len, 0, 1, out, &done, &keep);
    rx_close(st);
    return e;
}
