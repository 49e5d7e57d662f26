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

# The bundle's path goes into ctest files unquoted; refuse what they or sed would misread.
if [[ "$here" =~ [^A-Za-z0-9_./+-] ]]; then
  echo "gpu bundle: its path '$here' has characters other than letters, digits and _ . / + -;" \
    "move it" >&2
  exit 1
fi

# The libraries Open MPI needs beyond its own: the node's where it has them (in its library cache
# or on its LD_LIBRARY_PATH), the bundle's copies (mpi/lib) only where it has not, and those last
# on the path, so that nothing runs on a copy of a library the node has.
node_libs=$(ldconfig -p 2>/dev/null | awk 'NR > 1 {print $1}')
IFS=: read -r -a node_dirs <<<"${LD_LIBRARY_PATH:-}"
lacks=$here/mpi/lib-node-lacks
rm -rf "$lacks" && mkdir -p "$lacks" || exit 1
for lib in "$here"/mpi/lib/*; do
  [[ -e "$lib" ]] || continue
  soname=$(basename "$lib")
  grep -qxF "$soname" <<<"$node_libs" && continue
  found=0
  for node_dir in "${node_dirs[@]}"; do
    [[ -n "$node_dir" && -e "$node_dir/$soname" ]] && found=1
  done
  [[ $found -eq 1 ]] || ln -s "$lib" "$lacks/$soname" || exit 1
done

# Open MPI and PMIx where the bundle holds them. Debian builds Open MPI's settings folder and
# PMIx's folders as fixed paths, which OPAL_PREFIX and PMIX_PREFIX do not move, so they are
# named too. Components that need libraries the node lacks (InfiniBand, UCX, libfabric) stay
# unloaded, and the bundled settings leave them out anyway; the jobs use shared memory only.
mpi_lib=$here/mpi/usr/lib/x86_64-linux-gnu
export OPAL_PREFIX=$here/mpi/usr
export OPAL_SYSCONFDIR=$here/mpi/etc/openmpi
export PMIX_PREFIX=$mpi_lib/pmix2
export PMIX_LIBDIR=$PMIX_PREFIX/lib PMIX_DATADIR=$PMIX_PREFIX/share
export PATH=$here/mpi/usr/bin:$PATH
export LD_LIBRARY_PATH=$here/lib:$mpi_lib:$mpi_lib/openmpi/lib:$PMIX_LIBDIR:$nccl_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}:$lacks
export OMPI_MCA_mca_base_component_show_load_errors=0
# The nodes run their jobs as root; Open MPI refuses that unless told.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export ORDO_MPIEXEC=$here/mpi/usr/bin/mpirun
ORDO_MPIEXEC_FLAGS=$(cat "$here/mpiexec-flags") || exit 1
export ORDO_MPIEXEC_FLAGS

for template in "$here"/tests/*.cmake.in; do
  sed -e "s|@TESTS@|$here/tests|g" -e "s|@MPIEXEC@|$ORDO_MPIEXEC|g" "$template" \
    >"${template%.in}" || { echo "gpu bundle: cannot write ${template%.in}" >&2; exit 1; }
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
