#!/usr/bin/env bash
# An emulated cluster on one machine, for real multi-node Open MPI runs: each "node" is a network
# namespace (ordo-n0, ordo-n1, ...) with one veth link to a switch namespace (ordo-sw, a bridge),
# and a head namespace (ordo-head) where mpirun runs. Ranks on one node share memory as on a real
# node; ranks on different nodes reach each other only over TCP through the switch, whose links
# tc's token bucket (tbf) shapes in both directions to the given rate. Nothing is added to the
# machine's own namespace: every address lives on the cluster's private subnet, inside namespaces
# this script made, and `down` removes them all.
#
#   cluster.sh up NODES [RATE]   NODES in [1, 16]; RATE as tc writes it (10gbit, 800mbit; default
#                                 unshaped)
#   cluster.sh down
#   cluster.sh status
# Root only (ip netns). Idempotent: `up` first takes down what an earlier `up` left.
set -euo pipefail

readonly prefix=ordo
readonly subnet=10.231.0
readonly nodes_max=16

die() {
  echo "cluster.sh: $*" >&2
  exit 2
}

node_ns() { echo "$prefix-n$1"; }
node_ip() { echo "$subnet.$((10 + $1))"; }
readonly head_ip="$subnet.1"

# Our namespaces, from `ip netns list` (its lines may carry an "(id: N)" suffix).
our_namespaces() {
  ip netns list 2>/dev/null | awk '{print $1}' | grep -E "^$prefix-(sw|head|n[0-9]+)$" || true
}

down() {
  local ns
  for ns in $(our_namespaces); do ip netns del "$ns"; done
}

# shape NS DEV RATE: a token bucket on DEV's egress; its burst holds a few milliseconds at the
# rate, and packets wait at most 50 ms for tokens before they are dropped.
shape() {
  local ns=$1 dev=$2 rate=$3
  ip netns exec "$ns" tc qdisc replace dev "$dev" root tbf rate "$rate" burst 256kb latency 50ms
}

# link NS NAME IP: a veth pair from NS (as eth0, with IP) to the switch's bridge.
link() {
  local ns=$1 name=$2 ip=$3 rate=$4
  ip link add "$name" type veth peer name "$name-sw"
  ip link set "$name" netns "$ns"
  ip link set "$name-sw" netns "$prefix-sw"
  ip netns exec "$ns" ip link set "$name" name eth0
  ip netns exec "$ns" ip addr add "$ip/24" dev eth0
  ip netns exec "$ns" ip link set eth0 up
  ip netns exec "$prefix-sw" ip link set "$name-sw" master br0 up
  if [[ -n "$rate" ]]; then
    shape "$ns" eth0 "$rate"
    shape "$prefix-sw" "$name-sw" "$rate"
  fi
}

up() {
  local nodes=$1 rate=${2:-}
  [[ "$nodes" =~ ^[0-9]+$ ]] && ((nodes >= 1 && nodes <= nodes_max)) ||
    die "NODES must be a number in [1, $nodes_max], not '$nodes'"
  [[ -z "$rate" || "$rate" =~ ^[0-9]+(\.[0-9]+)?[kmg]?bit$ ]] ||
    die "RATE must be like 10gbit, 800mbit or 100kbit, not '$rate'"
  ((EUID == 0)) || die "needs root (ip netns)"
  command -v ip >/dev/null && command -v tc >/dev/null || die "needs iproute2 (ip, tc)"
  down
  ip netns add "$prefix-sw"
  ip netns exec "$prefix-sw" ip link set lo up
  ip netns exec "$prefix-sw" ip link add br0 type bridge
  ip netns exec "$prefix-sw" ip link set br0 up
  ip netns add "$prefix-head"
  ip netns exec "$prefix-head" ip link set lo up
  # The head's link carries only mpirun's control traffic: never shaped.
  link "$prefix-head" "${prefix}h" "$head_ip" ""
  local i
  for ((i = 0; i < nodes; ++i)); do
    ip netns add "$(node_ns "$i")"
    ip netns exec "$(node_ns "$i")" ip link set lo up
    link "$(node_ns "$i")" "${prefix}n$i" "$(node_ip "$i")" "$rate"
  done
  echo "cluster: $nodes node(s) at $(node_ip 0) and on, ${rate:-unshaped}"
}

status() {
  local ns
  for ns in $(our_namespaces); do
    echo "$ns: $(ip netns exec "$ns" ip -4 -o addr show dev eth0 2>/dev/null | awk '{print $4}')" \
      "$(ip netns exec "$ns" tc qdisc show dev eth0 2>/dev/null | grep tbf || true)"
  done
}

case "${1:-}" in
  up) shift; [[ $# -ge 1 ]] || die "usage: cluster.sh up NODES [RATE]"; up "$@" ;;
  down) down ;;
  status) status ;;
  *) die "usage: cluster.sh up NODES [RATE] | down | status" ;;
esac
