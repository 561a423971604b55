# Issue 41: structured documents stay structured — a JSON document mode
# (--json: pretty-printed input kept byte-identical outside the redacted
# values) and --structured (JSON Lines / JSON / CSV / TSV chosen by
# extension); a redacted number becomes a string; the output parses.
set -e
P=$PII_REDACT
fail() { echo "FAIL: $*"; exit 1; }
cd "$TMPDIR"
printf '{\n  "user": {\n    "name": "Maria Garcia",\n    "email": "maria@example.com",\n    "card": 4111111111111111,\n    "ssn": "536-22-8172",\n    "tags": ["vip", "+1 415-555-0132"]\n  },\n  "n": 3\n}\n' >doc.json
cat >want.json <<'TXT'
{
  "user": {
    "name": "<PRIVATE_PERSON>",
    "email": "<PRIVATE_EMAIL>",
    "card": "<ACCOUNT_NUMBER>",
    "ssn": "<ACCOUNT_NUMBER>",
    "tags": ["vip", "<PRIVATE_PHONE>"]
  },
  "n": 3
}
TXT
$P --rules-only --json --jsonl-numbers <doc.json >out.json
cmp out.json want.json || fail "--json: $(cat out.json)"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' out.json || fail "--json output does not parse"
# without --jsonl-numbers a number is left as it is
$P --rules-only --json <doc.json | grep -q '"card": 4111111111111111,' || fail "--json numbers"
# a document that does not parse fails; nothing of it is written
set +e
printf '{"a": [1, "bob@example.com"' | $P --rules-only --json >bo 2>e; rc=$?
set -e
[ "$rc" -ne 0 ] && [ ! -s bo ] && grep -q "invalid JSON" e || fail "bad document: rc=$rc $(cat bo e)"
# --structured over a tree: each file by its extension
mkdir t
cp doc.json t/
printf '{"phone":"+1 415-555-0132","order":12,"n":4111111111111111}\nnot json bob@example.com\n' >t/log.jsonl
printf 'id,name,card\n1,"Garcia, Maria",4111111111111111\n' >t/x.csv
printf 'id\tcard\n1\t5555555555554444\n' >t/y.tsv
printf 'card 4111111111111111\n' >t/notes.txt
$P --rules-only --structured -r t --out-dir o -q
cmp o/t/doc.json want.json || fail "structured json: $(cat o/t/doc.json)"
[ "$(cat o/t/log.jsonl)" = '{"phone":"<PRIVATE_PHONE>","order":12,"n":"<ACCOUNT_NUMBER>"}
not json <PRIVATE_EMAIL>' ] || fail "structured jsonl: $(cat o/t/log.jsonl)"
[ "$(cat o/t/x.csv)" = 'id,name,card
1,"<PRIVATE_PERSON>",<ACCOUNT_NUMBER>' ] || fail "structured csv: $(cat o/t/x.csv)"
[ "$(cat o/t/y.tsv)" = "$(printf 'id\tcard\n1\t<ACCOUNT_NUMBER>')" ] || fail "structured tsv: $(cat o/t/y.tsv)"
[ "$(cat o/t/notes.txt)" = 'card <ACCOUNT_NUMBER>' ] || fail "structured text: $(cat o/t/notes.txt)"
python3 - o <<'PY' || fail "structured output does not parse"
import csv, json, sys
d = sys.argv[1]
json.load(open(d + "/t/doc.json"))
json.loads(open(d + "/t/log.jsonl").readline())
rows = list(csv.reader(open(d + "/t/x.csv")))
assert rows[1] == ["1", "<PRIVATE_PERSON>", "<ACCOUNT_NUMBER>"], rows
PY
# the default pipeline keeps the output JSON too
$P --structured -r t --out-dir o2 -q
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' o2/t/doc.json || fail "default: $(cat o2/t/doc.json)"
set +e
$P --structured --jsonl-field a t/log.jsonl >/dev/null 2>&1; rc=$?
set -e
[ "$rc" -eq 2 ] || fail "--structured with --jsonl-field: exit $rc"
exit 0
