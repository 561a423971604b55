/* batch_pack.c — many small files through shared model forward passes.
 *
 * One short document alone keeps the encoder memory-bound: its few tokens
 * route to dozens of experts whose weights are streamed for little work.
 * When the model tier runs, a worker therefore takes up to PACK_MAX
 * consecutive small files (each under PACK_FILE_MAX bytes, PACK_BYTES in
 * all), reads them whole, and announces them to its stream
 * (pii_stream_put, PII_STREAM_AHEAD): the model detector computes all of them at once in
 * shared forward passes, then each file is redacted through the same
 * stream as any other, its model spans taken from that computation.
 * Output is byte-identical to redacting the file alone; only the cost
 * changes.
 *
 * Not packed: records mode (--jsonl-field/--csv-column), --lines, standard
 * input, files that grew past PACK_FILE_MAX since the walk (they go through
 * the stream unannounced).
 */
#include <stdlib.h>
#include <string.h>

#include "batch_int.h"
#include "cli.h"

#define PACK_FILE_MAX (16u * 1024u) /* files under this size are packed */
#define PACK_MAX 64                 /* files per group */
#define PACK_BYTES (256u * 1024u)   /* text per group */

int batch_pack_init(worker *w)
{
    batch *b = w->b;
    memset(&w->pack, 0, sizeof w->pack);
    if (!b->p->ner || b->spec || b->o->lines)
        return -1; /* nothing to pack */
    if (!(w->pack.arena = malloc((size_t)PACK_MAX * PACK_FILE_MAX))) {
        pii_cli_error("packing", PII_ENOMEM);
        return PII_EXIT_FAIL;
    }
#ifndef PII_BATCH_NO_PACK /* bench builds compare with and without */
    w->pack.on = 1;
#endif
    return -1;
}

void batch_pack_free(worker *w)
{
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

    /* Announced together (the model runs them in shared passes), then
     * each through the worker's stream. */
    if (nd) {
        double t = batch_now();
        pii_err e = PII_OK;
        for (size_t d = 0; !e && d < nd; d++)
            e = pii_stream_put(w->st, docs[d], lens[d], PII_STREAM_AHEAD);
        if (!e)
            e = pii_stream_put(w->st, NULL, 0, PII_STREAM_FLUSH);
        double share = (batch_now() - t) / (double)nd;
        for (size_t d = 0; d < nd; d++) {
            bitem *it = &b->items[idx[who[d]]];
            it->seconds += share;
            if (e) {
                batch_fail(w, it, "redaction stopped: %s", pii_strerror(e));
            } else {
                in[who[d]].t0 = batch_now();
                batch_redact(w, it, &in[who[d]], w->st);
            }
            batch_finish(b, it);
        }
        if (e && batch_open_streams(w) != PII_OK)
            w->dead = 1;
    }
    if (hold != SIZE_MAX) {
        batch_process(w, &b->items[hold]);
        batch_finish(b, &b->items[hold]);
    }
}
