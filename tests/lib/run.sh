#!/bin/sh
# tests/lib/run.sh STAGE PREFIX — libpiiredact as its users get it: the tree
# that `make install DESTDIR=STAGE PREFIX=PREFIX` wrote, found through
# pkg-config, with the examples/ programs.  Checks, with exact bytes:
#   - examples/redact.c (cc) and examples/redact.cpp (g++) built with
#     `pkg-config --cflags --libs piiredact` and run on the shared library;
#   - every installed header has extern "C" guards, and a C++ translation
#     unit including all of them links;
#   - examples/piiredact.py through ctypes (/usr/bin/python3, stdlib only);
#   - tests/lib/easy_cli.c: the easy layer (buffer and 7-byte stream) gives
#     the installed command's bytes for several option strings, and its
#     create errors are codes plus one line;
#   - tests/lib/config_cli.c and config_py.py: for every option of the
#     configuration table (pii_config_option), the command, pii_config_set
#     from C and from Python, and a quoted option string give the same
#     bytes, and each option acts on the test input; the library's error
#     messages are the command's; the quoting of option strings;
#   - objdump -T: the exported symbols are exactly the stable API
#     (tests/lib/abi.txt), each in its version node (PIIREDACT_2 or
#     PIIREDACT_2.1, which inherits it), no
#     __wrap_/__real_ symbol at all; the SONAME and the symlinks; the .pc's
#     private requirements;
#   - the installed command finds bench's corpus and -V names the model.
# LIB_TEST_CFLAGS: extra compiler flags (the sanitizers under SAN=1, where
# the ctypes test is skipped: Python cannot load an ASan library).
set -u
stage=$1 prefix=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
lib=$stage$prefix/lib
bin=$stage$prefix/bin/pii-redact
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PKG_CONFIG_PATH="$lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
export LD_LIBRARY_PATH="$lib"
export HOME="$work" XDG_CONFIG_HOME="$work/.config"
unset PII_REDACT_MODEL OPF_CHECKPOINT PII_REDACT_KEY
pc="pkg-config --define-variable=prefix=$stage$prefix piiredact"
xflags=${LIB_TEST_CFLAGS:-}
fail=0 n=0

ok() { n=$((n + 1)); }
bad() { n=$((n + 1)); fail=$((fail + 1)); echo "FAIL: lib: $*" >&2; }
# same NAME EXPECTED-FILE ACTUAL-FILE
same() {
    if cmp -s "$2" "$3"; then ok; else
        bad "$1"; diff "$2" "$3" | head -20 | sed 's/^/  | /' >&2
    fi
}

cflags=$($pc --cflags) && libs=$($pc --libs) || { echo "FAIL: lib: pkg-config piiredact" >&2; exit 1; }
case " $($pc --print-requires-private | tr '\n' ' ')" in
*" libpcre2-8 "*"libutf8proc "*"json-c "*) ok ;;
*) bad "Requires.private of piiredact.pc" ;;
esac

# ---- the C example ----------------------------------------------------
printf 'Mail <PRIVATE_EMAIL> or call <PRIVATE_PHONE> today.\nprivate_email [5, 26)\nprivate_phone [35, 50)\n' >"$work/c.exp"
if cc -std=c11 -Wall -Wextra -Werror $xflags $cflags -o "$work/redact_c" "$root/examples/redact.c" $libs; then
    "$work/redact_c" >"$work/c.out" 2>&1
    same "examples/redact.c" "$work/c.exp" "$work/c.out"
    # it runs on the installed shared object, not on a static copy
    ldd "$work/redact_c" | grep -q "libpiiredact.so.2 => $lib/" && ok || bad "redact_c is not linked to $lib/libpiiredact.so.2"
else bad "examples/redact.c does not build"; fi

# ---- C++: the example and every header --------------------------------
printf 'libpiiredact 0.2.0: Mail *****************.com or call 1560b16e today.\n' >"$work/cpp.exp"
if g++ -std=c++11 -Wall -Wextra -Werror $xflags $cflags -o "$work/redact_cpp" "$root/examples/redact.cpp" $libs; then
    "$work/redact_cpp" >"$work/cpp.out" 2>&1
    same "examples/redact.cpp" "$work/cpp.exp" "$work/cpp.out"
else bad "examples/redact.cpp does not build"; fi
unguarded=$(grep -L 'extern "C"' "$stage$prefix"/include/piiredact/*.h)
[ -z "$unguarded" ] && ok || bad "headers without extern \"C\": $unguarded"
for h in "$stage$prefix"/include/piiredact/*.h; do echo "#include <$(basename "$h")>"; done >"$work/all.cpp"
printf 'int main() { return pii_strerror(PII_EIO)[0] == 0 || pii_errname(PII_OK)[0] == 0; }\n' >>"$work/all.cpp"
if g++ -std=c++11 -Wall -Wextra -Werror $xflags $cflags -o "$work/all" "$work/all.cpp" $libs && "$work/all"; then ok
else bad "a C++ unit including every installed header"; fi

# ---- Python through ctypes --------------------------------------------
if [ -n "$xflags" ]; then
    echo "lib: ctypes test skipped under the sanitizers"
else
    printf 'Mail <PRIVATE_EMAIL> or call <PRIVATE_PHONE> today.\nprivate_email [5, 26) rule\nprivate_phone [35, 50) rule\n' >"$work/py.exp"
    PIIREDACT_LIB="$lib/libpiiredact.so.2" /usr/bin/python3 "$root/examples/piiredact.py" >"$work/py.out" 2>&1
    same "examples/piiredact.py" "$work/py.exp" "$work/py.out"
fi

# ---- the easy layer gives the command's bytes ---------------------------
if cc -std=c11 -Wall -Wextra -Werror $xflags $cflags -o "$work/easy_cli" "$root/tests/lib/easy_cli.c" $libs; then
    printf '0123456789abcdef0123456789abcdef' >"$work/key" && chmod 600 "$work/key"
    for opts in "" "--rules-only" "--rules-only --operator mask" \
        "--labels private_email,private_phone" "--exclude-labels private_person --threshold 0.9" \
        "--operator pseudonym --operator private_email=hash:12 --key-file $work/key" \
        "-m builtin --model-only --threads 1"; do
        for f in "$root"/samples/support-ticket.txt "$root"/samples/chat.txt; do
            # shellcheck disable=SC2086
            "$bin" $opts <"$f" >"$work/cli.out" 2>"$work/cli.err" || echo "exit $?" >>"$work/cli.out"
            "$work/easy_cli" "$opts" <"$f" >"$work/easy.out" 2>&1 || echo "exit $?" >>"$work/easy.out"
            same "easy layer '$opts' on $(basename "$f")" "$work/cli.out" "$work/easy.out"
        done
    done
    "$work/easy_cli" --error "--rules-only --labels privat_email" >"$work/err.out" 2>&1
    echo "PII_EINVAL: --labels: unknown label 'privat_email'" >"$work/err.exp"
    same "unknown label" "$work/err.exp" "$work/err.out"
    "$work/easy_cli" --error "--rules-only --frobnicate" >"$work/err.out" 2>&1
    echo "PII_EINVAL: unknown option '--frobnicate'" >"$work/err.exp"
    same "unknown option" "$work/err.exp" "$work/err.out"
    "$work/easy_cli" --error "-m $work/no-such-model" >"$work/err.out" 2>&1
    grep -q "^PII_E[A-Z]*: $work/no-such-model: " "$work/err.out" && ok || bad "missing model: $(cat "$work/err.out")"
    "$work/easy_cli" --error "--rules-only --operator hash" >"$work/err.out" 2>&1
    echo "PII_ENOKEY: the hash operator needs a key: --key-file FILE or \$PII_REDACT_KEY" >"$work/err.exp"
    same "hash without a key" "$work/err.exp" "$work/err.out"
    printf 'short key\n' >"$work/short" && chmod 600 "$work/short"
    "$work/easy_cli" --error "--rules-only --operator hash --key-file $work/short" >"$work/err.out" 2>&1
    echo "PII_EINVAL: $work/short: the hash key has 9 bytes; at least 16 random bytes are needed (a short key is found by brute force): head -c 32 /dev/urandom >KEYFILE" >"$work/err.exp"
    same "short hash key" "$work/err.exp" "$work/err.out"
else bad "tests/lib/easy_cli.c does not build"; fi

# ---- every option of the configuration table: command == library ------
# The table (pii_config_option) drives the loop: each key the command has
# must have a case in opt_pairs below, else the test fails, so a new option
# cannot be left out.  For each, the same options give the same bytes and
# status through the command (argv), the library from C (pii_config_set
# pairs and pii_easy_create_args on a quoted string) and from Python
# (ctypes, pii_config_set pairs).  Paths with a blank exercise the quoting.
cfgdir="$work/my lists"
mkdir -p "$cfgdir"
printf 'Ngozi Okafor\nbob.smith@example.com\n' >"$cfgdir/allow.txt"
printf 'private_person\tZork\nsecret\tre:TKT-[0-9]{4}\n' >"$cfgdir/deny.txt"
printf '[acme_employee]\nlabel = account_number\nregex = \\bEMP-[0-9]{6}\\b\n' >"$cfgdir/rules.ini"
for op in default:2.0 strict:6.0; do
    printf '"%s": {"biases": {"transition_bias_background_stay": %s, "transition_bias_background_to_start": -1.5, "transition_bias_inside_to_continue": 0.5, "transition_bias_inside_to_end": 0.0, "transition_bias_end_to_background": 0.25, "transition_bias_end_to_start": -0.75}}' "${op%%:*}" "${op#*:}"
done | sed 's/}}"/}}, "/; s/^/{"operating_points": {/; s/$/}}\n/' >"$cfgdir/calibration.json"
cp "$cfgdir/calibration.json" "$work/calibration.json"
{
    cat "$root/samples/support-ticket.txt" "$root/samples/chat.txt"
    printf 'Zork wrote to Dr. Okafor about TKT-4411 and EMP-123456 (Porte, 2012).\n'
    printf 'Born 2024-01-02; see https://gnu.org/licenses/gpl.html and call 415-555-0100.\n'
    printf 'ngozi okafor replied; mail bob.smith@example.com, SSN 123-45-6789.\n'
    printf 'Ngozi Okafor called on Monday. Later, Okafor wrote back.\n'
    printf 'Mr. Hargreaves and Senator Wexley met Judge Pemberton.\n'
    printf 'As shown by (Porte, 2012) and Makel et al. (2019), results vary.\n'
    printf 'Set GIT_TRACE=1 and FT_Short before running; ask the Ministry of Health.\n'
    printf 'the quick brown fox asked hope and grace about it.\n'
    printf 'Contact john smith or mary jones tomorrow.\n'
    printf 'Patient: Zainab Abubakar, DOB 1984-03-12. Zainab later called.\n'
} >"$work/opt.in"
# opt_pairs KEY: the KEY<TAB>VALUE lines (VALUE empty: a switch) that test
# the option; status 1 for a key without a case.
opt_pairs() {
    case $1 in
    model) printf 'model\tbuiltin\n' ;;
    rules-only | model-only | all-dates-urls | no-calibration | no-honorifics | no-name-filter | \
        no-dictionary-filter | binary | no-rules-file)
        printf '%s\t\n' "$1" ;;
    no-name-memory) printf 'threshold\t0.999\nno-name-memory\t\n' ;;
    no-citations | no-name-lexicon) printf 'decode\targmax\n%s\t\n' "$1" ;;
    window) printf 'window\t1100\n' ;;
    threshold) printf 'threshold\tprivate_person=0.99\nthreshold\t0.6\n' ;;
    operating-point) printf 'calibration\t%s\noperating-point\tstrict\n' "$cfgdir/calibration.json" ;;
    calibration) printf 'calibration\t%s\n' "$cfgdir/calibration.json" ;;
    bias) printf 'no-calibration\t\nbias\tbackground_stay=4\nbias\tend_to_start=-1\n' ;;
    decode) printf 'decode\targmax\n' ;;
    threads) printf 'threads\t1\n' ;;
    act) printf 'act\tint8\n' ;;
    attn) printf 'attn\tf32\n' ;;
    operator) printf 'operator\tplaceholder:[{LABEL} "was" here]\noperator\tprivate_email=mask:#:4\n' ;;
    key-file) printf 'key-file\t%s\noperator\thash:8\n' "$work/key" ;;
    labels) printf 'labels\temail,private_phone\n' ;;
    exclude-labels) printf 'exclude-labels\tperson\n' ;;
    allow) printf 'allow\t%s\n' "$cfgdir/allow.txt" ;;
    deny) printf 'deny\t%s\n' "$cfgdir/deny.txt" ;;
    rules-file) printf 'rules-file\t%s\n' "$cfgdir/rules.ini" ;;
    *) return 1 ;;
    esac
}
# The effect: the bytes differ from the same options without the key's own
# lines, except for the keys listed here (their bytes are still compared):
# the default model named, one thread, windows (exact by design), the
# activation and attention precisions (same spans here), the built-in
# model's calibration switch (it ships no calibration file), no rule
# file to skip, no wide text, and name heuristics the built-in model's own
# spans cover on this input.
same_as_default=" model threads window act attn no-calibration no-rules-file binary no-honorifics no-name-filter no-dictionary-filter "
q() { printf '%s' "$1" | sed 's/[\\"$`]/\\&/g'; } # for "..." in an option string
if cc -std=c11 -Wall -Wextra -Werror $xflags $cflags -o "$work/config_cli" "$root/tests/lib/config_cli.c" $libs; then
    "$work/config_cli" --list >"$work/table"
    [ "$(wc -l <"$work/table")" -ge 30 ] && ok || bad "config table: $(wc -l <"$work/table") entries"
    if [ -z "$xflags" ]; then
        PIIREDACT_LIB="$lib/libpiiredact.so.2" /usr/bin/python3 "$root/tests/lib/config_py.py" --list >"$work/table.py" 2>&1
        same "the option table through ctypes" "$work/table" "$work/table.py"
    fi
    "$bin" --help >"$work/help.out"
    for key in $(awk '$4 == 0 { print $1 }' "$work/table"); do
        grep -q -- "--$key\\b" "$work/help.out" && ok || bad "config key '$key' is not an option of pii-redact --help"
        opt_pairs "$key" >"$work/pairs" || { bad "config key '$key' has no case in tests/lib/run.sh opt_pairs"; continue; }
        set -- # the command's argv
        str="" # the same as one option string, quoted
        while IFS='	' read -r k v; do
            if [ -n "$v" ]; then
                set -- "$@" "--$k" "$v"
                str="$str --$k \"$(q "$v")\""
            else
                set -- "$@" "--$k"
                str="$str --$k"
            fi
        done <"$work/pairs"
        # the command runs in $work: no repository, no .pii-redact.rules
        (cd "$work" && "$bin" --no-config "$@" <"$work/opt.in" >"$work/cli.out" 2>/dev/null) || echo "exit $?" >>"$work/cli.out"
        set -- # the same without the key's own lines: what it changes
        while IFS='	' read -r k v; do
            [ "$k" = "$key" ] && continue
            if [ -n "$v" ]; then set -- "$@" "--$k" "$v"; else set -- "$@" "--$k"; fi
        done <"$work/pairs"
        (cd "$work" && "$bin" --no-config "$@" <"$work/opt.in" >"$work/ctx.out" 2>/dev/null) || echo "exit $?" >>"$work/ctx.out"
        set --
        while IFS='	' read -r k v; do set -- "$@" "$k" "$v"; done <"$work/pairs"
        "$work/config_cli" "$@" <"$work/opt.in" >"$work/cfg.out" 2>&1 || echo "exit $?" >>"$work/cfg.out"
        "$work/easy_cli" "$str" <"$work/opt.in" >"$work/str.out" 2>&1 || echo "exit $?" >>"$work/str.out"
        same "--$key: pii_config_set gives the command's bytes" "$work/cli.out" "$work/cfg.out"
        same "--$key: the option string$str gives the command's bytes" "$work/cli.out" "$work/str.out"
        if [ -z "$xflags" ]; then
            PIIREDACT_LIB="$lib/libpiiredact.so.2" /usr/bin/python3 "$root/tests/lib/config_py.py" "$@" <"$work/opt.in" >"$work/py.out" 2>&1 || echo "exit $?" >>"$work/py.out"
            same "--$key: Python's pii_config_set gives the command's bytes" "$work/cli.out" "$work/py.out"
        fi
        # the option acts (or is listed as not acting on this input)
        if cmp -s "$work/cli.out" "$work/ctx.out"; then
            case $same_as_default in *" $key "*) ok ;; *) bad "--$key: no effect on the test input" ;; esac
        else
            case $same_as_default in *" $key "*) bad "--$key: listed as no effect, but the bytes differ" ;; *) ok ;; esac
        fi
    done
    # errors: the library's message is the command's first line
    for opts in "--labels privat_email" "--window 0" "--act int3" "--decode fast" "--allow $work/none" \
        "--rules-file $work/none" "--operator bogus" "--threshold 2" "--operating-point nope --calibration $work/calibration.json"; do
        # shellcheck disable=SC2086
        (cd "$work" && "$bin" --no-config $opts </dev/null 2>&1 >/dev/null | head -1 | sed 's/^pii-redact: //') >"$work/err.exp"
        "$work/easy_cli" --error "$opts" | sed 's/^PII_E[A-Z]*: //' >"$work/err.out"
        [ -s "$work/err.exp" ] && ok || bad "'$opts': the command did not fail"
        same "'$opts': the library's message is the command's" "$work/err.exp" "$work/err.out"
    done
    # the quoting of option strings: '...', "...", backslashes
    printf 'Mail bob.smith@example.com now.\n' >"$work/q.in"
    for s in "--rules-only --operator 'placeholder:[a \"b\" c]'" "--rules-only --operator \"placeholder:[a \\\"b\\\" c]\"" \
        "--rules-only --operator placeholder:[a\\ \\\"b\\\"\\ c]" "--rules-only --operator=placeholder:'[a \"b\" c]'"; do
        "$work/easy_cli" "$s" <"$work/q.in" >"$work/q.out" 2>&1
        printf 'Mail [a "b" c] now.\n' >"$work/q.exp"
        same "quoting: $s" "$work/q.exp" "$work/q.out"
    done
    "$work/easy_cli" --error "--rules-only --operator 'mask" >"$work/err.out"
    echo "PII_EINVAL: unterminated quote or final backslash in the options" >"$work/err.exp"
    same "an unterminated quote" "$work/err.exp" "$work/err.out"
else bad "tests/lib/config_cli.c does not build"; fi

# ---- the exported symbols ------------------------------------------------
so=$lib/libpiiredact.so.2
[ "$(readlink "$lib/libpiiredact.so")" = libpiiredact.so.2 ] &&
    [ "$(readlink "$so")" = libpiiredact.so.0.2.0 ] && ok || bad "symlinks libpiiredact.so -> .so.2 -> .so.0.2.0"
objdump -p "$so" | grep -q 'SONAME *libpiiredact.so.2$' && ok || bad "SONAME"
nm -D --defined-only "$so" | awk '$(NF-1) != "A" { sub(/@.*/, "", $NF); print $NF }' >"$work/syms"
[ -s "$work/syms" ] && ok || bad "nm -D lists nothing"
grep -v '^pii_' "$work/syms" >"$work/nonpii"
[ -s "$work/nonpii" ] && bad "exported symbols without pii_: $(head -5 "$work/nonpii" | tr '\n' ' ')" || ok
nm -D "$so" | grep -E '__(wrap|real)_' >"$work/wrap"
[ -s "$work/wrap" ] && bad "the test rig is in the .so: $(head -3 "$work/wrap" | tr '\n' ' ')" || ok
# exactly the stable API (tests/lib/abi.txt, mk/libpiiredact.map), each in
# its version node (PIIREDACT_2, PIIREDACT_2.1)
objdump -T "$so" | awk '$NF ~ /^pii_/ { print $NF, $(NF-1) }' | LC_ALL=C sort >"$work/syms.sorted"
same "objdump -T is the stable API of tests/lib/abi.txt, symbol and node" "$root/tests/lib/abi.txt" "$work/syms.sorted"
LC_ALL=C sort "$work/syms" >"$work/a" && cut -d' ' -f1 "$work/syms.sorted" >"$work/b"
same "nm -D and objdump -T list the same symbols" "$work/a" "$work/b"

# ---- the installed command ----------------------------------------------
"$bin" -V >"$work/v.out" 2>&1
head -1 "$work/v.out" | grep -qx 'pii-redact 0.2.0' && ok || bad "-V first line: $(head -1 "$work/v.out")"
grep -Eq '^model: +built-in, [0-9]+ bytes, sha256 [0-9a-f]{12}$|^model: +none built in$' "$work/v.out" && ok || bad "-V model line: $(cat "$work/v.out")"
grep -Eq '^kernels: +(scalar|avx2|avx512)$' "$work/v.out" && ok || bad "-V kernels line"
(cd "$work" && "$bin" bench --seconds 0.2 --limit 20 --json) >"$work/bench.out" 2>&1 && ok || bad "bench from another folder: $(tail -3 "$work/bench.out")"

echo "lib: $((n - fail))/$n checks passed"
[ "$fail" -eq 0 ]
