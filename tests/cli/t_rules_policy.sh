# The label policy in the rule tier (issue 40, docs/LABELS.md): a date is a
# rule finding only after a word of a person's event, a URL only when it
# names a person or carries personal data or a credential, a test log's
# "PASS: file" is no password; --all-dates-urls gives every date and URL
# back.  Exact bytes, with the rules alone and with the built-in model.
set -u
P=$PII_REDACT
T=$TMPDIR
fail() { echo "FAIL: $*"; exit 1; }

printf '%s\n' 'GNU GENERAL PUBLIC LICENSE Version 3, 29 June 2007' \
    'See https://www.gnu.org/licenses/ and https://github.com/nodejs/node/pull/42555 for details.' \
    'PASS: config.sub' \
    'Patient born on 12 March 1985 was admitted 2021-03-04.' \
    'Profile: https://github.com/kofiasante, reset link https://id.example.com/r?token=Zx81kq' \
    'DB_PASS: hunter2xyz' >"$T/in"

# expect NAME EXPECTED -- ARGS: stdout exact, exit 0
expect() {
    name=$1 want=$2
    shift 3
    "$P" "$@" "$T/in" >"$T/out" 2>"$T/err" || fail "$name: exit $? ($(cat "$T/err"))"
    printf '%s\n' "$want" >"$T/want"
    cmp -s "$T/want" "$T/out" || { diff "$T/want" "$T/out"; fail "$name"; }
}

POLICY='GNU GENERAL PUBLIC LICENSE Version 3, 29 June 2007
See https://www.gnu.org/licenses/ and https://github.com/nodejs/node/pull/42555 for details.
PASS: config.sub
Patient born on <PRIVATE_DATE> was admitted <PRIVATE_DATE>.
Profile: <PRIVATE_URL>, reset link <PRIVATE_URL>
DB_PASS: <SECRET>'
expect "rules, policy" "$POLICY" -- --rules-only
expect "rules + model, policy" "$POLICY" --

BROAD='GNU GENERAL PUBLIC LICENSE Version 3, <PRIVATE_DATE>
See <PRIVATE_URL> and <PRIVATE_URL> for details.
PASS: config.sub
Patient born on <PRIVATE_DATE> was admitted <PRIVATE_DATE>.
Profile: <PRIVATE_URL>, reset link <PRIVATE_URL>
DB_PASS: <SECRET>'
expect "rules, --all-dates-urls" "$BROAD" -- --rules-only --all-dates-urls
expect "rules + model, --all-dates-urls" "$BROAD" -- --all-dates-urls

# the rule that made each finding
"$P" --rules-only --format json "$T/in" | grep -o '"rule":"[a-z_]*"' | tr '\n' ' ' >"$T/rules"
[ "$(cat "$T/rules")" = '"rule":"date_context" "rule":"date_context" "rule":"url" "rule":"url" "rule":"password_assignment" ' ] ||
    fail "rules: $(cat "$T/rules")"
"$P" --list-rules | grep -q '^date_context' || fail "--list-rules has no date_context"
exit 0
