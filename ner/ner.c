/* ner.c — the model detector's handle (pii_ner): creation from a backend
 * (labels, the operating point's biases, thresholds, the window layout's
 * sizes), the switches of the name heuristics, the accessors, the one
 * spare backend context that repeated calls reuse, and pii_ner_toks, the
 * token list a backend's tokenize fills.  The engine that runs
 * documents is document.c, windows.c, batch.c and detector.c (ner.h). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ner.h"

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

/* ---- the spare backend context --------------------------------------------------- */

pii_err pii_ner_ctx_take(const pii_ner *cn, void **ctx)
{
    pii_ner *n = (pii_ner *)cn; /* only the mutex-guarded spare changes */
    pthread_mutex_lock(&n->mu);
    *ctx = n->spare_ctx;
    n->spare_ctx = NULL;
    pthread_mutex_unlock(&n->mu);
    if (*ctx)
        return PII_OK;
    pii_err e = PII_OK;
    if (n->be.ctx_create && !(*ctx = n->be.ctx_create(n->be.ud, &e)))
        return e ? e : PII_ENOMEM;
    return PII_OK;
}

void pii_ner_ctx_give(const pii_ner *cn, void *ctx)
{
    pii_ner *n = (pii_ner *)cn; /* only the mutex-guarded spare changes */
    if (!ctx)
        return;
    pthread_mutex_lock(&n->mu);
    if (!n->spare_ctx) {
        n->spare_ctx = ctx;
        ctx = NULL;
    }
    pthread_mutex_unlock(&n->mu);
    if (ctx && n->be.ctx_free)
        n->be.ctx_free(n->be.ud, ctx);
}

/* ---- the token list of the backend interface (pii_ner_backend.tokenize) ----------- */

pii_err pii_ner_toks_push(pii_ner_toks *t, int32_t id, uint64_t end)
{
    if (t->n == t->cap) {
        size_t nc = t->cap ? t->cap * 2 : 256;
        size_t c0 = t->cap, c1 = t->cap; /* both grow to at least nc */
        pii_err e;
        if ((e = pii_vec_grow(&t->ids, &c0, nc, sizeof *t->ids)) ||
            (e = pii_vec_grow(&t->end, &c1, nc, sizeof *t->end)))
            return e;
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
