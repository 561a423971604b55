#!/usr/bin/python3
"""thresholds.py - chooses the built-in model's default operating point on
the dev split of the real-text pack (never on ../shared/eval).

    thresholds.py -m MODEL_DIR --dev build/model/real/dev [--write]

For each candidate Viterbi bias background_to_start B (`--bias
background_to_start=B` at run time: how readily a span starts), runs
`pii-redact eval --dump-predictions` once per English dev file (rules +
model, as users run it; the model from a temporary directory holding a
viterbi_calibration.json with that bias), then re-scores the predictions
with every candidate minimum score X for private_person spans
(`--threshold private_person=X`), and picks, among the (B, X) whose mean
person overlap F1 over the English dev sources with at least 20 gold
persons (each source weighs the same; `--min-persons`) is within 0.005 of
the best, the one with the lowest mean person
character leak (a privacy tool prefers what misses less; on equal leak the
earlier candidate: smaller bias, lower threshold).
Only private_person has human gold on every source.  --write stores the
choice in MODEL_DIR/config.json as "pii_redact_operating_point":
{"biases": {"background_to_start": B}, "thresholds": {"private_person": X}},
which the built-in model applies where the user passes no --bias or
--threshold.  PII_REDACT names the binary.
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
BIASES = [0.0, 1.0, 1.5, 2.0]
BIAS_KEYS = ["background_stay", "background_to_start", "inside_to_continue", "inside_to_end",
             "end_to_background", "end_to_start"]


def biased_model(tmp, model, b):
    """A directory with MODEL's files and a calibration of one bias."""
    d = os.path.join(tmp, f"model-b{b}")
    os.makedirs(d)
    for f in ("config.json", "model.safetensors"):
        os.symlink(os.path.abspath(os.path.join(model, f)), os.path.join(d, f))
    biases = {"transition_bias_" + k: (b if k == "background_to_start" else 0.0) for k in BIAS_KEYS}
    with open(os.path.join(d, "viterbi_calibration.json"), "w") as f:
        json.dump({"operating_points": {"default": {"biases": biases}}}, f)
    return d


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
    ap.add_argument("--min-persons", type=int, default=20,
                    help="a dev file with fewer gold persons is shown but does not vote "
                         "(default 20: SEC's 5 persons moved the mean by 0.016 a person)")
    a = ap.parse_args()
    exe = os.environ.get("PII_REDACT", os.path.join(ROOT, "pii-redact"))
    files, voters = [], []  # voters: indices into files
    for fn in sorted(os.listdir(a.dev)):
        if not fn.endswith(".jsonl"):
            continue
        with open(os.path.join(a.dev, fn), encoding="utf-8") as f:
            recs = [json.loads(x) for x in f]
        if recs and recs[0]["lang"] == "en" and LABEL in recs[0]["scored_labels"]:
            if sum(sp["label"] == LABEL for r in recs for sp in r["spans"]) >= a.min_persons:
                voters.append(len(files))
            files.append(fn)
    if not voters:
        sys.exit(f"thresholds: no English dev file in {a.dev} has {a.min_persons} gold persons")
    table = {(b, t): [] for b in BIASES for t in CANDIDATES}
    with tempfile.TemporaryDirectory() as tmp:
        for b in BIASES:
            model = biased_model(tmp, a.model, b)
            for fn in files:
                gold = os.path.join(a.dev, fn)
                dump = os.path.join(tmp, fn)
                r = subprocess.run([exe, "eval", "-m", model, "--format", "json",
                                    "--dump-predictions", dump, gold], capture_output=True, text=True)
                if r.returncode != 0:
                    sys.exit(f"thresholds: eval {gold}: {r.stderr.strip()}")
                recs = [json.loads(x) for x in open(dump, encoding="utf-8")]
                for t in CANDIDATES:
                    cut = os.path.join(tmp, "cut.jsonl")
                    with open(cut, "w", encoding="utf-8") as f:
                        for rec in recs:
                            keep = [s for s in rec["spans"]
                                    if s["label"] != LABEL or s.get("score", 1.0) >= t]
                            f.write(json.dumps({"spans": keep}) + "\n")
                    table[(b, t)].append(person_scores(exe, gold, cut))
    print("thresholds: the mean is over " + ", ".join(files[i][:-6] for i in voters) +
          f" (files with at least {a.min_persons} gold persons)", file=sys.stderr)
    print("| background_to_start | min person score | " + " | ".join(f[:-6] for f in files) +
          " | mean F1 | mean leak |", file=sys.stderr)
    print("|--:|--:|" + "--:|" * (len(files) + 2), file=sys.stderr)
    means = {}
    for (b, t), rows in table.items():
        f1 = sum(rows[i][0] for i in voters) / len(voters)
        leak = sum(rows[i][1] for i in voters) / len(voters)
        means[(b, t)] = (f1, leak)
        print(f"| {b:.1f} | {t:.1f} | " + " | ".join(f"{x[0]:.3f}" for x in rows) +
              f" | {f1:.3f} | {leak:.1%} |", file=sys.stderr)
    top = max(f1 for f1, _ in means.values())
    best = min((k for k, (f1, _) in means.items() if f1 >= top - 0.005),
               key=lambda k: (round(means[k][1], 6), k))
    print(f"thresholds: background_to_start={best[0]} private_person={best[1]} "
          f"(mean English dev person F1 {means[best][0]:.3f}, leak {means[best][1]:.1%}; "
          f"best F1 {top:.3f})", file=sys.stderr)
    if a.write:
        path = os.path.join(a.model, "config.json")
        with open(path, encoding="utf-8") as f:
            cfg = json.load(f)
        cfg.pop("pii_redact_operating_point", None)
        cfg["pii_redact_operating_point"] = {
            "biases": {"background_to_start": best[0]} if best[0] else {},
            "thresholds": {LABEL: best[1]} if best[1] else {}}
        with open(path, "w", encoding="utf-8") as f:
            json.dump(cfg, f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
