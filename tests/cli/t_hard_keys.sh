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
PII_REDACT_KEY=other-key-0123456789abcdef "$P" --rules-only --operator hash <"$T/in" >"$T/h3"
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

# Issue 18 M3 and Low: at least 16 bytes (a warning below 32), at most
# 4096 from a file or the environment (never truncated), a FIFO refused.
k15=0123456789abcde; k16=0123456789abcdef; k32=0123456789abcdef0123456789abcdef
for k in "$k15" "$k16" "$k32"; do
    printf '%s\n' "$k" >"$T/k"; chmod 600 "$T/k"
    "$P" --rules-only --operator hash --key-file "$T/k" <"$T/in" >"$T/out" 2>"$T/err"; rc=$?
    PII_REDACT_KEY=$k "$P" --rules-only --operator hash <"$T/in" >"$T/out2" 2>"$T/err2"; rc2=$?
    [ $rc -eq $rc2 ] || fail "key ${#k}: file $rc, env $rc2"
    case ${#k} in
    15) [ $rc -eq 2 ] && grep -q 'at least 16 random bytes' "$T/err" || fail "15-byte key: exit $rc"
        [ ! -s "$T/out" ] || fail "15-byte key: output" ;;
    16) [ $rc -eq 0 ] && grep -q 'warning: .*use 32 or more' "$T/err" || fail "16-byte key: $rc" ;;
    32) [ $rc -eq 0 ] && [ ! -s "$T/err" ] || fail "32-byte key: exit $rc, $(cat "$T/err")" ;;
    esac
    grep -q "$k" "$T/err" "$T/err2" && fail "key ${#k} echoed"
done
head -c 4096 /dev/zero | tr '\0' 'K' >"$T/k4096"; chmod 600 "$T/k4096"
"$P" --rules-only --operator hash --key-file "$T/k4096" <"$T/in" >/dev/null 2>"$T/err"; rc=$?
[ $rc -eq 0 ] || fail "4096-byte key file: exit $rc"
printf '\n' >>"$T/k4096"
"$P" --rules-only --operator hash --key-file "$T/k4096" <"$T/in" >/dev/null 2>"$T/err"; rc=$?
[ $rc -eq 0 ] || fail "4096-byte key file with a newline: exit $rc"
head -c 4097 /dev/zero | tr '\0' 'K' >"$T/k4097"; chmod 600 "$T/k4097"
"$P" --rules-only --operator hash --key-file "$T/k4097" <"$T/in" >/dev/null 2>"$T/err"; rc=$?
[ $rc -eq 2 ] || fail "4097-byte key file: exit $rc"
PII_REDACT_KEY=$(cat "$T/k4097") "$P" --rules-only --operator hash <"$T/in" >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 2 ] && [ ! -s "$T/out" ] || fail "4097-byte environment key: exit $rc (truncated?)"
grep -q 'longer than 4096' "$T/err" || fail "4097-byte environment key: message"
mkfifo "$T/kfifo"; chmod 600 "$T/kfifo"
timeout 20 "$P" --rules-only --operator hash --key-file "$T/kfifo" <"$T/in" >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 2 ] || fail "FIFO key file: exit $rc (124: it hung)"
grep -q 'must be a regular file' "$T/err" || fail "FIFO key file: message"
set -e
echo ok
