# Git-aware walking (issue 22 part 2, issue 42 H4): -r skips .git/; --check
# honours .gitignore (nested), .git/info/exclude and the global excludes
# file (what git would not commit), never ripgrep's .ignore; the redaction
# modes read no ignore file (a tree to redact is redacted whole); every
# entry not read is listed in the report; --no-ignore and --hidden opt out.
# The list of files --check reads is compared with git's own answer (git
# ls-files --others --exclude-standard) on a real repository with
# negation, anchoring, "**" and folder patterns.
set -u
P=$PII_REDACT
T=$TMPDIR
fail() { echo "FAIL: $*"; exit 1; }
command -v git >/dev/null 2>&1 || { echo "git not installed: skipped"; exit 0; }
export HOME="$T/home" XDG_CONFIG_HOME="$T/xdg" GIT_CONFIG_NOSYSTEM=1
mkdir -p "$HOME" "$XDG_CONFIG_HOME/git"
R=$T/repo
git init -q "$R" || fail "git init"
cd "$R" || exit 1
E='Mail bob@example.com now.'
for f in a.txt b.log keep.log notes.tmp top.txt sub/top.txt sub/c.txt sub/d.bak \
    build/out.txt sub/build/o.txt deep/x/y/z.gen deep/k.gen docs/a/b/c.md docs/r.md \
    only/dir/f.txt only/f2.txt secret.env sub/nested/n.txt sub/nested/n.md \
    vendor/lib/v.txt vendor/lib/keep.txt; do
    mkdir -p "$(dirname "$f")"
    echo "$E" >"$f"
done
printf '%s\n' '*.log' '!keep.log' '/top.txt' 'build/' '**/y/*.gen' '*.tmp' 'only/*/' \
    'vendor/**' '!vendor/lib/keep.txt' '# a comment' 'trailing.txt   ' >.gitignore
printf '%s\n' '*.bak' 'nested/*.md' >sub/.gitignore
printf '%s\n' '*.env' >.git/info/exclude
printf '%s\n' '*.gen' >"$XDG_CONFIG_HOME/git/ignore"

walked() { # the files -r --check reads, from the report, without "./"
    "$P" -r "$@" --rules-only --check -q --report "$T/rep.json" >/dev/null 2>"$T/err"
    [ $? -le 1 ] || fail "walk $*: $(cat "$T/err")"
    jq -r '.files[] | select(.status != "skipped") | .path' "$T/rep.json" | sed 's|^\./||' | sort
}
redacted() { # the files a redaction walk reads
    "$P" -r "$@" --rules-only --format jsonl -q --report "$T/rep.json" >/dev/null 2>"$T/err" ||
        fail "walk $*: $(cat "$T/err")"
    jq -r '.files[] | select(.status != "skipped") | .path' "$T/rep.json" | sed 's|^\./||' | sort
}
git ls-files --others --exclude-standard | sort >"$T/git.list"
walked . >"$T/ours.list"
diff "$T/git.list" "$T/ours.list" >"$T/diff" || fail "walk differs from git: $(cat "$T/diff")"
# Sanity: the oracle itself ignores what it should and keeps the negations.
grep -qx 'keep.log' "$T/ours.list" || fail "negation lost"
grep -qx 'vendor/lib/keep.txt' "$T/ours.list" && fail "a file under an excluded folder re-included"
grep -qx 'sub/top.txt' "$T/ours.list" || fail "anchored pattern matched below"
for x in b.log notes.tmp top.txt build/out.txt sub/build/o.txt deep/x/y/z.gen deep/k.gen \
    secret.env sub/d.bak sub/nested/n.md only/dir/f.txt; do
    grep -qx "$x" "$T/ours.list" && fail "$x not ignored"
done
grep -q '^\.git/' "$T/ours.list" && fail ".git walked"

# core.excludesFile in the git config overrides the XDG default.
printf '%s\n' '*.cfgignored' >"$HOME/my-excludes"
printf '[core]\n\texcludesFile = ~/my-excludes\n' >"$HOME/.gitconfig"
echo "$E" >x.cfgignored
git ls-files --others --exclude-standard | sort >"$T/git.list"
walked . >"$T/ours.list"
diff "$T/git.list" "$T/ours.list" >"$T/diff" || fail "core.excludesFile: $(cat "$T/diff")"
grep -qx 'deep/k.gen' "$T/ours.list" || fail "XDG ignore used although core.excludesFile is set"
rm -f "$HOME/.gitconfig" x.cfgignored

# A walk that starts below the top reads the ignore files above it.
(cd sub && walked .) >"$T/sub.list"
printf '%s\n' .gitignore c.txt nested/n.txt top.txt >"$T/want"
diff "$T/want" "$T/sub.list" >"$T/diff" || fail "walk from sub/: $(cat "$T/diff")"
cd "$T" || exit 1
walked repo/sub >"$T/sub2.list"
sed 's|^|repo/sub/|' "$T/want" | diff - "$T/sub2.list" >"$T/diff" || fail "repo/sub: $(cat "$T/diff")"
cd "$R" || exit 1

# The ignored entries are listed in the report (not read, not an error).
walked . >/dev/null
[ "$(jq -r '.files[] | select(.path == "./b.log") | .reason' "$T/rep.json")" = \
    'ignored by git (.gitignore, .git/info/exclude or core.excludesFile; --no-ignore reads it)' ] ||
    fail "b.log not listed as ignored"
[ "$(jq -r '.files[] | select(.path == "./build") | .status' "$T/rep.json")" = skipped ] ||
    fail "the ignored folder build/ not listed"
# .ignore (ripgrep's) is not read, in or out of git (issue 42 H4: a planted
# one hid committed files).
printf '%s\n' 'docs/**/c.md' '!b.log' >.ignore
walked . >"$T/ours.list"
grep -qx 'docs/a/b/c.md' "$T/ours.list" || fail ".ignore honoured"
grep -qx 'b.log' "$T/ours.list" && fail ".ignore negation re-included b.log"
mkdir -p "$T/plain/x" && echo "$E" >"$T/plain/x/a.txt" && echo "$E" >"$T/plain/x/b.md"
printf '*.md\n' >"$T/plain/.ignore"
printf '*.txt\n' >"$T/plain/.gitignore" # not a repository: .gitignore does not count
(cd "$T/plain" && walked .) >"$T/plain.list"
printf '%s\n' .gitignore .ignore x/a.txt x/b.md >"$T/want"
diff "$T/want" "$T/plain.list" >"$T/diff" || fail "outside git: $(cat "$T/diff")"
rm .ignore
# The redaction modes read no ignore file: every file but .git's.
redacted . >"$T/red.list"
find . -path ./.git -prune -o -type f -print | sed 's|^\./||' | sort >"$T/want"
diff "$T/want" "$T/red.list" >"$T/diff" || fail "redaction walk: $(cat "$T/diff")"

# --no-ignore reads no ignore file; --hidden walks .git too.
walked . --no-ignore >"$T/ours.list"
grep -qx 'b.log' "$T/ours.list" && grep -qx 'secret.env' "$T/ours.list" &&
    grep -qx 'deep/k.gen' "$T/ours.list" || fail "--no-ignore still ignores"
grep -q '^\.git/' "$T/ours.list" && fail "--no-ignore walked .git"
walked . --hidden >"$T/ours.list"
grep -qx '.git/HEAD' "$T/ours.list" || fail "--hidden did not walk .git"
jq -e '.summary.failed == 0' "$T/rep.json" >/dev/null || fail "--hidden: $(jq -c .summary "$T/rep.json")"
grep -qx 'b.log' "$T/ours.list" && fail "--hidden read no ignore file"

# --in-place never rewrites git's own files (the reported bug).
printf 'hook by bob@example.com\n' >.git/hooks/my-hook.sample
cp .git/hooks/my-hook.sample "$T/hook.orig"
"$P" -r . --in-place --rules-only -q || fail "in-place run"
cmp -s .git/hooks/my-hook.sample "$T/hook.orig" || fail ".git/hooks rewritten"
[ "$(cat a.txt)" = 'Mail <PRIVATE_EMAIL> now.' ] || fail "a.txt not redacted"
[ "$(cat b.log)" = 'Mail <PRIVATE_EMAIL> now.' ] || fail "a gitignored file was left (issue 42 H4)"

# Files named on the command line are taken whatever the ignore files say.
echo "$E" >b.log
[ "$("$P" --rules-only b.log)" = 'Mail <PRIVATE_EMAIL> now.' ] || fail "named file skipped"
"$P" --rules-only --check -q b.log >/dev/null
[ $? -eq 1 ] || fail "named file skipped by --check"
# The options need -r.
"$P" --no-ignore a.txt >/dev/null 2>&1
[ $? -eq 2 ] || fail "--no-ignore without -r accepted"
echo ok
