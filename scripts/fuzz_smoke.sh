#!/usr/bin/env bash
# Builds the libFuzzer harnesses (a clang preset with ASan + UBSan and the harnesses on: the fuzz
# preset, optimised for campaigns, or the asan preset, whose build the test run has made anyway)
# and runs each one from its
# seed corpus, fuzz/corpus/<harness>/ with its regressions/ inputs, for a short time. Any crash,
# leak, sanitizer report, timeout or out-of-memory fails the script; libFuzzer leaves the input
# that caused it under <build>/fuzz-artifacts/<harness>/.
#
#   ORDO_FUZZ_SECONDS   seconds per harness (default 4; a campaign: 600)
#   ORDO_FUZZ_PRESET    the preset that builds them (default fuzz; scripts/test.sh gives asan)
#   ORDO_FUZZ_HARNESSES harnesses to run (default: every one)
# New inputs libFuzzer finds go to a scratch folder, never into the checked-in corpus.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${ORDO_FUZZ_SECONDS:-4}
preset=${ORDO_FUZZ_PRESET:-fuzz}
build=build/$preset
harnesses=${ORDO_FUZZ_HARNESSES:-"dump_parser trace_parser network_parser idx_parser checkpoint_parser recordio_parser flight_dump_parser mxnet_symbol_parser onnx_model_parser"}
jobs=${ORDO_JOBS:-$(nproc)}

cmake --preset "$preset" >/dev/null
cmake --build "$build" -j "$jobs" --target ordo_fuzzers

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failed=0
for harness in $harnesses; do
  echo "== $harness: ${seconds}s =="
  artifacts="$build/fuzz-artifacts/$harness"
  mkdir -p "$artifacts" "$scratch/$harness"
  dict=()
  [[ -f "fuzz/harness/$harness.dict" ]] && dict=(-dict="fuzz/harness/$harness.dict")
  # libFuzzer's progress lines would bury the rest of a test log: a clean run shows its totals,
  # a failed one the end of its report.
  log="$scratch/$harness.log"
  if ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
       UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1 halt_on_error=1} \
       "$build/fuzz/harness/ordo_fuzz_$harness" \
         -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -print_final_stats=1 \
         "${dict[@]}" -artifact_prefix="$artifacts/" "$scratch/$harness" "fuzz/corpus/$harness" \
         >"$log" 2>&1; then
    grep -E '^(Done|stat::(new_units_added|peak_rss_mb))' "$log" || true
  else
    tail -n 80 "$log" >&2
    echo "fuzz smoke: $harness failed; its input is in $artifacts/" >&2
    failed=1
  fi
done
[[ $failed -eq 0 ]] && echo "fuzz smoke: every harness ran ${seconds}s clean"
exit $failed
