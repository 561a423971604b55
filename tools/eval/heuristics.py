#!/usr/bin/python3
"""heuristics.py - each name heuristic's own person precision and recall on
the dev split (docs/ACCURACY.md, "Precision"), and what each filter costs.

    tools/eval/heuristics.py [--dev build/model/real/dev] [--lang en] [--rules-only]

For every dev file of the language, `pii-redact eval --dump-predictions`
(rules + model, as shipped) names the rule of each person span: the model
itself (none), or the heuristic that made it (`name_lexicon`, `honorific`,
`citation`, `name_memory`).  Per source and heuristic: its spans, their
precision (the share that overlaps a gold person) and its recall (the share
of gold persons one of its spans overlaps), and the gold persons only its
spans find.  The filters drop spans, so they are measured by turning them
off: person P/R with `--no-name-filter` (the non-person filter) and with
`--no-dictionary-filter` (the dictionary-word filter) against the shipped
pipeline.  With --rules-only every run is `eval --rules-only` (the
recognizers that need no model, docs/NER.md "Without the model"; rule-tier
person spans such as `handle_context` count under their own rule id).
Offsets are code points, as the dev files'.  Dev files
only: never ../shared/eval.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
LABEL = "private_person"
RULES = ["model", "name_lexicon", "honorific", "citation", "name_memory", "name_inverted"]


def dump(exe, path, extra, tmp):
    out = os.path.join(tmp, "pred.jsonl")
    r = subprocess.run([exe, "eval", "--format", "json", "--dump-predictions", out] + extra +
                       [path], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"heuristics: eval {path}: {r.stderr.strip()}")
    return [json.loads(x) for x in open(out, encoding="utf-8")]


def overlaps(a, b):
    return a[0] < b[1] and b[0] < a[1]


def pr(gold, preds):
    tp = sum(1 for p in preds if any(overlaps(p, g) for g in gold))
    hit = sum(1 for g in gold if any(overlaps(p, g) for p in preds))
    return tp, len(preds), hit


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dev", default=os.path.join(ROOT, "build", "model", "real", "dev"))
    ap.add_argument("--lang", default="en")
    ap.add_argument("--rules-only", action="store_true")
    a = ap.parse_args()
    exe = os.environ.get("PII_REDACT", os.path.join(ROOT, "pii-redact"))
    files = sorted(f for f in os.listdir(a.dev) if f.endswith(".jsonl"))
    print("| dev set | heuristic | spans | precision | recall | gold found only by it |")
    print("|---|---|--:|--:|--:|--:|")
    rows_f = []
    with tempfile.TemporaryDirectory() as tmp:
        for fn in files:
            path = os.path.join(a.dev, fn)
            recs = [json.loads(x) for x in open(path, encoding="utf-8")]
            if not recs or recs[0]["lang"] != a.lang or LABEL not in recs[0]["scored_labels"]:
                continue
            base = ["--rules-only"] if a.rules_only else []
            pred = dump(exe, path, base, tmp)
            gold = [[(s["start"], s["end"]) for s in r["spans"]
                     if s["label"] == LABEL and s.get("scored", True)] for r in recs]
            by = {k: [[] for _ in recs] for k in RULES}
            for i, p in enumerate(pred):
                for s in p["spans"]:
                    if s["label"] == LABEL:
                        k = s.get("rule") or "model"
                        by.setdefault(k, [[] for _ in recs])[i].append((s["start"], s["end"]))
            ngold = sum(len(g) for g in gold)
            for k in by:
                tp = n = hit = only = 0
                for i in range(len(recs)):
                    t, m, h = pr(gold[i], by[k][i])
                    tp, n, hit = tp + t, n + m, hit + h
                    others = [p for j in by if j != k for p in by[j][i]]
                    only += sum(1 for g in gold[i] if any(overlaps(p, g) for p in by[k][i])
                                and not any(overlaps(p, g) for p in others))
                if n:
                    print(f"| {fn[:-6]} | {k} | {n} | {tp / n:.3f} | {hit / max(ngold, 1):.3f} "
                          f"| {only} |")
            # the non-person filter and the dictionary-word filter: off against on
            off = dump(exe, path, base + ["--no-name-filter"], tmp)
            offd = dump(exe, path, base + ["--no-dictionary-filter"], tmp)
            res = []
            for run in (off, pred, offd):
                tp = n = hit = 0
                for i, p in enumerate(run):
                    ps = [(s["start"], s["end"]) for s in p["spans"] if s["label"] == LABEL]
                    t, m, h = pr(gold[i], ps)
                    tp, n, hit = tp + t, n + m, hit + h
                res.append((tp / max(n, 1), hit / max(ngold, 1), n))
            rows_f.append((fn[:-6], res))
    print()
    print("| dev set | without the non-person filter: P / R (spans) | "
          "without the dictionary-word filter: P / R (spans) | shipped: P / R (spans) |")
    print("|---|---|---|---|")
    for name, (off, on, offd) in rows_f:
        print(f"| {name} | {off[0]:.3f} / {off[1]:.3f} ({off[2]}) | "
              f"{offd[0]:.3f} / {offd[1]:.3f} ({offd[2]}) | "
              f"{on[0]:.3f} / {on[1]:.3f} ({on[2]}) |")


if __name__ == "__main__":
    main()
