#!/usr/bin/env bash
# mismatch_case.sh RANKS MODE CHECK EXIT PATTERN FAULT_JOB DIR -- MPIEXEC [FLAGS...]
# Runs the fault job (fault_job.cpp) with a diverging rank, in fingerprint mode when CHECK is 1,
# and checks that the job ends on its own (the outer 60 s bound only catches a job that never
# ends; its time is printed, never asserted) with exit EXIT ("nonzero" for any failure)
# and that no rank reports it finished. With CHECK 1 every rank K must have printed
# "ordo: rank K of RANKS: " followed by PATTERN (an extended regex); with CHECK 0 the job's
# output must match PATTERN.
# ORDO_FAULT_JOB_FLAGS, when set, adds its words to the job's flags (--step-world 1).
set -uo pipefail
read -ra job_flags <<<"${ORDO_FAULT_JOB_FLAGS:-}"
ranks=$1 mode=$2 check=$3 want_exit=$4 pattern=$5 fault_job=$6 dir=$7
shift 8
rm -rf "$dir"
start=$(date +%s%N)
# The outer timeout only guards the test itself: the job must end by itself. The watchdog's 4 s
# leave a healthy collective room to wait for a rank that a loaded machine slows.
output=$(timeout 60 "$@" -np "$ranks" "$fault_job" --mode "$mode" --hang-timeout 4 \
  --dump-dir "$dir" --check-collectives "$check" "${job_flags[@]}" 2>&1)
status=$?
elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
printf '%s\n' "$output"
fail() { echo "mismatch_case.sh: $*" >&2; exit 1; }
[[ $status -ne 124 ]] || fail "the job did not end by itself within 60 s"
if [[ $want_exit == nonzero ]]; then
  [[ $status -ne 0 ]] || fail "the job exited 0"
else
  [[ $status -eq $want_exit ]] || fail "the job exited $status; expected $want_exit"
fi
if grep -q "fault_job: rank [0-9]* done" <<<"$output"; then fail "a rank finished"; fi
if [[ $check == 1 ]]; then
  for (( r = 0; r < ranks; ++r )); do
    grep -Eq -- "^ordo: rank $r of $ranks: $pattern" <<<"$output" ||
      fail "rank $r did not report /$pattern/"
  done
else
  grep -Eq -- "$pattern" <<<"$output" || fail "the job's output does not match /$pattern/"
fi
echo "mismatch_case.sh: $mode on $ranks ranks, check $check: ok (${elapsed_ms} ms, exit $status)"
