# Keys for the hash operator: a key file that group or others can read is
# refused; the key never appears in any output, message or report.
set -e
P=$PII_REDACT
fail() { echo "FAIL: $*"; exit 1; }
T=$TMPDIR
KEY='K3y-zorblax-QUUX-7781-unique'
printf 'Mail bob.smith@example.com or call +1 415-555-0100.\n' >"$T/in"
printf '%s\n' "$KEY" >"$T/key"

no_key() { # $1: file, $2: what
    if grep -F -e "$KEY" -e 'zorblax-QUUX' "$1" >/dev/null; then
        echo "--- $1:"; cat "$1"; fail "key in $2"
    fi
}

# Readable by group or others: refused with a message (exit 2), no output.
for mode in 644 640 604 660 666; do
    chmod $mode "$T/key"
    set +e
    "$P" --rules-only --operator hash --key-file "$T/key" <"$T/in" >"$T/out" 2>"$T/err"; rc=$?
    set -e
    [ $rc -eq 2 ] || fail "key file mode $mode: exit $rc"
    [ ! -s "$T/out" ] || fail "key file mode $mode: output written"
    grep -q 'chmod 600' "$T/err" || fail "key file mode $mode: no advice"
    no_key "$T/err" "refusal message"
done

chmod 600 "$T/key"
"$P" --rules-only --operator hash --key-file "$T/key" <"$T/in" >"$T/h1" 2>"$T/err"
no_key "$T/h1" "hash output"
no_key "$T/err" "stderr"
grep -q '@' "$T/h1" && fail "hash left the e-mail"
# The same key from the environment gives the same digests; a file's
# trailing newline is not part of the key.
PII_REDACT_KEY=$KEY "$P" --rules-only --operator hash <"$T/in" >"$T/h2"
cmp -s "$T/h1" "$T/h2" || fail "env key and file key differ"
PII_REDACT_KEY=other "$P" --rules-only --operator hash <"$T/in" >"$T/h3"
cmp -s "$T/h1" "$T/h3" && fail "another key gives the same digests"

# Every format, every mode, --show-values and a batch report: no key.
for args in "--format json --show-values" "--format jsonl --show-values" "--lines" \
    "--operator private_email=hash:64 --operator pseudonym" "--check"; do
    set +e
    "$P" --rules-only --operator hash --key-file "$T/key" $args <"$T/in" >"$T/out" 2>"$T/err"
    set -e
    no_key "$T/out" "output ($args)"
    no_key "$T/err" "stderr ($args)"
done
mkdir -p "$T/tree" "$T/o"
cp "$T/in" "$T/tree/a.txt"
"$P" --rules-only --operator hash --key-file "$T/key" -r --out-dir "$T/o" \
    --report "$T/report.json" "$T/tree" >"$T/out" 2>"$T/err"
no_key "$T/report.json" "batch report"
for f in $(find "$T/o" -type f); do no_key "$f" "batch output"; done
# The key in the input itself is redacted like any text, and errors that
# follow a loaded key do not print it.
set +e
PII_REDACT_FAULT=write:1 "$P" --rules-only --operator hash --key-file "$T/key" <"$T/in" >"$T/out" 2>"$T/err"; rc=$?
set -e
[ $rc -eq 3 ] || fail "write fault: exit $rc"
no_key "$T/err" "write error message"

# Empty and oversized key files are refused without echoing them.
: >"$T/empty"; chmod 600 "$T/empty"
set +e
"$P" --rules-only --operator hash --key-file "$T/empty" <"$T/in" >/dev/null 2>"$T/err"; rc=$?
[ $rc -eq 2 ] || fail "empty key: exit $rc"
head -c 5000 /dev/zero | tr '\0' 'Z' >"$T/big"; printf '%s' "$KEY" >>"$T/big"; chmod 600 "$T/big"
"$P" --rules-only --operator hash --key-file "$T/big" <"$T/in" >/dev/null 2>"$T/err"; rc=$?
[ $rc -ne 0 ] || fail "oversized key accepted"
no_key "$T/err" "oversized key message"
grep -q ZZZZ "$T/err" && fail "oversized key echoed"
# hash without any key: a usage error.
env -u PII_REDACT_KEY "$P" --rules-only --operator hash <"$T/in" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || fail "hash without key: exit $rc"
set -e
echo ok
