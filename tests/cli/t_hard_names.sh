# Issue 42 M1: file names in text outputs are escaped (names.h): --check's
# text lines, the baseline and stderr write control characters, C1
# controls and bytes that are not UTF-8 as \xNN and a backslash as \\; a
# name starting with ':' or white space gets "./" (no GitHub Actions "::"
# command); CSV fields starting with = + - @ TAB CR get a "'" first.
set -u
P=$PII_REDACT
fail() { echo "FAIL: $*"; exit 1; }
cd "$TMPDIR" || exit 1
E='Mail bob@example.com now.'
nl='
'
esc=$(printf '\033')
c1=$(printf '\302\233')
mkdir d
printf '%s\n' "$E" >"d/x${nl}evil.txt:1:1: private_email (rule) 0123456789abcdef"
printf '%s\n' "$E" >"d/a${esc}[31mred${c1}2J.txt"
printf '%s\n' "$E" >"d/back\\slash.txt"
printf '%s\n' "$E" >"d/bad$(printf '\377')byte.txt"
mkdir e
printf '%s\n' "$E" >"e/::error file=x::pwned"
printf '%s\n' "$E" >"e/=cmd|' -C calc'!A0.txt"

"$P" --rules-only -r d --check -q >out 2>err
[ $? -eq 1 ] || fail "check exit"
[ "$(wc -l <out)" -eq 4 ] || fail "lines: $(cat -A out)"
cut -d' ' -f1-2 out >got
cat >want <<'EOW'
d/a\x1b[31mred\xc2\x9b2J.txt:1:6: private_email
d/back\\slash.txt:1:6: private_email
d/bad\xffbyte.txt:1:6: private_email
EOW
# the forged name's line: its own position comes after the escaped name
sed -n 4p out | grep -q '^d/x\\x0aevil.txt:1:1: private_email (rule) 0123456789abcdef:1:6: private_email (rule) [0-9a-f]\{16\} \[email\]$' ||
    fail "forged line: $(sed -n 4p out)"
head -3 got | cmp -s - "$(head -3 want >want3 && echo want3)" || fail "escaped names: $(cat got)"
grep -q "$esc" out && fail "raw ESC in the findings"
grep -q "$c1" out && fail "raw C1 in the findings"

# stderr: the same escapes (a notice for a skipped link named with them)
ln -s nowhere "d/l${esc}]0;title${esc}\\"
"$P" --rules-only -r d --check >out 2>err
grep -q 'd/l\\x1b\]0;title\\x1b\\\\: skipped: symbolic link' err || fail "stderr: $(cat -A err)"
grep -q "$esc" err && fail "raw ESC on stderr"
rm "d/l${esc}]0;title${esc}\\"

# single-file mode escapes the same way (C1 and backslash too)
"$P" --rules-only "no${c1}such\\file" >out 2>err
[ $? -eq 3 ] || fail "single-file: exit"
grep -qx 'pii-redact: no\\xc2\\x9bsuch\\\\file: No such file or directory' err ||
    fail "single-file name: $(od -c err | head -3)"

# The baseline: one entry per finding, none forged by a name.
"$P" --rules-only -r d --check -q --baseline base.txt --write-baseline || fail "write-baseline"
[ "$(grep -vc '^#' base.txt)" -eq 4 ] || fail "baseline entries: $(cat -A base.txt)"
grep -q '0123456789abcdef' base.txt && ! grep -q '^0123456789abcdef' base.txt || fail "baseline: forged entry"
grep -q "$esc" base.txt && fail "raw ESC in the baseline"
"$P" --rules-only -r d --check -q --baseline base.txt >out || fail "baseline does not settle: $(cat out)"

# GitHub Actions: no line starts with "::".
"$P" --rules-only -r e --check -q >out
grep -q '^::' out && fail "a :: command line: $(cat out)"
grep -q '^e/::error file=x::pwned:1:6: ' out || fail "name: $(cat out)"
cd e && "$P" --rules-only -r . --check -q >../out; cd ..
grep -q '^::' out && fail "a :: command line from -r .: $(cat out)"
grep -q '^\./::error file=x::pwned:1:6: ' out || fail "./ prefix: $(cat out)"

# CSV: a formula leader is neutralised.
cd e && "$P" --rules-only -r . --check -q --report-format csv >../out.csv; cd ..
grep -q "^\"'=cmd|' -C calc'!A0.txt\",1,6,private_email," out.csv || fail "csv: $(cat out.csv)"
grep -q '^"=' out.csv && fail "csv formula kept"
echo ok
