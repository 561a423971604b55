# Consistent inputs (issue 22 part 4, issue 42 H5): single-file mode and
# batch mode treat a binary file the same way (sniff.h: a NUL in the first
# 8000 bytes and a byte that text does not hold; NUL runs in text are text):
# named, it is never skipped but refused (exit 3, nothing written) unless
# --binary, and then redacted to the same bytes; met in a walk it is skipped
# with a notice; UTF-16 text is refused, not skipped; standard input is
# never sniffed); --progress shows bytes, rate and
# ETA for one input in single-file mode and bytes in batch mode, and never
# changes the output.
set -u
P=$PII_REDACT
T=$TMPDIR
fail() { echo "FAIL: $*"; exit 1; }
cd "$T" || exit 1
mkdir -p d
printf 'head\000\001 bob@example.com\n' >d/bin.dat
{ head -c 8000 /dev/zero | tr '\0' 'x'; printf '\000 carol@example.net\n'; } >d/late.txt
printf 'mail bob@example.com\n' >d/text.txt
msg='pii-redact: d/bin.dat: binary file: not redacted (--binary redacts it as bytes)'
notice='pii-redact: d/bin.dat: skipped: binary file (--binary redacts it)'

# Single-file mode: refused with the message (even with -q), nothing written, exit 3.
"$P" --rules-only d/bin.dat >out 2>err
[ $? -eq 3 ] || fail "single binary exit"
[ ! -s out ] || fail "single binary wrote: $(od -c out | head -2)"
[ "$(cat err)" = "$msg" ] || fail "single message: $(cat err)"
"$P" --rules-only -q d/bin.dat >out 2>err
[ ! -s out ] && [ "$(cat err)" = "$msg" ] || fail "-q binary"
"$P" --rules-only --lines d/bin.dat >out 2>err
[ ! -s out ] && [ "$(cat err)" = "$msg" ] || fail "--lines binary"
# Batch mode: the same message for the same file named; the other is done.
"$P" --rules-only --out-dir o d/bin.dat d/text.txt >out 2>err
[ $? -eq 3 ] || fail "batch exit"
grep -qxF "$msg" err || fail "batch message: $(cat err)"
[ ! -e o/d/bin.dat ] || fail "batch wrote the binary file"
[ -f o/d/text.txt ] || fail "batch: the text file not done"
# Met in a walk it is skipped with the notice (not an error).
"$P" --rules-only -r --out-dir ow d >out 2>err
grep -qxF "$notice" err || fail "walk notice: $(cat err)"
[ ! -e ow/d/bin.dat ] || fail "walk wrote the binary file"
# --binary: both modes redact it to the same bytes.
"$P" --rules-only --binary d/bin.dat >single 2>err || fail "single --binary"
printf 'head\000\001 <PRIVATE_EMAIL>\n' | cmp -s - single || fail "single --binary bytes"
"$P" --rules-only --binary --out-dir o2 d/bin.dat 2>/dev/null || fail "batch --binary"
cmp -s single o2/d/bin.dat || fail "batch --binary differs from single-file mode"
# A NUL past the first 8000 bytes is text in both modes.
"$P" --rules-only d/late.txt >single 2>err
[ ! -s err ] && grep -q 'PRIVATE_EMAIL' single || fail "late NUL, single"
"$P" --rules-only --out-dir o3 d/late.txt 2>/dev/null
cmp -s single o3/d/late.txt || fail "late NUL, batch differs"
# UTF-16 text holds NULs but is not binary: refused (exit 3, issue 18 C1)
# in both modes, never skipped as binary.
printf 'mail bob@example.com\n' | iconv -f utf-8 -t utf-16le >d/w16.txt
"$P" --rules-only d/w16.txt >out 2>err
[ $? -eq 3 ] || fail "utf-16 single exit"
grep -q 'UTF-16 or UTF-32' err && ! grep -q ': skipped' err || fail "utf-16 single: $(cat err)"
"$P" --rules-only --out-dir o4 d/w16.txt >out 2>err
[ $? -eq 3 ] || fail "utf-16 batch exit"
grep -q 'UTF-16 or UTF-32' err && ! grep -q ': skipped' err || fail "utf-16 batch: $(cat err)"
[ ! -e o4/d/w16.txt ] || fail "utf-16 batch wrote"
# Standard input is never sniffed, in either mode.
"$P" --rules-only <d/bin.dat >single 2>err
printf 'head\000\001 <PRIVATE_EMAIL>\n' | cmp -s - single || fail "stdin single"
[ ! -s err ] || fail "stdin notice"
"$P" --rules-only --check <d/bin.dat >out 2>err
[ $? -eq 1 ] && [ "$(cut -d' ' -f1-2 out)" = '-:1:8: private_email' ] || fail "stdin --check: $(cat out)"

# --progress, one input, single-file mode: the last line has the whole size.
head -c 3000000 /dev/zero | tr '\0' 'a' | fold -w 99 >big.txt
printf 'x bob@example.com\n' >>big.txt
"$P" --rules-only big.txt >plain 2>err || fail "plain run"
[ ! -s err ] || fail "progress without --progress on a file: $(cat err)"
"$P" --rules-only --progress big.txt >withp 2>err || fail "--progress run"
cmp -s plain withp || fail "--progress changed the output"
tail -1 err | grep -Eq '^pii-redact: big\.txt: 3\.0 MB of 3\.0 MB \(100%\), [0-9.]+ [kMG]?B/s, ETA 0:00:00$' ||
    fail "single progress line: $(tail -1 err)"
grep -Evq '^pii-redact: big\.txt: [0-9.]+ [kMG]?B of 3\.0 MB \([0-9]+%\), [0-9.]+ [kMG]?B/s, ETA [0-9?:]+$' err &&
    fail "progress lines: $(cat err)"
grep -q 'bob' err && fail "input text on stderr"
# Standard input from a pipe: bytes and rate (no size, no ETA).
cat big.txt | "$P" --rules-only --progress >withp 2>err
cmp -s plain withp || fail "--progress changed stdin output"
tail -1 err | grep -Eq '^pii-redact: standard input: 3\.0 MB, [0-9.]+ [kMG]?B/s$' ||
    fail "stdin progress line: $(tail -1 err)"
# Batch mode with one input: files, bytes of the total, ETA.
"$P" --rules-only --check -q --progress big.txt >out 2>err
[ $? -eq 1 ] || fail "batch progress exit"
tail -1 err | grep -Eq '^pii-redact: 1/1 files, 3\.0 MB of 3\.0 MB, [0-9.]+ [kMG]?B/s, ETA 0:00:00, 1 findings$' ||
    fail "batch progress line: $(tail -1 err)"
echo ok
