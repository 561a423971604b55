# Fail-closed selectors (issue 22 part 1, issue 18 H6): every label name,
# CSV column and JSONL path must select something, else exit 2 (options)
# or 3 (the file), never a silent pass-through.
set -u
P=$PII_REDACT
T=$TMPDIR
fail() { echo "FAIL: $*"; exit 1; }
IN='bob@example.com +1 415-555-0100'
ACTIVE='pii-redact: active labels: account_number, private_address, private_date, private_email, private_person, private_phone, private_url, secret'

# expect RC EXPECTED_STDOUT EXPECTED_STDERR -- ARGS...: exact bytes, exact status
expect() {
    want_rc=$1 want_out=$2 want_err=$3
    shift 4
    printf '%s' "$IN" | "$P" "$@" >"$T/out" 2>"$T/err"
    rc=$?
    [ "$rc" -eq "$want_rc" ] || fail "$*: exit $rc, want $want_rc ($(cat "$T/err"))"
    [ "$(cat "$T/out")" = "$want_out" ] || fail "$*: stdout '$(cat "$T/out")'"
    [ "$(cat "$T/err")" = "$want_err" ] || fail "$*: stderr '$(cat "$T/err")'"
}

# Accepted spellings: the label, its placeholder name, a documented alias.
for l in private_email PRIVATE_EMAIL email; do
    expect 0 '<PRIVATE_EMAIL> +1 415-555-0100' '' -- --rules-only --labels "$l"
    expect 0 'bob@example.com <PRIVATE_PHONE>' '' -- --rules-only --exclude-labels "$l"
    expect 0 '*************** <PRIVATE_PHONE>' '' -- --rules-only --operator "$l=mask"
done
expect 0 '<PRIVATE_EMAIL> <PRIVATE_PHONE>' '' -- --rules-only --labels email,phone

# Typos, other cases, empty lists and items: exit 2, nothing on stdout.
expect 2 '' "pii-redact: --labels: unknown label 'emial'
pii-redact: did you mean 'private_email'?
$ACTIVE" -- --rules-only --labels emial
expect 2 '' "pii-redact: --labels: unknown label 'Private_Email'
pii-redact: did you mean 'private_email'?
$ACTIVE" -- --rules-only --labels Private_Email
expect 2 '' 'pii-redact: --labels: empty list of labels' -- --rules-only --labels ''
expect 2 '' "pii-redact: --labels: empty label name
$ACTIVE" -- --rules-only --labels private_phone,
expect 2 '' "pii-redact: --labels: empty label name
$ACTIVE" -- --rules-only --labels email,,phone
expect 2 '' "pii-redact: --exclude-labels: unknown label 'typo'
$ACTIVE" -- --rules-only --exclude-labels typo
expect 2 '' "pii-redact: --operator: unknown label 'typo_label'
$ACTIVE" -- --rules-only --operator typo_label=mask
expect 2 '' "pii-redact: --operator: unknown label 'phnoe'
pii-redact: did you mean 'private_phone'?
$ACTIVE" -- --rules-only --operator phnoe=remove
# Every label is reported by the rules now (logins name persons, issue 41):
# --labels person selects them alone.
out=$(printf 'user=jdoe mail bob@example.com\n' | "$P" --rules-only --labels person)
[ "$out" = 'user=<PRIVATE_PERSON> mail bob@example.com' ] || fail "--labels person: $out"
expect 2 '' "pii-redact: --threshold: unknown label 'private_emial'
pii-redact: did you mean 'private_email'?
$ACTIVE" -- --rules-only --threshold private_emial=0.5
# A deny list adds its labels to the active set.
printf 'customer_id\tC-1234\n' >"$T/deny"
printf 'id C-1234 bob@example.com' | "$P" --rules-only --deny "$T/deny" --labels customer_id >"$T/out" 2>&1 ||
    fail "deny label rejected: $(cat "$T/out")"
[ "$(cat "$T/out")" = 'id <CUSTOMER_ID> bob@example.com' ] || fail "deny label: $(cat "$T/out")"

# With the model tier: its categories are active, aliases resolve there too.
M=$T/m
"$P" mkmodel -o "$M" --layers 1 --d-model 32 --heads 2 --kv-heads 1 --head-dim 16 \
    --experts 4 --top-k 2 --embed-rows 512 --dtype f32 --seed 3 >/dev/null || fail "mkmodel"
printf 'x' | "$P" -m "$M" --labels person --threshold person=0.5 >/dev/null 2>"$T/err" ||
    fail "model alias: $(cat "$T/err")"
printf 'x' | "$P" -m "$M" --threshold persn=0.5 >/dev/null 2>"$T/err"
[ $? -eq 2 ] || fail "model threshold typo"
[ "$(head -2 "$T/err")" = "pii-redact: --threshold: unknown label 'persn'
pii-redact: did you mean 'private_person'?" ] || fail "model threshold message: $(cat "$T/err")"

# CSV: a column past the last, a foreign separator, CR-only line ends: exit 3.
printf 'id,email,note\n1,bob@example.com,hi\n' >"$T/a.csv"
printf 'id;email;note\n1;bob@example.com;hi\n' >"$T/s.csv"
printf 'id\temail\n1\tbob@example.com\n' >"$T/t.tsv"
printf 'id|email\n1|bob@example.com\n' >"$T/p.csv"
printf 'id,email\r1,bob@example.com\r' >"$T/cr.csv"
printf '{"message":"bob@example.com"}\n' >"$T/m.jsonl"
cd "$T" || exit 1
rec() { # RC STDOUT STDERR ARGS...
    want_rc=$1 want_out=$2 want_err=$3
    shift 3
    "$P" --rules-only "$@" >out 2>err
    rc=$?
    [ "$rc" -eq "$want_rc" ] || fail "$*: exit $rc, want $want_rc ($(cat err))"
    [ "$(cat out)" = "$want_out" ] || fail "$*: stdout '$(cat out)'"
    [ "$(cat err)" = "$want_err" ] || fail "$*: stderr '$(cat err)'"
}
rec 0 'id,email,note
1,<PRIVATE_EMAIL>,hi' '' --csv-column 2 a.csv
rec 3 '' 'pii-redact: a.csv: record 1: not found: column 9 is past the last column of the first record (3 columns)' \
    --csv-column 9 a.csv
rec 3 '' "pii-redact: s.csv: record 1: malformed file: the first record has no ',' but has ';': set the separator with --csv-delimiter" \
    --csv-column 2 s.csv
rec 3 '' "pii-redact: s.csv: record 1: malformed file: the first record has no ',' but has ';': set the separator with --csv-delimiter" \
    --csv-column email s.csv
rec 0 'id;email;note
1;<PRIVATE_EMAIL>;hi' '' --csv-column 2 --csv-delimiter ';' s.csv
rec 0 'id|email
1|<PRIVATE_EMAIL>' '' --csv-column email --csv-delimiter '|' p.csv
rec 0 'id	email
1	<PRIVATE_EMAIL>' '' --csv-column email t.tsv
rec 0 'id	email
1	<PRIVATE_EMAIL>' '' --csv-column 2 --csv-delimiter tab t.tsv
rec 3 '' 'pii-redact: cr.csv: record 1: malformed file: a CR that does not end a line at byte 8 (CR-only line ends are not supported: convert them to LF)' \
    --csv-column 2 cr.csv
rec 2 '' "pii-redact: bad --csv-delimiter ':' (',', ';', tab or '|')
Try 'pii-redact --help' for more information." --csv-column 2 --csv-delimiter : a.csv
rec 2 '' "pii-redact: --csv-delimiter applies to --csv-column
Try 'pii-redact --help' for more information." --csv-delimiter ';' a.csv

# JSONL: a path that matches no key fails the file and writes nothing of it.
rec 3 '' 'pii-redact: m.jsonl: record 1: not found: selector "mesage" matched no key in 1 record' \
    --jsonl-field mesage m.jsonl
rec 0 '{"message":"<PRIVATE_EMAIL>"}' '' --jsonl-field message m.jsonl
mkdir -p od
rec 3 '' 'pii-redact: m.jsonl: record 1: not found: selector "mesage" matched no key in 1 record' \
    --jsonl-field mesage m.jsonl --out-dir od -q
[ ! -e od/m.jsonl ] || fail "an output was written for a file whose selector matched nothing"
# A key that only appears after the first 1000 records: the file fails there.
i=0
while [ $i -lt 1001 ]; do echo '{"a":"x"}'; i=$((i + 1)); done >late.jsonl
echo '{"message":"bob@example.com"}' >>late.jsonl
rec 3 '' 'pii-redact: late.jsonl: record 1000: not found: selector "message" matched no key in first 1000 records' \
    --jsonl-field message late.jsonl
# An empty file has nothing to leak.
: >empty.jsonl
rec 0 '' '' --jsonl-field message empty.jsonl
echo ok
