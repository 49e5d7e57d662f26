#!/usr/bin/env bash
# The GPU checks, on a machine with one: builds the release preset with the device runtime
# (ORDO_CUDA=on), every test program named ordo_*gpu*_tests or ordo_*device*_tests and the
# command line (for its gpu-labelled runs of `ordo train --device cuda`), then runs
# scripts/gpu/checks.sh on them: every test labelled gpu or device, NCCL's and the designs' on
# device gradients again at one rank per GPU where there are several, and compute-sanitizer.
# Exits non-zero if no GPU is visible, the build fails or a check fails. What it covers:
# docs/gpu.md. A GPU node without ordo's build packages runs the same checks from a bundle
# (scripts/gpu_bundle.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $(scripts/gpu/visible_gpus.sh) -eq 0 ]]; then
  echo "gpu_checks: no GPU visible (nvidia-smi -L lists none)" >&2
  exit 1
fi
cmake --preset release -DORDO_CUDA=on >/dev/null
# The test programs by name, so that a new one is built without a change here.
mapfile -t targets < <(ninja -C build/release -t targets all |
  sed -nE 's/^(ordo_[a-z0-9_]*(gpu|device)[a-z0-9_]*_tests): phony$/\1/p' | sort -u)
# And the command line, for `ordo train --device cuda` (ordo-train, where libtorch is).
targets+=(ordo)
ninja -C build/release -t targets all | grep -q '^ordo-train: phony$' && targets+=(ordo-train)
cmake --build --preset release -j "$(nproc)" --target "${targets[@]}"
# mpirun as ctest runs it (cmake/mpi_tests.cmake's flags, as configured).
ORDO_MPIEXEC_FLAGS=$(sed -nE 's/^ORDO_MPIEXEC_FLAGS:STRING=(.*)$/\1/p' build/release/CMakeCache.txt | tr ';' ' ')
export ORDO_MPIEXEC_FLAGS
exec scripts/gpu/checks.sh build/release build/release/tests/device
