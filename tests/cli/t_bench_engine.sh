#!/bin/sh
# bench times the engine users run (issue 20): exact facts, no timings.
#  - the documents are the corpus lines as --lines splits them (the '\n'
#    kept, an empty line and a last line without one included; --limit N:
#    the first N lines); sentences and tokens (o200k tokens of each line as
#    fed, counted here with `pii-redact tokenize --jsonl`) are exact, per
#    round, in both modes;
#  - the redacted text bench produced (--output) is byte for byte what
#    `pii-redact --lines` writes on the same file, model and rule tier by
#    default and with --model-only, whatever --pack;
#  - "pipeline" says which detectors ran; --length N cuts the corpus text
#    into floor(tokens / N) documents; the JSON parses;
#  - --mode document feeds the corpus as one document: its output is
#    `pii-redact FILE`'s, its tokens the whole file's.
# The fixture is a small random model with the o200k vocabulary (the engine
# refuses token ids outside a model's vocabulary).
set -eu
d="$TMPDIR"
P="$PII_REDACT"
"$P" mkmodel -o "$d/m" --layers 1 --d-model 64 --heads 2 --kv-heads 1 --head-dim 32 \
    --experts 4 --top-k 2 --vocab 200064 --labels 5 --seed 7 > /dev/null
# 30 sentences, a CRLF line, an empty line, a line with an e-mail for the
# rule tier, and a last line without a newline
head -n 30 samples/sentences.txt > "$d/c.txt"
printf 'Call Bob on +1 415 555 0100\r\n\nmail alice@example.com now\nno newline at the end' \
    >> "$d/c.txt"
nlines=34

# expected tokens: each line with its line end, as bench feeds it
python3 - "$d/c.txt" > "$d/c.jsonl" <<'EOF'
import json, sys
for line in open(sys.argv[1], "rb").read().splitlines(keepends=True):
    print(json.dumps({"text": line.decode()}))
EOF
test "$(wc -l < "$d/c.jsonl")" = "$nlines"
"$P" tokenize --jsonl < "$d/c.jsonl" > "$d/c.tok"
ntok=$(python3 -c 'import json,sys; print(sum(len(json.loads(l)["ids"]) for l in open(sys.argv[1])))' "$d/c.tok")
test "$ntok" -gt "$nlines"

field() { # FILE KEY: the value of KEY in a one-object JSON file
    python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))[sys.argv[2]]; print(v if not isinstance(v,float) or v!=int(v) else int(v))' "$1" "$2"
}

B="$P bench -m $d/m --corpus $d/c.txt --threads 2 --no-peak --json"

# throughput: 3 rounds, --output keeps the warm-up round's text
$B --rounds 3 --output "$d/b.out" > "$d/t.json"
python3 -m json.tool "$d/t.json" > /dev/null
test "$(field "$d/t.json" pipeline)" = model+rules
test "$(field "$d/t.json" mode)" = throughput
test "$(field "$d/t.json" corpus_sentences)" = "$nlines"
test "$(field "$d/t.json" corpus_tokens)" = "$ntok"
test "$(field "$d/t.json" rounds)" = 3
test "$(field "$d/t.json" sentences)" = $((3 * nlines))
test "$(field "$d/t.json" tokens)" = $((3 * ntok))
"$P" -m "$d/m" --lines --threads 2 "$d/c.txt" > "$d/l.out"
cmp "$d/b.out" "$d/l.out"
# the rule tier ran: the e-mail is redacted by a rule even if the model misses it
grep -q '^mail <PRIVATE_EMAIL>' "$d/b.out"
# output_bytes: 3 rounds of that text
test "$(field "$d/t.json" output_bytes)" = $((3 * $(wc -c < "$d/l.out")))

# the model alone
$B --rounds 1 --model-only --output "$d/bm.out" > "$d/tm.json"
test "$(field "$d/tm.json" pipeline)" = model
"$P" -m "$d/m" --model-only --lines --threads 2 "$d/c.txt" > "$d/lm.out"
cmp "$d/bm.out" "$d/lm.out"

# --pack: packing never changes the text; the JSON says what was asked
$B --rounds 1 --pack 16 --output "$d/bp.out" > "$d/tp.json"
test "$(field "$d/tp.json" pack)" = 16
cmp "$d/bp.out" "$d/l.out"

# latency: one line per flush, each a sample
$B --rounds 2 --mode latency > "$d/lat.json"
python3 -m json.tool "$d/lat.json" > /dev/null
test "$(field "$d/lat.json" mode)" = latency
test "$(field "$d/lat.json" sentences)" = $((2 * nlines))
test "$(field "$d/lat.json" tokens)" = $((2 * ntok))
test "$(field "$d/lat.json" flushes)" = $((2 * nlines))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert 0 <= j["p50_ms"] <= j["p90_ms"] <= j["p99_ms"]' "$d/lat.json"

# document: each round is `pii-redact FILE` — the corpus one document (its
# CRLF, empty line and unterminated last line inside it), tokens those of
# the whole file; --output is byte for byte the command's text
"$P" tokenize "$d/c.txt" | wc -w > "$d/cdoc.n"
$B --rounds 2 --mode document --output "$d/bd.out" > "$d/doc.json"
python3 -m json.tool "$d/doc.json" > /dev/null
test "$(field "$d/doc.json" mode)" = document
test "$(field "$d/doc.json" corpus_sentences)" = 1
test "$(field "$d/doc.json" sentences)" = 2
test "$(field "$d/doc.json" corpus_tokens)" = "$(cat "$d/cdoc.n")"
test "$(field "$d/doc.json" tokens)" = $((2 * $(cat "$d/cdoc.n")))
"$P" -m "$d/m" --threads 2 "$d/c.txt" > "$d/d.out"
cmp "$d/bd.out" "$d/d.out"
test "$(field "$d/doc.json" pipeline)" = model+rules
$B --rounds 1 --mode document --model-only --output "$d/bdm.out" > /dev/null
"$P" -m "$d/m" --model-only --threads 2 "$d/c.txt" > "$d/dm.out"
cmp "$d/bdm.out" "$d/dm.out"
# its first lines only with --limit
head -n 5 "$d/c.txt" > "$d/c5.txt"
$B --rounds 1 --mode document --limit 5 > "$d/doc5.json"
test "$(field "$d/doc5.json" tokens)" = "$("$P" tokenize "$d/c5.txt" | wc -w)"
# --length cuts lines: not in document mode; an unknown mode
if $B --mode document --length 10 2> "$d/err"; then exit 1; fi
grep -q 'not with --mode document' "$d/err"
if $B --mode lines 2> "$d/err"; then exit 1; fi
grep -q 'expected throughput, document or latency' "$d/err"

# --limit N: the first N lines
$B --rounds 1 --limit 5 > "$d/l5.json"
head -n 5 "$d/c.tok" > "$d/c5.tok"
n5=$(python3 -c 'import json,sys; print(sum(len(json.loads(l)["ids"]) for l in open(sys.argv[1])))' "$d/c5.tok")
test "$(field "$d/l5.json" sentences)" = 5
test "$(field "$d/l5.json" tokens)" = "$n5"

# --length N: the non-empty lines (without line ends) joined by spaces, cut
# every N tokens
python3 - "$d/c.txt" > "$d/joined.txt" <<'EOF'
import sys
lines = [l.rstrip(b"\n").rstrip(b"\r") for l in open(sys.argv[1], "rb").read().splitlines(keepends=True)]
sys.stdout.buffer.write(b" ".join(l for l in lines if l))
EOF
nj=$("$P" tokenize "$d/joined.txt" | wc -w)
$B --rounds 1 --length 50 > "$d/len.json"
test "$(field "$d/len.json" corpus_sentences)" = $((nj / 50))
test "$(field "$d/len.json" sentences)" = $((nj / 50))
test "$(field "$d/len.json" length)" = 50

# errors: a corpus shorter than --length, a missing corpus, --pack 0
if $B --rounds 1 --length 100000 2> "$d/err"; then exit 1; fi
grep -q 'fewer than 100000 tokens' "$d/err"
if $B --corpus "$d/nope" 2> /dev/null; then exit 1; fi
if $B --pack 0 2> /dev/null; then exit 1; fi
"$P" bench --help | grep -q -- '--model-only'
"$P" bench --help | grep -q -- '--output'
exit 0
