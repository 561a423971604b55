#!/bin/sh
# tools/bench/run.sh — the measurements behind docs/PERFORMANCE.md "## Bench"
# and "## Quantization" (run by `make bench`; see mk/bench.mk).
#
# Environment: PII_REDACT (binary), BENCH_DIR (models and results,
# default build/bench), RUNS (repetitions per figure, default 3), SECS
# (seconds per run, default 10), FID_LIMIT (sentences for the fidelity
# runs, default 0 = all), NICE (prefix, default "nice -n 10"), LENGTHS (sweep),
# PARTS (default "bench sweep fid": which measurements to take again; the
# results of the others are kept, e.g. PARTS=fid after a bench on an idle
# machine, since fidelity does not depend on the load), ONLY (model names,
# e.g. "full-int8r8": bench only those, replacing just their results).
# full-int8r8 is full-int8 run with --act int16+8.
# Writes BENCH_DIR/results.jsonl, sweep.jsonl, fidelity.jsonl, then
# tools/bench/report.py turns them into the tables and the plot.
set -eu
: "${PII_REDACT:=./pii-redact}"
: "${BENCH_DIR:=build/bench}"
: "${RUNS:=3}"
: "${SECS:=10}"
: "${FID_LIMIT:=0}"
: "${NICE:=nice -n 10}"
: "${LENGTHS:=16 64 128 256 512 1024 2048}"
: "${PARTS:=bench sweep fid}"
part() { case " $PARTS " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
B="$NICE $PII_REDACT bench"
res="$BENCH_DIR/results.jsonl"; sweep="$BENCH_DIR/sweep.jsonl"; fid="$BENCH_DIR/fidelity.jsonl"
: "${ONLY:=}"
only() { [ -z "$ONLY" ] || case " $ONLY " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
if part bench; then
    if [ -z "$ONLY" ]; then
        : > "$res"
    else # keep the other models' results
        for n in $ONLY; do
            grep -v "^{\"model_name\":\"$n\"," "$res" > "$res.tmp" || true
            mv "$res.tmp" "$res"
        done
    fi
fi
part sweep && : > "$sweep"
part fid && : > "$fid"

tag() { # name, config, then the JSON line on stdin
    sed "s/^{/{\"model_name\":\"$1\",\"config\":\"$2\",/"
}

models=""
if $PII_REDACT bench --no-peak --seconds 0.1 --limit 20 --json > /dev/null 2>&1; then
    models="default:"
fi
for m in full-bf16 full-int8 full-int4; do
    [ -f "$BENCH_DIR/$m/model.safetensors" ] && models="$models $m:$BENCH_DIR/$m"
done
[ -f "$BENCH_DIR/full-int8/model.safetensors" ] && models="$models full-int8r8:$BENCH_DIR/full-int8"
# LocalAI's layout, Q8_0 experts (repacked to the int8 panels at load)
[ -f "$BENCH_DIR/full-q8_0.gguf" ] && models="$models gguf-q8_0:$BENCH_DIR/full-q8_0.gguf"

part bench && for spec in $models; do
    name=${spec%%:*}; path=${spec#*:}
    only "$name" || continue
    mopt=""; [ -n "$path" ] && mopt="-m $path"
    case "$name" in *r8) mopt="$mopt --act int16+8" ;; esac
    r=0
    while [ "$r" -lt "$RUNS" ]; do
        r=$((r + 1))
        echo "bench: $name run $r/$RUNS" >&2
        $B $mopt --threads 2 --seconds "$SECS" --json | tag "$name" throughput >> "$res"
        $B $mopt --threads 2 --seconds "$SECS" --mode latency --json | tag "$name" latency >> "$res"
        $B $mopt --threads 2 --seconds "$SECS" --mode latency --length 20 --json | tag "$name" lat20 >> "$res"
        $B $mopt --threads 2 --seconds "$SECS" --mode latency --length 512 --json | tag "$name" len512 >> "$res"
    done
done

# tokens/s against input length and threads (one input per pass)
part sweep && for spec in $models; do
    name=${spec%%:*}; path=${spec#*:}
    case "$name" in default|full-bf16|full-int8) ;; *) continue ;; esac
    mopt=""; [ -n "$path" ] && mopt="-m $path"
    for t in 1 2; do
        for len in $LENGTHS; do
            echo "bench: sweep $name threads $t length $len" >&2
            $B $mopt --threads "$t" --seconds "$SECS" --mode latency --length "$len" --no-peak \
                --json | tag "$name" "sweep-t$t" >> "$sweep"
        done
    done
done

# fidelity of the quantized models against the bf16 original
if part fid && [ -f "$BENCH_DIR/full-bf16/model.safetensors" ]; then
    ref="$BENCH_DIR/full-bf16"
    for q in full-int8 full-int4 gguf-q8_0; do
        qp=$BENCH_DIR/$q
        [ "$q" = gguf-q8_0 ] && qp=$BENCH_DIR/full-q8_0.gguf
        [ -f "$qp" ] || [ -f "$qp/model.safetensors" ] || continue
        echo "bench: fidelity $q" >&2
        $B -m "$qp" --compare "$ref" --limit "$FID_LIMIT" --json | tag "$q" fid >> "$fid"
        [ "$q" = full-int8 ] && $B -m "$BENCH_DIR/$q" --compare "$ref" --limit "$FID_LIMIT" \
            --act int8 --json | tag "$q" fid-act8 >> "$fid"
        [ "$q" != full-int4 ] && $B -m "$qp" --compare "$ref" --limit "$FID_LIMIT" \
            --act int16+8 --json | tag "$q" fid-r8 >> "$fid"
    done
    echo "bench: fidelity noise floor (bf16: avx512 against avx2)" >&2
    $B -m "$ref" --compare "$ref" --ref-isa avx2 --limit "$FID_LIMIT" --json \
        | tag full-bf16 fid-floor >> "$fid" || true
fi
/usr/bin/python3 tools/bench/report.py "$BENCH_DIR" docs/PERFORMANCE.md docs
