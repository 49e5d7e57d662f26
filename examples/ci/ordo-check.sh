#!/usr/bin/env bash
# A pipeline step that holds a training job to ordo before it runs on the cluster: `ordo verify`
# on the step the job dumped, then `ordo fuzz` around it, each with a SARIF log (a CI's code
# scanning view) and a JUnit file (its test view). docs/ci.md walks through it.
#
#   ordo-check.sh DUMP [RESULTS_DIR]     RESULTS_DIR defaults to ordo-results
#
# Give the rank count and backend the job runs with in ORDO_ARGS (e.g. "--ranks 8 --backend
# nccl"); ORDO names the ordo command (default: `ordo` on PATH). Exits 0 when both commands find
# nothing; otherwise the first non-zero exit code of the two (1: unsafe, 2: bad input, 3: unknown
# within the budget, 4: the checker and the runtime disagree), so the pipeline goes red.
set -uo pipefail
if [[ $# -lt 1 || $# -gt 2 ]]; then
  echo "usage: ordo-check.sh DUMP [RESULTS_DIR]" >&2
  exit 2
fi
dump=$1
results=${2:-ordo-results}
ordo=${ORDO:-ordo}
read -r -a args <<<"${ORDO_ARGS:-}"
mkdir -p "$results" || exit 2

"$ordo" verify "$dump" "${args[@]}" --format sarif --junit "$results/verify.junit.xml" \
  --trace "$results/verify.trace.json" >"$results/verify.sarif"
verified=$?
"$ordo" fuzz "$dump" "${args[@]}" --out "$results/fuzz" --format sarif \
  --junit "$results/fuzz.junit.xml" >"$results/fuzz.sarif"
fuzzed=$?

echo "ordo verify: exit $verified; ordo fuzz: exit $fuzzed; results in $results"
if [[ $verified -ne 0 ]]; then
  echo "replay the witness: $ordo replay $dump --trace $results/verify.trace.json" >&2
  exit $verified
fi
exit $fuzzed
