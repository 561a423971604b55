#!/bin/sh
# tools/rules/cost.sh BASE NEW... — the rule tier's cost (issue 41): the
# instructions callgrind counts for `BIN --rules-only FILE` (deterministic,
# so meaningful on a loaded machine) on three ~3 MB inputs, as a Markdown
# table with each binary's change against BASE.  (Whether two binaries of
# the same rule table find the same spans: tools/rules/spans_diff.sh.)
# Inputs:
#   key=value logs   sh tools/rules/gen_kv.sh 12000
#   gen_log          python3 tools/bench/gen_log.py 30000
#   licence prose    /usr/share/common-licenses/* ten times, first 3,000,000 bytes
# Needs valgrind.  Example (b95ef6b built in a worktree):
#   git worktree add /tmp/base b95ef6b && make -C /tmp/base -j2 pii-redact
#   sh tools/rules/cost.sh /tmp/base/pii-redact ./pii-redact
# The inputs are kept in DIR when COST_KEEP=DIR is set.
set -e
[ $# -ge 2 ] || { echo "usage: cost.sh BASE NEW..." >&2; exit 2; }
command -v valgrind >/dev/null || { echo "cost.sh: valgrind is not installed" >&2; exit 2; }
dir=$(dirname "$0")
mk=$(mktemp -d)
trap 'rm -rf "$mk"' EXIT
tmp=${COST_KEEP:-$mk}
mkdir -p "$tmp"
sh "$dir/gen_kv.sh" 12000 >"$tmp/kv.txt"
python3 "$dir/../bench/gen_log.py" 30000 >"$tmp/gen_log.txt"
i=0
while [ $i -lt 10 ]; do cat /usr/share/common-licenses/*; i=$((i + 1)); done | head -c 3000000 >"$tmp/prose.txt"
count() { # BIN FILE -> instructions
    valgrind --tool=callgrind --callgrind-out-file="$mk/cg.out" "$1" --rules-only "$2" \
        >/dev/null 2>"$mk/cg.err" || { cat "$mk/cg.err" >&2; exit 1; }
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$mk/cg.err"
}
printf '| input |'
for b in "$@"; do printf ' %s |' "$b"; done
printf '\n|---|'
for b in "$@"; do printf -- '--:|'; done
printf '\n'
for f in kv gen_log prose; do
    printf '| %s |' "$f"
    base=
    for b in "$@"; do
        n=$(count "$b" "$tmp/$f.txt")
        if [ -z "$base" ]; then
            base=$n
            printf ' %d M |' $((n / 1000000))
        else
            printf ' %d M (%s) |' $((n / 1000000)) "$(awk -v a="$base" -v b="$n" \
                'BEGIN { printf "%+.1f %%", (b - a) * 100 / a }')"
        fi
    done
    printf '\n'
done
