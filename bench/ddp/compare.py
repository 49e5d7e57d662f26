"""ordo train's KVStore designs against PyTorch DDP on the same training, in one invocation:
for each round, for each rank count, every ordo design and then DDP run in turn (alternating,
so that a shared machine's load falls on all of them alike), each for the same short run from
the same initial weights (ordo's --export-init) on the same shards and batch order. Prints
images/s (training steps only, rank 0's clock), each design's ratio to DDP, and the largest
difference between ordo's and DDP's loss (rank 0's, of its own batch) over the first steps.
ordo's ranks run with Open MPI yielding the core in idle waits (docs/benchmarks.md says why);
a design written DESIGN:spin runs with Open MPI spinning instead.

    /usr/bin/python3 bench/ddp/compare.py --network lenet --ranks 2 4 --batch 32 --steps 300

Needs the release build's ordo (cmake --build --preset release --target ordo), Open MPI's
mpirun and Debian's python3-torch. Not a test: the numbers depend on the machine and its load.
"""

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

MPIRUN = ["mpirun", "--oversubscribe", "--bind-to", "none", "--mca", "btl", "self,vader",
          "--mca", "btl_vader_single_copy_mechanism", "none"]


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--network", default="lenet")
    p.add_argument("--ranks", type=int, nargs="+", default=[2, 4])
    p.add_argument("--designs", nargs="+", default=["funnel", "concom", "depcha"],
                   help="ordo designs, each run with Open MPI yielding the core in idle waits "
                   "(--mca mpi_yield_when_idle 1); DESIGN:spin runs it spinning instead (0), as "
                   "Open MPI does by default when ranks <= cores")
    p.add_argument("--batch", type=int, default=32, help="images per rank and step")
    p.add_argument("--steps", type=int, default=300, help="training steps per run")
    p.add_argument("--rounds", type=int, default=2, help="alternating repetitions")
    p.add_argument("--compare-steps", type=int, default=20,
                   help="the first N steps whose losses are compared")
    p.add_argument("--threads", type=int, default=1, help="intra-op threads per rank, both")
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--test-images", type=int, default=1000,
                   help="test accuracy on the first N test images after the run (0: all)")
    p.add_argument("--ordo-args", default="",
                   help="more arguments for every ordo train run, e.g. '--compute-threads 1'")
    p.add_argument("--ordo", default=os.path.join(ROOT, "build/release/tools/ordo"))
    p.add_argument("--python", default="/usr/bin/python3", help="a python3 with torch")
    p.add_argument("--out", default="build/ddp-compare", help="metrics and logs go here")
    return p.parse_args()


def read_metrics(path):
    """(every step's loss, every step's seconds, the summary, the epochs) of a metrics file."""
    steps, times, summary, epochs = [], [], None, []
    clock = 0.0
    with open(path) as f:
        for line in f:
            e = json.loads(line)
            if e.get("event") == "step":
                steps.append(e["loss"])
                times.append(e["seconds"] - clock)  # the events carry the running total
                clock = e["seconds"]
            elif e.get("event") == "summary":
                summary = e
            elif e.get("event") == "epoch":
                epochs.append(e)
    return steps, times, summary, epochs


def run(cmd, log, env=None):
    t0 = time.perf_counter()
    with open(log, "w") as out:
        r = subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
    if r.returncode != 0:
        sys.exit(f"compare: failed ({r.returncode}): {' '.join(cmd)}; see {log}")
    return time.perf_counter() - t0


def common(args):
    return ["--network", args.network, "--batch", str(args.batch), "--steps-max", str(args.steps),
            "--lr", str(args.lr), "--seed", str(args.seed), "--threads", str(args.threads),
            "--test-images", str(args.test_images)]


def main():
    args = parse_args()
    os.makedirs(args.out, exist_ok=True)
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMP_NUM_THREADS=str(args.threads), OPENBLAS_NUM_THREADS=str(args.threads))
    names = args.designs + ["ddp"]
    speed = {(n, r): [] for n in names for r in args.ranks}
    typical = {(n, r): [] for n in names for r in args.ranks}  # from the median step
    losses = {}
    accuracy = {}
    port = 29517
    for rnd in range(args.rounds):
        for ranks in args.ranks:
            init = os.path.join(args.out, f"init-{args.network}.ckpt")
            for name in names:
                tag = f"{name.replace(':', '-')}-np{ranks}-r{rnd}"
                metrics = os.path.join(args.out, tag + ".jsonl")
                if name == "ddp":
                    port += 1
                    cmd = [args.python, os.path.join(HERE, "ddp_train.py"), "--ranks", str(ranks),
                           "--port", str(port), "--init", init, "--metrics", metrics]
                else:
                    design, _, mode = name.partition(":")
                    wait = ["--mca", "mpi_yield_when_idle", "0" if mode == "spin" else "1"]
                    cmd = MPIRUN + wait + ["-np", str(ranks), args.ordo, "train",
                                           "--design", design, "--progress", "none",
                                           "--metrics", metrics, "--export-init", init]
                    cmd += shlex.split(args.ordo_args)
                wall = run(cmd + common(args), os.path.join(args.out, tag + ".log"), env)
                steps, times, summary, _ = read_metrics(metrics)
                speed[(name, ranks)].append(summary["images_per_s"])
                typical[(name, ranks)].append(ranks * args.batch / statistics.median(times))
                losses[(name, ranks, rnd)] = steps
                accuracy[(name, ranks)] = summary.get("test_accuracy")
                print(f"round {rnd + 1} np {ranks} {name:11s} {summary['images_per_s']:8.1f} "
                      f"images/s, {typical[(name, ranks)][-1]:8.1f} at the median step "
                      f"(wall {wall:.1f} s)", flush=True)

    k = args.compare_steps
    print()
    print(f"{args.network}, batch {args.batch} per rank, {args.steps} steps, {args.threads} "
          f"thread(s) per rank, {args.rounds} round(s). images/s: all images over the time in "
          "the steps (rank 0's clock), median over the rounds [min-max]; / DDP: median of each "
          "round's ratio to DDP's run of that round. 'median step': the same from each run's "
          "median step time, which a shared machine's bursts of load disturb less.")
    print()
    print("| ranks | run | images/s | / DDP | images/s, median step | / DDP | max rel. loss "
          f"diff, first {k} steps | max rel. loss diff, all steps | test acc. |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for ranks in args.ranks:
        for n in names:
            v = statistics.median(speed[(n, ranks)])
            lo, hi = min(speed[(n, ranks)]), max(speed[(n, ranks)])
            ratio = statistics.median(a / b for a, b in zip(speed[(n, ranks)],
                                                             speed[("ddp", ranks)]))
            tv = statistics.median(typical[(n, ranks)])
            tratio = statistics.median(a / b for a, b in zip(typical[(n, ranks)],
                                                              typical[("ddp", ranks)]))
            first = whole = ""
            if n != "ddp":
                diffs = []
                for rnd in range(args.rounds):
                    a, b = losses[(n, ranks, rnd)], losses[("ddp", ranks, rnd)]
                    diffs.append([abs(x - y) / max(abs(y), 1e-12) for x, y in zip(a, b)])
                first = f"{max(max(d[:k]) for d in diffs):.2e}"
                whole = f"{max(max(d) for d in diffs):.2e}"
            acc = accuracy[(n, ranks)]
            print(f"| {ranks} | {'DDP (gloo)' if n == 'ddp' else 'ordo ' + n} | {v:.0f} "
                  f"[{lo:.0f}-{hi:.0f}] | {ratio:.2f} | {tv:.0f} | {tratio:.2f} | {first} | "
                  f"{whole} | "
                  f"{'' if acc is None else f'{acc:.4f}'} |")
    # Whether rounds of one design agree with each other bit for bit (ordo is deterministic).
    for ranks in args.ranks:
        for n in names:
            runs = [losses[(n, ranks, rnd)] for rnd in range(args.rounds)]
            if any(r != runs[0] for r in runs[1:]):
                print(f"note: {n} at {ranks} ranks gave different losses in different rounds")


if __name__ == "__main__":
    main()
