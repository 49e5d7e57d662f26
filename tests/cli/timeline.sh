#!/usr/bin/env bash
# timeline.sh PYTHON DIR RANKS [device] -- MPIEXEC... ORDO ARGS...: runs `ordo train ARGS
# --timeline DIR/t.json` under MPIEXEC, then checks the merged trace (timeline_check.py, told
# `device` for a run on a device path) and that no rank file is left beside it.
set -uo pipefail
python=$1
dir=$2
ranks=$3
kind=
if [[ $4 == device ]]; then
  kind=device
  shift
fi
shift 4
rm -rf "$dir"
mkdir -p "$dir"
"$@" --timeline "$dir/t.json" || { echo "timeline.sh: the run failed" >&2; exit 1; }
"$python" "$(dirname "$0")/timeline_check.py" "$dir/t.json" "$ranks" $kind || exit 1
left=$(ls "$dir" | grep -v '^t\.json$')
[[ -z $left ]] || { echo "timeline.sh: files left beside the trace: $left" >&2; exit 1; }
