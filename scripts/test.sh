#!/usr/bin/env bash
# Every test: the release build with all suites (MPI jobs under mpirun included), then the
# concurrency suites under ThreadSanitizer (g++), every non-MPI suite under AddressSanitizer +
# UndefinedBehaviorSanitizer (clang; the code on libtorch with g++), and a short run of every
# parser's libFuzzer harness.
# Prints one closing line "tests: N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh || exit 1

jobs=${ORDO_JOBS:-$(nproc)}
passed=0
failed=0
# The names of failed tests, repeated at the end so that the last lines of a long log say which.
failed_names=()

# run_preset PRESET [ctest args...]: configure, build, test; counts into passed/failed. When
# $targets is set, only those targets are built (the tests of other targets are then left out by
# the ctest label filter the caller gives).
run_preset() {
  local preset=$1; shift
  local began=$SECONDS
  echo "== $preset =="
  local build_args=()
  [[ -n "${targets:-}" ]] && build_args=(--target $targets)
  if ! cmake --preset "$preset" >/dev/null ||
     ! cmake --build --preset "$preset" -j "$jobs" "${build_args[@]}"; then
    echo "ordo tests: build of preset $preset failed" >&2
    failed=$((failed + 1))
    failed_names+=("$preset: build")
    return
  fi
  local log
  log=$(mktemp)
  ctest --preset "$preset" -j "$jobs" "$@" 2>&1 | tee "$log"
  local summary
  summary=$(grep -E '^[0-9]+% tests passed, [0-9]+ tests failed out of [0-9]+' "$log" | tail -n 1)
  local name
  while read -r name; do
    failed_names+=("$preset: $name")
  done < <(sed -n '/^The following tests FAILED:/,$p' "$log" | grep -E '^[[:space:]]+[0-9]+ - ' |
           sed -E 's/^[[:space:]]+[0-9]+ - //')
  rm -f "$log"
  if [[ -z "$summary" ]]; then
    echo "ordo tests: no ctest summary for preset $preset" >&2
    failed=$((failed + 1))
    failed_names+=("$preset: no ctest summary")
    return
  fi
  local nfail ntotal
  nfail=$(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\1/' <<<"$summary")
  ntotal=$(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\2/' <<<"$summary")
  passed=$((passed + ntotal - nfail))
  failed=$((failed + nfail))
  # Build and tests together: the whole run must stay under CI's 30 minutes on 2 cores.
  echo "== $preset: $((SECONDS - began)) s (build and tests) =="
}

# GPU tests (ctest label gpu) run only where a GPU is visible (nvidia-smi lists one that
# CUDA_VISIBLE_DEVICES leaves); elsewhere they are left out and not
# counted, never reported as passed.
gpu_filter=(-LE gpu)
if [[ $(scripts/gpu/visible_gpus.sh) -gt 0 ]]; then
  gpu_filter=()
fi
run_preset release "${gpu_filter[@]}"
# Concurrency code under ThreadSanitizer: the engine, the simulated world, the controlled runs,
# threaded runs of the fuzz jobs the checker proves safe, the flight recorder read while
# collectives run, and training on simulated ranks.
targets="ordo_engine_tests ordo_exec_tests ordo_comm_sim_tests ordo_kvstore_sim_tests ordo_fuzz_threaded_runs_clean ordo_flight_tests ordo_train_run_tests" \
  run_preset tsan -L 'engine|sim|exec|flight|train-threads'
# Memory code under ASan/UBSan. Open MPI's own allocations are not ordo's to fix, and
# LeakSanitizer reports them, so the MPI jobs run in the other presets only; SPIN's agreement
# runs SPIN natively and only slows the explicit search here, so it runs in release only; and
# `ordo fuzz` run as a command (label campaign) repeats, at -O0, campaigns whose code the
# in-process tests of fuzz/lib run under ASan already, so it runs in release only.
run_preset asan -LE 'mpi|spin|campaign'
# The code on libtorch under g++'s ASan/UBSan (clang 14 cannot compile libtorch's headers as C++20):
# the layers and the model, and training runs on simulated ranks (the MPI ones run in release).
targets="ordo_train_tests ordo_train_run_tests" run_preset asan-torch -L train -LE mpi

# Parser fuzzing: every libFuzzer harness for a short time from its seed corpus, built by the
# asan stage above (clang, ASan + UBSan, coverage for libFuzzer), so no third build of the
# libraries; docs/testing.md has the long-campaign command, on the optimised fuzz preset.
echo "== fuzz smoke =="
fuzz_began=$SECONDS
if ORDO_JOBS=$jobs ORDO_FUZZ_PRESET=asan scripts/fuzz_smoke.sh; then
  passed=$((passed + 1))
else
  echo "ordo tests: fuzz smoke failed" >&2
  failed=$((failed + 1))
  failed_names+=("fuzz smoke")
fi

echo "== fuzz smoke: $((SECONDS - fuzz_began)) s (build and runs) =="
echo "== all: $SECONDS s =="
for name in "${failed_names[@]}"; do
  echo "failed: $name"
done
echo "tests: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
