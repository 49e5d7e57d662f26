#!/usr/bin/env bash
# check_counts.sh PYTHON reference_counts.py ORDO MODEL_DIR
# Every model reference_counts.py builds must import with its tensor and parameter counts.
set -euo pipefail
python=$1 reference=$2 ordo=$3 dir=$4
if ! "$python" -c "import torch" 2>/dev/null; then
  echo "check_counts.sh: $python has no torch (Debian's python3-torch)" >&2
  exit 1
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
checked=0
while read -r name tensors params; do
  shape=3,224,224
  [[ $name == cifar* ]] && shape=3,32,32
  report=$("$ordo" import "$dir/$name-symbol.json" --data-shape "$shape" -o "$scratch/net.json" 2>&1)
  echo "$report"
  grep -q " $tensors parameter tensors, $params parameters " <<<"$report" ||
    { echo "check_counts.sh: $name: expected $tensors tensors, $params parameters" >&2; exit 1; }
  checked=$((checked + 1))
done < <("$python" "$reference")
(( checked > 0 )) || { echo "check_counts.sh: no reference counts" >&2; exit 1; }
echo "check_counts.sh: $checked models match"
