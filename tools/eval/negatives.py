#!/usr/bin/python3
"""negatives.py - explicit negatives for the precision dev set (issue 40,
docs/ACCURACY.md "Explicit negatives"): the organisations, places, products,
groups and works that the training pack's sources annotate but the pack
dropped (it kept person, date and contact spans only), and how many of
them the pipeline flags as private_person.

    negatives.py build --conll wnut17train.conll [--uner-ewt DEV TEST] [--uner-pud TEST]
                       [--gum DIR-OF-CONLLU]
                       [--pack ../shared/train] [-o build/eval/negatives]
    negatives.py count [-o build/eval/negatives] [--split dev] [-- PII-REDACT ARGS]

Sources, the same repositories and commits as the pack's files (licences
in ../shared/train/licenses/):
  - WNUT-17 train: `leondz/emerging_entities_17` @
    e52a2d2a71ac1a051ca2d532eef28653c5c02603, `wnut17train.conll` (CC BY
    4.0); corporation, location, product, group and creative-work.
  - Universal NER English EWT: `UniversalNER/UNER_English-EWT` @
    8ed072de2fd24022cc62458997fe96a8fe191ea4, `en_ewt-ud-{dev,test}.iob2`
    (CC BY-SA 4.0); ORG and LOC.
  - Universal NER English PUD: `UniversalNER/UNER_English-PUD` @
    07ea0553144e3fcf3d6633efe2a075b725a0d262, `en_pud-ud-test.iob2` (CC
    BY-SA 3.0); ORG and LOC.
  - GUM: `amir-zeldes/gum` @ 72ce5ac14978a324c2fd18d49484e65292cbe316,
    `dep/*.conllu` of the pack's genres (licences per genre:
    ../shared/train/licenses/gum.*); its entity layer's organization,
    place, object and event mentions that carry a Wikipedia identity and
    a proper noun (named ones: "Wikinews", "Australia", not "the
    company").
Get each file from a clone or snapshot of its repository, e.g.

    git --git-dir=MIRROR show e52a2d2a71ac1a051ca2d532eef28653c5c02603:wnut17train.conll >wnut17train.conll

The derived files (build/eval/negatives, not committed) carry the
sources' licences (CC BY-SA: share alike).  `build` aligns each source
sentence with the pack record that holds its text (WNUT: a tweet per
record, its tokens in order, blanks ignored; UNER: a document's sentences
joined by a space, in order, over its records), so every record keeps the
pack's id, text and gold person spans, and adds the source's other
mentions as `negatives`, each with its type and code-point offsets.  A mention that overlaps a gold person is left out.  Records
whose text no sentence matches are skipped (counted).  The split is the
pack's own (tools/train/realdata.py: sha256 of the document key): `dev`
(the default; the model never trains on it), `train`, or `all`.  Never
reads ../shared/eval.

`count` runs `pii-redact eval --dump-predictions` on the split (extra
arguments after `--`, e.g. `--rules-only`) and prints, per type, the
negative mentions and those a predicted private_person span overlaps (a
false alarm: no gold person overlaps that span), with person precision
and recall on the same records.
"""

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
TYPES = ["corporation", "location", "product", "group", "creative-work", "ORG", "LOC",
         "organization", "place", "object", "event"]
GUM_TYPES = {"organization", "place", "object", "event"}
UNER_TYPES = {"ORG", "LOC"}
LABEL = "private_person"


def is_dev(key):  # tools/train/realdata.py's split, DEV_MOD 6
    return int(hashlib.sha256(("pii-redact-dev:" + key).encode()).hexdigest()[:8], 16) % 6 == 0


def doc_key(rec_id):
    parts = rec_id.split(":")
    return rec_id if len(parts) <= 2 else rec_id.rsplit(":", 1)[0]


def sentences(path):
    toks = []
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if not line.strip():
            if toks:
                yield toks
            toks = []
            continue
        tok, _, tag = line.rpartition("\t")
        toks.append((tok, tag))
    if toks:
        yield toks


def squeeze(s):
    return "".join(s.split())


def align(text, toks):
    """Code-point offsets of each token in text, in order, or None."""
    pos, out = 0, []
    for tok, _ in toks:
        i = text.find(tok, pos)
        if i < 0 or text[pos:i].strip():
            return None
        out.append((i, i + len(tok)))
        pos = i + len(tok)
    return out if not text[pos:].strip() else None


def mentions(toks, offs):
    out, cur = [], None
    for (tok, tag), (s, e) in zip(toks, offs):
        if tag.startswith("B-") or (tag.startswith("I-") and (not cur or cur[2] != tag[2:])):
            if cur:
                out.append(cur)
            cur = [s, e, tag[2:]]
        elif tag.startswith("I-"):
            cur[1] = e
        else:
            if cur:
                out.append(cur)
            cur = None
    if cur:
        out.append(cur)
    return out


def uner_sentences(paths):
    """(doc, text, [(token, tag)]) of the iob2 files, in order."""
    for path in paths:
        doc, text, toks = None, None, []
        for line in list(open(path, encoding="utf-8")) + [""]:
            line = line.rstrip("\n")
            if line.startswith("# newdoc id = "):
                doc = line[len("# newdoc id = "):]
            elif line.startswith("# sent_id = "):
                sid = line[len("# sent_id = "):]
                doc = doc or sid.rsplit("-", 1)[0]
            elif line.startswith("# text = "):
                text = line[len("# text = "):]
            elif line.startswith("#"):
                continue
            elif line.strip():
                cols = line.split("\t")
                if cols[0].isdigit():
                    toks.append((cols[1], cols[2]))
            elif toks:
                yield doc, text, toks
                text, toks = None, []


def build_uner(a, name, paths, files):
    recs = [json.loads(x) for x in open(os.path.join(a.pack, name + ".jsonl"), encoding="utf-8")]
    by_doc = {}
    for r in recs:
        by_doc.setdefault(r["id"].split(":")[1], []).append(r)
    sents = {}
    for doc, text, toks in uner_sentences(paths):
        sents.setdefault(doc, []).append((text, toks))
    n_rec = n_ment = 0
    for doc, rs in by_doc.items():
        queue = list(sents.get(doc, []))
        for r in sorted(rs, key=lambda r: int(r["id"].rsplit(":", 1)[1])):
            t, pos, neg, ok = r["text"], 0, [], True
            while ok and t[pos:].strip():
                while pos < len(t) and t[pos] == " ":
                    pos += 1
                if not queue or not t.startswith(queue[0][0], pos):
                    ok = False
                    break
                text, toks = queue.pop(0)
                offs = align(text, toks)
                if offs is None:
                    ok = False
                    break
                neg += [(pos + s, pos + e, ty) for s, e, ty in mentions(toks, offs)
                        if ty in UNER_TYPES]
                pos += len(text)
            if not ok:
                continue
            gold = [s for s in r["spans"] if s["label"] == LABEL]
            neg = [{"start": s, "end": e, "type": ty} for s, e, ty in neg
                   if not any(s < g["end"] and g["start"] < e for g in gold)]
            n_rec += 1
            n_ment += len(neg)
            rec = {"id": r["id"], "source": name, "lang": "en", "text": t, "spans": gold,
                   "scored_labels": [LABEL], "negatives": neg}
            files["dev" if is_dev(doc_key(r["id"])) else "train"].write(
                json.dumps(rec, ensure_ascii=False) + "\n")
    print(f"negatives: {name}: {n_rec} of {len(recs)} pack records matched, "
          f"{n_ment} negative mentions")


def gum_entities(v):
    """The Entity= value of a token: ('open'|'single', id, fields) and ('close', id)."""
    ev, i = [], 0
    while i < len(v):
        if v[i] == "(":
            j = i + 1
            while j < len(v) and v[j] not in "()":
                j += 1
            f = v[i + 1:j]
            if j < len(v) and v[j] == ")":
                ev.append(("single", f.split("-")[0], f))
                j += 1
            else:
                ev.append(("open", f.split("-")[0], f))
            i = j
        else:
            j = i
            while j < len(v) and v[j] != ")":
                j += 1
            ev.append(("close", v[i:j], None))
            i = j + 1
    return ev


def gum_doc(path):
    """[(form, upos)] and [(first, last token index, etype, identity)] of a .conllu."""
    toks, ments, open_ = [], [], {}
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        c = line.split("\t")
        if not c[0].isdigit():
            continue  # multiword tokens, empty nodes
        k = len(toks)
        toks.append((c[1], c[3]))
        ent = [x[len("Entity="):] for x in c[9].split("|") if x.startswith("Entity=")]
        for kind, eid, f in gum_entities(ent[0]) if ent else []:
            if kind == "close":
                if open_.get(eid):
                    first, f0 = open_[eid].pop()
                    ments.append((first, k, f0))
            elif kind == "single":
                ments.append((k, k, f))
            else:
                open_.setdefault(eid, []).append((k, f))
    out = []
    for first, last, f in ments:
        parts = f.split("-")
        etype, ident = (parts[1] if len(parts) > 1 else ""), "-".join(parts[7:])
        if etype in GUM_TYPES and ident and any(toks[i][1] == "PROPN"
                                                  for i in range(first, last + 1)):
            out.append((first, last, etype))
    return toks, out


def build_gum(a, files):
    recs = [json.loads(x) for x in open(os.path.join(a.pack, "gum.jsonl"), encoding="utf-8")]
    by_doc = {}
    for r in recs:
        by_doc.setdefault(r["id"].split(":")[1], []).append(r)
    n_rec = n_ment = 0
    for doc, rs in by_doc.items():
        path = os.path.join(a.gum, doc + ".conllu")
        if not os.path.exists(path):
            continue
        toks, ments = gum_doc(path)
        rs = sorted(rs, key=lambda r: int(r["id"].rsplit(":", 1)[1]))
        where, t, ri, pos = [], 0, 0, 0  # token -> (record index, start, end)
        for form, _ in toks:
            while ri < len(rs):
                txt = rs[ri]["text"]
                i = txt.find(form, pos)
                if i >= 0 and not txt[pos:i].strip():
                    where.append((ri, i, i + len(form)))
                    pos = i + len(form)
                    break
                if txt[pos:].strip():
                    ri = len(rs)  # the text holds something else: give up
                    break
                ri, pos = ri + 1, 0
            if ri >= len(rs):
                break
        if len(where) != len(toks):
            continue
        neg = [[] for _ in rs]
        for first, last, etype in ments:
            (r0, s0, _), (r1, _, e1) = where[first], where[last]
            if r0 == r1:
                neg[r0].append((s0, e1, etype))
        for r, ng in zip(rs, neg):
            gold = [s for s in r["spans"] if s["label"] == LABEL]
            ng = [{"start": s, "end": e, "type": ty} for s, e, ty in sorted(set(ng))
                  if not any(s < g["end"] and g["start"] < e for g in gold)]
            n_rec += 1
            n_ment += len(ng)
            rec = {"id": r["id"], "source": "gum", "lang": "en", "text": r["text"], "spans": gold,
                   "scored_labels": [LABEL], "negatives": ng}
            files["dev" if is_dev(doc_key(r["id"])) else "train"].write(
                json.dumps(rec, ensure_ascii=False) + "\n")
    print(f"negatives: gum: {n_rec} of {len(recs)} pack records matched, {n_ment} negative mentions")


def build(a):
    recs = [json.loads(x) for x in open(os.path.join(a.pack, "wnut17_train.jsonl"), encoding="utf-8")]
    by_text = {}
    for r in recs:
        by_text.setdefault(squeeze(r["text"]), []).append(r)
    os.makedirs(a.out, exist_ok=True)
    files = {k: open(os.path.join(a.out, f"wnut17_{k}.jsonl"), "w", encoding="utf-8")
             for k in ("dev", "train")}
    used, n_ment, unmatched = set(), 0, 0
    for toks in sentences(a.conll):
        cands = by_text.get("".join(t for t, _ in toks), [])
        r = next((c for c in cands if c["id"] not in used), None)
        offs = align(r["text"], toks) if r else None
        if offs is None:
            unmatched += 1
            continue
        used.add(r["id"])
        gold = [s for s in r["spans"] if s["label"] == LABEL]
        neg = [{"start": s, "end": e, "type": t} for s, e, t in mentions(toks, offs)
               if t in TYPES and not any(s < g["end"] and g["start"] < e for g in gold)]
        n_ment += len(neg)
        rec = {"id": r["id"], "source": "wnut17_train", "lang": "en", "text": r["text"],
               "spans": gold, "scored_labels": [LABEL], "negatives": neg}
        files["dev" if is_dev(doc_key(r["id"])) else "train"].write(
            json.dumps(rec, ensure_ascii=False) + "\n")
    for f in files.values():
        f.close()
    print(f"negatives: wnut17_train: {len(used)} of {len(recs)} pack records matched "
          f"({unmatched} CoNLL sentences unmatched), {n_ment} negative mentions")
    for name, paths in (("uner_en_ewt", a.uner_ewt), ("uner_en_pud", a.uner_pud)):
        if paths:
            files = {k: open(os.path.join(a.out, f"{name}_{k}.jsonl"), "w", encoding="utf-8")
                     for k in ("dev", "train")}
            build_uner(a, name, paths, files)
            for f in files.values():
                f.close()
    if a.gum:
        files = {k: open(os.path.join(a.out, f"gum_{k}.jsonl"), "w", encoding="utf-8")
                 for k in ("dev", "train")}
        build_gum(a, files)
        for f in files.values():
            f.close()
    print(f"negatives: -> {a.out}")


def count(a, extra):
    exe = os.environ.get("PII_REDACT", os.path.join(ROOT, "pii-redact"))
    if not os.path.exists(os.path.join(a.out, f"wnut17_{a.split if a.split != 'all' else 'dev'}.jsonl")):
        sys.exit(f"negatives: no files in {a.out}: run `negatives.py build` first")
    names = ["dev", "train"] if a.split == "all" else [a.split]
    for src in ("wnut17", "uner_en_ewt", "uner_en_pud", "gum"):
        recs = []
        for k in names:
            p = os.path.join(a.out, f"{src}_{k}.jsonl")
            if os.path.exists(p):
                recs += [json.loads(x) for x in open(p, encoding="utf-8")]
        if recs:
            print(f"\n### {src} ({a.split})\n")
            count_one(exe, recs, extra)


def count_one(exe, recs, extra):
    with tempfile.TemporaryDirectory() as tmp:
        inp, out = os.path.join(tmp, "in.jsonl"), os.path.join(tmp, "pred.jsonl")
        with open(inp, "w", encoding="utf-8") as f:
            for r in recs:
                f.write(json.dumps({k: r[k] for k in ("id", "lang", "text", "spans",
                                                      "scored_labels")},
                                   ensure_ascii=False) + "\n")
        p = subprocess.run([exe, "eval", "--format", "json", "--dump-predictions", out] + extra +
                           [inp], capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"negatives: eval: {p.stderr.strip()}")
        pred = [json.loads(x) for x in open(out, encoding="utf-8")]
    per = {t: [0, 0] for t in TYPES}
    tp = n = hit = ngold = 0
    for r, pr in zip(recs, pred):
        ps = [(s["start"], s["end"]) for s in pr["spans"] if s["label"] == LABEL]
        gold = [(s["start"], s["end"]) for s in r["spans"]]
        false = [p for p in ps if not any(p[0] < g[1] and g[0] < p[1] for g in gold)]
        for m in r["negatives"]:
            per[m["type"]][0] += 1
            per[m["type"]][1] += any(p[0] < m["end"] and m["start"] < p[1] for p in false)
        tp += len(ps) - len(false)
        n += len(ps)
        hit += sum(1 for g in gold if any(p[0] < g[1] and g[0] < p[1] for p in ps))
        ngold += len(gold)
    print(f"| type | mentions | flagged as {LABEL} | share |")
    print("|---|--:|--:|--:|")
    tm = tf = 0
    for t in TYPES:
        m, f = per[t]
        if not m:
            continue
        tm, tf = tm + m, tf + f
        print(f"| {t} | {m} | {f} | {f / max(m, 1):.1%} |")
    print(f"| **all** | {tm} | {tf} | {tf / max(tm, 1):.1%} |")
    print(f"\n{len(recs)} records; person P / R {tp / max(n, 1):.3f} / {hit / max(ngold, 1):.3f} "
          f"({n} predicted, {ngold} gold)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=["build", "count"])
    ap.add_argument("--conll")
    ap.add_argument("--uner-ewt", nargs="+")
    ap.add_argument("--uner-pud", nargs="+")
    ap.add_argument("--gum", help="a folder with GUM's dep/*.conllu")
    ap.add_argument("--pack", default=os.path.join(ROOT, "..", "shared", "train"))
    ap.add_argument("-o", "--out", default=os.path.join(ROOT, "build", "eval", "negatives"))
    ap.add_argument("--split", choices=["dev", "train", "all"], default="dev")
    a, extra = ap.parse_known_args()
    extra = [x for x in extra if x != "--"]
    if a.cmd == "build":
        if not a.conll:
            sys.exit("negatives: build needs --conll wnut17train.conll")
        build(a)
    else:
        count(a, extra)


if __name__ == "__main__":
    main()
