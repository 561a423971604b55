# --check --diff (issue 43, item 6): `git diff | pii-redact --check --diff`
# scans only the lines a diff adds and reports the new file's path and line
# numbers, so a change that only removes personal data passes; the
# fingerprints are those of a scan of the whole new file (one baseline
# serves both).  Deleted files, removed and context lines, commit messages
# of git show are not scanned; binary changes are skipped with a notice;
# git's quoted paths, diff -u's timestamps, several hunks and "\ No newline"
# are read right; text that is no diff is an error (exit 3), never clean.
set -u
P=$PII_REDACT
T=$TMPDIR
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "FAIL: $*"; exit 1; }
export GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.invalid \
    GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.invalid
mkdir "$T/r" && cd "$T/r" && git init -q . || exit 1
nv="na$(printf '\303\257')ve.txt"
printf 'keep\nold bob@example.com\nline3\n' >'sp ace.txt'
printf 'x\n' >"$nv"
printf 'gone carol@example.net\n' >del.txt
printf '\0\1\2bin' >b.bin
seq 1 40 >long.txt
printf 'no newline' >nonl.txt
git add -A && git commit -q -m base || fail "base commit"
# the change: PII removed in one place and added in others
printf 'keep\nline3\nnew dan@example.org\n' >'sp ace.txt'
printf 'x\ny\nz erin@example.com\n' >"$nv"
git rm -q del.txt
printf '\0\1\3bin' >b.bin
printf 'a\nb\nc\nd\nfrank@example.com\n' >added.txt
{ seq 1 3; echo 'grace@example.com'; seq 4 35; echo 'heidi@example.com'; seq 36 40; } >long.txt
printf 'no newline\nivan@example.com' >nonl.txt
git add -A

git diff --cached | "$P" --check --diff --rules-only >out 2>err
[ $? -eq 1 ] || fail "exit with added PII: $(cat err)"
fp() { "$P" --check --rules-only -q "$1" | sed -n "${2}p" | grep -o ' [0-9a-f]\{16\} ' | tr -d ' '; }
printf '%s\n' \
    "added.txt:5:1: private_email (rule) $(fp added.txt 1) [email]" \
    "long.txt:4:1: private_email (rule) $(fp long.txt 1) [email]" \
    "long.txt:37:1: private_email (rule) $(fp long.txt 2) [email]" \
    "$nv:3:3: private_email (rule) $(fp "$nv" 1) [email]" \
    "nonl.txt:2:1: private_email (rule) $(fp nonl.txt 1) [email]" \
    "sp ace.txt:3:5: private_email (rule) $(fp 'sp ace.txt' 1) [email]" | cmp -s - out ||
    fail "findings: $(cat out)"
grep -q '^pii-redact: b.bin: skipped: binary change (diff)$' err || fail "binary notice: $(cat err)"
grep -q 'carol\|bob' out && fail "a removed line was reported"
# the same with -U0 hunks and from a file
git diff --cached -U0 >d.patch
"$P" --check --diff --rules-only -q d.patch >out2
[ $? -eq 1 ] && cmp -s out out2 || fail "-U0 from a file: $(cat out2)"
rm d.patch

# diff.mnemonicPrefix: the new side is w/ (work tree), i/ (index)
git -c diff.mnemonicPrefix=true diff --cached | "$P" --check --diff --rules-only -q >out2
[ $? -eq 1 ] && cmp -s out out2 || fail "mnemonic prefixes: $(cat out2)"

# a change that only removes personal data passes, and so does an empty diff
git commit -q -m change || fail "commit"
printf 'keep\nline3\n' >'sp ace.txt'
git diff | "$P" --check --diff --rules-only >out 2>err
[ $? -eq 0 ] && [ ! -s out ] || fail "removal only: $(cat out err)"
git checkout -q -- 'sp ace.txt'
: | "$P" --check --diff --rules-only >out 2>err
[ $? -eq 0 ] && [ ! -s out ] || fail "empty diff: $(cat out err)"

# a baseline of the tree serves the diff (same fingerprints)
"$P" --check --rules-only -q -r . --exclude b.bin --baseline "$T/base" --write-baseline || fail "write baseline"
git show HEAD | "$P" --check --diff --rules-only -q --baseline "$T/base" >out
[ $? -eq 0 ] && [ ! -s out ] || fail "baseline over git show: $(cat out)"
# git show: the commit message is not scanned, the change is
git commit -q --allow-empty -m 'message mentions judy@example.com' || fail "empty commit"
git show HEAD~1 | "$P" --check --diff --rules-only -q | cut -d' ' -f1 >out
[ "$(wc -l <out)" -eq 6 ] || fail "git show: $(cat out)"
git show HEAD | "$P" --check --diff --rules-only -q >out
[ $? -eq 0 ] && [ ! -s out ] || fail "a commit message was scanned: $(cat out)"

# diff -u (timestamps after a TAB) and the SARIF of a diff
printf 'one\n' >"$T/a.txt" && printf 'one\ntwo mallory@example.com\n' >"$T/b.txt"
(cd "$T" && diff -u a.txt b.txt) | "$P" --check --diff --rules-only -q >out
[ "$(cut -d' ' -f1-3 out)" = 'b.txt:2:5: private_email (rule)' ] || fail "diff -u: $(cat out)"
git diff HEAD~2 HEAD~1 | "$P" --check --diff --rules-only -q --report-format sarif >out.sarif
[ $? -eq 1 ] || fail "sarif exit"
/usr/bin/python3 "$here/sarif_check.py" out.sarif >chk || fail "sarif: $(cat chk)"
grep -q '"uri":"sp%20ace.txt","uriBaseId":"SRCROOT"},"region":{"startLine":3,"startColumn":5}' out.sarif ||
    fail "sarif location: $(cat out.sarif)"

# what is not a diff fails (exit 3), and so does a hunk cut short
printf 'hello bob@example.com\n' | "$P" --check --diff --rules-only >out 2>err
[ $? -eq 3 ] && [ ! -s out ] || fail "plain text passed as a diff"
[ "$(cat err)" = 'pii-redact: --diff (standard input): not a unified diff: no diff, ---/+++ or commit line in it' ] ||
    fail "plain text message: $(cat err)"
printf -- '--- a/x\n+++ b/x\n@@ -1 +1,3 @@\n x\n+bob@example.com\n' | "$P" --check --diff --rules-only >out 2>err
[ $? -eq 3 ] && grep -q 'ends inside a hunk' err || fail "a cut hunk: $(cat err)"
grep -q bob err && fail "input text on stderr"
"$P" --diff x 2>err
[ $? -eq 2 ] && grep -q -- '--diff needs --check' err || fail "--diff without --check"
"$P" --check --diff --staged 2>err
[ $? -eq 2 ] || fail "--diff with --staged"
echo ok
