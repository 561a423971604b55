# Issue 42, Low items: a pii-redact:allow marker in a CR-only file covers
# its own line only (lone CRs end lines for --check, across read blocks
# too); a --window barely above twice the receptive field warns; -j with
# the model runs at most one worker per CPU; --resume does not trust the
# modification time alone.
set -u
P=$PII_REDACT
fail() { echo "FAIL: $*"; exit 1; }
cd "$TMPDIR" || exit 1
printf 'a bob@example.com\rb alice@example.org # pii-redact:allow\rc carol@example.net\r' >cr.txt
"$P" --rules-only --check -q cr.txt | cut -d' ' -f1-2 >got
[ $? -eq 0 ] || true
printf 'cr.txt:1:3: private_email\ncr.txt:3:3: private_email\n' | cmp -s - got ||
    fail "CR-only: $(cat got)"
# CRLF is one line end
printf 'a bob@example.com\r\nb alice@example.org # pii-redact:allow\r\nc carol@example.net\r\n' >crlf.txt
"$P" --rules-only --check -q crlf.txt | cut -d' ' -f1-2 >got
printf 'crlf.txt:1:3: private_email\ncrlf.txt:3:3: private_email\n' | cmp -s - got ||
    fail "CRLF: $(cat got)"
# a CR as the last byte of a 64 KiB read block, then CRLF across the next boundary
{ head -c 65535 /dev/zero | tr '\0' x; printf '\rb bob@example.com # pii-redact:allow\rc carol@example.net\n'; } >blk.txt
"$P" --rules-only --check -q blk.txt | cut -d' ' -f1-2 >got
[ "$(cat got)" = 'blk.txt:3:3: private_email' ] || fail "CR at a block end: $(cat got)"
{ head -c 65535 /dev/zero | tr '\0' x; printf '\r\nb bob@example.com\n'; } >blk2.txt
"$P" --rules-only --check -q blk2.txt | cut -d' ' -f1-2 >got
[ "$(cat got)" = 'blk2.txt:2:3: private_email' ] || fail "CRLF across a block end: $(cat got)"
# --window 1025 with the default model (receptive field 512) warns
if "$P" info 2>/dev/null | grep -q 'receptive field +-512'; then
    echo 'Mail bob@example.com' | "$P" --window 1025 >out 2>err || fail "--window 1025: exit $?"
    grep -qx 'pii-redact: warning: --window 1025 leaves 1 new tokens per window of 1025 (receptive field 512): long inputs run each token about 1025 times; use at least 2048' err ||
        fail "--window warning: $(cat err)"
    echo 'Mail bob@example.com' | "$P" --window 2048 >out 2>err
    [ ! -s err ] || fail "--window 2048 warned: $(cat err)"
fi
# -j with the model: at most one worker per CPU (-j 200 took 3 GB)
if "$P" info 2>/dev/null | grep -q 'receptive field'; then
    n=$(nproc); mkdir -p jt; i=0
    while [ $i -lt $((n + 2)) ]; do echo "Mail bob$i@example.com" >jt/f$i.txt; i=$((i + 1)); done
    "$P" -j 200 -r jt --check --report rj.json >out 2>err
    [ $? -eq 1 ] || fail "-j 200: exit"
    [ "$(jq .jobs rj.json)" -eq "$n" ] || fail "-j 200 with the model: $(jq .jobs rj.json) workers, want $n"
    grep -qx "pii-redact: -j 200: with the model, at most one worker per CPU ($n) runs" err ||
        fail "-j notice: $(cat err)"
    "$P" --rules-only -j 200 -r jt --check -q --report rj.json >out 2>err
    [ "$(jq .jobs rj.json)" -eq $((n + 2)) ] || fail "-j 200, rules only: $(jq .jobs rj.json)"
fi
# --resume trusted the modification time alone: content changed with the
# old mtime put back (touch -r) was never redone.  The output records the
# input's size, mtime and ctime; a mismatch redoes the file.
mkdir -p rs
printf 'Mail bob@example.com\n' >rs/a.txt
touch -d '2 days ago' rs/a.txt
"$P" --rules-only -q -r rs --out-dir ro || fail "resume: first run"
"$P" --rules-only -q -r rs --out-dir ro --resume --report r1.json || fail "resume: second run"
[ "$(jq -r '.files[0].reason' r1.json)" = 'output is up to date (--resume)' ] || fail "resume: not skipped"
cp -p rs/a.txt ts.ref
printf 'Mail carol@example.net\n' >rs/a.txt
touch -r ts.ref rs/a.txt
"$P" --rules-only -q -r rs --out-dir ro --resume --report r2.json || fail "resume: third run"
[ "$(jq -r '.files[0].status' r2.json)" = ok ] || fail "resume: a changed input with its old mtime was skipped"
[ "$(cat ro/rs/a.txt)" = 'Mail <PRIVATE_EMAIL>' ] || fail "resume: output"
echo ok
