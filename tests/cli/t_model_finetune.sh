#!/bin/sh
# Fine-tune variants: label names with "_" (B_private_person) as well as
# "-", both viterbi_calibration.json schemas ({"operating_points":
# {NAME: {"biases"}}} and {"operating_point": {"transition_biases"}}), unknown
# calibration keys (a warning, not an error), --no-calibration, and label
# counts other than 33.
set -eu
A="--layers 2 --d-model 64 --heads 4 --kv-heads 2 --head-dim 16 --experts 8 --top-k 2 --seed 5"
"$PII_REDACT" mkmodel -o "$TMPDIR/dash" $A
cp -r "$TMPDIR/dash" "$TMPDIR/under"
sed 's/"\([BIES]\)-\([a-z_]*\)"/"\1_\2"/g' "$TMPDIR/dash/config.json" > "$TMPDIR/under/config.json"
grep -q '"17":"B_private_person"\|"17": *"B_private_person"' "$TMPDIR/under/config.json"
if grep -q '"[BIES]-' "$TMPDIR/under/config.json"; then exit 1; fi
"$PII_REDACT" info -m "$TMPDIR/under" | grep -q '^labels: *33: O B_account_number I_account_number'
text='Mail Alice Smith at alice@example.com or call +1 415 555 0100 about 12 Main St.'
run() { printf '%s\n' "$text" | "$PII_REDACT" --model-only --format json "$@"; }
run -m "$TMPDIR/dash" > "$TMPDIR/o_dash"
run -m "$TMPDIR/under" > "$TMPDIR/o_under"
grep -q '"label"' "$TMPDIR/o_dash"
cmp "$TMPDIR/o_dash" "$TMPDIR/o_under"
# calibration: the same biases in both schemas (full and short key names)
# give the same spans as --bias on an uncalibrated run, and not those of
# all-zero biases
mk() { rm -rf "$TMPDIR/$1" && cp -r "$TMPDIR/under" "$TMPDIR/$1" && cat > "$TMPDIR/$1/viterbi_calibration.json"; }
mk c1 <<'J'
{"operating_points": {"default": {"biases": {
  "transition_bias_background_stay": 3.0, "transition_bias_background_to_start": -1.5,
  "transition_bias_inside_to_continue": 0.5, "transition_bias_inside_to_end": 0.0,
  "transition_bias_end_to_background": 0.25, "transition_bias_end_to_start": -0.75}}}}
J
mk c2 <<'J'
{"operating_point": {"transition_biases": {
  "background_stay": 3.0, "background_to_start": -1.5, "inside_to_continue": 0.5,
  "inside_to_end": 0.0, "end_to_background": 0.25, "end_to_start": -0.75}}}
J
run -m "$TMPDIR/c1" > "$TMPDIR/o1" 2> "$TMPDIR/e1"
run -m "$TMPDIR/c2" > "$TMPDIR/o2" 2> "$TMPDIR/e2"
run -m "$TMPDIR/c2" --no-calibration --bias background_stay=3 --bias background_to_start=-1.5 \
    --bias inside_to_continue=0.5 --bias end_to_background=0.25 --bias end_to_start=-0.75 \
    > "$TMPDIR/o3"
run -m "$TMPDIR/c2" --no-calibration > "$TMPDIR/o4"
test ! -s "$TMPDIR/e1"
test ! -s "$TMPDIR/e2"
cmp "$TMPDIR/o1" "$TMPDIR/o2"
cmp "$TMPDIR/o1" "$TMPDIR/o3"
cmp "$TMPDIR/o4" "$TMPDIR/o_under"
if cmp -s "$TMPDIR/o1" "$TMPDIR/o4"; then exit 1; fi
# unknown keys: ignored with one warning naming them (none with -q)
mk c3 <<'J'
{"schema": 2, "operating_point": {"name": "recall", "transition_biases": {
  "background_stay": 3.0, "background_to_start": -1.5, "inside_to_continue": 0.5,
  "inside_to_end": 0.0, "end_to_background": 0.25, "end_to_start": -0.75, "span_floor": 1}}}
J
run -m "$TMPDIR/c3" > "$TMPDIR/o5" 2> "$TMPDIR/e5"
cmp "$TMPDIR/o1" "$TMPDIR/o5"
test "$(wc -l < "$TMPDIR/e5")" -eq 1
grep -q '^pii-redact: warning: .*c3/viterbi_calibration.json: calibration: unknown key "schema" in the document ignored; unknown key "name" in "operating_point" ignored; unknown key "span_floor" in "transition_biases" ignored$' "$TMPDIR/e5"
run -m "$TMPDIR/c3" -q > /dev/null 2> "$TMPDIR/e6"
test ! -s "$TMPDIR/e6"
# a broken calibration file refuses the model (exit 4, the file named);
# --no-calibration runs it with all-zero biases
mk c4 <<'J'
{"operating_points": {"default": {"biases": {"background_stay": "high"}}}}
J
set +e
run -m "$TMPDIR/c4" > /dev/null 2> "$TMPDIR/e7"
rc=$?
set -e
test "$rc" -eq 4
grep -q 'c4/viterbi_calibration.json: calibration: bias "background_stay" is not a finite number' "$TMPDIR/e7"
run -m "$TMPDIR/c4" --no-calibration > "$TMPDIR/o8"
cmp "$TMPDIR/o8" "$TMPDIR/o_under"
# the single-point schema has no named points; both schemas at once are refused
set +e
run -m "$TMPDIR/c2" --operating-point recall > /dev/null 2> "$TMPDIR/e9"
rc=$?
set -e
test "$rc" -eq 4
grep -q 'no operating point "recall" (the file has one, unnamed' "$TMPDIR/e9"
if run --calibration "$TMPDIR/c1/viterbi_calibration.json" --no-calibration -m "$TMPDIR/c1" \
    > /dev/null 2> "$TMPDIR/e10"; then exit 1; fi
grep -q 'cannot be combined' "$TMPDIR/e10"
# top-k, theta and label counts vary in fine-tunes: 5 labels, top-3, theta 10000
"$PII_REDACT" mkmodel -o "$TMPDIR/l5" --layers 1 --d-model 32 --heads 2 --kv-heads 1 \
    --head-dim 16 --experts 6 --top-k 3 --labels 5
sed 's/"rope_theta":150000.0/"rope_theta":10000.0/; s/"\([BIES]\)-category_0"/"\1_category_0"/g' \
    "$TMPDIR/l5/config.json" > "$TMPDIR/l5/c" && mv "$TMPDIR/l5/c" "$TMPDIR/l5/config.json"
"$PII_REDACT" info -m "$TMPDIR/l5" > "$TMPDIR/i5"
grep -q '^labels: *5: O B_category_0 I_category_0 E_category_0 S_category_0$' "$TMPDIR/i5"
grep -q '^rope: *yarn theta 10000 ' "$TMPDIR/i5"
grep -q '^experts: *6, top-3,' "$TMPDIR/i5"
printf 'hello there\n' | "$PII_REDACT" -m "$TMPDIR/l5" --model-only > /dev/null
