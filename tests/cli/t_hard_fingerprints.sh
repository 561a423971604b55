# Issue 42 M5: --check fingerprints are keyed when a key is given
# (--key-file FILE or $PII_REDACT_KEY): HMAC-SHA256 with the key over
# "pii-redact-fp-v2", path, label and value (NUL-separated), first 16 hex
# digits, so a published fingerprint does not confirm a guessed birth date
# or phone number.  Without a key they stay the unkeyed SHA-256 of
# "pii-redact-fp-v1" and the same fields (documented: never publish them).
set -u
P=$PII_REDACT
fail() { echo "FAIL: $*"; exit 1; }
cd "$TMPDIR" || exit 1
printf 'born 1984-03-07, call +1 415-555-0100\n' >t.txt
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' | head -c 48 >key
chmod 600 key
expect() { # v1|v2, label, value: the fingerprint
    /usr/bin/python3 - "$@" <<'EOS'
import hashlib, hmac, sys
ver, label, value = sys.argv[1:4]
msg = b"pii-redact-fp-" + ver.encode() + b"\0t.txt\0" + label.encode() + b"\0" + value.encode()
if ver == "v1":
    print(hashlib.sha256(msg).hexdigest()[:16])
else:
    print(hmac.new(open("key", "rb").read().rstrip(b"\r\n"), msg, hashlib.sha256).hexdigest()[:16])
EOS
}
"$P" --rules-only --check -q t.txt >plain.txt
[ $? -eq 1 ] || fail "unkeyed: exit"
fp_phone_v1=$(expect v1 private_phone '+1 415-555-0100')
grep -q "private_phone (rule) $fp_phone_v1 \\[phone_context\\]\$" plain.txt || fail "unkeyed fingerprint: $(cat plain.txt) want $fp_phone_v1"
"$P" --rules-only --check -q --key-file key t.txt >keyed.txt
[ $? -eq 1 ] || fail "keyed: exit"
fp_phone_v2=$(expect v2 private_phone '+1 415-555-0100')
grep -q "private_phone (rule) $fp_phone_v2 \\[phone_context\\]\$" keyed.txt || fail "keyed fingerprint: $(cat keyed.txt) want $fp_phone_v2"
[ "$fp_phone_v1" != "$fp_phone_v2" ] || fail "keyed = unkeyed"
PII_REDACT_KEY=$(cat key) "$P" --rules-only --check -q t.txt >env.txt
cmp -s env.txt keyed.txt || fail "the environment key differs from the key file"
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >key2 && chmod 600 key2
"$P" --rules-only --check -q --key-file key2 t.txt >keyed2.txt
cmp -s keyed.txt keyed2.txt && fail "another key gave the same fingerprints"
# SARIF, json and csv carry the keyed ones; the key is never printed
for f in sarif json csv; do
    "$P" --rules-only --check -q --key-file key --report-format $f t.txt >r.$f
    grep -q "$fp_phone_v2" r.$f || fail "$f: keyed fingerprint missing"
    grep -q "$fp_phone_v1" r.$f && fail "$f: unkeyed fingerprint"
    grep -qF "$(cat key)" r.$f && fail "$f: the key printed"
done
# A baseline written with the key accepts with the key, not without it
"$P" --rules-only --check -q --key-file key --baseline b.txt --write-baseline t.txt || fail "write"
grep -qF "$(cat key)" b.txt && fail "the key in the baseline"
"$P" --rules-only --check -q --key-file key --baseline b.txt t.txt >out || fail "keyed baseline: $(cat out)"
"$P" --rules-only --check -q --baseline b.txt t.txt >out
[ $? -eq 1 ] || fail "keyed baseline accepted without the key"
# a key readable by others is refused, as for --operator hash
chmod 644 key
"$P" --rules-only --check -q --key-file key t.txt >out 2>err
[ $? -eq 2 ] || fail "open key file accepted"
echo ok
