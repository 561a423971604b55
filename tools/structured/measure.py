#!/usr/bin/env python3
"""tools/structured/measure.py — character leak and false alarms on the
structured dev set (tools/structured/gen_devset.py).

  python3 tools/structured/measure.py PII_REDACT DEVSET [pii-redact options...]

Runs `PII_REDACT --format jsonl [options] FILE` on each file of the set and
prints, per file and in total: the share of the gold characters of the
numeric labels (account_number, private_phone) and of secrets left outside
every reported span (character leak), and reported spans that overlap no
gold value (false alarms) per MB of input.
"""
import collections
import json
import os
import subprocess
import sys

NUMERIC = ("account_number", "private_phone")


def spans_of(binary, path, opts):
    out = subprocess.run([binary, "--format", "jsonl", *opts, path], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, check=False)
    if out.returncode not in (0, 1):
        sys.exit("%s failed on %s: %s" % (binary, path, out.stderr.decode()[:200]))
    spans = []
    for line in out.stdout.decode().splitlines():
        o = json.loads(line)
        if "start" in o and "end" in o:
            spans.append((o["start"], o["end"], o.get("label")))
    return spans


def main():
    binary, devset, opts = sys.argv[1], sys.argv[2], sys.argv[3:]
    gold = collections.defaultdict(list)
    with open(os.path.join(devset, "gold.jsonl")) as f:
        for line in f:
            g = json.loads(line)
            gold[g["file"]].append((g["start"], g["end"], g["label"]))
    tot = collections.Counter()
    print("%-16s %9s %9s %9s %7s" % ("file", "bytes", "num.leak", "sec.leak", "FA"))
    for name in sorted(gold):
        path = os.path.join(devset, name)
        size = os.path.getsize(path)
        pred = spans_of(binary, path, opts)
        covered = bytearray(size)
        for s, e, _ in pred:
            covered[s:e] = b"\x01" * (e - s)
        c = collections.Counter()
        for s, e, label in gold[name]:
            kind = "num" if label in NUMERIC else "sec" if label == "secret" else None
            if not kind:
                continue
            c[kind + "_all"] += e - s
            c[kind + "_leak"] += (e - s) - sum(covered[s:e])
        gs = sorted(gold[name])
        for s, e, _ in pred:
            if not any(gs_s < e and s < gs_e for gs_s, gs_e, _ in gs):
                c["fa"] += 1
        c["bytes"] = size
        tot.update(c)
        print("%-16s %9d %8.2f%% %8.2f%% %7d" % (
            name, size, 100.0 * c["num_leak"] / max(1, c["num_all"]),
            100.0 * c["sec_leak"] / max(1, c["sec_all"]), c["fa"]))
    print("%-16s %9d %8.2f%% %8.2f%% %7d  (%.1f false alarms per MB)" % (
        "total", tot["bytes"], 100.0 * tot["num_leak"] / max(1, tot["num_all"]),
        100.0 * tot["sec_leak"] / max(1, tot["sec_all"]), tot["fa"],
        tot["fa"] / (tot["bytes"] / 1e6)))


if __name__ == "__main__":
    main()
