#!/usr/bin/env python3
"""ci_outputs_check.py SARIF JUNIT EXPECT: exits 0 when the SARIF log and the JUnit file that
`ordo verify --format sarif --junit JUNIT` wrote say EXPECT: safe, unknown, bad (input), or
unsafe:P3 (unsafe:P1|P2 when either may be found first). JUNIT "-" checks the SARIF log alone:
options that do not parse leave no path known to write a JUnit file to. EXPECT "fuzz:unsafe:P1|P2"
checks the log of `ordo fuzz`: the agreement rule beside P1-P5, and every result placed in the
dump it names.

The SARIF log is checked against the properties and types that SARIF 2.1.0 (OASIS) requires of
the objects ordo writes, stated below as a JSON schema of this test's own, not against the
published schema file, which is not in the tree. Each region is read back from the dump: the text
it spans must be the JSON object of the op or main action its logical location names. The JUnit
file is checked with xml.etree: counts of tests, failures, errors and skipped on every level, and
one case per property."""
import json
import sys
import urllib.parse
import xml.etree.ElementTree as ET

import jsonschema

LEVEL = {"enum": ["none", "note", "warning", "error"]}
MESSAGE = {"type": "object", "required": ["text"], "properties": {"text": {"type": "string"}}}
POSITIVE = {"type": "integer", "minimum": 1}
INDEX = {"type": "integer", "minimum": -1}


def closed(required, properties):
    return {"type": "object", "required": required, "properties": properties,
            "additionalProperties": False}


REGION = closed([], {"startLine": POSITIVE, "startColumn": POSITIVE, "endLine": POSITIVE,
                     "endColumn": POSITIVE})
ARTIFACT = closed([], {"uri": {"type": "string", "minLength": 1}, "uriBaseId": {"type": "string"}})
LOCATION = closed([], {
    "id": INDEX,
    "physicalLocation": closed(["artifactLocation"],
                               {"artifactLocation": ARTIFACT, "region": REGION}),
    "logicalLocations": {"type": "array", "minItems": 1, "items": closed([], {
        "name": {"type": "string"}, "fullyQualifiedName": {"type": "string"},
        "kind": {"type": "string"}})},
    "message": MESSAGE,
})
RESULT = closed(["message"], {
    "ruleId": {"type": "string"},
    "ruleIndex": INDEX,
    "level": LEVEL,
    "message": MESSAGE,
    "locations": {"type": "array", "items": LOCATION},
    "relatedLocations": {"type": "array", "items": LOCATION},
    "codeFlows": {"type": "array", "minItems": 1, "items": closed(["threadFlows"], {
        "threadFlows": {"type": "array", "minItems": 1, "items": closed(["locations"], {
            "locations": {"type": "array", "minItems": 1, "items": closed([], {
                "location": LOCATION,
                "executionOrder": INDEX,
                "importance": {"enum": ["important", "essential", "unimportant"]},
            })},
        })},
    })},
})
RULE = closed(["id"], {
    "id": {"type": "string"}, "name": {"type": "string"},
    "shortDescription": MESSAGE, "fullDescription": MESSAGE,
    "defaultConfiguration": closed([], {"level": LEVEL}),
})
SARIF_2_1_0 = closed(["version", "runs"], {
    "$schema": {"type": "string", "format": "uri"},
    "version": {"const": "2.1.0"},
    "runs": {"type": "array", "minItems": 1, "maxItems": 1, "items": closed(["tool"], {
        "tool": closed(["driver"], {"driver": closed(["name"], {
            "name": {"type": "string"}, "version": {"type": "string"},
            "semanticVersion": {"type": "string"},
            "rules": {"type": "array", "items": RULE},
        })}),
        "invocations": {"type": "array", "minItems": 1, "items": closed(["executionSuccessful"], {
            "executionSuccessful": {"type": "boolean"},
            "exitCode": {"type": "integer"},
            "toolExecutionNotifications": {"type": "array", "items": closed(["message"], {
                "level": LEVEL, "message": MESSAGE})},
        })},
        "originalUriBaseIds": {"type": "object", "additionalProperties": ARTIFACT},
        "columnKind": {"enum": ["utf16CodeUnits", "unicodeCodePoints"]},
        "results": {"type": "array", "items": RESULT},
        "properties": {"type": "object"},
    })},
})

PROPERTIES = [
    "P1 order consistency", "P2 thread rule", "P3 deadlock freedom", "P4 termination",
    "P5 buffer safety",
]

problems = []


def check(condition, what):
    if not condition:
        problems.append(what)


def region_text(path, region):
    """The text a region spans (columns as UTF-16 code units; the dumps here are in the BMP)."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    first, last = region["startLine"] - 1, region.get("endLine", region["startLine"]) - 1
    if first == last:
        return lines[first][region.get("startColumn", 1) - 1:region.get("endColumn", 10**9) - 1]
    text = lines[first][region.get("startColumn", 1) - 1:]
    for i in range(first + 1, last):
        text += "\n" + lines[i]
    return text + "\n" + lines[last][:region.get("endColumn", 10**9) - 1]


def check_location(location, where):
    """A place in the dump must be the op or action its name says; a job without a file is
    named only."""
    logical = location.get("logicalLocations", [{}])[0]
    name = logical.get("name")
    check(name, f"{where}: no logical name")
    physical = location.get("physicalLocation")
    if physical is None:
        return
    artifact = physical["artifactLocation"]
    uri = artifact["uri"]
    if uri.startswith("file://"):
        path = urllib.parse.unquote(uri[len("file://"):])
    else:
        check(artifact.get("uriBaseId") == "%SRCROOT%", f"{where}: relative uri without %SRCROOT%")
        path = urllib.parse.unquote(uri)
    region = physical.get("region")
    check(region is not None, f"{where}: no region in the dump")
    if region is None:
        return
    try:
        value = json.loads(region_text(path, region))
    except (ValueError, IndexError) as e:
        problems.append(f"{where}: the region {region} is not a JSON value of {path}: {e}")
        return
    if name.startswith("main action "):
        check("action" in value, f"{where}: the region is not a main action: {value}")
    else:
        check(value.get("name") == name, f"{where}: the region holds {value}, not op {name!r}")


def check_result(result, rules, allowed, levels):
    check(result["ruleId"] in allowed, f"ruleId {result['ruleId']}, expected {allowed}")
    check(result["ruleIndex"] == rules.index(result["ruleId"]), "ruleIndex")
    check(result["level"] in levels, f"level {result['level']}")
    check(len(result["locations"]) == 1, "one location")
    check_location(result["locations"][0], "result")
    for i, related in enumerate(result.get("relatedLocations", [])):
        check_location(related, f"related {i}")
    steps = result["codeFlows"][0]["threadFlows"][0]["locations"]
    for i, step in enumerate(steps):
        check(step["location"]["message"]["text"].startswith("rank "), f"step {i} message")
        check_location(step["location"], f"step {i}")


def check_fuzz_sarif(log, expect):
    """ordo fuzz: one result per finding (error) or note on a mutant (note), each a witness."""
    run = log["runs"][0]
    rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
    check(rules == ["P1", "P2", "P3", "P4", "P5", "ordo-fuzz-disagreement"], f"rules {rules}")
    check(run["invocations"][0]["executionSuccessful"] is True, "executionSuccessful")
    _, verdict, allowed = expect.split(":")
    check(run["properties"]["verdict"] == verdict, f"verdict {run['properties']['verdict']}")
    results = run["results"]
    check(len(results) >= 1, "no result")
    for result in results:
        check_result(result, rules, allowed.split("|"), ["error", "note"])


def check_sarif(path, expect):
    with open(path, encoding="utf-8") as f:
        log = json.load(f)
    jsonschema.Draft7Validator(SARIF_2_1_0).validate(log)
    if expect.startswith("fuzz:"):
        check_fuzz_sarif(log, expect)
        return
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    check(driver["name"] == "ordo", "driver name")
    check(driver.get("version"), "driver version")
    rules = [r["id"] for r in driver["rules"]]
    check(rules == ["P1", "P2", "P3", "P4", "P5"], f"rules {rules}")
    invocation = run["invocations"][0]
    results = run["results"]
    notes = invocation.get("toolExecutionNotifications", [])
    if expect == "bad":
        check(invocation["executionSuccessful"] is False, "bad input: executionSuccessful")
        check(any(n.get("level") == "error" for n in notes), "bad input: no error notification")
        check(results == [], "bad input: results")
        return
    check(invocation["executionSuccessful"] is True, "executionSuccessful")
    verdict = expect.split(":")[0]
    check(run["properties"]["verdict"] == verdict, f"verdict {run['properties']['verdict']}")
    if verdict != "unsafe":
        check(results == [], f"{verdict}: {len(results)} result(s), expected none")
        if verdict == "unknown":
            check(any(n.get("level") == "warning" for n in notes), "unknown: no notification")
        return
    check(len(results) == 1, f"{len(results)} results")
    check_result(results[0], rules, expect.split(":")[1].split("|"), ["error"])


def counts(element):
    return {k: int(element.get(k)) for k in ("tests", "failures", "errors", "skipped")}


def check_junit(path, expect):
    root = ET.parse(path).getroot()
    check(root.tag == "testsuites", f"root {root.tag}")
    cases = []
    total = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for suite in root.findall("testsuite"):
        mine = suite.findall("testcase")
        kinds = [next((c.tag for c in case), "passed") for case in mine]
        found = {"tests": len(mine), "failures": kinds.count("failure"),
                 "errors": kinds.count("error"), "skipped": kinds.count("skipped")}
        check(counts(suite) == found, f"suite {suite.get('name')}: {counts(suite)} != {found}")
        for k in total:
            total[k] += found[k]
        float(suite.get("time"))
        for case, kind in zip(mine, kinds):
            float(case.get("time"))
            command = "fuzz" if expect.startswith("fuzz:") else "verify"
            check(case.get("classname", "").startswith(f"ordo.{command}."), "classname")
            cases.append((case.get("name"), kind, case))
    check(counts(root) == total, f"testsuites {counts(root)} != {total}")
    if expect.startswith("fuzz:"):
        # A case per job checked; as many failures as the log has errors.
        failures = [case for _, k, case in cases if k == "failure"]
        check(failures, "fuzz: no failed case")
        allowed = expect.split(":")[2].split("|")
        for case in failures:
            check(case.find("failure").get("type") in allowed, "fuzz: failure type")
            check("reproduce with: ordo verify" in (case.find("failure").text or ""),
                  "fuzz: the failure does not say how to reproduce it")
        return
    if expect == "bad":
        check([k for _, k, _ in cases] == ["error"], f"bad input: {cases}")
        return
    check([n for n, _, _ in cases] == PROPERTIES, f"cases {[n for n, _, _ in cases]}")
    verdict = expect.split(":")[0]
    kinds = [k for _, k, _ in cases]
    if verdict == "safe":
        check(kinds == ["passed"] * len(PROPERTIES), f"safe: {kinds}")
    elif verdict == "unknown":
        check(kinds == ["skipped"] * len(PROPERTIES), f"unknown: {kinds}")
        for _, _, case in cases:
            check(case.find("skipped").get("message", "").startswith("not decided"), "skip message")
    else:
        check(kinds.count("failure") == 1 and kinds.count("skipped") == len(PROPERTIES) - 1,
              f"unsafe: {kinds}")
        allowed = expect.split(":")[1].split("|")
        for name, kind, case in cases:
            if kind == "failure":
                failure = case.find("failure")
                check(failure.get("type") in allowed, f"failure type {failure.get('type')}")
                check(name.startswith(failure.get("type") + " "), f"failure on {name}")
                check(failure.get("message"), "failure message")
                check("witness:" in (failure.text or ""), "the failure's text has no witness")


def main():
    sarif, junit, expect = sys.argv[1], sys.argv[2], sys.argv[3]
    check_sarif(sarif, expect)
    if junit != "-":
        check_junit(junit, expect)
    for p in problems:
        print("ci_outputs_check.py:", p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
