#!/bin/sh
# tests/layers/run.sh CC OUTDIR [FLAGS...] — the layer check must fail on a
# fixture that breaks the rule (tests/layers/bad) with exactly its five
# findings, one per kind of hole: the lower layer includes the higher
# layer's header with quotes (low.c) and with angle brackets (angle.h) and
# calls its function (low.o); the higher layer includes a private header of
# the lower one (reach.h); a client that tests the lower layer includes a
# private header of the higher one (tests/t_low.c, clients.txt).  The
# allowed arrow (high uses low) and the allowed client includes are not
# reported.  With FLAGS (the include flags the Makefile gives the redact
# layer), the compiler must refuse a file that includes the ner layer's
# header: the include paths enforce the rule before the check does.
set -eu
cc=$1
out=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
rm -rf "$out"
mkdir -p "$out/low" "$out/high"
for l in low high; do
    $cc -c -I"$here/bad/low/include" -I"$here/bad/high/include" -o "$out/$l/$l.o" "$here/bad/$l/$l.c"
done
if "$top/tools/layers-check.sh" -c "$here/bad/clients.txt" "$here/layers.txt" "$here/bad" \
    "$out/low/low.o" "$out/high/high.o" >"$out/log" 2>&1; then
    echo "FAIL: layers: the check passed a fixture that breaks the rule"
    cat "$out/log"
    exit 1
fi
sort "$out/log" >"$out/got"
sort >"$out/want" <<'WANT'
layers: high/reach.h (high) includes "low/priv.h", a private header of low: only low may use it
layers: low/angle.h (low) includes <high.h> of high: low may not use high (mk/layers.txt)
layers: low/low.c (low) includes "high.h" of high: low may not use high (mk/layers.txt)
layers: low/low.o (low) calls high_fn, defined in high/high.o (high): low may not use high (mk/layers.txt)
layers: tests/t_low.c includes "high/hpriv.h", a private header of high, but tests low (tests/layers/clients.txt)
WANT
if ! cmp -s "$out/want" "$out/got"; then
    echo "FAIL: layers: the check's findings on the bad fixture are not the five expected:"
    diff "$out/want" "$out/got" || true
    exit 1
fi
if [ $# -gt 0 ]; then
    printf '#include "pii_ner.h"\n' >"$out/up.c"
    if (cd "$top" && $cc "$@" -fsyntax-only "$out/up.c") >"$out/cc.log" 2>&1; then
        echo "FAIL: layers: a file compiled with the redact layer's flags can include pii_ner.h"
        exit 1
    fi
    grep -q 'pii_ner.h' "$out/cc.log" || { cat "$out/cc.log"; exit 1; }
fi
echo "layers: the check fails the bad fixture with its five findings${1:+; the redact layer's include paths refuse pii_ner.h}"
