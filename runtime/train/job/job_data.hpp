// The data `ordo train --data NAME` trains on, and what it tells the network builder: the shape
// of one example and the number of classes.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/train/dataset.hpp"

namespace ordo::train {

struct TrainDataOptions {
  std::string kind = "fashion-mnist";  // fashion-mnist, imagenet or synthetic
  std::string dir;  // fashion-mnist: its IDX files; imagenet: train.rec/.idx and val.rec/.idx
  std::uint32_t image_size = 224;  // imagenet: the side of the crops
  std::uint32_t train_images = 0;  // 0: all (synthetic: 8192)
  std::uint32_t test_images = 0;   // 0: all
  std::uint32_t classes = 0;       // 0: the data's (imagenet and synthetic: 1000)
  std::uint64_t seed = 1;
};

// What the network must take: one example's shape (empty: the network's own default, for data
// that has no shape of its own) and the classes. Throws std::invalid_argument for an unknown kind.
struct DataShape {
  std::vector<std::uint32_t> example;
  std::uint32_t classes = 0;
};
DataShape data_shape(const TrainDataOptions& o);

struct TrainData {
  std::unique_ptr<Dataset> train;
  std::unique_ptr<Dataset> test;  // null: no test set (synthetic data)
};
// The folder the data is read from, the default of its kind where none is given (Debian's
// Fashion-MNIST, imagenet's "."); empty for synthetic data, which reads none.
std::string data_dir(const TrainDataOptions& o);
// The files the data is read from in that folder, by name.
std::vector<std::string> data_file_names(const TrainDataOptions& o);

// Reads or makes the data; `input` is the network's input shape. Throws data::DataError for bad
// files.
TrainData load_train_data(const TrainDataOptions& o, const std::vector<std::uint32_t>& input);

}  // namespace ordo::train
