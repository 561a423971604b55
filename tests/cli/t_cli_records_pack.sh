# --jsonl-field / --csv-column with the built-in model: the record stream
# announces the selected values of the records it holds (PII_STREAM_AHEAD),
# so they share forward passes.  The output must equal redacting each
# record on its own (one process per record: nothing to pack with), a pipe
# giving one record per read, and --threads 1 must equal --threads 3.
set -e
P=$PII_REDACT
fail() { echo "FAIL: $*"; exit 1; }
R=$(pwd)
cd "$TMPDIR"
# 60 records: sample sentences and log lines with names, mails, phones,
# secrets; json.dumps escapes non-ASCII text (\uXXXX), so escaped values
# are packed too; "who" is a second selected value of each record.
python3 "$R/tools/bench/gen_log.py" 30 >log.txt
head -n 30 "$R/samples/sentences.txt" >>log.txt
python3 - <<'EOF'
import csv, json
lines = open("log.txt", encoding="utf-8").read().splitlines()
names = ["Zoe Underwood", "José Núñez", "li.wei@example.cn", "", "call 555-0142 \"now\""]
with open("in.jsonl", "w", encoding="utf-8") as f:
    for i, l in enumerate(lines):
        f.write(json.dumps({"id": i, "msg": l, "note": {"who": names[i % len(names)]}}) + "\n")
with open("in.csv", "w", encoding="utf-8", newline="") as f:
    w = csv.writer(f, lineterminator="\r\n")
    w.writerow(["id", "msg", "who"])
    for i, l in enumerate(lines):
        w.writerow([i, l, names[i % len(names)]])
EOF
[ "$(wc -l <in.jsonl)" = 60 ] || fail "input"

J="--jsonl-field msg --jsonl-field note.who"
C="--csv-column msg --csv-column who"
$P --threads 1 $J in.jsonl >j1
$P --threads 3 $J in.jsonl | cmp - j1 || fail "jsonl: 3 threads differ from 1"
$P --threads 1 $C in.csv >c1
$P --threads 3 $C in.csv | cmp - c1 || fail "csv: 3 threads differ from 1"
# the model tier is in play: it finds more than the rules alone
$P --rules-only $J in.jsonl | cmp -s - j1 && fail "jsonl: model found nothing beyond the rules"
$P --rules-only $C in.csv | cmp -s - c1 && fail "csv: model found nothing beyond the rules"

# one process per record
: >j.single
while IFS= read -r rec; do
    printf '%s\n' "$rec" | $P --threads 1 $J >>j.single
done <in.jsonl
cmp j.single j1 || fail "jsonl: packed output differs from record-by-record output"
head -n 1 in.csv >c.single
tail -n +2 in.csv | while IFS= read -r rec; do
    { head -n 1 in.csv; printf '%s\n' "$rec"; } | $P --threads 1 $C | tail -n +2 >>c.single
done
cmp c.single c1 || fail "csv: packed output differs from record-by-record output"

# a pipe with one record per read, and the spans (--format jsonl)
awk '{ printf "%s\n", $0; fflush() }' in.jsonl | $P --threads 2 $J | cmp - j1 ||
    fail "jsonl from a pipe, record by record, differs"
$P --threads 1 $J --format jsonl in.jsonl | sed 's/"file":"[^"]*",//' >js1
[ -s js1 ] || fail "no spans"
$P --threads 3 $J --format jsonl in.jsonl | sed 's/"file":"[^"]*",//' | cmp - js1 ||
    fail "jsonl spans: 3 threads differ from 1"
echo ok
