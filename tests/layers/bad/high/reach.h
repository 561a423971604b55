/* reach.h — the higher layer may use the lower one, but not a private
 * header of it (tests/layers/run.sh). */
#include "low/priv.h"
