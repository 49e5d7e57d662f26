#include "runtime/train/dataset.hpp"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/stack.h>

#include <stdexcept>

namespace ordo::train {

namespace {

std::vector<std::int64_t> batch_shape(std::size_t count, const std::vector<std::uint32_t>& shape) {
  std::vector<std::int64_t> out = {static_cast<std::int64_t>(count)};
  for (std::uint32_t d : shape) out.push_back(d);
  return out;
}

class GreyImages final : public Dataset {
 public:
  GreyImages(data::LabelledImages set, float mean, float std)
      : set_(std::move(set)), mean_(mean), std_(std) {}
  std::uint32_t size() const override { return set_.count; }
  std::uint32_t classes() const override { return set_.classes; }
  std::vector<std::uint32_t> shape() const override { return {1, set_.rows, set_.cols}; }
  std::string describe() const override {
    return std::to_string(set_.count) + " grey images of " + std::to_string(set_.rows) + "x" +
           std::to_string(set_.cols);
  }
  Batch batch(const std::uint32_t* indices, std::size_t count, std::uint64_t) const override {
    Batch b;
    b.images = at::empty(batch_shape(count, shape()), at::kFloat);
    b.labels = at::empty({static_cast<std::int64_t>(count)}, at::kLong);
    const std::size_t pixels = std::size_t{set_.rows} * set_.cols;
    float* x = b.images.data_ptr<float>();
    std::int64_t* y = b.labels.data_ptr<std::int64_t>();
    for (std::size_t i = 0; i < count; ++i) {
      if (indices[i] >= set_.count) throw std::out_of_range("example index past the set");
      const std::uint8_t* src = set_.pixels.data() + std::size_t{indices[i]} * pixels;
      for (std::size_t p = 0; p < pixels; ++p) {
        x[i * pixels + p] = (static_cast<float>(src[p]) / 255.0f - mean_) / std_;
      }
      y[i] = set_.labels[indices[i]];
    }
    return b;
  }

 private:
  data::LabelledImages set_;
  float mean_;
  float std_;
};

class RandomTensors final : public Dataset {
 public:
  RandomTensors(std::uint32_t count, std::vector<std::uint32_t> shape, std::uint32_t classes,
                std::uint64_t seed)
      : count_(count), shape_(std::move(shape)), classes_(classes) {
    if (count_ == 0 || classes_ == 0) {
      throw std::invalid_argument("synthetic images need examples and classes");
    }
    at::Generator gen = at::detail::createCPUGenerator(seed);
    pool_ = at::randn(batch_shape(pool_size, shape_), gen, at::kFloat);
  }
  std::uint32_t size() const override { return count_; }
  std::uint32_t classes() const override { return classes_; }
  std::vector<std::uint32_t> shape() const override { return shape_; }
  std::string describe() const override {
    std::string s = std::to_string(count_) + " synthetic examples of ";
    for (std::size_t i = 0; i < shape_.size(); ++i) s += (i ? "x" : "") + std::to_string(shape_[i]);
    return s;
  }
  Batch batch(const std::uint32_t* indices, std::size_t count, std::uint64_t) const override {
    std::vector<at::Tensor> rows;
    Batch b;
    b.labels = at::empty({static_cast<std::int64_t>(count)}, at::kLong);
    for (std::size_t i = 0; i < count; ++i) {
      rows.push_back(pool_[indices[i] % pool_size]);
      b.labels.data_ptr<std::int64_t>()[i] = indices[i] % classes_;
    }
    b.images = at::stack(rows);
    return b;
  }

 private:
  // Enough distinct images that a batch is not one image repeated; few enough to stay in cache.
  static constexpr std::int64_t pool_size = 64;
  std::uint32_t count_;
  std::vector<std::uint32_t> shape_;
  std::uint32_t classes_;
  at::Tensor pool_;
};

}  // namespace

std::unique_ptr<Dataset> grey_images(data::LabelledImages set, float mean, float std) {
  return std::make_unique<GreyImages>(std::move(set), mean, std);
}

std::unique_ptr<Dataset> fashion_mnist(data::LabelledImages set) {
  // Fashion-MNIST's training set: pixel mean and standard deviation, scaled to [0, 1].
  return grey_images(std::move(set), 0.2860f, 0.3530f);
}

std::unique_ptr<Dataset> random_tensors(std::uint32_t count, std::vector<std::uint32_t> shape,
                                        std::uint32_t classes, std::uint64_t seed) {
  return std::make_unique<RandomTensors>(count, std::move(shape), classes, seed);
}

}  // namespace ordo::train
