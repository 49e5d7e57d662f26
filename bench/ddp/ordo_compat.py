"""What the PyTorch DDP baseline must reproduce of ordo exactly, without torch: the epoch shard
(runtime/data/shard.cpp over runtime/random/split_mix64.hpp), the checkpoint format
(runtime/checkpoint/checkpoint_file.hpp) and Fashion-MNIST's IDX files with ordo's
normalisation (runtime/train/train_run.cpp).

`python3 ordo_compat.py` checks the shard against the permutation ordo's tests pin.
"""

import gzip
import json
import os
import struct
import zlib

MASK64 = (1 << 64) - 1


class SplitMix64:
    def __init__(self, seed):
        self.state = seed & MASK64

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, bound):
        """Uniform in [0, bound), rejecting draws past the largest multiple of bound."""
        if bound == 0:
            raise ValueError("SplitMix64.below(0)")
        limit = MASK64 - MASK64 % bound
        draw = self.next()
        while draw >= limit:
            draw = self.next()
        return draw % bound


def shard_size(count, ranks):
    if ranks == 0:
        raise ValueError("a shard of a set over 0 ranks")
    return count // ranks


def epoch_shard(count, rank, ranks, seed, epoch):
    """The indices `rank` trains on in `epoch`, in order: a Fisher-Yates permutation of the whole
    set from (seed, epoch), dealt round-robin; the remainder sits the epoch out."""
    size = shard_size(count, ranks)
    if rank >= ranks:
        raise ValueError(f"rank {rank} of {ranks}")
    order = list(range(count))
    rng = SplitMix64(seed ^ ((epoch * 0xD1342543DE82EF95 + 1) & MASK64))
    for i in range(count, 1, -1):
        j = rng.below(i)
        order[i - 1], order[j] = order[j], order[i - 1]
    return [order[k * ranks + rank] for k in range(size)]


CKPT_MAGIC = b"ORDOCKPT"
CKPT_VERSION = 2


def read_checkpoint(path):
    """(header dict, list of (name, group, shape, bytes of little-endian f32)) of an ordo
    checkpoint; raises ValueError for a file that is not one, torn or altered."""
    with open(path, "rb") as f:
        data = f.read()
    prefix = 8 + 4 + 8
    if len(data) < prefix + 4 or data[:8] != CKPT_MAGIC:
        raise ValueError(f"{path}: not an ordo checkpoint")
    (version,) = struct.unpack_from("<I", data, 8)
    if version != CKPT_VERSION:
        raise ValueError(f"{path}: checkpoint format version {version}, expected {CKPT_VERSION}")
    (crc,) = struct.unpack_from("<I", data, len(data) - 4)
    if zlib.crc32(data[:-4]) != crc:
        raise ValueError(f"{path}: checksum does not match (torn or altered)")
    (header_len,) = struct.unpack_from("<Q", data, 12)
    header = json.loads(data[prefix : prefix + header_len].decode("utf-8"))
    at = prefix + header_len
    arrays = []
    for a in header["arrays"]:
        n = 1
        for d in a["shape"]:
            n *= d
        arrays.append((a["name"], a["group"], list(a["shape"]), data[at : at + 4 * n]))
        at += 4 * n
    if at != len(data) - 4:
        raise ValueError(f"{path}: the arrays do not fill the file")
    return header, arrays


# ordo's normalisation: Fashion-MNIST's pixel mean and standard deviation over the training set.
PIXEL_MEAN = 0.2860
PIXEL_STD = 0.3530


def read_idx(path):
    """An IDX file (gzip or plain) as (dims, raw bytes)."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        data = f.read()
    if len(data) < 4 or data[0] != 0 or data[1] != 0 or data[2] != 0x08:
        raise ValueError(f"{path}: not an IDX file of unsigned bytes")
    ndim = data[3]
    dims = struct.unpack_from(">" + "I" * ndim, data, 4)
    return list(dims), data[4 + 4 * ndim :]


def fashion_mnist_paths(data_dir, train):
    stem = "train" if train else "t10k"
    out = []
    for kind in ("images-idx3-ubyte", "labels-idx1-ubyte"):
        p = os.path.join(data_dir, f"{stem}-{kind}.gz")
        if not os.path.exists(p):
            p = os.path.join(data_dir, f"{stem}-{kind}")
        out.append(p)
    return out


def _self_test():
    # tests/data/shard_test.cpp pins this permutation.
    got = epoch_shard(8, 0, 1, 1, 0)
    want = [2, 5, 0, 3, 4, 6, 1, 7]
    assert got == want, f"epoch_shard(8, 0, 1, 1, 0) = {got}, ordo's is {want}"
    ranks = 3
    seen = sorted(i for r in range(ranks) for i in epoch_shard(100, r, ranks, 42, 3))
    assert len(seen) == 99 and len(set(seen)) == 99, "the ranks' shards overlap"
    print("ordo_compat: epoch_shard matches ordo's pinned permutation")


if __name__ == "__main__":
    _self_test()
