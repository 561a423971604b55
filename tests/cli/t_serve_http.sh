# `pii-redact serve`: the real server on a free loopback port, every
# endpoint, limit and error over real HTTP (tests/cli/serve_client.py),
# LiteLLM's guardrail request shapes (tests/cli/litellm_client.py), session
# expiry, graceful shutdown, the Unix socket, auth, usage errors.
set -e
P=$PII_REDACT
here=$(cd "$(dirname "$0")" && pwd)
C="python3 $here/serve_client.py"
fail() { echo "FAIL: $*"; exit 1; }
pids=""
trap 'for p in $pids; do kill "$p" 2>/dev/null || true; done' EXIT

# start NAME ARGS...: starts the server on 127.0.0.1:0, sets $base and $pid
start() {
    log="$TMPDIR/$1.log"; shift
    : >"$log"
    "$P" serve --listen 127.0.0.1:0 "$@" 2>"$log" &
    pid=$!; pids="$pids $pid"
    i=0
    while ! grep -q 'listening on' "$log"; do
        i=$((i + 1)); [ "$i" -lt 300 ] || { cat "$log"; fail "server did not start"; }
        kill -0 "$pid" 2>/dev/null || { cat "$log"; fail "server exited"; }
        sleep 0.1
    done
    base=$(sed -n 's/.*listening on \(http:[^ ]*\).*/\1/p' "$log")
}
stop() {
    kill -TERM "$pid"; wait "$pid" || fail "server exit status $? after SIGTERM"
}

# --help, and usage errors before anything listens
$P serve --help | grep -q -- '--max-requests' || fail "serve --help"
set +e
$P serve --workers 0 2>"$TMPDIR/err"; rc=$?
[ "$rc" -eq 2 ] || fail "--workers 0: exit $rc"
$P serve --listen nonsense 2>"$TMPDIR/err"; rc=$?
[ "$rc" -eq 3 ] || fail "--listen nonsense: exit $rc"
$P serve some-file.txt 2>"$TMPDIR/err"; rc=$?
[ "$rc" -eq 2 ] || fail "serve FILE: exit $rc"
$P serve --operator pseudonym --map-out "$TMPDIR/m" 2>"$TMPDIR/err"; rc=$?
[ "$rc" -eq 2 ] || fail "serve --map-out: exit $rc"
$P serve --labels privat_email 2>"$TMPDIR/err"; rc=$?
[ "$rc" -eq 2 ] || fail "serve with a bad label: exit $rc"
printf 'short\n' >"$TMPDIR/tok"; chmod 600 "$TMPDIR/tok"
$P serve --auth-token-file "$TMPDIR/tok" 2>"$TMPDIR/err"; rc=$?
[ "$rc" -eq 2 ] || fail "a short token: exit $rc"
set -e

# every endpoint, byte-identical to the command, pseudonyms and sessions
start main --max-body 4096
$C endpoints "$base" "$P"
$C pseudonyms "$base"
$C concurrent "$base" "$P"
$C limits "$base" 4096
# a client that sends LiteLLM's Presidio guardrail's exact request bodies
python3 "$here/litellm_client.py" "$base"
# the log says where it listens and nothing of what it was sent
grep -q 'Jane\|john\|4111' "$TMPDIR/main.log" && fail "the log holds request text"
stop
grep -q 'stopped (SIGTERM)' "$TMPDIR/main.log" || fail "no stop line"

# the same redaction options as the command
start opts --rules-only --operator mask
t='Mail bob.smith@example.com or call +1 415-555-0100 today.'
got=$(curl -sf -H 'Content-Type: text/plain' --data-binary "$t" "$base/redact")
want=$(printf '%s' "$t" | $P --rules-only --operator mask)
[ "$got" = "$want" ] || fail "options: '$got' != '$want'"
stop

# sessions expire; sessions off
start ttl --session-ttl 1
$C ttl "$base" "$P"
stop
start nosess --session-ttl 0
code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' \
    -d '{"text":"jane@example.com","pseudonyms":true,"session":true}' "$base/redact")
[ "$code" = 400 ] || fail "sessions off: $code"
stop

# concurrency limit, idle timeout, graceful drain
start busy --max-requests 1
$C busy "$base"
stop
start idle --timeout 1
$C timeout "$base"
stop
start drain --timeout 5 --max-requests 1
$C drain "$base" "$pid"
wait "$pid" || fail "drain: exit status $?"

# bearer token
head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$TMPDIR/token"; chmod 600 "$TMPDIR/token"
start auth --auth-token-file "$TMPDIR/token"
$C auth "$base" "$(cat "$TMPDIR/token")"
stop

# the hash anonymizer: HMAC-SHA256 with the server's --key-file, the digits
# the command's hash operator writes with the same key
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$TMPDIR/key"; chmod 600 "$TMPDIR/key"
start hash --key-file "$TMPDIR/key" --rules-only
got=$(curl -sf -H 'Content-Type: application/json' -d '{"text":"mail jane@example.com now",
  "analyzer_results":[{"entity_type":"EMAIL_ADDRESS","start":5,"end":21,"score":1}],
  "anonymizers":{"DEFAULT":{"type":"hash","hash_type":"sha256"}}}' "$base/anonymize" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["text"])')
want=$(printf 'mail jane@example.com now' | $P --rules-only --operator hash:64 --key-file "$TMPDIR/key")
[ "$got" = "$want" ] || fail "hash: '$got' != '$want'"
stop

# a Unix socket
sock="$TMPDIR/pii.sock"
"$P" serve --listen "unix:$sock" 2>"$TMPDIR/unix.log" &
pid=$!; pids="$pids $pid"
i=0; while [ ! -S "$sock" ]; do i=$((i + 1)); [ "$i" -lt 300 ] || fail "no socket"; sleep 0.1; done
$C unix "$sock"
got=$(curl -sf --unix-socket "$sock" -H 'Content-Type: text/plain' --data-binary 'jane@example.com' http://x/redact)
[ "$got" = "<PRIVATE_EMAIL>" ] || fail "unix socket redact: $got"
stop
[ ! -e "$sock" ] || fail "the socket file was left behind"
echo "serve: ok"
