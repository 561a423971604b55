# The command-line contract: help/man/--version agree, exit codes, errors.
set -e
P=$PII_REDACT
fail() { echo "FAIL: $*"; exit 1; }

# --help and the man page list the same long options.
$P --help | grep -o -- '--[a-z][a-z-]*' | sort -u | grep -v -- '--help$' >"$TMPDIR/help.opts" || true
sed -n 's/.*\\-\\-\([a-z][a-z\\-]*\).*/\1/p' man/pii-redact.1 | sed 's/\\-/-/g' | sed 's/^/--/' | sort -u >"$TMPDIR/man.opts"
for o in $(cat "$TMPDIR/help.opts"); do
    grep -qx -- "$o" "$TMPDIR/man.opts" || fail "option $o is in --help but not in the man page"
done
# every subcommand in --help has a man page entry
$P --help | sed -n '/^Commands:/,/^$/p' | awk 'NR>1 && /^  [a-z]/ {print $1}' | while read -r c; do
    grep -q "^\.B $c\$" man/pii-redact.1 || fail "command $c missing from the man page"
done

# --version agrees with the man page header.
v=$($P --version | awk 'NR == 1 {print $2}')
grep -q "\"pii-redact $v\"" man/pii-redact.1 || fail "version $v not in man page"

# Usage errors exit 2 with a message on stderr and nothing on stdout.
set +e
$P --no-such-option >"$TMPDIR/out" 2>"$TMPDIR/err"; rc=$?
set -e
[ "$rc" -eq 2 ] || fail "unknown option exit $rc"
[ ! -s "$TMPDIR/out" ] || fail "stdout not empty on usage error"
grep -q 'unknown option' "$TMPDIR/err" || fail "no message for unknown option"
set +e
$P --format yaml </dev/null >/dev/null 2>&1; rc=$?
[ "$rc" -eq 2 ] || fail "bad format exit $rc"
$P --operator hash </dev/null >/dev/null 2>"$TMPDIR/err"; rc=$?
[ "$rc" -eq 2 ] || fail "hash without key exit $rc"
grep -q 'key' "$TMPDIR/err" || fail "hash without key: no message"

# A missing input file: message naming it, non-zero exit.
$P "$TMPDIR/does-not-exist" >/dev/null 2>"$TMPDIR/err"; rc=$?
set -e
[ "$rc" -eq 3 ] || fail "missing file exit $rc"
grep -q 'does-not-exist' "$TMPDIR/err" || fail "missing file not named"

# A closed pipe ends quietly.
head -c 2000000 /dev/zero | tr '\0' 'x' | $P --rules-only 2>"$TMPDIR/err" | head -c 10 >/dev/null
[ ! -s "$TMPDIR/err" ] || fail "broken pipe printed to stderr"
echo ok
