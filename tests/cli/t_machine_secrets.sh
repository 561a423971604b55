# Issue 41: no length cap fails open — a secret of any length is redacted
# whole, by the rules (--rules-only) and by the model's widening (default).
set -e
P=$PII_REDACT
fail() { echo "FAIL: $*"; exit 1; }
# rnd N SEED ALPHABET: N deterministic pseudo-random characters
rnd() { python3 -c "
import random, sys
r = random.Random(int(sys.argv[2])); a = sys.argv[3]
sys.stdout.write(''.join(r.choice(a) for _ in range(int(sys.argv[1]))))" "$@"; }
A=ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789
chk() { # chk WANT OPTIONS: stdin redacted with OPTIONS gives WANT
    want=$1; shift
    out=$($P "$@" <"$TMPDIR/in")
    [ "$out" = "$want" ] || fail "$* on $(head -c 40 "$TMPDIR/in")...: $(printf '%s' "$out" | head -c 200)"
}
printf 'db_password=%s next\n' "$(rnd 300 1 "$A!#%&*+-./:=?@^_|~")" >"$TMPDIR/in"
chk 'db_password=<SECRET> next' --rules-only
printf 'secret_key=%s\n' "$(rnd 600 2 "$A+/=")" >"$TMPDIR/in"
chk 'secret_key=<SECRET>' --rules-only
printf 'Authorization: Bearer %s\n' "$(rnd 5000 3 "$A-._~+/")" >"$TMPDIR/in"
chk 'Authorization: Bearer <SECRET>' --rules-only
printf 'AWS_SESSION_TOKEN=%s\n' "$(rnd 900 4 "$A+/")" >"$TMPDIR/in"
chk 'AWS_SESSION_TOKEN=<SECRET>' --rules-only
printf 'users:\n- name: kofi\n  user:\n    client-key-data: %s\n    token: none\n' \
    "$(rnd 3300 5 "$A+/")" >"$TMPDIR/in"
chk 'users:
- name: kofi
  user:
    client-key-data: <SECRET>
    token: none' --rules-only
jwt="eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ$(rnd 8000 6 "$A-_").$(rnd 4000 7 "$A-_")"
printf 'auth %s.\n' "$jwt" >"$TMPDIR/in"
chk 'auth <SECRET>.' --rules-only
chk 'auth <SECRET>.'
# a 12 KB JWT whose header carries an x5c chain (header past its 4096 cap)
# and a 40 KB PEM private key (body past its 16 KiB cap): one span each
hdr=$(printf '{"alg":"RS256","typ":"JWT","x5c":["%s"]}' "$(rnd 6000 9 "$A+/")" |
    python3 -c 'import base64,sys; print(base64.urlsafe_b64encode(sys.stdin.buffer.read()).decode().rstrip("="))')
printf 'auth %s.eyJ%s.%s ok\n' "$hdr" "$(rnd 2200 10 "$A-_")" "$(rnd 342 11 "$A-_")" >"$TMPDIR/in"
[ "$(wc -c <"$TMPDIR/in")" -gt 10500 ] || fail "JWT too short"
chk 'auth <SECRET> ok' --rules-only
chk 'auth <SECRET> ok'
{
    printf 'key:\n-----BEGIN RSA PRIVATE KEY-----\n'
    rnd 40000 12 "$A+/" | fold -w 64
    printf '\n-----END RSA PRIVATE KEY-----\ndone\n'
} >"$TMPDIR/in"
chk 'key:
<SECRET>
done' --rules-only
chk 'key:
<SECRET>
done'
# the model alone: an 8,000-character token after "token"
printf 'token %s end\n' "$(rnd 8000 8 "$A")" >"$TMPDIR/in"
chk 'token <SECRET> end'
exit 0
