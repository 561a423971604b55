#!/bin/sh
# `info` opens a model through the code path of redaction: for every model
# redaction refuses, info exits with the same status and prints the same
# message; for a model redaction accepts, both exit 0.  `info` with no -m
# describes the built-in model.
set -eu
A="--layers 1 --d-model 32 --heads 2 --kv-heads 1 --head-dim 16 --experts 4 --top-k 2"
"$PII_REDACT" mkmodel -o "$TMPDIR/good" $A
"$PII_REDACT" mkmodel -o "$TMPDIR/opf" --layout opf $A
"$PII_REDACT" mkmodel -o "$TMPDIR/g.gguf" --gguf f16 $A
fixture() { rm -rf "$TMPDIR/$1" && cp -r "$TMPDIR/good" "$TMPDIR/$1"; }
# 1. a tokenizer.json that is not byte-level BPE
fixture tok
printf '{"model":{"type":"WordPiece","vocab":{"a":0}}}' > "$TMPDIR/tok/tokenizer.json"
# 2. a label that is neither O nor B/I/E/S
fixture lab
sed 's/"B-secret"/"X-secret"/' "$TMPDIR/good/config.json" > "$TMPDIR/lab/config.json"
# 3. a calibration file that is broken
fixture cal
printf '{"operating_points": {"default": {"biases": {"background_stay": []}}}}' \
    > "$TMPDIR/cal/viterbi_calibration.json"
# 4. a truncated weights file
fixture trunc
head -c 5000 "$TMPDIR/good/model.safetensors" > "$TMPDIR/trunc/model.safetensors"
# 5. a configuration that disagrees with the tensors
fixture shape
sed 's/"hidden_size":32/"hidden_size":48/' "$TMPDIR/good/config.json" > "$TMPDIR/shape/config.json"
# 6. an opf config with an asymmetric band
rm -rf "$TMPDIR/band" && cp -r "$TMPDIR/opf" "$TMPDIR/band"
sed 's/"bidirectional_right_context":128/"bidirectional_right_context":64/' \
    "$TMPDIR/opf/config.json" > "$TMPDIR/band/config.json"
# 7. a GGUF cut short, 8. a path that does not exist, 9. a config that is not JSON
head -c 3000 "$TMPDIR/g.gguf" > "$TMPDIR/cut.gguf"
fixture json
printf '{"vocab_size": ' > "$TMPDIR/json/config.json"
n=0
for m in tok lab cal trunc shape band cut.gguf nope json; do
    set +e
    printf 'Alice\n' | "$PII_REDACT" -m "$TMPDIR/$m" > /dev/null 2> "$TMPDIR/e_red"
    r1=$?
    "$PII_REDACT" info -m "$TMPDIR/$m" > "$TMPDIR/o_info" 2> "$TMPDIR/e_info"
    r2=$?
    set -e
    echo "$m: redaction $r1, info $r2"
    test "$r1" -eq 4
    test "$r2" -eq 4
    test ! -s "$TMPDIR/o_info"
    test -s "$TMPDIR/e_red"
    cmp "$TMPDIR/e_red" "$TMPDIR/e_info"
    n=$((n + 1))
done
test "$n" -eq 9
# an operating point the model lacks: refused by both
set +e
printf 'Alice\n' | "$PII_REDACT" -m "$TMPDIR/good" --operating-point recall > /dev/null 2> "$TMPDIR/e1"
r1=$?
"$PII_REDACT" info -m "$TMPDIR/good" --operating-point recall > /dev/null 2> "$TMPDIR/e2"
r2=$?
set -e
test "$r1" -eq 4
test "$r2" -eq 4
cmp "$TMPDIR/e1" "$TMPDIR/e2"
# the calibration refusal goes away with --no-calibration, for both
printf 'Alice\n' | "$PII_REDACT" -m "$TMPDIR/cal" --no-calibration > /dev/null
"$PII_REDACT" info -m "$TMPDIR/cal" --no-calibration > "$TMPDIR/i"
grep -q '^operating point: default (no calibration file: biases 0 unless --bias)$' "$TMPDIR/i"
# accepted models: both exit 0
for m in good opf g.gguf; do
    printf 'Alice\n' | "$PII_REDACT" -m "$TMPDIR/$m" > /dev/null
    "$PII_REDACT" info -m "$TMPDIR/$m" > /dev/null
done
# a calibration file is shown with its biases
fixture cal2
printf '{"operating_point": {"transition_biases": {"background_stay": 1.5, "background_to_start": -2, "inside_to_continue": 0, "inside_to_end": 0, "end_to_background": 0.25, "end_to_start": 0}}}' \
    > "$TMPDIR/cal2/viterbi_calibration.json"
"$PII_REDACT" info -m "$TMPDIR/cal2" > "$TMPDIR/i2"
grep -q "^operating point: default ($TMPDIR/cal2/viterbi_calibration.json)\$" "$TMPDIR/i2"
grep -q '^biases:      background_stay=1.5 background_to_start=-2 inside_to_continue=0 inside_to_end=0 end_to_background=0.25 end_to_start=0$' "$TMPDIR/i2"
# no -m: the built-in model, with its size and sha256: models/default
# itself (DEFAULT_MODEL_QUANT=none) or, by default, exactly what
# `quantize --type int8 --attn` makes of it (without --attn when the
# attention projections stayed F16: DEFAULT_MODEL_QUANT_ARGS=;
# mk/default_model.mk)
"$PII_REDACT" info > "$TMPDIR/b"
grep -q '^model: *built-in (compiled into this binary)$' "$TMPDIR/b"
src=models/default/model.safetensors
if grep -q '^experts in: *Q8_ROW$' "$TMPDIR/b"; then
    attn=
    grep -q '^dtypes: .* I8 (' "$TMPDIR/b" && attn=--attn
    "$PII_REDACT" quantize -m models/default -o "$TMPDIR/q8" --type int8 $attn
    src=$TMPDIR/q8/model.safetensors
else
    grep -q '^experts in: *F16$' "$TMPDIR/b"
fi
sum=$(sha256sum "$src" | cut -d' ' -f1)
grep -q "^sha256: *$sum (model.safetensors)\$" "$TMPDIR/b"
size=$(wc -c < "$src")
grep -q "^size: *$size bytes (model.safetensors)" "$TMPDIR/b"
grep -q '^training: ' "$TMPDIR/b"
grep -q '^labels: *33: O B-account_number' "$TMPDIR/b"
grep -q '^operating point: default ' "$TMPDIR/b"
