#!/bin/sh
# Runs every tests/cli/t_*.sh with $PII_REDACT pointing at the binary under
# test and $TMPDIR a fresh scratch folder; prints one summary line.
here=$(cd "$(dirname "$0")" && pwd)
: "${PII_REDACT:?set PII_REDACT to the binary under test}"
export PII_REDACT
fail=0; n=0
for t in "$here"/t_*.sh; do
    [ -e "$t" ] || continue
    n=$((n + 1))
    scratch=$(mktemp -d)
    if TMPDIR="$scratch" sh "$t" >"$scratch/.log" 2>&1; then
        :
    else
        echo "FAIL: $(basename "$t")" >&2; sed 's/^/  | /' "$scratch/.log" >&2
        fail=$((fail + 1))
    fi
    rm -rf "$scratch"
done
echo "cli: $((n - fail))/$n tests passed"
[ "$fail" -eq 0 ]
