#!/usr/bin/env python3
"""soup.py — a "model soup": the element-wise mean of the weights of
models fine-tuned from the same starting point (same shapes, same
vocabulary rows).  Wortsman et al. 2022 ("Model soups") found such means
often more accurate and more robust than any of their ingredients.

    soup.py OUT DIR1 DIR2 [DIR3 ...] [--weights w1,w2,...]

Float tensors are averaged in f64 and written in their original dtype;
integer tensors (the row map) must be identical in every ingredient, or
the soup is refused.  config.json is copied from DIR1 (without its operating
point: choose a new one with thresholds.py); training.json records the
ingredients and their sha256."""
import argparse
import hashlib
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reference"))
import torch  # noqa: E402
from st_io import load_file, save_file  # noqa: E402


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for blk in iter(lambda: f.read(1 << 20), b""):
            h.update(blk)
    return h.hexdigest()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--weights", default="", help="comma-separated mixing weights (default: equal)")
    a = ap.parse_args()
    if len(a.dirs) < 2:
        sys.exit("soup: give at least two model directories")
    w = [float(x) for x in a.weights.split(",")] if a.weights else [1.0] * len(a.dirs)
    if len(w) != len(a.dirs) or any(x < 0 for x in w) or sum(w) <= 0:
        sys.exit("soup: --weights needs one non-negative weight per directory")
    w = [x / sum(w) for x in w]
    acc, dts, meta = None, None, None
    for d, wi in zip(a.dirs, w):
        t, dt, m = load_file(os.path.join(d, "model.safetensors"))
        if acc is None:
            acc, dts, meta = {}, dt, m
            for k, v in t.items():
                acc[k] = v.to(torch.float64) * wi if v.is_floating_point() else v.clone()
            continue
        if set(t) != set(acc) or any(dt[k] != dts[k] or t[k].shape != acc[k].shape for k in t):
            sys.exit(f"soup: {d}: tensors differ in names, dtypes or shapes from {a.dirs[0]}")
        for k, v in t.items():
            if v.is_floating_point():
                acc[k] += v.to(torch.float64) * wi
            elif not torch.equal(v, acc[k]):
                sys.exit(f"soup: {d}: integer tensor {k} differs (not the same vocabulary)")
    os.makedirs(a.out, exist_ok=True)
    save_file(acc, os.path.join(a.out, "model.safetensors"), dts, meta)
    with open(os.path.join(a.dirs[0], "config.json")) as f:
        cfg = json.load(f)
    cfg.pop("pii_redact_operating_point", None)
    with open(os.path.join(a.out, "config.json"), "w") as f:
        json.dump(cfg, f, indent=2)
        f.write("\n")
    info = {"soup": [{"dir": d, "weight": wi, "sha256": sha256(os.path.join(d, "model.safetensors"))}
                     for d, wi in zip(a.dirs, w)]}
    with open(os.path.join(a.out, "training.json"), "w") as f:
        json.dump(info, f, indent=2)
        f.write("\n")
    for extra in ("tokenizer.json",):
        p = os.path.join(a.dirs[0], extra)
        if os.path.exists(p):
            shutil.copy(p, a.out)


if __name__ == "__main__":
    main()
