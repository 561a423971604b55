#!/usr/bin/env python3
"""Turns a probe file (one sentence a line, [[...]] around each person's
name, '#' comments) into the unified eval format of ../shared/eval/README.md,
scored on private_person only: python3 to_jsonl.py subjects.txt > out.jsonl"""
import json
import re
import sys


def main():
    n = 0
    for line in open(sys.argv[1], encoding="utf-8"):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        text, spans, pos = "", [], 0
        for m in re.finditer(r"\[\[(.+?)\]\]", line):
            text += line[pos:m.start()]
            spans.append({"start": len(text), "end": len(text) + len(m.group(1)),
                          "label": "private_person", "orig_label": "PERSON", "scored": True})
            text += m.group(1)
            pos = m.end()
        text += line[pos:]
        n += 1
        print(json.dumps({"id": f"probe-{n}", "source": "probe", "lang": "en", "text": text,
                          "scored_labels": ["private_person"], "spans": spans}, ensure_ascii=False))


if __name__ == "__main__":
    main()
