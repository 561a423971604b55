/* tok_o200k.c — the built-in o200k_base tokenizer.
 *
 * Mergeable tokens: o200k_base from the npm tiktoken package (MIT, notice in
 * tokenizer/data/LICENSE.tiktoken), ids 0..199997.  Special tokens: the 21
 * that the Privacy Filter's Hugging Face tokenizer.json adds (spec §4). */
#include <pthread.h>

#include "tok_internal.h"

extern const uint8_t pii_tok__o200k_blob[];
extern const uint8_t pii_tok__o200k_blob_end[];

#define SP(id, name)                                                                               \
    {                                                                                              \
        id, sizeof(name) - 1, name                                                                 \
    }
static const tok_special o200k_special[] = {
    SP(199998, "<|startoftext|>"),
    SP(199999, "<|endoftext|>"),
    SP(200000, "<|reserved_200000|>"),
    SP(200001, "<|reserved_200001|>"),
    SP(200002, "<|return|>"),
    SP(200003, "<|constrain|>"),
    SP(200004, "<|reserved_200004|>"),
    SP(200005, "<|channel|>"),
    SP(200006, "<|start|>"),
    SP(200007, "<|end|>"),
    SP(200008, "<|message|>"),
    SP(200009, "<|reserved_200009|>"),
    SP(200010, "<|reserved_200010|>"),
    SP(200011, "<|reserved_200011|>"),
    SP(200012, "<|call|>"),
    SP(200013, "<|reserved_200013|>"),
    SP(200014, "<|reserved_200014|>"),
    SP(200015, "<|reserved_200015|>"),
    SP(200016, "<|reserved_200016|>"),
    SP(200017, "<|reserved_200017|>"),
    SP(200018, "<|endofprompt|>"),
};
#undef SP

static pii_tok o200k;
static pthread_once_t o200k_once = PTHREAD_ONCE_INIT;

static void o200k_init(void)
{
    /* The blob was made by this build from a committed file; a bad header
     * would be a build bug, and leaves an empty table (every lookup
     * misses) rather than a crash. */
    static const tok_slot empty_slot[1];
    static const uint32_t empty_off[1] = {0};
    static tok_blob_hdr empty_hdr;
    size_t size = (size_t)(pii_tok__o200k_blob_end - pii_tok__o200k_blob);
    if (pii_tok__view(&o200k, pii_tok__o200k_blob, size) != PII_OK) {
        for (int c = 0; c < 256; c++)
            empty_hdr.byte_id[c] = 0;
        o200k.hdr = &empty_hdr;
        o200k.off = empty_off;
        o200k.slot = empty_slot;
        o200k.bytes = (const uint8_t *)"";
        o200k.mask = 0;
    }
    o200k.special = o200k_special;
    o200k.n_special = sizeof o200k_special / sizeof o200k_special[0];
    o200k.vocab_size = 200019;
    o200k.builtin = 1;
}

const pii_tok *pii_tok_o200k(void)
{
    pthread_once(&o200k_once, o200k_init);
    return &o200k;
}
