#!/usr/bin/env bash
# The main job: install what is missing, build the release preset, run ordo's embedded demo on
# simulated ranks and then on two Open MPI ranks. With arguments, runs `ordo` with them instead
# (for example `scripts/run.sh --help`).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release --target ordo
ordo=build/release/tools/ordo
if [[ $# -gt 0 ]]; then
  exec "$ordo" "$@"
fi
"$ordo"
echo
# Shared memory only, and no core binding: the demo must run on any machine, root included.
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
  mpirun -np 2 --oversubscribe --bind-to none --mca btl self,vader \
  --mca btl_vader_single_copy_mechanism none "$ordo" demo --mpi
