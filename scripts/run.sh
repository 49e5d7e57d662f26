#!/usr/bin/env bash
# The main job: install what is missing, build the release preset, run ordo's embedded demo.
# Extra arguments go to `ordo` (for example `scripts/run.sh --help`).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release --target ordo
exec build/release/tools/ordo "$@"
