#!/bin/sh
# Runs each cmocka suite given on the command line; prints one summary line.
fail=0; n=0
for t in "$@"; do
    n=$((n + 1))
    if ! "$t"; then echo "FAIL: $t" >&2; fail=$((fail + 1)); fi
done
echo "unit: $((n - fail))/$n suites passed"
[ "$fail" -eq 0 ]
