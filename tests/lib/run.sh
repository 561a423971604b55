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
