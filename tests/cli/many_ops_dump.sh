#!/usr/bin/env bash
# many_ops_dump.sh FILE OPS: a valid dump of one program of OPS compute ops in a chain on one
# var, then an allreduce: a few bytes per op to write, far more to read and model.
set -euo pipefail
file=$1
ops=$2
awk -v n="$ops" 'BEGIN {
  printf "{\"format\": \"ordo-dag\", \"version\": 2, \"comms\": [{\"name\": \"world\"}],\n"
  printf " \"programs\": [{\"name\": \"chain\", \"pools\": [{\"name\": \"p\", \"threads\": 1}],\n"
  printf "  \"vars\": [{\"name\": \"v\", \"bytes\": 4}],\n  \"ops\": [\n"
  for (i = 0; i < n; i++) printf "   {\"name\": \"c%d\", \"kind\": \"compute\", \"pool\": \"p\", \"writes\": [\"v\"]},\n", i
  printf "   {\"name\": \"ar\", \"kind\": \"collective\", \"pool\": \"p\", \"reads\": [], \"writes\": [\"v\"],"
  printf " \"collective\": {\"kind\": \"allreduce\", \"comm\": \"world\", \"key\": 0, \"count\": 1,"
  printf " \"dtype\": \"f32\", \"reduction\": \"sum\"}}],\n  \"main\": [\n"
  for (i = 0; i < n; i++) printf "   {\"action\": \"submit\", \"op\": \"c%d\"},\n", i
  printf "   {\"action\": \"submit\", \"op\": \"ar\"}, {\"action\": \"wait_for_all\"}]}]}\n"
}' >"$file"
