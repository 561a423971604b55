# --lines with a model packs the whole lines of each read into shared
# forward passes; the result must equal redacting each line on its own.
set -e
P=$PII_REDACT
fail() { echo "FAIL: $*"; exit 1; }
$P mkmodel --layers 2 --d-model 64 --heads 2 --kv-heads 1 --head-dim 32 --experts 4 --top-k 2 \
    --seed 7 -o "$TMPDIR/m" >/dev/null
head -n 40 samples/sentences.txt >"$TMPDIR/in"
printf 'last line without a newline bob@example.com' >>"$TMPDIR/in"
$P -m "$TMPDIR/m" --lines --format jsonl "$TMPDIR/in" | sed 's/"file":"[^"]*",//' >"$TMPDIR/packed"
$P -m "$TMPDIR/m" --lines "$TMPDIR/in" >"$TMPDIR/packed.txt"
: >"$TMPDIR/single"
: >"$TMPDIR/single.txt"
i=0
while IFS= read -r line || [ -n "$line" ]; do
    i=$((i + 1))
    nl='\n'
    [ "$i" -eq 41 ] && nl=''
    printf "%s$nl" "$line" | $P -m "$TMPDIR/m" --lines --format jsonl |
        sed "s/\"line\":1,/\"line\":$i,/" >>"$TMPDIR/single"
    printf "%s$nl" "$line" | $P -m "$TMPDIR/m" --lines >>"$TMPDIR/single.txt"
done <"$TMPDIR/in"
[ -s "$TMPDIR/single" ] || fail "no spans at all: the test would prove nothing"
cmp "$TMPDIR/packed" "$TMPDIR/single" || fail "packed spans differ from line-by-line spans"
cmp "$TMPDIR/packed.txt" "$TMPDIR/single.txt" || fail "packed text differs from line-by-line text"
echo ok
