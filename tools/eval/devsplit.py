#!/usr/bin/python3
"""devsplit.py - write only the dev split of the real-text pack, exactly as
tools/train/realdata.py does (same document key, same sha256 rule, same
scored labels), without the training inputs realdata.py also needs.

    tools/eval/devsplit.py [--pack ../shared/train] [-o build/model/real/dev]

The files are the ones `make model-real-data` writes to build/model/real/dev,
byte for byte; devtable.py, devaudit.py and deverrors.py read them.
"""

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools", "train"))
import realdata  # noqa: E402  (the split rule lives there)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pack", default=os.path.join(ROOT, "..", "shared", "train"))
    ap.add_argument("-o", "--out", default=os.path.join(ROOT, "build", "model", "real", "dev"))
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    files = sorted(f for f in os.listdir(a.pack) if f.endswith(".jsonl"))
    if not files:
        sys.exit(f"devsplit: no .jsonl in {a.pack}")
    total = 0
    for fn in files:
        recs = [json.loads(line) for line in open(os.path.join(a.pack, fn), encoding="utf-8")]
        src = recs[0]["source"]
        scored = realdata.SCORED.get(src, ["private_person"])
        with open(os.path.join(a.out, fn), "w", encoding="utf-8") as f:
            for r in recs:
                if not realdata.is_dev(realdata.doc_key(r["id"])):
                    continue
                f.write(json.dumps({
                    "id": r["id"], "source": src, "lang": r["lang"], "text": r["text"],
                    "scored_labels": scored,
                    "spans": [dict(s, scored=s["label"] in scored) for s in r["spans"]],
                }, ensure_ascii=False) + "\n")
                total += 1
    print(f"devsplit: {total} dev records in {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
