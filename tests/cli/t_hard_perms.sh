# Issue 42 M2: outputs are never more readable than their inputs.
# --out-dir and --suffix outputs get the input's permission bits (within
# the umask), mirrored folders the bits of the input folder they mirror
# (plus the owner's rwx); the input's POSIX access ACL is copied to every
# output (--in-place too), and an ACL inherited from a default ACL of the
# output folder is removed when the input has none.  ACLs are set and read
# as the raw system.posix_acl_* attributes with python3 (no acl tools
# needed); where the file system has no ACLs, the mode cases still run.
set -u
P=$PII_REDACT
fail() { echo "FAIL: $*"; exit 1; }
cd "$TMPDIR" || exit 1
umask 022
E='Mail bob@example.com now.'
mode() { stat -c %a "$1"; }
mkdir -p sec pub
printf '%s\n' "$E" >sec/f.txt && chmod 600 sec/f.txt && chmod 700 sec
printf '%s\n' "$E" >pub/g.txt && chmod 644 pub/g.txt && chmod 755 pub
printf '%s\n' "$E" >pub/h.txt && chmod 640 pub/h.txt

"$P" --rules-only -q -r sec pub --out-dir od || fail "out-dir: exit $?"
[ "$(mode od/sec)" = 700 ] || fail "mirrored folder of a 0700 folder: $(mode od/sec)"
[ "$(mode od/sec/f.txt)" = 600 ] || fail "output of a 0600 file: $(mode od/sec/f.txt)"
[ "$(mode od/pub)" = 755 ] || fail "mirrored folder of a 0755 folder: $(mode od/pub)"
[ "$(mode od/pub/g.txt)" = 644 ] || fail "output of a 0644 file: $(mode od/pub/g.txt)"
[ "$(mode od/pub/h.txt)" = 640 ] || fail "output of a 0640 file: $(mode od/pub/h.txt)"
"$P" --rules-only -q sec/f.txt --suffix .red || fail "suffix: exit $?"
[ "$(mode sec/f.txt.red)" = 600 ] || fail "--suffix output of a 0600 file: $(mode sec/f.txt.red)"
# the umask still narrows
(umask 077 && "$P" --rules-only -q pub/g.txt --out-dir od77) || fail "umask 077"
[ "$(mode od77/pub/g.txt)" = 600 ] || fail "umask 077: $(mode od77/pub/g.txt)"

# ACLs (raw attributes): user::rw- user:nobody:rw- group::--- mask::rw- other::---
acl() { # set FILE
    /usr/bin/python3 - "$1" <<'EOS'
import os, struct, sys
e = [(1, 6, 0xffffffff), (2, 6, 65534), (4, 0, 0xffffffff), (0x10, 6, 0xffffffff), (0x20, 0, 0xffffffff)]
os.setxattr(sys.argv[1], 'system.posix_acl_access',
            struct.pack('<I', 2) + b''.join(struct.pack('<HHI', *x) for x in e))
EOS
}
getacl() { # FILE [access|default]: the attribute in hex, or "none"
    /usr/bin/python3 -c 'import os,sys
try: print(os.getxattr(sys.argv[1], "system.posix_acl_" + sys.argv[2]).hex())
except OSError: print("none")' "$1" "${2:-access}"
}
mkdir acl
printf '%s\n' "$E" >acl/a.txt && chmod 600 acl/a.txt
if acl acl/a.txt 2>/dev/null; then
    want=$(getacl acl/a.txt)
    [ "$(mode acl/a.txt)" = 660 ] || fail "setup: mask bits $(mode acl/a.txt)"
    cp -a acl acl2
    "$P" --rules-only -q --in-place acl/a.txt || fail "in-place: exit $?"
    [ "$(cat acl/a.txt)" = 'Mail <PRIVATE_EMAIL> now.' ] || fail "in-place: not redacted"
    [ "$(getacl acl/a.txt)" = "$want" ] || fail "in-place: ACL lost: $(getacl acl/a.txt)"
    "$P" --rules-only -q acl2/a.txt --out-dir oa || fail "out-dir acl: exit $?"
    [ "$(getacl oa/acl2/a.txt)" = "$want" ] || fail "out-dir: ACL not copied: $(getacl oa/acl2/a.txt)"
    # a default ACL of the destination folder does not widen a plain input
    mkdir od2
    /usr/bin/python3 -c 'import os,struct
e=[(1,7,0xffffffff),(2,7,65534),(4,5,0xffffffff),(0x10,7,0xffffffff),(0x20,5,0xffffffff)]
os.setxattr("od2","system.posix_acl_default",struct.pack("<I",2)+b"".join(struct.pack("<HHI",*x) for x in e))'
    "$P" --rules-only -q sec/f.txt --out-dir od2 || fail "default acl: exit $?"
    [ "$(getacl od2/sec/f.txt)" = none ] || fail "an inherited ACL stayed: $(getacl od2/sec/f.txt)"
    [ "$(mode od2/sec/f.txt)" = 600 ] || fail "default acl: mode $(mode od2/sec/f.txt)"
else
    echo "no POSIX ACLs on this file system: mode cases only"
fi
echo ok
