#!/usr/bin/env bash
# A GPU bundle's one command (scripts/gpu_bundle.sh made the bundle; this file is its run.sh):
# the GPU checks, then the figures, on this node, with the bundle's Open MPI and CUDA runtime and
# the node's driver and NCCL.
#
#   run.sh [OUT_DIR]      # default: results/ in the bundle
#   run.sh -- COMMAND...  # COMMAND in the bundle's environment, e.g.
#                         # run.sh -- mpirun -np 2 $ORDO_MPIEXEC_FLAGS tests/ordo_staged_gpu_tests
#
# Writes checks.log, figures.log and the figures' tables to OUT_DIR and prints a closing line.
# Exits non-zero if no GPU is visible, NCCL is not found, or a check or a run fails.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)

# NCCL: the node's, wherever its packages put it (the system's library path, the CUDA toolkit,
# or the nvidia-nccl wheel of a Python install).
nccl_dir=$(ldconfig -p 2>/dev/null | sed -nE 's/^\s*libnccl\.so\.2 .* => (\S+)$/\1/p' | head -n 1)
nccl_dir=${nccl_dir:+$(dirname "$nccl_dir")}
if [[ -z "$nccl_dir" ]]; then
  for candidate in /usr/local/cuda/lib64 /usr/local/cuda/lib \
      $(python3 -c 'import nvidia.nccl, os; print(os.path.join(list(nvidia.nccl.__path__)[0], "lib"))' 2>/dev/null); do
    [[ -e "$candidate/libnccl.so.2" ]] && { nccl_dir=$candidate; break; }
  done
fi
if [[ -z "$nccl_dir" ]]; then
  echo "gpu bundle: libnccl.so.2 not found (ldconfig, /usr/local/cuda, python3's nvidia.nccl)" >&2
  exit 1
fi

# The libraries Open MPI needs beyond its own: the node's where it has them, the bundle's copies
# (mpi/lib) only where it has not, so that nothing else here runs on a library the node does not
# use.
lacks=$here/mpi/lib-node-lacks
rm -rf "$lacks" && mkdir -p "$lacks"
for lib in "$here"/mpi/lib/*; do
  [[ -e "$lib" ]] || continue
  soname=$(basename "$lib")
  ldconfig -p 2>/dev/null | awk '{print $1}' | grep -qxF "$soname" || ln -s "$lib" "$lacks/$soname"
done

# Open MPI and PMIx where the bundle holds them; their components that need libraries the node
# lacks (InfiniBand, UCX, libfabric) stay unloaded, and the jobs use shared memory only.
export OPAL_PREFIX=$here/mpi/usr
export PMIX_PREFIX=$here/mpi/usr/lib/x86_64-linux-gnu/pmix2
export PATH=$here/mpi/usr/bin:$PATH
export LD_LIBRARY_PATH=$here/lib:$here/mpi/usr/lib/x86_64-linux-gnu:$here/mpi/usr/lib/x86_64-linux-gnu/openmpi/lib:$PMIX_PREFIX/lib:$lacks:$nccl_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OMPI_MCA_mca_base_component_show_load_errors=0
# The nodes run their jobs as root; Open MPI refuses that unless told.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export ORDO_MPIEXEC=$here/mpi/usr/bin/mpirun
ORDO_MPIEXEC_FLAGS=$(cat "$here/mpiexec-flags")
export ORDO_MPIEXEC_FLAGS

for template in "$here"/tests/*.cmake.in; do
  sed -e "s|@TESTS@|$here/tests|g" -e "s|@MPIEXEC@|$ORDO_MPIEXEC|g" "$template" >"${template%.in}"
done

if [[ "${1:-}" == -- ]]; then
  shift
  cd "$here" && exec "$@"
fi
out=${1:-$here/results}
mkdir -p "$out"
out=$(cd "$out" && pwd)

failed=0
"$here/scripts/checks.sh" "$here/tests" "$here/tests" 2>&1 | tee "$out/checks.log" || failed=1
"$here/scripts/figures.sh" "$here/bench" "$out" 2>&1 | tee "$out/figures.log" || failed=1
if [[ $failed -eq 0 ]]; then
  echo "gpu bundle: every check passed; the figures are in $out"
else
  echo "gpu bundle: something failed (checks.log, figures.log in $out)" >&2
fi
exit $failed
