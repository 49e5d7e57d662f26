"""The PyTorch DDP baseline for ordo train: the same network, initial weights, data, shards,
batch order and SGD as an `ordo train` run, on torch.nn with DistributedDataParallel (gloo), so
that both take the same steps and their speed can be compared.

Run it with Debian's python3 (python3-torch), either spawning its ranks itself:

    /usr/bin/python3 bench/ddp/ddp_train.py --ranks 2 --init init.ckpt --network lenet ...

or under torchrun (on Python 3.11 Debian's torchrun needs --redirects 2 --tee 2):

    torchrun --nproc_per_node 2 --redirects 2 --tee 2 bench/ddp/ddp_train.py --init init.ckpt ...

The initial weights come from `ordo train --export-init FILE` (a checkpoint of step 0), matched by
parameter name. Batch norm's running statistics stay per rank (broadcast_buffers=False), as in
ordo. --metrics writes JSON lines shaped like ordo train's: every step's loss (rank 0's, of its
own batch), every epoch's test accuracy, and a summary with images/s over the training steps only.
"""

import argparse
import ctypes
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ordo_compat  # noqa: E402


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--network", default="lenet", help="lenet or resnetN (6N+2)")
    p.add_argument("--init", required=True, help="ordo train --export-init's checkpoint")
    p.add_argument("--data-dir", default="/usr/share/datasets/fashion-mnist")
    p.add_argument("--train-images", type=int, default=0, help="the first N images (0: all)")
    p.add_argument("--test-images", type=int, default=0, help="the first N test images (0: all)")
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--batch", type=int, default=64, help="images per rank and step")
    p.add_argument("--steps-max", type=int, default=0, help="stop after this many steps (0: none)")
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--warmup", type=int, default=0)
    p.add_argument("--lr-decay-epochs", default="",
                   help="comma-separated epochs after which the rate is multiplied by --lr-factor")
    p.add_argument("--lr-factor", type=float, default=0.1)
    p.add_argument("--momentum", type=float, default=0.9)
    p.add_argument("--weight-decay", type=float, default=1e-4)
    p.add_argument("--seed", type=int, default=1, help="the shuffles' seed (ordo's --seed)")
    p.add_argument("--threads", type=int, default=1, help="intra-op threads per rank")
    p.add_argument("--ranks", type=int, default=0,
                   help="spawn this many ranks (0: run as one rank of torchrun's world)")
    p.add_argument("--port", type=int, default=29517, help="the rendezvous port when spawning")
    p.add_argument("--no-eval", action="store_true", help="no test accuracy")
    p.add_argument("--metrics", default="", help="write JSON lines here (rank 0)")
    return p.parse_args(argv)


def set_threads(n):
    # Before torch is imported, so that its OpenBLAS starts with that many threads too.
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = str(n)


def build_network(name, nn, torch):
    """The network as ordo's catalog builds it (runtime/networks/network_cnn.cpp, layer semantics
    of runtime/train/layers/), and the map from ordo's parameter names to its parameters, in
    ordo's key order."""
    F = nn.functional
    names = {}

    def conv_bn(layer, cin, cout, k, stride, pad):
        conv = nn.Conv2d(cin, cout, k, stride=stride, padding=pad, bias=False)
        bn = nn.BatchNorm2d(cout, eps=1e-5, momentum=0.1)
        names[layer + ".weight"] = conv.weight
        names[layer + ".bn.gamma"] = bn.weight
        names[layer + ".bn.beta"] = bn.bias
        return conv, bn

    def dense(layer, cin, cout):
        fc = nn.Linear(cin, cout, bias=True)
        names[layer + ".weight"] = fc.weight
        names[layer + ".bias"] = fc.bias
        return fc

    if name == "lenet":

        class LeNet(nn.Module):
            def __init__(self):
                super().__init__()
                self.c1, self.b1 = conv_bn("conv1", 1, 20, 5, 1, 0)
                self.c2, self.b2 = conv_bn("conv2", 20, 50, 5, 1, 0)
                self.fc1 = dense("fc1", 50 * 4 * 4, 500)
                self.fc2 = dense("fc2", 500, 10)

            def forward(self, x):
                x = F.max_pool2d(F.relu(self.b1(self.c1(x))), 2, 2, 0)
                x = F.max_pool2d(F.relu(self.b2(self.c2(x))), 2, 2, 0)
                x = F.relu(self.fc1(x.reshape(x.size(0), -1)))  # NCHW order, as ordo's Flatten
                return self.fc2(x)

        return LeNet(), names

    if name.startswith("resnet"):
        depth = int(name[len("resnet"):])
        if depth < 8 or (depth - 2) % 6 != 0:
            raise SystemExit(f"a CIFAR ResNet's depth is 6n+2, not {depth}")
        n = (depth - 2) // 6

        class Unit(nn.Module):
            def __init__(self, prefix, cin, width, stride):
                super().__init__()
                self.c1, self.b1 = conv_bn(prefix + ".conv1", cin, width, 3, stride, 1)
                self.c2, self.b2 = conv_bn(prefix + ".conv2", width, width, 3, 1, 1)
                self.stride = stride
                self.pad = width - cin  # He et al.'s option A: subsample, zero channels

            def forward(self, x):
                y = self.b2(self.c2(F.relu(self.b1(self.c1(x)))))
                s = x
                if self.stride != 1 or self.pad != 0:
                    s = F.pad(x[:, :, :: self.stride, :: self.stride], (0, 0, 0, 0, 0, self.pad))
                return F.relu(y + s)

        class ResNet(nn.Module):
            def __init__(self):
                super().__init__()
                self.c0, self.b0 = conv_bn("conv0", 1, 16, 3, 1, 1)
                units, cin = [], 16
                for s in range(3):
                    width = 16 << s
                    for i in range(n):
                        stride = 2 if (s > 0 and i == 0) else 1
                        units.append(Unit(f"stage{s + 1}.unit{i + 1}", cin, width, stride))
                        cin = width
                self.units = nn.Sequential(*units)
                self.fc = dense("fc", cin, 10)

            def forward(self, x):
                x = self.units(F.relu(self.b0(self.c0(x))))
                # ordo's kernel: F.adaptive_avg_pool2d(x, 1) takes x.mean((-2, -1)) instead,
                # the same average summed in another order (the losses part at the last bit
                # after one step, and a ResNet at this learning rate amplifies that to percents).
                x = torch.ops.aten._adaptive_avg_pool2d(x, [1, 1])
                return self.fc(x.reshape(x.size(0), -1))

        return ResNet(), names

    raise SystemExit(f"unknown network '{name}': lenet or resnetN")


def load_init(path, names, torch):
    """Copies ordo's initial weights into the parameters, by name; every parameter must get one
    and every weight of the file must be used, with the same shape."""
    header, arrays = ordo_compat.read_checkpoint(path)
    weights = {}
    for name, group, shape, raw in arrays:
        if group == "weight":
            t = torch.frombuffer(bytearray(raw), dtype=torch.float32).reshape(shape)
            weights[name] = t
    if set(weights) != set(names):
        raise SystemExit(
            f"{path}: the weights {sorted(set(weights) ^ set(names))} are in only one of the "
            "checkpoint and this network")
    with torch.no_grad():
        for name, param in names.items():
            if list(param.shape) != list(weights[name].shape):
                raise SystemExit(f"{path}: {name} has shape {list(weights[name].shape)}, "
                                 f"the network's is {list(param.shape)}")
            param.copy_(weights[name])
    return header


def learning_rate(args, step, steps_per_epoch):
    """ordo's LrSchedule: linear warm-up, then the factor once per milestone passed."""
    if step < args.warmup:
        return args.lr * (step + 1) / args.warmup
    lr = args.lr
    for e in filter(None, args.lr_decay_epochs.split(",")):
        if step >= int(e) * steps_per_epoch:
            lr *= args.lr_factor
    return lr


def read_set(data_dir, train, first, np, torch):
    images_path, labels_path = ordo_compat.fashion_mnist_paths(data_dir, train)
    dims, pixels = ordo_compat.read_idx(images_path)
    _, labels = ordo_compat.read_idx(labels_path)
    x = np.frombuffer(pixels, dtype=np.uint8).reshape(dims[0], 1, dims[1], dims[2])
    y = np.frombuffer(labels, dtype=np.uint8).astype(np.int64)
    if first:
        x, y = x[:first], y[:first]
    # ordo's normalisation, in float32 step by step: (p / 255 - mean) / std.
    xf = (x.astype(np.float32) / np.float32(255.0) - np.float32(ordo_compat.PIXEL_MEAN)) / (
        np.float32(ordo_compat.PIXEL_STD))
    return torch.from_numpy(np.ascontiguousarray(xf)), torch.from_numpy(y)


def rank_main(rank, world, args):
    set_threads(args.threads)
    import numpy as np
    import torch
    import torch.distributed as dist
    import torch.nn as nn
    from torch.nn.parallel import DistributedDataParallel as DDP

    torch.set_num_threads(args.threads)
    blas = ctypes.CDLL(None)
    if hasattr(blas, "openblas_set_num_threads"):
        blas.openblas_set_num_threads(args.threads)
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", str(args.port))
    dist.init_process_group("gloo", rank=rank, world_size=world)

    model, names = build_network(args.network, nn, torch)
    header = load_init(args.init, names, torch)
    ddp = DDP(model, broadcast_buffers=False)
    params = list(names.values())  # ordo's key order; one group, as ordo updates every key alike
    opt = torch.optim.SGD(params, lr=args.lr, momentum=args.momentum,
                          weight_decay=args.weight_decay)
    loss_fn = nn.CrossEntropyLoss()

    x_train, y_train = read_set(args.data_dir, True, args.train_images, np, torch)
    x_test, y_test = read_set(args.data_dir, False, args.test_images, np, torch)
    count = x_train.shape[0]
    steps_per_epoch = ordo_compat.shard_size(count, world) // args.batch
    if steps_per_epoch == 0:
        raise SystemExit("a shard gives no full batch")
    steps_total = args.epochs * steps_per_epoch
    if args.steps_max:
        steps_total = min(steps_total, args.steps_max)

    metrics = open(args.metrics, "w") if (rank == 0 and args.metrics) else None

    def emit(event):
        if metrics:
            metrics.write(json.dumps(event) + "\n")
            metrics.flush()

    if rank == 0:
        emit({"event": "start", "framework": "pytorch-ddp", "torch": torch.__version__,
              "backend": "gloo", "ranks": world, "threads": args.threads,
              "network": args.network, "init": os.path.basename(args.init),
              "init_network": header.get("network"), "batch": args.batch})

    step = 0
    seconds = 0.0
    images = 0
    for epoch in range(args.epochs):
        if step >= steps_total:
            break
        order = torch.tensor(ordo_compat.epoch_shard(count, rank, world, args.seed, epoch),
                             dtype=torch.int64)
        ddp.train()
        s = 0
        loss_sum, right, seen = 0.0, 0, 0
        while s < steps_per_epoch and step < steps_total:
            t0 = time.perf_counter()
            idx = order[s * args.batch:(s + 1) * args.batch]
            x = x_train.index_select(0, idx)
            y = y_train.index_select(0, idx)
            for g in opt.param_groups:
                g["lr"] = learning_rate(args, step, steps_per_epoch)
            opt.zero_grad(set_to_none=True)
            out = ddp(x)
            loss = loss_fn(out, y)
            loss.backward()
            opt.step()
            loss_value = loss.item()
            seconds += time.perf_counter() - t0
            images += args.batch
            right += int((out.detach().argmax(1) == y).sum())
            loss_sum += loss_value * args.batch
            seen += args.batch
            step += 1
            s += 1
            emit({"event": "step", "epoch": epoch + 1, "step": step, "step_in_epoch": s,
                  "loss": loss_value, "seconds": seconds,
                  "images_per_s": images * world / seconds if seconds > 0 else 0.0})
        acc = None
        if not args.no_eval:
            model.eval()
            correct = 0
            with torch.no_grad():
                for at in range(0, x_test.shape[0], 500):
                    out = model(x_test[at:at + 500])
                    correct += int((out.argmax(1) == y_test[at:at + 500]).sum())
            acc = correct / x_test.shape[0]
            model.train()
        emit({"event": "epoch", "epoch": epoch + 1, "train_loss_rank0": loss_sum / max(seen, 1),
              "train_accuracy_rank0": right / max(seen, 1), "test_accuracy": acc,
              "seconds": seconds})
    images_per_s = images * world / seconds if seconds > 0 else 0.0
    if rank == 0:
        emit({"event": "summary", "steps": step, "seconds": seconds, "images_per_s": images_per_s,
              "test_accuracy": acc})
        print(f"ddp: trained {step} steps of {args.batch} x {world} images in {seconds:.3f} s: "
              f"{images_per_s:.1f} images/s" + (f", test accuracy {acc:.4f}" if acc is not None
                                                else ""), flush=True)
    if metrics:
        metrics.close()
    dist.destroy_process_group()


def spawned(rank, world, args):
    rank_main(rank, world, args)


def main():
    args = parse_args()
    if args.ranks:
        set_threads(args.threads)
        import torch.multiprocessing as mp

        mp.spawn(spawned, args=(args.ranks, args), nprocs=args.ranks, join=True)
    else:
        rank_main(int(os.environ.get("RANK", "0")), int(os.environ.get("WORLD_SIZE", "1")), args)


if __name__ == "__main__":
    main()
