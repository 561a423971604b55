# Names written "Family, Given" (issue 41, rule name_inverted, docs/NER.md):
# found in text and in records mode with the built-in model, with their own
# rule id; places ("Springfield, Illinois", "Paris, France") stay; off with
# --no-name-lexicon.  Exact bytes.
set -u
P=$PII_REDACT
T=$TMPDIR
fail() { echo "FAIL: $*"; exit 1; }

printf '%s\n' 'Reported by Nguyen, Thi Mai and Okafor, Chinedu on Monday.' \
    'Shipping: Springfield, Illinois and Paris, France.' >"$T/in"
"$P" "$T/in" >"$T/out" 2>"$T/err" || fail "text: exit $?"
printf '%s\n' 'Reported by <PRIVATE_PERSON> and <PRIVATE_PERSON> on Monday.' \
    'Shipping: Springfield, Illinois and Paris, France.' >"$T/want"
cmp -s "$T/want" "$T/out" || { diff "$T/want" "$T/out"; fail "text"; }

"$P" --format json "$T/in" >"$T/json" || fail "json: exit $?"
grep -q '"start":32,"end":47,"source":"model","rule":"name_inverted"' "$T/json" ||
    { cat "$T/json"; fail "json rule"; }

printf '%s\n' '{"note":"Reported by Nguyen, Thi Mai and Okafor, Chinedu on Monday."}' \
    '{"city":"Springfield, Illinois"}' >"$T/rec"
"$P" --jsonl-field note --jsonl-field city "$T/rec" >"$T/out" 2>"$T/err" || fail "records: exit $?"
printf '%s\n' '{"note":"Reported by <PRIVATE_PERSON>, <PRIVATE_PERSON> and <PRIVATE_PERSON> on Monday."}' \
    '{"city":"Springfield, Illinois"}' >"$T/want"
cmp -s "$T/want" "$T/out" || { diff "$T/want" "$T/out"; fail "records"; }

"$P" --no-name-lexicon --format json "$T/in" >"$T/json" || fail "off: exit $?"
grep -q name_inverted "$T/json" && { cat "$T/json"; fail "--no-name-lexicon"; }
echo ok
