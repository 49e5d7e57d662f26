#!/usr/bin/env bash
# mpirun on the emulated cluster: NODES nodes of SLOTS ranks each (cluster.sh up must have made
# at least NODES), ranks by node (node 0 gets ranks 0..SLOTS-1), shared memory within a node and
# TCP over the shaped links between nodes.
#
#   mpirun.sh NODES SLOTS PROGRAM [ARGS...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
nodes=${1:?usage: mpirun.sh NODES SLOTS PROGRAM [ARGS...]}
slots=${2:?usage: mpirun.sh NODES SLOTS PROGRAM [ARGS...]}
shift 2
[[ $# -ge 1 ]] || { echo "mpirun.sh: no program" >&2; exit 2; }
hosts=""
for ((i = 0; i < nodes; ++i)); do
  ip netns list | grep -q "^ordo-n$i\b" || { echo "mpirun.sh: no node $i; run cluster.sh up" >&2; exit 2; }
  hosts+="${hosts:+,}10.231.0.$((10 + i)):$slots"
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
exec ip netns exec ordo-head mpirun --host "$hosts" --map-by slot \
  --bind-to none --oversubscribe \
  --mca plm_rsh_agent "$here/agent.sh" \
  --mca btl self,vader,tcp --mca btl_vader_single_copy_mechanism none \
  --mca btl_tcp_if_include 10.231.0.0/24 --mca oob_tcp_if_include 10.231.0.0/24 \
  --mca mpi_yield_when_idle 1 "$@"
