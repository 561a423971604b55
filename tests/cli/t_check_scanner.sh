# --check as a scanner (issue 22 part 3): one line per finding with file,
# line, column, label, source and fingerprint and no value; json, csv and
# SARIF 2.1.0 reports (validated by tests/cli/sarif_check.py against the
# official SARIF 2.1.0 schema, tests/fixtures/sarif/, and GitHub's needs);
# the json report against its own schema (tests/fixtures/report/); the inline
# allow marker; baselines (write, then nothing new is reported); --exit-code.
set -u
P=$PII_REDACT
T=$TMPDIR
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "FAIL: $*"; exit 1; }
cd "$T" || exit 1
mkdir -p d/sub
printf 'a bob@example.com\nb +1 415-555-0100 c\nok alice@example.org # pii-redact:allow\n' >d/t.txt
printf 'nothing here\n' >d/clean.txt
printf 'x\nyy carol@example.net\n' >d/sub/u.txt

"$P" --rules-only --check -q d/t.txt >out 2>err
[ $? -eq 1 ] || fail "exit with findings"
printf 'd/t.txt:1:3: private_email (rule) %s [email]\nd/t.txt:2:3: private_phone (rule) %s [phone_intl]\n' \
    "$(cut -d' ' -f4 out | sed -n 1p)" "$(cut -d' ' -f4 out | sed -n 2p)" | cmp -s - out ||
    fail "text lines: $(cat out)"
grep -q 'example' out && fail "a value was printed without --show-values"
[ "$(cut -d' ' -f4 out | grep -c '^[0-9a-f]\{16\}$')" -eq 2 ] || fail "fingerprints: $(cat out)"
[ ! -s err ] || fail "stderr: $(cat err)"
"$P" --rules-only --check -q d/clean.txt >out 2>&1
[ $? -eq 0 ] && [ ! -s out ] || fail "clean file"
# The same finding moved to another line keeps its fingerprint.
fpa=$("$P" --rules-only --check -q d/t.txt | head -1 | cut -d' ' -f4)
cp d/t.txt keep.txt && { printf 'top\n'; cat keep.txt; } >d/t.txt
fpb=$("$P" --rules-only --check -q d/t.txt | head -1 | cut -d' ' -f4)
[ "$fpa" = "$fpb" ] || fail "fingerprint changed with the line"
"$P" --rules-only --check -q d/t.txt | head -1 | grep -q '^d/t.txt:2:3: ' || fail "moved line"
cp keep.txt d/t.txt

# Standard input, --show-values (JSON-escaped), --lines offsets.
printf 'x bob@example.com\n' | "$P" --rules-only --check --show-values >out
[ "$(cat out)" = "-:1:3: private_email (rule) $(cut -d' ' -f4 out) [email] \"bob@example.com\"" ] ||
    fail "stdin: $(cat out)"
printf 'l1\nl2 x bob@example.com\n' | "$P" --rules-only --check --lines | cut -d' ' -f1-2 >out
[ "$(cat out)" = '-:2:6: private_email' ] || fail "--lines position: $(cat out)"

# A tree: input order, json and csv.
"$P" --rules-only -r d --check -q | cut -d' ' -f1-2 >out
printf 'd/sub/u.txt:2:4: private_email\nd/t.txt:1:3: private_email\nd/t.txt:2:3: private_phone\n' |
    cmp -s - out || fail "tree: $(cat out)"
"$P" --rules-only -r d --check -q --report-format json >out.json
python3 -c 'import json,sys; d=json.load(open("out.json")); f=d["findings"]; assert [(x["path"],x["line"],x["column"],x["label"]) for x in f]==[("d/sub/u.txt",2,4,"private_email"),("d/t.txt",1,3,"private_email"),("d/t.txt",2,3,"private_phone")], f; assert all("value" not in x for x in f)' ||
    fail "json report"
# The json report's shape: tests/fixtures/report/check-json.schema.json
# (pii-redact's own; python3-jsonschema), with and without values; a
# finding with an unknown key or a short fingerprint is refused.
/usr/bin/python3 "$here/json_check.py" "$here/../fixtures/report/check-json.schema.json" out.json ||
    fail "json report schema"
printf 'x bob@example.com\n' | "$P" --rules-only --check --show-values --report-format json >val.json
/usr/bin/python3 "$here/json_check.py" "$here/../fixtures/report/check-json.schema.json" val.json ||
    fail "json report schema, --show-values"
for mut in 'f["extra"]=1' 'f["fingerprint"]="abc"' 'del f["line"]'; do
    /usr/bin/python3 -c 'import json,sys; d=json.load(open("out.json")); f=d["findings"][0]; exec(sys.argv[1]); json.dump(d, open("bad.json","w"))' "$mut"
    /usr/bin/python3 "$here/json_check.py" "$here/../fixtures/report/check-json.schema.json" bad.json >/dev/null &&
        fail "json schema accepted: $mut"
done
"$P" --rules-only -r d --check -q --report-format csv >out.csv
[ "$(head -1 out.csv)" = 'path,line,column,label,source,score,fingerprint,rule' ] || fail "csv header"
[ "$(sed -n 2p out.csv | cut -d, -f1-5)" = '"d/sub/u.txt",2,4,private_email,rule' ] || fail "csv row"

# SARIF 2.1.0: valid under the official schema (python3-jsonschema, from
# Debian: /usr/bin/python3) and with what GitHub code scanning needs.
PY=/usr/bin/python3
$PY -c 'import jsonschema' 2>/dev/null || fail "python3-jsonschema is missing (make setup installs it)"
"$P" --rules-only -r d --check -q --report-format sarif >out.sarif
[ $? -eq 1 ] || fail "sarif exit"
$PY "$here/sarif_check.py" out.sarif || fail "sarif invalid"
[ "$(python3 -c 'import json; print(len(json.load(open("out.sarif"))["runs"][0]["results"]))')" = 3 ] ||
    fail "sarif result count"
"$P" --rules-only --check -q --report-format sarif d/clean.txt >empty.sarif
[ $? -eq 0 ] || fail "empty sarif exit"
$PY "$here/sarif_check.py" empty.sarif || fail "empty sarif invalid"
# The checker can fail: each of these logs is refused, the first four by
# the schema alone (a wrong version, a result kind outside its enum, a
# property the run object does not allow, a line 0), the last by GitHub's
# needs (a result without a location is valid SARIF).
n=0
for mut in 'd["version"]="2.1"' 'r["kind"]="finding"' 'd["runs"][0]["bogus"]=1' \
    'r["locations"][0]["physicalLocation"]["region"]["startLine"]=0' 'del r["locations"]'; do
    n=$((n + 1))
    $PY -c 'import json,sys; d=json.load(open("out.sarif")); r=d["runs"][0]["results"][0]; exec(sys.argv[1]); json.dump(d, open("bad.sarif","w"))' "$mut" ||
        fail "mutation $mut"
    $PY "$here/sarif_check.py" bad.sarif >bad.out && fail "checker accepted a broken log: $mut"
    if [ $n -le 4 ]; then
        grep -q '^sarif: schema: ' bad.out || fail "not refused by the schema: $mut: $(cat bad.out)"
    fi
done

# Baseline round trip: accepted findings are not reported, new ones are.
"$P" --rules-only -r d --check -q --baseline base.txt --write-baseline >out
[ $? -eq 0 ] && [ ! -s out ] || fail "write-baseline"
[ "$(grep -vc '^#' base.txt)" -eq 3 ] || fail "baseline lines: $(cat base.txt)"
grep -q 'example' base.txt && fail "a value in the baseline"
"$P" --rules-only -r d --check -q --baseline base.txt >out
[ $? -eq 0 ] && [ ! -s out ] || fail "baseline did not accept: $(cat out)"
printf 'new dave@example.com\n' >>d/sub/u.txt
"$P" --rules-only -r d --check -q --baseline base.txt | cut -d' ' -f1-2 >out
[ "$(cat out)" = 'd/sub/u.txt:3:5: private_email' ] || fail "new finding: $(cat out)"
"$P" --rules-only -r d --check -q --baseline missing.txt >/dev/null 2>err
[ $? -eq 3 ] || fail "missing baseline"

# --exit-code, and the options that need --check.
"$P" --rules-only --check -q --exit-code 7 d/t.txt >/dev/null
[ $? -eq 7 ] || fail "--exit-code"
"$P" --rules-only --check -q --exit-code 7 d/clean.txt >/dev/null
[ $? -eq 0 ] || fail "--exit-code when clean"
for bad in "--exit-code 0 --check" "--exit-code x --check" "--report-format xml --check" \
    "--report-format json" "--baseline b" "--write-baseline --check"; do
    # shellcheck disable=SC2086
    "$P" --rules-only $bad d/t.txt >/dev/null 2>&1
    [ $? -eq 2 ] || fail "'$bad' is not a usage error"
done

# The staged-files command of docs/CI.md, on a real repository.
if command -v git >/dev/null 2>&1; then
    export HOME="$T/home" GIT_CONFIG_NOSYSTEM=1
    mkdir -p "$HOME"
    git init -q g && cd g || fail "git init"
    printf 'fine\n' >ok.txt
    printf 'x bob@example.com\n' >pii.txt
    printf 'y bob@example.com\n' >unstaged.txt
    git add ok.txt
    git diff --cached --name-only -z --diff-filter=ACMR | xargs -0 -r "$P" --check --rules-only -q
    [ $? -eq 0 ] || fail "staged clean file"
    git add pii.txt
    git diff --cached --name-only -z --diff-filter=ACMR |
        xargs -0 -r "$P" --check --rules-only -q >out
    [ $? -ne 0 ] || fail "staged PII passed"
    [ "$(cut -d' ' -f1-2 out)" = 'pii.txt:1:3: private_email' ] || fail "staged: $(cat out)"
    cd .. || exit 1
fi
echo ok
