"""Checks dump files against the dump JSON Schema (draft 2020-12).

usage: check_schema.py [--expect-invalid] SCHEMA PATH...

Each PATH is a .json file or a directory whose *.json files are checked. Exits non-zero, naming
the file and the schema error, if a file does not validate (or, with --expect-invalid, if one
does), and also if the schema itself is not a valid draft 2020-12 schema or no file was found.
"""

import json
import pathlib
import sys

import jsonschema


def dump_files(paths):
    files = []
    for name in paths:
        path = pathlib.Path(name)
        if path.is_dir():
            found = sorted(path.glob("*.json"))
            if not found:
                raise SystemExit(f"check_schema: no .json files in {path}")
            files.extend(found)
        else:
            files.append(path)
    return files


def main(argv):
    expect_invalid = "--expect-invalid" in argv
    args = [arg for arg in argv if arg != "--expect-invalid"]
    if len(args) < 2:
        raise SystemExit(__doc__)
    schema = json.loads(pathlib.Path(args[0]).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    failures = 0
    files = dump_files(args[1:])
    for path in files:
        document = json.loads(path.read_text(encoding="utf-8"))
        error = jsonschema.exceptions.best_match(validator.iter_errors(document))
        if error is not None and not expect_invalid:
            pointer = "/" + "/".join(str(part) for part in error.absolute_path)
            print(f"{path}: {pointer}: {error.message}", file=sys.stderr)
            failures += 1
        elif error is None and expect_invalid:
            print(f"{path}: the schema accepts this dump, which it must reject", file=sys.stderr)
            failures += 1
    verdict = "rejected as expected" if expect_invalid else "valid"
    print(f"check_schema: {len(files) - failures} of {len(files)} files {verdict}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
