#!/usr/bin/env python3
"""Checks kobalt-bench JSON reports against perf_tests/kobalt-bench.schema.json
(and kobalt-bench-distributed's against kobalt-bench-distributed.schema.json).

usage: check_json_schema.py SCHEMA REPORT.json [MORE.json ...]

Exit status: 0 when every report is valid; 1 when one is not (each error is
printed with its path); 2 for a file that cannot be read; 77 when the
jsonschema module is missing (Debian: python3-jsonschema), which CTest
reports as a skipped test. Before the reports, the schema is checked to
reject a report with a required key removed, so a schema that accepts
anything fails here too.
"""

import copy
import json
import sys

try:
    import jsonschema
except ImportError:
    print("check_json_schema.py: the jsonschema module is missing (Debian: python3-jsonschema)",
          file=sys.stderr)
    sys.exit(77)


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        print(f"check_json_schema.py: {path}: {e}", file=sys.stderr)
        sys.exit(2)


def errors(validator, report):
    return sorted(validator.iter_errors(report), key=lambda e: list(e.absolute_path))


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    schema = load(argv[1])
    jsonschema.Draft7Validator.check_schema(schema)
    validator = jsonschema.Draft7Validator(schema)
    bad = 0
    for path in argv[2:]:
        report = load(path)
        found = errors(validator, report)
        for e in found:
            where = "/".join(str(p) for p in e.absolute_path) or "(top)"
            print(f"{path}: {where}: {e.message}")
        bad += bool(found)
        # The schema must notice a missing required key.
        top = "kobalt_bench_distributed" if "kobalt_bench_distributed" in report else "kobalt_bench"
        broken = copy.deepcopy(report)
        broken.get(top, {}).pop("provenance", None)
        if not errors(validator, broken):
            print(f"{path}: the schema accepts a report without {top}.provenance")
            bad += 1
        if not found:
            print(f"{path}: valid")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
