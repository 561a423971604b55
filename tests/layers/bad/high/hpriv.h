/* hpriv.h — a private header of the higher layer (tests/layers/run.sh). */
int high_private(int x);
