# pii-redact tokenize: ids, --jsonl offsets, --chars, errors, loaded vocabularies.
set -e
P=$PII_REDACT
F=tests/fixtures/tok
fail() { echo "FAIL: $*"; exit 1; }

# Acceptance vector (issue 3, spec §9).
got=$(printf 'Alice Smith lives at 123 Main Street and uses alice@example.com' | $P tokenize)
[ "$got" = "100151 16627 8354 540 220 7633 7956 9903 326 8844 134271 81309 1136" ] ||
    fail "acceptance ids: $got"

# A file argument gives the same as stdin.
printf 'Call me at +44 20 7946 0958 on 2026-04-23.' >"$TMPDIR/in.txt"
[ "$($P tokenize "$TMPDIR/in.txt")" = "$($P tokenize <"$TMPDIR/in.txt")" ] || fail "file vs stdin"
[ "$($P tokenize "$TMPDIR/in.txt")" = \
    "4701 668 540 659 3336 220 455 220 50742 21 220 44607 23 402 220 1323 21 12 3000 12 1860 13" ] ||
    fail "phone/date vector"

# --jsonl: ids and byte offsets from tiktoken for a sample of the corpus.
$P tokenize --jsonl <$F/cli.jsonl >"$TMPDIR/out.jsonl"
cmp "$TMPDIR/out.jsonl" $F/cli.expected.jsonl || fail "--jsonl differs from tiktoken"

# --chars: the widened character offsets of spec §9.
got=$(printf '{"text":"Zo\\u00eb paid \\u00a320 and waved \\ud83d\\udc4b\\ud83c\\udffd."}\n' |
    $P tokenize --jsonl --chars)
want='{"ids":[48101,1730,9927,8989,455,326,135473,61138,233,52622,121,13],"offsets":[[0,2],[2,3],[3,8],[8,10],[10,12],[12,16],[16,22],[22,24],[23,24],[24,25],[24,25],[25,26]]}'
[ "$got" = "$want" ] || fail "--chars: $got"

# Special-token text is plain text; invalid UTF-8 is encoded byte by byte.
[ "$(printf '<|endoftext|>' | $P tokenize)" = "27 91 419 1440 919 91 29" ] || fail "special text"
[ "$(printf 'a\377b\342\202' | $P tokenize)" = "64 187 65 158 224" ] || fail "invalid UTF-8"
[ "$(printf '' | $P tokenize)" = "" ] || fail "empty input"

# Errors: bad JSON line (exit 2, line number, no input text), bad option, missing file.
set +e
printf '{"text":"ok"}\n{"x":"secret-value"}\n' | $P tokenize --jsonl >/dev/null 2>"$TMPDIR/err"
rc=$?
set -e
[ $rc -eq 2 ] || fail "bad record: exit $rc"
grep -q ':2: no "text" string' "$TMPDIR/err" || fail "bad record message: $(cat "$TMPDIR/err")"
grep -q secret-value "$TMPDIR/err" && fail "input text on stderr"
set +e
$P tokenize --no-such-option </dev/null >/dev/null 2>&1
[ $? -eq 2 ] || fail "bad option"
$P tokenize "$TMPDIR/missing" >/dev/null 2>&1
[ $? -eq 3 ] || fail "missing file"
set -e
$P tokenize --help | grep -q 'Usage: pii-redact tokenize' || fail "--help"

# --tokenizer with a tiktoken rank file: the 256 bytes (rank = byte value),
# then "ab" and "abc".
i=0
while [ $i -lt 256 ]; do
    printf "$(printf '\\%03o' $i)" | base64 | tr -d '\n'
    echo " $i"
    i=$((i + 1))
done >"$TMPDIR/tiny.tiktoken"
printf 'YWI= 256\nYWJj 257\n' >>"$TMPDIR/tiny.tiktoken"
got=$(printf 'abc abd' | $P tokenize --tokenizer "$TMPDIR/tiny.tiktoken")
[ "$got" = "257 32 256 100" ] || fail "tiktoken file: $got"
printf 'YWI= x\n' >"$TMPDIR/bad.tiktoken"
set +e
printf 'a' | $P tokenize -t "$TMPDIR/bad.tiktoken" >/dev/null 2>"$TMPDIR/err"
rc=$?
set -e
[ $rc -eq 4 ] || fail "bad tiktoken file: exit $rc"
grep -q 'bad.tiktoken:1:' "$TMPDIR/err" || fail "bad tiktoken message: $(cat "$TMPDIR/err")"
echo ok
