/* fuzz_safetensors.c — the safetensors reader of the shard runtime, and the
 * model binding on top of it (with the tiny model's config.json).
 * Input: a safetensors image (8-byte header length, JSON header, data).
 * Seeds: tiny random models from tests/fuzz/mkseeds.c, hand-made headers.
 * See fuzz_store.inc for the checks.
 *
 * FUZZ_ARGS: -max_len=65536
 */
#include "fuzz.h"

#include "fuzz_store.inc"

/* config.json of the seeds' tiny model (tests/fuzz/config/synth-f32.json). */
static const char tiny_config[] =
    "{\"vocab_size\":12,\"hidden_size\":8,\"num_hidden_layers\":1,\"num_attention_heads\":2,"
    "\"num_key_value_heads\":1,\"head_dim\":4,\"intermediate_size\":4,\"num_local_experts\":3,"
    "\"num_experts_per_tok\":2,\"sliding_window\":2,\"rms_norm_eps\":1e-5,"
    "\"rope_parameters\":{\"rope_type\":\"yarn\",\"rope_theta\":150000.0,\"factor\":32.0,"
    "\"beta_fast\":32.0,\"beta_slow\":1.0,\"original_max_position_embeddings\":4096},"
    "\"id2label\":{\"0\":\"O\",\"1\":\"B-category_0\",\"2\":\"I-category_0\","
    "\"3\":\"E-category_0\",\"4\":\"S-category_0\"}}";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_store(data, size, tiny_config, sizeof tiny_config - 1);
    return 0;
}
