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
