# Temporary files never follow a planted name: --report, quantize and
# mkmodel write a new file (O_CREAT|O_EXCL|O_NOFOLLOW, 0600, random
# suffix) and rename it; the old fixed names (FILE.tmp) planted as
# symbolic links leave their targets alone.  (Issue 18, H2.)
set -e
P=$PII_REDACT
. "$(dirname "$0")/lib.sh" # fail, tiny_model
cd "$TMPDIR"
printf 'precious\n' >victim
cp victim victim.orig
mkdir -p tree
printf 'Mail bob.smith@example.com now.\n' >tree/a.txt

# --report: report.json.tmp is a link to the victim.
ln -s "$TMPDIR/victim" report.json.tmp
"$P" --rules-only -r --check --report report.json tree >/dev/null 2>&1 || true
cmp -s victim victim.orig || fail "--report wrote through a planted link"
[ -L report.json.tmp ] || fail "--report removed the planted link"
jq -e '.summary.files == 1' report.json >/dev/null || fail "report not written"
[ "$(stat -c %a report.json)" = 600 ] || fail "report mode $(stat -c %a report.json), want 600"
ls -a | grep -q 'report.json.tmp-' && fail "temporary report left behind"

# A report named by a link replaces the link, not its target.
rm -f report.json
ln -s "$TMPDIR/victim" report.json
"$P" --rules-only -r --check --report report.json tree >/dev/null 2>&1 || true
cmp -s victim victim.orig || fail "--report wrote through the report link"
[ ! -L report.json ] || fail "report link still in place"

# mkmodel: planted model.safetensors.tmp and config.json links.
mkdir m
ln -s "$TMPDIR/victim" m/model.safetensors.tmp
ln -s "$TMPDIR/victim" m/config.json
tiny_model m --vocab 1000
cmp -s victim victim.orig || fail "mkmodel wrote through a planted link"
[ -L m/model.safetensors.tmp ] || fail "mkmodel removed the planted link"
[ ! -L m/config.json ] && [ -s m/config.json ] || fail "mkmodel config.json"
[ "$(stat -c %a m/model.safetensors)" = 600 ] || fail "model mode"
ln -s "$TMPDIR/victim" m1.gguf.tmp
"$P" mkmodel -o m1.gguf --gguf f16 --layers 1 --d-model 32 --heads 2 --kv-heads 1 \
    --head-dim 16 --experts 4 --top-k 2 --labels 33 --vocab 1000 --seed 3 >/dev/null
cmp -s victim victim.orig || fail "mkmodel --gguf wrote through a planted link"
[ -s m1.gguf ] || fail "no gguf written"

# quantize: planted model.safetensors.tmp and config.json in the output.
mkdir q
ln -s "$TMPDIR/victim" q/model.safetensors.tmp
ln -s "$TMPDIR/victim" q/config.json
"$P" quantize -m m -o q --type int8 >/dev/null 2>&1 || fail "quantize: exit $?"
cmp -s victim victim.orig || fail "quantize wrote through a planted link"
[ ! -L q/config.json ] && [ -s q/config.json ] || fail "quantize config.json"
ls -a q | grep -q '\.tmp-' && fail "quantize left a temporary file"
ls -a m | grep -q '\.tmp-' && fail "mkmodel left a temporary file"
echo ok
