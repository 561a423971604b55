# --lines with a model packs the whole lines of each read into shared
# forward passes (pii_stream_put); the result must equal redacting each
# line on its own.
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

# identical lines are answered from the model detector's cache: the same
# bytes with it and without it (PII_REDACT_NO_CACHE), 1 and 3 threads,
# whole file and one line per read
python3 tools/bench/gen_log.py --traces 300 >"$TMPDIR/log"
$P -m "$TMPDIR/m" --lines --threads 1 "$TMPDIR/log" >"$TMPDIR/log.c1"
PII_REDACT_NO_CACHE=1 $P -m "$TMPDIR/m" --lines --threads 1 "$TMPDIR/log" >"$TMPDIR/log.n1"
cmp "$TMPDIR/log.c1" "$TMPDIR/log.n1" || fail "cached --lines output differs from uncached"
$P -m "$TMPDIR/m" --lines --threads 3 "$TMPDIR/log" | cmp - "$TMPDIR/log.c1" ||
    fail "--lines: 3 threads differ from 1"
awk '{ printf "%s\n", $0; fflush() }' "$TMPDIR/log" | $P -m "$TMPDIR/m" --lines --threads 2 |
    cmp - "$TMPDIR/log.c1" || fail "--lines from a pipe, line by line, differs"
$P -m "$TMPDIR/m" --lines --format jsonl "$TMPDIR/log" | sed 's/"file":"[^"]*",//' >"$TMPDIR/log.cj"
PII_REDACT_NO_CACHE=1 $P -m "$TMPDIR/m" --lines --format jsonl "$TMPDIR/log" |
    sed 's/"file":"[^"]*",//' | cmp - "$TMPDIR/log.cj" || fail "cached --lines spans differ"
[ -s "$TMPDIR/log.cj" ] || fail "no spans in the log: the comparison proves nothing"

# batch mode with --lines queues lines the same way: --check positions
# (line:column, taken by document number) and the text equal the
# uncached, one-line-per-read run
mkdir "$TMPDIR/tree"
cp "$TMPDIR/log" "$TMPDIR/tree/a.log"
head -n 50 "$TMPDIR/log" >"$TMPDIR/tree/b.log"
$P -m "$TMPDIR/m" --lines --check -r "$TMPDIR/tree" >"$TMPDIR/chk.c" 2>/dev/null && fail "--check found nothing"
[ -s "$TMPDIR/chk.c" ] || fail "--check printed nothing"
PII_REDACT_NO_CACHE=1 $P -m "$TMPDIR/m" --lines --check -r "$TMPDIR/tree" 2>/dev/null |
    cmp - "$TMPDIR/chk.c" || fail "batch --lines --check: cached and uncached differ"
# positions equal those of a pipe giving one line per read (nothing queued)
pos() { sed 's/^[^:]*://; s/ [0-9a-f]\{16\}\( \[[^]]*\]\)\{0,1\}$//'; }
$P -m "$TMPDIR/m" --lines --check "$TMPDIR/tree/a.log" 2>/dev/null | pos >"$TMPDIR/pos.f"
awk '{ printf "%s\n", $0; fflush() }' "$TMPDIR/log" | $P -m "$TMPDIR/m" --lines --check 2>/dev/null |
    pos | cmp - "$TMPDIR/pos.f" || fail "batch --lines --check positions differ from line by line"
(cd "$TMPDIR" && $P -m m --lines --threads 1 -r tree --out-dir out 2>/dev/null)
cmp "$TMPDIR/out/tree/a.log" "$TMPDIR/log.c1" || fail "batch --lines text differs from the single-file run"
echo ok
