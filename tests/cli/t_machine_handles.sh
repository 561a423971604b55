# Issue 41: a handle (@priya.r) is a person's (private_person) after a word
# that addresses one (DM, ping, cc, follow, contact, message, reach out to,
# thanks, by, from) or starting a chat line before ": "; never a code word
# (@media, @Override, @param, decorators), an npm scope (@babel/core), an
# e-mail address, a group mention or a system account.
set -e
P=$PII_REDACT
fail() { echo "FAIL: $*"; exit 1; }
cd "$TMPDIR"
printf 'DM @priya.r for access.\nping @kofi_asante, cc: @sofia.b\n@dmitri.p: can you review?\n' >in
printf 'reach out to @maria.garcia. Follow @li-wei\n' >>in
printf '@media screen { color: red }\n  @Override\n  public void run() {}\n' >>in
printf 'import x from @babel/core\n/** @param x the value */\n@app.route("/x")\n' >>in
printf 'cc @here, thanks @root\n' >>in
cat >want <<'TXT'
DM <PRIVATE_PERSON> for access.
ping <PRIVATE_PERSON>, cc: <PRIVATE_PERSON>
<PRIVATE_PERSON>: can you review?
reach out to <PRIVATE_PERSON>. Follow <PRIVATE_PERSON>
@media screen { color: red }
  @Override
  public void run() {}
import x from @babel/core
/** @param x the value */
@app.route("/x")
cc @here, thanks @root
TXT
$P --rules-only <in >out
cmp out want || fail "--rules-only: $(cat out)"
$P <in >out2
cmp out2 want || fail "default: $(cat out2)"
# the label and the rule
$P --rules-only --format jsonl <in | head -1 >sp
grep -q '"label":"private_person","start":3,"end":11,"source":"rule","rule":"handle_context"' sp ||
    fail "span: $(cat sp)"
# an e-mail address stays an e-mail
[ "$(printf 'from priya.r@example.com\n' | $P --rules-only)" = 'from <PRIVATE_EMAIL>' ] ||
    fail "email"
exit 0
