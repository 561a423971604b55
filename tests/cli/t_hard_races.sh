# Races between the walk and the work, made deterministic with the
# PII_REDACT_PAUSE test hook (src/testhook.c): the command stops at a
# point and waits on a FIFO; `at POINT CMD` opens the FIFO for writing
# (which returns once the command waits there), runs CMD, then lets it go.
# H1: a walked directory swapped for a symbolic link (or a file for a
# link) after the walk is never read or written through; H7: --in-place
# refuses to replace a file that changed while it was redacted.
# (Issue 18, H1 and H7.)
set -e
P=$PII_REDACT
fail() { echo "FAIL: $*"; exit 1; }
cd "$TMPDIR"
mkfifo pause
# run ARGS...: the command in the background, paused at $POINT
run() {
    set +e
    PII_REDACT_PAUSE="$POINT:$TMPDIR/pause" "$P" --rules-only "$@" >out 2>err &
    pid=$!
    set -e
}
at() { # CMD: runs CMD while the command is paused, then waits for it
    timeout 60 sh -c 'exec 3>"$1"; shift; eval "$*"; printf x >&3' _ "$TMPDIR/pause" "$@" ||
        fail "the command never paused"
    set +e
    wait $pid
    rc=$?
    set -e
}
fresh() {
    rm -rf tree outside od tree.old
    mkdir -p tree/sub outside
    printf 'Mail bob.smith@example.com today.\n' >tree/sub/a.txt
    printf 'Mail outside.person@example.org today.\n' >outside/a.txt
    cp outside/a.txt outside.orig
}

# H1: tree/sub becomes a link to ./outside between the walk and the open.
POINT=walked
for mode in "--out-dir od" "--in-place" "--suffix .red" "--check" "--format jsonl"; do
    fresh
    run -r $mode tree
    at 'mv tree/sub tree.old && ln -s "$PWD/outside" tree/sub'
    [ $rc -eq 3 ] || fail "$mode: exit $rc, want 3"
    grep -q 'tree/sub/a.txt: its directory changed since the walk' err ||
        fail "$mode: no message: $(cat err)"
    cmp -s outside/a.txt outside.orig || fail "$mode: outside file changed"
    [ -z "$(ls -A outside | grep -v '^a.txt$')" ] || fail "$mode: files written outside"
    [ ! -e od/tree/sub/a.txt ] || fail "$mode: outside file copied into the out-dir"
    grep -q outside.person out && fail "$mode: outside file read"
    grep -q outside.person err && fail "$mode: outside value on stderr"
done
# A walked file replaced by a link to a file outside.
fresh
run -r --out-dir od tree
at 'rm tree/sub/a.txt && ln -s "$PWD/outside/a.txt" tree/sub/a.txt'
[ $rc -eq 3 ] || fail "file link: exit $rc"
grep -q 'a.txt: is now a symbolic link' err || fail "file link: no message"
[ ! -e od/tree/sub/a.txt ] || fail "file link: written"
# A walked file replaced by another file (same name, new inode).
fresh
run -r --out-dir od tree
at 'cp outside/a.txt tree/sub/new && mv tree/sub/new tree/sub/a.txt'
[ $rc -eq 3 ] || fail "file replaced: exit $rc"
grep -q 'a.txt: was replaced since the walk' err || fail "file replaced: no message"
# Nothing changes: the same run succeeds (the hook itself is harmless).
fresh
run -r --out-dir od tree
at ':'
[ $rc -eq 0 ] || fail "no change: exit $rc"
grep -q '<PRIVATE_EMAIL>\|PRIVATE_EMAIL' od/tree/sub/a.txt || fail "no change: not redacted"

# H7: --in-place while the file is appended to, replaced or moved.
POINT=commit
for change in 'printf "appended line\n" >>tree/sub/a.txt' \
    'cp tree/sub/a.txt x && mv x tree/sub/a.txt' \
    'mv tree/sub/a.txt tree/sub/b.txt && printf "new\n" >tree/sub/a.txt'; do
    fresh
    run -r --in-place tree
    at "cp tree/sub/a.txt before 2>/dev/null || :; $change; cp tree/sub/a.txt after"
    [ $rc -eq 3 ] || fail "in-place [$change]: exit $rc, want 3"
    grep -q 'changed while it was redacted' err || fail "in-place [$change]: no message"
    cmp -s tree/sub/a.txt after || fail "in-place [$change]: file replaced anyway"
    ls -a tree/sub | grep -q 'pii-redact-' && fail "in-place [$change]: temporary file left"
done
# Unchanged: replaced by the redacted text.
fresh
run -r --in-place tree
at ':'
[ $rc -eq 0 ] || fail "in-place unchanged: exit $rc"
grep -q bob.smith tree/sub/a.txt && fail "in-place unchanged: not redacted"
echo ok
