/* ner_internal.h — pieces shared by ner/spans.c and the engine (ner/document.c; not public).
 *
 * The span pipeline is written once, incrementally, and the one-shot
 * functions of pii_ner.h drive it with the whole document, so one-shot and
 * streaming results cannot drift apart:
 *   labels ─► ner_sm (§6.3 state machine) ─► token spans with prob sums
 *          ─► pii_ner_byte_span (whole characters, trim) ─► threshold
 *          ─► pii_ner_widen_left/right (opaque categories: whole ASCII runs)
 *          ─► ner_resolver (§6.4 sort + non-overlap, final once no later
 *             span can start before them) ─► pii_spanvec
 */
#ifndef PII_NER_INTERNAL_H
#define PII_NER_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "pii_ner.h"

/* A token span with the sum of its tokens' chosen-label probabilities. */
typedef struct ner_tsp {
    uint32_t cat;
    uint64_t ts, te; /* tokens [ts, te) */
    double psum;
} ner_tsp;

/* The §6.3 state machine over labels in token order. */
typedef struct ner_sm {
    const pii_ner_labels *L;
    size_t max_span; /* 0: none */
    uint64_t t;      /* labels consumed */
    int open;
    uint32_t cat;
    uint64_t start;
    double psum;
} ner_sm;

void pii_ner_sm_init(ner_sm *sm, const pii_ner_labels *L, size_t max_span);
/* Consumes the label of token sm->t with its probability; writes 0..2
 * completed spans to out and returns how many. */
int pii_ner_sm_push(ner_sm *sm, int32_t label, double prob, ner_tsp out[2]);
/* End of document: closes an open span (returns 0 or 1). */
int pii_ner_sm_finish(ner_sm *sm, ner_tsp out[1]);
/* First token of the open span, or sm->t when none is open. */
static inline uint64_t ner_sm_pending_token(const ner_sm *sm)
{
    return sm->open ? sm->start : sm->t;
}

/* Bytes [base, base+len) of a document. */
typedef struct ner_text {
    const uint8_t *p;
    uint64_t base;
    size_t len;
} ner_text;

/* Widened, trimmed byte span of the token range whose first token starts at
 * byte first_start and whose last token ends at last_end (absolute offsets
 * inside the text).  Trims whitespace at both ends and, for the category cat
 * (NULL: none), leading ASCII punctuation its values never start with
 * ("=" in "user=jane@x.org"), the "=" or ":" of an assignment before a
 * secret ("KEY=value"), and whole lowercase words at the edges of account
 * numbers and phone numbers ("cc", "expires"), and closing punctuation
 * after a person, address or date ("Smith),", "Smith's"; docs/NER.md,
 * "Trim").  Needs
 * the bytes from first_start - 3 to last_end + 3 (clipped to the text).
 * Returns 1 and sets [*s, *e), or 0 when the span is empty after trimming. */
int pii_ner_byte_span(const ner_text *tx, const char *cat, uint64_t first_start, uint64_t last_end,
                      uint64_t *s, uint64_t *e);

/* Widening (docs/NER.md, "Widen").  A span of a category whose values are
 * opaque strings (secret, account_number, private_email, private_url,
 * private_phone: NER_WIDEN_OPAQUE) that starts or ends inside a run of
 * ASCII letters and digits grows to the whole run, so that no part of a key
 * stays in clear; a person, address or date span (NER_WIDEN_WORD) that
 * starts or ends inside a word (letters, marks, digits of a script written
 * with spaces) grows to the whole word ("Amy Wine|house").  At most
 * NER_WIDEN_MAX bytes to the left, and to the right for words (opaque
 * values grow to their end: pii_ner_widen_lim).  pii_ner_widens returns the kind (0: none).
 * pii_ner_widen_left needs the bytes from s - NER_WIDEN_MAX (clipped to the
 * text); pii_ner_widen_right moves *e towards lim and returns 1 when the end is
 * final, or 0 when the run reaches the last byte in view and more may
 * follow (eod == 0): call it again with more bytes. */
#define NER_WIDEN_MAX 128
/* The right end widening may reach from e: unbounded for the opaque
 * categories (a key is redacted whole however long: the held span keeps
 * its bytes in view, within the stream's hold, PII_ETOOBIG beyond), e +
 * NER_WIDEN_MAX for words.  A secret also grows to the right over "+/=_-~"
 * (issue 41). */
uint64_t pii_ner_widen_lim(const char *cat, uint64_t e);
enum { NER_WIDEN_OPAQUE = 1, NER_WIDEN_WORD = 2 };
int pii_ner_widens(const char *cat);
uint64_t pii_ner_widen_left(const ner_text *tx, const char *cat, uint64_t s);
int pii_ner_widen_right(const ner_text *tx, const char *cat, uint64_t *e, uint64_t lim, int eod);

/* §6.4 step 4, incrementally.  Spans are added as they are completed;
 * flush(boundary) makes final, in (start, -length, label) order, every
 * pending span that starts before `boundary`, which the caller guarantees
 * is <= the start of every span added later. */
typedef struct ner_resolver {
    pii_span *v;
    size_t n, cap;
    uint64_t last_end; /* end of the last kept span */
} ner_resolver;

pii_err pii_ner_resolver_add(ner_resolver *r, const pii_span *s);
pii_err pii_ner_resolver_flush(ner_resolver *r, uint64_t boundary, pii_spanvec *out);
void pii_ner_resolver_reset(ner_resolver *r);
void pii_ner_resolver_free(ner_resolver *r);
/* Smallest start among pending spans, or UINT64_MAX. */
uint64_t pii_ner_resolver_min_start(const ner_resolver *r);

/* Letters, marks and digits of scripts written with spaces between words
 * (spans.c); Han, kana, Thai, Lao, Khmer and Myanmar are not. */
int pii_ner_word_cp(uint32_t cp);

/* Name memory (name_memory.c, docs/NER.md "Name memory"): the capitalised words
 * of a document's multi-word person spans, each with the end of the first
 * span that taught it; a later whole word equal to one becomes a person
 * span.  Allocated on the first word taught. */
#define NER_NAMES_MAX 512
#define NER_NAMES_SLOTS 1024 /* hash slots, a power of two > NER_NAMES_MAX */
#define NER_NAME_BYTES 48
typedef struct ner_name {
    uint64_t from; /* counts for words starting here or later */
    float score;
    uint8_t len;
    char w[NER_NAME_BYTES];
} ner_name;
#define NER_TEACH_WORDS 8    /* words one span may teach */
typedef struct ner_teacher { /* an offered span, its teachable words copied */
    uint64_t start, end;
    float score;
    uint8_t nw, len[NER_TEACH_WORDS];
    char w[NER_TEACH_WORDS][NER_NAME_BYTES];
} ner_teacher;
typedef struct ner_names {
    ner_name *v;    /* [NER_NAMES_MAX] */
    uint16_t *slot; /* [NER_NAMES_SLOTS]: index + 1, 0 empty */
    size_t n;
    ner_teacher *pend; /* offered, not learned yet */
    size_t np, pcap;
    int sorted;        /* pend is in (end, start, score) order */
    int memory;        /* taught words are matched (the name memory) */
    unsigned lexicon;  /* PII_NER_LEX_* parts matched (names.c, lexicon.c); 0: none */
    pii_source source; /* of the spans it adds: PII_SRC_MODEL (0) in the model tier */
    /* the scan's view of the words before *pos (lexicon): */
    int after_stop;       /* a sentence stop (. ! ? : newline) since the last word */
    int last_block;       /* the last word was capitalised, mid-sentence, no title */
    size_t gap;           /* bytes since the last word */
    int gap_space;        /* ... and they are one space */
    uint32_t gap_tail[2]; /* the gap's last two characters (0: none) */
} ner_names;

/* The name lexicon (lexicon.c, ner/data/README.md): is w[0..n) a given
 * name / a capitalised word that is no family name?  Exact bytes. */
int pii_ner_lex_first_name(const uint8_t *w, size_t n);
int pii_ner_lex_name_stop(const uint8_t *w, size_t n);
/* Is w[0..n) a lower-case English dictionary word that is no given name
 * ("kinsman", "remand"; not "mike")? */
int pii_ner_lex_common_word(const uint8_t *w, size_t n);
/* Are the bytes p[0..n) lower-case ASCII words of that list alone, apart
 * from spaces, hyphens and apostrophes between them?  A model person span
 * that is would be a common word read as a name. */
int pii_ner_lex_common_only(const uint8_t *p, size_t n);
/* Is w[0..n) a country's name (countries.txt; ASCII letters in any case,
 * other bytes exact; a name of three letters or fewer, or with a dot, only
 * in capitals: "UK", "U.S.")?  An address span grows over a country after
 * it (docs/NER.md, "Spans"). */
int pii_ner_lex_country(const uint8_t *w, size_t n);
/* The lists of the non-person filter (ner/data/README.md), exact bytes:
 * head words of organisations, courts, prisons and firms ("Court",
 * "Solicitors", "LLP", "HMP"); capitalised words that name no person alone
 * (institutional and legal English, roles, products, demonyms and
 * languages, day and month abbreviations: "Prosecutor", "Kafka",
 * "Cypriot"); words that stand before a name without being part of it
 * (imperatives and greetings: "Add", "Tell", "Dear"). */
int pii_ner_lex_org_head(const uint8_t *w, size_t n);
/* Head words that stand before an institution's name ("Hospital Gregorio
 * Marañón", "HMP Acklington", "University of ..."): a name before one is
 * still a person ("Dra. María Merino Viveros Hospital ..."). */
int pii_ner_lex_org_prefix(const uint8_t *w, size_t n);
int pii_ner_lex_non_person(const uint8_t *w, size_t n);
int pii_ner_lex_lead_word(const uint8_t *w, size_t n);
/* Given names of the lexicon that also name a place (a state, province,
 * region or city: "Victoria", "Madison"), which "Family, Given" does not
 * read as a name ("Melbourne, Victoria"). */
int pii_ner_lex_place_given(const uint8_t *w, size_t n);
/* Words that, right after a name, make it a place, a venue, a language or
 * a people ("Cleveland Browns Stadium", "the Eegimaa language"): a span
 * before one is no person; unlike the org heads, a span may hold one
 * ("River Phoenix"). */
int pii_ner_lex_kind_head(const uint8_t *w, size_t n);
/* A word that, right after a name, makes it no person: an org head or a
 * kind head. */
int pii_ner_lex_head_after(const uint8_t *w, size_t n);
/* Honorifics and titles that a family name follows ("Mr", "Senator",
 * "Señora"; honorifics.txt, exact bytes), and the titles and forms of
 * address, in lower case, that stand beside a name but are none ("dr",
 * "queen", "the"; titles.txt: the caller lowers the word). */
int pii_ner_lex_honorific(const uint8_t *w, size_t n);
int pii_ner_lex_title(const uint8_t *w, size_t n);
/* Words of the given-name list (which 0), the stop list (1), the
 * common-word list (2), the country list (3), the org-head list (4), the
 * non-person list (5), the lead-word list (6), the org-prefix list (7), the
 * place-given list (8), the kind-head list (9), the honorific list (10) or
 * the title list (11), or -1 when the list breaks the lookup's format
 * (ner/data/README.md). */
long pii_ner_lex_check(int which);
/* The non-person filter (nonperson.c, docs/NER.md "Non-person filter"):
 * the person span [*s, *e) of tx, whose bytes are in view; it reads no
 * byte outside them.  0: not a person (drop it); 1: keep [*s, *e), trimmed
 * of the words next to the name that are not part of it ("Tell Tom Baker"
 * -> "Tom Baker", "soy Javier" -> "Javier"). */
int pii_ner_person_filter(const ner_text *tx, uint64_t *s, uint64_t *e);
/* The same lists for a model address span: 0 when every word is a lead
 * word, a non-person word or a connector ("Likewise", "Serbian Tajik
 * Thai": no place), 1 to keep it. */
int pii_ner_address_filter(const ner_text *tx, uint64_t s, uint64_t e);
/* Is the word after one blank at `end` the head word of an organisation
 * or a kind head ("Baxter Moore" before "Solicitors", "Eegimaa" before
 * "language")?  1 yes, 0 no, -1 when more bytes
 * are needed (the word reaches the end of the view before eod). */
int pii_ner_org_after(const ner_text *tx, uint64_t end, int eod);
/* Is the model's secret span [s, e) a digest, not a credential
 * (docs/LABELS.md)?  Hexadecimal of 7 to 128 digits after a digest or
 * commit word on its line within NER_DIGEST_BACK bytes ("sha256:",
 * "commit", "Merge:", "checksum", "SHA256 (file) ="), or a bare commit id
 * (40 lower-case hex digits) with no credential word (token, key, secret,
 * password, auth, session, cookie, bearer) there.  Reads the bytes in view
 * only. */
#define NER_DIGEST_BACK 64
/* Does [s, e) hold a full-width at sign (U+FF20)?  A model e-mail span with
 * neither it nor "@" is no address and is dropped. */
int pii_ner_has_fullwidth_at(const ner_text *tx, uint64_t s, uint64_t e);
/* Narrows the model e-mail span [*s, *e) to the run around its first "@"
 * without blanks, line breaks, quotes, brackets, "<>", "," or ";": a span
 * never takes in the words beside the address ("openssl/e_os2.h>\nmail
 * jane@example.org" -> "jane@example.org"). */
void pii_ner_email_core(const ner_text *tx, uint64_t *s, uint64_t *e);
int pii_ner_digest_span(const ner_text *tx, uint64_t s, uint64_t e);
/* Is the model's value span [s, e) of `label` code, not a value
 * (code_values.c; secret, address, phone, account and date only)?  On a C
 * preprocessor or typedef line outside a string literal, bytes of a hex
 * dump, or (a date) a version number such as "0.35.1".  Reads the span and
 * at most NER_DIGEST_BACK bytes of its line before it, in view only. */
int pii_ner_code_value(const ner_text *tx, const char *label, uint64_t s, uint64_t e);
/* The rule ids of the name heuristics' spans (pii_span.rule, source
 * PII_SRC_MODEL: they are part of the model tier), shown in JSON, SARIF and
 * --check output: a given name and a family name, an honorific or title and
 * a family name, an author of a citation, a word the name memory found. */
#define NER_RULE_LEXICON "name_lexicon"
#define NER_RULE_HONORIFIC "honorific"
#define NER_RULE_CITATION "citation"
#define NER_RULE_MEMORY "name_memory"
#define NER_RULE_INVERTED "name_inverted"
/* The score of a person span the lexicon finds. */
#define NER_LEX_SCORE 0.75f

/* Backward reach of the name memory and of the document's vote on a lone
 * word (docs/NER.md, "Name memory"), in bytes; the engine keeps
 * NER_NAMES_SLACK bytes more in view to see where a word starts. */
#define NER_NAMES_REACH 4096
#define NER_NAMES_SLACK 8
/* The vote drops only a span the model scored under this: a confident
 * reading stands. */
#define NER_VOTE_MAX_SCORE 0.8f

/* The starts of the whole words in [lo, hi) (clipped to the view) equal to
 * w[0..n), possibly with a possessive "'s" (also those an '_' joins to an
 * identifier: the vote counts them, the memory skips them): the first max
 * in at; returns
 * how many there are.  A word at lo counts only when the bytes before it
 * are in view (or lo is the document's start). */
size_t pii_ner_names_occurrences(const ner_text *tx, uint64_t lo, uint64_t hi, const uint8_t *w,
                                 size_t n, uint64_t *at, size_t max);
/* Is [a, b) one whole word (or one before a possessive "'s") that a span
 * could teach, and no given name of the lexicon?  Bytes in view. */
int pii_ner_names_lone(const ner_text *tx, uint64_t a, uint64_t b);
void pii_ner_names_reset(ner_names *m);
void pii_ner_names_free(ner_names *m);
/* Offers a person span whose bytes are in view: its teachable words are
 * kept until a scan reaches its end, and each whole word equal to one of
 * them in the NER_NAMES_REACH bytes before the span (which must be in view,
 * less NER_NAMES_SLACK) is added to rs as a `label` span at once. */
pii_err pii_ner_names_offer(ner_names *m, const ner_text *tx, const pii_span *sp, const char *label,
                            ner_resolver *rs);
/* Scans the words of [*pos, lim) (bytes in view): before each word it
 * learns the offered spans that end at or before the word's start, in
 * (end, start) order; with `memory`, adds to rs a `label` span for a taught
 * word; with `lexicon`, for a given name and the family name after it
 * ("Given Family", "Given Given Family", "Given X. Family"), which also
 * teaches its words.  Stops before a word or pair that crosses lim or may
 * go on past the view (eod == 0), and sets *pos to where the next scan
 * starts.  *pos must be a word boundary.  The caller guarantees that every
 * span ending at or before lim has been offered. */
pii_err pii_ner_names_scan(ner_names *m, const ner_text *tx, uint64_t *pos, uint64_t lim, int eod,
                           const char *label, ner_resolver *rs);

/* One Viterbi step (viterbi.c): out[c] = max_p (prev[p] + trans[p][c]) +
 * e[c], bp[c] = the first argmax p, then out shifted by its maximum.
 * pii_ner_viterbi_step is the fast form (cv, cb: scratch of pii_ner_viterbi_ncol
 * entries); pii_ner_viterbi_step_ref the dense reference.  Identical results. */
void pii_ner_viterbi_step(const pii_ner_viterbi *v, const double *prev, const float *e, double *out,
                          uint16_t *bp, double *cv, uint16_t *cb);
void pii_ner_viterbi_step_ref(const pii_ner_viterbi *v, const double *prev, const float *e,
                              double *out, uint16_t *bp);
size_t pii_ner_viterbi_ncol(const pii_ner_viterbi *v);

/* The backend's forward with, per sequence i, only rows [lo[i], hi[i])
 * wanted (the rows the engine keeps of each window; pii_model_forward_kept).
 * pii_ner_create gives its model adapter's; the engine uses it instead of
 * be.forward when set.  Internal: pii_ner_backend, part of the ABI, keeps
 * its layout. */
typedef pii_err (*ner_forward_kept_fn)(void *ud, void *ctx, const int32_t *ids, const size_t *lens,
                                       const size_t *lo, const size_t *hi, size_t nseq,
                                       float *logits);
void pii_ner_set_forward_kept(pii_ner *n, ner_forward_kept_fn fn);

/* Hands the pii_ner an object to free with it (the backend adapter of
 * pii_ner_create). */
void pii_ner_set_owner(pii_ner *n, void *owner, void (*owner_free)(void *owner));

#endif
