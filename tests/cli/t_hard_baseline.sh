# Issue 42 H2: --write-baseline writes through a new temporary file (never a
# planted name or link), mode 0600, renamed over the baseline when complete.
set -u
P=$PII_REDACT
fail() { echo "FAIL: $*"; exit 1; }
cd "$TMPDIR" || exit 1
mkdir -p d
printf 'a bob@example.com\n' >d/t.txt
printf 'do not touch\n' >victim
cp victim victim.orig
# The old fixed temporary name, planted as a link to a victim, and as a
# link at the baseline's own name's temporary siblings.
ln -s "$PWD/victim" base.txt.tmp
"$P" --rules-only -r d --check -q --baseline base.txt --write-baseline >out 2>err
rc=$?
[ $rc -eq 0 ] || fail "write-baseline: exit $rc: $(cat err)"
cmp -s victim victim.orig || fail "the planted link's target was written"
[ -L base.txt.tmp ] || fail "the planted link was replaced"
[ -f base.txt ] && [ ! -L base.txt ] || fail "no baseline"
[ "$(grep -vc '^#' base.txt)" -eq 1 ] || fail "baseline lines: $(cat base.txt)"
[ "$(stat -c %a base.txt)" = 600 ] || fail "baseline mode $(stat -c %a base.txt), want 600"
[ "$(ls -a | grep -c 'base.txt.tmp-')" -eq 0 ] || fail "a temporary file stayed: $(ls -a)"
# A baseline that is a link is replaced as a name (the link), its target kept.
rm base.txt
ln -s "$PWD/victim" base.txt
"$P" --rules-only -r d --check -q --baseline base.txt --write-baseline >out 2>err ||
    fail "write-baseline over a link: exit $?"
cmp -s victim victim.orig || fail "the baseline link's target was written"
[ -f base.txt ] && [ ! -L base.txt ] || fail "baseline link not replaced"
# A folder that cannot be written: exit 3, nothing left behind.
mkdir ro && chmod 555 ro
if [ "$(id -u)" != 0 ]; then
    "$P" --rules-only -r d --check -q --baseline ro/b.txt --write-baseline >out 2>err
    [ $? -eq 3 ] || fail "unwritable folder: exit"
    grep -q '^pii-redact: --baseline ro/b.txt: Permission denied$' err || fail "msg: $(cat err)"
fi
echo ok
