/* angle.h — a header of the lower layer that includes the higher layer's
 * header with angle brackets, which the check reads as well as quotes
 * (tests/layers/run.sh). */
#include <high.h>
