#!/bin/sh
# tools/fresh-check.sh — proves that the README's first command works on a
# machine without the build dependencies: removes the -dev packages
# (apt-get remove), clones this repository's committed HEAD into a
# temporary folder, runs `make demo` there ONCE, and then reinstalls exactly
# what it removed (nothing else; packages that were marked automatically
# installed are marked so again).  Exit status: make demo's.
#
#   tools/fresh-check.sh            the repository this script is in
#   tools/fresh-check.sh DIR        another clone
#   FRESH_TARGET=check tools/fresh-check.sh    `make check` instead
#
# Needs root or sudo, and apt able to fetch the packages again: it
# downloads them before removing anything and stops if it cannot.  Other
# builds on this machine fail while it runs (their headers are gone).
set -eu
repo=$(cd "${1:-$(dirname "$0")/..}" && pwd)
target=${FRESH_TARGET:-demo}
DEV="libpcre2-dev libutf8proc-dev libjson-c-dev libcmocka-dev libmicrohttpd-dev"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive

present=""
for p in $DEV; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' &&
        present="$present $p"
done
removed=""
if [ -n "$present" ]; then
    # everything apt would take away with them (their reverse dependencies)
    # shellcheck disable=SC2086
    removed=$(apt-get -s remove $present | awk '/^Remv /{print $2}' | tr '\n' ' ')
fi
auto=""
[ -z "$removed" ] || auto=$(apt-mark showauto $removed | tr '\n' ' ')

restore() {
    [ -n "$removed" ] || return 0
    echo "fresh-check: reinstalling $removed" >&2
    # shellcheck disable=SC2086
    $SUDO apt-get install -y -qq --no-install-recommends $removed >&2 || {
        echo "fresh-check: REINSTALL FAILED; run: apt-get install $removed" >&2
        return 1
    }
    # shellcheck disable=SC2086
    [ -z "$auto" ] || $SUDO apt-mark auto $auto >/dev/null
    removed=""
}

if [ -n "$removed" ]; then
    # fetch first, so that what is removed can come back
    # shellcheck disable=SC2086
    $SUDO apt-get install --reinstall -d -y -qq --no-install-recommends $removed >&2 || {
        echo "fresh-check: cannot download $removed; nothing removed" >&2
        exit 2
    }
    trap 'restore' EXIT
    trap 'exit 130' INT TERM
    echo "fresh-check: removing $removed" >&2
    # shellcheck disable=SC2086
    $SUDO apt-get remove -y -qq $removed >&2
fi
if [ -e /usr/include/json-c/json.h ] || pkg-config --exists json-c 2>/dev/null; then
    echo "fresh-check: json-c's headers are still installed" >&2
    exit 2
fi

tmp=$(mktemp -d)
branch=$(git -C "$repo" rev-parse --abbrev-ref HEAD)
git clone -q -b "$branch" "$repo" "$tmp/pii-redact"
echo "fresh-check: make $target in $tmp/pii-redact ($branch, $(git -C "$tmp/pii-redact" rev-parse --short HEAD))" >&2
status=0
(cd "$tmp/pii-redact" && make "$target") || status=$?
rm -rf "$tmp"
if [ "$status" -eq 0 ]; then
    echo "fresh-check: make $target passed in one invocation" >&2
else
    echo "fresh-check: make $target FAILED (exit $status)" >&2
fi
restore || status=1
exit "$status"
