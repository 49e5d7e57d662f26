#!/usr/bin/env bash
# Installs every Debian package ordo needs to build, test and run, and nothing that is already
# there. Safe to run any number of times; runs apt-get as root, or through sudo otherwise.
set -euo pipefail

packages=(
  cmake ninja-build g++ clang libclang-rt-14-dev lld pkg-config
  libgtest-dev libgmock-dev libbenchmark-dev librapidcheck-dev
  nlohmann-json3-dev libcli11-dev libz3-dev
  libopenmpi-dev openmpi-bin
  zlib1g-dev libturbojpeg0-dev dataset-fashion-mnist libtorch-dev libopenblas0-pthread
  python3 python3-jsonschema spin
  # tests/cli: LLVM's lit and FileCheck run the command line's cases
  llvm-14-tools
  # runtime/import: ONNX models (its protobuf messages and shape inference)
  libonnx-dev libprotobuf-dev
  # bench/ddp: the PyTorch DDP baseline that ordo train is compared with
  python3-torch python3-numpy
)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

as_root=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  as_root=(sudo)
fi

echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
