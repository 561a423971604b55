#!/usr/bin/env python3
"""Checks a SARIF log against the structure SARIF 2.1.0 requires (the
schema's "required" properties and types for what pii-redact writes) and
against what GitHub code scanning needs (ruleId, a message text, a physical
location with a relative URI and startLine >= 1, partialFingerprints).
Python standard library only: no network, no jsonschema package.
Usage: sarif_check.py FILE; exit 0 when valid, 1 with the reason."""
import json
import sys


def fail(msg):
    print("sarif: " + msg)
    sys.exit(1)


def need(obj, key, typ, where):
    if not isinstance(obj, dict) or key not in obj:
        fail("%s: missing required '%s'" % (where, key))
    if not isinstance(obj[key], typ):
        fail("%s.%s: wrong type %s" % (where, key, type(obj[key]).__name__))
    return obj[key]


log = json.load(open(sys.argv[1], encoding="utf-8"))
if need(log, "version", str, "log") != "2.1.0":
    fail("version is not 2.1.0")
runs = need(log, "runs", list, "log")
if len(runs) != 1:
    fail("expected one run")
for run in runs:
    driver = need(need(run, "tool", dict, "run"), "driver", dict, "run.tool")
    need(driver, "name", str, "driver")
    rules = driver.get("rules", [])
    ids = []
    for i, r in enumerate(rules):
        ids.append(need(r, "id", str, "rules[%d]" % i))
    results = need(run, "results", list, "run")
    for i, res in enumerate(results):
        w = "results[%d]" % i
        msg = need(res, "message", dict, w)
        if not isinstance(msg.get("text"), str) or not msg["text"]:
            fail(w + ".message: needs text")
        rid = need(res, "ruleId", str, w)
        if "ruleIndex" in res and ids[res["ruleIndex"]] != rid:
            fail(w + ": ruleIndex does not name ruleId")
        if res.get("level", "warning") not in ("none", "note", "warning", "error"):
            fail(w + ".level: not a SARIF level")
        locs = need(res, "locations", list, w)
        if not locs:
            fail(w + ": no location")
        pl = need(locs[0], "physicalLocation", dict, w + ".locations[0]")
        uri = need(need(pl, "artifactLocation", dict, w), "uri", str, w + ".artifactLocation")
        if uri.startswith("/") or uri.startswith("./") or not uri:
            fail(w + ": uri must be relative to the repository root: " + uri)
        region = need(pl, "region", dict, w)
        if need(region, "startLine", int, w + ".region") < 1:
            fail(w + ": startLine < 1")
        if need(region, "startColumn", int, w + ".region") < 1:
            fail(w + ": startColumn < 1")
        fps = need(res, "partialFingerprints", dict, w)
        if not all(isinstance(v, str) for v in fps.values()):
            fail(w + ": fingerprints must be strings")
print("sarif: ok, %d results" % sum(len(r["results"]) for r in runs))
