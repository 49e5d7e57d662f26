#include "runtime/train/record_dataset.hpp"

#include <ATen/ops/empty.h>
#include <ATen/ops/stack.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "runtime/data/image_rec.hpp"
#include "runtime/random/split_mix64.hpp"
#include "runtime/train/model/image_transforms.hpp"

namespace ordo::train {

namespace {

class RecordImages final : public Dataset {
 public:
  RecordImages(const std::string& prefix, std::uint32_t classes, bool training, std::uint32_t size,
               std::uint32_t first)
      : prefix_(prefix), rec_(prefix, classes), training_(training), size_(size) {
    count_ = static_cast<std::uint32_t>(first == 0 ? rec_.size()
                                                   : std::min<std::size_t>(first, rec_.size()));
    if (count_ == 0) throw std::invalid_argument("'" + prefix + ".rec' holds no images");
    // The resize to 256 before a 224 crop, scaled for other sizes as the same proportion.
    resize_ = static_cast<std::int64_t>(size_) * 256 / 224;
  }
  std::uint32_t size() const override { return count_; }
  std::uint32_t classes() const override { return rec_.classes(); }
  std::vector<std::uint32_t> shape() const override { return {3, size_, size_}; }
  std::string describe() const override {
    return std::to_string(count_) + " images of " + prefix_ + ".rec, " + std::to_string(size_) +
           "x" + std::to_string(size_) + (training_ ? " augmented" : " centre-cropped");
  }
  Batch batch(const std::uint32_t* indices, std::size_t count, std::uint64_t seed) const override {
    std::vector<at::Tensor> images;
    Batch b;
    b.labels = at::empty({static_cast<std::int64_t>(count)}, at::kLong);
    for (std::size_t i = 0; i < count; ++i) {
      if (indices[i] >= count_) throw std::out_of_range("example index past the set");
      const data::LabelledImage example = rec_.read(indices[i]);
      if (training_) {
        // Each example's own generator: its crop does not depend on the others' draws.
        random::SplitMix64 rng(seed ^ (0xbf58476d1ce4e5b9ULL * (i + 1)));
        images.push_back(train_transform(example.image, rng, size_));
      } else {
        images.push_back(val_transform(example.image, resize_, size_));
      }
      b.labels.data_ptr<std::int64_t>()[i] = example.label;
    }
    b.images = at::stack(images);
    return b;
  }

 private:
  std::string prefix_;
  data::ImageRec rec_;
  bool training_;
  std::uint32_t size_;
  std::uint32_t count_ = 0;
  std::int64_t resize_ = 256;
};

}  // namespace

std::unique_ptr<Dataset> record_images(const std::string& prefix, std::uint32_t classes,
                                       bool training, std::uint32_t size, std::uint32_t first) {
  return std::make_unique<RecordImages>(prefix, classes, training, size, first);
}

}  // namespace ordo::train
