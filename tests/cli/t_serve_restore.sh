# Reversible pseudonyms from the command: --map-out (plain and sealed),
# --format json's "mapping", and `pii-redact restore` round trips, with the
# placeholders' case and spacing mangled; a wrong key or a changed byte is
# refused.  The same text through the server gets the same placeholders.
set -e
P=$PII_REDACT
fail() { echo "FAIL: $*"; exit 1; }
T=$TMPDIR
printf 'Jane Doe wrote to bob@example.com. Later, Doe called +1 415-555-0100.\n' >"$T/in.txt"

# plain map: the surname shares the full name's placeholder
$P --operator pseudonym --map-out "$T/map.json" "$T/in.txt" >"$T/red.txt" 2>"$T/err"
want='<PRIVATE_PERSON_1> wrote to <PRIVATE_EMAIL_1>. Later, <PRIVATE_PERSON_1> called <PRIVATE_PHONE_1>.'
[ "$(cat "$T/red.txt")" = "$want" ] || fail "redacted: $(cat "$T/red.txt")"
grep -q 'holds the original values in clear' "$T/err" || fail "no warning for a plain map"
[ "$(stat -c %a "$T/map.json")" = 600 ] || fail "map mode $(stat -c %a "$T/map.json")"
python3 - "$T/map.json" <<'PY' || fail "map content"
import json, sys
m = json.load(open(sys.argv[1]))
assert m["version"] == 1
got = [(e["placeholder"], e["label"], e["value"]) for e in m["entries"]]
assert got == [("<PRIVATE_PERSON_1>", "private_person", "Jane Doe"),
               ("<PRIVATE_EMAIL_1>", "private_email", "bob@example.com"),
               ("<PRIVATE_PHONE_1>", "private_phone", "+1 415-555-0100")], got
PY
# an "LLM answer" with mangled placeholders
printf 'Dear < private person 1 >, we wrote to <Private-Email-1> and <PRIVATE_PHONE_2>.\n' >"$T/answer.txt"
got=$($P restore --map "$T/map.json" "$T/answer.txt")
[ "$got" = 'Dear Jane Doe, we wrote to bob@example.com and <PRIVATE_PHONE_2>.' ] || fail "restore: $got"
# the redacted text restores to the original but for the lone surname
got=$($P restore --map "$T/map.json" <"$T/red.txt")
[ "$got" = 'Jane Doe wrote to bob@example.com. Later, Jane Doe called +1 415-555-0100.' ] ||
    fail "round trip: $got"

# --format json carries the mapping
$P --operator pseudonym --map-out "$T/map2.json" --format json --quiet <"$T/in.txt" >"$T/out.json"
python3 - "$T/out.json" "$T/map2.json" <<'PY' || fail "json mapping"
import json, sys
o = json.load(open(sys.argv[1]))
assert o["mapping"] == json.load(open(sys.argv[2])), o.get("mapping")
assert o["redacted_text"].startswith("<PRIVATE_PERSON_1> wrote")
PY

# sealed with a key: the text never appears; the same key opens it
head -c 32 /dev/urandom | od -An -tx1 | tr -d " \n" >"$T/key"; chmod 600 "$T/key"
head -c 32 /dev/urandom | od -An -tx1 | tr -d " \n" >"$T/key2"; chmod 600 "$T/key2"
$P --operator pseudonym --map-out "$T/map.sealed" --key-file "$T/key" "$T/in.txt" >/dev/null 2>"$T/err"
[ ! -s "$T/err" ] || fail "sealed map: stderr $(cat "$T/err")"
[ "$(head -c 8 "$T/map.sealed")" = "PIIMAP1" ] || fail "no magic"
grep -q 'Jane\|bob@' "$T/map.sealed" && fail "the sealed map shows a value"
got=$($P restore --map "$T/map.sealed" --key-file "$T/key" "$T/answer.txt")
[ "$got" = 'Dear Jane Doe, we wrote to bob@example.com and <PRIVATE_PHONE_2>.' ] || fail "sealed restore: $got"
got=$(PII_REDACT_KEY=$(cat "$T/key") $P restore --map "$T/map.sealed" <"$T/answer.txt")
[ "$got" = 'Dear Jane Doe, we wrote to bob@example.com and <PRIVATE_PHONE_2>.' ] || fail "key from the environment: $got"
set +e
$P restore --map "$T/map.sealed" --key-file "$T/key2" <"$T/red.txt" >"$T/out" 2>"$T/err"; rc=$?
[ "$rc" -eq 2 ] && [ ! -s "$T/out" ] || fail "wrong key: exit $rc"
grep -q 'wrong key' "$T/err" || fail "wrong key: no message"
$P restore --map "$T/map.sealed" <"$T/red.txt" >"$T/out" 2>"$T/err"; rc=$?
[ "$rc" -eq 2 ] || fail "sealed map without a key: exit $rc"
python3 - "$T/map.sealed" <<'PY'
import sys
p = sys.argv[1]; b = bytearray(open(p, "rb").read()); b[30] ^= 1; open(p, "wb").write(b)
PY
$P restore --map "$T/map.sealed" --key-file "$T/key" <"$T/red.txt" >"$T/out" 2>"$T/err"; rc=$?
[ "$rc" -eq 2 ] && [ ! -s "$T/out" ] || fail "changed byte: exit $rc"
# usage errors
$P --map-out "$T/m" <"$T/in.txt" >/dev/null 2>"$T/err"; rc=$?
[ "$rc" -eq 2 ] || fail "--map-out without pseudonym: exit $rc"
$P --operator pseudonym --map-out "$T/m" -r "$T" --out-dir "$T/o" >/dev/null 2>"$T/err"; rc=$?
[ "$rc" -eq 2 ] || fail "--map-out in batch mode: exit $rc"
# never replaces what is not a regular file
mkfifo "$T/fifo"; mkdir "$T/dir"; ln -s "$T/in.txt" "$T/link"
for f in fifo dir link; do
    $P --operator pseudonym --map-out "$T/$f" <"$T/in.txt" >/dev/null 2>"$T/err"; rc=$?
    [ "$rc" -eq 2 ] || fail "--map-out $f: exit $rc"
    grep -q 'regular file only' "$T/err" || fail "--map-out $f: no message"
done
[ -p "$T/fifo" ] && [ -d "$T/dir" ] && [ -L "$T/link" ] || fail "--map-out replaced a non-file"
$P restore "$T/in.txt" >/dev/null 2>&1; rc=$?
[ "$rc" -eq 2 ] || fail "restore without --map: exit $rc"
printf '{"version":1}' >"$T/bad.json"
$P restore --map "$T/bad.json" <"$T/in.txt" >/dev/null 2>&1; rc=$?
[ "$rc" -eq 2 ] || fail "restore with a bad map: exit $rc"
set -e

# a label=pseudonym operator with others left alone
got=$($P --operator private_person=pseudonym --map-out "$T/m3" --quiet <"$T/in.txt")
[ "$got" = '<PRIVATE_PERSON_1> wrote to <PRIVATE_EMAIL>. Later, <PRIVATE_PERSON_1> called <PRIVATE_PHONE>.' ] ||
    fail "per-label pseudonym: $got"
echo "restore: ok"
