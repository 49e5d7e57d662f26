#!/usr/bin/env bash
# ci_outputs.sh PYTHON DIR CODE EXPECT -- ORDO verify ARGS...: runs `ordo verify ARGS
# --format sarif --junit DIR/junit.xml`, fails unless it exits with CODE, then checks the SARIF log
# and the JUnit file against EXPECT (ci_outputs_check.py).
set -uo pipefail
python=$1
dir=$2
code=$3
expect=$4
shift 4
shift  # --
rm -rf "$dir"
mkdir -p "$dir"
"$@" --format sarif --junit "$dir/junit.xml" >"$dir/log.sarif"
status=$?
cat "$dir/log.sarif"
if [[ $status -ne $code ]]; then
  echo "ci_outputs.sh: exit code $status, expected $code" >&2
  exit 1
fi
"$python" "$(dirname "$0")/ci_outputs_check.py" "$dir/log.sarif" "$dir/junit.xml" "$expect"
