/* high.h — the fixture's higher layer (tests/layers/run.sh). */
int high_fn(int x);
