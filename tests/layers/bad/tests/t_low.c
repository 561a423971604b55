/* t_low.c — a client (a test of the lower layer, clients.txt) may include
 * the lower layer's private header, and any public header, but not a
 * private header of the higher layer (tests/layers/run.sh). */
#include "high.h"
#include "high/hpriv.h"
#include "low/priv.h"
