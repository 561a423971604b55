# Issue 42 M3: a --jsonl-field selector that names an object (or an array)
# selects every string inside it; it no longer scans nothing while the
# "matched nothing" guard stays quiet.
set -u
P=$PII_REDACT
fail() { echo "FAIL: $*"; exit 1; }
cd "$TMPDIR" || exit 1
printf '%s\n' '{"user":{"email":"maria@example.com"}}' >u.jsonl
out=$("$P" --rules-only --jsonl-field user u.jsonl) || fail "exit $?"
[ "$out" = '{"user":{"email":"<PRIVATE_EMAIL>"}}' ] || fail "object: $out"
printf '%s\n' '{"user":[{"mail":"maria@example.com"},"bob@example.com",7],"note":"carol@example.net"}' >a.jsonl
out=$("$P" --rules-only --jsonl-field user a.jsonl) || fail "exit $?"
[ "$out" = '{"user":[{"mail":"<PRIVATE_EMAIL>"},"<PRIVATE_EMAIL>",7],"note":"carol@example.net"}' ] ||
    fail "array: $out"
"$P" --rules-only --jsonl-field user --check -q u.jsonl >out
[ $? -eq 1 ] || fail "--check: exit"
grep -q '^u.jsonl:1:19: private_email' out || fail "--check: $(cat out)" # the file's own column
# a selector that matches nothing still fails the file
"$P" --rules-only --jsonl-field usr u.jsonl >out 2>err
[ $? -eq 3 ] || fail "typo: exit"
grep -q 'selector "usr" matched no key in 1 record' err || fail "typo: $(cat err)"
echo ok
