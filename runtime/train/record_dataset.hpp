// An ImageNet-style set packed in MXNet's RecordIO (runtime/data/image_rec.hpp) as a Dataset:
// each batch's JPEGs are read and decoded on the calling thread (the data pool's, with
// prefetch, so decoding overlaps the step before) and transformed as ImageNet training does
// (a random resized crop and flip, from the batch's seed and each example's place in the batch)
// or as it validates (resize and centre crop).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "runtime/train/dataset.hpp"

namespace ordo::train {

// PREFIX.rec and PREFIX.idx; `classes` bounds every label; images come out size x size.
// `first` keeps only the first N records (0: all). Throws data::DataError for files that do not
// open or index, and later from batch() for a record or JPEG that does not read, naming it.
std::unique_ptr<Dataset> record_images(const std::string& prefix, std::uint32_t classes,
                                       bool training, std::uint32_t size = 224,
                                       std::uint32_t first = 0);

}  // namespace ordo::train
