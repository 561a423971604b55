# Every line of the man page's EXAMPLES section runs, as written, in a
# scratch folder holding the files the examples name; each exits 0 and no
# output it writes (stdout or files) holds the fixtures' e-mail addresses or
# phone numbers.  The lines come from man/pii-redact.1 itself, so the page
# cannot show an example the command refuses.  Two stand-ins make the
# examples finish: `tail -f FILE` is a shim that prints FILE and ends, and
# `--staged` and `git diff HEAD` run in a repository whose index adds a
# line with PII.
set -e
P=$PII_REDACT
fail() { echo "FAIL: $*"; exit 1; }
here=$(pwd)
w=$TMPDIR/ex
mkdir -p "$w/bin" "$w/tickets" "$w/logs" "$w/repo"
ln -s "$P" "$w/bin/pii-redact"
cat >"$w/bin/tail" <<'EOF'
#!/bin/sh
# tail -f FILE, for a test: print FILE once and end.
[ "$1" = -f ] && shift
exec cat "$@"
EOF
chmod +x "$w/bin/tail"

# The fixtures: every value below is one the rule tier finds by itself.
pii='ana.lopez@example.org +44 20 7946 0958 (415) 555-0132'
line='Contact ana.lopez@example.org or +44 20 7946 0958, fax (415) 555-0132.'
printf '%s\n' "$line" >"$w/app.log"
printf 'Meeting notes.\n%s\n' "$line" >"$w/notes.txt"
printf 'alice: hi\nbob: %s\n' "$line" >"$w/chat.txt"
printf 'id,phone,notes\n1,(415) 555-0132,"mail ana.lopez@example.org"\n' >"$w/export.csv"
printf 'Ticket 1: %s\n' "$line" >"$w/tickets/t1.txt"
printf 'not included: %s\n' "$line" >"$w/tickets/t2.md"
printf '%s\n' "$line" >"$w/logs/a.log"
printf '{"message":"%s","user":{"email":"ana.lopez@example.org"}}\n' "$line" >"$w/events.ndjson"
printf 'README\n' >"$w/repo/README.md"
printf 'owner: ana.lopez@example.org\n' >"$w/repo/OWNERS"
for i in 1 2 3 4 5 6 7 8; do printf '%s %s\n' "$i" "$line"; done >"$w/big.log"
(cd "$w" && git init -q gitrepo && cd gitrepo && printf 'a\n' >f.txt && git add f.txt &&
    git -c user.name=t -c user.email=t@t commit -qm init && printf '%s\n' "$line" >>f.txt &&
    git add f.txt)

# The examples, un-escaped from roff.
sed -n '/^\.SH EXAMPLES/,/^\.SH /p' man/pii-redact.1 | sed -n '/^\.nf/,/^\.fi/p' |
    sed -e '/^\.nf/d' -e '/^\.fi/d' -e 's/\\-/-/g' -e 's/\\e/\\/g' >"$w/examples"
n=$(wc -l <"$w/examples")
[ "$n" -ge 10 ] || fail "only $n examples found in the man page"

i=0
while IFS= read -r ex; do
    i=$((i + 1))
    dir=$w
    case $ex in *--staged* | git\ diff*) dir=$w/gitrepo ;; esac
    set +e
    (cd "$dir" && PATH="$w/bin:$PATH" sh -c "$ex") >"$w/out.$i" 2>"$w/err.$i" </dev/null
    rc=$?
    set -e
    [ "$rc" -eq 0 ] || { cat "$w/err.$i"; fail "example $i exits $rc: $ex"; }
    case $ex in
    *'PII in the next commit'*) grep -qx 'PII in the next commit' "$w/out.$i" ||
        fail "example $i: the staged change was called clean" ;;
    *'PII in this change'*) grep -qx 'PII in this change' "$w/out.$i" ||
        fail "example $i: the diff was called clean" ;;
    *'PII somewhere'*) grep -qx 'PII somewhere in repo/' "$w/out.$i" || fail "example $i: repo/ was called clean" ;;
    printf*) grep -qx 'Mail <PRIVATE_EMAIL> or call <PRIVATE_PHONE> today.' "$w/out.$i" ||
        fail "example $i: $(cat "$w/out.$i")" ;;
    esac
done <"$w/examples"
cd "$here"

# Nothing any example wrote keeps a fixture value (the inputs themselves,
# the git repository and the check examples' file listings aside).
[ -f "$w/redacted/tickets/t1.txt" ] || fail "the --out-dir example wrote no redacted/tickets/t1.txt"
[ ! -e "$w/redacted/tickets/t2.md" ] || fail "--include '*.txt' copied t2.md"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$w/report.json" || fail "report.json is not JSON"
python3 -c '
import json, sys
for l in open(sys.argv[1]): json.loads(l)' "$w/clean.ndjson" || fail "clean.ndjson is not JSON Lines"
for f in "$w"/out.* "$w"/redacted/tickets/* "$w"/logs/* "$w"/clean.*; do
    for v in ana.lopez@example.org '7946 0958' '555-0132'; do
        if grep -qF -- "$v" "$f"; then fail "$(basename "$f") keeps $v"; fi
    done
done
echo "man examples: $n lines run"
