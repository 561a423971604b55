#!/bin/sh
# Runs libFuzzer targets one after another (one process, one core each).
#   tests/fuzz/run.sh BUILD_DIR SECONDS TARGET...
# Target binaries are BUILD_DIR/fuzz/fuzz_<target>; each starts from its
# committed corpus tests/fuzz/<target>/ (read-only) plus the working corpus
# BUILD_DIR/corpus/<target>/ (new inputs land there).  Extra libFuzzer
# flags come from a "FUZZ_ARGS:" line in tests/fuzz/fuzz_<target>.c and a
# dictionary from tests/fuzz/<target>.dict when present.  Prints one line
# per target and appends it to BUILD_DIR/summary.txt.
b=$1; secs=$2; shift 2
mkdir -p "$b/corpus" "$b/artifacts" "$b/logs"
fail=0
for t in "$@"; do
    bin=$b/fuzz/fuzz_$t
    args=$(sed -n 's/^ \* FUZZ_ARGS: //p' "tests/fuzz/fuzz_$t.c")
    dict=
    [ -f "tests/fuzz/$t.dict" ] && dict="-dict=tests/fuzz/$t.dict"
    mkdir -p "$b/corpus/$t" "tests/fuzz/$t"
    log=$b/logs/$t.log
    # -timeout: one input may take at most 20 s; -rss_limit_mb: 2 GB.
    "$bin" -max_total_time="$secs" -print_final_stats=1 -timeout=20 -rss_limit_mb=2048 \
        -artifact_prefix="$b/artifacts/$t-" $dict $args "$b/corpus/$t" "tests/fuzz/$t" >"$log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
    ft=$(grep -o 'ft: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
    corp=$(grep -o 'corp: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
    status=ok
    [ "$rc" -eq 0 ] || status="FAILED (rc $rc, see $log)"
    line=$(printf '%-12s %5ss  execs %-10s cov %-6s ft %-6s corpus %-5s %s' \
        "$t" "$secs" "${execs:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$status")
    echo "$line"
    echo "$(date -u +%Y-%m-%dT%H:%MZ) $(git rev-parse --short HEAD 2>/dev/null) $line" >>"$b/summary.txt"
    if [ "$rc" -ne 0 ]; then
        fail=1
        tail -n 60 "$log" | sed 's/^/  | /'
    fi
done
exit $fail
