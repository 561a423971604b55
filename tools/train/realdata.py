#!/usr/bin/python3
"""realdata.py - the real-text part of the training mix (stage 3).

Reads the annotated real-text pack (../shared/train/*.jsonl, its README
gives the format), splits it by document into train and dev with a fixed
hash, and writes:

  OUT/real-train.jsonl   the train documents, each once as written and
                         --copies more times with its person mentions
                         replaced by generated names (mention replacement)
  OUT/dev/SOURCE.jsonl   the dev documents of each source, unchanged, in the
                         unified eval format of ../shared/eval/README.md
                         (scored on the labels that source has gold for)
  OUT/split.tsv          document key, source, split (the fixed split)

The split: a document (id without its chunk number; the whole id where
a record is its own document) is dev when the first 8 hex digits of
sha256("pii-redact-dev:" + key) are 0 modulo 6 (about one in six).  It
never changes with the data mix or the seed.

Mention replacement keeps the real context and swaps each person mention
for a name drawn from the data generator's own person spans (--names, a
datagen JSONL; names of many cultures, orders and casings): a one-word
mention gets one word, a longer one a full name, the original's casing
(all lower, ALL UPPER) is kept, and one name maps to the same replacement
throughout a document (its words too: "Okafor" after "Ngozi Okafor").
Only Latin-script names are drawn; Japanese records keep their names.

Head crops (--crops P): a record rarely begins with a name, so a name as
the very first token of a document (a line in --lines mode, a chat message,
a log field) is a context the model hardly sees: the token has no leading
space and nothing before it.  With probability P, each mention-replaced
copy is written once more, cut to begin at one of its person mentions (the
first word of the text is then the name; later spans shift, earlier ones
go).  Crops draw from their own random stream, so --crops 0 writes exactly
what the recipe wrote before it existed.

URLs in real text are not annotated (the pack has no private_url gold), so
they become ignore regions (label "ignore": no loss on their tokens),
rather than teaching the model that a URL is not PII.

Usage: realdata.py --names DATAGEN.jsonl -o OUTDIR [--pack DIR] [--copies 2] [--seed 7]
                   [--crops 0.5]
Never reads ../shared/eval.
"""

import argparse
import hashlib
import json
import os
import random
import re
import sys
import unicodedata

DEV_MOD = 6
URL_RE = re.compile(r"(?:https?://|www\.)[^\s<>\"')\]]+", re.I)
SCORED = {
    # labels each source has gold for (README of the pack): person everywhere;
    # MEDDOCAN also has human address, date, e-mail and phone annotation
    "meddocan": ["private_person", "private_address", "private_date", "private_email",
                 "private_phone"],
}


def doc_key(rec_id):
    parts = rec_id.split(":")
    return rec_id if len(parts) <= 2 else rec_id.rsplit(":", 1)[0]


def is_dev(key):
    return int(hashlib.sha256(("pii-redact-dev:" + key).encode()).hexdigest()[:8], 16) % DEV_MOD == 0


def load_names(path):
    one, multi = [], []
    seen = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            t = d["text"]
            for s in d["spans"]:
                if s["label"] != "private_person":
                    continue
                n = t[s["start"]:s["end"]]
                # plain names only: letters, spaces, hyphens, apostrophes, dots
                if n in seen or not re.fullmatch(r"[^\W\d_][\w'’.\- ]*", n) or "\n" in n:
                    continue
                if n.islower() or n.isupper():
                    continue  # casing is applied from the original mention
                if not all(unicodedata.name(c, "").startswith("LATIN") for c in n if c.isalpha()):
                    continue  # the records replaced are en/de/es/pt
                seen.add(n)
                (multi if " " in n else one).append(n)
    one.sort()
    multi.sort()
    return one, multi


def apply_case(orig, name):
    letters = [c for c in orig if c.isalpha()]
    if letters and all(c.islower() for c in letters):
        return name.lower()
    if len(letters) > 1 and all(c.isupper() for c in letters):
        return name.upper()
    return name


def replace_mentions(rec, names, rng):
    one, multi = names
    text = rec["text"]
    mapping, word_map = {}, {}
    out, spans, pos, shift = [], [], 0, 0
    for s in rec["spans"]:
        seg = text[s["start"]:s["end"]]
        new = None
        if s["label"] == "private_person":
            if seg in mapping:
                new = mapping[seg]
            elif " " not in seg and seg in word_map:
                new = word_map[seg]
            else:
                words = seg.split()
                if len(words) == 1:
                    r = rng.random()
                    if r < 0.4:
                        rep = rng.choice(one)
                    else:
                        full = rng.choice(multi).split()
                        rep = full[0] if r < 0.65 else full[-1]
                else:
                    rep = rng.choice(multi)
                    rw = rep.split()
                    for i, w in enumerate(words):  # "Okafor" after "Ngozi Okafor"
                        if i < len(rw) and w not in word_map:
                            word_map[w] = apply_case(w, rw[i] if i < len(words) - 1 else rw[-1])
                new = apply_case(seg, rep)
                r = rng.random()
                if r < 0.03:
                    new = new.lower()
                elif r < 0.05:
                    new = new.upper()
                mapping[seg] = new
        out.append(text[pos:s["start"]])
        val = new if new is not None else seg
        start = s["start"] + shift
        out.append(val)
        spans.append({"start": start, "end": start + len(val), "label": s["label"]})
        shift += len(val) - len(seg)
        pos = s["end"]
    out.append(text[pos:])
    return {"id": rec["id"], "source": rec["source"], "lang": rec["lang"], "text": "".join(out),
            "spans": spans}


def head_crop(rec, rng):
    """The record cut to begin at one of its person mentions (one that starts
    a word), or None when it has none after the first character."""
    text = rec["text"]
    cands = [s for s in rec["spans"] if s["label"] == "private_person" and s["start"] > 0
             and text[s["start"] - 1].isspace()]
    if not cands:
        return None
    c = rng.choice(cands)["start"]
    spans = [dict(s, start=s["start"] - c, end=s["end"] - c) for s in rec["spans"] if s["start"] >= c]
    return dict(rec, id=rec["id"] + "#crop", text=text[c:], spans=spans)


def add_url_ignores(rec):
    spans = list(rec["spans"])
    for m in URL_RE.finditer(rec["text"]):
        a, b = m.start(), m.end()
        if any(s["start"] < b and a < s["end"] for s in rec["spans"]):
            continue
        spans.append({"start": a, "end": b, "label": "ignore"})
    spans.sort(key=lambda s: s["start"])
    return dict(rec, spans=spans)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pack", default=os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                                   "shared", "train"))
    ap.add_argument("--names", required=True, help="datagen JSONL whose person spans are the name pool")
    ap.add_argument("-o", "--out", required=True)
    ap.add_argument("--copies", type=int, default=2, help="mention-replaced copies per train record")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--crops", type=float, default=0.0,
                    help="probability that a replaced copy is also written cut at a person mention")
    a = ap.parse_args()

    names = load_names(a.names)
    rng = random.Random(a.seed)
    crop_rng = random.Random(a.seed * 1000003 + 17)  # its own stream: --crops 0 changes nothing
    n_crops = 0
    os.makedirs(os.path.join(a.out, "dev"), exist_ok=True)
    files = sorted(f for f in os.listdir(a.pack) if f.endswith(".jsonl"))
    if not files:
        sys.exit(f"realdata: no .jsonl in {a.pack}")
    n_train = n_dev = n_out = 0
    with open(os.path.join(a.out, "real-train.jsonl"), "w", encoding="utf-8") as tr, \
            open(os.path.join(a.out, "split.tsv"), "w", encoding="utf-8") as sp:
        for fn in files:
            recs = [json.loads(line) for line in open(os.path.join(a.pack, fn), encoding="utf-8")]
            src = recs[0]["source"]
            dev = []
            keys_done = set()
            for r in recs:
                k = doc_key(r["id"])
                d = is_dev(k)
                if k not in keys_done:
                    sp.write(f"{k}\t{src}\t{'dev' if d else 'train'}\n")
                    keys_done.add(k)
                if d:
                    dev.append(r)
                    n_dev += 1
                    continue
                n_train += 1
                tr.write(json.dumps(add_url_ignores(r), ensure_ascii=False) + "\n")
                n_out += 1
                if r["lang"] == "ja":
                    continue
                for _ in range(a.copies):
                    rep = replace_mentions(r, names, rng)
                    tr.write(json.dumps(add_url_ignores(rep), ensure_ascii=False) + "\n")
                    n_out += 1
                    if a.crops > 0 and crop_rng.random() < a.crops:
                        cut = head_crop(rep, crop_rng)
                        if cut:
                            tr.write(json.dumps(add_url_ignores(cut), ensure_ascii=False) + "\n")
                            n_out += 1
                            n_crops += 1
            scored = SCORED.get(src, ["private_person"])
            with open(os.path.join(a.out, "dev", fn), "w", encoding="utf-8") as f:
                for r in dev:
                    f.write(json.dumps({
                        "id": r["id"], "source": src, "lang": r["lang"], "text": r["text"],
                        "scored_labels": scored,
                        "spans": [dict(s, scored=s["label"] in scored) for s in r["spans"]],
                    }, ensure_ascii=False) + "\n")
    print(f"realdata: {n_train} train records ({n_out} written with {a.copies} replaced copies, "
          f"{n_crops} head crops), "
          f"{n_dev} dev records; name pool {len(names[0])} one-word + {len(names[1])} full names",
          file=sys.stderr)


if __name__ == "__main__":
    main()
