#!/usr/bin/env bash
# mpirun's launch agent on the emulated cluster (cluster.sh): where mpirun would ssh to a host,
# it runs this with the host and the command instead, and the command runs in that node's
# namespace. Hosts are the nodes' addresses, 10.231.0.(10 + i) for node i.
set -euo pipefail
# Open MPI may pass ssh-style options before the host; none of them means anything here.
while [[ $# -gt 0 && "$1" == -* ]]; do shift; done
host=${1:?agent.sh: no host}
shift
[[ "$host" =~ ^10\.231\.0\.([0-9]+)$ ]] || { echo "agent.sh: '$host' is no cluster node" >&2; exit 2; }
node=$((BASH_REMATCH[1] - 10))
# Its own hostname too (a UTS namespace): Open MPI names a node's session directory, and the
# shared-memory segments in it, after the hostname, and nodes sharing one would share them.
exec ip netns exec "ordo-n$node" unshare --uts /bin/sh -c "hostname ordo-n$node && exec $*"
