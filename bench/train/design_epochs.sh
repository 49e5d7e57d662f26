#!/usr/bin/env bash
# The paper's comparison on this machine: the time of one epoch of ResNet-50 and Inception-BN
# under funnel, concom and depcha, at 2 and 4 Open MPI ranks, on synthetic ImageNet-shaped data
# (ordo train --data synthetic: 3x224x224 images in memory, 1,000 classes), so the figure is the
# training step's and not the decoder's. Designs alternate within each round, so a slower period
# of a shared machine falls on every design alike. The first step of every run is left out (it
# allocates every tensor); the table gives each design's median step time over the other steps
# of every round, the epoch time it makes (steps per epoch x that median), and the ratio of
# funnel's to each design's.
#
#   ORDO_BENCH_ROUNDS  rounds (default 3)
#   ORDO_BENCH_IMAGES  images per epoch over all ranks (default 64)
#   ORDO_BENCH_BATCH   images per rank and step (default 4)
#   ORDO_BENCH_RANKS   rank counts (default "2 4")
#   ORDO_BENCH_NETS    networks (default "resnet50 inception-bn")
# Needs a release build with the trainer (build/release/tools/ordo).
set -euo pipefail
cd "$(dirname "$0")/../.."

rounds=${ORDO_BENCH_ROUNDS:-3}
images=${ORDO_BENCH_IMAGES:-64}
batch=${ORDO_BENCH_BATCH:-4}
ranks_list=${ORDO_BENCH_RANKS:-"2 4"}
nets=${ORDO_BENCH_NETS:-"resnet50 inception-bn"}
ordo=build/release/tools/ordo
designs="funnel concom depcha"
mpi=(mpirun --oversubscribe --bind-to none --mca btl self,vader
     --mca btl_vader_single_copy_mechanism none)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "# $images images per epoch, batch $batch per rank, $rounds rounds, synthetic 3x224x224"
for net in $nets; do
  for ranks in $ranks_list; do
    for round in $(seq "$rounds"); do
      for design in $designs; do
        metrics="$scratch/$net.$ranks.$design.$round.jsonl"
        OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
          "${mpi[@]}" -np "$ranks" "$ordo" train --network "$net" --design "$design" \
          --data synthetic --train-images "$images" --batch "$batch" --epochs 1 \
          --progress none --metrics "$metrics" >/dev/null
      done
    done
    python3 - "$scratch" "$net" "$ranks" "$rounds" $designs <<'PY'
import json, statistics, sys
scratch, net, ranks, rounds, designs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5:]
def step_times(d, r):
    t = [json.loads(l)["seconds"] for l in open(f"{scratch}/{net}.{ranks}.{d}.{r}.jsonl")
         if json.loads(l)["event"] == "step"]
    return [b - a for a, b in zip(t, t[1:])]  # every step but the first
steps = {d: [x for r in range(1, rounds + 1) for x in step_times(d, r)] for d in designs}
per_epoch = len(step_times(designs[0], 1)) + 1
med = {d: statistics.median(steps[d]) for d in designs}
for d in designs:
    print(f"{net:13} {ranks} ranks  {d:7} step {med[d]:7.3f} s  epoch {per_epoch * med[d]:8.2f} s"
          f"  ({len(steps[d])} steps)  funnel/this {med['funnel'] / med[d]:.2f}x")
PY
  done
done
