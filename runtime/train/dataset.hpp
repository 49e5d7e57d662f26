// Where the trainer's batches come from: a set of labelled examples that turns the indices of a
// batch into the tensors the network takes. The data ops call it on the data pool (prefetch), or
// the main thread between steps; either way one call per batch, so implementations may keep
// caches but must not depend on being called from one thread.
//
// A batch's random augmentation (if any) is seeded by (the run's seed, the step), never by a
// generator carried from batch to batch: so a resumed run draws the very crops and flips the
// unbroken run drew, and a checkpoint needs no generator state beyond the step.
#pragma once

#include <ATen/core/Tensor.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/data/labelled_images.hpp"

namespace ordo::train {

struct Batch {
  at::Tensor images;  // [count, ...shape()], float
  at::Tensor labels;  // [count], int64
};

class Dataset {
 public:
  virtual ~Dataset() = default;
  virtual std::uint32_t size() const = 0;
  virtual std::uint32_t classes() const = 0;
  // One example's shape as the batch holds it, e.g. {1, 28, 28} or {3, 224, 224}.
  virtual std::vector<std::uint32_t> shape() const = 0;
  // The examples `indices[0..count)`; `seed` draws their augmentation where there is one.
  virtual Batch batch(const std::uint32_t* indices, std::size_t count,
                      std::uint64_t seed) const = 0;
  virtual std::string describe() const = 0;
};

// Grey images of one channel (Fashion-MNIST), scaled to [0, 1] and normalised by the set's mean
// and standard deviation; no augmentation.
std::unique_ptr<Dataset> grey_images(data::LabelledImages set, float mean, float std);
// Fashion-MNIST's normalisation (its training set's pixel mean and standard deviation).
std::unique_ptr<Dataset> fashion_mnist(data::LabelledImages set);

// `count` examples of `shape` for throughput runs: a fixed pool of random images made once in
// memory (from `seed`), so a batch costs a copy and no decoding; labels are the index modulo
// `classes`. Nothing to learn: a run on it measures speed, not accuracy.
std::unique_ptr<Dataset> random_tensors(std::uint32_t count, std::vector<std::uint32_t> shape,
                                        std::uint32_t classes, std::uint64_t seed);

}  // namespace ordo::train
