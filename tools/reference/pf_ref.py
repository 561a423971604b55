#!/usr/bin/python3
"""pf_ref.py - run the reference Privacy Filter forward pass on token ids.

Usage:
  pf_ref.py -m MODEL_DIR (--ids 1,2,3 | --ids-file FILE) [--precision f64|f32]
            [--angles f64|f32] [--jsonl OUT|-] [--bin PREFIX]

Input ids: a comma/whitespace separated list, or a file holding such a list or
a JSON array.  No BOS/EOS is added; positions start at 0.

Outputs:
  --jsonl: one line per token
      {"i": N, "id": ID, "logits": [C floats, repr precision],
       "experts": [[k ids ascending] per layer], "margin": [per layer]}
    where margin is router logit #k minus #k+1 (descending order): a small
    margin means the expert set is fragile under rounding.
  --bin PREFIX: PREFIX.logits.f32   float32 LE [n, C]
                PREFIX.experts.u16  uint16 LE [L, n, k], each set ascending
                PREFIX.margin.f32   float32 LE [L, n]
Default precision: float64 arithmetic with weights upcast exactly; default
RoPE angles: f64 (see pf_model.py).
"""

import argparse
import json
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pf_model import load_model  # noqa: E402


def parse_ids(text):
    text = text.strip()
    if text.startswith("["):
        return [int(v) for v in json.loads(text)]
    return [int(v) for v in text.replace(",", " ").split()]


def run(model_dir, ids, precision="f64", angles="f64"):
    """Returns (logits [n, C] float64 numpy, experts [L, n, k] int, margin [L, n])."""
    dtype = torch.float64 if precision == "f64" else torch.float32
    model, row_map, _ = load_model(model_dir, dtype=dtype, angles=angles)
    cfg = model.cfg
    t = torch.tensor([ids], dtype=torch.long)
    if (t < 0).any() or (t >= cfg.vocab_size).any():
        raise ValueError("token id out of range for vocab_size")
    with torch.no_grad():
        logits, routing = model(t, row_map=row_map, want_router=True)
    experts, margins = [], []
    k = cfg.top_k
    for topi, r in routing:
        experts.append(torch.sort(topi, dim=-1).values.numpy())
        if k < cfg.n_experts:
            sv = torch.topk(r, k + 1, dim=-1).values
            margins.append((sv[:, k - 1] - sv[:, k]).numpy())
        else:
            margins.append(np.full(len(ids), np.inf))
    return (logits[0].to(torch.float64).numpy(), np.stack(experts), np.stack(margins))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("-m", "--model", required=True)
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--ids")
    g.add_argument("--ids-file")
    ap.add_argument("--precision", choices=["f64", "f32"], default="f64")
    ap.add_argument("--angles", choices=["f64", "f32"], default="f64")
    ap.add_argument("--jsonl")
    ap.add_argument("--bin")
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    ids = parse_ids(a.ids if a.ids is not None else open(a.ids_file).read())
    logits, experts, margin = run(a.model, ids, a.precision, a.angles)
    if a.bin:
        logits.astype("<f4").tofile(a.bin + ".logits.f32")
        experts.astype("<u2").tofile(a.bin + ".experts.u16")
        margin.astype("<f4").tofile(a.bin + ".margin.f32")
    if a.jsonl or not a.bin:
        out = sys.stdout if (a.jsonl in (None, "-")) else open(a.jsonl, "w")
        for i, tid in enumerate(ids):
            rec = {"i": i, "id": tid, "logits": [float(v) for v in logits[i]],
                   "experts": [[int(e) for e in experts[L, i]] for L in range(len(experts))],
                   "margin": [float(margin[L, i]) for L in range(len(margin))]}
            out.write(json.dumps(rec) + "\n")
        if out is not sys.stdout:
            out.close()


if __name__ == "__main__":
    main()
