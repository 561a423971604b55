#!/usr/bin/env python3
"""Validates a JSON document against a JSON schema with Debian's
python3-jsonschema (the schema's own draft).  Usage: json_check.py SCHEMA
FILE; exit 0 when valid, 1 with the first error ("json: schema: PATH:
message").  Run it with /usr/bin/python3 (make setup installs the
package)."""
import json
import sys

try:
    import jsonschema
except ImportError:
    print("json: python3-jsonschema is missing (make setup installs it; run /usr/bin/python3)")
    sys.exit(1)
schema = json.load(open(sys.argv[1], encoding="utf-8"))
doc = json.load(open(sys.argv[2], encoding="utf-8"))
cls = jsonschema.validators.validator_for(schema)
cls.check_schema(schema)
errors = sorted(cls(schema).iter_errors(doc), key=lambda e: list(e.absolute_path))
if errors:
    e = errors[0]
    where = "/".join(str(p) for p in e.absolute_path) or "(top)"
    print("json: schema: %s: %s (%d error(s))" % (where, e.message, len(errors)))
    sys.exit(1)
print("json: ok")
