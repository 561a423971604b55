#!/usr/bin/python3
"""evaluate.py - scores a model directory on a file in the unified eval
format (/work/shared/eval/README.md) with the reference forward pass, the
spec's constrained BIOES Viterbi (zero biases) and opf's span rules.  For
model development; the product's own evaluator is `pii-redact eval`.

Usage: evaluate.py -m MODEL_DIR FILE.jsonl [--json] [--limit N]
Prints, per scored label, strict and overlap P/R/F1, then the label-agnostic
character leak rate (share of scored gold characters covered by no
prediction of a scored label).  Model only: no rule tier.  The figures equal
`pii-redact eval --predictions` on the spans written by --dump.
"""

import argparse
import json
import os
import re
import sys
import unicodedata

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
from pf_model import load_model  # noqa: E402

NEG = -1e9


def transitions(C):
    """start[C], end[C], trans[C, C] for the v2 label space (spec 6.2), zero biases."""
    def kind(c):
        return ("O", -1) if c == 0 else ("BIES"[(c - 1) % 4], (c - 1) // 4)
    start = torch.full((C,), NEG)
    end = torch.full((C,), NEG)
    trans = torch.full((C, C), NEG)
    for c in range(C):
        t, _ = kind(c)
        if t in "OBS":
            start[c] = 0
        if t in "OES":
            end[c] = 0
    for p in range(C):
        tp, cp = kind(p)
        for n in range(C):
            tn, cn = kind(n)
            ok = False
            if tp == "O":
                ok = tn in "OBS"
            elif tp in "BI":
                ok = tn in "IE" and cn == cp
            else:  # E, S
                ok = tn in "OBS"
            if ok:
                trans[p, n] = 0.0
    return start, end, trans


def viterbi(logp, start, end, trans):
    T, C = logp.shape
    if T == 0:
        return []
    S = logp[0] + start
    back = []
    for t in range(1, T):
        cand = S[:, None] + trans  # [prev, next]
        best, arg = cand.max(0)
        back.append(arg)
        S = best + logp[t]
    last = int((S + end).argmax())
    path = [last]
    for arg in reversed(back):
        last = int(arg[last])
        path.append(last)
    return path[::-1]


def token_spans(path):
    """Viterbi paths are well formed: B I* E or S."""
    out, i = [], 0
    while i < len(path):
        c = path[i]
        if c == 0:
            i += 1
            continue
        cat, tag = (c - 1) // 4, "BIES"[(c - 1) % 4]
        j = i
        if tag == "B":
            while j + 1 < len(path) and path[j + 1] != 0 and "BIES"[(path[j + 1] - 1) % 4] in "IE" \
                    and (path[j + 1] - 1) // 4 == cat:
                j += 1
                if "BIES"[(path[j] - 1) % 4] == "E":
                    break
        out.append((cat, i, j + 1))
        i = j + 1
    return out


# Leading ASCII punctuation a value of the category never starts with, as
# ner/spans.c trims it ("=" of the token "=j" in "user=jane@x.org").
_J = "=:;,<>\"'`|([{*"
LEAD_JUNK = {"private_person": _J.replace("'", ""), "private_email": _J, "private_url": _J,
             "private_address": _J, "private_date": _J.replace("(", ""),
             "private_phone": _J.replace("(", "").replace("[", ""), "account_number": _J}

# Categories whose spans grow to the whole run of ASCII letters and digits
# they cut, at most 128 characters each way (ner/spans.c, ner_widen_*).
WIDEN = {"secret", "account_number", "private_email", "private_url", "private_phone"}
WIDEN_MAX = 128


def _alnum(c):
    return c.isascii() and c.isalnum()


# Categories whose values are numbers: whole words of lowercase ASCII letters
# (with one optional ".,:;" after them) at either edge of a span are dropped
# ("cc" and "expires" around a card number; ner/spans.c, trim_words).
WORDS_TRIMMED = {"account_number", "private_phone"}


def _lower(c):
    return "a" <= c <= "z"


def _trim_words(text, i, j):
    while True:
        k = i
        while k < j and _lower(text[k]):
            k += 1
        if k == i:
            break
        if k < j and text[k] in ".,:;":
            k += 1
        if k == j or text[k] not in " \t":
            break
        while k < j and text[k] in " \t":
            k += 1
        if k == j:
            break
        i = k
    while True:
        k = j
        if k > i and text[k - 1] in ".,:;":
            k -= 1
        w = k
        while k > i and _lower(text[k - 1]):
            k -= 1
        if k == w or k == i or text[k - 1] not in " \t":
            break
        while k > i and text[k - 1] in " \t":
            k -= 1
        if k == i:
            break
        j = k
    return i, j


# Person, address and date spans grow to whole words and lose closing
# punctuation (ner/spans.c, word_cp, trim_closing, has_alnum).
WORD_CATS = {"private_person", "private_address", "private_date"}
# Forms of address, abbreviated ranks, interjections: a person span of these
# words alone is dropped (ner/spans.c, address_only).
ADDRESS_FORMS = {"sir", "sirs", "madam", "madame", "mam", "ma'am", "maam", "mr", "mrs", "ms", "mx",
                 "miss", "mister", "messrs", "mesdames", "monsieur", "dear", "dr", "prof",
                 "maj", "col", "gen", "capt", "lt", "sgt", "cpl", "pvt", "adm", "cmdr", "rev",
                 "hon", "sen", "rep", "gov", "supt", "insp", "det", "esq", "jr", "sr",
                 "oh", "ohh", "hm", "hmm", "uh", "um", "umm", "ah", "ahh", "eh", "er", "ok", "okay",
                 "yeah", "yep", "yup", "nope", "yes", "no", "pardon", "gonna", "gotta", "kinda",
                 "wanna", "imma", "lol", "lmao", "omg", "hey", "hi", "hello", "thanks", "wow", "yay",
                 "ugh", "haha", "sorry", "please", "bye"}
_FORM_WORD = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*")


def _address_only(s):
    words = _FORM_WORD.findall(s)
    return bool(words) and all(w.replace("\u2019", "'").isascii()
                               and w.replace("\u2019", "'").lower() in ADDRESS_FORMS for w in words)


def _word(c):
    o = ord(c)
    if o < 0x80:
        return _alnum(c)
    if (0x0E00 <= o <= 0x0EFF or 0x1000 <= o <= 0x109F or 0x1780 <= o <= 0x17FF
            or 0x2E80 <= o <= 0x9FFF or 0xF900 <= o <= 0xFAFF or 0xFF66 <= o <= 0xFF9F or o >= 0x20000):
        return False
    return unicodedata.category(c) in ("Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Nd")


def _trim_closing(text, cat, s, e):
    person = cat == "private_person"
    while e > s:
        c = text[e - 1]
        if c in ",;:!?":
            drop = True
        elif c in ")]}>":
            drop = {")": "(", "]": "[", "}": "{", ">": "<"}[c] not in text[s:e - 1]
        elif c in '"\u201d\u00bb\u201c':
            drop = c != '"' or text[s:e - 1].count('"') % 2 == 0
        elif person and c in "'\u2019":
            drop = True
        elif (person and c in "sS" and e - 2 > s and text[e - 2] in "'\u2019"
              and _word(text[e - 3])):
            e -= 2  # "Smith's" -> "Smith"
            continue
        elif c == ".":
            k = e - 1
            while k > s and _word(text[k - 1]):
                k -= 1
            drop = (e - 1 - k) >= 4 and not (k > s and text[k - 1] == ".")
        else:
            drop = False
        if not drop:
            break
        e -= 1
        while e > s and text[e - 1].isspace():
            e -= 1
    return e


def char_spans(text, offsets, tspans):
    tb = text.encode("utf-8")
    b2c = [0] * (len(tb) + 1)
    ci = 0
    bi = 0
    for ch in text:
        n = len(ch.encode("utf-8"))
        for k in range(n):
            b2c[bi + k] = ci
        bi += n
        ci += 1
    b2c[len(tb)] = ci
    out = []
    for cat, ts, te in tspans:
        bs, be = offsets[ts][0], offsets[te - 1][1]
        cs = b2c[bs]
        ce = b2c[be - 1] + 1 if be > bs else cs
        junk = LEAD_JUNK.get(common.CATEGORIES[cat], "")
        while cs < ce and (text[cs].isspace() or text[cs] in junk):
            cs += 1
        if (common.CATEGORIES[cat] == "secret" and 0 < cs and cs + 1 < ce and text[cs] in "=:"
                and (_alnum(text[cs - 1]) or text[cs - 1] == "_")):
            cs += 1  # the "=" of "KEY=value"
        while ce > cs and text[ce - 1].isspace():
            ce -= 1
        if common.CATEGORIES[cat] in WORDS_TRIMMED:
            cs, ce = _trim_words(text, cs, ce)
        name = common.CATEGORIES[cat]
        if name in WORD_CATS:
            ce = _trim_closing(text, name, cs, ce)
            if not any(c.isalpha() or (name != "private_person" and unicodedata.category(c) == "Nd")
                       for c in text[cs:ce]):
                continue
            if name == "private_person" and _address_only(text[cs:ce]):
                continue  # "Sir", "/Madam", "Dear Ma'am": nobody's name
            if ce > cs and cs > 0 and _word(text[cs]):
                lim = max(0, cs - WIDEN_MAX)
                while cs > lim and _word(text[cs - 1]):
                    cs -= 1
            lim = min(len(text), ce + WIDEN_MAX)
            if ce > cs and _word(text[ce - 1]):
                while ce < lim and _word(text[ce]):
                    ce += 1
            if name == "private_address" and ce > cs:
                ce = _address_tail(text, ce, lim)
        if ce > cs and common.CATEGORIES[cat] in WIDEN:
            if _alnum(text[cs]):
                lim = max(0, cs - WIDEN_MAX)
                while cs > lim and _alnum(text[cs - 1]):
                    cs -= 1
            if _alnum(text[ce - 1]):
                lim = min(len(text), ce + WIDEN_MAX)
                while ce < lim and _alnum(text[ce]):
                    ce += 1
        if ce > cs:
            out.append((cs, ce, common.CATEGORIES[cat]))
    out.sort(key=lambda s: (s[0], -(s[1] - s[0]), s[2]))
    kept, last = [], -1
    for s in out:
        if s[0] >= last:
            kept.append(s)
            last = s[1]
    return kept


_COUNTRIES = None


def _is_country(w):
    """ner/lexicon.c, pii_ner_lex_country: ner/data/countries.txt, ASCII
    letters in any case; three letters or fewer, or a dot, only in capitals."""
    global _COUNTRIES
    if _COUNTRIES is None:
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "ner", "data",
                            "countries.txt")
        with open(path, encoding="utf-8") as f:
            _COUNTRIES = set(f.read().split("\n")) - {""}
    letters = sum(1 for c in w if c.isascii() and c.isalpha())
    if (letters <= 3 or "." in w) and any("a" <= c <= "z" for c in w):
        return False
    return "".join(c.lower() if "A" <= c <= "Z" else c for c in w) in _COUNTRIES


def _address_tail(text, ce, lim):
    """ner/spans.c, address_tail: a country (and a postcode) after an
    address, in characters rather than bytes."""
    i, comma, nl = ce, False, False
    while i < lim and i - ce < 16:
        c = text[i]
        if c in " \t":
            i += 1
        elif c == "," and not comma and not nl:
            comma, i = True, i + 1
        elif c == "\n" and not nl:
            nl, i = True, i + 1
        elif c == "\r" and not nl and i + 1 < lim and text[i + 1] == "\n":
            nl, i = True, i + 2
        else:
            break
    if i == lim or i == ce or i - ce >= 16:
        return ce
    ends, j = [], i
    while len(ends) < 5 and j - i < 48:
        ws = j
        while j < lim and (_word(text[j]) or text[j] in ".'\u2019-"):
            j += 1
        if j == ws:
            break
        ends.append(j)
        if j == lim or text[j] != " ":
            break
        j += 1
    new = ce
    for e in reversed(ends):
        if _is_country(text[i:e]):
            new = e
        elif e - i > 1 and text[e - 1] == "." and _is_country(text[i:e - 1]):
            new = e - 1
        if new != ce:
            break
    if new == ce:
        return ce
    d, seps = new, 0
    while d < lim and seps < 2 and text[d] in " ,":
        d, seps = d + 1, seps + 1
    ds = d
    while d < lim and d - ds < 7 and "0" <= text[d] <= "9":
        d += 1
    if seps and 4 <= d - ds <= 6:
        if d < lim and text[d] == "-":
            h = d + 1
            while h < lim and h - d - 1 < 5 and "0" <= text[h] <= "9":
                h += 1
            if 3 <= h - d - 1 <= 4:
                d = h
        if d == len(text) or not _word(text[d]):
            new = d
    return new


def predict(model, row_map, texts, backend, batch_tokens=8192):
    toks = common.tokenize(texts, backend)
    start, end, trans = transitions(model.cfg.n_labels)
    preds = [None] * len(texts)
    order = sorted(range(len(texts)), key=lambda i: len(toks[i][0]))
    i = 0
    while i < len(order):
        n = max(1, len(toks[order[i]][0]))
        j = i
        while j < len(order) and max(1, len(toks[order[j]][0])) * (j - i + 1) <= max(batch_tokens, n):
            j += 1
        idx = order[i:j]
        L = max(1, max(len(toks[k][0]) for k in idx))
        ids = torch.zeros(len(idx), L, dtype=torch.long)
        mask = torch.zeros(len(idx), L, dtype=torch.bool)
        for b, k in enumerate(idx):
            t = toks[k][0]
            ids[b, :len(t)] = torch.tensor(t, dtype=torch.long)
            mask[b, :len(t)] = True
        with torch.no_grad():
            logits, _ = model(ids, mask, row_map=row_map)
        lp = torch.log_softmax(logits.float(), -1)
        for b, k in enumerate(idx):
            n_k = len(toks[k][0])
            path = viterbi(lp[b, :n_k], start, end, trans)
            preds[k] = char_spans(texts[k], toks[k][1], token_spans(path))
        i = j
    return preds


def score(records, preds):
    labels = sorted({l for r in records for l in r["scored_labels"]})
    st = {l: {"tp_s": 0, "np": 0, "ng": 0, "tp_o_p": 0, "tp_o_g": 0} for l in labels}
    gold_chars = leaked = 0
    for r, pred in zip(records, preds):
        scored = set(r["scored_labels"])
        gold = [(s["start"], s["end"], s["label"]) for s in r["spans"] if s.get("scored")]
        ignore = [(s["start"], s["end"]) for s in r["spans"] if not s.get("scored")]
        pred = [p for p in pred if p[2] in scored]  # as pii-redact eval: before the leak count
        covered = [False] * len(r["text"])
        for s, e, _ in pred:
            for c in range(s, e):
                covered[c] = True
        for s, e, _ in gold:
            gold_chars += e - s
            leaked += sum(1 for c in range(s, e) if not covered[c])
        for g in gold:
            st[g[2]]["ng"] += 1
            if any(p[2] == g[2] and p[0] < g[1] and g[0] < p[1] for p in pred):
                st[g[2]]["tp_o_g"] += 1
        for p in pred:
            hit_s = any(g == p for g in gold)
            hit_o = any(p[2] == g[2] and p[0] < g[1] and g[0] < p[1] for g in gold)
            if not hit_o and any(p[0] < e and s < p[1] for s, e in ignore):
                continue  # overlaps an ignore region and matches nothing: not counted
            st[p[2]]["np"] += 1
            st[p[2]]["tp_s"] += int(hit_s)
            st[p[2]]["tp_o_p"] += int(hit_o)
    out = {}
    for l, v in st.items():
        def prf(tp_p, tp_g):
            p = tp_p / v["np"] if v["np"] else 0.0
            r_ = tp_g / v["ng"] if v["ng"] else 0.0
            return p, r_, (2 * p * r_ / (p + r_) if p + r_ else 0.0)
        out[l] = {"n_gold": v["ng"], "n_pred": v["np"],
                  "strict": prf(v["tp_s"], v["tp_s"]), "overlap": prf(v["tp_o_p"], v["tp_o_g"])}
    return out, (leaked / gold_chars if gold_chars else 0.0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-m", "--model", required=True)
    ap.add_argument("file")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--tokenizer", default="auto")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--dump", help="write predictions as JSONL (pii-redact eval --predictions)")
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    model, row_map, _ = load_model(a.model, dtype=torch.float32, angles="f32")
    recs = [json.loads(l) for l in open(a.file, encoding="utf-8") if l.strip()]
    if a.limit:
        recs = recs[:a.limit]
    preds = predict(model, row_map, [r["text"] for r in recs], common.pick_backend(a.tokenizer))
    if a.dump:
        with open(a.dump, "w", encoding="utf-8") as f:
            for p in preds:
                f.write(json.dumps({"spans": [{"start": s, "end": e, "label": l}
                                              for s, e, l in p]}) + "\n")
    res, leak = score(recs, preds)
    if a.json:
        print(json.dumps({"file": os.path.basename(a.file), "labels": res, "leak": leak}))
        return
    print(f"{os.path.basename(a.file)}: {len(recs)} records")
    print(f"{'label':18} {'gold':>5} {'pred':>5}  {'strict P/R/F1':>20}  {'overlap P/R/F1':>20}")
    for l, v in res.items():
        s, o = v["strict"], v["overlap"]
        print(f"{l:18} {v['n_gold']:5d} {v['n_pred']:5d}  {s[0]:6.3f} {s[1]:6.3f} {s[2]:6.3f}  "
              f"{o[0]:6.3f} {o[1]:6.3f} {o[2]:6.3f}")
    print(f"char leak rate: {leak:.3%}")


if __name__ == "__main__":
    main()
