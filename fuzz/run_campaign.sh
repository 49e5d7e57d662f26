#!/usr/bin/env bash
# A long property campaign: every property program of fuzz/props on ORDO_FUZZ_SCALE times CI's
# instance counts, from a random seed (or the one given), with wider checker bounds. The seed is
# printed first; a failure reproduces with the `RC_PARAMS="reproduce=..."` line rapidcheck
# prints, or by rerunning this script with the same seed and scale.
#
#   fuzz/run_campaign.sh [SEED]
#   ORDO_FUZZ_BUILD   a release build with the test suites (default build/release)
#   ORDO_FUZZ_SCALE   multiple of CI's counts (default 10)
# and the bounds of fuzz/lib/budget.hpp (states, seconds, schedules), wider here by default.
set -uo pipefail
cd "$(dirname "$0")/.."

build=${ORDO_FUZZ_BUILD:-build/release}
scale=${ORDO_FUZZ_SCALE:-10}
seed=${1:-$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')}
export ORDO_FUZZ_STATES_MAX=${ORDO_FUZZ_STATES_MAX:-200000}
export ORDO_FUZZ_SECONDS_MAX=${ORDO_FUZZ_SECONDS_MAX:-30}
export ORDO_FUZZ_SCHEDULES=${ORDO_FUZZ_SCHEDULES:-100}
echo "fuzz campaign: seed $seed, scale $scale, states_max $ORDO_FUZZ_STATES_MAX," \
     "schedules $ORDO_FUZZ_SCHEDULES + $ORDO_FUZZ_SCHEDULES per safe instance"

failed=0
# run PROGRAM SUITE DESIGN HETEROGENEOUS RAW: each family's property on scale times its count.
run() {
  local program="$build/fuzz/props/$1" suite=$2
  if [[ ! -x "$program" ]]; then
    echo "== $suite: $program is not built, skipped =="
    return
  fi
  local family count
  for family in DesignJobs HeterogeneousJobs RawPrograms; do
    case $family in
      DesignJobs) count=$3 ;;
      HeterogeneousJobs) count=$4 ;;
      RawPrograms) count=$5 ;;
    esac
    count=$((count * scale))
    echo "== $suite.$family: $count instances =="
    RC_PARAMS="seed=$seed max_success=$count" "$program" --gtest_filter="$suite.$family" 2>&1 \
      | grep -vE '^\[ RUN|^\[--|^\[==|^\[  PASSED|^Running main|^Note: Google Test filter|^$'
    [[ ${PIPESTATUS[0]} -eq 0 ]] || failed=1
  done
}

run ordo_fuzz_dump_round_trip DumpRoundTrip 1000 1000 3000
run ordo_fuzz_safe_runs_clean SafeRunsClean 60 80 1500
run ordo_fuzz_unsafe_replays UnsafeReplays 60 80 1500
run ordo_fuzz_reductions_agree ReductionsAgree 10 15 400
run ordo_fuzz_symbolic_agrees SymbolicAgrees 30 30 150
run ordo_fuzz_spin_agrees SpinAgrees 5 5 8

if [[ $failed -eq 0 ]]; then
  echo "fuzz campaign: seed $seed, every property held"
else
  echo "fuzz campaign: seed $seed, some property failed (see above)" >&2
fi
exit $failed
