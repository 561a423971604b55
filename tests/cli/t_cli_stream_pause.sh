# Live input is written as it is decided, and a pause at a line end ends
# the document (--flush-delay, issue 43 item 4): `tail -f app.log |
# pii-redact` shows each line while the writer is still running.  The
# writer below waits for the first part's output before it writes the next
# part, so a build that holds output until the end of input never gets
# there (60 s, then FAIL).  Exact bytes:
#   rules only: the output equals the one-shot output of the whole input
#     (the rule tier decides a line at its end: nothing waits for a pause);
#   default pipeline (model): each part between pauses is its own document,
#     so the output equals the parts redacted one by one, concatenated;
#   --flush-delay 0: pauses end nothing, the output equals the one-shot one;
#   a pause inside a line ends nothing either.
set -e
P=$PII_REDACT
fail() { echo "FAIL: $*"; exit 1; }
cd "$TMPDIR"

printf 'Ticket 4411: customer Alice Johnson wrote from alice.johnson@example.com\n' >part1
printf 'Call Robert Miller at +1 415-555-0143 about the refund.\nok\n' >part2
cat part1 part2 >whole

# Waits until file $1 is exactly file $2 (at most 60 s).
wait_same() {
    i=0
    while ! cmp -s "$1" "$2"; do
        i=$((i + 1))
        [ $i -le 600 ] || return 1
        sleep 0.1
    done
}

# feed NAME ARGS...: runs pii-redact ARGS on a FIFO; writes part1, waits
# for NAME.first (the expected output so far), then writes part2 and closes.
feed() {
    name=$1
    shift
    rm -f fifo
    mkfifo fifo
    if [ "$name" = named ]; then # the FIFO named as FILE (binary sniffing)
        "$P" "$@" fifo >"$name.out" 2>"$name.err" &
    else
        "$P" "$@" <fifo >"$name.out" 2>"$name.err" &
    fi
    pid=$!
    exec 3>fifo
    cat part1 >&3
    t0=$(date +%s%N)
    if ! wait_same "$name.out" "$name.first"; then
        exec 3>&-
        wait $pid || true
        fail "$name: the first part's output did not appear while the writer waited" \
            "(got $(wc -c <"$name.out") bytes)"
    fi
    t1=$(date +%s%N)
    echo "$name: first part written after $(((t1 - t0) / 1000000)) ms"
    cat part2 >&3
    exec 3>&-
    wait $pid || fail "$name: exit $? ($(cat "$name.err"))"
}

# Rules only: decided at the line end, written at once; one-shot bytes.
"$P" --rules-only part1 >rules.first
"$P" --rules-only whole >rules.want
grep -q '<PRIVATE_EMAIL>' rules.first || fail "rules: part1 has no email span"
feed rules --rules-only
cmp rules.out rules.want || fail "rules: output differs from the one-shot output"

# The same with the FIFO named on the command line (its binary sniffing
# reads what the first read brings, not 8000 bytes).
cp rules.first named.first
feed named --rules-only
cmp named.out rules.want || fail "named FIFO: output differs from the one-shot output"

# The model: the pause after part1 ends its document.
"$P" part1 >model.first
"$P" part2 >model.p2
cat model.first model.p2 >model.want
grep -q '<PRIVATE_PERSON>' model.first || fail "model: part1 has no person span"
feed model
cmp model.out model.want || fail "model: output differs from the parts redacted one by one"

# json: one object per part.
"$P" --format json <part1 >json.first
"$P" --format json <part2 >json.p2
cat json.first json.p2 >json.want
feed json --format json
cmp json.out json.want || fail "json: output differs from the parts redacted one by one"

# Input without pauses is one document: the one-shot output.
"$P" whole >oneshot
cat whole | "$P" >piped
cmp piped oneshot || fail "piped input differs from the one-shot output"

# --flush-delay 0: a pause ends nothing.
rm -f fifo
mkfifo fifo
"$P" --flush-delay 0 <fifo >nodelay.out 2>nodelay.err &
pid=$!
{
    cat part1
    sleep 1
    cat part2
} >fifo
wait $pid || fail "--flush-delay 0: exit $?"
cmp nodelay.out oneshot || fail "--flush-delay 0: output differs from the one-shot output"

# A pause inside a line ends nothing.
rm -f fifo
mkfifo fifo
"$P" <fifo >midline.out 2>midline.err &
pid=$!
{
    printf 'Ticket 4411: customer Alice'
    sleep 1
    printf ' Johnson wrote from alice.johnson@example.com\n'
    cat part2
} >fifo
wait $pid || fail "mid-line pause: exit $?"
cmp midline.out oneshot || fail "mid-line pause: output differs from the one-shot output"

# Bad values are usage errors.
set +e
"$P" --flush-delay -1 </dev/null >out 2>err
rc=$?
set -e
[ $rc -eq 2 ] || fail "--flush-delay -1: exit $rc"
grep -q "bad --flush-delay '-1' (0 to 60000 milliseconds)" err || fail "--flush-delay -1: $(cat err)"
echo ok
