# Issue 43 (item from issue 41's owner): one bad JSONL line need not stop a
# whole log — --bad-records=text redacts it as plain text in its place; the
# default (fail) still stops there; no part of a bad line is written unscanned.
set -e
P=$PII_REDACT
fail() { echo "FAIL: $*"; exit 1; }
printf '{"a":"bob@example.com"}\nnot json: bob@example.com 415-555-0132\n{"a":"x","b":"mail ann@example.org"}\n' >"$TMPDIR/in.jsonl"
set +e
$P --rules-only --jsonl-field '*' "$TMPDIR/in.jsonl" >"$TMPDIR/o" 2>"$TMPDIR/e"; rc=$?
set -e
[ "$rc" -ne 0 ] || fail "fail: exit 0"
grep -q 'record 2: invalid JSON' "$TMPDIR/e" || fail "fail: $(cat "$TMPDIR/e")"
grep -q 'bob@' "$TMPDIR/o" "$TMPDIR/e" && fail "fail: a value was written"
for m in --rules-only ""; do
    out=$($P $m --jsonl-field '*' --bad-records=text "$TMPDIR/in.jsonl")
    [ "$out" = '{"a":"<PRIVATE_EMAIL>"}
not json: <PRIVATE_EMAIL> <PRIVATE_PHONE>
{"a":"x","b":"mail <PRIVATE_EMAIL>"}' ] || fail "text ${m:-default}: $out"
done
# spans of the bad line: offsets in the line, no field
out=$($P --rules-only --jsonl-field '*' --bad-records=text --format jsonl "$TMPDIR/in.jsonl" | sed -n 2p)
echo "$out" | grep -q '"record":2,"field":"","label":"private_email","start":10,"end":25' ||
    fail "jsonl: $out"
# --check finds what the bad line holds
set +e
$P --rules-only --jsonl-field a --bad-records=text --check "$TMPDIR/in.jsonl" >"$TMPDIR/o"; rc=$?
set -e
[ "$rc" -eq 1 ] && [ "$(wc -l <"$TMPDIR/o")" -eq 3 ] || fail "check: rc=$rc $(cat "$TMPDIR/o")"
# usage errors
set +e
$P --bad-records=text "$TMPDIR/in.jsonl" >/dev/null 2>&1; rc1=$?
$P --jsonl-field a --bad-records=skip "$TMPDIR/in.jsonl" >/dev/null 2>&1; rc2=$?
set -e
[ "$rc1" -eq 2 ] && [ "$rc2" -eq 2 ] || fail "usage: $rc1 $rc2"
exit 0
