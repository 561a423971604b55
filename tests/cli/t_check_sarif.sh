# SARIF from --check (issue 43, item 3), checked against the official SARIF
# 2.1.0 schema WITH its format checks (tests/cli/sarif_check.py: uri and
# uri-reference through python3-rfc3987): artifactLocation.uri is a
# percent-encoded URI relative to run.originalUriBaseIds.SRCROOT (the
# folder pii-redact ran in), or an absolute file: URI outside it;
# run.columnKind is unicodeCodePoints and columns count code points; every
# result's ruleId has a rule entry (a --deny label too); the invocation
# says whether every file was read, with a notification for each that was
# not; the rule id is in the text, JSON and CSV reports too; records mode
# gives the file's own line and column.
set -u
P=$PII_REDACT
T=$TMPDIR
here=$(cd "$(dirname "$0")" && pwd)
PY=/usr/bin/python3
fail() { echo "FAIL: $*"; exit 1; }
mkdir -p "$T/w" "$T/outside" && cd "$T/w" || exit 1
mkdir -p 'dir with space' pct
printf '\303\251\344\270\255 bob@example.com\n' >'dir with space/f #1.txt'
printf 'x carol@example.net\n' >'pct/100%.txt'
printf '\303\274: dan@example.org\n' >"na$(printf '\303\257')ve.txt"
printf 'BADGE-77 here\n' >badge.txt
printf 'employee_badge\tBADGE-77\n' >"$T/deny.txt"
printf 'y erin@example.com\n' >"$T/outside/o.txt"

"$P" --rules-only --deny "$T/deny.txt" --check -q --report-format sarif -r . "$T/w/badge.txt" \
    "$T/outside/o.txt" >out.sarif 2>err
[ $? -eq 1 ] || fail "exit with findings: $(cat err)"
$PY "$here/sarif_check.py" out.sarif >chk || fail "sarif: $(cat chk)"
cwd_uri=$($PY -c 'import os,urllib.parse; print("file://" + urllib.parse.quote(os.getcwd(), safe="/") + "/")')
$PY - "$cwd_uri" "$T" <<'PYEOF' || fail "sarif content"
import json, sys, urllib.parse
cwd_uri, tmp = sys.argv[1], sys.argv[2]
run = json.load(open("out.sarif"))["runs"][0]
assert run["columnKind"] == "unicodeCodePoints", run.get("columnKind")
assert run["originalUriBaseIds"] == {"SRCROOT": {"uri": cwd_uri}}, run["originalUriBaseIds"]
rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
assert rules[8:] == ["employee_badge"], rules
got = []
for r in run["results"]:
    al = r["locations"][0]["physicalLocation"]["artifactLocation"]
    reg = r["locations"][0]["physicalLocation"]["region"]
    assert rules[r["ruleIndex"]] == r["ruleId"]
    got.append((al["uri"], al.get("uriBaseId"), reg["startLine"], reg["startColumn"], r["ruleId"],
                r["properties"].get("rule")))
outside = "file://" + urllib.parse.quote(tmp, safe="/") + "/outside/o.txt"
want = [
    ("badge.txt", "SRCROOT", 1, 1, "employee_badge", "deny"),
    ("dir%20with%20space/f%20%231.txt", "SRCROOT", 1, 4, "private_email", "email"),
    ("na%C3%AFve.txt", "SRCROOT", 1, 4, "private_email", "email"),
    ("pct/100%25.txt", "SRCROOT", 1, 3, "private_email", "email"),
    ("badge.txt", "SRCROOT", 1, 1, "employee_badge", "deny"),
    (outside, None, 1, 3, "private_email", "email"),
]
assert got == want, got
inv = run["invocations"]
assert inv == [{"executionSuccessful": True}], inv
PYEOF
# the text report counts bytes, SARIF code points: the same finding
"$P" --rules-only --check -q 'dir with space/f #1.txt' >out.txt
[ "$(sed 's/ [0-9a-f]\{16\} / FP /' out.txt)" = 'dir with space/f #1.txt:1:7: private_email (rule) FP [email]' ] ||
    fail "text line: $(cat out.txt)"

# records mode: the file's own line and column, not the record and the
# offset in the field (JSON escapes and a CSV field across lines counted as
# they are in the file); the allow marker holds there too
printf '{"id":1,"message":"hello"}\n{"id":2,"message":"caf\\u00e9 \\"x\\" \303\251 bob@example.com"}\n\n{"message":"dan@example.org pii-redact:allow"}\n' >r.jsonl
printf 'id,notes\n1,"two\nlines \303\251 carol@example.net"\n' >r.csv
"$P" --rules-only --check -q --jsonl-field message r.jsonl >out.txt
[ "$(sed 's/ [0-9a-f]\{16\} / FP /' out.txt)" = 'r.jsonl:2:39: private_email (rule) FP [email]' ] ||
    fail "records, text: $(cat out.txt)"
"$P" --rules-only --check -q --csv-column notes r.csv >out.txt
[ "$(sed 's/ [0-9a-f]\{16\} / FP /' out.txt)" = 'r.csv:3:10: private_email (rule) FP [email]' ] ||
    fail "records, csv: $(cat out.txt)"
"$P" --rules-only --check -q --jsonl-field message --report-format sarif r.jsonl >rec.sarif
$PY "$here/sarif_check.py" rec.sarif >chk || fail "records sarif: $(cat chk)"
$PY -c 'import json; r=json.load(open("rec.sarif"))["runs"][0]["results"]; g=[x["locations"][0]["physicalLocation"]["region"] for x in r]; assert g==[{"startLine":2,"startColumn":38}], g' ||
    fail "records sarif region"

# standard input has no URI: a location that says so, still a valid log
printf 'a bob@example.com\n' | "$P" --rules-only --check -q --report-format sarif >st.sarif
[ $? -eq 1 ] || fail "stdin sarif exit"
$PY "$here/sarif_check.py" st.sarif >chk || fail "stdin sarif: $(cat chk)"
grep -q '"physicalLocation":{"artifactLocation":{"description":{"text":"standard input"}},"region":{"startLine":1,"startColumn":3}}' st.sarif ||
    fail "stdin location: $(cat st.sarif)"

# a file that could not be read: exit 3, still a valid log that says so
"$P" --rules-only --check -q --report-format sarif badge.txt 'no such.txt' >fail.sarif 2>err
[ $? -eq 3 ] || fail "a missing file: exit $?"
$PY "$here/sarif_check.py" fail.sarif >chk || fail "sarif with a failure: $(cat chk)"
$PY - <<'PYEOF' || fail "invocation with a failure: $(cat fail.sarif)"
import json
inv = json.load(open("fail.sarif"))["runs"][0]["invocations"]
assert len(inv) == 1 and inv[0]["executionSuccessful"] is False, inv
n = inv[0]["toolExecutionNotifications"]
assert len(n) == 1 and n[0]["level"] == "error" and n[0]["message"]["text"], n
assert n[0]["locations"][0]["physicalLocation"]["artifactLocation"] == {"uri": "no%20such.txt", "uriBaseId": "SRCROOT"}, n
PYEOF

# rule ids in the other reports
"$P" --rules-only --deny "$T/deny.txt" --check -q badge.txt pct/100%.txt >out.txt
printf 'badge.txt:1:1: employee_badge (deny) %s [deny]\npct/100%%.txt:1:3: private_email (rule) %s [email]\n' \
    "$(sed -n 1p out.txt | cut -d' ' -f4)" "$(sed -n 2p out.txt | cut -d' ' -f4)" | cmp -s - out.txt ||
    fail "text: $(cat out.txt)"
"$P" --rules-only --deny "$T/deny.txt" --check -q --report-format json badge.txt pct/100%.txt >out.json
$PY -c 'import json; f=json.load(open("out.json"))["findings"]; assert [x["rule"] for x in f]==["deny","email"], f' ||
    fail "json rule: $(cat out.json)"
$PY "$here/json_check.py" "$here/../fixtures/report/check-json.schema.json" out.json || fail "json schema"
"$P" --rules-only --deny "$T/deny.txt" --check -q --report-format csv badge.txt >out.csv
[ "$(cat out.csv)" = "path,line,column,label,source,score,fingerprint,rule
\"badge.txt\",1,1,employee_badge,deny,1.0000,$(sed -n 1p out.txt | cut -d' ' -f4),\"deny\"" ] ||
    fail "csv: $(cat out.csv)"
echo ok
