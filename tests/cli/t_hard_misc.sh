# Issue 18, M1 and M2 (and the Low items of the command line).
set -e
P=$PII_REDACT
fail() { echo "FAIL: $*"; exit 1; }
cd "$TMPDIR"

# M1: a consumer that closes the pipe early (| head) ends us quietly with
# exit 0 — the documented choice (man page, EXIT STATUS): "| head" is a
# normal use, and nothing unscanned is written either way.
awk 'BEGIN { for (i = 0; i < 200000; i++) print "Mail bob" i "@example.com now." }' >big.txt
{ "$P" --rules-only big.txt 2>err; echo $? >rc; } | head -1 >first
[ "$(cat rc)" -eq 0 ] || fail "| head -1: exit $(cat rc)"
[ ! -s err ] || fail "| head -1: message $(cat err)"
grep -q 'bob0@' first && fail "| head -1: value written"
mkdir -p tree
for i in 1 2 3 4 5 6; do cp big.txt tree/f$i.txt; done
for j in 1 2; do
    { "$P" --rules-only -r -j $j --format jsonl tree 2>err; echo $? >rc; } | head -1 >first
    [ "$(cat rc)" -eq 0 ] || fail "-r jsonl -j $j | head -1: exit $(cat rc)"
    [ "$(wc -l <first)" -eq 1 ] || fail "-r jsonl | head: no line"
done
# A write error that is not a closed pipe is still an error.
set +e
"$P" --rules-only big.txt >/dev/full 2>err
rc=$?
set -e
[ $rc -eq 3 ] || fail "/dev/full: exit $rc"

# M2: --check does not call clean what it did not read.
rm -rf tree && mkdir -p tree/sub
printf 'nothing here\n' >tree/clean.txt
printf 'bin\000ary bob.smith@example.com\n' >tree/sub/bin.dat
set +e
"$P" --rules-only -r --check -q tree >out 2>err
rc=$?
set -e
[ $rc -eq 3 ] || fail "check with a skipped binary: exit $rc, want 3"
grep -q -- '--check: 1 file was not read' err || fail "check: no message with -q"
"$P" --rules-only -r --check -q --binary tree >out 2>err && fail "--binary: exit 0"
[ $? -eq 1 ] || true
set +e
"$P" --rules-only -r --check -q --binary tree >out 2>err
rc=$?
set -e
[ $rc -eq 1 ] || fail "--binary: exit $rc, want 1 (found)"
rm tree/sub/bin.dat
ln -s ../clean.txt tree/sub/link.txt
set +e
"$P" --rules-only -r --check tree >out 2>err
rc=$?
set -e
[ $rc -eq 3 ] || fail "check with a skipped link: exit $rc"
"$P" --rules-only -r --check --exclude link.txt tree >out 2>err || fail "excluded link: exit $?"
# Found something: exit 1 whatever was skipped.
printf 'mail bob.smith@example.com\n' >tree/pii.txt
set +e
"$P" --rules-only -r --check tree >out 2>err
rc=$?
set -e
[ $rc -eq 1 ] || fail "check with findings and a skip: exit $rc"
echo ok
