# Issue 41: idempotent output — the tool's own placeholders, pseudonyms,
# masks and hashes are never tagged again: redacting the output again is the
# identity, for every operator, with the rules alone and the default pipeline.
set -e
P=$PII_REDACT
fail() { echo "FAIL: $*"; exit 1; }
export PII_REDACT_KEY=k-0123456789abcdef-0123456789abcdef
cat >"$TMPDIR/in" <<'TXT'
2026-04-23T10:15:02.541Z WARN  login failed for user=jane.doe@acme-corp.com from 203.0.113.42
2026-04-23T10:15:03.002Z DEBUG config loaded: aws_access_key_id=AKIAIOSFODNN7EXAMPLE region=eu-west-1
2026-04-23T10:15:03.877Z INFO  webhook delivered to https://hooks.example.org/u/jdoe?sig=ab12 in 231ms
2026-04-23T10:15:04.310Z ERROR payment declined card=5555 5555 5555 4444 amount=19.99 USD
{"ssn":"536-22-8172","card":"4111111111111111","phone":"+44 20 7946 0958"}
SSN: 123-45-6789, passport number: C01X00T47
export GITHUB_TOKEN=ghp_16C7e42F292c6912E7710c838347Ae178B4a
Maria Garcia <maria.garcia@example.com>, +1 415-555-0132
TXT
for m in --rules-only ""; do
    for op in placeholder mask 'mask:#:4' hash hash:8 pseudonym 'placeholder:[{label}]' \
        'placeholder:{LABEL}' remove; do
        $P $m --operator "$op" "$TMPDIR/in" >"$TMPDIR/r1"
        $P $m --operator "$op" "$TMPDIR/r1" >"$TMPDIR/r2"
        cmp -s "$TMPDIR/in" "$TMPDIR/r1" && fail "${m:-default} $op: nothing redacted"
        cmp -s "$TMPDIR/r1" "$TMPDIR/r2" ||
            fail "${m:-default} $op: a second pass changed $(diff "$TMPDIR/r1" "$TMPDIR/r2" | head -4)"
    done
done
# the issue's reproducer: a placeholder next to a context word
out=$(printf 'ssn <PRIVATE_PHONE>, <PRIVATE_PERSON_2> and <SECRET>\n' | $P)
[ "$out" = 'ssn <PRIVATE_PHONE>, <PRIVATE_PERSON_2> and <SECRET>' ] || fail "placeholders: $out"
# own output is never a finding
printf 'card=<ACCOUNT_NUMBER> token ************ key=e46e42e0bf42b899\n' >"$TMPDIR/own"
$P --check --operator hash "$TMPDIR/own" >"$TMPDIR/o" || fail "--check on own output: $(cat "$TMPDIR/o")"
# own output is found in bounded memory: 34 MB of one word or of one mask run
# (more than the stream's 32 MiB hold) with the hash and mask operators
n=$(head -c 34000000 /dev/zero | tr '\0' a | $P --rules-only --operator hash:8 | wc -c)
[ "$n" -eq 34000000 ] || fail "a long word with hash: $n bytes"
n=$(head -c 34000000 /dev/zero | tr '\0' '*' | $P --rules-only --operator mask | wc -c)
[ "$n" -eq 34000000 ] || fail "a long mask run: $n bytes"
exit 0
