# Issue 42 H4/H5 and issue 43 item 2: what a file the run does not read
# means.  Every file a walk does not read is listed in the report with its
# reason.  Binary files and links met in a walked tree are the normal skip
# (counted, not an error: a clean repository passes --check); a skip the
# user did not choose that could hide text (a temporary-file name, another
# file system) fails the run (exit 3) in --check and in the redaction
# modes; a file the user named is never skipped: NUL runs are text, a real
# binary fails (exit 3).  --check reads git's ignore files only (never
# .ignore); the redaction modes read none.  The baseline and report files
# are never scanned, so a baseline settles.
set -u
P=$PII_REDACT
. "$(dirname "$0")/lib.sh" # fail, run
cd "$TMPDIR" || exit 1
E='Mail bob@example.com now.'
R='Mail <PRIVATE_EMAIL> now.'
reason() { # report, path: the reason it lists for that path
    jq -r --arg p "$2" '.files[] | select(.path == $p) | .reason // .status' "$1"
}

# ---- H5: NUL runs are text; a named file is never skipped ----------------------
{ head -c 9000 /dev/zero; printf '%s\n' "$E"; } >app.log
{ head -c 9000 /dev/zero; printf '%s\n' "$R"; } >app.want
run 0 "$P" --rules-only app.log
cmp -s stdout.txt app.want || fail "copytruncate log: not redacted to stdout"
cp app.log app2.log
run 0 "$P" --rules-only -q --in-place app2.log
cmp -s app2.log app.want || fail "copytruncate log: --in-place left it"
printf 'a\000b\000%s\000' "$E" >print0.txt
run 0 "$P" --rules-only print0.txt
printf 'a\000b\000%s\000' "$R" | cmp -s - stdout.txt || fail "NUL-separated text"
# A real binary named: exit 3, nothing written, in every mode.
printf '\211PNG\r\n\032\n\000\000\000\rIHDR %s\n' "$E" >pic.png
cp pic.png pic.orig
run 3 "$P" --rules-only -q pic.png
[ ! -s stdout.txt ] || fail "named binary: output written"
[ "$(cat err)" = 'pii-redact: pic.png: binary file: not redacted (--binary redacts it as bytes)' ] ||
    fail "named binary: message: $(cat err)"
run 3 "$P" --rules-only -q --in-place pic.png
cmp -s pic.png pic.orig || fail "named binary changed"
run 3 "$P" --rules-only -q --out-dir ob pic.png
[ ! -e ob/pic.png ] || fail "named binary copied"
run 0 "$P" --rules-only -q --binary pic.png
grep -q 'PRIVATE_EMAIL' stdout.txt || fail "--binary"

# ---- issue 43 item 2: binaries and links in a walked tree are normal ----------
mkdir repo
printf 'Read me.\n' >repo/README.md
cp pic.orig repo/logo.png
ln -s README.md repo/link.md
run 0 "$P" --rules-only -r repo --check --report rep.json
[ "$(reason rep.json repo/logo.png)" = 'binary file (--binary redacts it)' ] || fail "png reason"
[ "$(reason rep.json repo/link.md)" = 'symbolic link (--follow follows it)' ] || fail "link reason"
jq -e '.summary.files == 3 and .summary.skipped == 2 and .summary.ok == 1' rep.json >/dev/null ||
    fail "summary: $(jq -c .summary rep.json)"
grep -q ', 2 skipped, 0 failed' err || fail "summary line: $(cat err)"
printf '%s\n' "$E" >>repo/README.md
run 1 "$P" --rules-only -r repo --check -q
# and a copytruncate log in the tree is scanned as text
printf 'Read me.\n' >repo/README.md
cp app.log repo/app.log
run 1 "$P" --rules-only -r repo --check -q
grep -q '^repo/app.log:1:9006: private_email' stdout.txt || fail "NUL-run log in tree: $(cat stdout.txt)"
rm repo/app.log

# ---- a baseline settles; the baseline and report are never scanned -------------
printf '%s\n' "$E" >repo/notes.txt
for i in 1 2 3; do
    run 0 "$P" --rules-only -r repo --check -q --baseline repo/.pii-baseline --write-baseline
    run 0 "$P" --rules-only -r repo --check -q --baseline repo/.pii-baseline --report repo/rep.json
    [ ! -s stdout.txt ] || fail "round $i: findings: $(cat stdout.txt)"
done
[ "$(reason repo/rep.json repo/.pii-baseline)" = 'the --baseline file' ] || fail "baseline reason"
[ "$(reason repo/rep.json repo/rep.json)" = 'the --report file' ] || fail "report reason"
rm repo/notes.txt repo/rep.json repo/.pii-baseline

# ---- H4: skips nobody chose fail the run ---------------------------------------
# A temporary-file name hides nothing any more.
printf '%s\n' "$E" >repo/.customers.csv.pii-redact-Ab12Cd
cp repo/.customers.csv.pii-redact-Ab12Cd tmp.orig
run 3 "$P" --rules-only -r repo --check -q --report rep.json
grep -qx 'pii-redact: repo/.customers.csv.pii-redact-Ab12Cd: skipped: named like a temporary file of pii-redact (a run in progress, or one that was killed: remove it)' err ||
    fail "tmp name: notice with -q: $(cat err)"
grep -qx 'pii-redact: 1 file or folder was not read for a reason that could hide text (see the notices or --report)' err ||
    fail "tmp name: summary: $(cat err)"
[ "$(jq -r '.files[] | select(.path == "repo/.customers.csv.pii-redact-Ab12Cd") | .status' rep.json)" = skipped ] ||
    fail "tmp name not listed"
run 3 "$P" --rules-only -r repo --in-place -q
cmp -s repo/.customers.csv.pii-redact-Ab12Cd tmp.orig || fail "tmp name rewritten"
rm repo/.customers.csv.pii-redact-Ab12Cd

# An .ignore file planted in the tree hides nothing (not read), in --check
# and in --in-place; outside and inside a git repository.
mkdir -p plain/sub
printf '*\n' >plain/.ignore
printf '%s\n' "$E" >plain/sub/a.txt
run 1 "$P" --rules-only -r plain --check -q
run 0 "$P" --rules-only -r plain --in-place -q
[ "$(cat plain/sub/a.txt)" = "$R" ] || fail ".ignore: --in-place left the PII"

# git's ignore files: --check skips what git would not commit (listed, not an
# error); the redaction modes redact the whole tree (gitignored logs too).
if command -v git >/dev/null 2>&1; then
    export HOME="$TMPDIR/h" XDG_CONFIG_HOME="$TMPDIR/x" GIT_CONFIG_NOSYSTEM=1
    mkdir -p "$HOME" g/logs && git init -q g
    printf '*.log\n' >g/.gitignore
    printf '%s\n' "$E" >g/logs/app.log
    printf 'clean\n' >g/README
    run 0 "$P" --rules-only -r g --check -q --report rep.json
    [ "$(reason rep.json g/logs/app.log)" = 'ignored by git (.gitignore, .git/info/exclude or core.excludesFile; --no-ignore reads it)' ] ||
        fail "gitignored: reason: $(reason rep.json g/logs/app.log)"
    [ "$(reason rep.json g/.git)" = 'git folder (--hidden walks it)' ] || fail ".git not listed"
    run 1 "$P" --rules-only -r g --check -q --no-ignore
    run 0 "$P" --rules-only -r g/logs --in-place -q
    [ "$(cat g/logs/app.log)" = "$R" ] || fail "gitignored log left by --in-place"
    # H5 through --staged: a staged log starting with NULs is scanned.
    (cd g && { head -c 9000 /dev/zero; printf '%s\n' "$E"; } >staged.txt && git add staged.txt)
    (cd g && "$P" --rules-only --check --staged -q >../stdout.txt 2>../err)
    [ $? -eq 1 ] || fail "--staged NUL-run file: exit $?: $(cat err)"
    # a staged baseline is not scanned either: the pre-commit path settles
    (cd g && "$P" --rules-only --check --staged -q --baseline .pii-baseline --write-baseline &&
        git add .pii-baseline &&
        "$P" --rules-only --check --staged -q --baseline .pii-baseline >../stdout.txt 2>../err)
    [ $? -eq 0 ] || fail "--staged with a staged baseline: $(cat stdout.txt err)"
fi

# A folder on another file system (a mount point) is not walked and fails
# the run (skipped only with --exclude; --cross-devices walks it).
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null 2>&1 &&
    unshare -m --propagation private true 2>/dev/null; then
    mkdir -p m/mnt && printf 'clean\n' >m/top.txt
    cat >mnt.sh <<EOS
mount -t tmpfs none m/mnt || exit 99
printf '%s\n' '$E' >m/mnt/f.txt
"$P" --rules-only -r m --check -q >o1 2>e1; echo \$? >rc1
"$P" --rules-only -r m --in-place -q >o2 2>e2; echo \$? >rc2
"$P" --rules-only -r m --check -q --exclude mnt >o3 2>e3; echo \$? >rc3
"$P" --rules-only -r m --check -q --cross-devices >o4 2>e4; echo \$? >rc4
EOS
    unshare -m --propagation private sh mnt.sh
    if [ -f rc1 ]; then
        [ "$(cat rc1)" = 3 ] || fail "mount point: --check exit $(cat rc1)"
        grep -qx 'pii-redact: m/mnt: skipped: folder on another file system, not walked (--cross-devices walks it, --exclude leaves it out)' e1 ||
            fail "mount point: notice: $(cat e1)"
        [ "$(cat rc2)" = 3 ] || fail "mount point: --in-place exit $(cat rc2)"
        [ "$(cat rc3)" = 0 ] || fail "mount point excluded: exit $(cat rc3)"
        [ "$(cat rc4)" = 1 ] || fail "mount point --cross-devices: exit $(cat rc4)"
    else
        echo "mount not possible here: mount point case not run"
    fi
fi
echo ok
