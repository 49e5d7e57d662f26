// The payload im2rec stores in each record: MXNet's IRHeader, then the encoded image.
//
//   uint32 flag | float32 label | uint64 id | uint64 id2 | flag float32 labels | image bytes
//
// all little-endian, 24 bytes of header (Python's struct format "IfQQ"). With flag 0 the label is
// the header's float; with flag > 0 the header's label is 0 and `flag` floats follow it (im2rec's
// --pack-label). id is the image's index in im2rec's list, id2 is 0.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ordo::data {

inline constexpr std::size_t image_record_header_bytes = 24;

struct ImageRecord {
  std::uint32_t flag = 0;
  float label = 0;
  std::uint64_t id = 0;
  std::uint64_t id2 = 0;
  std::vector<float> labels;  // flag of them
  std::string_view image;     // a view into the payload it was unpacked from
};

// Throws DataError located at `where` (the record) when the payload is shorter than its header
// and the `flag` labels it announces, or holds no image bytes after them.
ImageRecord unpack_image_record(std::string_view payload, std::string_view where);

// The payload for an image and one label (flag 0), as im2rec packs a classification set.
std::string pack_image_record(float label, std::uint64_t id, std::string_view image);

// The payload for an image with several labels (flag = labels.size(), header label 0).
std::string pack_image_record(const std::vector<float>& labels, std::uint64_t id,
                              std::string_view image);

// The record's class: its label when flag is 0, else its first extra label. Throws DataError at
// `where` unless that is a whole number below `classes` (NaN and negatives included).
std::uint32_t class_label(const ImageRecord& record, std::uint32_t classes, std::string_view where);

}  // namespace ordo::data
