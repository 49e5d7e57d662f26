#include "runtime/train/job/job_data.hpp"

#include <stdexcept>

#include "runtime/data/labelled_images.hpp"
#include "runtime/train/record_dataset.hpp"

namespace ordo::train {

namespace {

constexpr std::uint32_t synthetic_count_default = 8192;
constexpr std::uint32_t imagenet_classes = 1000;

}  // namespace

DataShape data_shape(const TrainDataOptions& o) {
  if (o.kind == "fashion-mnist") {
    return {{1, 28, 28}, o.classes != 0 ? o.classes : data::fashion_mnist_classes};
  }
  if (o.kind == "imagenet") {
    return {{3, o.image_size, o.image_size}, o.classes != 0 ? o.classes : imagenet_classes};
  }
  if (o.kind == "synthetic") return {{}, o.classes != 0 ? o.classes : imagenet_classes};
  throw std::invalid_argument("unknown data '" + o.kind +
                              "'; expected fashion-mnist, imagenet or synthetic");
}

TrainData load_train_data(const TrainDataOptions& o, const std::vector<std::uint32_t>& input) {
  TrainData d;
  const DataShape shape = data_shape(o);
  if (o.kind == "fashion-mnist") {
    if (shape.classes != data::fashion_mnist_classes) {
      throw std::invalid_argument("Fashion-MNIST has 10 classes, not " +
                                  std::to_string(shape.classes));
    }
    d.train =
        fashion_mnist(data::first_examples(data::read_fashion_mnist(o.dir, true), o.train_images));
    d.test =
        fashion_mnist(data::first_examples(data::read_fashion_mnist(o.dir, false), o.test_images));
  } else if (o.kind == "imagenet") {
    const std::string dir = o.dir.empty() ? "." : o.dir;
    d.train = record_images(dir + "/train", shape.classes, true, o.image_size, o.train_images);
    d.test = record_images(dir + "/val", shape.classes, false, o.image_size, o.test_images);
  } else {
    d.train = random_tensors(o.train_images != 0 ? o.train_images : synthetic_count_default, input,
                             shape.classes, o.seed);
  }
  return d;
}

}  // namespace ordo::train
