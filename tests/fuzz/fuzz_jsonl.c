/* fuzz_jsonl.c — the JSON Lines field mode (redact/records.c).  See
 * fuzz_records.inc for the input layout and the checks.
 *
 * FUZZ_ARGS: -max_len=16384
 */
#include "fuzz.h"

#include "fuzz_records.inc"

static const char *const presets[] = {"*",   "message", "user.email\ttext", "*.note",
                                      "a.*", "k\\.y",   "msg\tdata.*.v",    "x.y.z"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check_records(PII_REC_JSONL, presets, sizeof presets / sizeof presets[0], data, size);
    return 0;
}
