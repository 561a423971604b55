#!/bin/sh
# tools/rules/bench.sh BENCH_RULES PII_REDACT — make bench-rules.
# Inputs: ~18 MB of English prose (Debian's licence texts, repeated), 3 MB
# of random bytes without digits, '@', ':', '/' or '.', ~30 MB of synthetic
# key=value logs, and 300 MB of 'a' without a newline.  Prints the rule detector alone, then the whole
# command (pii-redact --rules-only, output to /dev/null).
set -e
bench=$1
cli=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=/usr/share/common-licenses
if [ -d "$src" ]; then
    i=0
    while [ $i -lt 60 ]; do cat "$src"/*; i=$((i + 1)); done >"$tmp/prose.txt"
else
    i=0
    while [ $i -lt 2000 ]; do cat README.md docs/*.md; i=$((i + 1)); done >"$tmp/prose.txt"
fi
head -c 3000000 /dev/urandom | tr -d '0-9@:/.' >"$tmp/random.bin"
# ~30 MB of key=value log lines: timestamps, UUIDs, IPs, SHAs, numbers, and
# one line in 500 with an email, phone, card and token.
awk 'BEGIN { srand(7); for (i = 0; i < 120000; i++) {
    ts = sprintf("2026-04-%02dT%02d:%02d:%02d.%03dZ", 1 + int(rand() * 28), int(rand() * 24),
                 int(rand() * 60), int(rand() * 60), int(rand() * 1000));
    id = sprintf("%08x-%04x-%04x-%04x-%04x%08x", rand() * 4294967295, rand() * 65535,
                 rand() * 65535, rand() * 65535, rand() * 65535, rand() * 4294967295);
    ip = sprintf("%d.%d.%d.%d", 1 + int(rand() * 254), int(rand() * 255), int(rand() * 255),
                 1 + int(rand() * 254));
    sha = sprintf("%08x%08x%08x%08x%08x", rand() * 4294967295, rand() * 4294967295,
                  rand() * 4294967295, rand() * 4294967295, rand() * 4294967295);
    printf "%s level=info req_id=%s ip=%s method=GET path=/api/v1/items/%d status=200 dur_ms=%d bytes=%d user_agent=\"Mozilla/5.0 (X11; Linux x86_64)\" sha=%s\n", ts, id, ip, int(rand() * 99999), int(rand() * 999), int(rand() * 99999), sha;
    if (i % 500 == 0)
        printf "%s level=warn user=bob.smith@example.com phone=+1 415-555-%04d card=4111 1111 1111 1111 token=ghp_%s%s\n", ts, int(rand() * 9999), sha, "0123";
} }' >"$tmp/logs.txt"
echo "rule detector alone (64 KiB chunks):"
printf '  prose   '; "$bench" "$tmp/prose.txt"
printf '  random  '; "$bench" "$tmp/random.bin"
printf '  logs    '; "$bench" "$tmp/logs.txt"
printf '  300MB a '; "$bench" --a 300000000
echo "pii-redact --rules-only:"
for f in prose.txt random.bin logs.txt; do
    /usr/bin/time -f "  $f: %e s wall, %U s user, %M KB max RSS" "$cli" --rules-only <"$tmp/$f" >/dev/null
done
head -c 300000000 /dev/zero | tr '\0' a >"$tmp/a.txt"
/usr/bin/time -f "  300MB a: %e s wall, %U s user, %M KB max RSS" "$cli" --rules-only <"$tmp/a.txt" >/dev/null
