#include "runtime/data/labelled_images.hpp"

#include <utility>

#include "runtime/data/data_error.hpp"
#include "runtime/data/idx.hpp"

namespace ordo::data {

namespace {

std::string shape(const std::vector<std::uint32_t>& dims) {
  std::string s = "[";
  for (std::size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "]";
}

}  // namespace

LabelledImages read_labelled_images(const std::string& images_path, const std::string& labels_path,
                                    std::uint32_t classes) {
  IdxArray images = read_idx_file(images_path);
  if (images.dims.size() != 3) {
    throw DataError(images_path, "an image array of shape " + shape(images.dims),
                    "3 dimensions: [images, rows, columns]");
  }
  IdxArray labels = read_idx_file(labels_path);
  if (labels.dims.size() != 1) {
    throw DataError(labels_path, "a label array of shape " + shape(labels.dims),
                    "1 dimension: [labels]");
  }
  if (labels.dims[0] != images.dims[0]) {
    throw DataError(labels_path,
                    std::to_string(labels.dims[0]) + " labels for " +
                        std::to_string(images.dims[0]) + " images in " + images_path,
                    "one label per image");
  }
  if (images.dims[0] == 0 || images.dims[1] == 0 || images.dims[2] == 0) {
    throw DataError(images_path, "no pixels: shape " + shape(images.dims),
                    "at least one image of at least one pixel");
  }
  for (std::size_t i = 0; i < labels.values.size(); ++i) {
    if (labels.values[i] >= classes) {
      throw DataError(labels_path + ": record " + std::to_string(i),
                      "label " + std::to_string(labels.values[i]),
                      "a label below " + std::to_string(classes));
    }
  }
  LabelledImages set;
  set.count = images.dims[0];
  set.rows = images.dims[1];
  set.cols = images.dims[2];
  set.classes = classes;
  set.pixels = std::move(images.values);
  set.labels = std::move(labels.values);
  return set;
}

LabelledImages first_examples(const LabelledImages& set, std::uint32_t count) {
  if (count == 0 || count >= set.count) return set;
  LabelledImages first;
  first.count = count;
  first.rows = set.rows;
  first.cols = set.cols;
  first.classes = set.classes;
  const std::size_t pixels = std::size_t{count} * set.rows * set.cols;
  first.pixels.assign(set.pixels.begin(), set.pixels.begin() + static_cast<std::ptrdiff_t>(pixels));
  first.labels.assign(set.labels.begin(), set.labels.begin() + count);
  return first;
}

LabelledImages first_examples(LabelledImages&& set, std::uint32_t count) {
  if (count == 0 || count >= set.count) return std::move(set);
  return first_examples(std::as_const(set), count);
}

namespace {

// The file names of one half: images, then labels.
std::vector<std::string> fashion_mnist_half(bool train) {
  const std::string half = train ? "train" : "t10k";
  return {half + "-images-idx3-ubyte.gz", half + "-labels-idx1-ubyte.gz"};
}

}  // namespace

LabelledImages read_fashion_mnist(const std::string& dir, bool train) {
  const std::vector<std::string> names = fashion_mnist_half(train);
  return read_labelled_images(dir + "/" + names[0], dir + "/" + names[1], fashion_mnist_classes);
}

std::vector<std::string> fashion_mnist_files() {
  std::vector<std::string> names = fashion_mnist_half(true);
  for (std::string& name : fashion_mnist_half(false)) names.push_back(std::move(name));
  return names;
}

}  // namespace ordo::data
