/* fuzz_gguf.c — the GGUF reader of the shard runtime (header, metadata
 * key/values of every type, arrays, tensor infos, alignment), the model
 * configuration read from GGUF metadata, and the model binding.
 * Input: a GGUF image.  Seeds: tiny random models (F16 and Q8_0 experts)
 * from tests/fuzz/mkseeds.c.  See fuzz_store.inc for the checks.
 *
 * FUZZ_ARGS: -max_len=65536
 */
#include "fuzz.h"

#include "fuzz_store.inc"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_store(data, size, NULL, 0);
    return 0;
}
