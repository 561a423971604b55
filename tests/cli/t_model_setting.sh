#!/bin/sh
# Which model runs, and option defaults that stick: flags > $PII_REDACT_MODEL
# > the config file ($XDG_CONFIG_HOME/pii-redact/config, else
# ~/.config/pii-redact/config) > an opf checkpoint ($OPF_CHECKPOINT, else
# ~/.opf/privacy_filter; announced once) > the built-in model.  run.sh gives
# every test its own empty HOME and XDG_CONFIG_HOME.
set -eu
A="--layers 1 --d-model 32 --heads 2 --kv-heads 1 --head-dim 16 --experts 4 --top-k 2"
"$PII_REDACT" mkmodel -o "$TMPDIR/a" $A --seed 1
"$PII_REDACT" mkmodel -o "$TMPDIR/b" $A --seed 2
text='Write to Alice Smith at alice@example.com, 12 Main St, phone 415 555 0100.'
red() { printf '%s\n' "$text" | "$PII_REDACT" --model-only --decode argmax "$@"; }
red -m "$TMPDIR/a" --format json > "$TMPDIR/ra"
red -m "$TMPDIR/b" --format json > "$TMPDIR/rb"
red -m builtin --format json > "$TMPDIR/r0"
red --format json > "$TMPDIR/rnone"
if cmp -s "$TMPDIR/ra" "$TMPDIR/rb"; then exit 1; fi
if cmp -s "$TMPDIR/ra" "$TMPDIR/r0"; then exit 1; fi
cmp "$TMPDIR/r0" "$TMPDIR/rnone"
# the environment
PII_REDACT_MODEL="$TMPDIR/a" red --format json > "$TMPDIR/x"
cmp "$TMPDIR/x" "$TMPDIR/ra"
PII_REDACT_MODEL="$TMPDIR/a" red -m "$TMPDIR/b" --format json > "$TMPDIR/x"
cmp "$TMPDIR/x" "$TMPDIR/rb"
PII_REDACT_MODEL="$TMPDIR/a" "$PII_REDACT" info | grep -q "^model: *$TMPDIR/a\$"
# the config file: model and another option by their CLI names
mkdir -p "$XDG_CONFIG_HOME/pii-redact"
cfg="$XDG_CONFIG_HOME/pii-redact/config"
printf '# settings\nmodel = %s\n\nformat=json\n' "$TMPDIR/b" > "$cfg"
red > "$TMPDIR/x"
cmp "$TMPDIR/x" "$TMPDIR/rb"
"$PII_REDACT" info | grep -q "^model: *$TMPDIR/b\$"
PII_REDACT_MODEL="$TMPDIR/a" red > "$TMPDIR/x"
cmp "$TMPDIR/x" "$TMPDIR/ra"
red -m "$TMPDIR/a" > "$TMPDIR/x"
cmp "$TMPDIR/x" "$TMPDIR/ra"
red -m builtin > "$TMPDIR/x"
cmp "$TMPDIR/x" "$TMPDIR/r0"
red --format text -m "$TMPDIR/b" > "$TMPDIR/x"
if grep -q '"label"' "$TMPDIR/x"; then exit 1; fi
# a switch in the file
printf 'model = %s\nrules-only\n' "$TMPDIR/a" > "$cfg"
printf 'mail bob@example.com\n' | "$PII_REDACT" > "$TMPDIR/x"
test "$(cat "$TMPDIR/x")" = 'mail <PRIVATE_EMAIL>'
# without XDG_CONFIG_HOME: ~/.config/pii-redact/config
mkdir -p "$HOME/.config/pii-redact"
printf 'model = %s\nformat = json\n' "$TMPDIR/a" > "$HOME/.config/pii-redact/config"
env -u XDG_CONFIG_HOME sh -c 'printf "%s\n" "$1" | "$PII_REDACT" --model-only --decode argmax' \
    sh "$text" > "$TMPDIR/x"
cmp "$TMPDIR/x" "$TMPDIR/ra"
# an unknown key is a warning naming the file and line (issue 43); the
# rest of the file applies; other errors name the file and line, nothing runs
printf 'model = %s\nfromat = json\n' "$TMPDIR/a" > "$cfg"
printf 'x\n' | "$PII_REDACT" > "$TMPDIR/o" 2> "$TMPDIR/e"
test -s "$TMPDIR/o"
test "$(cat "$TMPDIR/e")" = "pii-redact: $cfg:2: warning: unknown option 'fromat' ignored"
printf 'model\n' > "$cfg"
set +e
printf 'x\n' | "$PII_REDACT" > /dev/null 2> "$TMPDIR/e"
rc=$?
set -e
test "$rc" -eq 2
grep -q "$cfg:1: 'model' needs a value" "$TMPDIR/e"
rm -f "$cfg" "$HOME/.config/pii-redact/config"
# opf: -m opf and auto-detection, announced once on stderr
set +e
red -m opf > /dev/null 2> "$TMPDIR/e"
rc=$?
set -e
test "$rc" -eq 4
grep -q 'no opf checkpoint' "$TMPDIR/e"
mkdir -p "$HOME/.opf"
"$PII_REDACT" mkmodel -o "$HOME/.opf/privacy_filter" --layout opf $A --seed 1
"$PII_REDACT" mkmodel -o "$TMPDIR/o.hf" --layout opf-hf $A --seed 1
red -m "$TMPDIR/o.hf" --format json > "$TMPDIR/ro"
red --format json > "$TMPDIR/x" 2> "$TMPDIR/e"
cmp "$TMPDIR/x" "$TMPDIR/ro"
test "$(wc -l < "$TMPDIR/e")" -eq 1
grep -q "^pii-redact: note: using the opf checkpoint $HOME/.opf/privacy_filter (~/.opf/privacy_filter); -m builtin for the built-in model\$" "$TMPDIR/e"
red --format json -q > /dev/null 2> "$TMPDIR/e"
test ! -s "$TMPDIR/e"
red -m opf --format json > "$TMPDIR/x" 2> "$TMPDIR/e"
cmp "$TMPDIR/x" "$TMPDIR/ro"
test ! -s "$TMPDIR/e"
red -m builtin --format json > "$TMPDIR/x" 2> "$TMPDIR/e"
cmp "$TMPDIR/x" "$TMPDIR/r0"
test ! -s "$TMPDIR/e"
PII_REDACT_MODEL="$TMPDIR/a" red --format json > "$TMPDIR/x" 2> "$TMPDIR/e"
cmp "$TMPDIR/x" "$TMPDIR/ra"
test ! -s "$TMPDIR/e"
"$PII_REDACT" info 2> /dev/null | grep -q '^layout: *OpenAI opf native$'
# $OPF_CHECKPOINT wins over ~/.opf
mv "$HOME/.opf/privacy_filter" "$TMPDIR/elsewhere"
OPF_CHECKPOINT="$TMPDIR/elsewhere" red --format json > "$TMPDIR/x" 2> "$TMPDIR/e"
cmp "$TMPDIR/x" "$TMPDIR/ro"
grep -q '(\$OPF_CHECKPOINT)' "$TMPDIR/e"
