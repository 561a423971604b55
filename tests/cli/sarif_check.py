#!/usr/bin/env python3
"""Checks a SARIF log in two ways:

1. against the official SARIF 2.1.0 JSON schema (OASIS SARIF TC;
   tests/fixtures/sarif/sarif-2.1.0-rtm.5.json, origin in NOTICE there),
   with Debian's python3-jsonschema (draft 4, as the schema declares) and
   its format checks: "uri" and "uri-reference" need python3-rfc3987 (make
   setup installs it), and the check refuses to run without them;
2. against what GitHub code scanning needs beyond the schema, and what
   SARIF says SHALL be there: one run, run.columnKind, a rule entry for
   every result's ruleId, a message text, a physical location whose URI is
   relative with a uriBaseId that run.originalUriBaseIds defines (or an
   absolute file: URI), startLine and startColumn >= 1,
   partialFingerprints, and invocations[0].executionSuccessful.

Usage: sarif_check.py FILE; exit 0 when valid, 1 with the reason ("sarif:
schema: ..." for a schema error).  Run it with /usr/bin/python3, where the
Debian package installs jsonschema (make setup)."""
import json
import os
import sys

SCHEMA = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "sarif", "sarif-2.1.0-rtm.5.json"
)


def fail(msg):
    print("sarif: " + msg)
    sys.exit(1)


def need(obj, key, typ, where):
    if not isinstance(obj, dict) or key not in obj:
        fail("%s: missing required '%s'" % (where, key))
    if not isinstance(obj[key], typ):
        fail("%s.%s: wrong type %s" % (where, key, type(obj[key]).__name__))
    return obj[key]


def schema_check(log):
    try:
        import jsonschema
    except ImportError:
        fail("python3-jsonschema is missing (make setup installs it; run /usr/bin/python3)")
    schema = json.load(open(SCHEMA, encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    # every format the library knows (the draft 4 checker lacks the
    # schema's "uri-reference")
    fc = jsonschema.FormatChecker()
    for fmt in ("uri", "uri-reference"):
        if fmt not in fc.checkers:
            fail("no format checker for '%s': install python3-rfc3987 (make setup)" % fmt)
    if fc.conforms("a b", "uri-reference") or fc.conforms("x/100%.txt", "uri-reference"):
        fail("the uri-reference format checker accepts what is not a URI")
    errors = sorted(
        cls(schema, format_checker=fc).iter_errors(log),
        key=lambda e: list(e.absolute_path),
    )
    if errors:
        e = errors[0]
        where = "/".join(str(p) for p in e.absolute_path) or "(top)"
        fail("schema: %s: %s (%d error(s))" % (where, e.message, len(errors)))


log = json.load(open(sys.argv[1], encoding="utf-8"))
schema_check(log)
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
    if run.get("columnKind") not in ("unicodeCodePoints", "utf16CodeUnits"):
        fail("run.columnKind is missing (SARIF 3.14.27)")
    bases = run.get("originalUriBaseIds", {})
    inv = need(run, "invocations", list, "run")
    if not inv or not isinstance(inv[0].get("executionSuccessful"), bool):
        fail("run.invocations[0].executionSuccessful is missing")
    results = need(run, "results", list, "run")
    for i, res in enumerate(results):
        w = "results[%d]" % i
        msg = need(res, "message", dict, w)
        if not isinstance(msg.get("text"), str) or not msg["text"]:
            fail(w + ".message: needs text")
        rid = need(res, "ruleId", str, w)
        if rid not in ids:
            fail(w + ": no rule entry for ruleId " + rid)
        if "ruleIndex" in res and ids[res["ruleIndex"]] != rid:
            fail(w + ": ruleIndex does not name ruleId")
        if res.get("level", "warning") not in ("none", "note", "warning", "error"):
            fail(w + ".level: not a SARIF level")
        locs = need(res, "locations", list, w)
        if not locs:
            fail(w + ": no location")
        pl = need(locs[0], "physicalLocation", dict, w + ".locations[0]")
        al = need(pl, "artifactLocation", dict, w)
        if al == {"description": {"text": "standard input"}}:
            uri = None  # no file to name (a scan of standard input is not uploaded)
        else:
            uri = need(al, "uri", str, w + ".artifactLocation")
        if uri is None:
            pass
        elif uri.startswith("file:///"):
            if "uriBaseId" in al:
                fail(w + ": an absolute uri with a uriBaseId")
        elif uri.startswith("/") or uri.startswith("./") or not uri or ":" in uri:
            fail(w + ": uri must be relative to the repository root: " + uri)
        elif al.get("uriBaseId") not in bases:
            fail(w + ": uriBaseId %r is not in run.originalUriBaseIds" % al.get("uriBaseId"))
        region = need(pl, "region", dict, w)
        if need(region, "startLine", int, w + ".region") < 1:
            fail(w + ": startLine < 1")
        if need(region, "startColumn", int, w + ".region") < 1:
            fail(w + ": startColumn < 1")
        fps = need(res, "partialFingerprints", dict, w)
        if not all(isinstance(v, str) for v in fps.values()):
            fail(w + ": fingerprints must be strings")
print("sarif: ok, %d results" % sum(len(r["results"]) for r in runs))
