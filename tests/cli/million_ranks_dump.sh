#!/usr/bin/env bash
# million_ranks_dump.sh FILE RANKS: a valid dump of two one-op programs, one for the even and one
# for the odd ranks of RANKS, each rank listed by number: small to write, huge to model.
set -euo pipefail
file=$1
ranks=$2
{
  printf '{"format": "ordo-dag", "version": 2, "ranks": %d, "comms": [{"name": "world"}],\n' "$ranks"
  printf ' "programs": [\n'
  for parity in 0 1; do
    printf '  {"name": "p%d", "ranks": [' "$parity"
    seq -s, "$parity" 2 $((ranks - 1))
    printf '], "pools": [{"name": "comm", "threads": 1}], "vars": [{"name": "g", "bytes": 4}],\n'
    printf '   "ops": [{"name": "ar", "kind": "collective", "pool": "comm", "reads": [],'
    printf ' "writes": ["g"], "collective": {"kind": "allreduce", "comm": "world", "key": 0,'
    printf ' "count": 1, "dtype": "f32", "reduction": "sum"}}],\n'
    printf '   "main": [{"action": "submit", "op": "ar"}, {"action": "wait_for_all"}]}'
    if [[ $parity == 0 ]]; then printf ',\n'; fi
  done
  printf ']}\n'
} >"$file"
