#!/usr/bin/python3
"""deverrors.py - lists the person errors of pii-redact on the dev split of
the real-text pack, each in its context: what an error analysis starts from.

    tools/eval/deverrors.py [--dev build/model/real/dev] [--source gum,litbank] [-- EVAL ARGS]

For every dev file (or those named by --source), runs `pii-redact eval
--dump-predictions` (rules + model, or what EVAL ARGS select, e.g.
`--no-name-lexicon`) and prints one line per gold private_person span that
no predicted person span overlaps (FN, the missed name in [[ ]]) and per
predicted person span that overlaps no gold one (FP, in {{ }}, with its
score), with 40 characters before and 30 after; newlines shown as ⏎.
With --tsv, one tab-separated row per error instead (kind, record id,
start, end in characters, score, span, context): the first columns of an
audit (tools/eval/devaudit.py).
A summary line per source counts them.  Overlap, as `pii-redact eval`'s
overlap scoring counts it.  Dev files only: never ../shared/eval.
PII_REDACT names the binary (default ./pii-redact).
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
LABEL = "private_person"


def context(text, s, e, mark):
    left, right = mark
    return (text[max(0, s - 40):s] + left + text[s:e] + right + text[e:e + 30]).replace("\n", "⏎")


def tsv_text(t):
    return t.replace("\t", " ").replace("\n", "⏎")


def overlaps(a, spans):
    return any(b["start"] < a["end"] and a["start"] < b["end"] for b in spans)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dev", default=os.path.join(ROOT, "build", "model", "real", "dev"))
    ap.add_argument("--source", help="comma-separated dev file names without .jsonl")
    ap.add_argument("--tsv", action="store_true",
                    help="one tab-separated row per error: kind, record id, start, end "
                         "(characters), score, the span, its context (an audit's first columns)")
    ap.add_argument("extra", nargs="*", help="arguments for pii-redact eval (after --)")
    a = ap.parse_args()
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends the listing quietly
    exe = os.environ.get("PII_REDACT", os.path.join(ROOT, "pii-redact"))
    files = sorted(f for f in os.listdir(a.dev) if f.endswith(".jsonl")) if os.path.isdir(a.dev) else []
    if a.source:
        want = {s + ".jsonl" for s in a.source.split(",")}
        missing = want - set(files)
        if missing:
            sys.exit(f"deverrors: not in {a.dev}: {', '.join(sorted(missing))}")
        files = [f for f in files if f in want]
    if not files:
        sys.exit(f"deverrors: no dev files in {a.dev} (tools/train/realdata.py writes them)")
    with tempfile.TemporaryDirectory() as tmp:
        for fn in files:
            path = os.path.join(a.dev, fn)
            pred = os.path.join(tmp, fn)
            r = subprocess.run([exe, "eval", "--format", "json", "--dump-predictions", pred]
                               + a.extra + [path], capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit(f"deverrors: eval {path}: {r.stderr.strip()}")
            with open(path, encoding="utf-8") as g, open(pred, encoding="utf-8") as p:
                pairs = [(json.loads(x), json.loads(y)) for x, y in zip(g, p)]
            fn_lines, fp_lines = [], []
            for gold, got in pairs:
                text = gold["text"]
                gs = [s for s in gold["spans"] if s["label"] == LABEL]
                ps = [s for s in got["spans"] if s["label"] == LABEL]
                if a.tsv:
                    for kind, mine, other, mark in (("FN", gs, ps, ("[[", "]]")),
                                                    ("FP", ps, gs, ("{{", "}}"))):
                        for s in mine:
                            if not overlaps(s, other):
                                print("\t".join([kind, gold["id"], str(s["start"]), str(s["end"]),
                                                 f"{s.get('score') or 0:.2f}" if kind == "FP" else "",
                                                 tsv_text(text[s["start"]:s["end"]]),
                                                 tsv_text(context(text, s["start"], s["end"], mark))]))
                    continue
                fn_lines += ["FN " + context(text, s["start"], s["end"], ("[[", "]]"))
                             for s in gs if not overlaps(s, ps)]
                fp_lines += ["FP " + context(text, s["start"], s["end"], ("{{", "}}"))
                             + f" {s.get('score') or 0:.2f}" for s in ps if not overlaps(s, gs)]
            if a.tsv:
                continue
            print(f"=== {fn[:-6]}: FN {len(fn_lines)} FP {len(fp_lines)}")
            for line in fn_lines + fp_lines:
                print(line)


if __name__ == "__main__":
    main()
