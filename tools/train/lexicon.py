#!/usr/bin/python3
"""lexicon.py - builds the name lexicon of the NER tier (ner/data/README.md)
from given names of @faker-js/faker's locale data and word counts of the
English train split of the real-text pack.

    node tools/datagen/scripts/first-names.mjs > build/lexicon/faker-first.txt
    tools/train/lexicon.py --names build/lexicon/faker-first.txt \
        --train build/model/real/orig/real-train.jsonl \
        --dict /usr/share/dict/american-english -o ner/data

Writes three files of UTF-8 words, one per line, sorted by bytes:

  first_names.txt  given names kept from the faker list: one capital letter
                   and then lower-case letters (one inner hyphen allowed),
                   three characters or more, and neither a common word in
                   the train split (seen lower-case at least 3 times and more
                   often than inside a person span: "Will", "Grace") nor
                   mostly something else when capitalised (seen outside
                   person spans, not at a sentence start, at least twice and
                   more often than inside one: "Washington", "Roman").
  name_stop.txt    capitalised words that follow a given name but are no
                   family name: seen capitalised outside person spans (not
                   at a sentence start) at least 3 times and more than 4
                   times as often as inside one ("Street", "League"),
                   and the head nouns of names of organisations, venues
                   and places of ORG_HEADS below ("Electric Lady Studios",
                   "Casitas Lounge"), none of them a common family name.
  common_words.txt lower-case English words of the dictionary (Debian's
                   wamerican, SCOWL: ner/data/LICENSE.scowl) whose
                   capitalised form is not a kept given name ("kinsman",
                   "remand"; not "mike", "rose"): a model person span of
                   such words alone, all in lower case, is dropped.

Only the train split is read (realdata.py --copies 0 writes it, the
originals without mention replacement); the dev split and ../shared/eval
never are.  Deterministic: the same inputs give the same bytes.
"""
import argparse
import collections
import json
import os
import re

WORD = re.compile(r"[^\W\d_]+(?:['\u2019-][^\W\d_]+)*")
OPENERS = '.!?"\u201c\n:'

# Words that end the names of organisations, venues and places: a
# capitalised one after a given name or a title is no family name, whatever
# the train split's counts (they are too small to hold them all).  Common
# family names (Hall, Park, Lane, Church, Mills, Lake, Castle, Law, Field,
# Temple) are left out.
ORG_HEADS = """
Academy Agency Airlines Airport Airways Arena Associates Association Avenue
Awards Bakery Bancorp Band Boulevard Brands Broadcasting Building Bureau Cafe
Capital Cathedral Center Centre Championship Choir Cinema Clinic Club College
Commission Committee Communications Company Corp Corporation Council County
Cup Department District Enterprises Entertainment Festival Films Financial
Foods Foundation Gallery Gardens GmbH Grill Group Harbor Harbour Holdings
Hospital Hotel Inc Industries Institute Institution Insurance Investments
Kingdom Kitchen Labs Laboratories League Library Lodge Lounge Ltd Mall Media
Ministry Mosque Motors Museum Music Network Networks Orchestra Palace Partners
Pharmaceuticals Pictures Plaza Productions Province Quartet Railways Records
Recordings Republic Restaurant Road School Securities Society Software
Solutions Square Stadium Station Street Studio Studios Systems Technologies
Technology Theater Theatre Tower Towers Tour Trio University Ventures Village
""".split()


def given_name_shape(w):
    parts = w.split("-")
    if len(parts) > 2 or len(w) < 3:
        return False
    return all(p[:1].isupper() and len(p) >= 2 and p[1:].isalpha() and p[1:].islower() for p in parts)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--names", required=True, help="faker given names, one per line")
    ap.add_argument("--train", required=True, help="train split records (JSON Lines)")
    ap.add_argument("--dict", required=True, help="English word list, one per line (wamerican)")
    ap.add_argument("-o", "--out", required=True, help="output folder")
    a = ap.parse_args()

    inside, outside, lower = collections.Counter(), collections.Counter(), collections.Counter()
    with open(a.train, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            if r.get("lang") != "en":
                continue
            t = r["text"]
            ps = [(s["start"], s["end"]) for s in r["spans"] if s["label"] == "private_person"]
            for m in WORD.finditer(t):
                w = m.group()
                if not w[0].isupper():
                    lower[w] += 1
                elif any(s <= m.start() and m.end() <= e for s, e in ps):
                    inside[w] += 1
                else:
                    before = t[: m.start()].rstrip()
                    if before and before[-1] not in OPENERS:
                        outside[w] += 1

    with open(a.names, encoding="utf-8") as f:
        cands = {x.strip() for x in f if x.strip()}
    keep = []
    for w in cands:
        if not given_name_shape(w):
            continue
        i, o, lw = inside[w], outside[w], lower[w.lower()]
        if lw >= 3 and lw > i:
            continue
        if o >= 2 and o > i:
            continue
        keep.append(w)
    stop = [w for w, o in outside.items() if o >= 3 and o > 4 * inside[w]] + ORG_HEADS

    kept = set(keep)
    with open(a.dict, encoding="utf-8") as f:
        common = [w for w in (x.strip() for x in f)
                  if len(w) >= 2 and w.isascii() and w.isalpha() and w.islower()
                  and w.capitalize() not in kept]

    os.makedirs(a.out, exist_ok=True)
    for name, words in (("first_names.txt", keep), ("name_stop.txt", stop),
                        ("common_words.txt", common)):
        words = sorted(set(words), key=lambda s: s.encode("utf-8"))
        with open(os.path.join(a.out, name), "w", encoding="utf-8", newline="\n") as f:
            f.write("".join(w + "\n" for w in words))
        print(f"lexicon: {name}: {len(words)} words")


if __name__ == "__main__":
    main()
