# Hostile JSON in model files is refused before json-c allocates for it
# (size, value count, depth), and an allocation failure while parsing is
# reported as such.  (Issue 18, H5.)
set -e
P=$PII_REDACT
. "$(dirname "$0")/lib.sh" # fail, tiny_model
cd "$TMPDIR"
tiny_model m
echo 'Mail bob.smith@example.com' >in.txt

# refused WHAT MESSAGE: the command refuses the model in m (exit 4) and
# says MESSAGE.
refused() {
    rc=0
    "$P" -m m in.txt >out 2>err || rc=$?
    [ $rc -eq 4 ] || fail "$1: exit $rc"
    grep -q "$2" err || fail "$1: message $(cat err)"
}

# 5 M empty arrays (15 MB; json-c would take ~750 MB): refused at once.
awk 'BEGIN { printf "{\"x\":["; for (i = 0; i < 5000000; i++) printf "[],"; printf "[]]}" }' \
    >m/tokenizer.json
set +e
/usr/bin/time -f '%M' -o rss "$P" -m m in.txt >out 2>err
rc=$?
set -e
[ $rc -eq 4 ] || fail "many values: exit $rc, want 4"
grep -q 'refused before parsing: more than 2097152 JSON values' err || fail "many values: message"
rss=$(tail -n 1 rss)
echo "5 M values: max RSS ${rss} KB"
LIMIT=120000
if ldd "$P" 2>/dev/null | grep -q libasan; then LIMIT=400000; fi
[ "$rss" -lt $LIMIT ] || fail "many values: RSS ${rss} KB"
[ ! -s out ] || fail "many values: output written"

# Nested 100,000 deep.
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; for (i = 0; i < 100000; i++) printf "]" }' \
    >m/tokenizer.json
refused 'deep' 'nested deeper than 64 levels'

# Over 64 MiB.
head -c 70000000 /dev/zero | tr '\0' ' ' >m/tokenizer.json
refused 'big' 'larger than 64 MiB'
rm m/tokenizer.json

# config.json: deep nesting and many values.
cp m/config.json config.good
awk 'BEGIN { printf "{\"a\":"; for (i = 0; i < 40; i++) printf "["; for (i = 0; i < 40; i++) printf "]"; printf "}" }' >m/config.json
refused 'config deep' 'nested deeper than 32 levels'
awk 'BEGIN { printf "{\"x\":["; for (i = 0; i < 300000; i++) printf "0,"; printf "0]}" }' >m/config.json
refused 'config values' 'more than 262144 JSON values'
cp config.good m/config.json
# A label name with a control character (an escape sequence) is refused.
sed 's/"B-account_number"/"B-acc\\u001b[31mount"/' config.good >m/config.json
grep -q 'u001b' m/config.json || fail "label fixture"
refused 'control label' 'bad name'
cp config.good m/config.json

# An allocation failure inside json-c says "out of memory", not "success"
# (virtual memory capped; not under ASan, which reserves terabytes).
if ! ldd "$P" 2>/dev/null | grep -q libasan; then
    awk 'BEGIN { printf "{\"x\":["; for (i = 0; i < 2000000; i++) printf "[],"; printf "[]]}" }' \
        >m/tokenizer.json
    set +e
    (ulimit -v 200000; "$P" -m m in.txt >out 2>err)
    rc=$?
    set -e
    [ $rc -ne 0 ] || fail "ulimit: exit 0"
    grep -q 'out of memory' err || fail "ulimit: no out-of-memory message: $(cat err)"
    grep -q 'success' err && fail "ulimit: 'success' in the message"
fi
echo ok
