# Batch mode packs small files into shared model passes (src/batch_pack.c,
# pii_stream_put with PII_STREAM_AHEAD).  A packed file that --resume skips
# is never fed: the files of the next group must still be redacted (the
# skipped file's computation is withdrawn, not left pending), and every
# output equals the one a plain run writes.
set -e
. "$(dirname "$0")/lib.sh"
P="$PII_REDACT"
cd "$TMPDIR"
mkdir tree
for i in $(seq 100 229); do
    echo "Contact Maria Garcia at maria$i@example.org" >tree/f$i.txt
done
$P -r tree --out-dir out -j 1 -q || fail "first run: exit $?"
[ "$(ls out/tree | wc -l)" -eq 130 ] || fail "first run: $(ls out/tree | wc -l) outputs"
cp -a out ref
# keep only the output of f163.txt, the 64th file: the last of the first
# group of 64, so the group ends with a file --resume skips
for f in out/tree/*; do
    [ "$f" = out/tree/f163.txt ] || rm "$f"
done
$P -r tree --out-dir out --resume -j 1 -q --report rep.json || fail "resume: exit $?"
jq -e '.summary.ok == 129 and .summary.skipped == 1 and .summary.failed == 0' rep.json >/dev/null ||
    fail "resume: $(jq -c .summary rep.json)"
diff -r ref out >/dev/null || fail "resumed outputs differ from the first run's"
grep -q '<PRIVATE_EMAIL>' out/tree/f229.txt || fail "f229.txt not redacted"
echo ok
