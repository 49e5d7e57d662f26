#!/usr/bin/env bash
# The GPU scripts' decisions that need no GPU, against a stand-in nvidia-smi: how many GPUs a
# CUDA program sees (CUDA_VISIBLE_DEVICES narrows nvidia-smi's list, and a list longer than grep's
# first match still counts: no early exit under pipefail), and the checks and figures refusing,
# non-zero and with the reason, where none is visible.
set -uo pipefail
scripts=$1
fake=$(mktemp -d)
trap 'rm -rf "$fake"' EXIT
failed=0
expect() {  # expect WHAT WANTED GOT
  if [[ "$2" != "$3" ]]; then
    echo "FAIL: $1: wanted '$2', got '$3'" >&2
    failed=1
  fi
}
# gpus N: a stand-in nvidia-smi that lists N GPUs.
gpus() {
  {
    echo '#!/usr/bin/env bash'
    echo "for i in \$(seq 0 $(($1 - 1))); do echo \"GPU \$i: Stand-in GPU (UUID: GPU-\$i)\"; done"
  } >"$fake/nvidia-smi"
  chmod +x "$fake/nvidia-smi"
}
export PATH=$fake:$PATH

gpus 8
expect "8 listed" 8 "$(env -u CUDA_VISIBLE_DEVICES "$scripts/gpu/visible_gpus.sh")"
expect "8 listed, 2 chosen" 2 "$(CUDA_VISIBLE_DEVICES=3,5 "$scripts/gpu/visible_gpus.sh")"
expect "8 listed, none chosen" 0 "$(CUDA_VISIBLE_DEVICES= "$scripts/gpu/visible_gpus.sh")"
gpus 1
expect "1 listed, 4 chosen" 1 "$(CUDA_VISIBLE_DEVICES=0,1,2,3 "$scripts/gpu/visible_gpus.sh")"
gpus 0
expect "none listed" 0 "$(env -u CUDA_VISIBLE_DEVICES "$scripts/gpu/visible_gpus.sh")"

for script in checks figures; do
  words=$(env -u CUDA_VISIBLE_DEVICES "$scripts/gpu/$script.sh" "$fake" "$fake/out" 2>&1)
  expect "$script.sh with no GPU exits" 1 "$?"
  [[ "$words" == *"no GPU visible"* ]] || { echo "FAIL: $script.sh said: $words" >&2; failed=1; }
done
[[ ! -e "$fake/out" ]] || { echo "FAIL: figures.sh wrote before it refused" >&2; failed=1; }
[[ $failed -eq 0 ]] && echo "gpu scripts: all as expected"
exit $failed
