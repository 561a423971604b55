# A NaN in any weight fails closed with the model error (exit 4) instead of
# silently finding nothing: bf16 0x7fc0 poked into the first element of
# score.weight, the router, an expert and q_proj of a tiny random model.
# (Issue 18, H3.)
set -e
P=$PII_REDACT
. "$(dirname "$0")/lib.sh" # fail, tiny_model
cd "$TMPDIR"
tiny_model m
printf 'Contact Maria Garcia today about the invoice.\nSecond line here.\n' >in.txt
"$P" -m m --threads 1 in.txt >ref.txt 2>err || fail "clean model: exit $?"

# poke DIR TENSOR: writes bf16 NaN (bytes C0 7F) over the tensor's first value
poke() {
    f=$1/model.safetensors
    hl=$(od -An -t u8 -N 8 "$f" | tr -d ' ')
    off=$(tail -c +9 "$f" | head -c "$hl" | jq -r --arg t "$2" '.[$t].data_offsets[0]')
    [ -n "$off" ] && [ "$off" != null ] || fail "no tensor $2"
    printf '\300\177' | dd of="$f" bs=1 seek=$((8 + hl + off)) conv=notrunc 2>/dev/null
}

for t in score.weight model.layers.0.mlp.router.weight model.layers.0.mlp.experts.gate_up_proj \
    model.layers.0.self_attn.q_proj.weight model.embed_tokens.weight; do
    rm -rf bad
    cp -r m bad
    poke bad "$t"
    cmp -s m/model.safetensors bad/model.safetensors && fail "$t: poke changed nothing"
    for args in "" "--lines" "--format jsonl" "--check"; do
        set +e
        # the embedding row of token 0 only matters if token 0 occurs: feed "!"
        if [ "$t" = model.embed_tokens.weight ]; then
            printf '!!! Maria\n' | "$P" -m bad --threads 1 $args >out 2>err
        else
            "$P" -m bad --threads 1 $args in.txt >out 2>err
        fi
        rc=$?
        set -e
        [ $rc -eq 4 ] || fail "$t $args: exit $rc, want 4"
        grep -q 'model error' err || fail "$t $args: no model error message"
        grep -q Maria out && fail "$t $args: name written"
        grep -q Maria err && fail "$t $args: input on stderr"
    done
done
rm -rf bad
cp -r m bad
poke bad score.weight
# The forward pass itself refuses non-finite logits (the load-time check
# is the CLI's; `logits` loads without it): no line is printed.
set +e
printf 'hello there\n' | "$P" logits -m bad --threads 1 >out 2>err
rc=$?
set -e
[ $rc -ne 0 ] || fail "logits: exit 0"
grep -q 'model error' err || fail "logits: no model error"
[ ! -s out ] || fail "logits: NaN logits printed"

# Batch: the file fails (exit 3 or 4), nothing is written for it.
mkdir -p tree
cp in.txt tree/a.txt
rm -rf bad od
cp -r m bad
poke bad score.weight
set +e
"$P" -m bad --threads 1 -r --out-dir od tree >out 2>err
rc=$?
set -e
[ $rc -ne 0 ] || fail "batch: exit 0"
[ ! -e od/tree/a.txt ] || fail "batch: output written"
echo ok
