/* ner.c — the model detector: exact windows, exact streams, packed batches.
 *
 * Legend: n tokens of a document, W window (tokens per forward pass), H halo
 * (receptive field), s = W - 2H stride, C labels, K categories.
 *
 * One engine (ner_doc) serves every entry point.  A document goes through
 *   tokenize ─► windows (jobs) ─► packed forward (each window's kept rows:
 *   pii_model_forward_kept) ─► rows kept ─► log-softmax ─► decoder (online
 *   Viterbi / argmax) ─► §6.3 state machine ─► byte spans ─► threshold ─►
 *   widening ─► name memory (names.c: person spans teach, later words
 *   and words up to NER_NAMES_REACH bytes before them match) ─► §6.4
 *   resolver ─► the document's vote on lone words (doc_emit) ─► spans
 * and every stage only ever acts on what is final, so feeding the document
 * whole (pii_ner_detect, batches) or in pieces (the detector) gives the same
 * result.  The window layout depends on the token count alone (see
 * pii_ner.h), never on chunking.
 *
 * Memory per document: tokens from the first unconsumed window or the
 * first token of the open span (whichever is older) to the last final
 * token; log-prob rows of tokens whose labels are not final yet; with the
 * name memory, the text and spans of up to 3 x NER_NAMES_REACH bytes more. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ner_internal.h"
#include "pii_ner.h"

struct pii_ner {
    pii_ner_backend be;
    pii_ner_labels *L;
    pii_ner_viterbi *V;
    pii_ner_biases biases;
    char calib_file[4096];
    char calib_warn[512];
    size_t C, K;
    size_t W, H, stride, pack; /* pack: tokens per pass (be.par x pii_ner_pack_tokens) */
    size_t tail;               /* the last window of a document may be W + tail long */
    size_t max_lag, max_span;
    int no_cache;
    const char *person;            /* private_person, or NULL when the model has none */
    int name_memory, name_lexicon; /* names.c: on by default (with a person category) */
    int name_filter;               /* nonperson.c: on by default */
    int dict_filter;               /* lexicon.c's dictionary words: on by default */
    unsigned lex_parts;            /* PII_NER_LEX_*: all by default */
    int pcat;                      /* person's category index (thr), -1: none */
    ner_forward_kept_fn fwd_kept;  /* NULL: be.forward */
    pii_ner_decode_mode decode;
    float *thr; /* [K] */
    /* One spare backend context, so repeated one-shot calls do not rebuild
     * tokenizer caches and model workspaces each time. */
    pthread_mutex_t mu;
    void *spare_ctx;
    void *owner;
    void (*owner_free)(void *owner);
};

/* ---- params ---------------------------------------------------------------- */

pii_ner_params pii_ner_default_params(void)
{
    pii_ner_params p;
    memset(&p, 0, sizeof p);
    p.window = 0; /* auto: 8192, or 8 x halo for deeper models */
    p.pack_tokens = 0;
    p.threshold = 0.0f;
    snprintf(p.operating_point, sizeof p.operating_point, "default");
    p.decode = PII_NER_DECODE_VITERBI;
    p.max_lag = 4096;
    p.max_span_tokens = 4096;
    return p;
}

static int parse_float(const char *s, float *out)
{
    if (!s || !*s)
        return 0;
    char *end;
    float v = strtof(s, &end);
    if (*end != '\0' || !isfinite(v))
        return 0;
    *out = v;
    return 1;
}

pii_err pii_ner_params_threshold(pii_ner_params *p, const char *spec)
{
    if (!p || !spec)
        return PII_EINVAL;
    const char *eq = strrchr(spec, '=');
    float v;
    if (!eq) {
        if (!parse_float(spec, &v) || v < 0.0f || v > 1.0f)
            return PII_EINVAL;
        p->threshold = v;
        return PII_OK;
    }
    size_t ln = (size_t)(eq - spec);
    if (ln == 0 || ln >= PII_NER_NAME_MAX || !parse_float(eq + 1, &v) || v < 0.0f || v > 1.0f)
        return PII_EINVAL;
    size_t i;
    for (i = 0; i < p->nlabel_thresholds; i++)
        if (strlen(p->label_thresholds[i].label) == ln &&
            memcmp(p->label_thresholds[i].label, spec, ln) == 0)
            break;
    if (i == p->nlabel_thresholds) {
        if (i == PII_NER_MAX_LABEL_THRESHOLDS)
            return PII_ETOOBIG;
        memcpy(p->label_thresholds[i].label, spec, ln);
        p->label_thresholds[i].label[ln] = '\0';
        p->nlabel_thresholds++;
    }
    p->label_thresholds[i].value = v;
    return PII_OK;
}

pii_err pii_ner_params_bias(pii_ner_params *p, const char *spec)
{
    if (!p || !spec)
        return PII_EINVAL;
    const char *eq = strchr(spec, '=');
    if (!eq || eq == spec || (size_t)(eq - spec) >= 128)
        return PII_EINVAL;
    char key[128];
    memcpy(key, spec, (size_t)(eq - spec));
    key[eq - spec] = '\0';
    int i = pii_ner_bias_index(key);
    float v;
    if (i < 0 || !parse_float(eq + 1, &v))
        return PII_EINVAL;
    p->bias_override.v[i] = v;
    p->bias_mask |= 1u << i;
    return PII_OK;
}

pii_err pii_ner_params_decode(pii_ner_params *p, const char *mode)
{
    if (!p || !mode)
        return PII_EINVAL;
    if (strcmp(mode, "viterbi") == 0)
        p->decode = PII_NER_DECODE_VITERBI;
    else if (strcmp(mode, "argmax") == 0)
        p->decode = PII_NER_DECODE_ARGMAX;
    else
        return PII_EINVAL;
    return PII_OK;
}

pii_err pii_ner_toks_push(pii_ner_toks *t, int32_t id, uint64_t end)
{
    if (t->n == t->cap) {
        size_t nc = t->cap ? t->cap * 2 : 256;
        int32_t *ni = realloc(t->ids, nc * sizeof *ni);
        if (!ni)
            return PII_ENOMEM;
        t->ids = ni;
        uint64_t *ne = realloc(t->end, nc * sizeof *ne);
        if (!ne)
            return PII_ENOMEM;
        t->end = ne;
        t->cap = nc;
    }
    t->ids[t->n] = id;
    t->end[t->n] = end;
    t->n++;
    return PII_OK;
}

void pii_ner_toks_free(pii_ner_toks *t)
{
    if (!t)
        return;
    free(t->ids);
    free(t->end);
    memset(t, 0, sizeof *t);
}

/* ---- creation ------------------------------------------------------------------ */

static void seterr(char *buf, size_t cap, const char *fmt, const char *a, const char *b)
{
    if (buf && cap)
        snprintf(buf, cap, fmt, a, b);
}

void pii_ner_free(pii_ner *n)
{
    if (!n)
        return;
    pii_ner_viterbi_free(n->V);
    pii_ner_labels_free(n->L);
    free(n->thr);
    if (n->spare_ctx && n->be.ctx_free)
        n->be.ctx_free(n->be.ud, n->spare_ctx);
    pthread_mutex_destroy(&n->mu);
    if (n->owner_free)
        n->owner_free(n->owner);
    free(n);
}

void pii_ner_set_owner(pii_ner *n, void *owner, void (*owner_free)(void *))
{
    n->owner = owner;
    n->owner_free = owner_free;
}

/* Operating point: calibration file (explicit, or the model directory's
 * when present, unless no_calibration), then overrides. */
static pii_err resolve_biases(const pii_ner_backend *be, const pii_ner_params *p, pii_ner *n,
                              char *errbuf, size_t errcap)
{
    pii_ner_biases *out = &n->biases;
    memset(out, 0, sizeof *out);
    const char *point = p->operating_point[0] ? p->operating_point : "default";
    int is_default = strcmp(point, "default") == 0;
    char path[4096];
    const char *use = NULL;
    if (p->no_calibration && p->calibration_path) {
        seterr(errbuf, errcap, "%s%s", "a calibration file and no calibration were both asked for",
               "");
        return PII_EINVAL;
    }
    if (p->calibration_path) {
        use = p->calibration_path;
    } else if (be->model_dir && !p->no_calibration) {
        int w = snprintf(path, sizeof path, "%s/viterbi_calibration.json", be->model_dir);
        if (w > 0 && (size_t)w < sizeof path && access(path, F_OK) == 0)
            use = path;
    }
    if (use) {
        pii_err e = pii_ner_calibration_load_ex(use, point, out, n->calib_warn,
                                                sizeof n->calib_warn, errbuf, errcap);
        if (e)
            return e;
        snprintf(n->calib_file, sizeof n->calib_file, "%s", use);
    } else if (!is_default) {
        seterr(errbuf, errcap,
               "operating point \"%s\" needs a viterbi_calibration.json (none found%s)", point,
               p->no_calibration ? ": calibration is off"
               : be->model_dir   ? " in the model directory"
                                 : "");
        return PII_ENOTFOUND;
    }
    for (int i = 0; i < PII_NER_NBIAS; i++)
        if (p->bias_mask & (1u << i))
            out->v[i] = p->bias_override.v[i];
    return PII_OK;
}

pii_ner *pii_ner_create_backend(const pii_ner_backend *be, const pii_ner_params *pp, pii_err *err,
                                char *errbuf, size_t errcap)
{
    pii_ner_params defaults = pii_ner_default_params();
    const pii_ner_params *p = pp ? pp : &defaults;
    pii_err e = PII_OK;
    pii_ner *n = NULL;
    if (!be || !be->labels || !be->nlabels || !be->tokenize || !be->forward) {
        e = PII_EINVAL;
        seterr(errbuf, errcap, "%s%s", "incomplete model backend", "");
        goto fail;
    }
    if (!(n = calloc(1, sizeof *n))) {
        e = PII_ENOMEM;
        goto fail;
    }
    n->be = *be;
    pthread_mutex_init(&n->mu, NULL);
    if (!(n->L = pii_ner_labels_create(be->labels, be->nlabels, &e, errbuf, errcap)))
        goto fail;
    n->C = pii_ner_labels_count(n->L);
    n->K = pii_ner_labels_ncat(n->L);
    if ((e = resolve_biases(be, p, n, errbuf, errcap)))
        goto fail;
    if (!(n->V = pii_ner_viterbi_create(n->L, &n->biases, &e)))
        goto fail;
    if (!(n->thr = malloc((n->K ? n->K : 1) * sizeof *n->thr))) {
        e = PII_ENOMEM;
        goto fail;
    }
    for (size_t k = 0; k < n->K; k++)
        n->thr[k] = p->threshold;
    for (size_t i = 0; i < p->nlabel_thresholds && i < PII_NER_MAX_LABEL_THRESHOLDS; i++) {
        int k = pii_ner_labels_find_category(n->L, p->label_thresholds[i].label);
        if (k < 0) {
            e = PII_EINVAL;
            seterr(errbuf, errcap, "threshold for \"%s\": the model has no such label%s",
                   p->label_thresholds[i].label, "");
            goto fail;
        }
        n->thr[k] = p->label_thresholds[i].value;
    }
    n->H = be->halo;
    n->W = p->window ? p->window : (8 * n->H > 8192 ? 8 * n->H : 8192);
    if (n->W <= 2 * n->H) {
        e = PII_EINVAL;
        char a[32], b[32];
        snprintf(a, sizeof a, "%zu", n->W);
        snprintf(b, sizeof b, "%zu", 2 * n->H + 1);
        seterr(errbuf, errcap,
               "window %s is too small: windows need at least %s tokens (2 x receptive field + 1)",
               a, b);
        goto fail;
    }
    n->stride = n->W - 2 * n->H;
    n->tail = n->W / 4;
    n->no_cache = p->no_cache;
    int pc = pii_ner_labels_find_category(n->L, "private_person");
    n->pcat = pc;
    n->person = pc >= 0 ? pii_ner_labels_category(n->L, (size_t)pc) : NULL;
    n->name_memory = n->name_lexicon = n->name_filter = n->dict_filter = 1;
    n->lex_parts = PII_NER_LEX_PAIRS | PII_NER_LEX_TITLES | PII_NER_LEX_CITATIONS;
    /* A pass of one long document's window runs on all threads at once;
     * packs of short documents hold 4096 tokens per thread (the window
     * then only bounds a long document's halo share: 2 x halo / window) */
    n->pack = (p->pack_tokens ? p->pack_tokens
               : p->window    ? n->W
                              : 4096) *
              (be->par > 1 ? be->par : 1);
    n->decode = p->decode;
    n->max_lag = p->max_lag;
    n->max_span = p->max_span_tokens;
    if (err)
        *err = PII_OK;
    return n;
fail:
    pii_ner_free(n);
    if (err)
        *err = e ? e : PII_EINTERNAL;
    return NULL;
}

void pii_ner_set_forward_kept(pii_ner *n, ner_forward_kept_fn fn)
{
    n->fwd_kept = fn;
}

void pii_ner_set_name_memory(pii_ner *n, int on)
{
    n->name_memory = on != 0;
}

int pii_ner_name_memory(const pii_ner *n)
{
    return n->person && n->name_memory;
}

void pii_ner_set_name_lexicon(pii_ner *n, int on)
{
    n->name_lexicon = on != 0;
}

int pii_ner_name_lexicon(const pii_ner *n)
{
    return n->person && n->name_lexicon;
}

void pii_ner_set_name_lexicon_parts(pii_ner *n, unsigned parts)
{
    n->lex_parts = parts & (PII_NER_LEX_PAIRS | PII_NER_LEX_TITLES | PII_NER_LEX_CITATIONS);
}

unsigned pii_ner_name_lexicon_parts(const pii_ner *n)
{
    return n->lex_parts;
}

void pii_ner_set_dictionary_filter(pii_ner *n, int on)
{
    n->dict_filter = on != 0;
}

int pii_ner_dictionary_filter(const pii_ner *n)
{
    return n->person && n->dict_filter;
}

void pii_ner_set_name_filter(pii_ner *n, int on)
{
    n->name_filter = on != 0;
}

int pii_ner_name_filter(const pii_ner *n)
{
    return n->person && n->name_filter;
}

/* Does the document scan its words for names (names.c)? */
static int names_on(const pii_ner *n)
{
    return n->person && (n->name_memory || n->name_lexicon);
}

const char *pii_ner_calibration_file(const pii_ner *n)
{
    return n->calib_file;
}

const char *pii_ner_calibration_warning(const pii_ner *n)
{
    return n->calib_warn;
}

const pii_ner_labels *pii_ner_get_labels(const pii_ner *n)
{
    return n->L;
}

pii_ner_biases pii_ner_get_biases(const pii_ner *n)
{
    return n->biases;
}

size_t pii_ner_halo(const pii_ner *n)
{
    return n->H;
}

size_t pii_ner_window(const pii_ner *n)
{
    return n->W;
}

size_t pii_ner_pack_tokens(const pii_ner *n)
{
    return n->pack / (n->be.par > 1 ? n->be.par : 1);
}

size_t pii_ner_window_max(const pii_ner *n)
{
    return n->W + n->tail;
}

/* ---- the per-document engine ---------------------------------------------------- */

/* A span whose widened end (pii_ner_widen_right, at most lim) waits for more
 * bytes. */
typedef struct ner_held {
    pii_span sp;
    uint64_t lim;
} ner_held;

typedef struct ner_doc {
    const pii_ner *n;
    /* final tokens [tbase, tn), slot i - tbase */
    int32_t *tid;
    uint64_t *ts, *te;
    size_t tcap;
    uint64_t tbase, tn;
    uint64_t tf;  /* bytes tokenized (a pre-token boundary) */
    int tok_done; /* the document ended and is fully tokenized */
    /* windows: next_k scheduled, cons_k consumed */
    uint64_t next_k, cons_k;
    int win_done; /* the last window is scheduled */
    uint64_t lg;  /* tokens with final log-prob rows */
    float *rows;  /* rows [rbase, lg), slot i - rbase, [C] each */
    size_t rcap;  /* rows allocated */
    uint64_t rbase;
    pii_ner_online *ov; /* NULL for argmax */
    int32_t *lab;
    size_t labcap;
    ner_sm sm;
    ner_resolver rs;
    int finished;
    ner_text tx;    /* the bytes of the current call */
    int eod;        /* tx ends the document */
    ner_held *held; /* spans waiting for bytes to widen over */
    size_t nheld, heldcap;
    pii_ner_toks tmp;  /* tokenizer output */
    ner_names names;   /* name memory (names.c) */
    uint64_t pscan;    /* bytes before this are scanned for taught names */
    pii_spanvec cv;    /* resolved spans not handed out yet (the vote, doc_emit) */
    uint64_t (*hv)[2]; /* resolved person spans, [start, end), for the vote */
    size_t hn, hcap;
    pii_ner_result *rec; /* analyze: record everything */
    size_t rec_tcap, rec_lcap;
} ner_doc;

typedef struct ner_job {
    ner_doc *d;
    uint64_t ws;   /* first token */
    size_t wlen;   /* tokens */
    size_t lo, hi; /* kept rows */
} ner_job;

static void doc_free(ner_doc *d)
{
    free(d->tid);
    free(d->ts);
    free(d->te);
    free(d->rows);
    free(d->lab);
    pii_ner_online_free(d->ov);
    pii_ner_resolver_free(&d->rs);
    pii_ner_toks_free(&d->tmp);
    free(d->held);
    free(d->cv.v);
    free(d->hv);
    pii_ner_names_free(&d->names);
}

/* What the document's word scan looks for (names.c). */
static void doc_names_mode(ner_doc *d)
{
    const pii_ner *n = d->n;
    d->names.memory = n->person && n->name_memory;
    /* lexicon spans carry NER_LEX_SCORE: a higher person threshold drops them */
    d->names.lexicon =
        n->person && n->name_lexicon && NER_LEX_SCORE >= n->thr[n->pcat] ? n->lex_parts : 0;
}

static pii_err doc_init(ner_doc *d, const pii_ner *n)
{
    memset(d, 0, sizeof *d);
    d->n = n;
    pii_err e = PII_OK;
    if (n->decode == PII_NER_DECODE_VITERBI &&
        !(d->ov = pii_ner_online_create(n->V, n->max_lag, &e)))
        return e;
    pii_ner_sm_init(&d->sm, n->L, n->max_span);
    pii_ner_names_reset(&d->names); /* as doc_reset: the first word starts a sentence */
    doc_names_mode(d);
    return PII_OK;
}

static void doc_reset(ner_doc *d)
{
    d->tbase = d->tn = d->tf = 0;
    d->tok_done = 0;
    d->next_k = d->cons_k = 0;
    d->win_done = 0;
    d->lg = d->rbase = 0;
    if (d->ov)
        pii_ner_online_reset(d->ov);
    pii_ner_sm_init(&d->sm, d->n->L, d->n->max_span);
    pii_ner_resolver_reset(&d->rs);
    d->finished = 0;
    d->eod = 0;
    d->nheld = 0;
    pii_ner_names_reset(&d->names);
    doc_names_mode(d);
    d->pscan = 0;
    d->cv.n = d->hn = 0;
}

/* Oldest token still needed: the first unconsumed window's start, or the
 * first token of the open span / of the unlabelled tokens. */
static uint64_t doc_tok_floor(const ner_doc *d)
{
    uint64_t a = d->cons_k * (uint64_t)d->n->stride;
    uint64_t b = ner_sm_pending_token(&d->sm);
    uint64_t m = a < b ? a : b;
    return m < d->tn ? m : d->tn;
}

static pii_err tok_reserve(ner_doc *d, size_t k)
{
    size_t live = (size_t)(d->tn - d->tbase);
    if (live + k <= d->tcap)
        return PII_OK;
    uint64_t lo = doc_tok_floor(d);
    if (lo > d->tbase) {
        size_t drop = (size_t)(lo - d->tbase);
        live -= drop;
        memmove(d->tid, d->tid + drop, live * sizeof *d->tid);
        memmove(d->ts, d->ts + drop, live * sizeof *d->ts);
        memmove(d->te, d->te + drop, live * sizeof *d->te);
        d->tbase = lo;
    }
    if (live + k <= d->tcap / 2 + 1 && live + k <= d->tcap)
        return PII_OK;
    size_t nc = d->tcap ? d->tcap : 1024;
    while (nc < 2 * (live + k))
        nc *= 2;
    int32_t *a = realloc(d->tid, nc * sizeof *a);
    if (!a)
        return PII_ENOMEM;
    d->tid = a;
    uint64_t *b = realloc(d->ts, nc * sizeof *b);
    if (!b)
        return PII_ENOMEM;
    d->ts = b;
    uint64_t *c = realloc(d->te, nc * sizeof *c);
    if (!c)
        return PII_ENOMEM;
    d->te = c;
    d->tcap = nc;
    return PII_OK;
}

static pii_err rows_reserve(ner_doc *d, size_t k)
{
    size_t C = d->n->C;
    size_t live = (size_t)(d->lg - d->rbase);
    if (live + k <= d->rcap)
        return PII_OK;
    uint64_t lo = d->sm.t; /* rows of labelled tokens are no longer needed */
    if (lo > d->rbase) {
        size_t drop = (size_t)(lo - d->rbase);
        live -= drop;
        memmove(d->rows, d->rows + drop * C, live * C * sizeof *d->rows);
        d->rbase = lo;
    }
    if (live + k <= d->rcap / 2 + 1 && live + k <= d->rcap)
        return PII_OK;
    size_t nc = d->rcap ? d->rcap : 256;
    while (nc < 2 * (live + k))
        nc *= 2;
    float *r = realloc(d->rows, nc * C * sizeof *r);
    if (!r)
        return PII_ENOMEM;
    d->rows = r;
    d->rcap = nc;
    return PII_OK;
}

/* Tokenizes what is final in the current bytes. */
static pii_err doc_tokenize(ner_doc *d, void *ctx, int eod)
{
    if (d->tok_done)
        return PII_OK;
    const pii_ner *n = d->n;
    size_t off = (size_t)(d->tf - d->tx.base);
    size_t avail = d->tx.len - off;
    if (avail == 0 && !eod)
        return PII_OK;
    d->tmp.n = 0;
    size_t used = 0;
    pii_err e = PII_OK;
    if (avail)
        e = n->be.tokenize(n->be.ud, ctx, d->tx.p + off, avail, eod, &d->tmp, &used);
    if (e)
        return e;
    if (eod)
        used = avail;
    if (used > avail)
        return PII_ETOKENIZER;
    /* the tokens must tile [0, used) */
    uint64_t prev = 0;
    for (size_t i = 0; i < d->tmp.n; i++) {
        if (d->tmp.end[i] <= prev)
            return PII_ETOKENIZER;
        prev = d->tmp.end[i];
    }
    if (prev != used)
        return PII_ETOKENIZER;
    if ((e = tok_reserve(d, d->tmp.n)))
        return e;
    if (d->rec) {
        pii_ner_result *r = d->rec;
        size_t need = r->n + d->tmp.n;
        size_t c0 = d->rec_tcap;
        if ((e = PII_VEC_RESERVE(r->ids, c0, need)))
            return e;
        c0 = d->rec_tcap;
        if ((e = PII_VEC_RESERVE(r->start, c0, need)))
            return e;
        c0 = d->rec_tcap;
        if ((e = PII_VEC_RESERVE(r->end, c0, need)))
            return e;
        d->rec_tcap = c0;
    }
    prev = 0;
    for (size_t i = 0; i < d->tmp.n; i++) {
        size_t slot = (size_t)(d->tn - d->tbase);
        d->tid[slot] = d->tmp.ids[i];
        d->ts[slot] = d->tf + prev;
        d->te[slot] = d->tf + d->tmp.end[i];
        prev = d->tmp.end[i];
        if (d->rec) {
            pii_ner_result *r = d->rec;
            r->ids[r->n] = d->tid[slot];
            r->start[r->n] = d->ts[slot];
            r->end[r->n] = d->te[slot];
            r->n++;
        }
        d->tn++;
    }
    d->tf += used;
    if (eod)
        d->tok_done = 1;
    return PII_OK;
}

/* The next window that can run now, if any. */
static int doc_next_job(ner_doc *d, ner_job *j)
{
    const pii_ner *n = d->n;
    if (d->win_done)
        return 0;
    uint64_t k = d->next_k, ws = k * (uint64_t)n->stride;
    size_t wlen;
    int last;
    if (d->tok_done) {
        if (d->tn == 0) {
            d->win_done = 1;
            return 0;
        }
        /* the last window takes a remainder of up to W + tail tokens
         * whole: no second window with its halo for a short tail */
        uint64_t rest = d->tn - ws;
        last = rest <= n->W + n->tail;
        wlen = last ? (size_t)rest : n->W;
    } else {
        if (d->tn <= ws + n->W + n->tail)
            return 0; /* not known yet whether this window is the last */
        wlen = n->W;
        last = 0;
    }
    j->d = d;
    j->ws = ws;
    j->wlen = wlen;
    j->lo = k ? n->H : 0;
    j->hi = last ? wlen : wlen - n->H;
    d->next_k++;
    if (last)
        d->win_done = 1;
    return 1;
}

/* A final span (whole words: widened): taught to the name memory, handed
 * to the resolver.  With the dictionary-word filter, a person span of lower-case
 * dictionary words alone is dropped ("the remand", "her highborn
 * kinsman"): a common word read as a name.  With the non-person filter, a
 * person span that names no person is dropped and the words beside a name
 * are cut off (nonperson.c) — before it teaches the name memory. */
static pii_err doc_resolve(ner_doc *d, const pii_span *in)
{
    pii_span cut = *in;
    const pii_span *sp = &cut;
    if (d->n->dict_filter && sp->label == d->n->person &&
        pii_ner_lex_common_only(d->tx.p + (sp->start - d->tx.base), (size_t)(sp->end - sp->start)))
        return PII_OK;
    if (d->n->name_filter && !strcmp(sp->label, "private_address") &&
        !pii_ner_address_filter(&d->tx, sp->start, sp->end))
        return PII_OK; /* "Likewise", a list of languages: no address */
    if (!strcmp(sp->label, "private_email") &&
        !memchr(d->tx.p + (sp->start - d->tx.base), '@', (size_t)(sp->end - sp->start)) &&
        !pii_ner_has_fullwidth_at(&d->tx, sp->start, sp->end))
        return PII_OK; /* no "@": no e-mail address ("openssl/e_os2.h") */
    if (!strcmp(sp->label, "private_email"))
        pii_ner_email_core(&d->tx, &cut.start, &cut.end);
    if (!strcmp(sp->label, "secret") && pii_ner_digest_span(&d->tx, sp->start, sp->end))
        return PII_OK; /* a digest or commit id, no credential */
    if (d->n->name_filter && sp->label == d->n->person) {
        if (!pii_ner_person_filter(&d->tx, &cut.start, &cut.end))
            return PII_OK;
        if (pii_ner_org_after(&d->tx, cut.end, d->eod))
            return PII_OK; /* "Baxter Moore Solicitors": an organisation (doc_waits) */
    }
    if (d->names.memory && sp->label == d->n->person) {
        pii_err e = pii_ner_names_offer(&d->names, &d->tx, sp, d->n->person, &d->rs);
        if (e)
            return e;
    }
    return pii_ner_resolver_add(&d->rs, sp);
}

/* Must a final person span wait for the word after it (the non-person
 * filter's look at an organisation's head word, not in view yet)? */
static int doc_waits(const ner_doc *d, const pii_span *sp)
{
    if (!d->n->name_filter || sp->label != d->n->person)
        return 0;
    uint64_t s = sp->start, e = sp->end;
    return pii_ner_person_filter(&d->tx, &s, &e) && pii_ner_org_after(&d->tx, e, d->eod) < 0;
}

static pii_err doc_hold(ner_doc *d, const pii_span *sp, uint64_t lim)
{
    pii_err err = PII_VEC_RESERVE(d->held, d->heldcap, d->nheld + 1);
    if (err)
        return err;
    d->held[d->nheld++] = (ner_held){*sp, lim};
    return PII_OK;
}

static pii_err doc_add_tspan(ner_doc *d, const ner_tsp *t)
{
    const pii_ner *n = d->n;
    uint64_t fs = d->ts[t->ts - d->tbase], le = d->te[t->te - 1 - d->tbase];
    uint64_t s, e;
    if (fs < d->tx.base || le > d->tx.base + d->tx.len)
        return PII_EINTERNAL; /* the bytes must be in view (see doc_keep) */
    if (!pii_ner_byte_span(&d->tx, pii_ner_labels_category(n->L, t->cat), fs, le, &s, &e))
        return PII_OK;
    float score = (float)(t->psum / (double)(t->te - t->ts));
    if (!(score >= n->thr[t->cat]))
        return PII_OK;
    pii_span sp = {s, e, pii_ner_labels_category(n->L, t->cat), NULL, score, PII_SRC_MODEL};
    uint64_t lim = sp.end + NER_WIDEN_MAX;
    if (pii_ner_widens(sp.label)) {
        sp.start = pii_ner_widen_left(&d->tx, sp.label, sp.start);
        lim = pii_ner_widen_lim(sp.label, sp.end); /* opaque values: to their end */
        if (!pii_ner_widen_right(&d->tx, sp.label, &sp.end, lim, d->eod))
            return doc_hold(d, &sp, lim);
    }
    if (doc_waits(d, &sp))
        return doc_hold(d, &sp, lim);
    return doc_resolve(d, &sp);
}

/* Widens the held spans over the bytes now in view; adds the final ones. */
static pii_err doc_release(ner_doc *d)
{
    size_t k = 0;
    pii_err e = PII_OK;
    for (size_t i = 0; i < d->nheld; i++) {
        ner_held *h = &d->held[i];
        if (!e &&
            (!pii_ner_widens(h->sp.label) ||
             pii_ner_widen_right(&d->tx, h->sp.label, &h->sp.end, h->lim, d->eod)) &&
            !doc_waits(d, &h->sp))
            e = doc_resolve(d, &h->sp);
        else
            d->held[k++] = *h;
    }
    d->nheld = k;
    return e;
}

/* Start of the oldest held span (UINT64_MAX: none). */
static uint64_t doc_held_min(const ner_doc *d)
{
    uint64_t m = UINT64_MAX;
    for (size_t i = 0; i < d->nheld; i++)
        if (d->held[i].sp.start < m)
            m = d->held[i].sp.start;
    return m;
}

/* Feeds final labels (for tokens sm.t, sm.t+1, ...) to the span machine. */
static pii_err doc_labels(ner_doc *d, const int32_t *lab, size_t k)
{
    const pii_ner *n = d->n;
    pii_err e;
    if (d->rec) {
        size_t c0 = d->rec_lcap;
        if ((e = PII_VEC_RESERVE(d->rec->labels, c0, d->sm.t + k)))
            return e;
        d->rec_lcap = c0;
    }
    for (size_t i = 0; i < k; i++) {
        uint64_t t = d->sm.t;
        const float *row = d->rows + (size_t)(t - d->rbase) * n->C;
        double prob = exp((double)row[lab[i]]);
        if (d->rec)
            d->rec->labels[t] = lab[i];
        ner_tsp out[2];
        int m = pii_ner_sm_push(&d->sm, lab[i], prob, out);
        for (int j = 0; j < m; j++)
            if ((e = doc_add_tspan(d, &out[j])))
                return e;
    }
    return PII_OK;
}

static pii_err doc_take_labels(ner_doc *d)
{
    pii_err e;
    if (!d->ov) {
        /* argmax: every row's label is final at once */
        size_t k = (size_t)(d->lg - d->sm.t);
        if ((e = PII_VEC_RESERVE(d->lab, d->labcap, k ? k : 1)))
            return e;
        pii_ner_argmax(d->rows + (size_t)(d->sm.t - d->rbase) * d->n->C, k, d->n->C, d->lab);
        return doc_labels(d, d->lab, k);
    }
    size_t ready;
    while ((ready = pii_ner_online_ready(d->ov)) > 0) {
        if ((e = PII_VEC_RESERVE(d->lab, d->labcap, ready)))
            return e;
        size_t k = pii_ner_online_take(d->ov, d->lab, ready);
        if ((e = doc_labels(d, d->lab, k)))
            return e;
    }
    return PII_OK;
}

/* Takes the kept rows of a window's logits[wlen][C]. */
static pii_err doc_consume(ner_doc *d, const ner_job *j, const float *logits)
{
    const pii_ner *n = d->n;
    size_t C = n->C, r = j->hi - j->lo;
    pii_err e;
    if (j->ws + j->lo != d->lg)
        return PII_EINTERNAL;
    if ((e = rows_reserve(d, r)))
        return e;
    float *dst = d->rows + (size_t)(d->lg - d->rbase) * C;
    pii_ner_log_softmax(logits + j->lo * C, r, C, dst);
    if (d->rec) {
        pii_ner_result *R = d->rec;
        float *nl = realloc(R->logits, (size_t)(d->lg + r) * C * sizeof *nl);
        if (!nl)
            return PII_ENOMEM;
        R->logits = nl;
        memcpy(R->logits + (size_t)d->lg * C, logits + j->lo * C, r * C * sizeof *nl);
    }
    if (d->ov && (e = pii_ner_online_push(d->ov, dst, r)))
        return e;
    d->lg += r;
    d->cons_k++;
    return doc_take_labels(d);
}

/* First byte of the first token whose label is not final (or of the open
 * span); the bytes tokenized when every token is labelled. */
static uint64_t doc_pending_byte(const ner_doc *d)
{
    uint64_t p = ner_sm_pending_token(&d->sm);
    return p < d->tn ? d->ts[p - d->tbase] : d->tf;
}

/* Byte offset that every later span starts at or after: the pending
 * token's first character, less what widening may add on the left, and no
 * later than a held span. */
static uint64_t doc_boundary(const ner_doc *d)
{
    uint64_t pos = doc_pending_byte(d);
    if (pos < d->tx.base + d->tx.len)
        pos = d->tx.base + pii_ner_char_start(d->tx.p, d->tx.len, (size_t)(pos - d->tx.base));
    pos = pos > NER_WIDEN_MAX ? pos - NER_WIDEN_MAX : 0;
    if (names_on(d->n) && d->pscan < pos)
        pos = d->pscan; /* a name may still be found from there */
    uint64_t h = doc_held_min(d);
    return h < pos ? h : pos;
}

/* Byte offset that every span the resolver will still take starts at or
 * after: with the name memory, a span that teaches reaches NER_NAMES_REACH
 * bytes back. */
static uint64_t doc_rboundary(const ner_doc *d)
{
    uint64_t b = doc_boundary(d);
    if (!d->names.memory)
        return b;
    return b > NER_NAMES_REACH ? b - NER_NAMES_REACH : 0;
}

/* Byte offset before which no span will be handed out any more. */
static uint64_t doc_done(const ner_doc *d)
{
    uint64_t b = doc_rboundary(d);
    return d->cv.n && d->cv.v[0].start < b ? d->cv.v[0].start : b;
}

/* Lowest byte offset the document needs to see again. */
static uint64_t doc_keep(const ner_doc *d)
{
    uint64_t pos = doc_pending_byte(d);
    if (d->tf < pos)
        pos = d->tf;
    /* the widening's bytes, and the digest filter's before them */
    pos = pos > 3 + NER_WIDEN_MAX + NER_DIGEST_BACK ? pos - 3 - NER_WIDEN_MAX - NER_DIGEST_BACK : 0;
    if (names_on(d->n) && d->pscan < pos)
        pos = d->pscan;
    uint64_t h = doc_held_min(d);
    if (h < pos)
        pos = h;
    if (d->names.memory) {
        /* the reach back of later teachers and the vote of every span
         * not handed out yet (doc_emit) */
        uint64_t b = doc_done(d), r = NER_NAMES_REACH + NER_NAMES_SLACK;
        b = b > r ? b - r : 0;
        if (b < pos)
            pos = b;
    }
    return pos;
}

static int doc_complete(const ner_doc *d)
{
    return d->tok_done && d->win_done && d->cons_k == d->next_k;
}

/* Name memory: scans the bytes before which every span is known (spans
 * ending there are taught; later ones start after them) for taught
 * names.  final: the whole document is known. */
static pii_err doc_names(ner_doc *d, int final)
{
    if (!names_on(d->n))
        return PII_OK;
    uint64_t lim = d->tx.base + d->tx.len;
    if (!final) {
        uint64_t pos = doc_pending_byte(d);
        uint64_t h = doc_held_min(d);
        if (pos < lim)
            lim = pos;
        if (h < lim)
            lim = h;
    }
    if (d->pscan < d->tx.base)
        return PII_EINTERNAL; /* the bytes must be in view (see doc_keep) */
    return pii_ner_names_scan(&d->names, &d->tx, &d->pscan, lim, final, d->n->person, &d->rs);
}

/* The document's vote on a lone word (docs/NER.md, "Name memory"): is sp
 * a person span scored under NER_VOTE_MAX_SCORE, of one capitalised word,
 * no given name of the lexicon, that
 * comes back at least twice more within NER_NAMES_REACH bytes either side,
 * where fewer than half of its occurrences are in person spans?  The model
 * then read a place or a thing as a name once ("Polaroid" marked once of
 * five times).  1: drop it, 0: keep it, -1: the bytes are not in view. */
static int doc_vote_drop(const ner_doc *d, const pii_span *sp)
{
    const ner_text *tx = &d->tx;
    if (!(sp->score < NER_VOTE_MAX_SCORE))
        return 0; /* a confident reading stands ("Jordan said ..." beside the country) */
    uint64_t lo = sp->start > NER_NAMES_REACH ? sp->start - NER_NAMES_REACH : 0;
    if ((lo > NER_NAMES_SLACK ? lo - NER_NAMES_SLACK : 0) < tx->base)
        return -1;
    if (!pii_ner_names_lone(tx, sp->start, sp->end))
        return 0;
    uint64_t at[64];
    size_t len = (size_t)(sp->end - sp->start);
    size_t n = pii_ner_names_occurrences(tx, lo, sp->end + NER_NAMES_REACH,
                                         tx->p + (sp->start - tx->base), len, at, 64);
    if (n < 3 || n > 64)
        return 0; /* too few to outvote it; too many to count: keep */
    size_t k = 0, h = 0;
    for (size_t i = 0; i < n; i++) { /* both in document order */
        while (h < d->hn && d->hv[h][1] <= at[i])
            h++;
        k += h < d->hn && d->hv[h][0] < at[i] + len;
    }
    return 2 * k < n;
}

/* Hands out the resolved spans whose vote is known (all of them when
 * final): a span's vote needs every span within NER_NAMES_REACH bytes
 * after it, so those spans must have left the resolver (start < rb). */
static pii_err doc_emit(ner_doc *d, uint64_t rb, int final, pii_spanvec *out)
{
    size_t i = 0;
    pii_err e = PII_OK;
    for (; i < d->cv.n; i++) {
        const pii_span *sp = &d->cv.v[i];
        int drop = 0;
        if (d->names.memory) {
            if (!final && sp->end + NER_NAMES_REACH > rb)
                break;
            if (sp->label == d->n->person && (drop = doc_vote_drop(d, sp)) < 0) {
                e = PII_EINTERNAL; /* the bytes must be in view (see doc_keep) */
                break;
            }
        }
        if (!drop && (e = pii_spanvec_push(out, sp)))
            break;
    }
    if (i) {
        memmove(d->cv.v, d->cv.v + i, (d->cv.n - i) * sizeof *d->cv.v);
        d->cv.n -= i;
    }
    /* later votes look back from the first span left (or from rb) */
    uint64_t a = d->cv.n ? d->cv.v[0].start : rb, h = 0;
    while (h < d->hn && d->hv[h][1] + NER_NAMES_REACH <= a)
        h++;
    if (h) {
        memmove(d->hv, d->hv + h, (d->hn - h) * sizeof *d->hv);
        d->hn -= h;
    }
    return e;
}

/* Flushes the resolver up to rb into the spans to hand out; person spans
 * are also kept for the vote. */
static pii_err doc_resolved(ner_doc *d, uint64_t rb, int final, pii_spanvec *out)
{
    size_t n0 = d->cv.n;
    pii_err e = pii_ner_resolver_flush(&d->rs, rb, &d->cv);
    for (size_t i = n0; !e && i < d->cv.n; i++) {
        if (!d->names.memory || d->cv.v[i].label != d->n->person)
            continue;
        if (!(e = PII_VEC_RESERVE(d->hv, d->hcap, d->hn + 1))) {
            d->hv[d->hn][0] = d->cv.v[i].start;
            d->hv[d->hn][1] = d->cv.v[i].end;
            d->hn++;
        }
    }
    return e ? e : doc_emit(d, rb, final, out);
}

static pii_err doc_flush(ner_doc *d, pii_spanvec *out)
{
    pii_err e;
    if (!d->finished && doc_complete(d)) {
        if (d->ov) {
            if ((e = pii_ner_online_finish(d->ov)) || (e = doc_take_labels(d)))
                return e;
        }
        ner_tsp t;
        if (pii_ner_sm_finish(&d->sm, &t) && (e = doc_add_tspan(d, &t)))
            return e;
        if ((e = doc_release(d)) || (e = doc_names(d, 1)))
            return e;
        d->finished = 1;
        return doc_resolved(d, UINT64_MAX, 1, out);
    }
    if (d->finished)
        return PII_OK;
    if ((e = doc_names(d, 0)))
        return e;
    return doc_resolved(d, doc_rboundary(d), 0, out);
}

/* ---- running windows ----------------------------------------------------------------- */

typedef struct ner_run {
    void *ctx;
    ner_job *jobs;
    size_t nj, jcap;
    int32_t *ids;
    size_t idcap;
    size_t *lens, *klo, *khi; /* [nj]: lengths and kept rows of a pass's windows */
    size_t lcap, klocap, khicap;
    float *logits;
    size_t lgcap;
} ner_run;

static void run_free(const pii_ner *cn, ner_run *r)
{
    pii_ner *n = (pii_ner *)cn; /* only the mutex-guarded spare changes */
    if (r->ctx) {
        pthread_mutex_lock(&n->mu);
        if (!n->spare_ctx) {
            n->spare_ctx = r->ctx;
            r->ctx = NULL;
        }
        pthread_mutex_unlock(&n->mu);
        if (r->ctx && n->be.ctx_free)
            n->be.ctx_free(n->be.ud, r->ctx);
    }
    free(r->jobs);
    free(r->ids);
    free(r->lens);
    free(r->klo);
    free(r->khi);
    free(r->logits);
    memset(r, 0, sizeof *r);
}

static pii_err run_init(const pii_ner *cn, ner_run *r)
{
    pii_ner *n = (pii_ner *)cn;
    memset(r, 0, sizeof *r);
    pthread_mutex_lock(&n->mu);
    r->ctx = n->spare_ctx;
    n->spare_ctx = NULL;
    pthread_mutex_unlock(&n->mu);
    if (r->ctx)
        return PII_OK;
    pii_err e = PII_OK;
    if (n->be.ctx_create && !(r->ctx = n->be.ctx_create(n->be.ud, &e)))
        return e ? e : PII_ENOMEM;
    return PII_OK;
}

static pii_err run_push_job(ner_run *r, const ner_job *j)
{
    pii_err e = PII_VEC_RESERVE(r->jobs, r->jcap, r->nj + 1);
    if (e)
        return e;
    r->jobs[r->nj++] = *j;
    return PII_OK;
}

/* One packed forward pass over jobs[0..nj), then each document takes its
 * rows, in job order. */
static pii_err run_pack(const pii_ner *n, ner_run *r, const ner_job *jobs, size_t nj)
{
    size_t total = 0;
    for (size_t i = 0; i < nj; i++)
        total += jobs[i].wlen;
    pii_err e;
    if ((e = PII_VEC_RESERVE(r->ids, r->idcap, total)) ||
        (e = PII_VEC_RESERVE(r->lens, r->lcap, nj)) ||
        (e = PII_VEC_RESERVE(r->klo, r->klocap, nj)) ||
        (e = PII_VEC_RESERVE(r->khi, r->khicap, nj)) ||
        (e = PII_VEC_RESERVE(r->logits, r->lgcap, total * n->C)))
        return e;
    size_t off = 0;
    for (size_t i = 0; i < nj; i++) {
        const ner_doc *d = jobs[i].d;
        if (jobs[i].ws < d->tbase || jobs[i].ws + jobs[i].wlen > d->tn)
            return PII_EINTERNAL;
        memcpy(r->ids + off, d->tid + (jobs[i].ws - d->tbase), jobs[i].wlen * sizeof *r->ids);
        r->lens[i] = jobs[i].wlen;
        r->klo[i] = jobs[i].lo;
        r->khi[i] = jobs[i].hi;
        off += jobs[i].wlen;
    }
    e = n->fwd_kept ? n->fwd_kept(n->be.ud, r->ctx, r->ids, r->lens, r->klo, r->khi, nj, r->logits)
                    : n->be.forward(n->be.ud, r->ctx, r->ids, r->lens, nj, r->logits);
    if (e)
        return e;
    off = 0;
    for (size_t i = 0; i < nj; i++) {
        if ((e = doc_consume(jobs[i].d, &jobs[i], r->logits + off * n->C)))
            return e;
        off += jobs[i].wlen;
    }
    return PII_OK;
}

/* Runs queued jobs in packs of at most n->pack tokens (at least one job
 * each); with `all` == 0 only while a full pack is queued.  Returns the
 * number of jobs run via *ran. */
static pii_err run_queue(const pii_ner *n, ner_run *r, int all, size_t *ran)
{
    size_t i = 0;
    pii_err e = PII_OK;
    while (i < r->nj) {
        size_t j = i, tok = 0;
        while (j < r->nj && (j == i || tok + r->jobs[j].wlen <= n->pack))
            tok += r->jobs[j++].wlen;
        if (!all && j == r->nj && tok < n->pack)
            break;
        if ((e = run_pack(n, r, r->jobs + i, j - i)))
            break;
        i = j;
    }
    if (i && i < r->nj)
        memmove(r->jobs, r->jobs + i, (r->nj - i) * sizeof *r->jobs);
    r->nj -= i;
    if (ran)
        *ran = i;
    return e;
}

static pii_err batch_on(const pii_ner *n, ner_run *rp, const uint8_t *const *docs,
                        const size_t *lens, size_t ndocs, pii_spanvec *out, pii_ner_result *rec);

/* ---- the streaming detector ------------------------------------------------------------- */

/* A document computed ahead (pii_detector_class.ahead): its length and
 * spans, reported as the stream reaches them. */
typedef struct ner_ahead {
    uint64_t len;
    pii_span *v;
    size_t n;
} ner_ahead;

/* The per-stream result cache: documents up to CACHE_DOC_MAX bytes met
 * through the lookahead, keyed by their bytes (the model is deterministic
 * and a document's spans depend on its bytes alone), CACHE_SLOTS entries
 * in an open-addressed table probed CACHE_PROBE slots deep; a full probe
 * run evicts its first slot.  Bound: CACHE_SLOTS x (CACHE_DOC_MAX + spans),
 * at most 8 MiB of keys. */
#define CACHE_SLOTS 4096u
#define CACHE_PROBE 8u
#define CACHE_DOC_MAX 2048u
typedef struct ner_centry {
    uint64_t hash;
    uint8_t *key; /* NULL: empty */
    size_t klen;
    pii_span *v;
    size_t n;
    size_t pending; /* SIZE_MAX, or the miss index while being computed */
} ner_centry;

typedef struct ner_state {
    const pii_ner *n;
    ner_run run;
    ner_doc doc;
    uint64_t keep; /* the last keep returned */
    /* documents computed ahead, FIFO [ah, ah + an) */
    ner_ahead *aq;
    size_t ah, an, acap;
    ner_ahead cur; /* the current document's, when mode == 1 */
    int mode;      /* 0: not started, 1: computed ahead, 2: live */
    size_t next;   /* cur's spans reported */
    ner_centry *cache;
    /* scratch of det_ahead */
    const uint8_t **mdocs;
    size_t *mlens, *src, mcap;
    pii_spanvec *mout;
    size_t moutcap;
} ner_state;

static void ahead_clear(ner_state *s)
{
    for (size_t i = 0; i < s->an; i++)
        free(s->aq[s->ah + i].v);
    s->ah = s->an = 0;
}

static void det_close(void *st)
{
    ner_state *s = st;
    if (!s)
        return;
    doc_free(&s->doc);
    run_free(s->n, &s->run);
    ahead_clear(s);
    free(s->aq);
    free(s->cur.v);
    if (s->cache)
        for (size_t i = 0; i < CACHE_SLOTS; i++) {
            free(s->cache[i].key);
            free(s->cache[i].v);
        }
    free(s->cache);
    free(s->mdocs);
    free(s->mlens);
    free(s->src);
    for (size_t i = 0; i < s->moutcap; i++)
        pii_spanvec_free(&s->mout[i]);
    free(s->mout);
    free(s);
}

static void *det_open(const void *shared, pii_err *err)
{
    const pii_ner *n = shared;
    pii_err e = PII_ENOMEM;
    ner_state *s = calloc(1, sizeof *s);
    if (!s)
        goto fail;
    s->n = n;
    if ((e = run_init(n, &s->run)))
        goto fail;
    if ((e = doc_init(&s->doc, n)))
        goto fail;
    if (err)
        *err = PII_OK;
    return s;
fail:
    det_close(s);
    if (err)
        *err = e;
    return NULL;
}

static void det_reset(void *st)
{
    ner_state *s = st;
    doc_reset(&s->doc);
    s->run.nj = 0;
    s->keep = 0;
    free(s->cur.v);
    memset(&s->cur, 0, sizeof s->cur);
    s->mode = 0;
    s->next = 0;
}

/* A document computed ahead: its spans as the stream reaches them. */
static pii_err ahead_scan(ner_state *s, size_t len, uint64_t base, int eod, pii_spanvec *out,
                          uint64_t *done, uint64_t *keep)
{
    uint64_t end = base + len;
    if (end > s->cur.len || (eod && end != s->cur.len))
        return PII_EINTERNAL; /* not the document announced */
    pii_err e;
    while (s->next < s->cur.n && s->cur.v[s->next].end <= end)
        if ((e = pii_spanvec_push(out, &s->cur.v[s->next++])))
            return e;
    *done = s->next < s->cur.n && s->cur.v[s->next].start < end ? s->cur.v[s->next].start : end;
    *keep = *done;
    s->keep = *keep;
    return PII_OK;
}

static uint64_t key_hash(const uint8_t *p, size_t n)
{
    uint64_t h = 0x9e3779b97f4a7c15ull ^ (n * 0xff51afd7ed558ccdull);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
        h ^= h >> 29;
    }
    uint64_t w = 0;
    memcpy(&w, p + i, n - i);
    h = (h ^ w) * 0x94d049bb133111ebull;
    return h ^ (h >> 31);
}

/* The entry holding key, or NULL; *slot: where to insert it (NULL when
 * every candidate is being computed). */
static ner_centry *cache_find(ner_state *s, uint64_t h, const uint8_t *p, size_t n,
                              ner_centry **slot)
{
    ner_centry *free_slot = NULL, *first = NULL;
    for (size_t k = 0; k < CACHE_PROBE; k++) {
        ner_centry *c = &s->cache[(h + k) & (CACHE_SLOTS - 1)];
        if (!c->key) {
            if (!free_slot)
                free_slot = c;
            continue;
        }
        if (c->hash == h && c->klen == n && memcmp(c->key, p, n) == 0)
            return c;
        if (!first && c->pending == SIZE_MAX)
            first = c;
    }
    *slot = free_slot ? free_slot : first;
    return NULL;
}

static pii_err copy_spans(pii_span **dst, size_t *dn, const pii_span *v, size_t n)
{
    *dst = NULL;
    *dn = 0;
    if (!n)
        return PII_OK;
    if (!(*dst = malloc(n * sizeof *v)))
        return PII_ENOMEM;
    memcpy(*dst, v, n * sizeof *v);
    *dn = n;
    return PII_OK;
}

/* The lookahead (pii_detector_class.ahead): documents not in the cache are
 * computed together in shared forward passes over the pool (batch_on, the
 * same windows and decoding as pii_ner_detect_batch); every document's
 * spans join the FIFO the scans take from. */
static pii_err det_ahead(void *st, const uint8_t *const *docs, const size_t *lens, size_t nd)
{
    ner_state *s = st;
    pii_err e;
    if (nd == 0) {
        ahead_clear(s);
        return PII_OK;
    }
    if (s->ah && s->ah + s->an + nd > s->acap) {
        memmove(s->aq, s->aq + s->ah, s->an * sizeof *s->aq);
        s->ah = 0;
    }
    if ((e = PII_VEC_RESERVE(s->aq, s->acap, s->ah + s->an + nd)) ||
        (e = PII_VEC_RESERVE(s->mdocs, s->mcap, nd)))
        return e;
    size_t *ml = realloc(s->mlens, s->mcap * sizeof *ml);
    if (ml)
        s->mlens = ml;
    size_t *sr = ml ? realloc(s->src, s->mcap * sizeof *sr) : NULL;
    if (sr)
        s->src = sr;
    if (!ml || !sr)
        return PII_ENOMEM;
    if (!s->n->no_cache && !s->cache) {
        if (!(s->cache = calloc(CACHE_SLOTS, sizeof *s->cache)))
            return PII_ENOMEM;
        for (size_t i = 0; i < CACHE_SLOTS; i++)
            s->cache[i].pending = SIZE_MAX;
    }
    ner_ahead *aq = s->aq + s->ah + s->an; /* this call's entries */
    for (size_t i = 0; i < nd; i++)
        aq[i] = (ner_ahead){lens[i], NULL, 0};
    /* src[i]: SIZE_MAX for a cache hit (copied now: a later claim in this
     * call may evict the entry), else the index of the miss computing it */
    size_t nm = 0;
    for (size_t i = 0; i < nd && !e; i++) {
        ner_centry *c = NULL, *slot = NULL;
        uint64_t h = 0;
        if (s->cache && lens[i] <= CACHE_DOC_MAX) {
            h = key_hash(docs[i], lens[i]);
            c = cache_find(s, h, docs[i], lens[i], &slot);
        }
        if (c && c->pending != SIZE_MAX) {
            s->src[i] = c->pending; /* the same bytes earlier in this call */
            continue;
        }
        if (c) {
            s->src[i] = SIZE_MAX;
            e = copy_spans(&aq[i].v, &aq[i].n, c->v, c->n);
            continue;
        }
        if (slot) { /* claim it: later copies in this call share the miss */
            free(slot->key);
            free(slot->v);
            slot->v = NULL;
            slot->n = 0;
            if ((slot->key = malloc(lens[i] ? lens[i] : 1))) {
                memcpy(slot->key, docs[i], lens[i]);
                slot->klen = lens[i];
                slot->hash = h;
                slot->pending = nm;
            }
        }
        s->mdocs[nm] = docs[i];
        s->mlens[nm] = lens[i];
        s->src[i] = nm++;
    }
    if (!e && nm > s->moutcap) {
        pii_spanvec *m = realloc(s->mout, nm * sizeof *m);
        if (m) {
            memset(m + s->moutcap, 0, (nm - s->moutcap) * sizeof *m);
            s->mout = m;
            s->moutcap = nm;
        } else {
            e = PII_ENOMEM;
        }
    }
    if (!e) {
        for (size_t i = 0; i < nm; i++)
            pii_spanvec_clear(&s->mout[i]);
        if (nm)
            e = batch_on(s->n, &s->run, s->mdocs, s->mlens, nm, s->mout, NULL);
    }
    /* settle this call's claims (dropped on failure) */
    for (size_t i = 0; s->cache && i < CACHE_SLOTS; i++) {
        ner_centry *c = &s->cache[i];
        if (!c->key || c->pending == SIZE_MAX)
            continue;
        size_t m = c->pending;
        c->pending = SIZE_MAX;
        if (e || m >= nm || copy_spans(&c->v, &c->n, s->mout[m].v, s->mout[m].n)) {
            free(c->key);
            c->key = NULL;
        }
    }
    for (size_t i = 0; i < nd && !e; i++)
        if (s->src[i] < nm)
            e = copy_spans(&aq[i].v, &aq[i].n, s->mout[s->src[i]].v, s->mout[s->src[i]].n);
    if (e) {
        for (size_t i = 0; i < nd; i++)
            free(aq[i].v);
        return e;
    }
    s->an += nd;
    return PII_OK;
}

static pii_err det_scan(void *st, const uint8_t *buf, size_t len, uint64_t base, int eod,
                        pii_spanvec *out, uint64_t *done, uint64_t *keep)
{
    ner_state *s = st;
    ner_doc *d = &s->doc;
    pii_err e;
    if (s->mode == 0) { /* the document starts */
        s->mode = 2;
        if (s->an) {
            s->cur = s->aq[s->ah++];
            s->mode = 1;
            if (--s->an == 0)
                s->ah = 0;
        }
    }
    if (s->mode == 1)
        return ahead_scan(s, len, base, eod, out, done, keep);
    if (base > s->keep || d->tf > base + len)
        return PII_EINVAL; /* the buffer must start at or before our keep */
    d->tx.p = buf;
    d->tx.base = base;
    d->tx.len = len;
    d->eod = eod;
    if ((e = doc_release(d)) || (e = doc_tokenize(d, s->run.ctx, eod)))
        return e;
    ner_job j;
    while (doc_next_job(d, &j))
        if ((e = run_push_job(&s->run, &j)))
            return e;
    if ((e = run_queue(s->n, &s->run, 1, NULL)))
        return e;
    if ((e = doc_flush(d, out)))
        return e;
    if (d->finished) {
        *done = *keep = base + len;
    } else {
        *done = doc_done(d);
        *keep = doc_keep(d);
    }
    s->keep = *keep;
    return PII_OK;
}

static const pii_detector_class ner_detector_class = {
    "model", det_open, det_scan, det_reset, det_close, det_ahead,
};

pii_detector pii_ner_detector(const pii_ner *n)
{
    pii_detector d = {&ner_detector_class, n};
    return d;
}

/* ---- whole documents and batches ------------------------------------------------------ */

static pii_err batch_on(const pii_ner *n, ner_run *rp, const uint8_t *const *docs,
                        const size_t *lens, size_t ndocs, pii_spanvec *out, pii_ner_result *rec)
{
    ner_run r = *rp; /* copied back at the end: its buffers grow */
    pii_err e = PII_OK;
    /* documents in flight: [first, next) */
    ner_doc *ds = calloc(ndocs ? ndocs : 1, sizeof *ds);
    size_t first = 0, next = 0;
    if (!ds)
        return PII_ENOMEM;
    size_t queued = 0; /* tokens in queued jobs */
    while (!e && first < ndocs) {
        /* start documents until a pack is full or none are left */
        while (!e && next < ndocs && queued < n->pack) {
            ner_doc *d = &ds[next];
            if ((e = doc_init(d, n)))
                break;
            d->rec = rec;
            d->tx.p = docs[next];
            d->tx.base = 0;
            d->tx.len = lens[next];
            d->eod = 1;
            if ((e = doc_tokenize(d, r.ctx, 1)))
                break;
            ner_job j;
            while (!e && doc_next_job(d, &j)) {
                e = run_push_job(&r, &j);
                queued += j.wlen;
            }
            next++;
        }
        if (e)
            break;
        /* run full packs (everything once all documents are started) */
        if ((e = run_queue(n, &r, next == ndocs, NULL)))
            break;
        queued = 0;
        for (size_t i = 0; i < r.nj; i++)
            queued += r.jobs[i].wlen;
        /* finish the documents whose windows are all done, in order */
        while (first < next && doc_complete(&ds[first])) {
            if ((e = doc_flush(&ds[first], &out[first])))
                break;
            doc_free(&ds[first]);
            first++;
        }
    }
    for (size_t i = first; i < next; i++)
        doc_free(&ds[i]);
    free(ds);
    r.nj = 0;
    *rp = r;
    return e;
}

static pii_err batch(const pii_ner *n, const uint8_t *const *docs, const size_t *lens, size_t ndocs,
                     pii_spanvec *out, pii_ner_result *rec)
{
    ner_run r;
    pii_err e = run_init(n, &r);
    if (!e)
        e = batch_on(n, &r, docs, lens, ndocs, out, rec);
    run_free(n, &r);
    return e;
}

pii_err pii_ner_detect_batch(const pii_ner *n, const uint8_t *const *docs, const size_t *lens,
                             size_t ndocs, pii_spanvec *out)
{
    if (!n || (ndocs && (!docs || !lens || !out)))
        return PII_EINVAL;
    return batch(n, docs, lens, ndocs, out, NULL);
}

pii_err pii_ner_detect(const pii_ner *n, const uint8_t *text, size_t len, pii_spanvec *out)
{
    return pii_ner_detect_batch(n, &text, &len, 1, out);
}

pii_err pii_ner_analyze(const pii_ner *n, const uint8_t *text, size_t len, pii_ner_result *out)
{
    memset(out, 0, sizeof *out);
    pii_err e = batch(n, &text, &len, 1, &out->spans, out);
    if (e)
        pii_ner_result_free(out);
    return e;
}

void pii_ner_result_free(pii_ner_result *r)
{
    if (!r)
        return;
    free(r->ids);
    free(r->start);
    free(r->end);
    free(r->logits);
    free(r->labels);
    free(r->spans.v);
    memset(r, 0, sizeof *r);
}
