#!/usr/bin/env bash
# examples/ci/ordo-check.sh as a pipeline runs it: green on a safe dump, red (exit 1) on an unsafe
# one, and in both cases the SARIF logs and JUnit files a CI reads, in the results folder.
#   ci_example.sh ORDO SOURCE_DIR WORK_DIR
set -u
ordo=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work" || exit 1
fail() { echo "ci_example: $*" >&2; exit 1; }

ORDO=$ordo "$src/examples/ci/ordo-check.sh" "$src/specs/examples/funnel.json" "$work/green" \
  || fail "a safe dump made the pipeline red (exit $?)"
ORDO=$ordo "$src/examples/ci/ordo-check.sh" "$src/specs/examples/naive_allreduce.json" "$work/red"
code=$?
[[ $code -eq 1 ]] || fail "an unsafe dump gave exit $code, expected 1"
for run in green red; do
  for f in verify.sarif fuzz.sarif verify.junit.xml fuzz.junit.xml; do
    [[ -s "$work/$run/$f" ]] || fail "$run run: no $f"
  done
done
grep -q '"ruleId"' "$work/red/verify.sarif" || fail "the red run's SARIF log has no result"
grep -q '<failure' "$work/red/verify.junit.xml" || fail "the red run's JUnit file has no failure"
! grep -q '<failure' "$work/green/verify.junit.xml" || fail "the green run's JUnit file has a failure"
[[ -s "$work/red/verify.trace.json" ]] || fail "the red run wrote no witness"
"$ordo" replay "$src/specs/examples/naive_allreduce.json" --trace "$work/red/verify.trace.json" \
  >/dev/null || fail "the red run's witness does not replay"
echo "ci_example: green and red runs as expected"
