#!/usr/bin/python3
"""devtable.py - the dev tables of docs/ACCURACY.md: pii-redact against the
rule-based NLP library compromise on the dev split of the real-text pack.

    tools/eval/devtable.py [--dev build/model/real/dev] [--no-compromise] [-- EVAL ARGS]

For every dev file (tools/train/realdata.py writes them) and, for GUM and
EWT, every genre in it: person overlap P/R/F1 and the person character leak
of `pii-redact eval` (rules + model, or what EVAL ARGS select, e.g.
`-m DIR` or `--threshold private_person=0.5`), and for English sources the
same figures for compromise (`nlp(text).people()`, tools/eval/compromise,
`npm ci` there first) scored by `pii-redact eval --predictions`.  The model
runs once per file; genre rows score subsets of its predictions.
PII_REDACT names the binary (default ./pii-redact).
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


def genre(rec):
    src, doc = rec["id"].split(":")[0], rec["id"].split(":")[1]
    if src == "gum":
        return doc.split("_")[1] if doc.startswith("GUM_") else "gentle"
    if src == "uner_en_ewt":
        return doc.split("-")[0]
    return None


def score(exe, gold, pred, extra):
    args = [exe, "eval", "--format", "json"] + (["--predictions", pred] if pred else extra) + [gold]
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"devtable: {' '.join(args)}: {r.stderr.strip()}")
    f = json.loads(r.stdout)["files"][0]
    lab = f["labels"].get(LABEL)
    if not lab:
        return None
    o = lab["overlap"]
    return {"gold": lab["gold"], "p": o["precision"], "r": o["recall"], "f1": o["f1"],
            "leak": lab["leak_rate"], "records": f["records"]}


def write_subset(path, lines):
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dev", default=os.path.join(ROOT, "build", "model", "real", "dev"))
    ap.add_argument("--no-compromise", action="store_true")
    ap.add_argument("extra", nargs="*", help="arguments for pii-redact eval (after --)")
    a = ap.parse_args()
    exe = os.environ.get("PII_REDACT", os.path.join(ROOT, "pii-redact"))
    files = sorted(f for f in os.listdir(a.dev) if f.endswith(".jsonl"))
    if not files:
        sys.exit(f"devtable: no dev files in {a.dev} (tools/train/realdata.py writes them)")
    cmp_js = os.path.join(HERE, "compromise", "people.mjs")
    use_cmp = not a.no_compromise
    if use_cmp and not os.path.isdir(os.path.join(HERE, "compromise", "node_modules", "compromise")):
        sys.exit("devtable: run `npm ci` in tools/eval/compromise first (or --no-compromise)")
    print("| dev set | records | persons | pii-redact P / R / **F1** | leak | compromise P / R / **F1** | leak |")
    print("|---|--:|--:|---|--:|---|--:|")
    with tempfile.TemporaryDirectory() as tmp:
        for fn in files:
            path = os.path.join(a.dev, fn)
            gold = open(path, encoding="utf-8").readlines()
            recs = [json.loads(x) for x in gold]
            if not recs or LABEL not in recs[0]["scored_labels"]:
                continue
            mpred = os.path.join(tmp, "m-" + fn)
            r = subprocess.run([exe, "eval", "--format", "json", "--dump-predictions", mpred]
                               + a.extra + [path], capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit(f"devtable: eval {path}: {r.stderr.strip()}")
            english = recs[0]["lang"] == "en"
            cpred = None
            if use_cmp and english:
                cpred = os.path.join(tmp, "c-" + fn)
                with open(cpred, "w") as out:
                    subprocess.run(["node", cmp_js, path], stdout=out, check=True)
            groups = [(fn[:-6], list(range(len(recs))))]
            gs = {}
            for i, rec in enumerate(recs):
                g = genre(rec)
                if g:
                    gs.setdefault(g, []).append(i)
            groups += [(f"{fn[:-6]} / {g}", ix) for g, ix in sorted(gs.items())]
            mlines = open(mpred, encoding="utf-8").readlines()
            clines = open(cpred, encoding="utf-8").readlines() if cpred else None
            for name, ix in groups:
                gp, mp = os.path.join(tmp, "g.jsonl"), os.path.join(tmp, "mp.jsonl")
                write_subset(gp, [gold[i] for i in ix])
                write_subset(mp, [mlines[i] for i in ix])
                m = score(exe, gp, mp, [])
                if not m or not m["gold"]:
                    continue
                row = (f"| {name} | {m['records']} | {m['gold']} | {m['p']:.3f} / {m['r']:.3f} / "
                       f"**{m['f1']:.3f}** | {m['leak']:.1%} |")
                if clines:
                    cp = os.path.join(tmp, "cp.jsonl")
                    write_subset(cp, [clines[i] for i in ix])
                    c = score(exe, gp, cp, [])
                    row += f" {c['p']:.3f} / {c['r']:.3f} / **{c['f1']:.3f}** | {c['leak']:.1%} |"
                else:
                    row += " — | — |"
                print(row, flush=True)


if __name__ == "__main__":
    main()
