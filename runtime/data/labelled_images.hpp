// An image classification set held in memory: images of one shape as unsigned bytes, one label
// each. Read from a pair of IDX files (the MNIST family's layout); Fashion-MNIST is read from
// where Debian's dataset-fashion-mnist package installs it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ordo::data {

struct LabelledImages {
  std::uint32_t count = 0;
  std::uint32_t rows = 0;
  std::uint32_t cols = 0;
  std::uint32_t classes = 0;
  std::vector<std::uint8_t> pixels;  // count * rows * cols, image by image, row-major
  std::vector<std::uint8_t> labels;  // count, each below classes
};

// Throws DataError naming the file (and the record, for a label out of range) unless the images
// are a [count, rows, cols] array, the labels a [count] array of the same count, count is not
// zero and every label is below `classes`.
LabelledImages read_labelled_images(const std::string& images_path, const std::string& labels_path,
                                    std::uint32_t classes);

// The first `count` examples of `set` (all of it when count is 0 or not below its size). Only those
// examples are copied; a whole set given up is moved.
LabelledImages first_examples(const LabelledImages& set, std::uint32_t count);
LabelledImages first_examples(LabelledImages&& set, std::uint32_t count);

// Where Debian's dataset-fashion-mnist installs its files.
inline constexpr const char* fashion_mnist_dir_default = "/usr/share/datasets/fashion-mnist";
inline constexpr std::uint32_t fashion_mnist_classes = 10;

// The training (60,000) or test (10,000) half of Fashion-MNIST from `dir`.
LabelledImages read_fashion_mnist(const std::string& dir, bool train);
// The names of the files it reads there: images and labels of each half.
std::vector<std::string> fashion_mnist_files();

}  // namespace ordo::data
