# --follow stays inside the argument's tree and file system unless
# --cross-devices (issue 18 M5: links led --in-place writes outside the
# tree, and a walk of / entered /sys).
set -e
P=$PII_REDACT
fail() { echo "FAIL: $*"; exit 1; }
cd "$TMPDIR"
mkdir -p tree/sub outside/dir
printf 'Mail bob.smith@example.com now.\n' >tree/a.txt
printf 'Mail out.side@example.org now.\n' >outside/o.txt
cp outside/o.txt outside/dir/d.txt
cp outside/o.txt o.orig
ln -s ../outside/o.txt tree/out-file
ln -s ../../outside/dir tree/sub/out-dir
mkdir -p tree/real && printf "Call +1 415-555-0199.\n" >tree/real/r.txt && ln -s ../real tree/sub/in-dir
set +e
"$P" --rules-only -r -j 1 --follow --in-place tree >out 2>err
rc=$?
set -e
[ $rc -eq 0 ] || fail "confined: exit $rc ($(cat err))"
cmp -s outside/o.txt o.orig || fail "confined: outside file rewritten"
cmp -s outside/dir/d.txt o.orig || fail "confined: outside folder's file rewritten"
grep -q 'tree/out-file: skipped: symbolic link leading out of the tree' err || fail "no notice (file)"
grep -q 'tree/sub/out-dir: skipped: symbolic link leading out of the tree' err || fail "no notice (dir)"
grep -q bob.smith tree/a.txt && fail "inside file not redacted"
# --check: a link not followed is the normal skip of a link (issue 43
# item 2): listed with its notice, not an error.
set +e
"$P" --rules-only -r --follow --check tree >out 2>err
rc=$?
set -e
[ $rc -eq 0 ] || fail "check: exit $rc"
grep -q 'tree/out-file: skipped: symbolic link leading out of the tree' err || fail "check: no notice"
# Asked for: followed.
"$P" --rules-only -r -j 1 --follow --cross-devices --in-place tree >out 2>err || fail "cross: exit $?"
grep -q out.side outside/o.txt && fail "--cross-devices: outside file not followed"
grep -q out.side outside/dir/d.txt && fail "--cross-devices: outside folder not followed"
# --cross-devices needs -r.
set +e
"$P" --rules-only --cross-devices tree/a.txt >out 2>err
rc=$?
set -e
[ $rc -eq 2 ] || fail "--cross-devices without -r: exit $rc"
echo ok
