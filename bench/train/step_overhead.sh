#!/usr/bin/env bash
# step_overhead.sh [recorder|fingerprint|timeline]
# What a diagnostic costs a training step: `ordo train --network lenet` on two Open MPI ranks with
# it and without, the two alternating within each round so that a busier period of a shared
# machine falls on both alike. recorder (the default): the flight recorder and hang watchdog (on
# by default) against --no-flight-recorder; fingerprint: --check-collectives against the default;
# timeline: --timeline (each run writes and merges its trace after its last step, outside the
# timed steps) against the default.
# The first step of every run is left out (it allocates every tensor). Prints, per round, each
# run's median step time and the ratio with / without, then the median of the rounds' ratios, and
# the pooled medians and 10th percentiles (a step that other load on the machine did not slow is
# near the low end, so the low percentile is the steadier figure on a shared machine).
#
#   ORDO_BENCH_ROUNDS  rounds (default 7)
#   ORDO_BENCH_STEPS   steps per run (default 200)
#   ORDO_BENCH_BATCH   images per rank and step (default 32)
# Needs a release build with the trainer (build/release/tools/ordo).
set -euo pipefail
cd "$(dirname "$0")/../.."

mode=${1:-recorder}
case $mode in
  recorder) with_flags=() without_flags=(--no-flight-recorder) ;;
  fingerprint) with_flags=(--check-collectives) without_flags=() ;;
  timeline) with_flags=(--timeline) without_flags=() ;;
  *) echo "step_overhead.sh: unknown mode '$mode'; expected recorder, fingerprint or timeline" >&2
     exit 2 ;;
esac
rounds=${ORDO_BENCH_ROUNDS:-7}
steps=${ORDO_BENCH_STEPS:-200}
batch=${ORDO_BENCH_BATCH:-32}
ordo=build/release/tools/ordo
# Yielding when idle, as bench/ddp/compare.py runs: on a small shared machine a rank that spins
# in MPI takes the core its peer needs, and whole runs then go 10x slower (seen with and without
# the recorder alike).
mpi=(mpirun --oversubscribe --bind-to none --mca btl self,vader
     --mca btl_vader_single_copy_mechanism none --mca mpi_yield_when_idle 1)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# $mode: lenet, 2 ranks, depcha, batch $batch per rank, $steps steps, $rounds rounds"
for round in $(seq "$rounds"); do
  for variant in on off; do
    if [[ $variant == on ]]; then flag=("${with_flags[@]}"); else flag=("${without_flags[@]}"); fi
    # --timeline takes the file of this run.
    [[ $mode == timeline && $variant == on ]] && flag+=("$scratch/timeline.$round.json")
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
      "${mpi[@]}" -np 2 "$ordo" train --network lenet --design depcha --batch "$batch" \
      --steps-max "$steps" --train-images $((steps * batch * 2)) --test-images 100 \
      --progress none --metrics "$scratch/$variant.$round.jsonl" "${flag[@]}" >/dev/null
  done
done
/usr/bin/python3 - "$scratch" "$rounds" <<'PY'
import json, statistics, sys
scratch, rounds = sys.argv[1], int(sys.argv[2])
def step_times(variant, r):
    t = [json.loads(l)["seconds"] for l in open(f"{scratch}/{variant}.{r}.jsonl")
         if json.loads(l)["event"] == "step"]
    return [b - a for a, b in zip(t, t[1:])]  # every step but the first
ratios, pooled = [], {"on": [], "off": []}
for r in range(1, rounds + 1):
    med = {v: statistics.median(step_times(v, r)) for v in ("on", "off")}
    for v in pooled:
        pooled[v] += step_times(v, r)
    ratios.append(med["on"] / med["off"])
    print(f"round {r}: with {med['on'] * 1e3:.3f} ms/step, without {med['off'] * 1e3:.3f} ms/step,"
          f" with/without {ratios[-1]:.4f}")
def p10(xs):
    return statistics.quantiles(xs, n=10)[0]
on, off = statistics.median(pooled["on"]), statistics.median(pooled["off"])
print(f"median of the rounds' ratios: {statistics.median(ratios):.4f}"
      f" (range {min(ratios):.4f} to {max(ratios):.4f})")
print(f"pooled medians: with {on * 1e3:.3f} ms/step, without {off * 1e3:.3f} ms/step,"
      f" ratio {on / off:.4f}")
print(f"pooled 10th percentiles: with {p10(pooled['on']) * 1e3:.3f} ms/step,"
      f" without {p10(pooled['off']) * 1e3:.3f} ms/step,"
      f" ratio {p10(pooled['on']) / p10(pooled['off']):.4f}"
      f" ({len(pooled['on'])} and {len(pooled['off'])} steps)")
PY
