#!/usr/bin/env python3
"""Third-party parity: Hugging Face transformers' own OpenAI Privacy Filter
implementation against `pii-redact logits`, on a random HF-layout model.

    tools/parity/transformers_parity.py [--pii-redact ./pii-redact] [--tokens 300]

Builds a random model with `pii-redact mkmodel --dtype f32` (full widths by
default, fewer layers and experts so that it runs in seconds), runs
`OpenAIPrivacyFilterForTokenClassification` (float32, eager attention) and
`pii-redact logits --ids --rope-f32` (stock HF's float32 RoPE angles) on the
same random token ids, and prints max |Δlogit|, the minimum per-token cosine
and the share of tokens with the same argmax.  Exit 0 when max |Δ| is within
--tol (default 1e-4), 1 when not, and 0 with a "SKIP" line when torch or a
transformers with openai_privacy_filter is not installed (it is not part of
`make check`).  Only the standard library, torch and transformers are used.
"""
import argparse
import json
import math
import os
import random
import subprocess
import sys
import tempfile


def skip(why):
    print(f"SKIP: {why}")
    sys.exit(0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pii-redact", default="./pii-redact")
    ap.add_argument("--tokens", type=int, default=300)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--experts", type=int, default=16)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--tol", type=float, default=1e-4)
    ap.add_argument("--keep", help="keep the model in this directory")
    a = ap.parse_args()
    try:
        import torch
        import transformers
    except ImportError as e:
        skip(f"torch/transformers not installed ({e.name})")
    cls = getattr(transformers, "OpenAIPrivacyFilterForTokenClassification", None)
    if cls is None:
        skip(f"transformers {transformers.__version__} has no openai_privacy_filter model")
    if not os.access(a.pii_redact, os.X_OK):
        sys.exit(f"{a.pii_redact}: not an executable (build with make, or give --pii-redact)")

    work = a.keep or tempfile.mkdtemp(prefix="pf-parity-")
    model = os.path.join(work, "model")
    subprocess.run([a.pii_redact, "mkmodel", "-o", model, "--dtype", "f32",
                    "--layers", str(a.layers), "--experts", str(a.experts),
                    "--seed", str(a.seed)], check=True)
    rng = random.Random(a.seed)
    ids = [rng.randrange(0, 199998) for _ in range(a.tokens)]

    torch.manual_seed(0)
    m = cls.from_pretrained(model, torch_dtype=torch.float32, attn_implementation="eager")
    m.eval()
    with torch.no_grad():
        ref = m(input_ids=torch.tensor([ids])).logits[0].double().tolist()

    out = subprocess.run([a.pii_redact, "logits", "-m", model, "--ids", "--rope-f32"],
                         input=" ".join(map(str, ids)) + "\n", capture_output=True, text=True,
                         check=True).stdout
    ours = [json.loads(line)["logits"] for line in out.splitlines() if line.strip()]
    if len(ours) != len(ref):
        sys.exit(f"token count differs: pii-redact {len(ours)}, transformers {len(ref)}")

    maxd, mincos, same = 0.0, 1.0, 0
    for r, o in zip(ref, ours):
        maxd = max(maxd, max(abs(x - y) for x, y in zip(r, o)))
        dot = sum(x * y for x, y in zip(r, o))
        nr = math.sqrt(sum(x * x for x in r))
        no = math.sqrt(sum(y * y for y in o))
        mincos = min(mincos, dot / (nr * no) if nr and no else 1.0)
        same += max(range(len(r)), key=r.__getitem__) == max(range(len(o)), key=o.__getitem__)
    print(f"transformers {transformers.__version__}, torch {torch.__version__}; "
          f"{a.layers} layers, {a.experts} experts, full widths, {a.tokens} tokens, f32")
    print(f"max |dlogit| {maxd:.3g}  min cosine {mincos:.9f}  same argmax {same}/{len(ref)}")
    if maxd > a.tol:
        print(f"FAIL: max |dlogit| above {a.tol}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
