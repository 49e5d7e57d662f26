#!/usr/bin/env bash
# Runs `ordo verify ARGS...` under an address-space limit 300 MB above what the loaded program
# already maps, so that the model's allocation fails, whatever the program's libraries take (with
# libtorch linked they map hundreds of MB before main). The baseline is read while ordo waits to
# open a FIFO that nobody writes: every library is loaded by then.
set -euo pipefail
ordo=$1
shift
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkfifo "$scratch/fifo"
"$ordo" verify "$scratch/fifo" --timeout 10 >/dev/null 2>&1 &
pid=$!
for _ in $(seq 200); do
  [[ "$(cat "/proc/$pid/wchan" 2>/dev/null)" == *partner* ]] && break
  sleep 0.05
done
base=$(awk '/^VmSize:/ {print $2}' "/proc/$pid/status")
kill "$pid"
wait "$pid" || true
ulimit -v $((base + 300000))
exec "$ordo" verify "$@"
