# Secrets are credentials, never digests or code (issue 40, docs/LABELS.md):
# hex after sha256:/sha1:/SHA256 (file) =, commit ids and a dotted code path
# assigned to a password name are not redacted; a value assigned to a
# credential name is.  Built-in model, exact bytes.
set -u
P=$PII_REDACT
T=$TMPDIR
fail() { echo "FAIL: $*"; exit 1; }
cat >"$T/in" <<'IN'
commit 3f9cec3f51a2b4c5d6e7f8091a2b3c4d5e6f7081
Merge: 9915774 8d85a43
image: nginx@sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
sha1: da39a3ee5e6b4b0d3255bfef95601890afd80709
checksum = 5d41402abc4b2a76b9719d911017c592
SHA256 (pii-redact-0.2.0.tar.gz) = 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
        self.password = self.distribution.password
    struct x = th_u1.th_u2.tu_data;
PASS: config.sub
session_id = 3f9cec3f51a2b4c5d6e7f8091a2b3c4d5e6f7081
password: correct.horse
IN
cat >"$T/want" <<'OUT'
commit 3f9cec3f51a2b4c5d6e7f8091a2b3c4d5e6f7081
Merge: 9915774 8d85a43
image: nginx@sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
sha1: da39a3ee5e6b4b0d3255bfef95601890afd80709
checksum = 5d41402abc4b2a76b9719d911017c592
SHA256 (pii-redact-0.2.0.tar.gz) = 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
        self.password = self.distribution.password
    struct x = th_u1.th_u2.tu_data;
PASS: config.sub
session_id = <SECRET>
password: <SECRET>
OUT
for mode in "" --lines; do
    # shellcheck disable=SC2086
    "$P" $mode "$T/in" >"$T/out" 2>"$T/err" || fail "exit $? $mode ($(cat "$T/err"))"
    cmp -s "$T/want" "$T/out" || { diff "$T/want" "$T/out"; fail "output ${mode:-(one document)}"; }
done
exit 0
