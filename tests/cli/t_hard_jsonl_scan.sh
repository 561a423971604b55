# Issue 18 M4: JSON numbers and keys are scanned on request
# (--jsonl-numbers, --jsonl-keys; off by default).  Exact bytes; a redacted
# number becomes a JSON string, so every output line stays valid JSON; the
# span report never shows a redacted key.
set -u
P=$PII_REDACT
T=$TMPDIR
fail() { echo "FAIL: $*"; exit 1; }

printf '%s\n' \
    '{"card":4111111111111111,"n":-1.5e3,"maria.garcia@example.com":{"k":"bob@example.com"},"l":[4111111111111111, 7,true,null]}' \
    '  [ {"a@b.io" : 4111111111111111 } ]  ' >"$T/in.jsonl"

# expect WANT_STDOUT -- ARGS...
expect() {
    want=$1
    shift 2
    "$P" --rules-only "$@" "$T/in.jsonl" >"$T/out" 2>"$T/err"
    rc=$?
    [ "$rc" -eq 0 ] || fail "$*: exit $rc ($(cat "$T/err"))"
    [ ! -s "$T/err" ] || fail "$*: stderr '$(cat "$T/err")'"
    printf '%s\n' "$want" >"$T/want"
    cmp -s "$T/out" "$T/want" || fail "$*: stdout '$(cat "$T/out")'"
}

# default: strings only, numbers and keys byte for byte
expect '{"card":4111111111111111,"n":-1.5e3,"maria.garcia@example.com":{"k":"<PRIVATE_EMAIL>"},"l":[4111111111111111, 7,true,null]}
  [ {"a@b.io" : 4111111111111111 } ]  ' -- --jsonl-field '*'
expect '{"card":"<ACCOUNT_NUMBER>","n":-1.5e3,"maria.garcia@example.com":{"k":"<PRIVATE_EMAIL>"},"l":["<ACCOUNT_NUMBER>", 7,true,null]}
  [ {"a@b.io" : "<ACCOUNT_NUMBER>" } ]  ' -- --jsonl-field '*' --jsonl-numbers
expect '{"card":4111111111111111,"n":-1.5e3,"<PRIVATE_EMAIL>":{"k":"<PRIVATE_EMAIL>"},"l":[4111111111111111, 7,true,null]}
  [ {"<PRIVATE_EMAIL>" : 4111111111111111 } ]  ' -- --jsonl-field '*' --jsonl-keys
expect '{"card":"<ACCOUNT_NUMBER>","n":-1.5e3,"<PRIVATE_EMAIL>":{"k":"<PRIVATE_EMAIL>"},"l":["<ACCOUNT_NUMBER>", 7,true,null]}
  [ {"<PRIVATE_EMAIL>" : "<ACCOUNT_NUMBER>" } ]  ' -- --jsonl-field '*' --jsonl-numbers --jsonl-keys
# only the selected paths
expect '{"card":"<ACCOUNT_NUMBER>","n":-1.5e3,"maria.garcia@example.com":{"k":"bob@example.com"},"l":[4111111111111111, 7,true,null]}
  [ {"a@b.io" : 4111111111111111 } ]  ' -- --jsonl-field card --jsonl-numbers --jsonl-keys
# another operator: the replacement is escaped into the string
expect '{"card":"****************","n":-1.5e3,"maria.garcia@example.com":{"k":"***************"},"l":["****************", 7,true,null]}
  [ {"a@b.io" : "****************" } ]  ' -- --jsonl-field '*' --jsonl-numbers --operator mask

# every output line parses as JSON
if command -v jq >/dev/null 2>&1; then
    "$P" --rules-only --jsonl-field '*' --jsonl-numbers --jsonl-keys "$T/in.jsonl" | jq -c . >"$T/jq" ||
        fail "output is not JSON"
    [ "$(wc -l <"$T/jq")" -eq 2 ] || fail "jq: $(cat "$T/jq")"
fi

# the span report: a key's spans are "<object path>.*", values below a
# redacted key show the replacement, no key text appears
"$P" --rules-only --jsonl-field '*' --jsonl-numbers --jsonl-keys --format jsonl "$T/in.jsonl" |
    sed 's/"file":"[^"]*",//' >"$T/spans"
cat >"$T/want" <<'EOF'
{"record":1,"field":"card","label":"account_number","start":0,"end":16,"source":"rule","rule":"card","score":1}
{"record":1,"field":"*","label":"private_email","start":0,"end":24,"source":"rule","rule":"email","score":1}
{"record":1,"field":"<PRIVATE_EMAIL>.k","label":"private_email","start":0,"end":15,"source":"rule","rule":"email","score":1}
{"record":1,"field":"l","label":"account_number","start":0,"end":16,"source":"rule","rule":"card","score":1}
{"record":2,"field":"*","label":"private_email","start":0,"end":6,"source":"rule","rule":"email","score":1}
{"record":2,"field":"<PRIVATE_EMAIL>","label":"account_number","start":0,"end":16,"source":"rule","rule":"card","score":1}
EOF
cmp -s "$T/spans" "$T/want" || fail "spans: $(cat "$T/spans")"
grep -q 'maria\|a@b' "$T/spans" && fail "a key leaked into the span report"

# --check sees them too (exit 1), and not without the options (exit 0)
"$P" --rules-only --check -q --jsonl-field card "$T/in.jsonl" >/dev/null 2>&1
[ $? -eq 0 ] || fail "--check without --jsonl-numbers"
"$P" --rules-only --check -q --jsonl-field card --jsonl-numbers "$T/in.jsonl" >/dev/null 2>&1
[ $? -eq 1 ] || fail "--check --jsonl-numbers"

# usage: only with --jsonl-field (exit 2, exact message)
for o in --jsonl-numbers --jsonl-keys; do
    printf 'x\n' | "$P" --rules-only "$o" >"$T/out" 2>"$T/err"
    rc=$?
    [ "$rc" -eq 2 ] || fail "$o alone: exit $rc"
    [ ! -s "$T/out" ] || fail "$o alone: stdout"
    [ "$(cat "$T/err")" = "pii-redact: --jsonl-numbers and --jsonl-keys apply to --jsonl-field
Try 'pii-redact --help' for more information." ] || fail "$o alone: '$(cat "$T/err")'"
done
"$P" --help | grep -q -- '--jsonl-numbers' || fail "--help lacks --jsonl-numbers"
"$P" --help | grep -q -- '--jsonl-keys' || fail "--help lacks --jsonl-keys"
exit 0
