# The config file (issue 43 item 5): --config FILE, --no-config,
# $PII_REDACT_CONFIG (flag > env > default file); unknown keys warn with
# file and line and never break --help or --version; every error names the
# file and line; a switch set in the file is undone by --NAME=false.
set -e
P=$PII_REDACT
. "$(dirname "$0")/lib.sh" # fail, run
cd "$TMPDIR"
export XDG_CONFIG_HOME="$TMPDIR/xdg"
mkdir -p xdg/pii-redact
def=xdg/pii-redact/config
printf 'Mail bob.smith@example.com\n' >in.txt

# An unknown key is a warning naming the file and line; the rest applies.
printf '# defaults\nbogus-key = 1\nrules-only\nformat = jsonl\n' >"$def"
"$P" in.txt >out 2>err || fail "unknown key: exit $?"
printf '%s\n' "pii-redact: $TMPDIR/$def:2: warning: unknown option 'bogus-key' ignored" >want
cmp err want || fail "unknown key: stderr $(cat err)"
printf '%s\n' '{"file":"in.txt","label":"private_email","start":5,"end":26,"source":"rule","rule":"email","score":1}' >want
cmp out want || fail "config not applied: $(cat out)"

# --help and --version never read it (not even a broken one).
printf 'format = xml\nthreads\n' >"$def"
"$P" --help >out 2>err || fail "--help: exit $?"
[ ! -s err ] || fail "--help: stderr $(cat err)"
"$P" --version >out 2>err || fail "--version: exit $?"
[ ! -s err ] || fail "--version: stderr $(cat err)"

# Errors name the file and line: a bad value, a missing value.
run 2 "$P" in.txt
printf '%s\n' "pii-redact: $TMPDIR/$def:2: 'threads' needs a value (threads = N)" >want
cmp err want || fail "missing value: stderr $(cat err)"
printf 'format = xml\n' >"$def"
run 2 "$P" in.txt
head -1 err >err1
printf '%s\n' "pii-redact: $TMPDIR/$def:1: unknown format 'xml' (text, json or jsonl)" >want
cmp err1 want || fail "bad format: stderr $(cat err)"
printf 'lines = maybe\n' >"$def"
run 2 "$P" in.txt
printf '%s\n' "pii-redact: $TMPDIR/$def:1: 'lines' is a switch: 'lines', 'lines = true' or 'lines = false'" >want
cmp err want || fail "bad switch value: stderr $(cat err)"

# --no-config: the file is not read at all.
"$P" --no-config --rules-only in.txt >out 2>err || fail "--no-config: exit $?"
[ ! -s err ] || fail "--no-config: stderr $(cat err)"
printf 'Mail <PRIVATE_EMAIL>\n' >want
cmp out want || fail "--no-config: $(cat out)"

# Precedence: --config FILE > $PII_REDACT_CONFIG > the default file.
printf 'rules-only\noperator = mask\n' >"$def"
printf 'rules-only\noperator = remove\n' >env.conf
printf 'rules-only\noperator = placeholder:[{label}]\n' >flag.conf
"$P" in.txt >out.def
printf 'Mail *********************\n' >want
cmp out.def want || fail "default file: $(cat out.def)"
PII_REDACT_CONFIG=env.conf "$P" in.txt >out.env
printf 'Mail \n' >want
cmp out.env want || fail "\$PII_REDACT_CONFIG: $(cat out.env)"
PII_REDACT_CONFIG=env.conf "$P" --config flag.conf in.txt >out.flag
printf 'Mail [private_email]\n' >want; cmp out.flag want || fail "--config: $(cat out.flag)"
PII_REDACT_CONFIG=env.conf "$P" --config=flag.conf --no-config --rules-only in.txt >out.none
printf 'Mail <PRIVATE_EMAIL>\n' >want
cmp out.none want || fail "--no-config over --config: $(cat out.none)"
# A named file must exist (exit 3, named).
run 3 env PII_REDACT_CONFIG=missing.conf "$P" in.txt
printf '%s\n' "pii-redact: config file missing.conf: No such file or directory" >want
cmp err want || fail "missing config: stderr $(cat err)"

# A switch set in the file is undone by --NAME=false; =true sets it.
printf 'rules-only\nlines\n' >"$def"
printf 'a bob@example.com\nb\n' >two.txt
"$P" --format jsonl two.txt >out
grep -q '"line":1' out || fail "lines from the config: $(cat out)"
"$P" --format jsonl --lines=false two.txt >out
grep -q '"line"' out && fail "--lines=false did not undo the config's lines"
"$P" --format jsonl --lines=false --lines=true two.txt >out
grep -q '"line":1' out || fail "--lines=true after =false: $(cat out)"
# Undoing a short switch in a cluster: -qr then --recursive=false.
printf 'rules-only\n' >"$def"
"$P" -qr --recursive=false in.txt >out 2>err || fail "-qr --recursive=false: exit $?"
printf 'Mail <PRIVATE_EMAIL>\n' >want
cmp out want || fail "-qr --recursive=false: $(cat out)"
run 2 "$P" --lines=yes in.txt
printf '%s\n' "pii-redact: option '--lines' takes no argument but =true or =false" \
    "Try 'pii-redact --help' for more information." >want
cmp err want || fail "--lines=yes: stderr $(cat err)"
# A value that looks like a switch is still a value: --deny --lines=false
# names a file called "--lines=false".
printf 'Zorblax\n' >./--lines=false
printf 'rules-only\nlines\n' >"$def"
printf 'x Zorblax\n' | "$P" --format jsonl --deny --lines=false >out
grep -q '"line":1' out || fail "--deny's value taken as a switch: $(cat out)"
echo ok
