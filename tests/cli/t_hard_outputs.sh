# Issue 42 H3: an output that is an input of the run, or another input's
# output, fails the run (exit 3) before anything is written: compared by
# device and inode and by resolved path.
set -u
P=$PII_REDACT
. "$(dirname "$0")/lib.sh" # fail, run
cd "$TMPDIR" || exit 1
E='Mail bob@example.com now.'

# -r . --suffix .1 over app.log and yesterday's app.log.1 (older than app.log).
mkdir logs
printf 'yesterday %s\n' "$E" >logs/app.log.1
touch -d '2 days ago' logs/app.log.1
printf 'today %s\n' "$E" >logs/app.log
cp logs/app.log.1 keep.1
run 3 "$P" --rules-only -r logs --suffix .1
cmp -s logs/app.log.1 keep.1 || fail "the rotated log was overwritten"
grep -qx 'pii-redact: logs/app.log: the output logs/app.log.1 exists and is older than its input, so it is not an output of an earlier run; rename it or choose another --suffix' err ||
    fail "rotated: message: $(cat err)"
grep -qx 'pii-redact: 1 output would overwrite an input or another output; nothing was written' err ||
    fail "rotated: summary: $(cat err)"
# A previous output (newer than its input) is still replaced on a rerun.
rm logs/app.log.1
run 0 "$P" --rules-only -q -r logs --suffix .1
[ "$(cat logs/app.log.1)" = 'today Mail <PRIVATE_EMAIL> now.' ] || fail "first run"
printf 'again %s\n' "$E" >logs/app.log
touch -d '1 hour ago' logs/app.log
run 0 "$P" --rules-only -q -r logs --suffix .1
[ "$(cat logs/app.log.1)" = 'again Mail <PRIVATE_EMAIL> now.' ] || fail "rerun"

# --suffix .red x x.red: x.red is named, so it is an input.
printf '%s\n' "$E" >x
printf 'mine %s\n' "$E" >x.red
cp x.red x.red.orig
run 3 "$P" --rules-only --suffix .red x x.red
cmp -s x.red x.red.orig || fail "x.red overwritten"
[ ! -e x.red.red ] || fail "something was written: x.red.red"
grep -qx 'pii-redact: x: the output x.red is another input of the run (x.red)' err ||
    fail "x.red: $(cat err)"

# out/a/f a/f --out-dir out: the output of a/f is the input out/a/f.
mkdir -p a out/a
printf '%s\n' "$E" >a/f
printf 'input %s\n' "$E" >out/a/f
cp out/a/f of.orig
run 3 "$P" --rules-only --out-dir out out/a/f a/f
cmp -s out/a/f of.orig || fail "out/a/f overwritten"
[ ! -e out/out ] || fail "something was written under out/out"
grep -qx 'pii-redact: a/f: the output out/a/f is another input of the run (out/a/f)' err ||
    fail "out/a/f: $(cat err)"

# One file as an absolute and a relative path: two inputs, one output.
run 3 "$P" --rules-only --suffix .s "$PWD/x" x
[ ! -e x.s ] || fail "x.s written"
grep -qx "pii-redact: $PWD/x and x would both be written to x.s" err || fail "abs/rel: $(cat err)"
# Through a link to the folder: the same output by its resolved path.
ln -s a lnk
run 3 "$P" --rules-only --suffix .s a/f lnk/f
[ ! -e a/f.s ] || fail "a/f.s written"
grep -qx 'pii-redact: a/f and lnk/f would both be written to lnk/f.s' err || fail "link: $(cat err)"
# With --out-dir the same file named twice has two outputs: fine.
run 0 "$P" --rules-only -q --out-dir o2 "$PWD/x" x
[ -f "o2$PWD/x" ] && [ -f o2/x ] || fail "out-dir abs/rel"
# The output is the input itself (a link at the output's name).
ln -s x x.t
run 3 "$P" --rules-only --suffix .t x
grep -qx 'pii-redact: x: the output x.t is the input itself (use --in-place)' err ||
    fail "itself: $(cat err)"
[ -L x.t ] || fail "x.t replaced"
echo ok
