"""Time to a test accuracy, ordo train against PyTorch DDP: whole epochs of the same training
(the same network, initial weights from ordo's --export-init, shards, batch order, SGD and
learning-rate schedule), one ordo design and then DDP, each evaluated on the whole test set
after every epoch. Prints every epoch's test accuracy with the training time spent so far (the
steps only, rank 0's clock, as both count it) and the whole run's wall time, and for each the
first epoch at or above --target and the time it took.

    /usr/bin/python3 bench/ddp/time_to_accuracy.py --network resnet20 --epochs 6 \\
        --lr 0.1 --warmup 100 --lr-decay-epochs 4,5 --target 0.9

Needs what compare.py needs. Not a test: the numbers depend on the machine and its load.
"""

import argparse
import os
import shlex
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import HERE, MPIRUN, read_metrics, run  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--network", default="resnet20")
    p.add_argument("--ranks", type=int, default=2)
    p.add_argument("--design", default="depcha")
    p.add_argument("--epochs", type=int, default=6)
    p.add_argument("--batch", type=int, default=64, help="images per rank and step")
    p.add_argument("--lr", type=float, default=0.1)
    p.add_argument("--warmup", type=int, default=100)
    p.add_argument("--lr-decay-epochs", default="4,5")
    p.add_argument("--lr-factor", type=float, default=0.1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=1, help="intra-op threads per rank, both")
    p.add_argument("--train-images", type=int, default=0, help="the first N (0: all)")
    p.add_argument("--test-images", type=int, default=0, help="the first N (0: all)")
    p.add_argument("--target", type=float, default=0.9, help="test accuracy")
    p.add_argument("--ordo-args", default="", help="more ordo train arguments")
    p.add_argument("--ordo", default=os.path.join(ROOT, "build/release/tools/ordo"))
    p.add_argument("--python", default="/usr/bin/python3", help="a python3 with torch")
    p.add_argument("--out", default="build/time-to-accuracy", help="metrics and logs go here")
    return p.parse_args()


def epoch_table(metrics, ddp):
    """[(epoch, test accuracy, training seconds so far)] of a metrics file."""
    _, times, _, epochs = read_metrics(metrics)
    if ddp:  # DDP's epoch events carry the running total of its step time
        return [(e["epoch"], e["test_accuracy"], e["seconds"]) for e in epochs]
    # ordo's carry each epoch's own: the running total is the step times' sum
    steps_per_epoch = len(times) // len(epochs)
    return [(e["epoch"], e["test_accuracy"], sum(times[:e["epoch"] * steps_per_epoch]))
            for e in epochs]


def main():
    args = parse_args()
    os.makedirs(args.out, exist_ok=True)
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMP_NUM_THREADS=str(args.threads), OPENBLAS_NUM_THREADS=str(args.threads))
    common = ["--network", args.network, "--batch", str(args.batch), "--epochs", str(args.epochs),
              "--lr", str(args.lr), "--warmup", str(args.warmup), "--lr-factor",
              str(args.lr_factor), "--seed", str(args.seed), "--threads", str(args.threads),
              "--train-images", str(args.train_images), "--test-images", str(args.test_images)]
    if args.lr_decay_epochs:
        common += ["--lr-decay-epochs", args.lr_decay_epochs]
    init = os.path.join(args.out, f"init-{args.network}.ckpt")
    runs = {}
    ordo_metrics = os.path.join(args.out, f"ordo-{args.design}.jsonl")
    cmd = MPIRUN + ["--mca", "mpi_yield_when_idle", "1", "-np", str(args.ranks), args.ordo,
                    "train", "--design", args.design, "--progress", "log", "--metrics",
                    ordo_metrics, "--export-init", init] + shlex.split(args.ordo_args)
    wall = run(cmd + common, os.path.join(args.out, f"ordo-{args.design}.log"), env)
    runs[f"ordo {args.design}"] = (epoch_table(ordo_metrics, False), wall)
    ddp_metrics = os.path.join(args.out, "ddp.jsonl")
    cmd = [args.python, os.path.join(HERE, "ddp_train.py"), "--ranks", str(args.ranks), "--init",
           init, "--metrics", ddp_metrics]
    wall = run(cmd + common, os.path.join(args.out, "ddp.log"), env)
    runs["DDP (gloo)"] = (epoch_table(ddp_metrics, True), wall)

    print(f"{args.network}, {args.ranks} ranks, batch {args.batch} per rank, {args.epochs} epochs, "
          f"lr {args.lr} (warm-up {args.warmup} steps, x{args.lr_factor} after epochs "
          f"{args.lr_decay_epochs or 'none'}), {args.threads} thread(s) per rank")
    print()
    print("| run | epoch | test acc. | training s so far |")
    print("|---|---:|---:|---:|")
    for name, (table, _) in runs.items():
        for epoch, acc, seconds in table:
            print(f"| {name} | {epoch} | {acc:.4f} | {seconds:.1f} |")
    print()
    for name, (table, wall) in runs.items():
        hit = next(((e, s) for e, acc, s in table if acc >= args.target), None)
        reached = (f"{args.target:.0%} after epoch {hit[0]}, {hit[1]:.1f} s of training"
                   if hit else f"{args.target:.0%} not reached")
        print(f"{name}: {reached}; final {table[-1][1]:.4f}; whole run {wall:.1f} s wall")


if __name__ == "__main__":
    main()
