# --check --staged (issue 22 part 3, docs/CI.md): the staged blobs of a
# real repository are scanned, not the working-tree files, and findings
# carry the paths (from the top of the repository) and the line numbers of
# the staged content.  Deleted files are not scanned; binary files,
# symbolic links and submodules are skipped; a git that fails mid-blob fails
# the file (exit 3); outside a work tree it is exit 3; the pre-commit hook
# line of docs/CI.md stops a commit.
set -u
P=$PII_REDACT
T=$TMPDIR
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "FAIL: $*"; exit 1; }
command -v git >/dev/null 2>&1 || { echo "skip: no git"; exit 0; }
export HOME="$T/home" GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t \
    GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
mkdir -p "$HOME"
cd "$T" || exit 1
# positions without the fingerprints
pos() { cut -d' ' -f1-3 "$1"; }

git init -q r && cd r || fail "git init"
printf 'line one\nmail bob@example.com\n' >a.txt
printf 'clean\n' >b.txt
mkdir sub && printf 'x\n\ny carol@example.net\n' >sub/c.txt
git add a.txt b.txt sub/c.txt
# the working tree now differs from the index both ways
printf 'line one\nno mail here\n' >a.txt
printf 'z dave@example.org\n' >b.txt

"$P" --check --staged --rules-only -q >out 2>err
[ $? -eq 1 ] || fail "exit with staged findings"
pos out >got
printf 'a.txt:2:6: private_email (rule)\nsub/c.txt:3:3: private_email (rule)\n' | cmp -s - got ||
    fail "staged findings: $(cat out)"
[ ! -s err ] || fail "stderr: $(cat err)"
grep -q example out && fail "a value was printed"
# the fingerprint is the one a scan of the same content at the same path gives
cp a.txt wt-a && git show :a.txt >a.txt
"$P" --check --rules-only -q a.txt >plain
[ "$(cat plain)" = "$(sed -n 1p out)" ] || fail "fingerprint differs: $(cat plain) / $(cat out)"
mv wt-a a.txt
# the working tree alone would say something else
"$P" --check --rules-only -q a.txt b.txt | pos /dev/stdin >wt
[ "$(cat wt)" = 'b.txt:1:3: private_email (rule)' ] || fail "working tree: $(cat wt)"

# From a subdirectory: paths stay relative to the top; FILEs are pathspecs.
(cd sub && "$P" --check --staged --rules-only -q) | pos /dev/stdin >got
printf 'a.txt:2:6: private_email (rule)\nsub/c.txt:3:3: private_email (rule)\n' | cmp -s - got ||
    fail "from sub/: $(cat got)"
(cd sub && "$P" --check --staged --rules-only -q c.txt) | pos /dev/stdin >got
[ "$(cat got)" = 'sub/c.txt:3:3: private_email (rule)' ] || fail "pathspec: $(cat got)"
"$P" --check --staged --rules-only -q b.txt >out
[ $? -eq 0 ] && [ ! -s out ] || fail "a clean staged file: $(cat out)"

# SARIF of the staged content is valid and points at the staged lines.
"$P" --check --staged --rules-only -q --report-format sarif >out.sarif
[ $? -eq 1 ] || fail "sarif exit"
/usr/bin/python3 "$here/sarif_check.py" out.sarif || fail "sarif invalid"
rm -f out.sarif

# After the commit nothing is staged: clean.  A staged edit is scanned at
# its staged line; a staged deletion is not scanned.
git add a.txt b.txt && git commit -q -m one && git reset -q HEAD 2>/dev/null
rm -f out got plain wt err
"$P" --check --staged --rules-only -q >out
[ $? -eq 0 ] && [ ! -s out ] || fail "nothing staged: $(cat out)"
printf '1\n2\n3\n4\nphone +1 415-555-0100\n' >>sub/c.txt
git add sub/c.txt
printf 'gone\n' >sub/c.txt
git rm -q --cached b.txt
"$P" --check --staged --rules-only -q | pos /dev/stdin >got
printf 'sub/c.txt:3:3: private_email (rule)\nsub/c.txt:8:7: private_phone (rule)\n' |
    cmp -s - got || fail "staged edit: $(cat got)"
git commit -q -m two && git checkout -q -- sub/c.txt

# Binary blobs are skipped with the notice batch mode gives; so are links.
printf 'bin\000ary\001 bob@example.com\n' >bin.dat
ln -s a.txt lnk
git add bin.dat lnk
"$P" --check --staged --rules-only >out 2>err
[ $? -eq 0 ] && [ ! -s out ] || fail "binary/link: $(cat out)"
grep -qx 'pii-redact: bin.dat: skipped: binary file (--binary redacts it)' err ||
    fail "binary notice: $(cat err)"
grep -qx 'pii-redact: lnk: skipped: symbolic link (staged)' err || fail "link notice: $(cat err)"
"$P" --check --staged --rules-only -q --binary bin.dat | pos /dev/stdin >got
[ "$(cat got)" = 'bin.dat:1:10: private_email (rule)' ] || fail "--binary staged: $(cat got)"
git commit -q -m three

# A git that fails in the middle of a blob fails the file: exit 3, and
# nothing is called clean.
printf 'a\nb carol@example.net\n' >d.txt && git add d.txt
real=$(command -v git)
mkdir -p "$T/fakebin"
cat >"$T/fakebin/git" <<EOF
#!/bin/sh
if [ "\$1" = cat-file ]; then printf 'a\n'; exit 1; fi
exec "$real" "\$@"
EOF
chmod +x "$T/fakebin/git"
PATH="$T/fakebin:$PATH" "$P" --check --staged --rules-only -q >out 2>err
[ $? -eq 3 ] || fail "git failure exit"
[ ! -s out ] || fail "git failure: findings $(cat out)"
grep -q '^pii-redact: d.txt: git cat-file [0-9a-f]* failed: the staged content was not read whole$' err ||
    fail "git failure message: $(cat err)"

# The pre-commit hook of docs/CI.md stops a commit with PII, not a clean one.
printf '#!/bin/sh\nexec "%s" --check --staged --rules-only -q\n' "$P" >.git/hooks/pre-commit
chmod +x .git/hooks/pre-commit
git commit -q -m pii >hook.out 2>&1 && fail "the hook let PII through"
grep -q '^d.txt:2:3: private_email (rule) [0-9a-f]\{16\} \[email\]$' hook.out || fail "hook: $(cat hook.out)"
rm -f hook.out
git reset -q && rm d.txt
printf 'fine\n' >e.txt && git add e.txt
git commit -q -m clean || fail "the hook stopped a clean commit"

# Usage and environment errors.
"$P" --staged --rules-only >/dev/null 2>err
[ $? -eq 2 ] && grep -qx 'pii-redact: --staged needs --check' err || fail "--staged without --check"
"$P" --check --staged -r . --rules-only >/dev/null 2>&1
[ $? -eq 2 ] || fail "--staged with -r"
cd "$T" && mkdir -p norepo && cd norepo || exit 1
GIT_CEILING_DIRECTORIES="$T" "$P" --check --staged --rules-only >out 2>err
[ $? -eq 3 ] || fail "outside a repository: exit"
[ "$(cat err)" = 'pii-redact: --staged: not inside a git work tree' ] || fail "outside: $(cat err)"
echo ok
