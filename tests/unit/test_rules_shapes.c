/* test_rules_shapes.c — other shapes of machine text (issue 41): passwords
 * in connection strings and command options, "... number is VALUE", and
 * secret values that start with '%' or '/' (base64).
 *
 * Each case lists the exact spans (rule, byte offsets, text) of the
 * one-shot scan; check_cases() also requires the same spans from every
 * engine variant (JIT/interpreter x prefilter/plain) and from every
 * 2-chunk split of the input.  Cases without spans are hard negatives. */
#include "rules_test_util.h"

RULES_CASES_MAIN(test_shapes, "shapes")
