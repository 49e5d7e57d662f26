#!/usr/bin/env python3
"""Runs two builds of `ordo verify` one after the other on every case of the semantics cases'
manifest, with each case's --ranks and --backend, and prints how many answers (exit code,
property, state count, method) are the same, the cases that differ, and the summed seconds to
verdict of each build, over all cases and over those outside a prefix (the new ones).

Usage: bench/verify/two_builds.py BEFORE_ORDO AFTER_ORDO [NEW_PREFIX]
A benchmark, not a test: the seconds depend on the machine; the answers and states do not.
"""
import json
import pathlib
import subprocess
import sys
import time

CASES = pathlib.Path(__file__).resolve().parents[2] / "tests/checker/semantics_cases"


def run(ordo, case):
    args = [ordo, "verify", str(CASES / case["file"]), "--json", "--timeout", "20"]
    if case.get("ranks"):
        args += ["--ranks", str(case["ranks"])]
    if case.get("backend"):
        args += ["--backend", case["backend"]]
    began = time.monotonic()
    done = subprocess.run(args, capture_output=True, text=True)
    seconds = time.monotonic() - began
    try:
        answer = json.loads(done.stdout)
    except json.JSONDecodeError:
        answer = {}
    states = (answer.get("stats") or {}).get("states")
    return (done.returncode, answer.get("property"), states, answer.get("method")), seconds


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    before, after = sys.argv[1], sys.argv[2]
    new_prefix = sys.argv[3] if len(sys.argv) == 4 else None
    manifest = json.loads((CASES / "manifest.json").read_text())
    rows = [(case["file"], run(before, case), run(after, case)) for case in manifest]
    groups = [("all cases", rows)]
    if new_prefix:
        groups.append((f"cases outside {new_prefix}*",
                       [r for r in rows if not r[0].startswith(new_prefix)]))
    for name, group in groups:
        same = sum(1 for _, (a, _), (b, _) in group if a == b)
        print(f"{name}: {len(group)}, same answer and states {same}, seconds before "
              f"{sum(s for _, (_, s), _ in group):.2f} after {sum(s for _, _, (_, s) in group):.2f}")
    for file, (a, _), (b, _) in rows:
        if a != b:
            print(f"  differs: {file}: {a} -> {b}")


if __name__ == "__main__":
    main()
