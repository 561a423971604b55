#!/bin/sh
# tests/layers/run.sh CC OUTDIR — the layer check must fail on a fixture
# that breaks the rule (tests/layers/bad: the lower layer includes the
# higher layer's header and calls its function) with exactly those two
# findings, and must not report the allowed arrow (high uses low).
set -eu
cc=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
rm -rf "$out"
mkdir -p "$out/low" "$out/high"
for l in low high; do
    $cc -c -I"$here/bad/low/include" -I"$here/bad/high/include" -o "$out/$l/$l.o" "$here/bad/$l/$l.c"
done
if "$top/tools/layers-check.sh" "$here/layers.txt" "$here/bad" "$out/low/low.o" "$out/high/high.o" >"$out/log" 2>&1; then
    echo "FAIL: layers: the check passed a fixture that breaks the rule"
    cat "$out/log"
    exit 1
fi
grep -q '^layers: low/low.c (low) includes "high.h" of high: low may not use high' "$out/log" &&
    grep -q '^layers: low/low.o (low) calls high_fn, defined in high/high.o (high): low may not use high' "$out/log" &&
    [ "$(wc -l <"$out/log")" -eq 2 ] || {
    echo "FAIL: layers: the check's findings on the bad fixture are not the two expected:"
    cat "$out/log"
    exit 1
}
echo "layers: the check fails the bad fixture with its two findings"
