# Issue 41: -r chooses JSON Lines / JSON / CSV / TSV handling by extension
# by default (--as-text forces text), and fails closed: a *.json file that
# does not parse (tsconfig.json with comments) or a CSV file that CSV mode
# would refuse is redacted as plain text, with a notice naming the file and
# no input text on stderr.  Every structured output parses.
set -e
P=$PII_REDACT
fail() { echo "FAIL: $*"; exit 1; }
cd "$TMPDIR"
mkdir t
printf '{"name":"x","phone":"+1 415-555-0132","card":4111111111111111}\n' >t/log.jsonl
printf '{\n  "email": "maria.garcia@example.com",\n  "n": 4111111111111111\n}\n' >t/good.json
printf '{\n  // the build\n  "compilerOptions": {"author": "maria.garcia@example.com"},\n}\n' >t/tsconfig.json
printf 'id,name,card\n1,"Garcia, Maria",4111111111111111\n' >t/a.csv
printf 'id\tcard\n1\t5555555555554444\n' >t/b.tsv
printf 'id,note\n1,"said "hi" to 4111111111111111\n' >t/bad.csv
printf 'card 4111111111111111\n' >t/notes.txt
$P --rules-only -r t --out-dir o 2>err
[ "$(cat o/t/log.jsonl)" = '{"name":"x","phone":"<PRIVATE_PHONE>","card":"<ACCOUNT_NUMBER>"}' ] ||
    fail "jsonl: $(cat o/t/log.jsonl)"
[ "$(cat o/t/good.json)" = '{
  "email": "<PRIVATE_EMAIL>",
  "n": "<ACCOUNT_NUMBER>"
}' ] || fail "json: $(cat o/t/good.json)"
[ "$(cat o/t/tsconfig.json)" = '{
  // the build
  "compilerOptions": {"author": "<PRIVATE_EMAIL>"},
}' ] || fail "tsconfig.json: $(cat o/t/tsconfig.json)"
[ "$(cat o/t/a.csv)" = 'id,name,card
1,"<PRIVATE_PERSON>",<ACCOUNT_NUMBER>' ] || fail "csv: $(cat o/t/a.csv)"
[ "$(cat o/t/b.tsv)" = "$(printf 'id\tcard\n1\t<ACCOUNT_NUMBER>')" ] || fail "tsv: $(cat o/t/b.tsv)"
[ "$(cat o/t/bad.csv)" = 'id,note
1,"said "hi" to <ACCOUNT_NUMBER>' ] || fail "bad csv: $(cat o/t/bad.csv)"
[ "$(cat o/t/notes.txt)" = 'card <ACCOUNT_NUMBER>' ] || fail "text: $(cat o/t/notes.txt)"
grep -qx 'pii-redact: t/tsconfig.json: not valid JSON; redacted as plain text' err ||
    fail "no notice for tsconfig.json: $(cat err)"
grep -qx 'pii-redact: t/bad.csv: not valid CSV; redacted as plain text' err ||
    fail "no notice for bad.csv: $(cat err)"
[ "$(grep -c 'not valid' err)" -eq 2 ] || fail "notices: $(cat err)"
! grep -q 'maria\|4111\|5555' err || fail "input text on stderr: $(cat err)"
python3 - o/t <<'PY' || fail "structured output does not parse"
import csv, json, sys
d = sys.argv[1]
json.load(open(d + "/good.json"))
for line in open(d + "/log.jsonl"):
    json.loads(line)
assert list(csv.reader(open(d + "/a.csv")))[1] == ["1", "<PRIVATE_PERSON>", "<ACCOUNT_NUMBER>"]
assert list(csv.reader(open(d + "/b.tsv"), delimiter="\t"))[1] == ["1", "<ACCOUNT_NUMBER>"]
PY
# a JSON document over 32 MiB (one record) is redacted as text, not failed
mkdir big
python3 -c 'import json; json.dump({"pad": "x" * (33 << 20), "email": "maria.garcia@example.com"}, open("big/big.json", "w"))'
$P --rules-only -r big --out-dir ob 2>errb
tail -c 40 ob/big/big.json | grep -q '"email": "<PRIVATE_EMAIL>"}$' || fail "big json: $(tail -c 60 ob/big/big.json)"
grep -qx 'pii-redact: big/big.json: a JSON document over 32 MiB; redacted as plain text' errb ||
    fail "big json notice: $(cat errb)"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' ob/big/big.json || fail "big json does not parse"
rm -rf big ob
# -q: no notice
$P --rules-only -r t --out-dir oq -q 2>errq
[ ! -s errq ] || fail "-q: $(cat errq)"
# a named file with -r
$P --rules-only -r t/log.jsonl --out-dir on
[ "$(cat on/t/log.jsonl)" = '{"name":"x","phone":"<PRIVATE_PHONE>","card":"<ACCOUNT_NUMBER>"}' ] ||
    fail "named file: $(cat on/t/log.jsonl)"
# --in-place: the fallback writes redacted text in place
cp -r t ip
$P --rules-only -r ip --in-place -q
cmp ip/tsconfig.json o/t/tsconfig.json || fail "in place: $(cat ip/tsconfig.json)"
cmp ip/good.json o/t/good.json || fail "in place json: $(cat ip/good.json)"
# --as-text: every file as text (the number stays bare)
$P --rules-only -r t --out-dir ot --as-text 2>errt
[ "$(cat ot/t/log.jsonl)" = '{"name":"x","phone":"<PRIVATE_PHONE>","card":<ACCOUNT_NUMBER>}' ] ||
    fail "--as-text: $(cat ot/t/log.jsonl)"
! grep -q "not valid" errt || fail "--as-text notices: $(cat errt)"
# a record option or --lines keeps its own handling; --structured with --as-text is refused
$P --rules-only -r t/log.jsonl --lines --out-dir ol
[ "$(cat ol/t/log.jsonl)" = '{"name":"x","phone":"<PRIVATE_PHONE>","card":<ACCOUNT_NUMBER>}' ] ||
    fail "--lines: $(cat ol/t/log.jsonl)"
set +e
$P -r t --as-text --structured --out-dir ox >/dev/null 2>&1; rc=$?
set -e
[ "$rc" -eq 2 ] || fail "--as-text --structured: exit $rc"
exit 0
