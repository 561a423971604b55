# Provenance of the name heuristics (issue 40 item 4): a person span made by
# the name lexicon, an honorific or title, a citation or the name memory
# names it in JSON output (rule), in --check text ([RULE]), json (rule),
# csv (the rule column) and SARIF (message).  Built-in model, exact bytes.
set -u
P=$PII_REDACT
T=$TMPDIR
fail() { echo "FAIL: $*"; exit 1; }
printf 'Mr. Temple met Tom Baker (Porte, 2012). Later Temple and Baker left.\n' >"$T/in.txt"
cd "$T" || fail "cd"

"$P" --format json in.txt | grep -o '"spans":\[[^]]*\]' >out || fail "json: exit"
[ "$(cat out)" = '"spans":[{"label":"private_person","start":4,"end":10,"source":"model","rule":"honorific","score":0.75},{"label":"private_person","start":15,"end":24,"source":"model","rule":"name_lexicon","score":0.75},{"label":"private_person","start":26,"end":31,"source":"model","rule":"citation","score":0.75},{"label":"private_person","start":46,"end":52,"source":"model","rule":"name_memory","score":0.75},{"label":"private_person","start":57,"end":62,"source":"model","rule":"name_memory","score":0.75}]' ] ||
    fail "json spans: $(cat out)"

"$P" --check in.txt >out
[ $? -eq 1 ] || fail "--check: exit"
sed 's/ [0-9a-f]\{16\} / /' out >got
printf '%s\n' 'in.txt:1:5: private_person (model 0.75) [honorific]' \
    'in.txt:1:16: private_person (model 0.75) [name_lexicon]' \
    'in.txt:1:27: private_person (model 0.75) [citation]' \
    'in.txt:1:47: private_person (model 0.75) [name_memory]' \
    'in.txt:1:58: private_person (model 0.75) [name_memory]' >want
cmp -s want got || { diff want got; fail "--check text"; }

"$P" --check --report-format json in.txt >out.json
python3 -c 'import json; f=json.load(open("out.json"))["findings"]; assert [x.get("rule") for x in f]==["honorific","name_lexicon","citation","name_memory","name_memory"], f' ||
    fail "--check json"
"$P" --check --report-format csv in.txt | tail -n +2 | awk -F, '{print $NF}' | tr '\n' ' ' >out
[ "$(cat out)" = '"honorific" "name_lexicon" "citation" "name_memory" "name_memory" ' ] ||
    fail "--check csv: $(cat out)"
"$P" --check --report-format sarif in.txt | grep -o '"text":"private_person found ([a-z_, ]*)"' | tr '\n' ' ' >out
[ "$(cat out)" = '"text":"private_person found (model, rule honorific)" "text":"private_person found (model, rule name_lexicon)" "text":"private_person found (model, rule citation)" "text":"private_person found (model, rule name_memory)" "text":"private_person found (model, rule name_memory)" ' ] ||
    fail "--check sarif: $(cat out)"
# the rule tier's own findings name their rule in the json report too
printf 'mail bob@example.com\n' >r.txt
"$P" --rules-only --check --report-format json r.txt | grep -q '"source":"rule",.*"rule":"email"}' ||
    fail "--check json: rule tier"
# each part of the lexicon has its own switch
"$P" --no-honorifics --format json in.txt | grep -o '"rule":"[a-z_]*"' | tr '\n' ' ' >out
[ "$(cat out)" = '"rule":"name_lexicon" "rule":"citation" "rule":"name_memory" ' ] ||
    fail "--no-honorifics: $(cat out)"
"$P" --no-citations --format json in.txt | grep -o '"rule":"[a-z_]*"' | tr '\n' ' ' >out
[ "$(cat out)" = '"rule":"honorific" "rule":"name_lexicon" "rule":"name_memory" "rule":"name_memory" ' ] ||
    fail "--no-citations: $(cat out)"

# eval --dump-predictions names them too (tools/eval/heuristics.py reads it)
printf '{"id":"a","text":"Mr. Temple met Tom Baker.","scored_labels":["private_person"],"spans":[]}\n' >e.jsonl
"$P" eval --dump-predictions d.jsonl e.jsonl >/dev/null || fail "eval: exit"
[ "$(cat d.jsonl)" = '{"id":"a","spans":[{"start":4,"end":10,"label":"private_person","score":0.7500,"rule":"honorific"},{"start":15,"end":24,"label":"private_person","score":0.7500,"rule":"name_lexicon"}]}' ] ||
    fail "eval dump: $(cat d.jsonl)"
exit 0
