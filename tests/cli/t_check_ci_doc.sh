# docs/CI.md's snippets, read from the page (the block after each
# "<!-- snippet: NAME -->" line) and run, so the page cannot drift (issue
# 43): the baseline workflow, the GitHub Actions and GitLab CI jobs' commands,
# the pre-commit config with Debian's pre-commit (3.0.4; offline: the hook
# repository is a local clone of this tree's .pre-commit-hooks.yaml at the
# tag the page names, which must be the version), the plain git hook and
# the --diff scan of a commit.
# A throwaway repository with a PNG, a symbolic link, old test data and its
# baseline passes (exit 0); the same with new personal data fails (exit 1).
set -u
P=$PII_REDACT
T=$TMPDIR
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
doc=$root/docs/CI.md
PY=/usr/bin/python3
fail() { echo "FAIL: $*"; exit 1; }
snippet() { # NAME: the fenced block after the marker, fences left out
    awk -v m="<!-- snippet: $1 -->" '$0 == m {on = 1; next}
        on == 1 && /^```/ {on = 2; next} on == 2 && /^```/ {exit} on == 2 {print}' "$doc"
}
command -v pre-commit >/dev/null || fail "pre-commit is not installed (make setup installs Debian's)"
mkdir -p "$T/bin" && ln -s "$P" "$T/bin/pii-redact"
PATH=$T/bin:$PATH
export PATH PRE_COMMIT_HOME="$T/pre-commit-cache" GIT_CONFIG_NOSYSTEM=1 \
    GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.invalid GIT_COMMITTER_NAME=t \
    GIT_COMMITTER_EMAIL=t@example.invalid
for s in baseline github-actions gitlab-ci pre-commit-config git-hook diff; do
    [ -n "$(snippet $s)" ] || fail "docs/CI.md has no snippet $s"
done

# a repository as users have them: a README, an image, a symbolic link and
# old test data with an e-mail address
new_repo() {
    rm -rf "$T/repo" && mkdir "$T/repo" && cd "$T/repo" && git init -q . || exit 1
    printf '# demo\nNothing personal here.\n' >README.md
    printf '\211PNG\r\n\032\n\0\0\0\rIHDR\0\0\0\1\0\0\0\1\10\6\0\0\0\37\25\304\211' >logo.png
    ln -s README.md link.md
    mkdir tests && printf 'user,mail\nbob,bob@example.com\n' >tests/users.csv
    git add -A && git commit -q -m init || exit 1
}
# the CI secret of the jobs (the page's "..." placeholder and ${{ secrets.* }})
KEY=0123456789abcdef0123456789abcdef

# ---- the baseline workflow ----
new_repo
snippet baseline | sed "s/PII_REDACT_KEY=\.\.\./PII_REDACT_KEY=$KEY/" >"$T/baseline.sh"
grep -q "^export PII_REDACT_KEY=$KEY " "$T/baseline.sh" || fail "the baseline snippet sets no key"
sh -e "$T/baseline.sh" >out 2>err || fail "baseline snippet: exit $? $(cat err)"
grep -q '^[0-9a-f]\{16\} tests/users.csv:2 private_email$' .pii-baseline ||
    fail "baseline: $(cat .pii-baseline)"
# keyed: without the key the baseline matches nothing
pii-redact --check --rules-only -q -r . --baseline .pii-baseline >/dev/null 2>&1
[ $? -eq 1 ] || fail "an unkeyed check matched the keyed baseline"
git commit -q -m baseline || fail "commit the baseline"

# ---- GitHub Actions and GitLab CI: the jobs' commands ----
snippet github-actions >"$T/gha.yml"
snippet gitlab-ci >"$T/gitlab.yml"
$PY - "$T" <<'PYEOF' || fail "the CI snippets are not the expected YAML"
import sys, yaml
t = sys.argv[1]
gha = yaml.safe_load(open(t + "/gha.yml"))
steps = gha["jobs"]["pii"]["steps"]
runs = [s for s in steps if "run" in s]
assert len(runs) == 1 and [s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif")], steps
env = "".join("export %s='%s'\n" % (k, "$KEY" if v == "${{ secrets.%s }}" % k else v)
              for k, v in runs[0].get("env", {}).items())
assert "PII_REDACT_KEY" in env, runs[0]
open(t + "/gha.sh", "w").write(env.replace("'$KEY'", '"$KEY"') + runs[0]["run"] + "\n")
gl = yaml.safe_load(open(t + "/gitlab.yml"))
open(t + "/gitlab.sh", "w").write("\n".join(gl["pii"]["script"]) + "\n")
PYEOF
export KEY
sh -e "$T/gha.sh" 2>err || fail "GitHub Actions step on a clean tree: exit $? $(cat err)"
$PY "$here/sarif_check.py" pii.sarif >chk || fail "pii.sarif: $(cat chk)"
rm pii.sarif # each job has its own checkout
PII_REDACT_KEY=$KEY sh -e "$T/gitlab.sh" 2>err || fail "GitLab job on a clean tree: exit $? $(cat err)"
[ "$(cat pii.json)" = '{"findings":[]}' ] || fail "pii.json: $(cat pii.json)"
rm -f pii.sarif pii.json
printf 'call carol@example.net\n' >contact.txt
sh -e "$T/gha.sh" 2>err
[ $? -eq 1 ] || fail "GitHub Actions step with new PII: exit $?"
$PY "$here/sarif_check.py" pii.sarif >chk || fail "pii.sarif with a finding: $(cat chk)"
grep -q '"uri":"contact.txt","uriBaseId":"SRCROOT"' pii.sarif || fail "the finding in pii.sarif"
rm pii.sarif
PII_REDACT_KEY=$KEY sh -e "$T/gitlab.sh" 2>err
[ $? -eq 1 ] || fail "GitLab job with new PII: exit $?"
grep -q '"path":"contact.txt","line":1,"column":6' pii.json || fail "pii.json: $(cat pii.json)"
rm -f pii.json contact.txt

# ---- pre-commit: the hook repository at the tag the page names ----
new_repo
"$P" --check --rules-only -q tests/users.csv --baseline .pii-baseline --write-baseline ||
    fail "baseline of the media repository"
git add .pii-baseline && git commit -q -m baseline || fail "commit the baseline"
rev=$(snippet pre-commit-config | sed -n 's/^ *rev: *//p')
[ "$rev" = "v$("$P" --version | sed -n 's/^pii-redact //p')" ] || fail "rev $rev is not the version"
mkdir "$T/hooks" && cp "$root/.pre-commit-hooks.yaml" "$T/hooks/" &&
    (cd "$T/hooks" && git init -q . && git add -A && git commit -q -m hooks && git tag "$rev") ||
    fail "hook repository"
pre-commit validate-manifest "$T/hooks/.pre-commit-hooks.yaml" || fail "the manifest is invalid"
snippet pre-commit-config | sed "s|^\( *- repo: \).*|\1$T/hooks|" >.pre-commit-config.yaml
git add .pre-commit-config.yaml && git commit -q -m config || fail "commit the config"
pre-commit run --all-files >out 2>&1 || fail "pre-commit on a clean repository: $(cat out)"
grep -q '^pii-redact (personal data)\.*Passed$' out || fail "hook did not run: $(cat out)"
pre-commit install >/dev/null || fail "pre-commit install"
printf 'call carol@example.net\n' >contact.txt && git add contact.txt
pre-commit run --all-files >out 2>&1
[ $? -eq 1 ] || fail "pre-commit with new PII: $(cat out)"
grep -q '^contact.txt:1:6: private_email (rule) [0-9a-f]\{16\} \[email\]$' out || fail "finding: $(cat out)"
git commit -q -m pii >out 2>&1 && fail "the commit with PII went through"
git rm -q --cached contact.txt && rm contact.txt
printf 'more text\n' >>README.md && git add README.md
git commit -q -m clean >out 2>&1 || fail "a clean commit was stopped: $(cat out)"

# ---- a change: --diff over the last commit ----
snippet diff >"$T/diff.sh"
git commit -q --allow-empty -m empty >/dev/null 2>&1 || fail "empty commit"
sh -e "$T/diff.sh" >out 2>&1 || fail "diff snippet over a clean commit: $(cat out)"
printf 'call carol@example.net\n' >contact.txt && git add contact.txt && git commit -q -n -m pii ||
    fail "commit with PII (hooks bypassed)"
sh -e "$T/diff.sh" >out 2>&1
[ $? -eq 1 ] || fail "diff snippet over PII: exit $?"
grep -q '^contact.txt:1:6: private_email (rule) [0-9a-f]\{16\} \[email\]$' out || fail "diff: $(cat out)"
git rm -q contact.txt && git commit -q -n -m 'remove it' || fail "commit the removal"
sh -e "$T/diff.sh" >out 2>&1 || fail "diff snippet over a removal: $(cat out)"

# ---- the plain git hook ----
new_repo
snippet git-hook >.git/hooks/pre-commit && chmod +x .git/hooks/pre-commit
printf 'call carol@example.net\n' >contact.txt && git add contact.txt
git commit -q -m pii >out 2>&1 && fail "the git hook let PII through"
grep -q '^contact.txt:1:6: private_email (rule) [0-9a-f]\{16\} \[email\]$' out || fail "git hook: $(cat out)"
git rm -q --cached contact.txt
printf 'more text\n' >>README.md && git add README.md
git commit -q -m clean >out 2>&1 || fail "the git hook stopped a clean commit: $(cat out)"
echo ok
