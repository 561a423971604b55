# pii-redact eval: options, errors, the detector path, --dump-predictions.
set -e
P=$PII_REDACT
D=tests/fixtures/eval
fail() { echo "FAIL: $*"; exit 1; }
expect() { # expect STATUS CMD...
    want=$1; shift
    set +e
    "$@" >"$TMPDIR/o" 2>"$TMPDIR/e"
    got=$?
    set -e
    [ "$got" -eq "$want" ] || fail "$* -> exit $got, want $want"
}

expect 0 $P eval --help
grep -q '^Usage: pii-redact eval' "$TMPDIR/o" || fail "--help not on stdout"
expect 2 $P eval
expect 2 $P eval --bogus $D/mini.jsonl
expect 2 $P eval --format xml $D/mini.jsonl
expect 2 $P eval --rules-only --model-only $D/mini.jsonl
expect 3 $P eval "$TMPDIR/does-not-exist.jsonl"

# Malformed input: the line number is reported, the text never is.
printf '%s\n' '{"text": "secret text here", "spans": [{"start": 0, "end": 99, "label": "secret", "scored": true}]}' \
    >"$TMPDIR/bad.jsonl"
expect 2 $P eval --rules-only "$TMPDIR/bad.jsonl"
grep -q 'bad.jsonl:1:' "$TMPDIR/e" || fail "no line number"
if grep -q 'secret text' "$TMPDIR/e"; then fail "input text printed"; fi
printf 'not json\n' >"$TMPDIR/bad2.jsonl"
expect 2 $P eval --rules-only "$TMPDIR/bad2.jsonl"

# The detector path runs on every record; its dumped predictions, scored
# again with --predictions, give the same figures.
expect 0 $P eval --rules-only --dump-predictions "$TMPDIR/dump.jsonl" $D/mini.jsonl
grep -q '^.*mini.jsonl: 5 records, detectors: rules$' "$TMPDIR/o" || fail "detector run header"
[ "$(wc -l <"$TMPDIR/dump.jsonl")" -eq 5 ] || fail "dump has not 5 lines"
sed 1d "$TMPDIR/o" >"$TMPDIR/a"
expect 0 $P eval --predictions "$TMPDIR/dump.jsonl" $D/mini.jsonl
sed 1d "$TMPDIR/o" >"$TMPDIR/b"
diff -u "$TMPDIR/a" "$TMPDIR/b" || fail "dump round trip"

# Several files are scored separately (two tables).
expect 0 $P eval --rules-only $D/mini.jsonl $D/mini.jsonl
[ "$(grep -c '^character leak rate' "$TMPDIR/o")" -eq 2 ] || fail "two files"
expect 0 $P eval --rules-only --format json $D/mini.jsonl $D/mini.jsonl
[ "$(grep -c '"file":' "$TMPDIR/o")" -eq 2 ] || fail "two files (json)"

# Byte offsets from the library become code points: when the rule tier
# finds e-mail addresses, the one after "Zoë Ünal, " (multi-byte letters)
# must be an exact hit.
if $P --list-rules 2>/dev/null | grep -q 'private_email'; then
    expect 0 $P eval --rules-only --dump-predictions "$TMPDIR/dump2.jsonl" $D/mini.jsonl
    sed -n 2p "$TMPDIR/dump2.jsonl" | grep -q '"start":10,"end":25,"label":"private_email"' ||
        fail "code-point offsets: $(sed -n 2p "$TMPDIR/dump2.jsonl")"
fi
echo ok
