#!/usr/bin/env bash
# hang_case.sh RANKS MODE DUMPS JOB_PATTERN PATTERN FAULT_JOB ORDO DIR -- MPIEXEC [FLAGS...]
# Runs the fault job (fault_job.cpp) under mpirun with a 3 s hang timeout and checks what a user
# would: the job ends on its own, non-zero (the outer 60 s bound only catches a job that never
# ends; how long it took is printed, never asserted, since load decides it); no rank reports it
# finished; the ranks listed in DUMPS (comma-separated, or "none") left a dump in DIR; the job's output matches
# JOB_PATTERN (what the ranks and mpirun said); and `ordo analyze DIR`
# exits 1 (a fault found) with output matching PATTERN (an extended regex).
# ORDO_FAULT_JOB_FLAGS, when set, adds its words to the job's flags (--step-world 1).
set -uo pipefail
read -ra job_flags <<<"${ORDO_FAULT_JOB_FLAGS:-}"
ranks=$1 mode=$2 dumps=$3 job_pattern=$4 pattern=$5 fault_job=$6 ordo=$7 dir=$8
shift 9
rm -rf "$dir"
start=$(date +%s%N)
# The outer timeout only guards the test itself: the watchdog is what must end the job. Its 3 s
# leave a healthy collective before the fault room to wait for a rank that a loaded machine
# slows (with 1 s such a wait fired the watchdog early, at the wrong call).
output=$(timeout 60 "$@" -np "$ranks" "$fault_job" --mode "$mode" --hang-timeout 3 \
  --dump-dir "$dir" "${job_flags[@]}" 2>&1)
status=$?
elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
printf '%s\n' "$output"
fail() { echo "hang_case.sh: $*" >&2; exit 1; }
[[ $status -ne 0 ]] || fail "the job exited 0"
[[ $status -ne 124 ]] || fail "the job did not end by itself within 60 s"
if grep -q "fault_job: rank [0-9]* done" <<<"$output"; then fail "a rank finished"; fi
grep -Eq -- "$job_pattern" <<<"$output" || fail "the job's output does not match /$job_pattern/"
if [[ $dumps != none ]]; then
  IFS=, read -ra expected <<<"$dumps"
  for r in "${expected[@]}"; do
    [[ -f "$dir/rank-$r.json" ]] || fail "no dump of rank $r in $dir"
  done
fi
echo "== ordo analyze $dir (job ended in ${elapsed_ms} ms, exit $status) =="
report=$("$ordo" analyze "$dir" 2>&1)
code=$?
printf '%s\n' "$report"
[[ $code -eq 1 ]] || fail "ordo analyze exited $code; expected 1 (a fault found)"
grep -Eq -- "$pattern" <<<"$report" || fail "the analysis does not match /$pattern/"
echo "hang_case.sh: $mode on $ranks ranks: ok"
