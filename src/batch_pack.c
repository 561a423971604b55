/* batch_pack.c — many small files through shared model forward passes.
 *
 * One short document alone keeps the encoder memory-bound: its few tokens
 * route to dozens of experts whose weights are streamed for little work.
 * When the model tier runs, a worker therefore takes up to PACK_MAX
 * consecutive small files (each under PACK_FILE_MAX bytes, PACK_BYTES in
 * all), reads them whole, and runs the model over all of them at once with
 * pii_ner_detect_batch, which packs their tokens into shared forward passes
 * and returns for each exactly what the streaming model detector reports
 * (pii_ner.h).  Each file is then redacted through a stream of a derived
 * redactor (pii_redactor_derive): the same rules, lists, operators and
 * label selection, with the model detector replaced by a "replay" detector
 * that reports the spans found for that file.  Output is byte-identical to
 * redacting the file alone; only the cost changes.
 *
 * Not packed: records mode (--jsonl-field/--csv-column), --lines, standard
 * input, files that grew past PACK_FILE_MAX since the walk (they go through
 * the ordinary stream).
 */
#include <stdlib.h>
#include <string.h>

#include "batch_int.h"
#include "cli.h"

#define PACK_FILE_MAX (16u * 1024u) /* files under this size are packed */
#define PACK_MAX 64                 /* files per group */
#define PACK_BYTES (256u * 1024u)   /* text per group */

/* The replay detector's shared object, owned by one worker. */
struct preset {
    const pii_spanvec *spans; /* the current document's model spans */
    pii_spanvec found[PACK_MAX];
};

static void *replay_open(const void *shared, pii_err *err)
{
    *err = PII_OK;
    return (void *)shared; /* no state of its own: the worker's preset */
}

/* Holds the whole document (keep = 0) and reports every span at its end. */
static pii_err replay_scan(void *state, const uint8_t *buf, size_t len, uint64_t base, int eod,
                           pii_spanvec *out, uint64_t *done, uint64_t *keep)
{
    const struct preset *p = state;
    (void)buf;
    if (!eod)
        return PII_OK; /* done and keep stay at 0 */
    const pii_spanvec *v = p->spans;
    for (size_t i = 0; v && i < v->n; i++) {
        pii_err e = pii_spanvec_push(out, &v->v[i]);
        if (e)
            return e;
    }
    *done = *keep = base + len;
    return PII_OK;
}

static const pii_detector_class replay_cls = {"model-replay", replay_open, replay_scan, NULL, NULL};

int batch_pack_init(worker *w)
{
    batch *b = w->b;
    pii_err e;
    memset(&w->pack, 0, sizeof w->pack);
    if (!b->p->ner || b->spec || b->o->lines)
        return -1; /* nothing to pack */
    if (!(w->pack.preset = calloc(1, sizeof *w->pack.preset)) ||
        !(w->pack.arena = malloc((size_t)PACK_MAX * PACK_FILE_MAX)))
        goto oom;
    pii_detector d = {&replay_cls, w->pack.preset};
    if (!(w->pack.red = pii_redactor_derive(b->p->red, b->p->ner, d, &e)) ||
        (e = batch_pack_reopen(w))) {
        if (e == PII_ENOTFOUND) { /* the model is not among the detectors */
            batch_pack_free(w);
            return -1;
        }
        pii_cli_error("packing", e);
        batch_pack_free(w);
        return pii_exit_for(e);
    }
#ifndef PII_BATCH_NO_PACK /* bench builds compare with and without */
    w->pack.on = 1;
#endif
    return -1;
oom:
    batch_pack_free(w);
    pii_cli_error("packing", PII_ENOMEM);
    return PII_EXIT_FAIL;
}

void batch_pack_free(worker *w)
{
    pii_stream_free(w->pack.st);
    pii_redactor_free(w->pack.red);
    if (w->pack.preset)
        for (size_t i = 0; i < PACK_MAX; i++)
            pii_spanvec_free(&w->pack.preset->found[i]);
    free(w->pack.preset);
    free(w->pack.arena);
    memset(&w->pack, 0, sizeof w->pack);
}

int batch_pack_candidate(const worker *w, const bitem *it)
{
    return w->pack.on && !w->dead && it->status == ST_PENDING &&
           !(it->is_root && strcmp(it->path, "-") == 0) && it->size > 0 && it->size < PACK_FILE_MAX;
}

void batch_pack_run(worker *w, size_t first)
{
    batch *b = w->b;
    size_t idx[PACK_MAX], ng = 0, hold = SIZE_MAX;
    uint64_t bytes = 0;
    idx[ng++] = first;
    bytes += b->items[first].size;
    while (ng < PACK_MAX && bytes < PACK_BYTES) {
        size_t j = atomic_fetch_add(&b->next, 1);
        if (j >= b->nitems)
            break;
        if (!batch_pack_candidate(w, &b->items[j])) {
            hold = j;
            break;
        }
        idx[ng++] = j;
        bytes += b->items[j].size;
    }

    /* Read each file whole; whatever is not packable is finished here. */
    batch_input in[PACK_MAX];
    const uint8_t *docs[PACK_MAX];
    size_t lens[PACK_MAX], who[PACK_MAX], nd = 0;
    for (size_t k = 0; k < ng; k++) {
        bitem *it = &b->items[idx[k]];
        int ready = batch_prepare(w, it, w->pack.arena + k * PACK_FILE_MAX, PACK_FILE_MAX, &in[k]);
        if (!ready) {
            it->seconds += batch_now() - in[k].t0;
            batch_finish(b, it);
        } else if (in[k].n >= PACK_FILE_MAX) { /* grew since the walk */
            batch_redact(w, it, &in[k], w->st);
            batch_finish(b, it);
        } else {
            batch_input_close(&in[k]); /* read whole */
            it->seconds += batch_now() - in[k].t0;
            docs[nd] = in[k].data;
            lens[nd] = in[k].n;
            who[nd++] = k;
        }
    }

    /* One call for all of them, then each through the replaying stream. */
    if (nd) {
        struct preset *pre = w->pack.preset;
        for (size_t d = 0; d < nd; d++)
            pii_spanvec_clear(&pre->found[d]);
        double t = batch_now();
        pii_err e = pii_ner_detect_batch(b->p->ner, docs, lens, nd, pre->found);
        double share = (batch_now() - t) / (double)nd;
        for (size_t d = 0; d < nd; d++) {
            bitem *it = &b->items[idx[who[d]]];
            it->seconds += share;
            if (e) {
                batch_fail(w, it, "redaction stopped: %s", pii_strerror(e));
            } else {
                pre->spans = &pre->found[d];
                in[who[d]].t0 = batch_now();
                batch_redact(w, it, &in[who[d]], w->pack.st);
                pre->spans = NULL;
            }
            batch_finish(b, it);
        }
    }
    if (hold != SIZE_MAX) {
        batch_process(w, &b->items[hold]);
        batch_finish(b, &b->items[hold]);
    }
}
