/* fuzz_csv.c — the CSV field mode (redact/records.c): RFC 4180 quoting,
 * quoted line ends, headers and column names.  See fuzz_records.inc for the
 * input layout and the checks.
 *
 * FUZZ_ARGS: -max_len=16384
 */
#include "fuzz.h"

#include "fuzz_records.inc"

static const char *const presets[] = {"1",     "2\t3",    "email", "name\temail",
                                      "1\t99", "comment", "3",     "note\t2"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check_records(PII_REC_CSV, presets, sizeof presets / sizeof presets[0], data, size);
    return 0;
}
