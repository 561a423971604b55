#!/usr/bin/python3
"""techset.py - the precision dev set: technical text of this machine's
packages, in which almost nothing is personal data, and what pii-redact
flags in it (docs/ACCURACY.md, "Technical text").

    tools/eval/techset.py gather [-o build/eval/tech]
    tools/eval/techset.py count  [-o build/eval/tech] [--tag NAME] [-- PII-REDACT ARGS]
    tools/eval/techset.py sample [-o build/eval/tech] [--tag NAME] [-n 200]
    tools/eval/techset.py audit  [-o build/eval/tech] [--tag NAME] [--audit tools/eval/audit/tech/tech.tsv]

gather copies a deterministic selection of five kinds of text into DIR,
one file per source file (man pages rendered by `man -P cat` at 80
columns, C headers of /usr/include, the Python standard library,
changelogs/READMEs/copyright files of /usr/share/doc (decompressed), and
/usr/share/common-licenses), each kind up to its byte budget (about 1.5 MB
in all), and writes DIR/MANIFEST.tsv (kind, file, bytes, sha256, origin).
Candidates are ordered by the sha256 of their path, at most two files of
one name family (`gcloud_*`, `libfoo-*`), so the selection is the same on
any machine with the same packages; MANIFEST.tsv says exactly what was
read.

count runs `pii-redact --format json` (rules + model by default; extra
arguments after --) over every file and prints findings per MB per label,
per kind and per rule (source `rule` / `heuristic` / `model`), and saves
the findings to DIR/findings-TAG.jsonl.

sample prints N findings drawn with a fixed seed, each with its context,
for reading by hand; audit scores an audit file against the findings of a
run: a TSV of `file  start  end  label  verdict` (byte offsets into the
gathered file; verdict `ok`, a personal value rightly flagged, or `fp`,
not personal data) and prints the false-alarm share of the audited
findings that are still reported and, for each audited true finding,
whether it is still found (recall of the true ones).
"""

import argparse
import gzip
import hashlib
import json
import os
import random
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))

# kind -> byte budget
BUDGET = {"man": 350_000, "include": 300_000, "python": 300_000, "doc": 300_000,
          "licenses": 250_000}
MAX_FILE = 60_000  # a file's first bytes only, so one file never fills a kind
PER_PREFIX = 2


def hkey(path):
    return hashlib.sha256(path.encode()).hexdigest()


def walk(top, pred):
    out = []
    for d, dirs, files in os.walk(top):
        dirs.sort()
        for f in sorted(files):
            p = os.path.join(d, f)
            if os.path.isfile(p) and not os.path.islink(p) and pred(p):
                out.append(p)
    return out


def read_text(path):
    if path.endswith(".gz"):
        with gzip.open(path, "rb") as f:
            data = f.read(MAX_FILE * 4)
    else:
        with open(path, "rb") as f:
            data = f.read(MAX_FILE * 4)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if "\0" in text:
        return None
    return text


def render_man(path):
    env = dict(os.environ, MANWIDTH="80", LC_ALL="C.UTF-8", MAN_KEEP_FORMATTING="")
    r = subprocess.run(["man", "-P", "cat", "-l", path], capture_output=True, env=env,
                       timeout=60)
    if r.returncode != 0:
        return None
    try:
        return r.stdout.decode("utf-8")
    except UnicodeDecodeError:
        return None


def candidates(kind):
    if kind == "man":
        return walk("/usr/share/man/man1", lambda p: p.endswith(".1.gz")) + \
            walk("/usr/share/man/man3", lambda p: p.endswith(".gz")) + \
            walk("/usr/share/man/man5", lambda p: p.endswith(".5.gz"))
    if kind == "include":
        return walk("/usr/include", lambda p: p.endswith(".h"))
    if kind == "python":
        pys = sorted(d for d in os.listdir("/usr/lib") if d.startswith("python3."))
        if not pys:
            return []
        top = os.path.join("/usr/lib", pys[-1])
        return walk(top, lambda p: p.endswith(".py") and "/test" not in p
                    and "site-packages" not in p and "dist-packages" not in p)
    if kind == "doc":
        def ok(p):
            b = os.path.basename(p).lower()
            return b.startswith(("changelog", "readme", "news", "copyright")) and \
                not b.endswith((".html", ".png", ".pdf"))
        return walk("/usr/share/doc", ok)
    if kind == "licenses":
        return walk("/usr/share/common-licenses", lambda p: True)
    raise ValueError(kind)


def gather(out):
    os.makedirs(out, exist_ok=True)
    rows = []
    for kind, budget in BUDGET.items():
        kdir = os.path.join(out, kind)
        os.makedirs(kdir, exist_ok=True)
        used = 0
        seen = set()
        per_prefix = {}
        for src in sorted(candidates(kind), key=hkey):
            if used >= budget:
                break
            # at most PER_PREFIX files of one family (gcloud_*, libfoo-*), so
            # that one package's hundreds of pages do not fill a kind
            pre = re.split(r"[-_.]", os.path.basename(src), maxsplit=1)[0]
            if per_prefix.get(pre, 0) >= PER_PREFIX:
                continue
            text = render_man(src) if kind == "man" else read_text(src)
            if not text or not text.strip():
                continue
            data = text.encode("utf-8")
            if len(data) > MAX_FILE:  # cut at a line end
                cut = data.rfind(b"\n", 0, MAX_FILE)
                data = data[:cut + 1 if cut > 0 else MAX_FILE]
                try:
                    data.decode("utf-8")
                except UnicodeDecodeError:
                    continue
            digest = hashlib.sha256(data).hexdigest()
            if digest in seen:  # the same licence in two packages
                continue
            seen.add(digest)
            per_prefix[pre] = per_prefix.get(pre, 0) + 1
            name = f"{kind}/{len(rows):04d}.txt"
            with open(os.path.join(out, name), "wb") as f:
                f.write(data)
            rows.append((kind, name, len(data), digest, src))
            used += len(data)
    with open(os.path.join(out, "MANIFEST.tsv"), "w", encoding="utf-8") as f:
        for r in rows:
            f.write("\t".join(str(x) for x in r) + "\n")
    total = sum(r[2] for r in rows)
    print(f"techset: {len(rows)} files, {total:,} bytes in {out}", file=sys.stderr)


def manifest(out):
    path = os.path.join(out, "MANIFEST.tsv")
    if not os.path.exists(path):
        sys.exit(f"techset: no {path}: run `techset.py gather` first")
    return [line.rstrip("\n").split("\t") for line in open(path, encoding="utf-8")]


def source_of(span):
    if span.get("source") == "rule":
        return "rule", span.get("rule") or "?"
    if span.get("rule"):  # a named heuristic of the model tier
        return span.get("source") or "model", span["rule"]
    return span.get("source") or "model", "model"


def run_count(out, tag, extra):
    exe = os.environ.get("PII_REDACT", os.path.join(ROOT, "pii-redact"))
    rows = manifest(out)
    found = []
    for i in range(0, len(rows), 64):
        batch = rows[i:i + 64]
        r = subprocess.run([exe, "--format", "json"] + extra +
                           [os.path.join(out, row[1]) for row in batch],
                           capture_output=True, text=True)
        if r.returncode not in (0, 1):
            sys.exit(f"techset: pii-redact failed: {r.stderr.strip()}")
        dec = json.JSONDecoder()
        s, pos, objs = r.stdout, 0, []
        while pos < len(s):
            while pos < len(s) and s[pos].isspace():
                pos += 1
            if pos >= len(s):
                break
            o, pos = dec.raw_decode(s, pos)
            objs.append(o)
        if len(objs) != len(batch):
            sys.exit(f"techset: {len(objs)} results for {len(batch)} files")
        for row, o in zip(batch, objs):
            for sp in o["spans"]:
                src, rule = source_of(sp)
                found.append({"file": row[1], "kind": row[0], "start": sp["start"],
                              "end": sp["end"], "label": sp["label"], "source": src,
                              "rule": rule})
    with open(os.path.join(out, f"findings-{tag}.jsonl"), "w", encoding="utf-8") as f:
        for x in found:
            f.write(json.dumps(x) + "\n")
    total = sum(int(r[2]) for r in rows)
    mb = total / 1e6
    kinds = {}
    for r in rows:
        kinds[r[0]] = kinds.get(r[0], 0) + int(r[2])
    labels = sorted({x["label"] for x in found})
    print(f"{len(rows)} files, {total / 1e6:.2f} MB; {len(found)} findings, "
          f"{len(found) / mb:,.0f} per MB\n")
    print("| label | " + " | ".join(kinds) + " | all |")
    print("|---|" + "--:|" * (len(kinds) + 1))
    for lab in labels:
        cells = []
        for k, b in kinds.items():
            n = sum(1 for x in found if x["label"] == lab and x["kind"] == k)
            cells.append(f"{n / (b / 1e6):,.0f}")
        n = sum(1 for x in found if x["label"] == lab)
        print(f"| {lab} | " + " | ".join(cells) + f" | **{n / mb:,.0f}** |")
    cells = [f"{sum(1 for x in found if x['kind'] == k) / (b / 1e6):,.0f}"
             for k, b in kinds.items()]
    print("| all | " + " | ".join(cells) + f" | **{len(found) / mb:,.0f}** |\n")
    per = {}
    for x in found:
        per.setdefault((x["label"], x["source"], x["rule"]), 0)
        per[(x["label"], x["source"], x["rule"])] += 1
    print("| label | source | rule | findings | per MB |")
    print("|---|---|---|--:|--:|")
    for (lab, src, rule), n in sorted(per.items(), key=lambda kv: -kv[1]):
        print(f"| {lab} | {src} | {rule} | {n} | {n / mb:,.0f} |")


def load_findings(out, tag):
    path = os.path.join(out, f"findings-{tag}.jsonl")
    if not os.path.exists(path):
        sys.exit(f"techset: no {path}: run `techset.py count --tag {tag}` first")
    return [json.loads(line) for line in open(path, encoding="utf-8")]


def run_sample(out, tag, n, seed):
    found = load_findings(out, tag)
    rng = random.Random(seed)
    pick = sorted(rng.sample(range(len(found)), min(n, len(found))))
    for i in pick:
        x = found[i]
        data = open(os.path.join(out, x["file"]), "rb").read()
        a, b = x["start"], x["end"]
        ctx = data[max(0, a - 60):a] + b"[[" + data[a:b] + b"]]" + data[b:b + 60]
        ctx = ctx.decode("utf-8", "replace").replace("\n", "⏎").replace("\t", " ")
        print(f"{x['file']}\t{a}\t{b}\t{x['label']}\t{x['source']}:{x['rule']}\t{ctx}")


def run_audit(out, tag, audit):
    found = load_findings(out, tag)
    have = {(x["file"], x["start"], x["end"], x["label"]) for x in found}
    overl = {}
    for x in found:
        overl.setdefault((x["file"], x["label"]), []).append((x["start"], x["end"]))
    n = ok = fp = kept_ok = still_fp = 0
    for line in open(audit, encoding="utf-8"):
        if not line.strip() or line.startswith("#"):
            continue
        f, a, b, lab, verdict = line.rstrip("\n").split("\t")[:5]
        a, b = int(a), int(b)
        n += 1
        hit = (f, a, b, lab) in have or any(s < b and a < e for s, e in overl.get((f, lab), []))
        if verdict == "ok":
            ok += 1
            kept_ok += hit
        else:
            fp += 1
            still_fp += hit
    rep = kept_ok + still_fp
    print(f"audited {n}: {ok} ok, {fp} fp (false-alarm share {fp / max(n, 1):.1%})")
    print(f"this run ({tag}): reports {rep} of them; ok kept {kept_ok}/{ok} "
          f"({kept_ok / max(ok, 1):.1%}), fp still reported {still_fp}/{fp}; "
          f"false-alarm share of those reported {still_fp / max(rep, 1):.1%}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=["gather", "count", "sample", "audit"])
    ap.add_argument("-o", "--out", default=os.path.join(ROOT, "build", "eval", "tech"))
    ap.add_argument("--tag", default="default")
    ap.add_argument("-n", type=int, default=200)
    ap.add_argument("--seed", type=int, default=40)
    ap.add_argument("--audit", default=os.path.join(HERE, "audit", "tech.tsv"))
    a, extra = ap.parse_known_args()
    a.extra = [x for x in extra if x != "--"]
    if a.cmd == "gather":
        gather(a.out)
    elif a.cmd == "count":
        run_count(a.out, a.tag, a.extra)
    elif a.cmd == "sample":
        run_sample(a.out, a.tag, a.n, a.seed)
    else:
        run_audit(a.out, a.tag, a.audit)


if __name__ == "__main__":
    main()
