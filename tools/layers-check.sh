#!/bin/sh
# layers-check.sh — enforces the layer rule of docs/DESIGN.md.
#
#   tools/layers-check.sh [-c CLIENTS] [-d DESIGN.md] ARROWS ROOT [OBJECT...]
#
# ARROWS (mk/layers.txt) lists each layer (a folder under ROOT) and the
# layers it may use.  Fails (exit 1, one line per finding) when
#   - a .c/.h/.inc file of a layer includes ("..." or <...>) a header of a
#     layer it may not use, or a private header (one outside include/) of
#     another layer.  A header's layer is the first folder of its path when
#     the include names one ("redact/rx.h"), else the layer whose
#     include/ folder holds it ("pii_rt.h": runtime/include/), else the
#     including file's own folder; a quoted header found nowhere is an
#     error too (an angle include of no layer is a system header);
#   - an OBJECT (the build's objects; its layer is the name of the folder
#     it is in: build/release/runtime/cpu.o is runtime's) needs (nm -u) a
#     symbol that an OBJECT of a layer it may not use defines.  Symbols
#     no OBJECT defines (libc, PCRE2, utf8proc, json-c, the compiler's run
#     time) are not the check's business;
#   - with -c: a client file (CLIENTS lines "GLOB LAYER": tests and tools
#     above every layer) includes a private header of a layer other than
#     the LAYER it tests ("-": none);
#   - with -d: the table between "<!-- layers.txt -->" and
#     "<!-- /layers.txt -->" in DESIGN.md differs from ARROWS (comments and
#     blank lines left out, blanks squeezed).
# Exit 2: usage.  Plain sh, awk and nm: nothing to build.
set -eu

design=
clients=
while getopts c:d: opt; do
    case $opt in
    c) clients=$OPTARG ;;
    d) design=$OPTARG ;;
    *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || { echo "usage: $0 [-c CLIENTS] [-d DESIGN.md] ARROWS ROOT [OBJECT...]" >&2; exit 2; }
arrows=$1
root=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# "layer used..." lines, comments and blank lines dropped.
awk '{ sub(/#.*/, "") } NF { $1 = $1; print }' "$arrows" >"$tmp/arrows"
layers=$(awk '{ print $1 }' "$tmp/arrows" | tr '\n' ' ')
fail=0

# ---- the table in DESIGN.md -------------------------------------------------
if [ -n "$design" ]; then
    awk '/<!-- \/layers.txt -->/ { on = 0 } on && !/^```/ { sub(/#.*/, ""); if (NF) { $1 = $1; print } }
         /<!-- layers.txt -->/ { on = 1 }' "$design" >"$tmp/design"
    if ! cmp -s "$tmp/arrows" "$tmp/design"; then
        echo "layers: the table in $design differs from $arrows:"
        diff "$tmp/arrows" "$tmp/design" || true
        fail=1
    fi
fi

# ---- includes -----------------------------------------------------------------
# header name -> layer, from each layer's include/ folder
for l in $layers; do
    for h in "$root/$l"/include/*.h; do
        [ -e "$h" ] && printf '%s %s\n' "${h##*/}" "$l"
    done
done >"$tmp/headers"
# "layer file kind include" for every #include "..." (q) and <...> (a)
incs() { # LAYER FILE
    sed -n -e 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/q \1/p' \
        -e 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*<\([^>]*\)>.*/a \1/p' "$2" |
        while read -r kind inc; do printf '%s %s %s %s\n' "$1" "${2#"$root"/}" "$kind" "$inc"; done
}
for l in $layers; do
    for f in "$root/$l"/*.c "$root/$l"/*.h "$root/$l"/*.inc "$root/$l"/include/*.h; do
        [ -e "$f" ] && incs "$l" "$f"
    done
done >"$tmp/includes"
# the clients (tests, tools): "+LAYER file kind include", LAYER the one whose
# private headers the file may use ("-": none); the first glob naming a
# file decides
if [ -n "$clients" ]; then
    : >"$tmp/seen"
    awk '{ sub(/#.*/, "") } NF' "$clients" | while read -r glob tested; do
        for f in "$root"/$glob; do
            [ -e "$f" ] || continue
            grep -qxF "$f" "$tmp/seen" && continue
            echo "$f" >>"$tmp/seen"
            incs "+$tested" "$f"
        done
    done >>"$tmp/includes"
fi
awk -v root="$root" -v layers="$layers" '
    FILENAME == ARGV[1] { ok[$1, $1] = 1; for (i = 2; i <= NF; i++) ok[$1, $i] = 1; next }
    FILENAME == ARGV[2] { hdr[$1] = $2; next }
    {
        l = $1; f = $2; kind = $3; inc = $4; to = ""; priv = 0
        client = (substr(l, 1, 1) == "+"); tested = substr(l, 2)
        n = split(inc, part, "/")
        if (n > 1 && (" " layers " ") ~ (" " part[1] " ")) { to = part[1]; priv = (part[2] != "include") }
        else if (n == 1 && (inc in hdr)) to = hdr[inc]
        else if (kind == "a") next  # a system header
        else {
            dir = f; sub(/\/[^\/]*$/, "", dir)
            if ((getline junk < (root "/" dir "/" inc)) >= 0) {
                close(root "/" dir "/" inc)
                if (client) next  # the client folder own header
                to = l; priv = 1
            }
        }
        q = (kind == "a") ? "<" inc ">" : "\"" inc "\""
        if (to == "") { printf "layers: %s includes %s, which no layer holds\n", f, q; bad = 1 }
        else if (client) {
            if (priv && to != tested) {
                printf "layers: %s includes %s, a private header of %s, but tests %s (tests/layers/clients.txt)\n", f, q, to, tested
                bad = 1
            }
        } else if (priv && to != l) {
            printf "layers: %s (%s) includes %s, a private header of %s: only %s may use it\n", f, l, q, to, to
            bad = 1
        } else if (!((l, to) in ok)) {
            printf "layers: %s (%s) includes %s of %s: %s may not use %s (mk/layers.txt)\n", f, l, q, to, l, to
            bad = 1
        }
    }
    END { exit bad }' "$tmp/arrows" "$tmp/headers" "$tmp/includes" || fail=1

# ---- symbols --------------------------------------------------------------------
if [ $# -gt 0 ]; then
    # "D layer object symbol" for each global definition, "U ..." for each need
    { nm -A --defined-only "$@" | awk '$(NF-1) ~ /^[A-Z]$/ { print "D", $1, $NF }'
      nm -A -u "$@" | awk '{ print "U", $1, $NF }'; } |
        awk '{ sub(/:.*/, "", $2); n = split($2, p, "/"); print $1, p[n - 1], p[n - 1] "/" p[n], $3 }' >"$tmp/syms"
    awk 'FILENAME == ARGV[1] { ok[$1, $1] = 1; for (i = 2; i <= NF; i++) ok[$1, $i] = 1; known[$1] = 1; next }
         !($2 in known) { printf "layers: %s is in no layer folder\n", $3; bad = 1; next }
         $1 == "D" { def[$4] = $2; where[$4] = $3; next }
         { use[++n] = $2 " " $3 " " $4 }
         END {
             for (i = 1; i <= n; i++) {
                 split(use[i], u, " ")
                 if ((u[3] in def) && !((u[1], def[u[3]]) in ok)) {
                     printf "layers: %s (%s) calls %s, defined in %s (%s): %s may not use %s (mk/layers.txt)\n",
                            u[2], u[1], u[3], where[u[3]], def[u[3]], u[1], def[u[3]]
                     bad = 1
                 }
             }
             exit bad
         }' "$tmp/arrows" "$tmp/syms" || fail=1
fi

[ $fail -eq 0 ] && echo "layers: $(wc -l <"$tmp/includes") includes and $# objects follow $arrows"
exit $fail
