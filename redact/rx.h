/* rx.h — private: a streaming PCRE2 scanner shared by the rule tier
 * (rules.c) and the deny list (lists.c).
 *
 * One compiled pattern is an alternation; each alternative ends with
 * (*MARK:i) naming entry i of the alternative table, and, when the entry has
 * a validator, a numbered callout (?C<i+1>) that runs it.  An entry's span
 * is the whole match, or capture group `vgroup` when non-zero (a rule that
 * matches "password=" but reports only the value).  A validator sees the
 * bytes of the would-be span and returns non-zero to accept; a rejection
 * makes PCRE2 backtrack as if an assertion had failed, so shorter variants
 * and later alternatives are still tried.  (\K is not used: the PCRE2 10.42
 * interpreter does not move a callout's start_match for it.)
 *
 * Semantics ("one-shot"): the document is searched left to right with
 * PCRE2's ordinary leftmost-first semantics.  After a match [s, e) the
 * search resumes at e (spans never overlap, and come out sorted).  A
 * validator's decision depends only on the span bytes, so the result is a
 * pure function of the document.
 *
 * With a prefilter (rules.c), the search tries the anchored compile of the
 * pattern only at the positions the prefilter cannot rule out; since the
 * prefilter is conservative and an unanchored search is the sequence of
 * anchored attempts at successive character positions, the result is the
 * same (tests compare the two modes).
 *
 * Streaming: each scan() runs the same search over the sliding buffer with
 * PCRE2_PARTIAL_HARD (except at end of document).  A complete match is
 * final; a partial match starting at p means "nothing before p can still
 * start a match, p is undecided"; no match means every start before the
 * buffer end is decided.  A trailing incomplete UTF-8 sequence is left out
 * of the subject until its next bytes arrive.  The state keeps `ctx` bytes
 * of left context before its next start position for lookbehinds (4 bytes
 * per lookbehind character plus a margin).  The bytes held back
 * (end - keep) are therefore at most the longest match attempt plus ctx;
 * if they would exceed max_hold the scan fails with PII_ETOOBIG (fail
 * closed) rather than guess.  Thread safety: a pii_rx is immutable after
 * compilation and may be shared; each state belongs to one thread. */
#ifndef PII_RX_H
#define PII_RX_H

#include <stddef.h>
#include <stdint.h>

#include "pii_redact.h"

/* Returns non-zero to accept the span bytes p[0..n). */
typedef int (*pii_rx_check)(const uint8_t *p, size_t n);

/* The bytes that continue a value past its match (a rule whose quantifier
 * has a cap): ASCII bytes by table, and with `high` any valid UTF-8
 * sequence of a non-ASCII character.  After a complete match of such an
 * alternative the span grows over every following byte of the class, so
 * a value longer than the cap is redacted whole (linear work, no
 * backtracking); when the run reaches the end of the buffer before the end
 * of the document, the match is undecided (held back, as a partial match)
 * and bounded by max_hold (PII_ETOOBIG beyond: fail closed). */
typedef struct pii_rx_ext {
    uint8_t ascii[128];   /* ASCII bytes that continue the value           */
    uint8_t gate[128];    /* the match hit its cap: the next byte is one of
                           * these (or non-ASCII, with high)              */
    uint8_t notlast[128]; /* never the last byte of an extension ('.')     */
    int high;
    /* NULL, or the value's closing part after the run (a PEM block's END
     * line): given the run's end i, returns the end of the closing part
     * that starts at i (i when none), reading at most a bounded number of
     * bytes of buf[i, lim); PII_RX_UNDECIDED when lim comes first and more
     * bytes may follow (!eod). */
    size_t (*tail)(const uint8_t *buf, size_t i, size_t lim, int eod);
} pii_rx_ext;
#define PII_RX_UNDECIDED ((size_t)-1)

typedef struct pii_rx_alt {
    const char *id;        /* rule id reported in pii_span.rule             */
    const char *label;     /* label reported in pii_span.label              */
    pii_rx_check check;    /* NULL: no validator                            */
    uint32_t vgroup;       /* capture group of the span; 0: the whole match  */
    const pii_rx_ext *ext; /* NULL: the span ends with the match          */
} pii_rx_alt;

/* A prefilter: returns the first position q in [at, lim) where a match
 * might start, or lim.  It must be conservative: it may return a position
 * where nothing matches, never skip one where something does (with bytes
 * past lim unknown unless eod).  buf[0..lim) is the scan buffer; bytes
 * before `at` (left context) may be read.  cache is zeroed at the start of
 * each scan call. */
typedef struct pii_rx_pfcache {
    size_t run_lo, run_hi; /* a cached run [run_lo, run_hi)            */
    size_t digit;          /* next digit at or after digit_from, or lim */
    size_t digit_from;
    int valid;
} pii_rx_pfcache;
typedef size_t (*pii_rx_prefilter)(const uint8_t *buf, size_t at, size_t lim, int eod,
                                   pii_rx_pfcache *cache);

typedef struct pii_rx {
    void *code;             /* pcre2_code_8 *, unanchored, or NULL         */
    void *acode;            /* the pattern compiled anchored, or NULL      */
    int jit;                /* JIT code available                          */
    const pii_rx_alt *alts; /* borrowed, indexed by the (*MARK:i) names    */
    size_t nalt;
    size_t ctx;                 /* left context kept before the next start     */
    size_t max_hold;            /* cap on end - keep while streaming           */
    pii_source source;          /* reported in pii_span.source                 */
    pii_rx_prefilter prefilter; /* with acode: try only where it says       */
} pii_rx;

/* Default cap on the bytes one state may hold back. */
#define PII_RX_MAX_HOLD ((size_t)1 << 20)

/* Compiles `pattern` (UTF-8, PCRE2 syntax) with PCRE2_UTF |
 * PCRE2_MATCH_INVALID_UTF | extra_opts, JIT-compiles it when use_jit (for
 * complete and hard-partial matching) and fills rx->code (unanchored), jit
 * and ctx; with anchored, rx->acode instead (code stays NULL), and the
 * caller must set a prefilter: the search then runs only the anchored code
 * at the prefilter's candidates.  The caller sets alts, nalt, max_hold,
 * source and prefilter.  On error, writes a message naming the offset into
 * msg. */
pii_err pii_rx_compile(pii_rx *rx, const char *pattern, uint32_t extra_opts, int use_jit,
                       int anchored, char *msg, size_t msgcap);
void pii_rx_destroy(pii_rx *rx);

/* The compiled pattern (pcre2_code_8 *): code, or acode when anchored. */
static inline void *pii_rx_code(const pii_rx *rx)
{
    return rx->code ? rx->code : rx->acode;
}

/* The detector class; shared = const pii_rx *. */
extern const pii_detector_class pii_rx_detector_class;

/* One-shot: every span of a whole document. */
pii_err pii_rx_scan_all(const pii_rx *rx, const uint8_t *text, size_t len, pii_spanvec *out);

/* For a detector that merges this search with another (the deny list):
 * a state, and one step: the first event at or after `at` in buf[0, lim)
 * (buffer offsets; lim already cut by pii_rx_complete_prefix unless eod).
 * Returns 1 for a complete match (span [*ms, *me), alternative *alt), 2 for
 * a partial match starting at *ms (undecided from there), 0 for none up to
 * lim, -1 on error (*err). */
void *pii_rx_state_open(const pii_rx *rx, pii_err *err);
void pii_rx_state_close(void *st);
int pii_rx_step(void *st, const uint8_t *buf, size_t lim, size_t at, int eod, size_t *ms,
                size_t *me, long *alt, pii_err *err);

/* Length of the longest prefix of p[0..n) that does not end inside a UTF-8
 * sequence that could still be completed by more bytes. */
size_t pii_rx_complete_prefix(const uint8_t *p, size_t n);

#endif
