#!/usr/bin/env bash
# The GPU checks, on a machine with one: builds the release preset with the device runtime
# (ORDO_CUDA=on), names the device, runs every test labelled gpu, then runs them again under
# compute-sanitizer where the toolkit has it. Exits non-zero if no GPU is visible, the build
# fails or a check fails. What it covers so far: docs/gpu.md.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L | grep -q '^GPU '; then
  echo "gpu_checks: no GPU visible (nvidia-smi -L lists none)" >&2
  exit 1
fi
nvidia-smi -L
cmake --preset release -DORDO_CUDA=on >/dev/null
cmake --build --preset release -j "$(nproc)" --target ordo_gpu_tests ordo_device_tests
ctest --preset release -L 'gpu|device' --output-on-failure
sanitizer=$(command -v compute-sanitizer || true)
[[ -z "$sanitizer" && -x /usr/local/cuda/bin/compute-sanitizer ]] && sanitizer=/usr/local/cuda/bin/compute-sanitizer
if [[ -n "$sanitizer" ]]; then
  "$sanitizer" --error-exitcode 1 build/release/tests/device/ordo_gpu_tests
else
  echo "gpu_checks: compute-sanitizer not found; tests ran without it" >&2
fi
