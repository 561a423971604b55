# Named custom rules (issue 43 item 5): .pii-redact.rules found at the
# repository root, --rules-file, --no-rules-file; findings reported by id;
# --list-rules; errors name the file and line.  Exact outputs.
set -e
P=$PII_REDACT
fail() { echo "FAIL: $*"; exit 1; }
cd "$TMPDIR"
mkdir -p repo/sub/deeper
git -C repo init -q
cat >repo/.pii-redact.rules <<'EOF'
# rules of the ACME project
[acme_employee]
description = ACME employee number
label = account_number
regex = \bEMP-[0-9]{6}\b
allow = EMP-000000

[acme_token]
description = ACME API token after token=
label = secret
regex = acme_tok=([A-Za-z0-9]{12,})
group = 1
entropy = 3.0
EOF
printf 'Staff EMP-123456 and EMP-000000.\nacme_tok=aaaaaaaaaaaaaaaa acme_tok=Zx9Kq2Lm8Np4Rt\n' >repo/sub/deeper/in.txt

# Found from a folder deep inside the repository.
cd repo/sub/deeper
"$P" --rules-only in.txt >out 2>err || fail "discovery: exit $?"
printf 'Staff <ACCOUNT_NUMBER> and EMP-000000.\nacme_tok=aaaaaaaaaaaaaaaa acme_tok=<SECRET>\n' >want
cmp out want || fail "discovery: $(cat out)"
[ ! -s err ] || fail "discovery: stderr $(cat err)"
# Reported by id.
"$P" --rules-only --format jsonl <in.txt >out
cat >want <<'EOF'
{"label":"account_number","start":6,"end":16,"source":"rule","rule":"acme_employee","score":1}
{"label":"secret","start":68,"end":82,"source":"rule","rule":"acme_token","score":1}
EOF
cmp out want || fail "jsonl: $(cat out)"
"$P" --rules-only --list-rules >out
tail -3 out >out3
cat >want <<EOF
# custom rules of $TMPDIR/repo/.pii-redact.rules
acme_employee            account_number   ACME employee number
acme_token               secret           ACME API token after token=
EOF
cmp out3 want || fail "--list-rules: $(cat out3)"
# --no-rules-file: none read.
"$P" --rules-only --no-rules-file in.txt >out
cmp out in.txt || fail "--no-rules-file: $(cat out)"
# --model-only: the rule tier (custom rules too) is off.
"$P" --model-only --labels account_number in.txt >out 2>err || fail "--model-only: exit $?"
grep -q 'EMP-123456' out || fail "--model-only ran custom rules: $(cat out)"
cd "$TMPDIR"

# Outside any repository: nothing is found; --rules-file names one.
mkdir -p plain
cp repo/sub/deeper/in.txt plain/
cd plain
"$P" --rules-only in.txt >out
cmp out in.txt || fail "outside a repository: $(cat out)"
"$P" --rules-only --rules-file ../repo/.pii-redact.rules in.txt >out
printf 'Staff <ACCOUNT_NUMBER> and EMP-000000.\nacme_tok=aaaaaaaaaaaaaaaa acme_tok=<SECRET>\n' >want
cmp out want || fail "--rules-file: $(cat out)"
# --labels selects custom labels like any other.
"$P" --rules-only --rules-file ../repo/.pii-redact.rules --labels secret in.txt >out
printf 'Staff EMP-123456 and EMP-000000.\nacme_tok=aaaaaaaaaaaaaaaa acme_tok=<SECRET>\n' >want
cmp out want || fail "--labels secret: $(cat out)"
# The config file may name the rules file; --no-rules-file overrides it.
printf 'rules-file = %s\n' "$TMPDIR/repo/.pii-redact.rules" >conf
"$P" --config conf --rules-only in.txt >out
grep -q '<ACCOUNT_NUMBER>' out || fail "rules-file from the config: $(cat out)"

# paths: a rule only for the inputs named so, in every mode (one file, -r,
# --check, records); never for standard input.
cd "$TMPDIR"
mkdir -p tree/logs tree/src
printf '[log_ticket]\nlabel = account_number\nregex = TCK-[0-9]{4}\npaths = *.log\n' >paths.rules
printf 'ref TCK-1234\n' >tree/logs/app.log
printf 'ref TCK-1234\n' >tree/src/main.c
"$P" --rules-only --rules-file paths.rules tree/logs/app.log >out
printf 'ref <ACCOUNT_NUMBER>\n' >want
cmp out want || fail "paths, matching file: $(cat out)"
"$P" --rules-only --rules-file paths.rules tree/src/main.c >out
cmp out tree/src/main.c || fail "paths, other file: $(cat out)"
"$P" --rules-only --rules-file paths.rules <tree/logs/app.log >out
cmp out tree/logs/app.log || fail "paths, stdin: $(cat out)"
set +e
"$P" --rules-only --rules-file paths.rules --check -r tree >out 2>err
rc=$?
set -e
[ $rc -eq 1 ] || fail "paths, --check -r: exit $rc ($(cat err))"
grep -c . out >n
[ "$(cat n)" = 1 ] || fail "paths, --check -r: $(cat out)"
grep -q '^tree/logs/app.log:1:5: account_number (rule) ' out || fail "paths, --check -r: $(cat out)"
printf '{"msg":"ref TCK-1234"}\n' >tree/logs/rec.log
printf '{"msg":"ref TCK-1234"}\n' >tree/src/rec.jsonl
"$P" --rules-only --rules-file paths.rules --jsonl-field msg tree/logs/rec.log >out
printf '{"msg":"ref <ACCOUNT_NUMBER>"}\n' >want
cmp out want || fail "paths, records in a matching file: $(cat out)"
"$P" --rules-only --rules-file paths.rules --jsonl-field msg tree/src/rec.jsonl >out
cmp out tree/src/rec.jsonl || fail "paths, records in another file: $(cat out)"
cd plain

# Errors name the file and line, exit 2; a missing file is exit 3.
err_case() { # want-status want-message rules-text
    printf '%s' "$3" >bad.rules
    set +e
    "$P" --rules-only --rules-file bad.rules in.txt >out 2>err
    rc=$?
    set -e
    [ $rc -eq "$1" ] || fail "$2: exit $rc"
    printf '%s\n' "$2" >want
    cmp err want || fail "want '$2', got '$(cat err)'"
    [ ! -s out ] || fail "$2: output written"
}
err_case 2 "pii-redact: bad.rules:3: unknown key 'regexp' (description, label, regex, group, keywords, context, entropy, validator, allow, paths)" \
    "[r]
label = secret
regexp = x
"
err_case 2 "pii-redact: bad.rules:2: rule 'r' has no regex" "
[r]
label = secret
"
err_case 2 "pii-redact: bad.rules:5: validator 'crc32': want none, luhn, card or iban" \
    "# x
[r]
label = secret
regex = x
validator = crc32
"
printf '[r]\nlabel = secret\nregex = (x\n' >bad.rules
set +e
"$P" --rules-only --rules-file bad.rules in.txt >out 2>err
rc=$?
set -e
[ $rc -eq 2 ] || fail "bad regex: exit $rc"
grep -q '^pii-redact: bad.rules:3: regex: ' err || fail "bad regex: $(cat err)"
set +e
"$P" --rules-only --rules-file missing.rules in.txt >out 2>err
rc=$?
set -e
[ $rc -eq 3 ] || fail "missing rules file: exit $rc"
printf 'pii-redact: rule file missing.rules: No such file or directory\n' >want
cmp err want || fail "missing rules file: $(cat err)"
# A broken discovered file stops the run too (it is the project's).
mkdir -p ../repo2 && git -C ../repo2 init -q
printf '[r]\nlabel = secret\n' >../repo2/.pii-redact.rules
cd ../repo2
set +e
printf 'x\n' | "$P" --rules-only >out 2>err
rc=$?
set -e
[ $rc -eq 2 ] || fail "broken discovered file: exit $rc"
printf 'pii-redact: %s/repo2/.pii-redact.rules:1: rule '\''r'\'' has no regex\n' "$TMPDIR" >want
cmp err want || fail "broken discovered file: $(cat err)"
set +e
"$P" --rules-file x --no-rules-file </dev/null >out 2>err
rc=$?
set -e
[ $rc -eq 2 ] || fail "--rules-file with --no-rules-file: exit $rc"
echo ok
