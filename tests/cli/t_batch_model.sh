# Batch mode with the model tier (a tiny random model): the model is loaded
# once and shared by the workers; small files go through packed forward
# passes (src/batch_pack.c) yet every output equals `pii-redact -m M FILE`;
# a failing forward pass fails its files only.
set -e
P="$PII_REDACT"
fail() { echo "FAIL: $*"; exit 1; }
cd "$TMPDIR"
M=model
$P mkmodel -o $M --layers 1 --d-model 64 --heads 2 --kv-heads 1 --head-dim 32 --experts 8 \
    --top-k 2 --intermediate 64 --seed 5 >/dev/null

mkdir -p tree/a tree/b
i=0
while [ $i -lt 120 ]; do
    printf 'Hi, this is Maria Lopez (maria%d@example.com), order %d. Call +1 415-555-%04d.\n' \
        $i $i $i >"tree/a/m$i.txt"
    i=$((i + 1))
done
# larger than the packing limit: the ordinary stream
awk 'BEGIN { for (i = 0; i < 700; i++) printf "line %d of a long ticket from bob%d@example.com\n", i, i }' \
    >tree/b/long.txt
: >tree/b/empty.txt
printf 'bin\0ary\1' >tree/b/bin.dat

$P -m $M -r tree --out-dir out -j 2 -q --report rep.json || fail "exit $?"
for f in a/m0.txt a/m1.txt a/m57.txt a/m119.txt b/long.txt b/empty.txt; do
    $P -m $M -q "tree/$f" | cmp - "out/tree/$f" || fail "$f differs from pii-redact -m M FILE"
done
[ ! -e out/tree/b/bin.dat ] || fail "binary written"
jq -e '.summary.ok == 122 and .summary.skipped == 1 and .summary.failed == 0' rep.json >/dev/null ||
    fail "report: $(jq -c .summary rep.json)"
jq -e '[.summary.labels[] | .model // 0] | add > 0' rep.json >/dev/null ||
    fail "no model findings in the report"

# -j 1 and -j 2, --in-place and --out-dir: the same bytes.
$P -m $M -r tree --out-dir out1 -j 1 -q
diff -r out out1 >/dev/null || fail "-j 1 and -j 2 differ"
cp -a tree ip
$P -m $M -r ip --in-place -j 2 -q
diff -r out/tree ip -x bin.dat >/dev/null || fail "--in-place differs from --out-dir"

# A forward pass that fails fails the files it was for; the rest go on.
set +e
PII_REDACT_FAULT=forward:1 $P -m $M -r tree --out-dir outf -j 1 -q --report repf.json 2>err
rc=$?
set -e
[ $rc -eq 3 ] || fail "failed forward pass: exit $rc"
nf=$(jq '.summary.failed' repf.json)
[ "$nf" -ge 1 ] && [ "$nf" -lt 122 ] || fail "failed forward pass: $nf files failed"
for f in $(jq -r '.files[] | select(.status == "failed") | .path' repf.json); do
    [ ! -e "outf/$f" ] || fail "a failed file was written: $f"
done
for f in $(jq -r '.files[] | select(.status == "ok") | .path' repf.json); do
    cmp -s "outf/$f" "out/$f" || fail "after a failure: outf/$f differs"
done
grep -q 'redaction stopped' err || fail "no message: $(cat err)"
echo ok
