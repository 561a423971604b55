# Fail closed, end to end: every allocation, detector scan, output write and
# input read of the command is made to fail in turn ($PII_REDACT_FAULT, see
# docs/HARDENING.md).  Each run must either succeed with exactly the
# reference output, or exit non-zero having written a prefix of it, with no
# input text on stderr.
set -e
P=$PII_REDACT
fail() { echo "FAIL: $*"; exit 1; }
T=$TMPDIR

# Distinctive values: none of them may ever reach stderr.
cat >"$T/pii" <<'PII'
zorblax.wimbleton@example.org
Zorblax
Wimbleton
415-555-0199
98765432
4111 1111 1111 1111
DE89 3704 0044 0532 0130 00
AKIAQUUXWIMBLETON7Z2
Xq9!vTr0ub4dor
zorblax-example.com
PII
{
    printf 'From: Zorblax Wimbleton <zorblax.wimbleton@example.org>\n'
    printf 'Call +1 415-555-0199 or 030 98765432; card 4111 1111 1111 1111.\n'
    printf 'IBAN DE89 3704 0044 0532 0130 00, key AKIAQUUXWIMBLETON7Z2\n'
    printf 'caf\303\251 \377\376 broken \342\202 utf-8 and password=Xq9!vTr0ub4dor\n'
    printf 'see https://www.zorblax-example.com/x?id=42 on 2024-02-29\n'
    i=0
    while [ $i -lt 40 ]; do printf 'line %d: zorblax.wimbleton@example.org +1 415-555-0199\n' $i; i=$((i + 1)); done
} >"$T/in"

no_pii() { # $1: file that must not contain any value
    if grep -F -i -f "$T/pii" "$1" >/dev/null; then
        echo "--- $1:"; cat "$1"; fail "input text on stderr ($2)"
    fi
}

is_prefix() { # $1 of $2
    sz=$(wc -c <"$1")
    head -c "$sz" "$2" | cmp -s - "$1"
}

runs=0
sweep() { # $1: site, then the options
    site=$1; shift
    PII_REDACT_FAULT=count "$P" "$@" <"$T/in" >"$T/ref" 2>"$T/count" || fail "clean run: $*"
    no_pii "$T/count" "clean run"
    total=$(sed -n "s/.* $site=\([0-9]*\).*/\1/p" "$T/count")
    [ -n "$total" ] || fail "no $site count in: $(cat "$T/count")"
    [ "$total" -gt 0 ] || fail "no $site events: $*"
    n=1; failed=0
    while [ "$n" -le "$total" ]; do
        for mode in "" "+"; do
            set +e
            PII_REDACT_FAULT="$site:$n$mode" "$P" "$@" <"$T/in" >"$T/out" 2>"$T/err"
            rc=$?
            set -e
            runs=$((runs + 1))
            no_pii "$T/err" "$site:$n$mode $*"
            if [ "$rc" -eq 0 ]; then
                cmp -s "$T/out" "$T/ref" || fail "$site:$n$mode: exit 0 but output differs ($*)"
            else
                failed=$((failed + 1))
                case $rc in 3|5) ;; *) fail "$site:$n$mode: exit $rc ($*)" ;; esac
                is_prefix "$T/out" "$T/ref" || fail "$site:$n$mode: output is not a prefix ($*)"
                [ -s "$T/err" ] || fail "$site:$n$mode: exit $rc without a message ($*)"
            fi
        done
        # every point up to 24, then about 12 more spread over the rest
        if [ "$n" -lt 24 ]; then n=$((n + 1)); else n=$((n + total / 12 + 1)); fi
    done
    [ "$failed" -gt 0 ] || fail "$site: no injected failure surfaced ($*)"
    echo "$site: $total points, $failed failing runs ($*)"
}

for site in alloc scan write read; do
    sweep $site --rules-only
    sweep $site --rules-only --lines
    sweep $site --rules-only --format json --offsets codepoint
done
sweep scan --rules-only --lines --format jsonl
# operators that allocate (available once redact/ops.c replaces the stand-in)
if "$P" --rules-only --operator pseudonym </dev/null >/dev/null 2>&1; then
    sweep alloc --rules-only --operator pseudonym --format jsonl --show-values
fi
echo "ok: $runs runs"
