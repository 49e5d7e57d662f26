#!/usr/bin/env bash
# The GPU checks on programs already built: run by scripts/gpu_checks.sh on the release build and
# by a bundle's run.sh (scripts/gpu_bundle.sh) on a GPU node.
#
#   scripts/gpu/checks.sh CTEST_DIR PROGRAM_DIR
#
# CTEST_DIR is the ctest tree whose tests labelled gpu or device run (the MPI ones under mpirun,
# as ctest registers them); PROGRAM_DIR holds the device test programs, which run again at one
# rank per GPU where there are several, and the single-process gpu tests and the staged path's
# under compute-sanitizer where the toolkit has it; each of those runs is bounded by
# $ORDO_GPU_RUN_TIMEOUT_S seconds (default 300, ctest's bound). mpirun is $ORDO_MPIEXEC (default mpirun)
# with the words of $ORDO_MPIEXEC_FLAGS. Exits non-zero if no GPU is visible or a check fails,
# after running the checks that can still run.
set -uo pipefail
ctest_dir=$1
programs=$2
gpus=$("$(dirname "$0")/visible_gpus.sh")
if [[ "$gpus" -eq 0 ]]; then
  echo "gpu checks: no GPU visible (nvidia-smi -L lists none, or CUDA_VISIBLE_DEVICES hides them)" >&2
  exit 1
fi
nvidia-smi -L
# Runs outside ctest get its bound too: a hung collective ends here, not never.
bound=${ORDO_GPU_RUN_TIMEOUT_S:-300}
mpiexec=${ORDO_MPIEXEC:-mpirun}
read -r -a mpi_flags <<<"${ORDO_MPIEXEC_FLAGS:-}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
failed=0
# check NAME COMMAND...: runs one check, says how it went, and counts a failure.
check() {
  local name=$1; shift
  echo "== gpu checks: $name =="
  if "$@"; then
    echo "== gpu checks: $name: passed =="
  else
    echo "== gpu checks: $name: FAILED ==" >&2
    failed=1
  fi
}

# The trainer's tests (training on the GPU against the CPU) need a CUDA build of libtorch: built
# against a CPU-only one they skip, and ctest lists them as not run, never as passed.
check "ctest -L 'gpu|device'" \
  ctest --test-dir "$ctest_dir" -L 'gpu|device' --output-on-failure --no-tests=error
if [[ "$gpus" -gt 1 ]]; then
  for program in ordo_nccl_gpu_tests ordo_designs_gpu_tests ordo_train_gpu_mpi_tests; do
    [[ -x "$programs/$program" ]] &&
      check "$program at $gpus ranks, one per GPU" \
        timeout "$bound" "$mpiexec" -np "$gpus" "${mpi_flags[@]}" "$programs/$program"
  done
fi
sanitizer=$(command -v compute-sanitizer || true)
[[ -z "$sanitizer" && -x /usr/local/cuda/bin/compute-sanitizer ]] &&
  sanitizer=/usr/local/cuda/bin/compute-sanitizer
if [[ -n "$sanitizer" ]]; then
  check "compute-sanitizer ordo_gpu_tests" \
    timeout "$bound" "$sanitizer" --error-exitcode 1 "$programs/ordo_gpu_tests"
  # The engine's device pools on CUDA streams: their copies and events are ordo's own.
  check "compute-sanitizer ordo_device_queue_gpu_tests" \
    timeout "$bound" "$sanitizer" --error-exitcode 1 "$programs/ordo_device_queue_gpu_tests"
  # The staged path's copies are ordo's own; NCCL's kernels are NCCL's, so its tests run without.
  check "compute-sanitizer ordo_staged_gpu_tests at 2 ranks" \
    timeout "$bound" "$mpiexec" -np 2 "${mpi_flags[@]}" "$sanitizer" --error-exitcode 1 \
      "$programs/ordo_staged_gpu_tests"
else
  echo "gpu checks: compute-sanitizer not found; the tests ran without it" >&2
  failed=1
fi
[[ $failed -eq 0 ]] && echo "gpu checks: all passed"
exit $failed
