/* high.c — uses the lower layer as allowed (tests/layers/run.sh). */
#include "high.h"
#include "low.h"

int high_fn(int x)
{
    return low_fn(x) + 1;
}
