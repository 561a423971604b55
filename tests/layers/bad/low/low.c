/* low.c — breaks the rule twice on purpose: includes a header of the
 * higher layer and calls its function (tests/layers/run.sh). */
#include "high.h"
#include "low.h"

int low_fn(int x)
{
    return x > 0 ? high_fn(x - 1) : 0;
}
