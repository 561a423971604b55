#!/bin/sh
# bench and quantize on small random models generated here:
#  - `bench --json` prints every key of issue 8 (throughput and latency);
#    the fixtures have the o200k vocabulary: bench runs the engine, which
#    refuses token ids outside a model's vocabulary;
#  - `quantize --type int8|int4` writes a model that loads (info) and runs;
#  - fidelity gates on samples/sentences.txt (first 1000 sentences) against
#    the bf16 original, one layer, 5 labels (docs/PERFORMANCE.md
#    "Quantization" explains the fixture and the int4 bound):
#      int8 (int16 activations): every token's logits cosine >= 0.999 and
#        identical Viterbi spans on >= 99% of sentences; the int8-activation
#        mode >= 0.99 / 90%; int16+8 >= 0.99999 / 99%;
#      int4 (experts): cosine >= 0.99 for every token, spans on >= 90%;
#  - the scalar path (PII_ISA=scalar) gives the same fidelity as the best;
#  - the redaction command's --act selects the activation mode;
#  - on the trained default model, the issue's gates: int8 identical spans
#    >= 99%, int4 >= 97% (whole corpus).
set -eu
d="$TMPDIR"
"$PII_REDACT" mkmodel -o "$d/m" --layers 1 --d-model 128 --heads 4 --kv-heads 2 --head-dim 32 \
    --experts 16 --top-k 4 --vocab 200064 --labels 5 --seed 5 > /dev/null
"$PII_REDACT" bench -m "$d/m" --json --seconds 0.2 --limit 200 --threads 2 > "$d/b.json"
for k in sentences_per_s tokens_per_s gflops p50_ms p90_ms p99_ms load_s peak_rss_mb threads \
         isa weights_dtype peak_gflops peak_gops pct_of_peak peak_gflops_after \
         peak_gops_after cpu_share contended; do
    grep -q "\"$k\":" "$d/b.json" || { echo "missing key $k"; cat "$d/b.json"; exit 1; }
done
grep -q '"weights_dtype":"bf16"' "$d/b.json"
grep -Eq '"contended":(true|false)' "$d/b.json"
grep -Eq '"peak_gflops_after":[0-9]' "$d/b.json"
"$PII_REDACT" bench -m "$d/m" --json --seconds 0.2 --limit 50 --mode latency --no-peak \
    --threads 1 > "$d/l.json"
grep -q '"p50_ms":[0-9]' "$d/l.json"
grep -q '"mode":"latency"' "$d/l.json"
"$PII_REDACT" bench -m "$d/m" --seconds 0.1 --length 64 --no-peak > "$d/t.txt"
grep -q 'tokens/s' "$d/t.txt"
"$PII_REDACT" bench --help | grep -q -- '--compare'

"$PII_REDACT" quantize -m "$d/m" -o "$d/q8" --type int8
"$PII_REDACT" quantize -m "$d/m" -o "$d/q4" --type int4
"$PII_REDACT" quantize -m "$d/m" -o "$d/q4a" --type int4 --attn
"$PII_REDACT" info -m "$d/q8" | grep -q '^experts in: *Q8_ROW'
"$PII_REDACT" info -m "$d/q4a" --tensors | grep -q 'self_attn.q_proj.q4 *U8'
"$PII_REDACT" bench -m "$d/q4a" --compare "$d/m" --limit 100 --min-cos 0.9 --json
"$PII_REDACT" bench -m "$d/q8" --json --seconds 0.1 --limit 100 --no-peak | grep -q '"weights_dtype":"int8"'

"$PII_REDACT" bench -m "$d/q8" --compare "$d/m" --limit 1000 --min-cos 0.999 --min-spans 99 --json
"$PII_REDACT" bench -m "$d/q8" --compare "$d/m" --limit 1000 --act int8 --min-cos 0.99 --min-spans 90 --json
# int16+8 (second pass on the rounding residue): the grid weights of mkmodel
# quantize exactly, so the int8 model matches the original to f32 rounding;
# 2 of the 1000 sentences sit on a Viterbi near-tie that f32 rounding flips
# (99.8% identical spans, with the former private decoder as with the engine)
"$PII_REDACT" bench -m "$d/q8" --compare "$d/m" --limit 1000 --act int16+8 --min-cos 0.99999 \
    --min-spans 99 --json > "$d/r8.json"
grep -q '"act":"int16+8"' "$d/r8.json"
if "$PII_REDACT" bench -m "$d/q8" --act int4 --limit 1 2>/dev/null; then exit 1; fi
# the redaction command's --act reaches the kernels: on an o200k-sized
# fixture, int16 and int16+8 give the float model's spans (grid weights),
# int8 activations change some; a bad mode is a usage error
"$PII_REDACT" mkmodel -o "$d/v" --layers 1 --d-model 128 --heads 4 --kv-heads 2 --head-dim 32 \
    --experts 16 --top-k 4 --vocab 200064 --labels 33 --seed 5 > /dev/null
"$PII_REDACT" quantize -m "$d/v" -o "$d/v8" --type int8
head -n 300 samples/sentences.txt > "$d/s.txt"
spans() { sed 's/,"score":[^}]*//' "$1"; }
"$PII_REDACT" -m "$d/v" --model-only --lines --format jsonl "$d/s.txt" > "$d/r.f32"
for a in int16 int16+8 int8; do
    "$PII_REDACT" -m "$d/v8" --act "$a" --model-only --lines --format jsonl "$d/s.txt" > "$d/r.$a"
done
test "$(wc -l < "$d/r.f32")" -gt 1000
spans "$d/r.f32" > "$d/k.f32"
spans "$d/r.int16" | cmp -s - "$d/k.f32"
spans "$d/r.int16+8" | cmp -s - "$d/k.f32"
if spans "$d/r.int8" | cmp -s - "$d/k.f32"; then echo "--act int8 had no effect"; exit 1; fi
set +e
echo x | "$PII_REDACT" --act int9 > /dev/null 2> "$d/err"
rc=$?
set -e
test "$rc" = 2 && grep -q "unknown activation mode 'int9'" "$d/err"
"$PII_REDACT" bench -m "$d/q4" --compare "$d/m" --limit 1000 --min-cos 0.99 --min-spans 90 --json
PII_ISA=scalar "$PII_REDACT" bench -m "$d/q8" --compare "$d/m" --limit 200 --min-cos 0.999 --min-spans 99 --json
# The issue's span gates on a trained model: the default model (models/default),
# whole corpus.  Per-token floors are the measured worst tokens less a margin
# (docs/PERFORMANCE.md "Default model": 0.962 int8, 0.894 int4).
if [ -f models/default/model.safetensors ]; then
    "$PII_REDACT" quantize -m models/default -o "$d/d8" --type int8
    "$PII_REDACT" quantize -m models/default -o "$d/d4" --type int4
    "$PII_REDACT" bench -m "$d/d8" --compare models/default --min-cos 0.95 --min-spans 99 --json
    "$PII_REDACT" bench -m "$d/d4" --compare models/default --min-cos 0.85 --min-spans 97 --json
    # the built-in model's form (q, k and v int8 too) runs the int16
    # attention (by default where the CPU has VNNI): as close to the float
    # model as with the float attention (measured: cos_min 0.982616 against
    # 0.982617, spans 100% both)
    "$PII_REDACT" quantize -m models/default -o "$d/d8a" --type int8 --attn
    "$PII_REDACT" info -m "$d/d8a" | grep -Eq '^attention in: (int16|f32)'
    for a in int16 f32; do
        "$PII_REDACT" bench -m "$d/d8a" --attn "$a" --compare models/default --min-cos 0.95 \
            --min-spans 99 --json > "$d/a.$a"
        grep -q "\"attn\":\"$a\"" "$d/a.$a"
        "$PII_REDACT" bench -m "$d/d8a" --attn "$a" --json --seconds 0.1 --limit 50 --no-peak \
            | grep -q "\"attn\":\"$a\""
    done
    # --attn reaches the kernels (the two arithmetics give different
    # logits), and the int16 logits do not depend on the threads
    "$PII_REDACT" logits -m "$d/d8a" --attn int16 -t 1 < samples/chat.txt > "$d/l.1"
    "$PII_REDACT" logits -m "$d/d8a" --attn int16 -t 2 < samples/chat.txt > "$d/l.2"
    "$PII_REDACT" logits -m "$d/d8a" --attn f32 < samples/chat.txt > "$d/l.f32"
    cmp "$d/l.1" "$d/l.2"
    if cmp -s "$d/l.1" "$d/l.f32"; then echo "--attn f32 had no effect"; exit 1; fi
fi
set +e
echo x | "$PII_REDACT" --attn f16 > /dev/null 2> "$d/err"
rc=$?
set -e
test "$rc" = 2 && grep -q "unknown attention mode 'f16'" "$d/err"
# a model against itself: every token at cosine 1, every span list identical
"$PII_REDACT" bench -m "$d/m" --compare "$d/m" --limit 200 --json > "$d/self.json"
grep -q '"cos_min":1,' "$d/self.json"
grep -q '"tokens_cos_ge_0999_pct":100,"tokens_cos_ge_099_pct":100,"spans_identical_pct":100,' "$d/self.json"

# errors: unknown type, missing output, already quantized, bad corpus
if "$PII_REDACT" quantize -m "$d/m" -o "$d/x" --type int3 2>/dev/null; then exit 1; fi
if "$PII_REDACT" quantize -m "$d/q8" -o "$d/x" --type int8 2>/dev/null; then exit 1; fi
if "$PII_REDACT" bench -m "$d/m" --corpus "$d/nope" 2>/dev/null; then exit 1; fi
exit 0
