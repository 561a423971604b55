# Issue 42 H1: --out-dir creates and enters every mirrored folder with
# mkdirat/openat(O_NOFOLLOW | O_DIRECTORY) from held descriptors, so a
# symbolic link planted in the output tree (by another local user who can
# write there) never leads a write elsewhere.  As root, and as nobody
# planting the link for a root run (setpriv), when both are possible here.
set -u
P=$PII_REDACT
fail() { echo "FAIL: $*"; exit 1; }
cd "$TMPDIR" || exit 1
E='Mail bob@example.com now.'
mkdir -p uploads/sub victim
printf '%s\n' "$E" >uploads/f.txt
printf '%s\n' "$E" >uploads/sub/g.txt

# A link at the first mirrored folder, and one deeper.
mkdir -p pub/red
ln -s "$PWD/victim" pub/red/uploads
"$P" --rules-only -q -r uploads --out-dir pub/red >out 2>err
rc=$?
[ $rc -eq 3 ] || fail "planted link: exit $rc"
[ -z "$(ls -A victim)" ] || fail "written through the link: $(ls -A victim)"
grep -qx 'pii-redact: uploads/f.txt: cannot create the output folder of pub/red/uploads/f.txt: a folder on its path is a symbolic link (not followed)' err ||
    fail "message: $(cat err)"
[ -L pub/red/uploads ] || fail "the link was replaced"
rm pub/red/uploads && mkdir -p pub/red/uploads
ln -s "$PWD/victim" pub/red/uploads/sub
"$P" --rules-only -q -r uploads --out-dir pub/red >out 2>err
[ $? -eq 3 ] || fail "deep link: exit"
[ -z "$(ls -A victim)" ] || fail "deep: written through the link"
[ "$(cat pub/red/uploads/f.txt)" = 'Mail <PRIVATE_EMAIL> now.' ] || fail "the other file"
# A link at the output's own name is replaced (the rename), not followed.
rm -rf pub/red/uploads && mkdir -p pub/red/uploads
printf 'keep\n' >victim/target
ln -s "$PWD/victim/target" pub/red/uploads/f.txt
"$P" --rules-only -q uploads/f.txt --out-dir pub/red >out 2>err || fail "link at the name: exit $?"
[ "$(cat victim/target)" = keep ] || fail "the named link's target was written"
[ -f pub/red/uploads/f.txt ] && [ ! -L pub/red/uploads/f.txt ] || fail "link at the name kept"
rm victim/target

# The scenario: a world-writable pub/ where nobody makes red/ and
# plants red/uploads -> victim; a root run then writes there.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
    chmod 755 "$TMPDIR" . 2>/dev/null
    rm -rf pub && mkdir pub && chmod 1777 pub
    chmod 700 victim
    if setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
        sh -c 'mkdir pub/red && ln -s "$1" pub/red/uploads' sh "$PWD/victim" 2>/dev/null; then
        [ "$(stat -c %U pub/red/uploads)" = nobody ] || fail "setup: link not nobody's"
        "$P" --rules-only -q -r uploads --out-dir pub/red >out 2>err
        [ $? -eq 3 ] || fail "nobody's link: exit"
        [ -z "$(ls -A victim)" ] || fail "nobody's link followed: $(ls -A victim)"
        # and nobody running the tool is held back the same way
        rm -f pub/red/uploads
        setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
            sh -c 'ln -s "$1" pub/red/uploads' sh "$PWD/victim"
        setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
            "$P" --rules-only -q -r uploads --out-dir pub/red >out 2>err
        [ $? -eq 3 ] || fail "as nobody: exit"
        echo "as nobody: checked"
    else
        echo "setpriv as nobody not possible here: root case only"
    fi
fi
echo ok
