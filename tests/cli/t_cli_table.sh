# The CLI contract from one table (issue 22 part 5): the man page's option
# list is generated from the table --help prints from (src/options.def; the
# committed page must equal tools/genman.c's output) and agrees with --help
# in order and argument names; its command list agrees with src/commands.c's
# table, and every subcommand's --help with its man entry
# (tests/cli/cli_table.py, which is shown to fail on a page that disagrees);
# groff -ww renders the page with no warning; option errors are named
# exactly (missing argument, argument to a switch, ambiguous abbreviation,
# unknown option); every exit status of the man page is produced and
# documented.
set -u
P=$PII_REDACT
T=$TMPDIR
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
man="$root/man/pii-redact.1"
fail() { echo "FAIL: $*"; exit 1; }

# ---- the tables and the man page -------------------------------------------
"$P" --help >"$T/help" || fail "--help exit"
set --
for c in eval mkmodel info logits tokenize bench quantize serve restore; do
    "$P" "$c" --help >"$T/help_$c" 2>"$T/err" || fail "$c --help exit"
    [ ! -s "$T/err" ] || fail "$c --help wrote to stderr"
    set -- "$@" "$c=$T/help_$c"
done
"$P" --help | sed -n '/^Commands:/,/^$/p' | awk 'NR>1 && /^  [a-z]/ {print $1}' >"$T/cmds"
[ "$(wc -l <"$T/cmds")" -eq 9 ] || fail "subcommands in --help: $(cat "$T/cmds")"
python3 "$here/cli_table.py" "$man" "$T/help" "$@" || fail "man page and tables disagree"
# One style for every --help (src/clihelp.c: pii_cli_usage): "Usage:
# pii-redact[ CMD]", "Options:", each option as "  -x, --name ARG" or
# "      --name ARG" with its text at column 32 (or on the next line there),
# continuation lines at column 32, "-h, --help" worded the same, nothing
# past column 79.
python3 - "$T/help" "$T"/help_* <<'PY' || fail "--help styles differ"
import re, sys
bad = 0
for path in sys.argv[1:]:
    lines = open(path, encoding="utf-8").read().split("\n")
    cmd = path.rsplit("help_", 1)[1] if "help_" in path else None
    want = "Usage: pii-redact" + (" " + cmd if cmd else "")
    errs = []
    if not (lines[0] + " ").startswith(want + " "):
        errs.append("first line " + lines[0])
    errs += ["line %d: %d columns" % (k + 1, len(l)) for k, l in enumerate(lines) if len(l) > 79]
    if "Options:" not in lines:
        errs.append("no Options:")
    else:
        for l in lines[lines.index("Options:") + 1 :]:
            if not l:
                break
            m = re.match(r"^  (-[a-zA-Z], |    )--[a-z][a-z0-9-]*( \S+)?( +)(.*)$", l)
            if m and len(l) - len(m.group(4)) != 31:
                errs.append("text not at column 32: " + l)
            elif not m and not re.match(r"^ {31}\S", l) and not re.match(r"^  (-[a-zA-Z], |    )--\S+( \S+)?$", l):
                errs.append("not an option line: " + l)
    if "  -h, --help                   show this help and exit" not in lines:
        errs.append("no standard -h, --help line")
    for e in errs:
        print("%s: %s" % (cmd or "pii-redact", e))
    bad |= bool(errs)
sys.exit(bad)
PY
# The checker fails when they disagree: an entry dropped, two swapped, an
# argument renamed, a subcommand option missing, a usage line restyled.
sed '/^\.B \\-\\-staged$/{x;d;}' "$man" | sed '/^\.TP$/{N;/\n\.TP$/D;}' >"$T/m1"
python3 "$here/cli_table.py" "$T/m1" "$T/help" >/dev/null && fail "checker: dropped entry"
sed 's/^\.B \\-\\-rules\\-only$/.B \\-\\-MODELONLY/; s/^\.B \\-\\-model\\-only$/.B \\-\\-rules\\-only/; s/^\.B \\-\\-MODELONLY$/.B \\-\\-model\\-only/' "$man" >"$T/m2"
cmp -s "$man" "$T/m2" && fail "swap did not apply"
python3 "$here/cli_table.py" "$T/m2" "$T/help" >/dev/null && fail "checker: swapped entries"
sed 's/^\.BI \\-\\-window " N"$/.BI \\-\\-window " TOKENS"/' "$man" >"$T/m3"
python3 "$here/cli_table.py" "$T/m3" "$T/help" >/dev/null && fail "checker: renamed argument"
sed 's/ \[\\fB\\-\\-no\\-peak\\fR\]//' "$man" >"$T/m4"
python3 "$here/cli_table.py" "$T/m4" "$T/help" "bench=$T/help_bench" >/dev/null &&
    fail "checker: subcommand option"
sed '1s/^Usage:/usage:/' "$T/help_info" >"$T/hi"
python3 "$here/cli_table.py" "$man" "$T/help" "info=$T/hi" >/dev/null && fail "checker: usage line"

# The OPTIONS section is generated from the option table (src/options.def,
# tools/genman.c, `make man`): the committed page must be the generated one,
# and an edit inside the generated lines is caught.
${CC:-cc} -std=c11 -Wall -Wextra -Werror -I"$root" -o "$T/genman" "$root/tools/genman.c" ||
    fail "genman does not build"
"$T/genman" "$man" >"$T/man.gen" || fail "genman failed"
cmp -s "$T/man.gen" "$man" ||
    fail "man/pii-redact.1 differs from what make man generates: $(diff "$man" "$T/man.gen" | head -20)"
sed 's/^Use only the rule tier\.$/Use the rules./' "$man" >"$T/m5"
cmp -s "$man" "$T/m5" && fail "edit did not apply"
"$T/genman" "$T/m5" | cmp -s - "$T/m5" && fail "genman kept a hand edit of a generated line"
sed '/^\.\\" end of the generated OPTIONS$/d' "$man" >"$T/m6"
"$T/genman" "$T/m6" >/dev/null 2>&1 && fail "genman accepted a page without its end marker"

# groff renders the page with every warning on and none given.
command -v groff >/dev/null 2>&1 || fail "groff is missing (make setup installs groff-base)"
groff -ww -z -man "$man" >"$T/groff" 2>&1 || fail "groff exit"
[ ! -s "$T/groff" ] || fail "groff warnings: $(cat "$T/groff")"
printf '.TH X 1\n.SH A\n.gguf x\n' | groff -ww -z -man >/dev/null 2>&1 &&
    [ -z "$(printf '.TH X 1\n.SH A\n.gguf x\n' | groff -ww -z -man 2>&1)" ] &&
    fail "groff -ww does not warn on an unknown macro here"

# ---- option errors: exact messages, exit 2, nothing on stdout --------------
try() { # expected message, then the arguments
    want=$1
    shift
    "$P" "$@" </dev/null >"$T/out" 2>"$T/err"
    rc=$?
    [ "$rc" -eq 2 ] || fail "$* exit $rc"
    [ ! -s "$T/out" ] || fail "$*: stdout not empty"
    printf 'pii-redact: %s\nTry '\''pii-redact --help'\'' for more information.\n' "$want" |
        cmp -s - "$T/err" || fail "$*: $(cat "$T/err")"
}
try "option '--labels' requires an argument" --rules-only --labels
try "option '--model' requires an argument" --model
try "option '-j' requires an argument" -r . -j
try "option '-j' requires an argument" -qj
try "option '--check' takes no argument but =true or =false" --check=yes
try "option '--ex' is ambiguous; possibilities: '--exclude-labels' '--exit-code' '--exclude'" --ex x
try "option '--re' is ambiguous; possibilities: '--report-format' '--recursive' '--resume' '--report'" --re
try "unknown option '--no-such-option'" --no-such-option
try "unknown option '--no-such'" --no-such=1
try "unknown option '-z'" -z
try "unknown option '-z'" -qz
try "unknown option '-z'" --check -zq
# A unique abbreviation and an exact name that prefixes others are fine.
printf 'a bob@example.com\n' | "$P" --rules-o --chec -q >"$T/out"
[ $? -eq 1 ] && [ "$(cut -d' ' -f1-2 "$T/out")" = '-:1:3: private_email' ] || fail "--chec"
printf 'x\n' | "$P" --rules-only --exclude-labels secret >/dev/null || fail "exact name"
# Subcommands name a missing argument the same way.
"$P" info -m >/dev/null 2>"$T/err"
[ $? -eq 2 ] || fail "info -m exit"
[ "$(cat "$T/err")" = "pii-redact info: option '--model' requires an argument (PATH)" ] ||
    fail "info -m: $(cat "$T/err")"

# ---- every exit status ------------------------------------------------------
sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' "$man" | sed -n '/^\.TP$/{n;s/^\.[BI] \([0-9N]*\)$/\1/p;}' |
    tr '\n' ' ' >"$T/codes"
[ "$(cat "$T/codes")" = '0 1 2 3 4 5 N ' ] || fail "man EXIT STATUS lists: $(cat "$T/codes")"
grep -q '^Exit status: 0 success (--check: no PII), 1 PII found (--check), 2 usage error,$' "$T/help" ||
    fail "--help exit status line"
status() { # expected status, then a command
    want=$1
    shift
    "$@" >/dev/null 2>&1
    rc=$?
    [ "$rc" -eq "$want" ] || fail "$* exit $rc, want $want"
}
printf 'fine\n' >"$T/clean.txt"
printf 'a bob@example.com\n' >"$T/pii.txt"
status 0 "$P" --rules-only --check "$T/clean.txt"
status 0 "$P" --rules-only "$T/pii.txt"
status 1 "$P" --rules-only --check "$T/pii.txt"
status 9 "$P" --rules-only --check --exit-code 9 "$T/pii.txt"
status 2 "$P" --rules-only --labels
status 3 "$P" --rules-only "$T/missing.txt"
status 3 "$P" --rules-only --check "$T/clean.txt" "$T/missing.txt"
status 4 "$P" -m "$T/missing-model" "$T/clean.txt"
PII_REDACT_FAULT=alloc:1+ status 5 "$P" --rules-only "$T/clean.txt"
echo ok
