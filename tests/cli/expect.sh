#!/usr/bin/env bash
# expect.sh CODE PATTERN -- COMMAND...: runs COMMAND, fails unless it exits with CODE and its
# output (stdout and stderr together) contains PATTERN (an extended regex; empty: anything).
set -uo pipefail
code=$1
pattern=$2
shift 3
output=$("$@" 2>&1)
status=$?
printf '%s\n' "$output"
if [[ $status -ne $code ]]; then
  echo "expect.sh: exit code $status, expected $code" >&2
  exit 1
fi
if [[ -n "$pattern" ]] && ! grep -Eq -- "$pattern" <<<"$output"; then
  echo "expect.sh: output does not match /$pattern/" >&2
  exit 1
fi
