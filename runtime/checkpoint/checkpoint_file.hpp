// One rank's training state after a step, as a file: everything a resumed run needs to take
// exactly the steps an uninterrupted run would (weights, momenta, batch norm's per-rank running
// statistics, the step, and where the data order stands), so that its final weights are equal
// bit for bit; and the epoch's figures so far, so that it reports the epoch's train loss and
// accuracy as the uninterrupted run does.
//
// The data order needs no stored permutation: every epoch's shuffle is a pure function of the
// seed, the epoch, the rank and the world size (data/shard.hpp), so those four and the position
// in the epoch are the data order and the state of its random generator.
//
// Layout (little-endian): "ORDOCKPT", u32 format version, u64 header length, the header (JSON:
// the fields below and, per array, its name, group and shape), every array's values as f32 in the
// header's order, and a CRC-32 of all the bytes before it. A torn or altered file fails the
// checksum; a file that passes is still checked field by field, since a checksum proves nothing
// against a file made to pass it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ordo::checkpoint {

// 2: the epoch's sums (version 1 had none, and a run resumed from it reported only its own steps).
inline constexpr std::uint32_t format_version = 2;

struct Array {
  std::string name;
  std::string group;  // "weight", "momentum" or "buffer"
  std::vector<std::int64_t> shape;
  std::vector<float> values;  // the product of the shape's dimensions
  friend bool operator==(const Array&, const Array&) = default;
};

// This rank's figures over the steps of the epoch before `step_in_epoch`, which the epoch's
// train loss and accuracy are summed from at its end (zero at an epoch's start).
struct EpochSums {
  double loss = 0.0;          // every step's loss times its batch
  std::uint64_t correct = 0;  // right answers
  std::uint64_t images = 0;
  friend bool operator==(const EpochSums&, const EpochSums&) = default;
};

struct Checkpoint {
  std::string network;
  std::string design;  // the design that wrote it, which a resume must run (train_checkpoints.hpp)
  std::uint32_t world_size = 1;
  std::uint32_t rank = 0;
  std::uint64_t seed = 0;
  std::uint32_t batch = 0;  // per rank
  std::uint64_t step = 0;   // steps taken
  std::uint32_t epoch = 0;  // the epoch the next step belongs to
  std::uint32_t step_in_epoch = 0;
  EpochSums epoch_sums;
  std::vector<Array> arrays;
  friend bool operator==(const Checkpoint&, const Checkpoint&) = default;
};

// Throws std::invalid_argument for an array whose values do not fill its shape, or a group
// other than the three.
std::string encode(const Checkpoint& checkpoint);
// Throws CheckpointError naming `source` and the byte offset or field at fault.
Checkpoint decode(std::string_view bytes, const std::string& source);

// write_file_atomically (io/atomic_file.hpp) of encode(): the previous file stays whole until
// the new one is. Throws what they throw.
void write(const std::string& path, const Checkpoint& checkpoint);
// Throws CheckpointError when the file cannot be read or does not decode.
Checkpoint read(const std::string& path);

}  // namespace ordo::checkpoint
