# Issue 42 M4: an --allow entry suppresses the value it matches, never a
# different value inside it.  The rule tier's spans never overlap, so an
# allowed URL used to hide the e-mail address and phone number in its
# query; the allowed span is now scanned again for other values.
set -u
P=$PII_REDACT
fail() { echo "FAIL: $*"; exit 1; }
cd "$TMPDIR" || exit 1
printf 're:https://company\\.com/.*\n' >allow.txt
L='Reset: https://company.com/reset?email=maria.garcia@gmail.com&phone=+1-415-555-0100 done, see https://company.com/about'
W='Reset: https://company.com/reset?email=<PRIVATE_EMAIL>&phone=<PRIVATE_PHONE> done, see https://company.com/about'
out=$(printf '%s\n' "$L" | "$P" --rules-only --allow allow.txt) || fail "exit $?"
[ "$out" = "$W" ] || fail "nested values: $out"
out=$(printf '%s\n' "$L" | "$P" --rules-only --allow allow.txt --lines) || fail "--lines exit $?"
[ "$out" = "$W" ] || fail "--lines: $out"
printf '{"m":"%s"}\n' "$L" >r.jsonl
out=$("$P" --rules-only --allow allow.txt --jsonl-field m r.jsonl) || fail "jsonl exit $?"
[ "$out" = "{\"m\":\"$W\"}" ] || fail "jsonl: $out"
# --check reports them, and the allowed URL itself is not a finding
printf '%s\n' "$L" >l.txt
"$P" --rules-only --allow allow.txt --check -q l.txt | cut -d' ' -f1-2 >got
printf 'l.txt:1:40: private_email\nl.txt:1:69: private_phone\n' | cmp -s - got || fail "check: $(cat got)"
# A value allowed inside the allowed span stays; an allowed value is never
# cut into a shorter one of its own kind.
printf 're:https://company\\.com/.*\nre:[a-z.]+@gmail\\.com\n' >allow2.txt
out=$(printf '%s\n' "$L" | "$P" --rules-only --allow allow2.txt)
[ "$out" = 'Reset: https://company.com/reset?email=maria.garcia@gmail.com&phone=<PRIVATE_PHONE> done, see https://company.com/about' ] ||
    fail "allowed inside allowed: $out"
printf 'john.smith@corp.com\nbob@example.com\n+1 415-555-0100\n' >allow3.txt
out=$(echo 'Mail john.smith@corp.com, bob@example.com, alice@example.com; call +1 415-555-0100 or +1 415-555-0199' |
    "$P" --rules-only --allow allow3.txt)
[ "$out" = 'Mail john.smith@corp.com, bob@example.com, <PRIVATE_EMAIL>; call +1 415-555-0100 or <PRIVATE_PHONE>' ] ||
    fail "exact entries: $out"
echo ok
