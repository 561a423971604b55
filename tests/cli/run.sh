#!/bin/sh
# Runs every tests/cli/t_*.sh with $PII_REDACT pointing at the binary under
# test and $TMPDIR a fresh scratch folder; prints one summary line.  HOME and
# XDG_CONFIG_HOME point into the scratch folder and the model settings are
# cleared, so the user's config file (~/.config/pii-redact/config),
# $PII_REDACT_MODEL and opf checkpoint (~/.opf, $OPF_CHECKPOINT) never change
# a result.  A test that sets $PII_REDACT_FAULT or $PII_REDACT_PAUSE (the
# test hooks, which only the fault, san and fuzz variants compile in:
# mk/rig.mk) runs on $PII_REDACT_RIG instead (default: $PII_REDACT).
here=$(cd "$(dirname "$0")" && pwd)
: "${PII_REDACT:?set PII_REDACT to the binary under test}"
bin=$PII_REDACT
rig=${PII_REDACT_RIG:-$PII_REDACT}
fail=0; n=0
for t in "$here"/t_*.sh; do
    [ -e "$t" ] || continue
    n=$((n + 1))
    scratch=$(mktemp -d)
    mkdir -p "$scratch/.home" "$scratch/.xdg"
    PII_REDACT=$bin
    grep -q 'PII_REDACT_FAULT\|PII_REDACT_PAUSE' "$t" && PII_REDACT=$rig
    export PII_REDACT
    if env -u PII_REDACT_MODEL -u OPF_CHECKPOINT HOME="$scratch/.home" \
        XDG_CONFIG_HOME="$scratch/.xdg" TMPDIR="$scratch" sh "$t" >"$scratch/.log" 2>&1; then
        :
    else
        echo "FAIL: $(basename "$t")" >&2; sed 's/^/  | /' "$scratch/.log" >&2
        fail=$((fail + 1))
    fi
    rm -rf "$scratch"
done
echo "cli: $((n - fail))/$n tests passed"
[ "$fail" -eq 0 ]
