#!/bin/sh
# The model tier end to end on a tiny random model with the real receptive
# field (8 layers x radius 128 = 1024 tokens): exact windows (--window 2100,
# 3000 and a single pass agree on a 5,000+ token file), stdin == file,
# random chunking through a pipe, JSON sources, thresholds, operating
# points, bias overrides, argmax decoding, --lines.
set -eu
P="$PII_REDACT"
d="$TMPDIR/m"
"$P" mkmodel -o "$d" --layers 8 --d-model 32 --heads 2 --kv-heads 1 --head-dim 16 \
    --experts 4 --top-k 2 --embed-rows 512 --dtype f32 --seed 5 >/dev/null

# A deterministic text of ~5,500 tokens: prose, numbers, emails, emoji, CRLF.
f="$TMPDIR/in.txt"
awk 'BEGIN {
    split("Alice Smith lives at 123 Main Street and uses alice@example.com call +44 20 7946 0958 on 2026-04-23 Zo\303\253 \360\237\221\213 \345\214\227\344\272\254 the of token https://example.org/x", w, " ");
    n = 0; for (k in w) n++;
    s = 1;
    for (i = 0; i < 2600; i++) {
        s = (s * 1103515245 + 12345) % 2147483648;
        printf "%s", w[1 + int(s / 65536) % n];
        printf (i % 11 == 10) ? "\r\n" : ((i % 7 == 6) ? "\n" : " ");
    }
    printf "\n";
}' > "$f"
ntok=$("$P" tokenize < "$f" | wc -w)
test "$ntok" -ge 5000

J="$P -m $d --model-only --format json"
$J --window 100000 "$f" > "$TMPDIR/single.json"
$J --window 2100 "$f" > "$TMPDIR/w2100.json"
$J --window 3000 "$f" > "$TMPDIR/w3000.json"
# Windows see the same tokens at other positions: logits agree to ~1e-6,
# so scores may differ in the last printed digit; everything else is equal.
noscore() { sed 's/"score":[-+.0-9eE]*//g' "$1"; }
noscore "$TMPDIR/single.json" > "$TMPDIR/s.ns"
noscore "$TMPDIR/w2100.json" | cmp - "$TMPDIR/s.ns"
noscore "$TMPDIR/w3000.json" | cmp - "$TMPDIR/s.ns"
# the window must exceed 2 x the receptive field
if $J --window 2048 "$f" > /dev/null 2>&1; then exit 1; fi

# stdin equals the file (json names the file: drop that key), also when
# the pipe delivers small pieces
nofile() { sed 's/"file":"[^"]*",//' "$1"; }
nofile "$TMPDIR/w3000.json" > "$TMPDIR/w3000.nf"
$J --window 3000 < "$f" | cmp - "$TMPDIR/w3000.nf"
awk '{ printf "%s\n", $0; fflush() }' "$f" | $J --window 3000 | cmp - "$TMPDIR/w3000.nf"
"$P" -m "$d" --model-only "$f" > "$TMPDIR/single.txt"
cat "$f" | "$P" -m "$d" --model-only > "$TMPDIR/stdin.txt"
cmp "$TMPDIR/single.txt" "$TMPDIR/stdin.txt"

# threads: the windows of one document run in shared passes, one window
# per thread; the output is the one-thread output, byte for byte (json with
# scores, and text), from a file and from a pipe
M="$P -m $d --model-only"
$J --threads 1 --window 2100 "$f" > "$TMPDIR/t1.json"
$M --threads 1 --window 3000 "$f" > "$TMPDIR/t1.txt"
for t in 2 3; do
    $J --threads $t --window 2100 "$f" | cmp - "$TMPDIR/t1.json"
    $M --threads $t --window 3000 "$f" | cmp - "$TMPDIR/t1.txt"
    awk '{ printf "%s\n", $0; fflush() }' "$f" | $M --threads $t --window 3000 | cmp - "$TMPDIR/t1.txt"
done

# the same model in int8 with int8 attention projections (quantize --attn,
# the form of the built-in model): its activations are quantized once per
# row and shared by q/k/v and by gate/up (pii_rt_gemm_qx); windows with
# halo rows, shared passes and threads still give the one-thread bytes
"$P" quantize -m "$d" -o "$TMPDIR/q8a" --type int8 --attn >/dev/null
Q="$P -m $TMPDIR/q8a --model-only --format json"
$Q --threads 1 --window 2100 "$f" > "$TMPDIR/q1.json"
grep -q '"source":"model"' "$TMPDIR/q1.json"
# windows (halo rows skipped per layer: runs of rows at offsets) agree with
# one pass over the whole file, as above (a wrong row offset in the shared
# quantized rows breaks this)
$Q --window 100000 "$f" > "$TMPDIR/qs.json"
noscore "$TMPDIR/qs.json" > "$TMPDIR/qs.ns"
noscore "$TMPDIR/q1.json" | cmp - "$TMPDIR/qs.ns"
$Q --window 3000 "$f" | sed 's/"score":[-+.0-9eE]*//g' | cmp - "$TMPDIR/qs.ns"
for t in 2 3; do
    $Q --threads $t --window 2100 "$f" | cmp - "$TMPDIR/q1.json"
done

# spans are from the model; with rules on, both sources appear
nm=$(grep -o '"source":"model"' "$TMPDIR/single.json" | wc -l)
test "$nm" -gt 0
"$P" -m "$d" --format json "$f" > "$TMPDIR/both.json"
grep -q '"source":"model"' "$TMPDIR/both.json"
grep -q '"source":"rule"' "$TMPDIR/both.json"
"$P" -m "$d" --model-only --format jsonl "$f" > "$TMPDIR/spans.jsonl"
test "$(wc -l < "$TMPDIR/spans.jsonl")" -eq "$nm"

count() { grep -o '"source":"model"' "$1" | wc -l; }

# thresholds: global, per label, and a label the model does not have (the
# random model's scores lie around 0.04..0.17)
$J --threshold 0.08 "$f" > "$TMPDIR/t08.json"
n08=$(count "$TMPDIR/t08.json")
test "$n08" -gt 0 && test "$n08" -lt "$nm"
if grep -o '"score":[-+.0-9eE]*' "$TMPDIR/t08.json" | cut -d: -f2 | awk '$1 < 0.08 { bad = 1 } END { exit !bad }'; then
    exit 1
fi
$J --threshold 1 "$f" > "$TMPDIR/t1.json"
test "$(count "$TMPDIR/t1.json")" -eq 0
$J --threshold private_person=1 "$f" > "$TMPDIR/tp.json"
if grep -q '"label":"private_person"' "$TMPDIR/tp.json"; then exit 1; fi
test "$(count "$TMPDIR/tp.json")" -gt 0
if $J --threshold no_such_label=0.5 "$f" > /dev/null 2>&1; then exit 1; fi

# operating points: a calibration file beside the model
cat > "$d/viterbi_calibration.json" <<'EOF'
{"operating_points": {
  "default": {"biases": {"transition_bias_background_stay": 0, "transition_bias_background_to_start": 0,
    "transition_bias_inside_to_continue": 0, "transition_bias_inside_to_end": 0,
    "transition_bias_end_to_background": 0, "transition_bias_end_to_start": 0}},
  "strict": {"biases": {"transition_bias_background_stay": 1.5, "transition_bias_background_to_start": -1.5,
    "transition_bias_inside_to_continue": 0, "transition_bias_inside_to_end": 0,
    "transition_bias_end_to_background": 0, "transition_bias_end_to_start": 0}}}}
EOF
$J --window 100000 "$f" | cmp - "$TMPDIR/single.json" # the all-zero default: no change
$J --operating-point strict "$f" > "$TMPDIR/strict.json"
ns=$(count "$TMPDIR/strict.json")
test "$ns" -gt 0 && test "$ns" -lt "$nm"
$J --bias background_stay=1.5 --bias background_to_start=-1.5 "$f" | cmp - "$TMPDIR/strict.json"
if $J --operating-point nope "$f" > /dev/null 2>&1; then exit 1; fi
if $J --bias nope=1 "$f" > /dev/null 2>&1; then exit 1; fi
rm "$d/viterbi_calibration.json"
if $J --operating-point strict "$f" > /dev/null 2>&1; then exit 1; fi

# argmax decoding runs and gives well-formed output
$J --decode argmax "$f" > "$TMPDIR/argmax.json"
grep -q '"source":"model"' "$TMPDIR/argmax.json"
if $J --decode beam "$f" > /dev/null 2>&1; then exit 1; fi

# --lines: each line is its own document
head -n 40 "$f" > "$TMPDIR/lines.txt"
"$P" -m "$d" --model-only --lines "$TMPDIR/lines.txt" > "$TMPDIR/lines.out"
i=0
: > "$TMPDIR/lines.exp"
while IFS= read -r line || [ -n "$line" ]; do
    printf '%s\n' "$line" > "$TMPDIR/one"
    "$P" -m "$d" --model-only "$TMPDIR/one" >> "$TMPDIR/lines.exp"
    i=$((i + 1))
    [ "$i" -lt 8 ] || break
done < "$TMPDIR/lines.txt"
head -n 8 "$TMPDIR/lines.out" | cmp - "$TMPDIR/lines.exp"
