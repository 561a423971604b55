# Structured records: --jsonl-field changes only the selected values (every
# other byte identical, every line still JSON, escapes kept); --csv-column
# redacts one column with RFC 4180 quoting preserved; a bad record fails its
# file closed while the other files go on.
set -e
P="$PII_REDACT --rules-only"
fail() { echo "FAIL: $*"; exit 1; }
cd "$TMPDIR"
rules=0
[ "$(printf 'a bob@example.com' | $P)" = "a <PRIVATE_EMAIL>" ] && rules=1

# ---- JSON Lines -------------------------------------------------------------
cat >in.ndjson <<'EOF'
{"ts":"2024-01-02T03:04:05Z","level":"info","message":"login by bob.smith@example.com today","user":{"email":"bob.smith@example.com","id":42}}
{"ts":"2024-01-02T03:04:06Z","message":"mail \u0061nn@example.org \"asap\"","n":[1,2.5e3,-0],"ok":true}
  {"message" : "caf\u00e9 ok \/ nothing here" , "x":null}  
{"message":"tab\there dave@example.com!","empty":"","other":"carol@example.net"}

{"other":"erin@example.com","nested":{"message":"frank@example.com"}}
["not an object", "grace@example.com"]
EOF
printf '{"message":"no final newline heidi@example.com"}' >>in.ndjson
cat >want.ndjson <<'EOF'
{"ts":"2024-01-02T03:04:05Z","level":"info","message":"login by <PRIVATE_EMAIL> today","user":{"email":"bob.smith@example.com","id":42}}
{"ts":"2024-01-02T03:04:06Z","message":"mail <PRIVATE_EMAIL> \"asap\"","n":[1,2.5e3,-0],"ok":true}
  {"message" : "caf\u00e9 ok \/ nothing here" , "x":null}  
{"message":"tab\there <PRIVATE_EMAIL>!","empty":"","other":"carol@example.net"}

{"other":"erin@example.com","nested":{"message":"frank@example.com"}}
["not an object", "grace@example.com"]
EOF
printf '{"message":"no final newline <PRIVATE_EMAIL>"}' >>want.ndjson

$P --jsonl-field message in.ndjson >out.ndjson
jq -c . out.ndjson >/dev/null || fail "output is not JSON Lines"
[ "$(wc -l <out.ndjson)" = "$(wc -l <in.ndjson)" ] || fail "line count changed"
# Every byte outside the message values is identical.
strip() { sed -E 's/"message"( *): *"([^"\\]|\\.)*"/"message"\1:/' "$1"; }
strip in.ndjson >in.stripped
strip out.ndjson >out.stripped
cmp in.stripped out.stripped || fail "bytes outside the message values changed"
if [ $rules = 1 ]; then
    cmp out.ndjson want.ndjson || { diff out.ndjson want.ndjson; fail "jsonl-field output"; }
else
    cmp out.ndjson in.ndjson || fail "jsonl-field without rules changed bytes"
fi
# Standard input works the same way; so does a tree with --out-dir.
$P --jsonl-field message <in.ndjson | cmp - out.ndjson || fail "stdin differs"
mkdir -p logs/a
cp in.ndjson logs/a/one.ndjson
cp in.ndjson logs/two.ndjson
$P -r logs --jsonl-field message --out-dir red -q
cmp red/logs/a/one.ndjson out.ndjson && cmp red/logs/two.ndjson out.ndjson || fail "tree"
# Nested paths and "*" (every string value).
$P --jsonl-field nested.message --jsonl-field user.email in.ndjson >nested.ndjson
$P --jsonl-field '*' in.ndjson >all.ndjson
jq -c . nested.ndjson all.ndjson >/dev/null || fail "nested/* output is not JSON"
if [ $rules = 1 ]; then
    [ "$(jq -r 'select(type == "object" and .nested) | .nested.message' nested.ndjson)" = "<PRIVATE_EMAIL>" ] ||
        fail "nested.message"
    [ "$(jq -r 'select(type == "object" and .user) | .user.email' nested.ndjson)" = "<PRIVATE_EMAIL>" ] ||
        fail "user.email"
    ! grep -q '@example' all.ndjson || fail "'*' left an email"
    # Spans as jsonl: offsets into the decoded value, with record and field.
    $P --jsonl-field message --format jsonl in.ndjson >spans.jsonl
    [ "$(jq -c 'select(.record == 2) | [.field, .start, .end]' spans.jsonl)" = '["message",5,20]' ] ||
        fail "decoded offsets: $(cat spans.jsonl)"
    # --check over records
    set +e
    $P --jsonl-field message --check in.ndjson; rc=$?
    set -e
    [ $rc -eq 1 ] || fail "--check with records: exit $rc"
fi

# A line that is not JSON fails that file (nothing of it is written under
# --out-dir) while the other files go on.
mkdir -p bad
printf '{"message":"ok ivan@example.com"}\n{"message": oops}\n{"message":"judy@example.com"}\n' >bad/x.ndjson
cp in.ndjson bad/y.ndjson
set +e
$P -r bad --jsonl-field message --out-dir badout --report bad.json 2>err
rc=$?
set -e
[ $rc -eq 3 ] || fail "bad record: exit $rc"
grep -q 'bad/x.ndjson: record 2: invalid JSON' err || fail "bad record message: $(cat err)"
[ ! -e badout/bad/x.ndjson ] || fail "a failed file was written"
cmp badout/bad/y.ndjson out.ndjson || fail "the other file did not go on"
jq -e '.files[] | select(.path == "bad/x.ndjson") | .status == "failed"' bad.json >/dev/null ||
    fail "report: failed file"
! grep -q 'oops\|ivan' err bad.json || fail "input text in a message or the report"
# To stdout: the records before the bad one, nothing after it.
set +e
$P --jsonl-field message bad/x.ndjson >part.ndjson 2>/dev/null
rc=$?
set -e
[ $rc -eq 3 ] && [ "$(wc -l <part.ndjson)" -eq 1 ] || fail "stdout prefix: rc=$rc"

# Records from a pipe are written as soon as they are complete
# (tail -f events.ndjson | pii-redact --jsonl-field message); polls up to
# 20 s, no timing assertion.
mkfifo fifo
$P --jsonl-field message <fifo >streamed &
pid=$!
exec 3>fifo
printf '{"message":"first"}\n' >&3
i=0
while [ "$(cat streamed)" != '{"message":"first"}' ] && [ $i -lt 200 ]; do
    sleep 0.1
    i=$((i + 1))
done
[ "$(cat streamed)" = '{"message":"first"}' ] || fail "records from a pipe were not flushed"
printf '{"message":"second"}' >&3
exec 3>&-
wait $pid
[ "$(tail -n 1 streamed)" = '{"message":"second"}' ] || fail "second record"

# ---- CSV --------------------------------------------------------------------
printf 'id,email,note\r\n1,bob@example.com,"hello, world"\r\n2,"ann@example.org, ""the boss""\nsecond line",plain\r\n3,,"carol@example.net"\r\n4,"dave@example.com"\r\n5,erin@example.com' >in.csv
printf 'id,email,note\r\n1,<PRIVATE_EMAIL>,"hello, world"\r\n2,"<PRIVATE_EMAIL>, ""the boss""\nsecond line",plain\r\n3,,"carol@example.net"\r\n4,"<PRIVATE_EMAIL>"\r\n5,<PRIVATE_EMAIL>' >want.csv
$P --csv-column 2 in.csv >out.csv
$P --csv-column email in.csv >byname.csv
cmp out.csv byname.csv || fail "by name and by index differ"
if [ $rules = 1 ]; then
    cmp out.csv want.csv || { od -c out.csv | head -20; fail "csv-column output"; }
else
    cmp out.csv in.csv || fail "csv without rules changed bytes"
fi
set +e
$P --csv-column nosuch in.csv >/dev/null 2>err
rc=$?
printf '1,"open quote\n2,x\n' | $P --csv-column 2 >/dev/null 2>>err
rc2=$?
set -e
[ $rc -eq 3 ] && [ $rc2 -eq 3 ] || fail "csv errors: exit $rc $rc2"
grep -q 'column "nosuch" is not in the header' err || fail "missing column message"
grep -q 'quoted field not closed' err || fail "unclosed quote message"
echo ok
