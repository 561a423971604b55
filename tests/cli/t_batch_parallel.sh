# Scale-out: `pii-redact --lines` is a pure stdin-to-stdout filter, so GNU
# parallel --pipe can split a large line-oriented input over several
# processes; the result must equal the single-process output byte for byte
# (docs/BATCH.md).
set -e
P="$PII_REDACT --rules-only --lines"
fail() { echo "FAIL: $*"; exit 1; }
cd "$TMPDIR"
command -v parallel >/dev/null || fail "GNU parallel is missing (make setup installs it)"

# About 12 MB of log lines: findings of several kinds, CRLF lines, invalid
# UTF-8, a final line without a newline.
awk 'BEGIN {
    for (i = 0; i < 150000; i++) {
        k = i % 6
        if (k == 0) printf "%d INFO user%d@example.com logged in from 10.0.%d.%d\n", i, i, i % 256, i % 7
        else if (k == 1) printf "%d WARN call +1 415-555-%04d about order %d\r\n", i, i % 10000, i
        else if (k == 2) printf "%d DEBUG card 4111 1111 1111 1111 seen; sha 3f2a9c%06d\n", i, i
        else if (k == 3) printf "%d INFO caf\303\251 \377\376 nothing to see here %d\n", i, i * 7
        else if (k == 4) printf "%d INFO see https://www.example.com/u/%d on 2024-02-29\n", i, i
        else printf "%d ERROR token=ghp_%036d\n", i, i
    }
    printf "last line without newline bob@example.com"
}' >big.log

$P <big.log >single.out
parallel --will-cite --pipe --keep-order -j 4 --block 256k $P <big.log >parallel.out
cmp single.out parallel.out || fail "parallel --pipe output differs from the single process"
# --pipepart reads the file itself (the fast path in docs/BATCH.md).
parallel --will-cite --pipepart -a big.log --keep-order -j 3 --block 300k $P >parts.out
cmp single.out parts.out || fail "parallel --pipepart output differs"
[ "$(wc -c <single.out)" -gt 1000000 ] || fail "output too small"
echo ok
