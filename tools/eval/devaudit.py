#!/usr/bin/python3
"""devaudit.py - the person figures of the dev split scored twice: against
the pack's gold as it is, and against the gold corrected by an audit of the
built-in model's disagreements with it (docs/ACCURACY.md, "How much of the
gap is the gold").

    tools/eval/devaudit.py [--dev build/model/real/dev] [--audit tools/eval/audit]
                           [--no-compromise] [--list] [-- EVAL ARGS]

An audit file (tools/eval/audit/SOURCE.tsv) has one row per person error of
the model it was made for, as `deverrors.py --tsv` lists them: kind (FN: a
gold person no predicted person overlaps; FP: a predicted person that
overlaps no gold one), record id, start, end (characters), and a verdict
read off the record by hand:

    FP person   the span names one individual human the gold leaves unmarked
    FP no       not a person (a place, a thing, a word, a group)
    FN person   the gold is right: a genuine miss
    FN group    a group of people (a nationality, a people, a family)
    FN no       not a person at all (a place, a god, a book, a word)
    unsure      left as the gold has it

The corrected gold adds every `FP person` span as a private_person and
takes out every `FN group` / `FN no` span; nothing else changes.  Only the
model's disagreements were read, so the correction is one-sided: a gold
group the model happened to mark stays a person, and a person that neither
the gold nor the model marks stays unseen.  compromise, where shown, is
scored against the same corrected gold (its own disagreements were not
read).  Both are scored by `pii-redact eval --predictions`, so the
uncorrected columns are exactly devtable.py's.

The audit belongs to the model it was made for: a row whose span is no
longer an error of this run (the model or the rules changed) is reported
and the script exits 1, rather than score a stale audit.  --list prints
each row with its span and verdict.  Dev files only: never ../shared/eval.
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
VERDICTS = {"FP": {"person", "no", "unsure"}, "FN": {"person", "group", "no", "unsure"}}


def overlaps(a, spans):
    return any(b["start"] < a["end"] and a["start"] < b["end"] for b in spans)


def read_audit(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            c = line.split("\t")
            if len(c) < 5 or c[0] not in VERDICTS or c[4] not in VERDICTS[c[0]]:
                sys.exit(f"devaudit: {path}:{n}: want KIND ID START END VERDICT [REASON]")
            rows.append({"kind": c[0], "id": c[1], "start": int(c[2]), "end": int(c[3]),
                         "verdict": c[4], "reason": c[5] if len(c) > 5 else ""})
    return rows


def score(exe, gold, pred):
    args = [exe, "eval", "--format", "json", "--predictions", pred, gold]
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"devaudit: {' '.join(args)}: {r.stderr.strip()}")
    lab = json.loads(r.stdout)["files"][0]["labels"].get(LABEL)
    o = lab["overlap"]
    return f"{o['precision']:.3f} / {o['recall']:.3f} / **{o['f1']:.3f}** | {lab['leak_rate']:.1%}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dev", default=os.path.join(ROOT, "build", "model", "real", "dev"))
    ap.add_argument("--audit", default=os.path.join(HERE, "audit"))
    ap.add_argument("--no-compromise", action="store_true")
    ap.add_argument("--list", action="store_true", help="print every audited row")
    ap.add_argument("extra", nargs="*", help="arguments for pii-redact eval (after --)")
    a = ap.parse_args()
    exe = os.environ.get("PII_REDACT", os.path.join(ROOT, "pii-redact"))
    cmp_js = os.path.join(HERE, "compromise", "people.mjs")
    use_cmp = not a.no_compromise
    if use_cmp and not os.path.isdir(os.path.join(HERE, "compromise", "node_modules", "compromise")):
        sys.exit("devaudit: run `npm ci` in tools/eval/compromise first (or --no-compromise)")
    audits = sorted(f for f in os.listdir(a.audit) if f.endswith(".tsv"))
    if not audits:
        sys.exit(f"devaudit: no audit files in {a.audit}")
    stale = 0
    print("| dev set | gold | FP person / no | FN person / group / no | pii-redact P / R / **F1** | leak "
          "| corrected gold | P / R / **F1** | leak" + (" | compromise, corrected: P / R / **F1** | leak |"
                                                      if use_cmp else " |"))
    print("|---|--:|--:|--:|---|--:|--:|---|--:|" + ("---|--:|" if use_cmp else ""))
    with tempfile.TemporaryDirectory() as tmp:
        for af in audits:
            src = af[:-4]
            path = os.path.join(a.dev, src + ".jsonl")
            if not os.path.exists(path):
                sys.exit(f"devaudit: {af}: no dev file {path}")
            rows = read_audit(os.path.join(a.audit, af))
            gold_lines = open(path, encoding="utf-8").readlines()
            recs = [json.loads(x) for x in gold_lines]
            pred = os.path.join(tmp, "m-" + src + ".jsonl")
            r = subprocess.run([exe, "eval", "--format", "json", "--dump-predictions", pred]
                               + a.extra + [path], capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit(f"devaudit: eval {path}: {r.stderr.strip()}")
            preds = [json.loads(x) for x in open(pred, encoding="utf-8")]
            by_id = {rec["id"]: i for i, rec in enumerate(recs)}
            # this run's errors, to check the audit against
            errs = set()
            for rec, got in zip(recs, preds):
                gs = [s for s in rec["spans"] if s["label"] == LABEL]
                ps = [s for s in got["spans"] if s["label"] == LABEL]
                errs |= {("FN", rec["id"], s["start"], s["end"]) for s in gs if not overlaps(s, ps)}
                errs |= {("FP", rec["id"], s["start"], s["end"]) for s in ps if not overlaps(s, gs)}
            seen = {(x["kind"], x["id"], x["start"], x["end"]) for x in rows}
            for key in sorted(seen - errs):
                print(f"devaudit: {src}: audited {key[0]} {key[1]} [{key[2]}, {key[3]}) is no error "
                      "of this run", file=sys.stderr)
                stale += 1
            for key in sorted(errs - seen):
                print(f"devaudit: {src}: {key[0]} {key[1]} [{key[2]}, {key[3]}) is not audited",
                      file=sys.stderr)
                stale += 1
            fixed = [dict(rec, spans=list(rec["spans"])) for rec in recs]
            count = {}
            for x in rows:
                count[(x["kind"], x["verdict"])] = count.get((x["kind"], x["verdict"]), 0) + 1
                rec = fixed[by_id[x["id"]]]
                if a.list:
                    t = rec["text"][x["start"]:x["end"]].replace("\n", "⏎")
                    print(f"{src}\t{x['kind']}\t{x['verdict']}\t{t}\t{x['reason']}")
                if x["kind"] == "FP" and x["verdict"] == "person":
                    rec["spans"].append({"start": x["start"], "end": x["end"], "label": LABEL,
                                         "scored": True})
                elif x["kind"] == "FN" and x["verdict"] in ("group", "no"):
                    rec["spans"] = [s for s in rec["spans"] if not (
                        s["label"] == LABEL and s["start"] == x["start"] and s["end"] == x["end"])]
            for rec in fixed:
                rec["spans"].sort(key=lambda s: (s["start"], s["end"]))
            gpath = os.path.join(tmp, "g-" + src + ".jsonl")
            with open(gpath, "w", encoding="utf-8") as f:
                f.writelines(json.dumps(rec, ensure_ascii=False) + "\n" for rec in fixed)
            n_gold = sum(1 for rec in recs for s in rec["spans"] if s["label"] == LABEL)
            n_fixed = sum(1 for rec in fixed for s in rec["spans"] if s["label"] == LABEL)
            c = count.get
            row = (f"| {src} | {n_gold} | {c(('FP', 'person'), 0)} / {c(('FP', 'no'), 0)} | "
                   f"{c(('FN', 'person'), 0)} / {c(('FN', 'group'), 0)} / {c(('FN', 'no'), 0)} | "
                   f"{score(exe, path, pred)} | {n_fixed} | {score(exe, gpath, pred)} |")
            if use_cmp:
                cpred = os.path.join(tmp, "c-" + src + ".jsonl")
                with open(cpred, "w") as out:
                    subprocess.run(["node", cmp_js, path], stdout=out, check=True)
                row += f" {score(exe, gpath, cpred)} |"
            print(row, flush=True)
    if stale:
        sys.exit(f"devaudit: {stale} rows differ from this run's errors: the audit is of another "
                 "model or rule set")


if __name__ == "__main__":
    main()
