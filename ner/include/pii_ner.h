/* pii_ner.h — the NER tier: from model logits to PII spans (spec §6), and
 * the model detector that runs the encoder over documents and streams.
 *
 * Layers, bottom up:
 *  1. Label space (pii_ner_labels): parsed from the model's id2label names
 *     ("O", "B-x", "I-x", "E-x", "S-x"); any number of labels and categories.
 *  2. Emissions: f32 log-softmax of each token's logits (pii_ner_log_softmax).
 *  3. Decoding: the constrained BIOES Viterbi of spec §6.2 with the six
 *     operating-point biases (pii_ner_viterbi, one-shot or online with a
 *     bounded wait), or the plain per-token argmax.
 *  4. Spans: labels → token spans (§6.3 repair rules) → byte spans over
 *     widened character boundaries, whitespace-trimmed, scored and
 *     thresholded, grown to whole ASCII runs for opaque categories, sorted
 *     and made non-overlapping (§6.4).
 *  5. The model detector (pii_ner): tokenizer + encoder + 2..4 behind the
 *     pii_detector contract of pii_redact.h, with exact long-input windows,
 *     exact streaming and packed batches (see the second half of this file).
 *
 * Conventions.  `n` tokens, `C` labels, `K` categories.  Emission and logit
 * matrices are row-major [n][C] float.  Label ids are int32 in [0, C).
 * Offsets are UTF-8 byte offsets, half-open.
 *
 * Characters.  Wherever this module speaks of characters over raw bytes, a
 * valid UTF-8 sequence (shortest form, no surrogates, at most U+10FFFF) is
 * one character and every other byte is a character by itself.  A span
 * never starts or ends inside a character.
 *
 * Ownership and threads: pii_ner_labels and pii_ner_viterbi are immutable
 * after creation and may be shared by any number of threads; a
 * pii_ner_online belongs to one thread.  All *_free(NULL) are no-ops.  The
 * library never prints, exits or reads the environment.
 */
#ifndef PII_NER_H
#define PII_NER_H

#include <stddef.h>
#include <stdint.h>

#include "pii_error.h"
#include "pii_core.h"

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API of libpiiredact.so */
#endif

/* ---- label space ----------------------------------------------------- */

typedef enum pii_ner_tag {
    PII_NER_O = 0,
    PII_NER_B = 1,
    PII_NER_I = 2,
    PII_NER_E = 3,
    PII_NER_S = 4,
} pii_ner_tag;

typedef struct pii_ner_labels pii_ner_labels;

/* Parses names[0..n) (id order).  Each name is "O" or "<T>-<category>" or
 * "<T>_<category>" (fine-tunes in the wild use both separators; the
 * category is the same either way) with T one of B, I, E, S and a
 * non-empty category.  Categories are numbered in
 * order of first appearance (for the Privacy Filter that is the alphabetical
 * order of spec §5).  Duplicate names and any other form are PII_EFORMAT,
 * with the label id named in errbuf.  n must be in [1, 65535]. */
pii_ner_labels *pii_ner_labels_create(const char *const *names, size_t n, pii_err *err,
                                      char *errbuf, size_t errcap);
void pii_ner_labels_free(pii_ner_labels *L);
size_t pii_ner_labels_count(const pii_ner_labels *L); /* C */
const char *pii_ner_labels_name(const pii_ner_labels *L, size_t id);
pii_ner_tag pii_ner_labels_tag(const pii_ner_labels *L, size_t id);
int pii_ner_labels_category_of(const pii_ner_labels *L, size_t id); /* -1 for O */
size_t pii_ner_labels_ncat(const pii_ner_labels *L);                /* K */
/* Category name (e.g. "private_person"); the pointer lives as long as L and
 * is what spans carry in pii_span.label. */
const char *pii_ner_labels_category(const pii_ner_labels *L, size_t cat);
/* Index of a category name, or -1. */
int pii_ner_labels_find_category(const pii_ner_labels *L, const char *name);

/* ---- emissions and argmax -------------------------------------------- */

/* out[t][c] = logits[t][c] - logsumexp(logits[t]) in f32 (max-shifted).
 * out may equal logits (in place). */
void pii_ner_log_softmax(const float *logits, size_t n, size_t C, float *out);

/* labels[t] = argmax_c e[t][c], first index on ties. */
void pii_ner_argmax(const float *e, size_t n, size_t C, int32_t *labels);

/* ---- operating points ------------------------------------------------- */

#define PII_NER_NBIAS 6
typedef struct pii_ner_biases {
    float v[PII_NER_NBIAS]; /* indexed by the pii_ner_bias_keys order */
} pii_ner_biases;

/* "transition_bias_background_stay", "transition_bias_background_to_start",
 * "transition_bias_inside_to_continue", "transition_bias_inside_to_end",
 * "transition_bias_end_to_background", "transition_bias_end_to_start". */
extern const char *const pii_ner_bias_keys[PII_NER_NBIAS];

/* Index of a bias key; the "transition_bias_" prefix may be omitted
 * ("background_stay").  -1 if unknown. */
int pii_ner_bias_index(const char *key);

/* Loads the named operating point ("default" when point is NULL) from a
 * viterbi_calibration.json document in either schema:
 *   {"operating_points": {"NAME": {"biases": {the six keys: number}}}}  (opf)
 *   {"operating_point": {"transition_biases": {the six keys: number}}}  (one
 *   unnamed point, found in fine-tunes; only "default" selects it)
 * Keys may be given in full or without "transition_bias_".  All six are
 * required, each once.  Keys the schema does not know (anywhere) are not
 * errors: they are ignored and described in warn (NUL-terminated, "" when
 * none; warn may be NULL).  Errors: PII_EIO (file), PII_EJSON (syntax),
 * PII_EFORMAT (shape, missing or repeated bias, both schemas at once),
 * PII_ENOTFOUND (no such point; errbuf lists the available names). */
pii_err pii_ner_calibration_load_ex(const char *path, const char *point, pii_ner_biases *out,
                                    char *warn, size_t warncap, char *errbuf, size_t errcap);
pii_err pii_ner_calibration_parse_ex(const char *json, size_t len, const char *point,
                                     pii_ner_biases *out, char *warn, size_t warncap, char *errbuf,
                                     size_t errcap);
/* The same without warnings. */
pii_err pii_ner_calibration_load(const char *path, const char *point, pii_ner_biases *out,
                                 char *errbuf, size_t errcap);
pii_err pii_ner_calibration_parse(const char *json, size_t len, const char *point,
                                  pii_ner_biases *out, char *errbuf, size_t errcap);

/* ---- constrained BIOES Viterbi (spec §6.2) ------------------------------ */

/* The large finite penalty of forbidden starts, ends and transitions. */
#define PII_NER_NEG (-1e9f)

typedef struct pii_ner_viterbi pii_ner_viterbi;

/* Builds start[C], end[C] and trans[C][C] for the label space and biases:
 *   start: 0 for O, B-*, S-*;  end: 0 for O, E-*, S-*;  else NEG.
 *   O→O stay; O→B/S to_start; B/I-x→I-x continue; B/I-x→E-x to_end;
 *   E/S→O end_to_background; E/S→B/S (any category) end_to_start; else NEG.
 * b may be NULL (all zero). */
pii_ner_viterbi *pii_ner_viterbi_create(const pii_ner_labels *L, const pii_ner_biases *b,
                                        pii_err *err);
void pii_ner_viterbi_free(pii_ner_viterbi *v);
size_t pii_ner_viterbi_nlabels(const pii_ner_viterbi *v);
float pii_ner_viterbi_start(const pii_ner_viterbi *v, size_t c);
float pii_ner_viterbi_end(const pii_ner_viterbi *v, size_t c);
float pii_ner_viterbi_trans(const pii_ner_viterbi *v, size_t prev, size_t next);

/* Best path over emissions e[n][C] (log-probs), exactly and globally:
 * S_0 = e_0 + start; S_t[c] = max_p (S_{t-1}[p] + trans[p][c]) + e_t[c],
 * first index on ties; last = argmax (S_{n-1} + end), first index on ties.
 * Scores are accumulated in double and shifted by their maximum after each
 * step (the choices are those of the unshifted recurrence; the shift only
 * keeps long inputs precise).  n = 0 is fine.  PII_ENOMEM only. */
pii_err pii_ner_viterbi_decode(const pii_ner_viterbi *v, const float *e, size_t n, int32_t *labels);

/* Score of a given path (double, left to right): e_0+start + Σ(trans+e) +
 * end.  For tests and diagnostics. */
double pii_ner_viterbi_path_score(const pii_ner_viterbi *v, const float *e, size_t n,
                                  const int32_t *labels);

/* ---- online Viterbi (streams) --------------------------------------------
 *
 * Emissions are pushed row by row; a label becomes final (and can be taken)
 * as soon as the back-pointer chains of all C survivors have merged at or
 * after its token: no later emission can change it.  Labels taken before
 * pii_ner_online_finish() plus those after it equal pii_ner_viterbi_decode()
 * of all rows, however the rows were split into pushes, as long as the
 * bound below was never reached.
 *
 * The bound (max_lag tokens, 0 = none): if after pushing row t the survivors
 * have not merged at any token >= t - max_lag, the decoder commits: it takes
 * the best state at t (first index on ties), makes its survivor path final
 * for tokens <= t, and continues from that state alone (other states restart
 * at a -1e30 score).  The result is still a legal BIOES path and still
 * independent of how rows were pushed (the commit points depend only on the
 * emissions), but it may differ from the global path near the commit point.
 * Memory is O(max_lag * C). */
typedef struct pii_ner_online pii_ner_online;

pii_ner_online *pii_ner_online_create(const pii_ner_viterbi *v, size_t max_lag, pii_err *err);
void pii_ner_online_free(pii_ner_online *o);
void pii_ner_online_reset(pii_ner_online *o); /* new sequence */
/* Appends rows e[n][C]. */
pii_err pii_ner_online_push(pii_ner_online *o, const float *e, size_t n);
/* Ends the sequence: every label becomes final.  Push after finish starts
 * a new sequence only after pii_ner_online_reset(). */
pii_err pii_ner_online_finish(pii_ner_online *o);
/* Number of final labels not yet taken. */
size_t pii_ner_online_ready(const pii_ner_online *o);
/* Moves up to cap final labels (in token order) to labels[]; returns how many. */
size_t pii_ner_online_take(pii_ner_online *o, int32_t *labels, size_t cap);
/* Rows pushed since the last reset, and forced commits so far. */
uint64_t pii_ner_online_pushed(const pii_ner_online *o);
uint64_t pii_ner_online_forced(const pii_ner_online *o);

/* ---- labels → token spans (spec §6.3) ------------------------------------ */

typedef struct pii_ner_tspan {
    uint32_t cat;       /* category index */
    uint64_t tok_start; /* first token */
    uint64_t tok_end;   /* one past the last token */
} pii_ner_tspan;

/* opf's labels_to_spans repair rules (S single; B opens, closing any open
 * span; I continues a same-category span, else opens; E closes a
 * same-category span including itself, else is a single; O closes).
 * out needs room for n spans; returns the count. */
size_t pii_ner_labels_to_spans(const pii_ner_labels *L, const int32_t *labels, size_t n,
                               pii_ner_tspan *out);

/* ---- characters and whitespace -------------------------------------------- */

/* Start of the character containing byte pos (pos < len). */
size_t pii_ner_char_start(const uint8_t *p, size_t len, size_t pos);
/* End (exclusive) of the character containing byte pos (pos < len). */
size_t pii_ner_char_end(const uint8_t *p, size_t len, size_t pos);
/* Python str.isspace(): U+0009–000D, 001C–0020, 0085, 00A0, 1680,
 * 2000–200A, 2028, 2029, 202F, 205F, 3000. */
int pii_ner_isspace(uint32_t cp);

/* ---- token spans → byte spans (spec §6.4, §6.5) ----------------------------- */

typedef struct pii_ner_tok {
    uint64_t start, end; /* byte offsets of one token; tokens tile the text */
} pii_ner_tok;

/* Everything that turns decoded labels into final spans.  cat_threshold[K]
 * (NULL: keep all): a span is kept when score >= cat_threshold[cat].
 * max_span_tokens (0: none): a token span reaching this many tokens is
 * closed there and the rest continues as a new span (bounds streaming
 * memory; documented in docs/NER.md). */
typedef struct pii_ner_span_opts {
    const float *cat_threshold;
    size_t max_span_tokens;
} pii_ner_span_opts;

/* Whole-document span extraction: token spans from labels[n] (§6.3), byte
 * span = [char_start(tok[first].start), char_end(tok[last].end - 1)),
 * trimmed of pii_ner_isspace characters at both ends and of leading
 * punctuation its category never starts with (dropped when empty),
 * score = mean over the span's tokens of exp(e[t][labels[t]]), threshold,
 * for secret, account_number, private_email, private_url and private_phone
 * widened to the whole run of ASCII letters and digits it cuts (at most 128
 * bytes each way; docs/NER.md "Widen"), then sorted by (start, -length,
 * label) and reduced to a left-to-right non-overlapping subset.  Appends
 * pii_span{source = PII_SRC_MODEL, label = category name, rule = NULL} to
 * out.  e may be NULL (score 1). */
pii_err pii_ner_extract_spans(const pii_ner_labels *L, const pii_ner_span_opts *opts,
                              const uint8_t *text, size_t len, const pii_ner_tok *tok,
                              const float *e, const int32_t *labels, size_t n, pii_spanvec *out);

/* ==== the model detector ==================================================
 *
 * A pii_ner turns documents into model spans: it tokenizes, runs the
 * encoder in windows, decodes (Viterbi or argmax) and extracts spans with
 * source PII_SRC_MODEL and the model's category names as labels.
 *
 * Exact windows.  A forward pass covers `window` tokens, or up to
 * window + window/4 for a document's last (pii_ner_window_max).  A
 * document of n <= window + window/4 tokens is one pass.  A longer one runs
 * as windows starting at 0, s, 2s, ... (s = window - 2*halo, halo = the
 * model's receptive field, layers x attention radius), each `window` long
 * but the last, the first whose start is at most window + window/4 tokens
 * before n, which runs to n (so no short last window pays a second halo);
 * window k keeps its logit
 * rows [k ? halo : 0, last ? len : len - halo).  Every kept row saw its full
 * receptive field, so logits equal a single pass up to float rounding (the
 * positions differ), and the windows depend only on n, never on how the
 * input arrived.  window must exceed 2*halo.
 *
 * Streams.  The detector (pii_ner_detector) scans a document through the
 * stream's sliding buffer.  Tokens are final when the tokenizer says so
 * (its stable prefix); a window runs once the tokens after it exist (or the
 * document ended); labels are final when the online Viterbi says so (see
 * pii_ner_online); spans are final once no later span can start before
 * them.  Output is therefore identical to one-shot processing of the whole
 * document for every chunking.  Held back: at most about window + window/4 + max_lag +
 * max_span_tokens tokens plus the tokenizer's unstable tail (< 4 KiB), so
 * memory is flat in the input length.
 *
 * Packing.  pii_ner_detect_batch runs the windows of several documents
 * back to back in one forward pass (positions restart and attention stays
 * inside each sequence), so short documents share expert weights.  Results
 * equal one-at-a-time results.
 *
 * Threads: a pii_ner is immutable after creation and may be shared; each
 * call and each detector state uses its own scratch.
 */

typedef enum pii_ner_decode_mode {
    PII_NER_DECODE_VITERBI = 0, /* constrained BIOES Viterbi (spec §6.2) */
    PII_NER_DECODE_ARGMAX = 1,  /* per-token argmax + §6.3 repair rules  */
} pii_ner_decode_mode;

#define PII_NER_MAX_LABEL_THRESHOLDS 32
#define PII_NER_NAME_MAX 64

typedef struct pii_ner_params {
    size_t window;      /* tokens per forward pass; 0 (default): 8192, or
                           8 x halo when that is larger                   */
    size_t pack_tokens; /* tokens per packed forward and thread; 0
                           (default): the window when one is given, else
                           4096 (a pass holds up to backend par x this, and
                           at least one window)                            */
    float threshold;    /* global minimum span score, default 0 (keep all) */
    size_t nlabel_thresholds;
    struct {
        char label[PII_NER_NAME_MAX];
        float value;
    } label_thresholds[PII_NER_MAX_LABEL_THRESHOLDS]; /* per-category overrides */
    char operating_point[PII_NER_NAME_MAX];           /* default "default"           */
    const char *calibration_path;                     /* NULL: <model dir>/viterbi_calibration.json
                                                         when it exists, else all-zero biases */
    int no_calibration; /* 1: never read a calibration file (all-zero biases
                           unless overridden); calibration_path must be NULL */
    unsigned bias_mask; /* bit i set: bias_override.v[i] replaces
                           the operating point's value          */
    pii_ner_biases bias_override;
    pii_ner_decode_mode decode; /* default Viterbi                      */
    size_t max_lag;             /* online Viterbi bound in tokens, default 4096 */
    size_t max_span_tokens;     /* longest token span before a split, 4096  */
    int threads;                /* forward-pass threads; 0: the model's default */
    int no_cache;               /* 1: documents announced to the detector (the stream's
                                   lookahead, pii_stream_put) are never answered from its
                                   result cache of identical short documents          */
} pii_ner_params;

pii_ner_params pii_ner_default_params(void);
/* "0.5" sets the global threshold; "private_person=0.7" one category's.
 * PII_EINVAL on bad syntax or a value outside [0, 1]; PII_ETOOBIG when
 * more than PII_NER_MAX_LABEL_THRESHOLDS labels are given.  Whether the
 * category exists is checked by pii_ner_create. */
pii_err pii_ner_params_threshold(pii_ner_params *p, const char *spec);
/* "KEY=VALUE" with a key of pii_ner_bias_index.  PII_EINVAL. */
pii_err pii_ner_params_bias(pii_ner_params *p, const char *spec);
/* "viterbi" or "argmax".  PII_EINVAL. */
pii_err pii_ner_params_decode(pii_ner_params *p, const char *mode);

/* ---- backends -------------------------------------------------------------
 *
 * What the detector needs from a model, as callbacks.  pii_ner_create
 * builds one from the project's tokenizer and encoder; tests and other
 * models may supply their own. */

/* Tokenizer output: token i covers [end[i-1], end[i]) (end[-1] = 0),
 * offsets relative to the text passed to tokenize(). */
typedef struct pii_ner_toks {
    int32_t *ids;
    uint64_t *end;
    size_t n, cap;
} pii_ner_toks;
pii_err pii_ner_toks_push(pii_ner_toks *t, int32_t id, uint64_t end);
void pii_ner_toks_free(pii_ner_toks *t);

typedef struct pii_ner_backend {
    void *ud;
    const char *const *labels; /* id2label, nlabels entries              */
    size_t nlabels;
    size_t halo;           /* receptive field: logits of token i depend
                              only on tokens i-halo .. i+halo          */
    const char *model_dir; /* where viterbi_calibration.json may be; NULL */
    /* Per-thread scratch (tokenizer cache, activations); both may be NULL. */
    void *(*ctx_create)(void *ud, pii_err *err);
    void (*ctx_free)(void *ud, void *ctx);
    /* Appends the tokens of text[0..len), which starts at a pre-token
     * boundary.  last != 0: the text ends at len, tokenize all of it.
     * last == 0: tokenize only the stable prefix (tokens that no following
     * byte can change) and set *consumed to its length. */
    pii_err (*tokenize)(void *ud, void *ctx, const uint8_t *text, size_t len, int last,
                        pii_ner_toks *out, size_t *consumed);
    /* Logits [sum lens][nlabels] of nseq independent sequences packed back
     * to back in ids (positions restart at 0 in each, no attention across). */
    pii_err (*forward)(void *ud, void *ctx, const int32_t *ids, const size_t *lens, size_t nseq,
                       float *logits);
    /* Threads forward runs a pass's sequences on (0 or 1: one).  Passes
     * then hold up to par x pack_tokens tokens, so the windows of one long
     * document, or several short documents, run in parallel. */
    size_t par;
} pii_ner_backend;

typedef struct pii_ner pii_ner;

/* The backend is copied; its ud and labels must outlive the pii_ner.
 * Resolves the operating point (calibration file, then bias overrides),
 * the thresholds (unknown categories are PII_EINVAL, named in errbuf) and
 * checks window > 2*halo. */
pii_ner *pii_ner_create_backend(const pii_ner_backend *be, const pii_ner_params *p, pii_err *err,
                                char *errbuf, size_t errcap);
void pii_ner_free(pii_ner *n);

const pii_ner_labels *pii_ner_get_labels(const pii_ner *n);
/* The biases in use after resolving the operating point and overrides. */
pii_ner_biases pii_ner_get_biases(const pii_ner *n);
/* The calibration file read ("" when none) and what it held that was
 * ignored ("" when nothing; see pii_ner_calibration_load_ex).  Valid for
 * the pii_ner's lifetime. */
const char *pii_ner_calibration_file(const pii_ner *n);
const char *pii_ner_calibration_warning(const pii_ner *n);
size_t pii_ner_halo(const pii_ner *n);
size_t pii_ner_window(const pii_ner *n);
/* Tokens per thread of a packed pass (pii_ner_params.pack_tokens as resolved). */
size_t pii_ner_pack_tokens(const pii_ner *n);
/* The longest pass one window may need: window + window/4 (the last). */
size_t pii_ner_window_max(const pii_ner *n);
/* Name memory (docs/NER.md, "Name memory"): on (the default) when the
 * model has a private_person category, a person's name found in a document
 * is also redacted where it comes back later in that document.  Set it
 * before the first detection; a function rather than a pii_ner_params field
 * so that the params struct, part of the ABI, keeps its layout. */
void pii_ner_set_name_memory(pii_ner *n, int on);
int pii_ner_name_memory(const pii_ner *n);
/* Name lexicon (docs/NER.md, "Name lexicon"): on (the default) when the
 * model has a private_person category, a given name of the built-in list
 * followed by a space and a capitalised word that is no common non-name
 * ("Tom Baker"), or such a word after an honorific or title ("Mr. Temple": the
 * span is "Temple"), or an author of an author-year citation ("(Porte,
 * 2012)", "Makel et al."), is a person span of score 0.75, found whatever the model
 * says (off while the person threshold is above 0.75).  The dictionary-word
 * filter has its own switch (pii_ner_set_dictionary_filter).  Set it before
 * the first detection. */
void pii_ner_set_name_lexicon(pii_ner *n, int on);
int pii_ner_name_lexicon(const pii_ner *n);
/* The lexicon's parts, each a heuristic with its own rule id (all on by
 * default; they run while the lexicon is on): a given name and a family name
 * ("name_lexicon"; with it a family name, ", " and a given name:
 * "name_inverted"), an honorific or title and a family name ("honorific"),
 * the authors of a citation ("citation").  Set before the first detection. */
#define PII_NER_LEX_PAIRS 1u
#define PII_NER_LEX_TITLES 2u
#define PII_NER_LEX_CITATIONS 4u
void pii_ner_set_name_lexicon_parts(pii_ner *n, unsigned parts);
unsigned pii_ner_name_lexicon_parts(const pii_ner *n);

/* The non-person filter (docs/NER.md, "Non-person filter"; on by default):
 * a model person span that is a code identifier, holds the head word of an
 * organisation ("Pierce Glynn Solicitors", "HMP Acklington"), or is made of
 * institutional, legal, technical or demonym words and imperatives alone
 * ("Fundamental Freedoms", "Staff SRE", "Add") is dropped, and the words
 * beside a name that are not part of it are cut off ("Tell Tom Baker" ->
 * "Tom Baker"), before the span teaches the name memory.  Set it before
 * the first detection. */
void pii_ner_set_name_filter(pii_ner *n, int on);
int pii_ner_name_filter(const pii_ner *n);
/* The dictionary-word filter (on by default; rule id "dictionary_filter" in
 * docs/NER.md): a model person span of lower-case words of the built-in
 * English dictionary list alone, none a given name ("the remand"), is
 * dropped.  Independent of the name lexicon.  Set it before the first
 * detection. */
void pii_ner_set_dictionary_filter(pii_ner *n, int on);
int pii_ner_dictionary_filter(const pii_ner *n);

/* The detector over the project's encoder (pii_model.h) and tokenizer
 * (pii_tok.h; NULL: the built-in o200k).  Both are borrowed and must
 * outlive the pii_ner.  The receptive field is the model's layers x
 * attention radius; the label space is its id2label; the calibration file
 * is looked for in the model's directory.  params.threads: > 1 (0: all
 * cores) gives the pii_ner a thread pool of its own, shared by all callers
 * (one pass at a time); 1 runs each pass on the calling thread (use it
 * when several worker threads share one pii_ner). */
typedef struct pii_model pii_model;
typedef struct pii_tok pii_tok;
pii_ner *pii_ner_create(const pii_model *model, const pii_tok *tok, const pii_ner_params *p,
                        pii_err *err, char *errbuf, size_t errcap);

/* The streaming detector (pii_redact.h contract).  shared = the pii_ner. */
pii_detector pii_ner_detector(const pii_ner *n);

/* One document, whole: exactly what the detector reports for it.  Holds
 * all of the document's tokens at once (about 20 bytes a token); for input
 * of unbounded size use the detector. */
pii_err pii_ner_detect(const pii_ner *n, const uint8_t *text, size_t len, pii_spanvec *out);

/* Several documents packed into shared forward passes; out[i] receives
 * document i's spans (appended).  Equal to pii_ner_detect per document. */
pii_err pii_ner_detect_batch(const pii_ner *n, const uint8_t *const *docs, const size_t *lens,
                             size_t ndocs, pii_spanvec *out);

/* Packing for stream users: the detector implements the lookahead of
 * pii_detector_class (pii_core.h).  Documents a pii_stream queues
 * (pii_stream_put) are computed together in shared
 * forward passes, exactly as pii_ner_detect_batch; each stream's detector
 * state also keeps a bounded cache of identical short documents (up to
 * 2 KiB each, 4,096 entries: at most 8 MiB of keys), unless
 * params.no_cache. */

/* Everything about one document (tests, `logits`-style tools). */
typedef struct pii_ner_result {
    size_t n;          /* tokens                         */
    int32_t *ids;      /* [n]                            */
    uint64_t *start;   /* [n] byte offsets               */
    uint64_t *end;     /* [n]                            */
    float *logits;     /* [n][C] raw logits (kept rows)  */
    int32_t *labels;   /* [n] decoded labels             */
    pii_spanvec spans; /* final spans                    */
} pii_ner_result;
pii_err pii_ner_analyze(const pii_ner *n, const uint8_t *text, size_t len, pii_ner_result *out);
void pii_ner_result_free(pii_ner_result *r);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif

#endif
