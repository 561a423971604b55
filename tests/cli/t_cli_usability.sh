# Small usability fixes (issue 43, item 7): an empty ~/.opf/privacy_filter
# falls back to the built-in model with a note; a mistyped subcommand gets
# "did you mean" (exit 2) unless a file of that name exists; bench refuses
# --seconds 0, says how to give a corpus when the default one is missing and
# counts sentences/s; --jsonl-field's help is a whole sentence; a missing -m
# path is named once, with one reason.
set -u
P=$PII_REDACT
T=$TMPDIR
fail() { echo "FAIL: $*"; exit 1; }
cd "$T" || exit 1

# ---- an empty ~/.opf/privacy_filter (an interrupted download) ----
printf 'Mail bob@example.com today.\n' >in.txt
"$P" -m builtin in.txt >want 2>/dev/null || fail "builtin run"
mkdir -p "$HOME/.opf/privacy_filter"
"$P" in.txt >out 2>err
[ $? -eq 0 ] || fail "empty ~/.opf/privacy_filter: exit $? ($(cat err))"
cmp -s want out || fail "empty ~/.opf/privacy_filter: output differs from the built-in model's"
printf 'pii-redact: note: %s/.opf/privacy_filter holds no checkpoint (no config.json: an interrupted download?); using the built-in model\n' "$HOME" |
    cmp -s - err || fail "fallback note: $(cat err)"
"$P" -q in.txt >out 2>err && [ ! -s err ] || fail "-q keeps the fallback quiet: $(cat err)"
# a partial download (files, no config.json) falls back the same way
printf 'x' >"$HOME/.opf/privacy_filter/model.safetensors.part"
"$P" in.txt >out 2>err && cmp -s want out || fail "partial download: $(cat err)"
grep -q 'holds no checkpoint' err || fail "partial download note: $(cat err)"
# asked for by name, it is still an error
"$P" -m opf in.txt >out 2>err
[ $? -eq 4 ] || fail "-m opf on an empty checkpoint must fail (exit 4)"
rm -rf "$HOME/.opf"

# ---- a mistyped subcommand ----
"$P" bnech >out 2>err
[ $? -eq 2 ] || fail "bnech: exit $?"
printf "pii-redact: bnech: no such command or file; did you mean 'bench'? (pii-redact --help lists the commands)\n" |
    cmp -s - err || fail "bnech message: $(cat err)"
[ ! -s out ] || fail "bnech wrote to stdout"
"$P" tokenise </dev/null >/dev/null 2>err
[ $? -eq 2 ] && grep -q "did you mean 'tokenize'" err || fail "tokenise: $(cat err)"
# a file of that name is redacted as before; a far-off name is a missing file
printf 'Mail bob@example.com\n' >bnech
"$P" --rules-only bnech >out 2>err && [ "$(cat out)" = 'Mail <PRIVATE_EMAIL>' ] ||
    fail "an existing file named bnech: $(cat err)"
"$P" --rules-only nosuchthing >out 2>err
[ $? -eq 3 ] && ! grep -q 'did you mean' err || fail "a missing file far from any command: $(cat err)"
"$P" --rules-only ./benc >out 2>err
[ $? -eq 3 ] && ! grep -q 'did you mean' err || fail "a path is never a command: $(cat err)"

# ---- bench ----
"$P" bench --seconds 0 >out 2>err
[ $? -eq 2 ] || fail "bench --seconds 0 accepted"
printf "pii-redact bench: --seconds: expected more than 0 seconds, got '0'\n" | cmp -s - err ||
    fail "--seconds 0 message: $(cat err)"
"$P" bench --seconds 0.0 >/dev/null 2>&1
[ $? -eq 2 ] || fail "bench --seconds 0.0 accepted"
# outside the source tree, with no installed corpus beside the binary
mkdir -p elsewhere && cd elsewhere
"$P" bench --seconds 1 --no-peak >out 2>err
[ $? -eq 3 ] || fail "bench without a corpus: exit $?"
grep -q '^pii-redact bench: samples/sentences.txt: No such file or directory (.*give one with --corpus FILE' err ||
    fail "bench names the way to give a corpus: $(cat err)"
"$P" bench --corpus missing.txt --no-peak >out 2>err
[ $? -eq 3 ] || fail "bench --corpus missing: exit $?"
printf 'pii-redact bench: missing.txt: No such file or directory\n' | cmp -s - err ||
    fail "a given corpus that is missing: $(cat err)"
: >empty.txt
"$P" bench --corpus empty.txt --no-peak >out 2>err
[ $? -eq 3 ] && printf 'pii-redact bench: empty.txt: no sentences in it\n' | cmp -s - err ||
    fail "an empty corpus: $(cat err)"
printf 'Bob Smith lives in Paris.\nCall 415-555-0100.\n' >c.txt
"$P" bench --corpus c.txt --rounds 1 --no-peak >out 2>err || fail "bench on a corpus: $(cat err)"
grep -q '^throughput: *[0-9.]* sentences/s, ' out || fail "throughput unit: $(grep throughput out)"
grep -q '^measured: *2 sentences, ' out || fail "measured line: $(grep measured out)"
grep -q 'inputs/s' out && fail "inputs/s is still said"
cd "$T"

# ---- --jsonl-field's help ends in a sentence ----
"$P" --help | sed -n '/^ *--jsonl-field PATH/,/^ *--jsonl-numbers /p' | tr -s ' \n' ' ' >h
grep -q 'not scanned unless --jsonl-numbers or --jsonl-keys asks --jsonl-numbers with' h ||
    fail "--jsonl-field help: $(cat h)"

# ---- -m with a path that does not exist: named once, one reason ----
"$P" -m "$T/nonexistent" in.txt >out 2>err
[ $? -eq 4 ] || fail "-m nonexistent: exit $?"
printf 'pii-redact: %s/nonexistent: No such file or directory\n' "$T" | cmp -s - err ||
    fail "-m nonexistent message: $(cat err)"
echo ok
