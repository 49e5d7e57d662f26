#!/usr/bin/env bash
# The main job: install what is missing, build the release preset, then train a LeNet-style CNN
# on Fashion-MNIST on two Open MPI ranks, the step program verified first, to at least 85% test
# accuracy. With arguments, runs `ordo` with them instead (for example `scripts/run.sh --help`,
# or `scripts/run.sh demo`, the engine and designs demo on simulated ranks).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release --target ordo
ordo=build/release/tools/ordo
if [[ $# -gt 0 ]]; then
  exec "$ordo" "$@"
fi
# Shared memory only, and no core binding: the job must run on any machine, root included.
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
  mpirun -np 2 --oversubscribe --bind-to none --mca btl self,vader \
  --mca btl_vader_single_copy_mechanism none \
  "$ordo" train --network lenet --design depcha --epochs 2 --batch 32 --target-accuracy 0.85
