#!/usr/bin/env bash
# One MPI job on a fresh emulated cluster, taken down afterwards whatever happens: for tests and
# benches. Exits 77 (ctest's skip) where the machine cannot make one: not root, or no network
# namespaces.
#
#   on_cluster.sh NODES SLOTS RATE|unshaped PROGRAM [ARGS...]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[[ $# -ge 4 ]] || { echo "usage: on_cluster.sh NODES SLOTS RATE|unshaped PROGRAM [ARGS...]" >&2; exit 2; }
nodes=$1 slots=$2 rate=$3
shift 3
if ((EUID != 0)) || ! command -v ip >/dev/null || ! ip netns add ordo-probe 2>/dev/null; then
  echo "on_cluster.sh: cannot make network namespaces here (root and iproute2 needed); skipped" >&2
  exit 77
fi
ip netns del ordo-probe
trap '"$here/cluster.sh" down' EXIT
[[ "$rate" == unshaped ]] && rate=""
"$here/cluster.sh" up "$nodes" $rate || exit 2
"$here/mpirun.sh" "$nodes" "$slots" "$@"
