/* fuzz_codevals.c — the values-in-code filter (ner/code_values.c,
 * pii_ner_code_value) on arbitrary bytes and spans.
 *
 * Input: byte 0 the label (six, one of them no value label), bytes 1..4
 * the span's start and length, the rest the text.  Checked, for every span
 * that fits the text:
 *  - the answer is 0 or 1, and 0 for a label the filter does not read;
 *  - it does not depend on the bytes after the span (a view cut at its
 *    end gives the same answer);
 *  - it is the same for every view that starts NER_DIGEST_BACK + 1 bytes
 *    or more before the span (the engine keeps more than that in view, so
 *    a stream decides as one shot);
 *  - a view that starts later never reads as code what the whole text
 *    does not (it may only fail to see a line start: fail closed).
 * ASan and UBSan catch any read outside the view.
 *
 * FUZZ_ARGS: -max_len=4096
 */
#include <string.h>

#include "fuzz.h"

#include "ner/ner_internal.h"

static const char *const LABELS[] = {"secret",         "private_address", "private_phone",
                                     "account_number", "private_date",    "private_person"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 5)
        return 0;
    const char *label = LABELS[data[0] % 6];
    const uint8_t *text = data + 5;
    size_t n = size - 5;
    if (n == 0)
        return 0;
    size_t s = ((size_t)data[1] | (size_t)data[2] << 8) % n;
    size_t len = ((size_t)data[3] | (size_t)data[4] << 8) % (n - s + 1);
    size_t e = s + len;

    ner_text all = {text, 0, n};
    int whole = pii_ner_code_value(&all, label, s, e);
    FUZZ_CHECK(whole == 0 || whole == 1);
    if (data[0] % 6 == 5)
        FUZZ_CHECK(whole == 0);

    /* nothing after the span is read */
    ner_text cut = {text, 0, e};
    FUZZ_CHECK(pii_ner_code_value(&cut, label, s, e) == whole);

    /* every view with enough bytes before the span agrees; later ones
     * only fail closed */
    for (size_t b = 1; b <= s; b++) {
        ner_text view = {text + b, b, n - b};
        int got = pii_ner_code_value(&view, label, s, e);
        if (s - b >= NER_DIGEST_BACK + 1)
            FUZZ_CHECK(got == whole);
        else
            FUZZ_CHECK(got <= whole);
    }
    return 0;
}
