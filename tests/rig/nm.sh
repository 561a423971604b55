#!/bin/sh
# tests/rig/nm.sh LIB BIN — the release library and command carry no test
# rig (mk/rig.mk): libpiiredact.a defines only pii_-prefixed global
# symbols, has no fault-injection member and no --wrap symbol, and the
# command is not linked with the allocation wrappers and never names
# $PII_REDACT_FAULT.
lib=$1
bin=$2
fail=0
bad=$(nm -g --defined-only "$lib" | awk 'NF == 3 && $3 !~ /^pii_/ { print $3 }' | sort -u)
if [ -n "$bad" ]; then
    echo "FAIL: rig: $lib defines globals without the pii_ prefix:" $bad
    fail=1
fi
if ar t "$lib" | grep -q '^fault'; then
    echo "FAIL: rig: $lib holds the fault-injection objects:" $(ar t "$lib" | grep '^fault')
    fail=1
fi
if nm "$lib" "$bin" 2>/dev/null | grep -q '__wrap_\|__real_\|pii_fault_'; then
    echo "FAIL: rig: the release build has fault-injection symbols:" \
        $(nm "$lib" "$bin" 2>/dev/null | grep -o '[_a-z]*\(__wrap_\|__real_\|pii_fault_\)[a-z_]*' | sort -u)
    fail=1
fi
if grep -q 'PII_REDACT_FAULT\|PII_REDACT_PAUSE' "$bin"; then
    echo "FAIL: rig: $bin reads \$PII_REDACT_FAULT or \$PII_REDACT_PAUSE"
    fail=1
fi
[ $fail -eq 0 ] && echo "rig: $(nm -g --defined-only "$lib" | awk 'NF == 3' | sort -u | wc -l) globals of $lib all pii_*; no fault injection in it or in $bin"
exit $fail
