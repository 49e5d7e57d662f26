#!/usr/bin/env bash
# Prints how many GPUs a CUDA program here sees: nvidia-smi's list, narrowed by
# CUDA_VISIBLE_DEVICES where it is set (nvidia-smi itself ignores it). 0 where there is none.
set -uo pipefail
listed=0
command -v nvidia-smi >/dev/null && listed=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
if [[ -n "${CUDA_VISIBLE_DEVICES+set}" ]]; then
  IFS=, read -r -a chosen <<<"$CUDA_VISIBLE_DEVICES"
  [[ ${#chosen[@]} -lt $listed ]] && listed=${#chosen[@]}
fi
echo "$listed"
