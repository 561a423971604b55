# pii-redact eval: metrics on a hand-made file with hand-computed results
# (tests/fixtures/eval/README), text and json output.
set -e
P=$PII_REDACT
D=tests/fixtures/eval
fail() { echo "FAIL: $*"; exit 1; }

(cd $D && $P eval --predictions mini.pred.jsonl mini.jsonl) >"$TMPDIR/out.txt" || fail "exit status"
diff -u $D/mini.expected.txt "$TMPDIR/out.txt" || fail "text table differs"
(cd $D && $P eval --format json --predictions mini.pred.jsonl mini.jsonl) >"$TMPDIR/out.json" ||
    fail "exit status (json)"
diff -u $D/mini.expected.json "$TMPDIR/out.json" || fail "json differs"
(cd $D && $P eval --format md --predictions mini.pred.jsonl mini.jsonl) >"$TMPDIR/out.md" ||
    fail "exit status (md)"
diff -u $D/mini.expected.md "$TMPDIR/out.md" || fail "markdown differs"

# Predictions in a different line order than the eval file are refused.
sed -n 2p $D/mini.pred.jsonl >"$TMPDIR/swapped.jsonl"
sed -n 1p $D/mini.pred.jsonl >>"$TMPDIR/swapped.jsonl"
sed -n '3,$p' $D/mini.pred.jsonl >>"$TMPDIR/swapped.jsonl"
set +e
$P eval --predictions "$TMPDIR/swapped.jsonl" $D/mini.jsonl >/dev/null 2>"$TMPDIR/err"
rc=$?
set -e
[ $rc -eq 2 ] || fail "swapped ids: exit $rc"
grep -q 'mini.jsonl:1: prediction ids' "$TMPDIR/err" || fail "swapped ids: message"

# Too few predictions.
head -n 2 $D/mini.pred.jsonl >"$TMPDIR/short.jsonl"
set +e
$P eval --predictions "$TMPDIR/short.jsonl" $D/mini.jsonl >/dev/null 2>"$TMPDIR/err"
rc=$?
set -e
[ $rc -eq 2 ] || fail "short predictions: exit $rc"
echo ok
