#include "runtime/data/image_rec.hpp"

#include "runtime/data/image_record.hpp"

namespace ordo::data {

std::vector<std::string> image_rec_files(const std::string& prefix) {
  return {prefix + ".rec", prefix + ".idx"};
}

ImageRec::ImageRec(const std::string& prefix, std::uint32_t classes)
    : records_(image_rec_files(prefix)[0], image_rec_files(prefix)[1]), classes_(classes) {}

LabelledImage ImageRec::read(std::size_t i) const {
  const Record record = records_.read(i);
  const std::string where = records_.where(i);
  const ImageRecord header = unpack_image_record(record.payload, where);
  LabelledImage out;
  out.label = class_label(header, classes_, where);
  out.id = header.id;
  out.image = decode_jpeg(header.image, where);
  return out;
}

std::uint32_t ImageRec::label(std::size_t i) const {
  const Record record = records_.read(i);
  const std::string where = records_.where(i);
  return class_label(unpack_image_record(record.payload, where), classes_, where);
}

}  // namespace ordo::data
