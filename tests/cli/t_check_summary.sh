# --check's summary line (issue 43, item 7): it counts what was reported,
# not the findings the allow marker or the baseline suppressed (those are
# counted apart), never says "changed" (--check writes nothing), and says
# "1 file" / "1 finding" in the singular.  Redaction keeps its own line.
set -u
P=$PII_REDACT
T=$TMPDIR
fail() { echo "FAIL: $*"; exit 1; }
cd "$T" || exit 1
mkdir -p d
printf 'a bob@example.com\nok alice@example.org # pii-redact:allow\nc carol@example.net\n' >d/t.txt

sumline() { sed -n 's/; [0-9.]* [kMG]*B in [0-9.]* s ([0-9.]* [kMG]*B\/s);/; SIZE;/p' err; }
"$P" --rules-only --check -r d >out 2>err
[ $? -eq 1 ] || fail "exit with findings"
[ "$(wc -l <out)" -eq 2 ] || fail "two findings printed: $(cat out)"
[ "$(sumline)" = 'pii-redact: 1 file: 1 scanned, 0 skipped, 0 failed; SIZE; 2 findings in 1 file; 1 more not reported (allow marker, baseline)' ] ||
    fail "summary with the allow marker: $(cat err)"
# a baseline that holds carol's finding: one reported, two not
"$P" --rules-only --check -q d/t.txt | sed -n 2p | cut -d' ' -f4 >base.txt
"$P" --rules-only --check -r d --baseline base.txt >out 2>err
[ $? -eq 1 ] && [ "$(wc -l <out)" -eq 1 ] || fail "baseline: $(cat out)"
[ "$(sumline)" = 'pii-redact: 1 file: 1 scanned, 0 skipped, 0 failed; SIZE; 1 finding in 1 file; 2 more not reported (allow marker, baseline)' ] ||
    fail "summary with a baseline: $(cat err)"
# nothing reported: 0 findings in 0 files, exit 0
"$P" --rules-only --check -q d/t.txt | cut -d' ' -f4 >base.txt
printf 'nothing\n' >d/u.txt
"$P" --rules-only --check -r d --baseline base.txt >out 2>err
[ $? -eq 0 ] && [ ! -s out ] || fail "all in the baseline: $(cat out)"
[ "$(sumline)" = 'pii-redact: 2 files: 2 scanned, 0 skipped, 0 failed; SIZE; 0 findings in 0 files; 3 more not reported (allow marker, baseline)' ] ||
    fail "summary, all suppressed: $(cat err)"
grep -q changed err && fail "--check said changed: $(cat err)"
# redaction: every span is redacted, so every one is counted
"$P" --rules-only -r d --out-dir o >/dev/null 2>err || fail "redaction run"
[ "$(sumline)" = 'pii-redact: 2 files: 2 done (1 changed), 0 skipped, 0 failed; SIZE; 3 findings in 1 file' ] ||
    fail "redaction summary: $(cat err)"
echo ok
