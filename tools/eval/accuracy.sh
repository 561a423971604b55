#!/bin/sh
# accuracy.sh — regenerates the measured tables of docs/ACCURACY.md:
# the default model, model+rules and rules-only on each eval file.
#
#   tools/eval/accuracy.sh [EVAL_DIR] > docs/ACCURACY.tables.md
#
# EVAL_DIR defaults to ../shared/eval (relative to the repository root).
# PII_REDACT (default ./pii-redact) and PII_EVAL_ARGS (e.g. "-m PATH") are
# passed through.
set -e
dir=${1:-../shared/eval}
bin=${PII_REDACT:-./pii-redact}
[ -x "$bin" ] || { echo "accuracy.sh: build $bin first (make)" >&2; exit 2; }
for f in "$dir"/*.jsonl; do
    [ -e "$f" ] || { echo "accuracy.sh: no .jsonl in $dir" >&2; exit 2; }
    printf '### %s\n\n' "$(basename "$f")"
    for mode in --model-only "" --rules-only; do
        # shellcheck disable=SC2086
        printf '`pii-redact eval %s%s%s`\n\n' "${PII_EVAL_ARGS:+$PII_EVAL_ARGS }" "${mode:+$mode }" "$(basename "$f")"
        # shellcheck disable=SC2086
        "$bin" eval $PII_EVAL_ARGS $mode --format md "$f"
        printf '\n'
    done
done
