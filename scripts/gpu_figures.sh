#!/usr/bin/env bash
# The GPU figures, on a machine with one, in one command: builds the release preset with the
# device runtime (ORDO_CUDA=on) and the three GPU benchmarks, then runs ordo's NCCL communicator
# against raw NCCL at 1 rank (and at one rank per GPU where there are several), the staged path
# against its copies and host MPI at 2 and 4 ranks sharing the GPU(s), and the KVStore designs on
# device gradients against the communicator alone: over NCCL at the NCCL runs' rank counts, over
# the staged path at 2 and 4 ranks; and, where the trainer is built against a CUDA libtorch,
# ResNet-50's images/s through ordo's trainer against a plain libtorch loop, with the vars in GPU
# memory (--comm-path auto) and with the gradients staged through the host (--comm-path host).
# Each table is printed and written to build/release/gpu-figures/, whose path it prints last.
# Exits non-zero if no GPU is visible, NCCL is not found, the build fails or a run fails. What the
# columns mean: docs/gpu.md.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $(scripts/gpu/visible_gpus.sh) -eq 0 ]]; then
  echo "gpu_figures: no GPU visible (nvidia-smi -L lists none); the figures need a machine with one" >&2
  exit 1
fi
cmake --preset release -DORDO_CUDA=on >/dev/null
if grep -q '^ORDO_NCCL_LIBRARY:FILEPATH=.*NOTFOUND' build/release/CMakeCache.txt ||
   grep -q '^ORDO_NCCL_INCLUDE_DIR:PATH=.*NOTFOUND' build/release/CMakeCache.txt; then
  echo "gpu_figures: NCCL not found beside the CUDA toolkit or on the usual paths (nccl.h, libnccl)" >&2
  exit 1
fi
cmake --build --preset release -j "$(nproc)" --target ordo_nccl_bench ordo_staged_bench \
  ordo_designs_gpu_bench

out=build/release/gpu-figures
# mpirun as the MPI tests run it (cmake/mpi_tests.cmake's flags, as configured).
ORDO_MPIEXEC_FLAGS=$(sed -nE 's/^ORDO_MPIEXEC_FLAGS:STRING=(.*)$/\1/p' build/release/CMakeCache.txt | tr ';' ' ')
export ORDO_MPIEXEC_FLAGS
failed=0
scripts/gpu/figures.sh build/release/bench/gpu "$out" || failed=1
# The trainer's throughput needs a CUDA build of libtorch on CMAKE_PREFIX_PATH; built against a
# CPU-only one the bench refuses and says so, and the figures above stand.
trainer_bench=build/release/bench/resnet50_throughput/ordo_resnet50_throughput_bench
targets=$(ninja -C build/release -t targets all)
if ! grep -q '^ordo_resnet50_throughput_bench:' <<<"$targets"; then
  echo "gpu_figures: the trainer is not built here (no libtorch); no throughput figure" >&2
elif ! cmake --build --preset release -j "$(nproc)" --target ordo_resnet50_throughput_bench; then
  echo "gpu_figures: the throughput bench failed to build (see above)" >&2
  failed=1
else
  for path in auto host; do
    echo "== ResNet-50 through ordo's trainer against a plain loop, --comm-path $path =="
    "$trainer_bench" --device cuda --batch 64 --steps 30 --rounds 3 --comm-path "$path" |
      tee "$out/resnet50_throughput_$path.md" ||
      { echo "gpu_figures: the trainer's throughput was not measured (see above)" >&2; failed=1; }
  done
fi
echo "gpu_figures: the tables are in $out/ (nccl_np*.md, staged_np*.md, designs_*_np*.md," \
  "resnet50_throughput_*.md, devices.txt)"
exit $failed
