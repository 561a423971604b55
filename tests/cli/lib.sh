# tests/cli/lib.sh — shell functions the CLI tests share; a test sources it
# first (. "$(dirname "$0")/lib.sh", before any cd).  Not a test itself
# (tests/cli/run.sh runs t_*.sh only).

# fail MESSAGE: the test fails with MESSAGE.
fail() { echo "FAIL: $*"; exit 1; }

# run WANT COMMAND...: runs COMMAND with its standard output in stdout.txt
# and its standard error in err (in the current folder); the test fails
# unless it exits with status WANT.
run() {
    want=$1; shift
    rc=0
    "$@" >stdout.txt 2>err || rc=$? # also under set -e
    [ $rc -eq "$want" ] || fail "$*: exit $rc, want $want: $(cat err)"
}

# tiny_model DIR [OPTION...]: mkmodel writes a random one-layer model with
# the 33 labels (seed 3) to DIR; the OPTIONs go after the others.
tiny_model() {
    dir=$1; shift
    "$PII_REDACT" mkmodel -o "$dir" --layers 1 --d-model 32 --heads 2 --kv-heads 1 --head-dim 16 \
        --experts 4 --top-k 2 --labels 33 --seed 3 "$@" >/dev/null
}
