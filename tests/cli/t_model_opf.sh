#!/bin/sh
# OpenAI opf's native checkpoint (original/config.json, block.N.* tensors,
# fused qkv, sinks in log2 units) loads unconverted and computes exactly the
# model of its HF copy (`mkmodel --layout opf-hf`: sinks x ln 2, zero head
# bias, as transformers' converter writes it): bit-identical logits and
# expert choices, identical spans.  Also: the original/ folder of a download,
# a non-default label list (ner_class_names) and band width, and refusals.
set -eu
A="--layers 2 --d-model 64 --heads 4 --kv-heads 2 --head-dim 16 --experts 8 --top-k 2 --seed 3"
"$PII_REDACT" mkmodel -o "$TMPDIR/opf" --layout opf $A
"$PII_REDACT" mkmodel -o "$TMPDIR/hf" --layout opf-hf $A
grep -q '"num_experts":8' "$TMPDIR/opf/config.json"
grep -q '"experts_per_token":2' "$TMPDIR/opf/config.json"
grep -q '"sliding_window":257' "$TMPDIR/opf/config.json"
"$PII_REDACT" info -m "$TMPDIR/opf" --tensors > "$TMPDIR/info"
grep -q '^layout: *OpenAI opf native$' "$TMPDIR/info"
grep -q '^experts: *8, top-2, intermediate 64$' "$TMPDIR/info"
grep -q '^attention: *bidirectional band |i-j| <= 128' "$TMPDIR/info"
grep -q '^rope: *yarn theta 150000 factor 32 beta_fast 32 beta_slow 1 original 4096' "$TMPDIR/info"
grep -q '^labels: *33: O B-account_number' "$TMPDIR/info"
grep -q ' block.1.attn.qkv.weight  *BF16  \[128, 64\]$' "$TMPDIR/info"
grep -q ' block.1.mlp.swiglu.weight  *BF16  \[8, 64, 128\]$' "$TMPDIR/info"
grep -q ' unembedding.weight  *BF16  \[33, 64\]$' "$TMPDIR/info"
"$PII_REDACT" info -m "$TMPDIR/hf" | grep -q '^layout: *Hugging Face$'
# bit-identical logits and experts for ids, and for text on every ISA path
ids='1 2 3 199999 17 5 9 100 200 250 70000 4 4 4 123456'
printf '%s\n' "$ids" | "$PII_REDACT" logits -m "$TMPDIR/hf" --ids --experts > "$TMPDIR/l1"
printf '%s\n' "$ids" | "$PII_REDACT" logits -m "$TMPDIR/opf" --ids --experts > "$TMPDIR/l2"
test "$(wc -l < "$TMPDIR/l1")" -eq 15
cmp "$TMPDIR/l1" "$TMPDIR/l2"
text='Call Alice Smith at +1 415 555 0100 or alice@example.com, 12 Main St.'
printf '%s' "$text" | PII_ISA=scalar "$PII_REDACT" logits -m "$TMPDIR/hf" > "$TMPDIR/t1"
printf '%s' "$text" | PII_ISA=scalar "$PII_REDACT" logits -m "$TMPDIR/opf" > "$TMPDIR/t2"
cmp "$TMPDIR/t1" "$TMPDIR/t2"
# spans: the model tier alone, argmax decoding so that the random model
# produces spans, on both layouts
printf '%s\n' "$text" | "$PII_REDACT" -m "$TMPDIR/hf" --model-only --decode argmax \
    --format json > "$TMPDIR/s1"
printf '%s\n' "$text" | "$PII_REDACT" -m "$TMPDIR/opf" --model-only --decode argmax \
    --format json > "$TMPDIR/s2"
grep -q '"label"' "$TMPDIR/s1"
cmp "$TMPDIR/s1" "$TMPDIR/s2"
# opf's download keeps the checkpoint in original/: the top directory loads
mkdir -p "$TMPDIR/repo"
mv "$TMPDIR/opf" "$TMPDIR/repo/original"
printf '%s\n' "$ids" | "$PII_REDACT" logits -m "$TMPDIR/repo" --ids --experts > "$TMPDIR/l3"
cmp "$TMPDIR/l1" "$TMPDIR/l3"
# 5 labels (written as ner_class_names) and a narrower band (sliding_window 9)
B="--layers 1 --d-model 32 --heads 2 --kv-heads 1 --head-dim 16 --experts 4 --top-k 2"
"$PII_REDACT" mkmodel -o "$TMPDIR/o5" --layout opf $B --labels 5 --window 4
"$PII_REDACT" mkmodel -o "$TMPDIR/h5" --layout opf-hf $B --labels 5 --window 4
grep -q '"ner_class_names":\[' "$TMPDIR/o5/config.json"
grep -q '"sliding_window":9' "$TMPDIR/o5/config.json"
"$PII_REDACT" info -m "$TMPDIR/o5" > "$TMPDIR/i5"
grep -q '^labels: *5: O B-category_0 I-category_0 E-category_0 S-category_0$' "$TMPDIR/i5"
grep -q '^attention: *bidirectional band |i-j| <= 4,' "$TMPDIR/i5"
printf 'one two three four five six seven eight nine ten eleven' |
    "$PII_REDACT" logits -m "$TMPDIR/o5" > "$TMPDIR/u1"
printf 'one two three four five six seven eight nine ten eleven' |
    "$PII_REDACT" logits -m "$TMPDIR/h5" > "$TMPDIR/u2"
cmp "$TMPDIR/u1" "$TMPDIR/u2"
# refusals, each naming the key: asymmetric band, causal, interleaved
# gate/up, another encoding, a band that disagrees, a label count that disagrees
refuse() { # $1: sed expression on config.json, $2: expected message part
    rm -rf "$TMPDIR/bad" && cp -r "$TMPDIR/o5" "$TMPDIR/bad"
    sed "$1" "$TMPDIR/o5/config.json" > "$TMPDIR/bad/config.json"
    set +e
    "$PII_REDACT" info -m "$TMPDIR/bad" > /dev/null 2> "$TMPDIR/err"
    rc=$?
    set -e
    test "$rc" -eq 4
    grep -q "$2" "$TMPDIR/err"
}
refuse 's/"bidirectional_right_context":4/"bidirectional_right_context":3/' 'only a symmetric band'
refuse 's/"bidirectional_context":true/"bidirectional_context":false/' 'causal attention'
refuse 's/"param_dtype"/"packed_geglu":true,"param_dtype"/' 'interleaved gate/up'
refuse 's/"o200k_base"/"cl100k_base"/' '"encoding" must be "o200k_base"'
refuse 's/"sliding_window":9/"sliding_window":7/' '"sliding_window" 7 is not left 4 + 1 + right 4'
refuse 's/"num_labels":5/"num_labels":6/' 'num_labels 6 but ner_class_names gives 5 labels'
# a quantized copy is not made from the native layout
if "$PII_REDACT" quantize -m "$TMPDIR/o5" -o "$TMPDIR/q" --type int8 2> "$TMPDIR/err"; then
    exit 1
fi
grep -q "opf's native layout" "$TMPDIR/err"
"$PII_REDACT" mkmodel --help | grep -q -- '--layout L'
