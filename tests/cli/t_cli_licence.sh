# The licence (issue 43, item 1): LICENSE at the root is the Apache License
# 2.0, --version names it, and `make install DESTDIR=...` installs it with
# every third-party notice of what the binary embeds (the tiktoken
# vocabulary, the default model, the name lexicons), byte for byte;
# `make uninstall` removes them again.
set -u
P=$PII_REDACT
T=$TMPDIR
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
fail() { echo "FAIL: $*"; exit 1; }

head -4 "$root/LICENSE" | grep -q '^ *Apache License$' || fail "LICENSE is not the Apache License"
grep -q '^ *Version 2.0, January 2004$' "$root/LICENSE" || fail "LICENSE version"
grep -q 'END OF TERMS AND CONDITIONS' "$root/LICENSE" || fail "LICENSE is not the full text"
"$P" --version >"$T/v" 2>&1 || fail "--version"
grep -qx 'license: Apache-2.0 (LICENSE); third-party notices (the tiktoken vocabulary, the default model, the name lexicons) are installed with it in share/pii-redact/' "$T/v" ||
    fail "--version names the licence: $(cat "$T/v")"
grep -q 'Apache License, Version 2.0' "$root/README.md" || fail "README names the licence"

# every notice, installed where --version says; nothing the tree holds is left out
stage=$T/stage
make -s -C "$root" install DESTDIR="$stage" PREFIX=/usr/local >"$T/mk" 2>&1 || fail "make install: $(tail -5 "$T/mk")"
doc=$stage/usr/local/share/pii-redact
for pair in LICENSE:LICENSE tokenizer/data/LICENSE.tiktoken:TOKENIZER-NOTICE.tiktoken \
    models/default/NOTICE:MODEL-NOTICE ner/data/LICENSE.faker-js:LEXICON-NOTICE.faker-js \
    ner/data/LICENSE.scowl:LEXICON-NOTICE.scowl; do
    cmp -s "$root/${pair%%:*}" "$doc/${pair#*:}" || fail "not installed: ${pair%%:*} as $doc/${pair#*:}"
done
# the notices of the sources compiled in: each one the tree holds beside them
for f in $(cd "$root" && ls tokenizer/data/LICENSE* ner/data/LICENSE* models/default/NOTICE*); do
    found=0
    for g in "$doc"/*; do cmp -s "$root/$f" "$g" && found=1; done
    [ $found -eq 1 ] || fail "a notice of the tree is not installed: $f"
done
make -s -C "$root" uninstall DESTDIR="$stage" PREFIX=/usr/local >"$T/mk" 2>&1 || fail "make uninstall"
[ ! -e "$doc" ] || fail "make uninstall left $(ls "$doc")"
echo ok
