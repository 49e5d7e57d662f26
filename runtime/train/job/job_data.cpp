#include "runtime/train/job/job_data.hpp"

#include <stdexcept>

#include "runtime/data/image_rec.hpp"
#include "runtime/data/labelled_images.hpp"
#include "runtime/train/record_dataset.hpp"

namespace ordo::train {

namespace {

constexpr std::uint32_t synthetic_count_default = 8192;
constexpr std::uint32_t imagenet_classes = 1000;
// The halves of an imagenet folder, each a RecordIO set: DIR/train.rec and .idx, DIR/val.*.
constexpr const char* imagenet_train = "train";
constexpr const char* imagenet_val = "val";

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

std::string data_dir(const TrainDataOptions& o) {
  if (o.kind == "fashion-mnist") return o.dir.empty() ? data::fashion_mnist_dir_default : o.dir;
  if (o.kind == "imagenet") return o.dir.empty() ? "." : o.dir;
  return {};
}

std::vector<std::string> data_file_names(const TrainDataOptions& o) {
  if (o.kind == "fashion-mnist") return data::fashion_mnist_files();
  std::vector<std::string> names;
  if (o.kind == "imagenet") {
    for (const char* half : {imagenet_train, imagenet_val}) {
      for (std::string& name : data::image_rec_files(half)) names.push_back(std::move(name));
    }
  }
  return names;
}

TrainData load_train_data(const TrainDataOptions& o, const std::vector<std::uint32_t>& input) {
  TrainData d;
  const DataShape shape = data_shape(o);
  if (o.kind == "fashion-mnist") {
    if (shape.classes != data::fashion_mnist_classes) {
      throw std::invalid_argument("Fashion-MNIST has 10 classes, not " +
                                  std::to_string(shape.classes));
    }
    d.train = fashion_mnist(
        data::first_examples(data::read_fashion_mnist(data_dir(o), true), o.train_images));
    d.test = fashion_mnist(
        data::first_examples(data::read_fashion_mnist(data_dir(o), false), o.test_images));
  } else if (o.kind == "imagenet") {
    const std::string dir = data_dir(o) + "/";
    d.train =
        record_images(dir + imagenet_train, shape.classes, true, o.image_size, o.train_images);
    d.test = record_images(dir + imagenet_val, shape.classes, false, o.image_size, o.test_images);
  } else {
    d.train = random_tensors(o.train_images != 0 ? o.train_images : synthetic_count_default, input,
                             shape.classes, o.seed);
  }
  return d;
}

}  // namespace ordo::train
