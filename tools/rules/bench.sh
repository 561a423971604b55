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
# ~30 MB of key=value log lines (tools/rules/gen_kv.sh)
sh "$(dirname "$0")/gen_kv.sh" 120000 >"$tmp/logs.txt"
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
