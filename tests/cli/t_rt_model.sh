#!/bin/sh
# mkmodel / info / logits on a tiny random model: the HF layout and GGUF
# load, info reports the configuration, logits prints one JSON line per
# token with C finite logits, and the scalar path (PII_ISA=scalar) gives the
# same expert choices.
set -eu
d="$TMPDIR/m"
"$PII_REDACT" mkmodel -o "$d" --layers 2 --d-model 64 --heads 4 --kv-heads 2 --head-dim 16 \
    --experts 8 --top-k 2 --vocab 300 --seed 3
test -s "$d/config.json" && test -s "$d/model.safetensors"
"$PII_REDACT" info -m "$d" > "$TMPDIR/info"
grep -q '^layers: *2$' "$TMPDIR/info"
grep -q '^experts: *8, top-2' "$TMPDIR/info"
grep -q '^labels: *33:' "$TMPDIR/info"
printf '1 2 3 299 17\n' | "$PII_REDACT" logits -m "$d" --ids --experts > "$TMPDIR/l1"
test "$(wc -l < "$TMPDIR/l1")" -eq 5
# 33 numbers per logits array, all finite
awk -F'"logits":\\[' '{ split($2, a, "]"); n = split(a[1], v, ","); if (n != 33) exit 1;
     for (i = 1; i <= n; i++) if (v[i] !~ /^-?[0-9.e+-]+$/) exit 1 }' "$TMPDIR/l1"
printf '1 2 3 299 17\n' | PII_ISA=scalar "$PII_REDACT" logits -m "$d" --ids --experts > "$TMPDIR/l2"
sed 's/.*"experts"//' "$TMPDIR/l1" > "$TMPDIR/e1"
sed 's/.*"experts"//' "$TMPDIR/l2" > "$TMPDIR/e2"
cmp "$TMPDIR/e1" "$TMPDIR/e2"
# the same model as GGUF (Q8_0 experts) loads and agrees on the experts
"$PII_REDACT" mkmodel -o "$TMPDIR/m.gguf" --gguf q8_0 --layers 2 --d-model 64 --heads 4 \
    --kv-heads 2 --head-dim 16 --experts 8 --top-k 2 --vocab 300 --seed 3
"$PII_REDACT" info -m "$TMPDIR/m.gguf" | grep -q '^format: *GGUF'
printf '1 2 3 299 17\n' | PII_GGUF_Q8_0=exact "$PII_REDACT" logits -m "$TMPDIR/m.gguf" --ids \
    --experts | sed 's/.*"experts"//' > "$TMPDIR/e3"
cmp "$TMPDIR/e1" "$TMPDIR/e3"
# by default its Q8_0 experts are repacked to int8 at load: the very logits of
# the safetensors model quantized with `quantize --type int8` (same values,
# same per-row rounding, same kernels)
"$PII_REDACT" quantize -m "$d" -o "$TMPDIR/q8" --type int8 2>/dev/null
printf '1 2 3 299 17\n' | "$PII_REDACT" logits -m "$TMPDIR/q8" --ids --experts > "$TMPDIR/l4"
printf '1 2 3 299 17\n' | "$PII_REDACT" logits -m "$TMPDIR/m.gguf" --ids --experts > "$TMPDIR/l5"
cmp "$TMPDIR/l4" "$TMPDIR/l5"
"$PII_REDACT" info -m "$TMPDIR/m.gguf" | grep -q 'Q8_ROW\|int8'
# errors: id out of range, bad model path, truncated file (message names it)
if printf '300\n' | "$PII_REDACT" logits -m "$d" --ids 2>/dev/null; then exit 1; fi
if "$PII_REDACT" info -m "$TMPDIR/nope" 2>/dev/null; then exit 1; fi
head -c 1000 "$d/model.safetensors" > "$TMPDIR/t.safetensors"
cp "$d/config.json" "$TMPDIR/config.json"
set +e
"$PII_REDACT" info -m "$TMPDIR/t.safetensors" 2> "$TMPDIR/err"
rc=$?
set -e
test "$rc" -eq 4
grep -q 't.safetensors' "$TMPDIR/err"
"$PII_REDACT" mkmodel --help | grep -q -- '--gguf'
# text input: the built-in tokenizer, byte offsets tiling the input
"$PII_REDACT" mkmodel -o "$TMPDIR/v" --layers 1 --d-model 32 --heads 2 --kv-heads 1 \
    --head-dim 16 --experts 4 --top-k 2 --labels 5
printf 'My name is Alice Smith' | "$PII_REDACT" logits -m "$TMPDIR/v" > "$TMPDIR/t"
test "$(wc -l < "$TMPDIR/t")" -eq 5
head -n 1 "$TMPDIR/t" | grep -q '^{"i":0,"id":5444,"start":0,"end":2,"logits":\['
tail -n 1 "$TMPDIR/t" | grep -q '"id":16627,"start":16,"end":22,'
