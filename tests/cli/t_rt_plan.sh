#!/bin/sh
# Issue 19: the kernel path is an execution plan the command builds from
# $PII_ISA / --isa (src/model_cli.c); the library reads no environment.
#  - PII_ISA lowers the path the command reports and runs (--version, info);
#    an unknown value is ignored;
#  - the same text redacts to the same bytes on the scalar path and the best;
#  - libpiiredact.a (beside the binary) references no getenv/secure_getenv
#    (the fault-injection objects of a test variant aside: issue 19 item 3).
set -eu
best=$("$PII_REDACT" --version | sed -n 's/^kernels: //p')
test -n "$best"
test "$(PII_ISA=scalar "$PII_REDACT" --version | sed -n 's/^kernels: //p')" = scalar
test "$(PII_ISA=nonsense "$PII_REDACT" --version | sed -n 's/^kernels: //p')" = "$best"
PII_ISA=scalar "$PII_REDACT" info | grep -q '^isa: *scalar$'
"$PII_REDACT" info | grep -q "^isa: *$best\$"
printf 'Mail bob.smith@example.com or call Alice Johnson at +1 415-555-0100.\n' > "$TMPDIR/in"
"$PII_REDACT" "$TMPDIR/in" > "$TMPDIR/best"
PII_ISA=scalar "$PII_REDACT" "$TMPDIR/in" > "$TMPDIR/scalar"
cmp "$TMPDIR/best" "$TMPDIR/scalar"
lib="$(dirname "$PII_REDACT")/libpiiredact.a"
if [ -f "$lib" ] && command -v nm > /dev/null; then
    if nm -A -u "$lib" | grep -v ':fault[a-z_]*\.o:' | grep -Ew '(secure_)?getenv'; then
        echo "the library reads the environment"
        exit 1
    fi
fi
