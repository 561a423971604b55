#!/usr/bin/python3
"""thresholds.py - chooses the built-in model's default operating point on
the dev split of the real-text pack (never on ../shared/eval).

    thresholds.py -m MODEL_DIR --dev build/model/real/dev [--write]

Runs `pii-redact eval -m MODEL_DIR --dump-predictions` once per dev file
(rules + model, as users run it), then re-scores the predictions with every
candidate minimum score for private_person spans (`--threshold
private_person=X` at run time) and picks the one with the best mean person
overlap F1 over the English dev sources (each source weighs the same; a tie
goes to the lower threshold, which leaks less).  Only private_person has
human gold on every source; the other labels keep no threshold.  --write
stores the choice in MODEL_DIR/config.json as
"pii_redact_thresholds": {"private_person": X}, which the built-in model
applies unless the user passes --threshold.  PII_REDACT names the binary.
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
CANDIDATES = [0.0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]


def person_scores(exe, gold, pred):
    r = subprocess.run([exe, "eval", "--format", "json", "--predictions", pred, gold],
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"thresholds: eval --predictions {gold}: {r.stderr.strip()}")
    lab = json.loads(r.stdout)["files"][0]["labels"][LABEL]
    return lab["overlap"]["f1"], lab["leak_rate"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-m", "--model", required=True)
    ap.add_argument("--dev", required=True)
    ap.add_argument("--write", action="store_true")
    a = ap.parse_args()
    exe = os.environ.get("PII_REDACT", os.path.join(ROOT, "pii-redact"))
    files = []
    for fn in sorted(os.listdir(a.dev)):
        if not fn.endswith(".jsonl"):
            continue
        with open(os.path.join(a.dev, fn), encoding="utf-8") as f:
            first = json.loads(f.readline())
        if first["lang"] == "en" and LABEL in first["scored_labels"]:
            files.append(fn)
    if not files:
        sys.exit(f"thresholds: no English dev files in {a.dev}")
    table = {t: [] for t in CANDIDATES}
    with tempfile.TemporaryDirectory() as tmp:
        for fn in files:
            gold = os.path.join(a.dev, fn)
            dump = os.path.join(tmp, fn)
            r = subprocess.run([exe, "eval", "-m", a.model, "--format", "json", "--dump-predictions",
                                dump, gold], capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit(f"thresholds: eval {gold}: {r.stderr.strip()}")
            recs = [json.loads(x) for x in open(dump, encoding="utf-8")]
            for t in CANDIDATES:
                cut = os.path.join(tmp, "cut.jsonl")
                with open(cut, "w", encoding="utf-8") as f:
                    for rec in recs:
                        keep = [s for s in rec["spans"] if s["label"] != LABEL or s.get("score", 1.0) >= t]
                        f.write(json.dumps({"spans": keep}) + "\n")
                table[t].append(person_scores(exe, gold, cut))
    print("| min person score | " + " | ".join(f[:-6] for f in files) + " | mean F1 | mean leak |",
          file=sys.stderr)
    best, best_f1 = 0.0, -1.0
    for t in CANDIDATES:
        f1 = sum(x[0] for x in table[t]) / len(files)
        leak = sum(x[1] for x in table[t]) / len(files)
        print(f"| {t:.1f} | " + " | ".join(f"{x[0]:.3f}" for x in table[t]) +
              f" | {f1:.3f} | {leak:.1%} |", file=sys.stderr)
        if f1 > best_f1 + 1e-9:
            best, best_f1 = t, f1
    print(f"thresholds: private_person={best} (mean English dev person F1 {best_f1:.3f})", file=sys.stderr)
    if a.write:
        path = os.path.join(a.model, "config.json")
        with open(path, encoding="utf-8") as f:
            cfg = json.load(f)
        cfg["pii_redact_thresholds"] = {LABEL: best} if best > 0 else {}
        with open(path, "w", encoding="utf-8") as f:
            json.dump(cfg, f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
