#!/usr/bin/env bash
# The GPU checks, on a machine with one: builds the release preset with the device runtime
# (ORDO_CUDA=on) and every test program named ordo_*gpu*_tests or ordo_*device*_tests, names the
# device, runs every test labelled gpu or device (the MPI ones under mpirun, as ctest registers
# them), NCCL's and the designs' on device gradients again at one rank per GPU where there are
# several, then the single-process gpu tests and the staged path's under compute-sanitizer where
# the toolkit has it. Exits non-zero if no GPU is visible, the build fails or a check fails. What
# it covers: docs/gpu.md.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L | grep -q '^GPU '; then
  echo "gpu_checks: no GPU visible (nvidia-smi -L lists none)" >&2
  exit 1
fi
nvidia-smi -L
cmake --preset release -DORDO_CUDA=on >/dev/null
# The test programs by name, so that a new one is built without a change here.
mapfile -t targets < <(ninja -C build/release -t targets all |
  sed -nE 's/^(ordo_[a-z0-9_]*(gpu|device)[a-z0-9_]*_tests): phony$/\1/p' | sort -u)
cmake --build --preset release -j "$(nproc)" --target "${targets[@]}"
# Among them the trainer's (ordo_train_gpu_tests, ordo_train_gpu_mpi_tests: training on the GPU
# against the CPU), which need a CUDA build of libtorch on CMAKE_PREFIX_PATH: built against a
# CPU-only one they skip, ctest lists them as not run, and the checks after them go on.
ctest --preset release -L 'gpu|device' --output-on-failure
# mpirun as ctest runs it (cmake/mpi_tests.cmake's flags, as configured).
read -r -a mpi_flags < <(sed -nE 's/^ORDO_MPIEXEC_FLAGS:STRING=(.*)$/\1/p' build/release/CMakeCache.txt | tr ';' ' ')
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
gpus=$(nvidia-smi -L | grep -c '^GPU ')
nccl_tests=build/release/tests/device/ordo_nccl_gpu_tests
if [[ -x "$nccl_tests" && "$gpus" -gt 1 ]]; then
  echo "gpu_checks: NCCL at $gpus ranks, one per GPU"
  mpirun -np "$gpus" "${mpi_flags[@]}" "$nccl_tests"
fi
# The KVStore designs on device gradients, over NCCL at one rank per GPU (ctest ran them at 1).
designs_tests=build/release/tests/device/ordo_designs_gpu_tests
if [[ -x "$designs_tests" && "$gpus" -gt 1 ]]; then
  echo "gpu_checks: the designs on device gradients at $gpus ranks, one per GPU"
  mpirun -np "$gpus" "${mpi_flags[@]}" "$designs_tests"
fi
# Training with the vars in GPU memory, over NCCL at one rank per GPU (ctest ran 1 and 2 ranks).
train_tests=build/release/tests/device/ordo_train_gpu_mpi_tests
if [[ -x "$train_tests" && "$gpus" -gt 1 ]]; then
  echo "gpu_checks: training on device gradients at $gpus ranks, one per GPU"
  mpirun -np "$gpus" "${mpi_flags[@]}" "$train_tests"
fi
sanitizer=$(command -v compute-sanitizer || true)
[[ -z "$sanitizer" && -x /usr/local/cuda/bin/compute-sanitizer ]] && sanitizer=/usr/local/cuda/bin/compute-sanitizer
if [[ -n "$sanitizer" ]]; then
  "$sanitizer" --error-exitcode 1 build/release/tests/device/ordo_gpu_tests
  # The engine's device pools on CUDA streams: their copies and events are ordo's own.
  "$sanitizer" --error-exitcode 1 build/release/tests/device/ordo_device_queue_gpu_tests
  # The staged path's copies are ordo's own; NCCL's kernels are NCCL's, so its tests run without.
  mpirun -np 2 "${mpi_flags[@]}" "$sanitizer" --error-exitcode 1 \
    build/release/tests/device/ordo_staged_gpu_tests
else
  echo "gpu_checks: compute-sanitizer not found; tests ran without it" >&2
fi
