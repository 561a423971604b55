# Issue 2 acceptance examples on the rule tier.
set -e
P=$PII_REDACT
fail() { echo "FAIL: $*"; exit 1; }
out=$(printf 'Mail bob.smith@example.com or call +1 415-555-0100 today.\n' | $P --rules-only)
[ "$out" = "Mail <PRIVATE_EMAIL> or call <PRIVATE_PHONE> today." ] || fail "email/phone: $out"

out=$(printf 'card 4111 1111 1111 1111 and 4111 1111 1111 1112\n' | $P --rules-only)
[ "$out" = "card <ACCOUNT_NUMBER> and 4111 1111 1111 1112" ] || fail "luhn: $out"

out=$(printf 'x bob@example.com y' | $P --rules-only --format json)
echo "$out" | grep -q '"spans":\[{"label":"private_email","start":2,"end":17,"source":"rule"' ||
    fail "json: $out"
[ "$(echo "$out" | grep -o '"label"' | wc -l)" -eq 1 ] || fail "json: more than one span"

# --check: one finding line (no value) on stdout, exit 1 with PII; nothing and 0 without.
set +e
printf 'mail bob@example.com\n' | $P --rules-only --check >"$TMPDIR/o"; rc=$?
[ "$rc" -eq 1 ] && [ "$(cut -d' ' -f1-3 "$TMPDIR/o")" = '-:1:6: private_email (rule)' ] ||
    fail "--check with PII: rc=$rc"
grep -q 'bob@' "$TMPDIR/o" && fail "--check printed the value"
printf 'nothing here\n' | $P --rules-only --check >"$TMPDIR/o"; rc=$?
[ "$rc" -eq 0 ] && [ ! -s "$TMPDIR/o" ] || fail "--check without PII: rc=$rc"
set -e

# Operators.
out=$(printf 'x bob@example.com y' | $P --rules-only --operator mask)
[ "$out" = "x *************** y" ] || fail "mask: $out"
out=$(printf 'x bob@example.com y' | $P --rules-only --operator private_email=remove)
[ "$out" = "x  y" ] || fail "remove: $out"
out=$(printf 'a@example.com b@example.com a@example.com' | $P --rules-only --operator pseudonym)
[ "$out" = "<PRIVATE_EMAIL_1> <PRIVATE_EMAIL_2> <PRIVATE_EMAIL_1>" ] || fail "pseudonym: $out"
out=$(printf 'x bob@example.com y' | PII_REDACT_KEY=k-0123456789abcdef-0123456789abcdef $P --rules-only --operator hash:8)
echo "$out" | grep -Eq '^x [0-9a-f]{8} y$' || fail "hash: $out"
out=$(printf 'x bob@example.com y' | $P --rules-only --operator 'placeholder:[{label}]')
[ "$out" = "x [private_email] y" ] || fail "template: $out"

# jsonl, offsets in code points, values only on request.
out=$(printf '\303\251\303\251 bob@example.com' | $P --rules-only --format jsonl --offsets codepoint)
echo "$out" | grep -q '"start":3,"end":18' || fail "codepoint offsets: $out"
echo "$out" | grep -q 'bob@' && fail "value printed without --show-values"
out=$(printf 'x bob@example.com' | $P --rules-only --format jsonl --show-values)
echo "$out" | grep -q '"text":"bob@example.com"' || fail "--show-values: $out"

# Label selection.
out=$(printf 'bob@example.com +1 415-555-0100' | $P --rules-only --labels private_phone)
[ "$out" = "bob@example.com <PRIVATE_PHONE>" ] || fail "--labels: $out"
out=$(printf 'bob@example.com +1 415-555-0100' | $P --rules-only --exclude-labels private_phone)
[ "$out" = "<PRIVATE_EMAIL> +1 415-555-0100" ] || fail "--exclude-labels: $out"

# Allow and deny lists.
printf 'bob@example.com\n' >"$TMPDIR/allow"
printf 'private_person\tProject Nightingale\n' >"$TMPDIR/deny"
out=$(printf 'bob@example.com ann@example.com Project Nightingale' |
    $P --rules-only --allow "$TMPDIR/allow" --deny "$TMPDIR/deny")
[ "$out" = "bob@example.com <PRIVATE_EMAIL> <PRIVATE_PERSON>" ] || fail "allow/deny: $out"

# --lines flushes per line: the first line comes out while the input is
# still open (polls up to 20 s; no timing assertion).
mkfifo "$TMPDIR/fifo"
$P --rules-only --lines <"$TMPDIR/fifo" >"$TMPDIR/lines" &
pid=$!
exec 3>"$TMPDIR/fifo"
printf 'mail a@example.com\n' >&3
i=0
while [ "$(cat "$TMPDIR/lines")" != "mail <PRIVATE_EMAIL>" ] && [ $i -lt 200 ]; do
    sleep 0.1; i=$((i + 1))
done
[ "$(cat "$TMPDIR/lines")" = "mail <PRIVATE_EMAIL>" ] || fail "--lines did not flush the first line"
printf 'second\n' >&3
exec 3>&-
wait $pid
[ "$(tail -n 1 "$TMPDIR/lines")" = "second" ] || fail "--lines second line"
# No final newline, CRLF, NUL, invalid UTF-8 around a finding.
printf 'a\r\n\0\377\376 bob@example.com \300\r\nend' >"$TMPDIR/odd"
printf 'a\r\n\0\377\376 <PRIVATE_EMAIL> \300\r\nend' >"$TMPDIR/odd.want"
# (a NUL in its first 8000 bytes makes the file binary: --binary redacts it)
$P --rules-only --binary "$TMPDIR/odd" | cmp - "$TMPDIR/odd.want" || fail "odd bytes"
$P --rules-only --lines <"$TMPDIR/odd" | cmp - "$TMPDIR/odd.want" || fail "odd bytes (--lines)"

# Forms and the address rules of 2026-11-28 (docs/RULES.md), through the
# whole command in document mode: a label above its value, US military mail
# over two lines, a Japanese address with its building, a Japanese member
# number, a Swedish street.
printf 'Phone:\n467 3395\nShip to USNS Comfort\nFPO AA 34090\n\351\200\201\344\273\230\345\205\210:\346\235\261\344\272\254\351\203\275\346\235\211\344\270\246\345\214\272\351\253\230\345\206\206\345\257\272\345\215\2274-99-1 \343\202\263\343\203\274\343\203\235202\345\217\267\345\256\244\n\344\274\232\345\223\241\347\225\252\345\217\267:M-882901\nSveav\303\244gen 12\n' >"$TMPDIR/forms"
printf 'Phone:\n<PRIVATE_PHONE>\nShip to <PRIVATE_ADDRESS>\n\351\200\201\344\273\230\345\205\210:<PRIVATE_ADDRESS>\n\344\274\232\345\223\241\347\225\252\345\217\267:<ACCOUNT_NUMBER>\n<PRIVATE_ADDRESS>\n' >"$TMPDIR/forms.want"
$P --rules-only "$TMPDIR/forms" | cmp - "$TMPDIR/forms.want" || fail "forms and addresses: $($P --rules-only "$TMPDIR/forms")"

echo ok
