/* pii_redact.h — spans, detectors, operators and the streaming redactor.
 *
 * Data flow: bytes are fed to a pii_stream; the stream hands its sliding
 * buffer to every detector of its pii_redactor (the rule tier, the deny
 * list, the model tier), merges the spans they report, filters them (label
 * selection, allow list), and writes the input with each merged span
 * replaced by its operator's output.  Bytes outside spans are written
 * unchanged.  A byte is written only when every detector has decided it.
 *
 * Ownership and threads:
 *  - pii_rules, pii_allow, the loaded model and a configured pii_redactor are
 *    immutable after creation and may be shared by many streams/threads.
 *  - pii_ops holds run-wide state (pseudonym numbering) behind a mutex; it
 *    may be shared by streams in several threads.
 *  - a pii_stream (and each detector state it opens) belongs to one thread.
 *  - all *_free(NULL) are no-ops.
 * Offsets: UTF-8 byte offsets from the start of the current document,
 * half-open [start, end).
 */
#ifndef PII_REDACT_H
#define PII_REDACT_H

#include <stddef.h>
#include <stdint.h>

#include "pii_core.h"
#include "pii_error.h"

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API of libpiiredact.so */
#endif

/* ---- the wide-text guard (redact/wide.c) -------------------------------- */

/* Detects UTF-16 and UTF-32 text in a byte stream, which the detectors
 * (UTF-8 readers) cannot scan.  Feed it every input byte in order; it
 * fails (PII_EENCODING, sticky) as soon as the bytes so far hold
 *   1. a UTF-16 or UTF-32 byte-order mark at input offset 0 (FF FE, FE FF,
 *      00 00 FE FF), or, anywhere (a window starts at any byte offset):
 *   2. "P 00 P 00 P 00 P 00" or "P 00 00 00 P 00 00 00 P", P a printable
 *      ASCII byte, TAB, LF or CR: four ASCII characters in a row in
 *      UTF-16LE/BE, three in UTF-32LE/BE;
 *   3. 32 bytes read as 16 UTF-16 code units, little- or big-endian, whose
 *      high bytes are each 00 or one byte h in 01..1F other than TAB, LF,
 *      CR; at least 8 units have high byte h, with at least 4 different
 *      low bytes among them; each unit with high byte 00 has a low byte P
 *      or >= A0 — text in Greek, Cyrillic, Armenian, Hebrew, Arabic and
 *      the other scripts of U+0100..U+1FFF (but U+0900..U+0AFF and
 *      U+0D00..U+0DFF, whose high byte is TAB, LF or CR);
 *   4. 128 bytes read as 64 UTF-16 code units, little- or big-endian,
 *      whose high bytes are each in 20..9F (U+2000..U+9FFF: punctuation,
 *      kana, CJK), AC..D7 (Hangul), 00 with a low byte P, or FF with a low
 *      byte 01..EF (full-width forms); the unit changes at least 8 times
 *      from one to the next; the 128 bytes hold at least 3 bytes that are
 *      NUL or C0 controls other than TAB, LF, FF, CR, ESC, and a byte that
 *      cannot follow the byte before it in UTF-8 (80..BF after 00..7F, or
 *      C0, C1, F5..FF; both bytes in the window) — CJK and Hangul text.
 * UTF-8 text never contains 2 (no NUL bytes), 3 (eight C0 controls in 32
 * bytes at alternating offsets) or 4 (ill-formed UTF-8); random binary data
 * matches 2 about once in 10^11 bytes, 4 about once in 3 x 10^10, 3 far
 * less often (tables of 16-bit integers 0100..1FFF can match 3).  Not
 * caught: UTF-16 text in the three ranges named in 3, UTF-16 CJK text
 * without 3 NUL/control bytes in 128 (it has one NUL per ASCII character,
 * and a random low byte is a control byte 1 time in 10), UTF-32 text
 * without three ASCII characters in a row.  Legacy 8-bit encodings
 * (Latin-1, GBK, Shift-JIS) hold no NUL or C0 controls and are not
 * matched.  State: PII_WIDE_CARRY carried bytes and the positions of the
 * last trigger bytes; a plain struct the caller owns (no free). */
#define PII_WIDE_CARRY 127
typedef struct pii_wide {
    uint64_t pos;                  /* bytes fed */
    uint64_t hit_at;               /* input offset of the window that matched */
    uint8_t carry[PII_WIDE_CARRY]; /* the last bytes fed */
    size_t ncarry;
    int hit;
    /* input positions + 1 (0: none) of the last NULs, C0 controls of rule
     * 3, NUL/C0 bytes of rule 4 (oldest first), and of the last byte that
     * cannot follow the one before it in UTF-8 */
    uint64_t nul[6], ctl[8], zb[3], bad;
} pii_wide;

void pii_wide_init(pii_wide *w);
/* PII_OK, or PII_EENCODING (then pii_wide.hit_at says where). */
pii_err pii_wide_feed(pii_wide *w, const void *data, size_t n);

/* ---- the rule tier (redact/rules.c) ------------------------------------ */

typedef struct pii_rules pii_rules;

typedef struct pii_rule_info {
    const char *id;    /* e.g. "email", "card_luhn", "aws_access_key" */
    const char *label; /* one of pii_categories */
    const char *about; /* one line for --list-rules */
} pii_rule_info;

/* Compiles every built-in rule (PCRE2, JIT when available).  The rules are
 * one leftmost-first alternation (docs/RULES.md): the leftmost match wins,
 * at one position the first rule in table order whose validator accepts;
 * spans never overlap and come out sorted (source PII_SRC_RULE, score 1).
 * Streaming detector: holds back at most the longest match attempt (about
 * 16.6 KiB, a PEM block) plus 40 bytes; done - keep <= 40 bytes. */
pii_rules *pii_rules_create(pii_err *err);
/* The label policy (docs/LABELS.md) is the default: a date is a rule
 * finding only after a word of a person's event (rule date_context), a URL
 * only when it names a person or carries personal data or a credential;
 * other dates and URLs are left to the model.  PII_RULES_BROAD runs the
 * date rules on every date and the url rule on every URL instead (the CLI's
 * --all-dates-urls).  Unknown flags: NULL with PII_EINVAL. */
#define PII_RULES_BROAD 1u
pii_rules *pii_rules_create_flags(unsigned flags, pii_err *err);
void pii_rules_free(pii_rules *r);
size_t pii_rules_count(const pii_rules *r);
const pii_rule_info *pii_rules_info(const pii_rules *r, size_t i);
pii_detector pii_rules_detector(const pii_rules *r);

/* One-shot convenience (tests, eval): all rule spans of a whole document,
 * exactly what the streaming detector reports for it. */
pii_err pii_rules_scan_all(const pii_rules *r, const uint8_t *text, size_t len, pii_spanvec *out);

/* ---- allow and deny lists (redact/lists.c) ----------------------------- */

/* File format, one entry per line, '#' comments and blank lines skipped,
 * leading blanks and trailing spaces/CR trimmed:
 *   allow:  "exact string"  or  "re:REGEX" (the whole span must match)
 *   deny:   "[label<TAB>]string" or "[label<TAB>]re:REGEX"; label defaults
 *           to "secret", [A-Za-z0-9_.-]{1,64}.  A string matches exactly, but
 *           not inside a longer word ("Bob" not in "Bobby"); at one position
 *           the longest string wins, then the first regex.  Deny regexes
 *           must be bounded (no *, +, {n,}, recursion; checked at load).
 * Errors: PII_EIO (file), PII_EFORMAT / PII_EREGEX with "line N: ..." in
 * msg.  Both objects are immutable and may be shared by threads. */
typedef struct pii_allow pii_allow;
pii_allow *pii_allow_load(const char *path, pii_err *err, char *msg, size_t msgcap);
void pii_allow_free(pii_allow *a);
/* Non-zero when the value must never be redacted. */
int pii_allow_match(const pii_allow *a, const uint8_t *value, size_t len);

typedef struct pii_deny pii_deny;
pii_deny *pii_deny_load(const char *path, pii_err *err, char *msg, size_t msgcap);
void pii_deny_free(pii_deny *d);
pii_detector pii_deny_detector(const pii_deny *d);
/* The distinct labels the list reports, in order of first use. */
size_t pii_deny_nlabels(const pii_deny *d);
const char *pii_deny_label(const pii_deny *d, size_t i); /* NULL if out of range */
/* One-shot: the deny spans of a whole document (what the detector reports). */
pii_err pii_deny_scan_all(const pii_deny *d, const uint8_t *text, size_t len, pii_spanvec *out);

/* ---- operators (redact/ops.c) ------------------------------------------- */

typedef enum pii_op_kind {
    PII_OP_PLACEHOLDER = 0, /* "<PRIVATE_EMAIL>" from a template              */
    PII_OP_MASK,            /* one mask char per code point, keep last N      */
    PII_OP_REMOVE,          /* nothing                                        */
    PII_OP_HASH,            /* hex of HMAC-SHA256(key, value), truncated      */
    PII_OP_PSEUDONYM,       /* "<PRIVATE_PERSON_3>": same value, same number  */
} pii_op_kind;

typedef struct pii_op {
    pii_op_kind kind;
    const char *tmpl;   /* placeholder: "{LABEL}" → PRIVATE_EMAIL, "{label}" →
                           private_email; default "<{LABEL}>"                 */
    uint32_t mask_char; /* code point, default '*'                          */
    unsigned keep_last; /* mask: leave the last N code points visible, but
                           never more than half of them                    */
    unsigned hash_hex;  /* hash: hex digits kept (1..64), default 16        */
} pii_op;

void pii_op_default(pii_op *op, pii_op_kind kind);
/* Parses "placeholder", "placeholder:TEMPLATE" (op->tmpl then points into
 * spec), "mask", "mask:#", "mask:*:4" (the mask char is any one UTF-8 code
 * point), "remove", "hash", "hash:12", "pseudonym"; else PII_EINVAL. */
pii_err pii_op_parse(const char *spec, pii_op *op);

typedef struct pii_ops pii_ops;
/* Default operator for every label is `def`; set per-label overrides with
 * pii_ops_set.  key may be NULL unless some operator is PII_OP_HASH
 * (pii_ops_check then returns PII_ENOKEY).  Templates and the key are
 * copied.  Configure before use; pii_ops_apply may then run concurrently. */
pii_ops *pii_ops_create(const pii_op *def, pii_err *err);
pii_err pii_ops_set(pii_ops *o, const char *label, const pii_op *op);
pii_err pii_ops_set_key(pii_ops *o, const uint8_t *key, size_t len);
pii_err pii_ops_check(const pii_ops *o); /* call once before use */
/* Maximum number of distinct pseudonym values remembered per label
 * (default 65536, about 40 bytes each, stored as digests); beyond it new
 * values get "<PRIVATE_PERSON_OVERFLOW>" (the label's placeholder name). */
void pii_ops_set_pseudonym_limit(pii_ops *o, size_t max_values);
/* Reversible pseudonyms: the pseudonym operator takes its placeholders
 * from m (pii_pseudo.h; borrowed, used under the pii_ops mutex) instead of
 * numbering digests.  NULL: back to digests.  Configure before use. */
struct pii_pseudo;
void pii_ops_set_pseudo_map(pii_ops *o, struct pii_pseudo *m);
void pii_ops_free(pii_ops *o);

/* Growable byte buffer used by the operators and the stream. */
typedef struct pii_buf {
    uint8_t *p;
    size_t n, cap;
} pii_buf;
pii_err pii_buf_append(pii_buf *b, const void *data, size_t n);
void pii_buf_free(pii_buf *b);

/* Appends the replacement of span s (whose bytes are value[0..len)) to out. */
pii_err pii_ops_apply(pii_ops *o, const pii_span *s, const uint8_t *value, size_t len,
                      pii_buf *out);

/* ---- the redactor and its streams (redact/stream.c) -------------------- */

typedef struct pii_redactor pii_redactor;

pii_redactor *pii_redactor_create(pii_err *err);
void pii_redactor_free(pii_redactor *r);
/* Detectors are borrowed: their shared objects must outlive the redactor. */
pii_err pii_redactor_add_detector(pii_redactor *r, pii_detector d);
void pii_redactor_set_ops(pii_redactor *r, pii_ops *ops);         /* borrowed */
void pii_redactor_set_allow(pii_redactor *r, const pii_allow *a); /* borrowed */
/* A span filter: keep(ud, span, input) returns 0 to drop a detector span
 * before merging (as the allow list does), input being the name given by
 * pii_stream_set_input_name (NULL: none).  One per redactor; ud borrowed.
 * pii_custom_keep_span (pii_custom.h) is one: custom rules' `paths`. */
typedef int (*pii_span_filter)(void *ud, const pii_span *sp, const char *input);
void pii_redactor_set_span_filter(pii_redactor *r, pii_span_filter keep, void *ud);
/* An allow entry suppresses the value it matches, never a different value
 * inside it (issue 42 M4): with `rules` set (borrowed), a span the allow
 * list drops is scanned again with them from its second byte (and inside
 * every allowed value met there), and each value found that is not allowed
 * itself is redacted (the rule tier's spans never overlap, so an allowed
 * URL would otherwise hide the e-mail address in its query). */
void pii_redactor_set_allow_rescan(pii_redactor *r, const pii_rules *rules);
/* The wide-text guard runs in every stream of r: pii_stream_feed fails
 * with PII_EENCODING as soon as a matching window is complete (nothing fed
 * after it is written); a record stream of pii_records.h guards each
 * record, once complete, before parsing it, and fails on the record that
 * completes a window (nothing of it or later is written; parse errors of
 * earlier records come first, whatever the feed boundaries).  Of the
 * window itself at most its first 7 bytes, in earlier documents or
 * records, may have been written — fewer than four ASCII characters in
 * UTF-16.  On by default; off for callers that redact binary data as
 * bytes on purpose. */
void pii_redactor_set_wide_guard(pii_redactor *r, int on);
int pii_redactor_wide_guard(const pii_redactor *r);
/* Keep only spans whose label is (exclude=0) or is not (exclude=1) listed. */
pii_err pii_redactor_select_labels(pii_redactor *r, const char *const *labels, size_t n,
                                   int exclude);
/* Where a stream's results go.  Any callback may be NULL.
 *  write: redacted text, in order, progressively.
 *  span:  each final span after merging and filtering, in order, with its
 *         original bytes and code-point offsets.
 *  end_doc: after the last write/span of a document.
 * A callback error stops the stream (it fails closed). */
typedef struct pii_sink {
    pii_err (*write)(void *ud, const uint8_t *p, size_t n);
    pii_err (*span)(void *ud, const pii_span *s, const uint8_t *value, size_t len,
                    uint64_t cp_start, uint64_t cp_end);
    pii_err (*end_doc)(void *ud);
    void *ud;
} pii_sink;

typedef struct pii_stream pii_stream;

pii_stream *pii_stream_create(const pii_redactor *r, const pii_sink *sink, pii_err *err);
void pii_stream_free(pii_stream *s);
/* Feeds bytes of the current document; writes what is decided.  With the
 * wide-text guard on, the guard sees every byte fed since the stream was
 * created or last given pii_stream_new_input (documents of one input, such
 * as lines, share it: a UTF-16 newline's NUL begins the next line). */
pii_err pii_stream_feed(pii_stream *s, const void *data, size_t len);
/* Ends the current document: everything is decided and written, then the
 * next fed byte starts a new document at offset 0. */
pii_err pii_stream_end_doc(pii_stream *s);
/* The next byte starts a new input (a new file): the guard starts over,
 * so a byte-order mark is looked for again.  Call between documents. */
void pii_stream_new_input(pii_stream *s);
/* Names the input the next documents come from (a path as given; NULL:
 * none, e.g. standard input), for the redactor's span filter.  Borrowed
 * until the next call or pii_stream_free.  Call between documents (after a
 * flush when using pii_stream_put). */
void pii_stream_set_input_name(pii_stream *s, const char *name);
/* Bytes currently held back (for memory tests and diagnostics). */
size_t pii_stream_buffered(const pii_stream *s);
/* Bytes put to the stream and not yet written: the current document's
 * text after the decided frontier, plus anything queued by pii_stream_put.
 * 0 means everything put so far is final and written, so ending the
 * document now would change nothing; a live-input driver (the command's
 * --flush-delay) ends the document at a pause only when this is non-zero. */
uint64_t pii_stream_undecided(const pii_stream *s);

/* ---- many documents through one stream --------------------------------------
 *
 * In the style of zstd's compressStream2: the caller puts bytes with a
 * directive, and the stream decides when to run them.
 *   PII_STREAM_CONTINUE  the bytes continue the current document;
 *   PII_STREAM_END_DOC   the bytes end it (the next put starts a new one);
 *   PII_STREAM_FLUSH     the bytes continue it, then everything put so far is
 *                        redacted and written (documents queued, and the
 *                        open document as far as it is decided);
 *   PII_STREAM_AHEAD     the bytes are a whole document the caller holds and
 *                        will feed itself (below); nothing is written.
 * When a detector has a lookahead (pii_detector_class.ahead: the model),
 * complete documents are queued, at most PII_STREAM_QUEUE_DOCS of them and
 * PII_STREAM_QUEUE_BYTES in all, and announced to the detectors together
 * (the model packs their windows into shared forward passes over its thread
 * pool), then written in order, each exactly as pii_stream_feed +
 * pii_stream_end_doc would write it.  A document that outgrows the queue,
 * or is still open at a flush, goes on unqueued (its bytes are fed as they
 * come).  Without a lookahead detector every put is fed at once.  The sink
 * sees documents in the order they were put: pii_stream_doc numbers them
 * (0, 1, ... per stream), so a sink callback can tell whose output it is.
 * Memory: the queue's PII_STREAM_QUEUE_BYTES plus the stream's own bound.
 * pii_stream_feed and pii_stream_end_doc first run whatever is queued;
 * call pii_stream_new_input only after a flush.
 *
 * PII_STREAM_AHEAD is the same queue for callers that hold whole documents
 * and write each under their own control (batch mode's small files, a
 * record stream's values): the bytes are queued by reference, not copied,
 * and must stay valid until fed.  At the next put of another directive
 * (a flush of no bytes is the usual one), pii_stream_feed or
 * pii_stream_end_doc, the queued documents are computed together (the
 * model in shared passes); the caller then feeds them in order, each in
 * one or more pii_stream_feed calls over exactly those bytes (the same
 * pointers: the stream checks pointer and length, never the bytes) and
 * ends each with pii_stream_end_doc.  A document fed from another pointer
 * withdraws the rest (it is then detected live, so skipping one is safe);
 * one that starts as queued and goes on elsewhere or ends short fails the
 * stream (PII_EINVAL).  Between documents only, at most
 * PII_STREAM_QUEUE_DOCS documents per computation (else PII_EINVAL, the
 * stream goes on); a stream without a lookahead detector ignores it.  pii_stream_new_input may come
 * between the documents fed (it only restarts the wide-text guard for the next byte fed; a record
 * stream of pii_records.h guards each value alone that way). */
#define PII_STREAM_QUEUE_DOCS 256
#define PII_STREAM_QUEUE_BYTES (1024 * 1024)
typedef enum pii_stream_directive {
    PII_STREAM_CONTINUE = 0,
    PII_STREAM_END_DOC = 1,
    PII_STREAM_FLUSH = 2,
    PII_STREAM_AHEAD = 3,
} pii_stream_directive;
pii_err pii_stream_put(pii_stream *s, const void *data, size_t len, pii_stream_directive how);
/* The number of the document being written (documents ended so far). */
uint64_t pii_stream_doc(const pii_stream *s);
/* Non-zero when some detector of the stream has a lookahead, i.e. when
 * pii_stream_put's queue does anything: a caller can skip gathering
 * documents to put ahead when it is 0 (the rule tier and deny list
 * alone). */
int pii_stream_lookahead(const pii_stream *s);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif

#endif
