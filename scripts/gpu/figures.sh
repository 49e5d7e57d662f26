#!/usr/bin/env bash
# The GPU benchmarks' figures from programs already built: run by scripts/gpu_figures.sh on the
# release build and by a bundle's run.sh (scripts/gpu_bundle.sh) on a GPU node.
#
#   scripts/gpu/figures.sh BENCH_DIR OUT_DIR
#
# Runs ordo's NCCL communicator against raw NCCL at 1 rank (and at one rank per GPU where there
# are several), the staged path against its copies and host MPI at 2 and 4 ranks sharing the
# GPU(s), and the KVStore designs on device gradients against the communicator alone: over NCCL
# at the NCCL runs' rank counts, over the staged path at 2 and 4 ranks. Each table is printed
# and written to OUT_DIR. mpirun is $ORDO_MPIEXEC (default mpirun) with the words of
# $ORDO_MPIEXEC_FLAGS; each run is bounded by $ORDO_GPU_RUN_TIMEOUT_S seconds (default 300).
# Exits non-zero if no GPU is visible or a run fails, after the runs that
# can still run. What the columns mean: docs/gpu.md.
set -uo pipefail
bench=$1
out=$2
gpus=$("$(dirname "$0")/visible_gpus.sh")
if [[ "$gpus" -eq 0 ]]; then
  echo "gpu figures: no GPU visible (nvidia-smi -L lists none, or CUDA_VISIBLE_DEVICES hides them);" \
    "the figures need a machine with one" >&2
  exit 1
fi
mkdir -p "$out"
nvidia-smi -L | tee "$out/devices.txt"
bound=${ORDO_GPU_RUN_TIMEOUT_S:-300}
mpiexec=${ORDO_MPIEXEC:-mpirun}
read -r -a mpi_flags <<<"${ORDO_MPIEXEC_FLAGS:-}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
failed=0
# figure TITLE FILE RANKS PROGRAM [ARGS...]: one run under mpirun, its table into OUT_DIR/FILE.
figure() {
  local title=$1 file=$2 ranks=$3; shift 3
  echo "== $title =="
  if ! timeout "$bound" "$mpiexec" -np "$ranks" "${mpi_flags[@]}" "$@" | tee "$out/$file"; then
    echo "gpu figures: $title failed" >&2
    failed=1
  fi
}

nccl_ranks=(1)
[[ "$gpus" -gt 1 ]] && nccl_ranks+=("$gpus")
for ranks in "${nccl_ranks[@]}"; do
  figure "NCCL, $ranks rank(s)" "nccl_np$ranks.md" "$ranks" "$bench/ordo_nccl_bench"
  figure "the designs on device gradients over NCCL, $ranks rank(s)" \
    "designs_nccl_np$ranks.md" "$ranks" "$bench/ordo_designs_gpu_bench" --path=nccl
done
for ranks in 2 4; do
  figure "staged, $ranks ranks" "staged_np$ranks.md" "$ranks" "$bench/ordo_staged_bench"
  figure "the designs on device gradients over the staged path, $ranks ranks" \
    "designs_staged_np$ranks.md" "$ranks" "$bench/ordo_designs_gpu_bench" --path=staged
done
exit $failed
