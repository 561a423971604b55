# Issue 41: values in machine text (JSON, CSV, key:value, configs) are
# redacted with --rules-only and the default pipeline, and --check flags them.
set -e
P=$PII_REDACT
fail() { echo "FAIL: $*"; exit 1; }
both() { # both INPUT WANT: --rules-only and the default pipeline give WANT
    for m in --rules-only ""; do
        out=$(printf '%s\n' "$1" | $P $m)
        [ "$out" = "$2" ] || fail "${m:-default}: $1 -> $out"
    done
}
# priority 1: cards and accounts delimited by JSON, key:value and CSV punctuation
both '{"order":100001,"number":5421430443244511}' '{"order":100001,"number":<ACCOUNT_NUMBER>}'
both 'card:4111111111111111,25 EUR' 'card:<ACCOUNT_NUMBER>,25 EUR'
out=$(printf '1,Maria Garcia,4111111111111111\n' | $P --rules-only)
[ "$out" = '1,<PRIVATE_PERSON>,<ACCOUNT_NUMBER>' ] || fail "csv rules: $out"
out=$(printf '1,Maria Garcia,4111111111111111\n' | $P)
[ "$out" = '1,<PRIVATE_PERSON>,<ACCOUNT_NUMBER>' ] || fail "csv default: $out"
both '{"account_number":"12345678901"}' '{"account_number":"<ACCOUNT_NUMBER>"}'
both '{"phone":"4155550132"}' '{"phone":"<PRIVATE_PHONE>"}'
both 'phone 415–555–0132' 'phone <PRIVATE_PHONE>'
# a Luhn failure stays
both '{"order":100001,"number":5421430443244512}' '{"order":100001,"number":5421430443244512}'

# priority 2: national identifiers are account_number, never private_phone
both 'SSN: 123-45-6789' 'SSN: <ACCOUNT_NUMBER>'
both '{"ssn":"536-22-8172"}' '{"ssn":"<ACCOUNT_NUMBER>"}'
both 'NI number: AB 12 34 56 C' 'NI number: <ACCOUNT_NUMBER>'
both 'passport number: C01X00T47' 'passport number: <ACCOUNT_NUMBER>'
out=$(printf 'ssn 536-22-8172\n' | $P --format jsonl)
echo "$out" | grep -q '"label":"account_number"' || fail "ssn label: $out"
echo "$out" | grep -q 'private_phone' && fail "ssn as phone: $out"

# priority 6: connection-string and option passwords, logins, "number is"
both 'REDIS_URL=redis://:q7Hx2LpR9s@cache:6379/0' 'REDIS_URL=redis://:<SECRET>@cache:6379/0'
both 'redis-cli --pass Vk93!rTq2#mLp ping' 'redis-cli --pass <SECRET> ping'
both 'user=jdoe uid=dpetrov user=root' 'user=<PRIVATE_PERSON> uid=<PRIVATE_PERSON> user=root'
out=$(printf 'ls /home/dpetrov/.ssh\n' | $P --rules-only)
[ "$out" = 'ls /home/<PRIVATE_PERSON>/.ssh' ] || fail "home: $out"
out=$(printf 'My account number is 00012345678, thanks\n' | $P --rules-only)
[ "$out" = 'My account number is <ACCOUNT_NUMBER>, thanks' ] || fail "number is: $out"

# priority 7: records mode as good as text mode — a field value is read as a
# line of text ("Li Wei" alone in a field, as printf 'Li Wei\n' is)
out=$(printf '{"name":"Li Wei","n":1}\n{"name":"Kofi Asante"}\n' | $P --jsonl-field '*')
[ "$out" = '{"name":"<PRIVATE_PERSON>","n":1}
{"name":"<PRIVATE_PERSON>"}' ] || fail "records: $out"
out=$(printf '{"name":"Li Wei"}\n' | $P --jsonl-field '*' --format jsonl)
echo "$out" | grep -q '"start":0,"end":6' || fail "records span: $out"

# ... and an object member's value after its key ("KEY: VALUE"), so a key
# names what its value is, and an order number alone is no phone
for m in --rules-only ""; do
    out=$(printf '{"phone":"4155550132","password":"hunter2xyz","ssn":"536228172","order":390231}\n' |
        $P $m --jsonl-field '*' --jsonl-numbers)
    [ "$out" = '{"phone":"<PRIVATE_PHONE>","password":"<SECRET>","ssn":"<ACCOUNT_NUMBER>","order":390231}' ] ||
        fail "records keys ${m:-default}: $out"
done

# --check flags a CSV export of cards (exit 1): each card, and a name the
# given-name lexicon knows
printf 'id,name,card\n1,Maria Garcia,4111111111111111\n2,Li Wei,5555555555554444\n' >"$TMPDIR/cards.csv"
set +e
$P --rules-only --check "$TMPDIR/cards.csv" >"$TMPDIR/o"; rc=$?
set -e
[ "$rc" -eq 1 ] || fail "--check rc=$rc"
[ "$(cut -d' ' -f1-3 "$TMPDIR/o")" = "$TMPDIR/cards.csv:2:3: private_person (rule)
$TMPDIR/cards.csv:2:16: account_number (rule)
$TMPDIR/cards.csv:3:10: account_number (rule)" ] || fail "--check: $(cat "$TMPDIR/o")"
exit 0
