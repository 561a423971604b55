# UTF-16 and UTF-32 input is refused (exit 3), never written as if it were
# scanned: single file, stdin, --lines, json, jsonl, --check, batch trees,
# records; with or without a byte-order mark; a file whose first 8,000
# bytes hold no NUL; a file that switches to UTF-16 after byte 8,000.
# (Issue 18, C1.)
set -e
P=$PII_REDACT
fail() { echo "FAIL: $*"; exit 1; }
cd "$TMPDIR"
TXT='Contact Maria Garcia at maria.garcia@example.com or +1 415-555-0199 today.'
printf '%s\n' "$TXT" >u8.txt
for enc in utf-16le utf-16be utf-16 utf-32le utf-32be utf-32; do
    iconv -f utf-8 -t $enc u8.txt >"w-$enc.txt"
done

# No mark, no NUL in the first 8,000 bytes: 4,500 CJK characters in UTF-16LE
# (bytes 2D 4E), then the text.
awk 'BEGIN { for (i = 0; i < 4500; i++) printf "\xe4\xb8\xad"; }' >cjk.u8
cat cjk.u8 u8.txt | iconv -f utf-8 -t utf-16le >w-late.txt
[ "$(head -c 8000 w-late.txt | tr -cd '\000' | wc -c)" -eq 0 ] || fail "fixture has a NUL early"
# UTF-8 for 9,000 bytes, then UTF-16LE.
head -c 9000 /dev/zero | tr '\0' a >w-switch.txt
echo >>w-switch.txt
iconv -f utf-8 -t utf-16le u8.txt >>w-switch.txt

check_refused() { # $1: what; output in out, stderr in err, status in rc
    [ "$rc" -eq 3 ] || fail "$1: exit $rc, want 3"
    grep -q 'UTF-16 or UTF-32' err || fail "$1: no message"
    # nothing of the text reached the output, in any encoding
    tr -d '\000' <out | grep -q -e Garcia -e '555-0199' -e example && fail "$1: PII written"
    grep -q -e Garcia -e example err && fail "$1: input on stderr"
    return 0
}

for f in w-*.txt; do
    for args in "" "--lines" "--format json" "--format jsonl" "--check"; do
        set +e
        $P --rules-only $args "$f" >out 2>err; rc=$?
        set -e
        check_refused "$f $args"
        set +e
        $P --rules-only $args <"$f" >out 2>err; rc=$?
        set -e
        check_refused "stdin $f $args"
    done
done
# The UTF-8 prefix of the switching file is written, the rest is not.
set +e
$P --rules-only w-switch.txt >out 2>err; rc=$?
set -e
check_refused "switch"
[ "$(wc -c <out)" -le 9001 ] || fail "switch: more than the UTF-8 prefix written"
cmp -s out w-switch.txt && fail "switch: whole file written"

# Batch: out-dir, in-place, suffix, check, several jobs: the file fails,
# nothing is written for it, exit 3; other files are done.
mkdir -p tree
cp w-*.txt tree/
cp u8.txt tree/ok.txt
for j in 1 2; do
    rm -rf od
    set +e
    $P --rules-only -r -j $j --out-dir od tree >out 2>err; rc=$?
    set -e
    check_refused "batch -j $j"
    for f in tree/w-*.txt; do
        [ ! -e "od/$f" ] || fail "batch -j $j: $f written"
        grep -q "$(basename "$f"):.*UTF-16 or UTF-32" err || fail "batch -j $j: no message for $f"
    done
    grep -q '<' "od/tree/ok.txt" || fail "batch -j $j: ok.txt not redacted"
done
set +e
$P --rules-only -r --check tree >out 2>err; rc=$?
set -e
check_refused "batch --check"
cp -r tree ip
set +e
$P --rules-only -r --in-place ip >out 2>err; rc=$?
set -e
check_refused "batch --in-place"
for f in tree/w-*.txt; do cmp -s "$f" "ip/$(basename "$f")" || fail "in-place changed $f"; done
set +e
$P --rules-only --format jsonl -r tree >out 2>err; rc=$?
set -e
check_refused "batch jsonl"

# Records: a UTF-16 JSON Lines file and CSV file fail.
printf '{"msg":"%s"}\n' "$TXT" | iconv -f utf-8 -t utf-16le >rec.jsonl
printf 'name,msg\nMaria,%s\n' "$TXT" | iconv -f utf-8 -t utf-16 >rec.csv
set +e
$P --rules-only --jsonl-field msg rec.jsonl >out 2>err; rc=$?
set -e
check_refused "jsonl records"
set +e
$P --rules-only --csv-column msg rec.csv >out 2>err; rc=$?
set -e
check_refused "csv records"

# --binary redacts bytes as they are (documented): the guard is off.
$P --rules-only --binary w-utf-16le.txt >out 2>err || fail "--binary: exit $?"
cmp -s out w-utf-16le.txt || fail "--binary: bytes changed"
# UTF-8 text with a UTF-8 mark and stray NUL bytes is fine (read from
# standard input; a named file too: NULs among text are text, issue 42 H5,
# t_hard_skips.sh).
printf '\357\273\277a\0b c\0\0d %s\n' "$TXT" >u8nul.txt
$P --rules-only <u8nul.txt >out 2>err || fail "UTF-8 with NULs refused"
grep -q 'PRIVATE_EMAIL\|EMAIL' out || fail "UTF-8 with NULs: not redacted"
$P --rules-only u8nul.txt >out2 2>err || fail "named UTF-8 with NULs refused"
cmp -s out out2 || fail "named UTF-8 with NULs differs from standard input"
echo ok
