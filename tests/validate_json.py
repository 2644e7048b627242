#!/usr/bin/env python3
"""validate_json.py SCHEMA FILE...: each FILE (a .json, or a .jsonl or .jsonl.gz of one value a
line) validates against SCHEMA (docs/schemas/, JSON Schema 2020-12), through Debian's
python3-jsonschema. Prints one line per file that does not, naming the line and the first error,
and exits 1; exits 0 when every value validates."""
import gzip
import json
import sys

import jsonschema


def values(path):
    if path.endswith(".json"):
        with open(path, encoding="utf-8") as f:
            yield path, json.load(f)
        return
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            yield f"{path} line {number}", json.loads(line)


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    bad = 0
    count = 0
    for path in sys.argv[2:]:
        for where, value in values(path):
            count += 1
            error = jsonschema.exceptions.best_match(validator.iter_errors(value))
            if error is not None:
                bad += 1
                at = "/".join(str(p) for p in error.absolute_path) or "(top)"
                print(f"{where}: {at}: {error.message}")
    if count == 0:
        print(f"nothing to validate against {sys.argv[1]}")
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
