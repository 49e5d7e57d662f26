#include "tools/ordo/train_data.hpp"

#include <stdexcept>

#include "runtime/data/labelled_images.hpp"

namespace ordo::tools {

namespace {

constexpr std::uint32_t synthetic_images_default = 8192;
constexpr std::uint32_t synthetic_classes_default = 1000;  // ImageNet's

}  // namespace

DataShape data_shape(const TrainDataOptions& o) {
  if (o.kind == "fashion-mnist") {
    return {{1, 28, 28}, o.classes != 0 ? o.classes : data::fashion_mnist_classes};
  }
  if (o.kind == "synthetic") return {{}, o.classes != 0 ? o.classes : synthetic_classes_default};
  throw std::invalid_argument("unknown data '" + o.kind + "'; expected fashion-mnist or synthetic");
}

TrainData load_train_data(const TrainDataOptions& o, const std::vector<std::uint32_t>& input) {
  TrainData d;
  const DataShape shape = data_shape(o);
  if (o.kind == "fashion-mnist") {
    if (shape.classes != data::fashion_mnist_classes) {
      throw std::invalid_argument("Fashion-MNIST has 10 classes, not " +
                                  std::to_string(shape.classes));
    }
    d.train = train::fashion_mnist(
        data::first_examples(data::read_fashion_mnist(o.dir, true), o.train_images));
    d.test = train::fashion_mnist(
        data::first_examples(data::read_fashion_mnist(o.dir, false), o.test_images));
  } else {
    d.train =
        train::synthetic_images(o.train_images != 0 ? o.train_images : synthetic_images_default,
                                input, shape.classes, o.seed);
  }
  return d;
}

}  // namespace ordo::tools
