#!/usr/bin/env bash
# outputs_over_inputs.sh ORDO SRC DIR: every command of `ordo` that reads files and writes files,
# run with an output on one of its inputs, one row each (and a row for each way an output can land
# on an input: its name, a symbolic link, a hard link, a folder's entries, a folder it writes).
# Each row must exit 2, say which option and which path in the words given, and leave the input
# as it was. demo and gen-imagenet read no file, validate and replay write none; train has its own
# cases (train_outputs_over_*). Exits 0 when every row does.
set -uo pipefail
ordo=$1
src=$2
dir=$3
rm -rf "$dir"
mkdir -p "$dir"
cd "$dir" || exit 1

# One program, so that simulate would run on it.
cp "$src/specs/examples/funnel.json" job.json
cp "$src/specs/networks/branches.json" net.json
cp "$src/tests/import/data/sigmoid-symbol.json" sym.json
cp "$src/fuzz/corpus/onnx_model_parser/conv_bn_pool_fc.onnx" model.onnx
mkdir -p dumps findings
cp "$src/tests/diag/data/missing_rank/rank-0.json" dumps/rank-0.json
cp job.json dumps/program.json
cp job.json findings/job.json
ln -s job.json link.json
ln job.json hard.json
"$ordo" gen-imagenet --out jpegs --classes 2 --per-class 2 --size 8x8 >/dev/null || exit 1
jpeg=$(find jpegs -name '*.JPEG' | head -n 1)

failed=0
# row NAME FILE WORDS -- ARGS...: `ordo ARGS` exits 2 saying WORDS, and FILE is unchanged.
row() {
  local name=$1 file=$2 words=$3
  shift 4
  local before output status
  before=$(cksum <"$file")
  output=$("$ordo" "$@" 2>&1)
  status=$?
  echo "$name: exit $status: $output"
  if [[ $status -ne 2 ]]; then
    echo "outputs_over_inputs.sh: $name: exit $status, expected 2" >&2
    failed=1
  fi
  if ! grep -qF -- "$words" <<<"$output"; then
    echo "outputs_over_inputs.sh: $name: the error does not say \"$words\"" >&2
    failed=1
  fi
  if [[ $(cksum <"$file") != "$before" ]]; then
    echo "outputs_over_inputs.sh: $name: $file was changed" >&2
    failed=1
  fi
}

row step-dag net.json "--output 'net.json' is the input file (--network)" -- \
  step-dag --network net.json -o net.json
row step-dag-model model.onnx "--output 'model.onnx' is the input file (--model)" -- \
  step-dag --model model.onnx -o model.onnx
row export-promela job.json "--output 'job.json' is the input file (DUMP)" -- \
  export-promela job.json -o job.json
row verify job.json "--trace 'job.json' is the input file (INPUT)" -- \
  verify job.json --trace job.json
row verify-junit job.json "--junit 'job.json' is the input file (INPUT)" -- \
  verify job.json --junit job.json
row verify-symlink job.json "--trace 'link.json' is the input file 'job.json' (INPUT)" -- \
  verify job.json --trace link.json
row verify-hard-link job.json "--dot 'job.json' is the input file 'hard.json' (INPUT)" -- \
  verify hard.json --dot job.json
row verify-model sym.json "--dot 'sym.json' is the input file (--model)" -- \
  verify --design depcha --model sym.json --data-shape 1,28,28 --dot sym.json
row fuzz-junit job.json "--junit 'job.json' is the input file (INPUT)" -- \
  fuzz job.json --junit job.json --out findings
row fuzz-out findings/job.json \
  "the input INPUT 'findings/job.json' is inside the output folder --out 'findings'" -- \
  fuzz findings/job.json --out findings
row import-onnx model.onnx "--output 'model.onnx' is the input file (MODEL)" -- \
  import model.onnx -o model.onnx
row import-symbol sym.json "--output 'sym.json' is the input file (MODEL)" -- \
  import sym.json -o sym.json
row simulate job.json "--plot 'job.json' is the input file (INPUT)" -- \
  simulate job.json --plot job.json
row simulate-network net.json "--plot 'net.json' is the input file (--network)" -- \
  simulate --design depcha --network net.json --plot net.json
row analyze dumps/rank-0.json "--dot 'dumps/rank-0.json' is among the entries the input folder DIR 'dumps' reads (rank-K.json, program.json)" -- \
  analyze dumps --dot dumps/rank-0.json
row analyze-program job.json "--dot 'job.json' is the input file (--program)" -- \
  analyze dumps --program job.json --dot job.json
row pack-rec "$jpeg" "PREFIX 'jpegs/packed.rec' is inside the input folder ROOT 'jpegs'" -- \
  pack-rec jpegs jpegs/packed
[[ ! -e jpegs/packed.rec && ! -e jpegs/packed.idx ]] || {
  echo "outputs_over_inputs.sh: pack-rec wrote into its input folder" >&2
  failed=1
}
exit $failed
