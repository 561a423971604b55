# Profile URLs written without scheme or www (issue 41, rule url_profile):
# github.com/NAME, instagram.com/NAME, linkedin.com/in/NAME, medium.com/@NAME
# are private_url with the rules alone and with the built-in model; a
# project's page, a site page and a host inside an e-mail or a longer URL
# are not.  Exact bytes; the JSON names the rule.
set -u
P=$PII_REDACT
T=$TMPDIR
fail() { echo "FAIL: $*"; exit 1; }

printf '%s\n' 'Find me at github.com/kofiasante or instagram.com/sofia.baranova.ph.' \
    'Also linkedin.com/in/jdoe, t.me/jdoe and medium.com/@jdoe' \
    'Code: github.com/nodejs/node and github.com/features' >"$T/in"
WANT='Find me at <PRIVATE_URL> or <PRIVATE_URL>.
Also <PRIVATE_URL>, <PRIVATE_URL> and <PRIVATE_URL>
Code: github.com/nodejs/node and github.com/features'
printf '%s\n' "$WANT" >"$T/want"
for mode in --rules-only ""; do
    # shellcheck disable=SC2086
    "$P" $mode "$T/in" >"$T/out" 2>"$T/err" || fail "exit $? ($mode)"
    cmp -s "$T/want" "$T/out" || { diff "$T/want" "$T/out"; fail "output ($mode)"; }
done
printf 'x github.com/kofiasante\n' | "$P" --rules-only --format json >"$T/json" || fail "json exit"
grep -q '"rule": *"url_profile"' "$T/json" || { cat "$T/json"; fail "json rule"; }
echo ok
