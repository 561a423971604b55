# The name recognizers that need no model run under --rules-only (issue 40
# item 4): the given-name lexicon, "Family, Given", the honorific, the
# citation and the name memory report their rule ids with source "rule" in
# JSON and --check output, each switch turns its part off, and the
# non-person filter drops what names no person.  Exact bytes.
set -u
P=$PII_REDACT
T=$TMPDIR
fail() { echo "FAIL: $*"; exit 1; }
cd "$T" || fail "cd"
printf 'Mr. Temple met Tom Baker (Porte, 2012). Later Temple and Baker left.\nGarcia, Maria\n' >in.txt

"$P" --rules-only --format json in.txt | grep -o '"spans":\[[^]]*\]' >out || fail "json: exit"
[ "$(cat out)" = '"spans":[{"label":"private_person","start":4,"end":10,"source":"rule","rule":"honorific","score":0.75},{"label":"private_person","start":15,"end":24,"source":"rule","rule":"name_lexicon","score":0.75},{"label":"private_person","start":26,"end":31,"source":"rule","rule":"citation","score":0.75},{"label":"private_person","start":46,"end":52,"source":"rule","rule":"name_memory","score":0.75},{"label":"private_person","start":57,"end":62,"source":"rule","rule":"name_memory","score":0.75},{"label":"private_person","start":69,"end":82,"source":"rule","rule":"name_inverted","score":0.75}]' ] ||
    fail "json spans: $(cat out)"

"$P" --rules-only --check in.txt >out
[ $? -eq 1 ] || fail "--check: exit"
sed 's/ [0-9a-f]\{16\} / /' out >got
printf '%s\n' 'in.txt:1:5: private_person (rule) [honorific]' \
    'in.txt:1:16: private_person (rule) [name_lexicon]' \
    'in.txt:1:27: private_person (rule) [citation]' \
    'in.txt:1:47: private_person (rule) [name_memory]' \
    'in.txt:1:58: private_person (rule) [name_memory]' \
    'in.txt:2:1: private_person (rule) [name_inverted]' >want
cmp -s got want || fail "--check: $(cat got)"

"$P" --rules-only in.txt >out || fail "text: exit"
printf '%s\n' 'Mr. <PRIVATE_PERSON> met <PRIVATE_PERSON> (<PRIVATE_PERSON>, 2012). Later <PRIVATE_PERSON> and <PRIVATE_PERSON> left.' \
    '<PRIVATE_PERSON>' >want
cmp -s out want || fail "text: $(cat out)"

# each switch turns its part off
rules() { "$P" --rules-only --format json "$@" in.txt | grep -o '"rule":"[a-z_]*"' | tr '\n' ' '; }
[ "$(rules --no-honorifics)" = '"rule":"name_lexicon" "rule":"citation" "rule":"name_memory" "rule":"name_inverted" ' ] ||
    fail "--no-honorifics: $(rules --no-honorifics)"
[ "$(rules --no-citations)" = '"rule":"honorific" "rule":"name_lexicon" "rule":"name_memory" "rule":"name_memory" "rule":"name_inverted" ' ] ||
    fail "--no-citations: $(rules --no-citations)"
[ "$(rules --no-name-memory)" = '"rule":"honorific" "rule":"name_lexicon" "rule":"citation" "rule":"name_inverted" ' ] ||
    fail "--no-name-memory: $(rules --no-name-memory)"
[ "$(rules --no-name-lexicon)" = '' ] || fail "--no-name-lexicon: $(rules --no-name-lexicon)"

# the non-person filter and the label policy: titles before institutional
# words, firms and greetings name no person; --no-name-filter shows the cut
printf 'Judge Kafka ruled. Mrs Serco said so. Dear Support, Payout failed.\nBaxter Moore Solicitors wrote. Ask Tom Baker.\n' >np.txt
"$P" --rules-only np.txt >out || fail "filter: exit"
printf '%s\n' 'Judge Kafka ruled. Mrs Serco said so. Dear Support, Payout failed.' \
    'Baxter Moore Solicitors wrote. Ask <PRIVATE_PERSON>.' >want
cmp -s out want || fail "filter: $(cat out)"
"$P" --rules-only --no-name-filter np.txt >out || fail "no filter: exit"
printf '%s\n' 'Judge <PRIVATE_PERSON> ruled. Mrs <PRIVATE_PERSON> said so. Dear Support, Payout failed.' \
    'Baxter Moore Solicitors wrote. Ask <PRIVATE_PERSON>.' >want
cmp -s out want || fail "no filter: $(cat out)"

# the name memory's reach back (4096 bytes) holds in a stream: a name
# taught 3,000 bytes after a word marks it, one 5,000 bytes after does not
{ printf 'Okafor came.'; head -c 3000 /dev/zero | tr '\0' ' '; printf 'Dr. Jane Okafor.\nNwosu came.'
  head -c 5000 /dev/zero | tr '\0' ' '; printf 'Dr. Ada Nwosu.\n'; } >reach.txt
"$P" --rules-only --format json <reach.txt | grep -o '"start":[0-9]*,"end":[0-9]*,"source":"rule","rule":"[a-z_]*"' | tr '\n' ' ' >out
[ "$(cat out)" = '"start":0,"end":6,"source":"rule","rule":"name_memory" "start":3016,"end":3027,"source":"rule","rule":"honorific" "start":8044,"end":8053,"source":"rule","rule":"honorific" ' ] ||
    fail "reach: $(cat out)"
exit 0
