/* priv.h — a private header of the lower layer (outside its include/):
 * only the lower layer may include it (tests/layers/run.sh). */
int low_private(int x);
