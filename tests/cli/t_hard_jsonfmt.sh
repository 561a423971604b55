# --format json holds a document's spans until it ends: capped at
# 1,000,000 spans (or 64 MiB of --show-values values), beyond which the
# document fails closed (exit 5, a message pointing at jsonl); jsonl and
# --lines stream.  (Issue 18, H4: 200 MB of PII took 446 MB of RSS.)
set -e
P=$PII_REDACT
fail() { echo "FAIL: $*"; exit 1; }
cd "$TMPDIR"
awk 'BEGIN { for (i = 0; i < 1000001; i++) printf "a@b.co " }' >over.txt
awk 'BEGIN { for (i = 0; i < 1000000; i++) printf "a@b.co " }' >at.txt
LIMIT=160000
if ldd "$P" 2>/dev/null | grep -q libasan; then LIMIT=600000; fi

set +e
"$P" --rules-only --format json over.txt >out 2>err
rc=$?
set -e
[ $rc -eq 5 ] || fail "over the cap: exit $rc, want 5"
grep -q 'format json holds a document.s spans: at most 1,000,000' err || fail "no message"
grep -q '"spans"' out && fail "over the cap: spans written"
grep -q 'a@b.co' out && fail "over the cap: a value written"
set +e
"$P" --rules-only --format json --show-values over.txt >out 2>err
rc=$?
set -e
[ $rc -eq 5 ] || fail "over the cap, --show-values: exit $rc"

/usr/bin/time -f '%M' -o rss "$P" --rules-only --format json at.txt >out 2>err ||
    fail "at the cap: exit $?"
grep -q '"summary":{"private_email":1000000}}' out || fail "at the cap: summary"
rss=$(tail -n 1 rss)
echo "1,000,000 spans in json: max RSS ${rss} KB"
[ "$rss" -lt $LIMIT ] || fail "at the cap: RSS ${rss} KB"

# jsonl and --lines stream whatever the count.
"$P" --rules-only --format jsonl over.txt >out 2>err || fail "jsonl: exit $?"
[ "$(wc -l <out)" -eq 1000001 ] || fail "jsonl: span count"
tr ' ' '\n' <over.txt >lines.txt
"$P" --rules-only --format json --lines lines.txt >out 2>err || fail "json --lines: exit $?"
[ "$(wc -l <out)" -eq 1000001 ] || fail "json --lines: line count $(wc -l <out)"
# Batch json output fails the file, writes nothing for it.
mkdir -p tree
cp over.txt tree/
set +e
"$P" --rules-only --format json -r --out-dir od tree >out 2>err
rc=$?
set -e
[ $rc -eq 3 ] || fail "batch: exit $rc"
[ ! -e od/tree/over.txt ] || fail "batch: output written"
echo ok
