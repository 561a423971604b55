#!/usr/bin/python3
"""prepare.py - tokenize labelled JSONL and write BIOES token labels.

Input: JSONL, one document per line: {"text": str, "spans": [{"start","end",
"label"[, "bstart","bend"]}]} (code-point offsets, optional byte offsets;
the tools/datagen format; a span labelled "ignore" marks text whose tokens
get no loss, label IGNORE = 255).  Output: a torch file with
  {"ids": [int32 tensor per doc], "labels": [uint8 tensor per doc],
   "backend": "c"|"node", "n_docs", "n_tokens"}

Usage: prepare.py IN.jsonl [IN2.jsonl ...] -o OUT.pt [--tokenizer auto|c|node]
"""

import argparse
import json
import os
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("-o", "--out", required=True)
    ap.add_argument("--tokenizer", default="auto", choices=["auto", "c", "node"])
    ap.add_argument("--chunk", type=int, default=4000)
    a = ap.parse_args()
    backend = common.pick_backend(a.tokenizer)
    t0 = time.time()
    docs = []
    for path in a.inputs:
        with open(path, encoding="utf-8") as f:
            docs += [json.loads(line) for line in f if line.strip()]
    all_ids, all_labels, ntok, counts = [], [], 0, [0] * common.N_LABELS
    for c0 in range(0, len(docs), a.chunk):
        chunk = docs[c0:c0 + a.chunk]
        toks = common.tokenize([d["text"] for d in chunk], backend)
        for d, (ids, offs) in zip(chunk, toks):
            tb = d["text"].encode("utf-8")
            spans = d.get("spans", [])
            ign = [s for s in spans if s["label"] == "ignore"]
            labels = common.bioes(offs, tb, common.spans_to_bytes(
                d["text"], [s for s in spans if s["label"] != "ignore"]))
            if ign:
                for bs, be, _ in common.spans_to_bytes(d["text"], [dict(s, label="secret") for s in ign]):
                    for i, (ts, te) in enumerate(offs):
                        if ts < be and bs < te and labels[i] == 0:
                            labels[i] = common.IGNORE
            all_ids.append(torch.tensor(ids, dtype=torch.int32))
            all_labels.append(torch.tensor(labels, dtype=torch.uint8))
            ntok += len(ids)
            for lab in labels:
                if lab != common.IGNORE:
                    counts[lab] += 1
    torch.save({"ids": all_ids, "labels": all_labels, "backend": backend[0],
                "n_docs": len(all_ids), "n_tokens": ntok}, a.out)
    ent = sum(counts[1:])
    print(f"prepare: {len(all_ids)} docs, {ntok} tokens ({ent / max(ntok, 1):.1%} in spans), "
          f"tokenizer {backend[0]}, {time.time() - t0:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    main()
