# Nothing from the input reaches stderr, error messages or reports, and
# values reach stdout only with --show-values.  Every error path below runs
# on input full of distinctive values that must never be echoed.
set -e
P=$PII_REDACT
fail() { echo "FAIL: $*"; exit 1; }
T=$TMPDIR

cat >"$T/pii" <<'PII'
zorblax
wimbleton
415-555-0199
4111 1111 1111 1111
AKIAQUUXWIMBLETON7Z2
PII
no_pii() { # $1: file, $2: what
    if grep -F -i -f "$T/pii" "$1" >/dev/null; then
        echo "--- $1:"; cat "$1"; fail "input value in $2"
    fi
}
printf 'Mail zorblax.wimbleton@example.org, call +1 415-555-0199,\ncard 4111 1111 1111 1111, key AKIAQUUXWIMBLETON7Z2.\n' >"$T/in"

# Outputs: redacted text, json and jsonl carry no value unless --show-values.
for fmt in text json jsonl; do
    "$P" --rules-only --format $fmt <"$T/in" >"$T/out" 2>"$T/err"
    no_pii "$T/out" "--format $fmt output"
    no_pii "$T/err" "--format $fmt stderr"
    "$P" --rules-only --lines --format $fmt <"$T/in" >"$T/out" 2>"$T/err"
    no_pii "$T/out" "--lines --format $fmt output"
done
for fmt in json jsonl; do
    "$P" --rules-only --format $fmt --show-values <"$T/in" >"$T/out" 2>"$T/err"
    grep -q 'zorblax.wimbleton@example.org' "$T/out" || fail "--show-values --format $fmt: no value"
    no_pii "$T/err" "--show-values stderr"
done
"$P" --rules-only --check <"$T/in" >"$T/out" 2>"$T/err" && fail "--check found nothing"
no_pii "$T/out" "--check stdout (findings without values)"
no_pii "$T/err" "--check stderr"

# Write errors, read errors, broken pipes.
set +e
"$P" --rules-only <"$T/in" >/dev/full 2>"$T/err"; rc=$?
[ $rc -eq 3 ] || fail "/dev/full: exit $rc"
no_pii "$T/err" "write error message"
PII_REDACT_FAULT=read:2 "$P" --rules-only --format json "$T/in" >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 3 ] || fail "read error: exit $rc"
no_pii "$T/err" "read error message"
no_pii "$T/out" "output after a read error"
set -e

# Allow and deny lists with broken regexes made of values.
printf 're:(zorblax.wimbleton[\n' >"$T/deny"
printf 'zorblax\nre:[[:wimbleton:]]\n' >"$T/allow"
set +e
"$P" --rules-only --deny "$T/deny" <"$T/in" >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 2 ] || fail "bad deny list: exit $rc"
no_pii "$T/err" "deny list error"
"$P" --rules-only --allow "$T/allow" <"$T/in" >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 2 ] || fail "bad allow list: exit $rc"
no_pii "$T/err" "allow list error"
set -e

# JSON Lines and CSV records that do not parse.
printf '{"message":"zorblax.wimbleton@example.org"}\n{"message": zorblax wimbleton}\n' >"$T/in.jsonl"
printf 'id,note\n1,"zorblax"wimbleton 415-555-0199\n' >"$T/in.csv"
set +e
"$P" --rules-only --jsonl-field message "$T/in.jsonl" >"$T/out" 2>"$T/err"; rc=$?
[ $rc -ne 0 ] || fail "bad JSONL accepted"
no_pii "$T/err" "JSONL error"
no_pii "$T/out" "JSONL output"
"$P" --rules-only --csv-column note "$T/in.csv" >"$T/out" 2>"$T/err"; rc=$?
[ $rc -ne 0 ] || fail "bad CSV accepted"
no_pii "$T/err" "CSV error"
set -e

# Batch reports list counts, never values.
mkdir -p "$T/tree/sub" "$T/outdir"
cp "$T/in" "$T/tree/a.txt"
cp "$T/in" "$T/tree/sub/b.log"
"$P" --rules-only -r --out-dir "$T/outdir" --report "$T/report.json" "$T/tree" >"$T/out" 2>"$T/err" ||
    fail "batch run"
no_pii "$T/report.json" "batch report"
no_pii "$T/err" "batch stderr"
for f in "$T/outdir"/*/a.txt "$T/outdir"/a.txt "$T/outdir"/*/*/b.log "$T/outdir"/sub/b.log; do
    [ -f "$f" ] && no_pii "$f" "batch output $f"
done

# eval: a broken gold file and a span outside its text.
printf '{"text":"zorblax wimbleton 415-555-0199","spans":[]}\n{"text": "zorblax\n' >"$T/gold1"
printf '{"text":"zorblax wimbleton","spans":[{"start":0,"end":99,"label":"private_person"}]}\n' >"$T/gold2"
for g in gold1 gold2; do
    set +e
    "$P" eval --rules-only "$T/$g" >"$T/out" 2>"$T/err"; rc=$?
    set -e
    [ $rc -ne 0 ] || fail "eval accepted $g"
    no_pii "$T/err" "eval error ($g)"
done

# tokenize on a full disk.
set +e
"$P" tokenize <"$T/in" >/dev/full 2>"$T/err"; rc=$?
set -e
[ $rc -ne 0 ] || fail "tokenize to /dev/full: exit 0"
no_pii "$T/err" "tokenize error"
echo ok
