// An image classification set packed as im2rec packs ImageNet: a .rec of image records (a JPEG
// and its class each) and its .idx. Example i is the record on line i of the index, its class
// checked against the class count and its image decoded to RGB on demand.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/data/indexed_records.hpp"
#include "runtime/data/jpeg.hpp"

namespace ordo::data {

// The files of the set PREFIX: PREFIX.rec, then PREFIX.idx.
std::vector<std::string> image_rec_files(const std::string& prefix);

struct LabelledImage {
  std::uint32_t label = 0;
  std::uint64_t id = 0;  // the image's id in the header (its index in im2rec's list)
  RgbImage image;
};

class ImageRec {
 public:
  // Opens PREFIX.rec and PREFIX.idx (the names im2rec and ordo pack-rec write); `classes` bounds
  // every label. Throws DataError as IndexedRecords does.
  ImageRec(const std::string& prefix, std::uint32_t classes);

  std::size_t size() const { return records_.size(); }
  std::uint32_t classes() const { return classes_; }
  const IndexedRecords& records() const { return records_; }
  // Example i, decoded. Throws DataError naming the .rec, the record and its key for a bad
  // record, a bad image header, a label outside the classes or a JPEG that does not decode.
  LabelledImage read(std::size_t i) const;
  // Its class alone, without decoding the image (a reader that balances classes needs only this).
  std::uint32_t label(std::size_t i) const;

 private:
  IndexedRecords records_;
  std::uint32_t classes_;
};

}  // namespace ordo::data
