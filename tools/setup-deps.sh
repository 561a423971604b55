#!/bin/sh
# Installs the Debian packages needed to build and test pii-redact, only
# when one is missing.  Runs as root directly, or through sudo.
# Extra packages named as arguments are checked too (make fuzz asks for
# clang-14 libclang-rt-14-dev, make valgrind for valgrind).
set -e
PKGS="build-essential pkg-config libpcre2-dev libutf8proc-dev libjson-c-dev libcmocka-dev parallel time jq groff-base python3-jsonschema python3-rfc3987 pre-commit libmicrohttpd-dev curl"
PKGS="$PKGS $*"
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "setup: installing$missing" >&2
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends $missing >&2
