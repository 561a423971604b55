"""common.py - shared pieces of the trainer: label space, tokenizer backends,
BIOES labelling of token sequences, token shape classes.

Tokenizer backends (both give o200k_base ids and UTF-8 byte offsets that
tile the text; special-token literals are plain text):
  * "c":    the project's `pii-redact tokenize --jsonl` (preferred: no node);
  * "node": tools/train/tok_node.cjs with the npm `tiktoken` package.
"""

import json
import os
import shutil
import subprocess
import sys
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools", "reference"))

CATEGORIES = ["account_number", "private_address", "private_date", "private_email",
              "private_person", "private_phone", "private_url", "secret"]
LABELS = ["O"] + [f"{t}-{c}" for c in CATEGORIES for t in "BIES"]  # spec 5: id = 1 + 4c + t
N_LABELS = len(LABELS)
VOCAB_SIZE = 200064  # o200k rows in the real model (spec 1)
N_REAL_TOKENS = 199998  # mergeable ranks 0..199997; specials above
IGNORE = 255  # prepared label of a token without loss (prepare.py, "ignore" spans)


def cat_index(label):
    return CATEGORIES.index(label)


def label_id(cat, tag):
    return 1 + 4 * cat + "BIES".index(tag)


# ---------------------------------------------------------------------------
# tokenizers


def _c_tool():
    exe = os.environ.get("PII_REDACT", os.path.join(ROOT, "pii-redact"))
    if not os.path.exists(exe):
        return None
    try:
        r = subprocess.run([exe, "tokenize", "--help"], capture_output=True, text=True, timeout=20)
    except OSError:
        return None
    return exe if r.returncode == 0 and "--jsonl" in r.stdout else None


def pick_backend(name="auto"):
    if name in ("auto", "c"):
        exe = _c_tool()
        if exe:
            return ("c", exe)
        if name == "c":
            raise SystemExit("pii-redact tokenize --jsonl is not available (build it with make)")
    if not os.path.exists(os.path.join(HERE, "node_modules", "tiktoken")):
        if shutil.which("npm") is None:
            raise SystemExit("no tokenizer: build ./pii-redact or install node+npm")
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--silent"], cwd=HERE, check=True)
    return ("node", os.path.join(HERE, "tok_node.cjs"))


def tokenize(texts, backend=("node", None)):
    """texts: list of str -> list of (ids list, [(bs, be)] byte offsets)."""
    kind, path = backend
    inp = "".join(json.dumps({"text": t}, ensure_ascii=False) + "\n" for t in texts).encode("utf-8")
    cmd = [path, "tokenize", "--jsonl"] if kind == "c" else ["node", path]
    r = subprocess.run(cmd, input=inp, capture_output=True, check=True)
    out = []
    for line in r.stdout.decode("utf-8").splitlines():
        if not line.strip():
            continue
        o = json.loads(line)
        if "offsets" in o:
            offs = [tuple(x) for x in o["offsets"]]
            ids = o["ids"]
        else:  # C tool: {"tokens":[{"id":..,"start":..,"end":..}]}
            ids = [t["id"] for t in o["tokens"]]
            offs = [(t["start"], t["end"]) for t in o["tokens"]]
        out.append((ids, offs))
    if len(out) != len(texts):
        raise RuntimeError(f"tokenizer returned {len(out)} results for {len(texts)} texts")
    return out


def vocab_bytes(backend=None):
    """Token id -> bytes for ids 0..199997, from the tokenizer's committed
    table tokenizer/data/o200k_base.vocab ("PIIVOCAB", u32 n, n x {u8 len, bytes})."""
    with open(os.path.join(ROOT, "tokenizer", "data", "o200k_base.vocab"), "rb") as f:
        d = f.read()
    if d[:8] != b"PIIVOCAB":
        raise ValueError("o200k_base.vocab: bad magic")
    n = int.from_bytes(d[8:12], "little")
    out, p = [], 12
    for _ in range(n):
        ln = d[p]
        out.append(d[p + 1:p + 1 + ln])
        p += 1 + ln
    if n != N_REAL_TOKENS:
        raise ValueError(f"o200k_base.vocab: {n} tokens, expected {N_REAL_TOKENS}")
    return out


# ---------------------------------------------------------------------------
# BIOES labelling

_WS = b" \t\n\r\x0b\x0c"


def bioes(offsets, text_bytes, spans):
    """offsets: [(bs, be)] per token; spans: [(bs, be, category index)] byte spans.
    A token belongs to a span when its non-whitespace bytes overlap it (a
    whitespace-only token belongs to a span that contains it entirely).
    Returns a list of label ids."""
    n = len(offsets)
    owner = [-1] * n
    spans = sorted(spans)
    j = 0
    for i, (ts, te) in enumerate(offsets):
        cs, ce = ts, te
        while cs < ce and text_bytes[cs] in _WS:
            cs += 1
        while ce > cs and text_bytes[ce - 1] in _WS:
            ce -= 1
        while j < len(spans) and spans[j][1] <= ts:
            j += 1
        best, bestov = -1, 0
        for s in range(j, len(spans)):
            ss, se, _ = spans[s]
            if ss >= te:
                break
            if cs < ce:
                ov = min(ce, se) - max(cs, ss)
            else:
                ov = (te - ts) if (ss <= ts and te <= se) else 0
            if ov > bestov:
                best, bestov = s, ov
        owner[i] = best
    labels = [0] * n
    i = 0
    while i < n:
        s = owner[i]
        if s < 0:
            i += 1
            continue
        j = i
        while j + 1 < n and owner[j + 1] == s:
            j += 1
        c = spans[s][2]
        if i == j:
            labels[i] = label_id(c, "S")
        else:
            labels[i] = label_id(c, "B")
            for t in range(i + 1, j):
                labels[t] = label_id(c, "I")
            labels[j] = label_id(c, "E")
        i = j + 1
    return labels


def spans_to_bytes(text, spans):
    """Gold spans with code-point offsets -> byte offsets (uses bstart/bend when present)."""
    out = []
    cp2b = None
    for s in spans:
        if s.get("scored") is False:
            continue
        if "bstart" in s and "bend" in s:
            bs, be = s["bstart"], s["bend"]
        else:
            if cp2b is None:
                cp2b = [0]
                for ch in text:
                    cp2b.append(cp2b[-1] + len(ch.encode("utf-8")))
            bs, be = cp2b[s["start"]], cp2b[s["end"]]
        out.append((bs, be, cat_index(s["label"])))
    return out


# ---------------------------------------------------------------------------
# shape classes for tokens that get no row of their own

_SCRIPTS = ["LATIN", "CYRILLIC", "GREEK", "ARABIC", "HEBREW", "DEVANAGARI", "THAI", "HANGUL",
            "HIRAGANA", "KATAKANA", "CJK"]


def _script(ch):
    name = unicodedata.name(ch, "")
    for s in _SCRIPTS:
        if name.startswith(s):
            return s
    return "OTHER"


def shape_class(b):
    """Bytes of a token -> a short class name (leading space folded in as '_')."""
    lead = "_" if b[:1] == b" " else ""
    body = b[1:] if lead else b
    try:
        s = body.decode("utf-8")
    except UnicodeDecodeError:
        return lead + "partial"
    if not s:
        return "space"
    if s.isspace():
        return lead + ("nl" if ("\n" in s or "\r" in s) else "ws")
    if s.isdigit():
        return lead + ("digit" if s.isascii() else "digit_u")
    if s.isalpha():
        sc = _script(s[0])
        if sc in ("LATIN", "CYRILLIC", "GREEK"):
            case = "up" if s.isupper() else ("cap" if s[0].isupper() else "low")
            return f"{lead}{sc.lower()}_{case}"
        return lead + sc.lower()
    if s.isalnum():
        return lead + "alnum"
    if any(ch.isalnum() for ch in s):
        return lead + "mixed"
    return lead + "punct"


def all_shape_classes():
    names = ["special", "partial", "_partial", "space", "nl", "_nl", "ws", "_ws"]
    for lead in ("", "_"):
        names += [lead + k for k in ("digit", "digit_u", "alnum", "mixed", "punct")]
        for sc in _SCRIPTS + ["OTHER"]:
            if sc in ("LATIN", "CYRILLIC", "GREEK"):
                names += [f"{lead}{sc.lower()}_{c}" for c in ("up", "cap", "low")]
            else:
                names.append(lead + sc.lower())
    return names
