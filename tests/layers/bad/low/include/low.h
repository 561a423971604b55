/* low.h — the fixture's lower layer (tests/layers/run.sh). */
int low_fn(int x);
