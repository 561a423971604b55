#!/bin/sh
# tools/rules/spans_diff.sh OLD NEW FILE... — the rule tier's findings of two
# pii-redact binaries, compared: for each FILE, `--rules-only --format jsonl`
# at both breadths (default and --all-dates-urls), every span with its label
# and rule id.  Prints one line per FILE and breadth, and a diff of the first
# lines that differ; exits 1 when any differ.  Used to show that a change to
# the rule tier's machinery (the prefilter, the split patterns) finds exactly
# the same spans (issue 41):
#   sh tools/rules/spans_diff.sh /tmp/base/pii-redact ./pii-redact in1.txt in2.txt
set -u
old=$1
new=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0
for f in "$@"; do
    for mode in default broad; do
        set -- --rules-only --format jsonl
        [ "$mode" = broad ] && set -- "$@" --all-dates-urls
        "$old" "$@" "$f" >"$tmp/a" 2>"$tmp/ae"
        ra=$?
        "$new" "$@" "$f" >"$tmp/b" 2>"$tmp/be"
        rb=$?
        n=$(wc -l <"$tmp/a")
        if [ $ra -eq $rb ] && cmp -s "$tmp/a" "$tmp/b"; then
            echo "same  $mode $f ($n spans, exit $ra)"
        else
            echo "DIFF  $mode $f (exit $ra / $rb)"
            diff "$tmp/a" "$tmp/b" | head -20
            rc=1
        fi
    done
done
exit $rc
