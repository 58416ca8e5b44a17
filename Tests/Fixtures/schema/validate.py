"""Validates YAML files against a JSON Schema with the reference Python validator.

Usage: validate.py SCHEMA FILE...  Prints one JSON line per file:
{"file": F, "errors": [{"path": "sinks/out/type", "message": "..."}]}
The schema itself is checked against the draft-07 meta-schema first (exit 3 if invalid).
"""
import json
import sys

import jsonschema
import yaml

schema = json.load(open(sys.argv[1]))
try:
    jsonschema.Draft7Validator.check_schema(schema)
except jsonschema.SchemaError as e:
    print(f"invalid schema: {e.message}", file=sys.stderr)
    sys.exit(3)
validator = jsonschema.Draft7Validator(schema)
for path in sys.argv[2:]:
    with open(path) as f:
        doc = yaml.safe_load(f)
    errors = [
        {"path": "/".join(map(str, e.absolute_path)), "message": e.message}
        for e in sorted(validator.iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))
    ]
    print(json.dumps({"file": path, "errors": errors}))
