#include "runtime/data/image_record.hpp"

#include <bit>
#include <cmath>

#include "runtime/data/data_error.hpp"

namespace ordo::data {

namespace {

std::uint64_t get_le(std::string_view bytes, std::size_t at, std::size_t width) {
  std::uint64_t v = 0;
  for (std::size_t i = width; i-- > 0;) v = v << 8 | static_cast<std::uint8_t>(bytes[at + i]);
  return v;
}

void put_le(std::string& out, std::uint64_t v, std::size_t width) {
  for (std::size_t i = 0; i < width; ++i) out.push_back(static_cast<char>(v >> (8 * i) & 0xff));
}

float get_float(std::string_view bytes, std::size_t at) {
  return std::bit_cast<float>(static_cast<std::uint32_t>(get_le(bytes, at, 4)));
}

void put_float(std::string& out, float v) { put_le(out, std::bit_cast<std::uint32_t>(v), 4); }

std::string pack(std::uint32_t flag, float label, std::uint64_t id, const std::vector<float>& extra,
                 std::string_view image) {
  std::string out;
  out.reserve(image_record_header_bytes + 4 * extra.size() + image.size());
  put_le(out, flag, 4);
  put_float(out, label);
  put_le(out, id, 8);
  put_le(out, 0, 8);
  for (float l : extra) put_float(out, l);
  out.append(image);
  return out;
}

}  // namespace

ImageRecord unpack_image_record(std::string_view payload, std::string_view where) {
  if (payload.size() < image_record_header_bytes) {
    throw DataError(std::string(where),
                    "the payload is " + std::to_string(payload.size()) + " bytes",
                    "an image record header of 24 bytes (flag, label, id, id2)");
  }
  ImageRecord r;
  r.flag = static_cast<std::uint32_t>(get_le(payload, 0, 4));
  r.label = get_float(payload, 4);
  r.id = get_le(payload, 8, 8);
  r.id2 = get_le(payload, 16, 8);
  // Checked by division, so a flag near 2^32 cannot overflow the size it implies.
  if (r.flag > (payload.size() - image_record_header_bytes) / 4) {
    throw DataError(std::string(where),
                    "the header announces " + std::to_string(r.flag) +
                        " labels, the payload holds room for " +
                        std::to_string((payload.size() - image_record_header_bytes) / 4),
                    "flag labels of 4 bytes after the header");
  }
  r.labels.reserve(r.flag);
  for (std::uint32_t i = 0; i < r.flag; ++i) {
    r.labels.push_back(get_float(payload, image_record_header_bytes + 4 * std::size_t{i}));
  }
  r.image = payload.substr(image_record_header_bytes + 4 * std::size_t{r.flag});
  if (r.image.empty()) {
    throw DataError(std::string(where), "the record holds no image bytes",
                    "an encoded image after the header and labels");
  }
  return r;
}

std::string pack_image_record(float label, std::uint64_t id, std::string_view image) {
  return pack(0, label, id, {}, image);
}

std::string pack_image_record(const std::vector<float>& labels, std::uint64_t id,
                              std::string_view image) {
  return pack(static_cast<std::uint32_t>(labels.size()), 0.0f, id, labels, image);
}

std::uint32_t class_label(const ImageRecord& record, std::uint32_t classes,
                          std::string_view where) {
  const float label = record.flag == 0 ? record.label : record.labels.front();
  // Written so that NaN fails every test and lands in the error.
  if (!(label >= 0.0f && label < static_cast<float>(classes) && std::floor(label) == label)) {
    throw DataError(std::string(where), "label " + std::to_string(label),
                    "a class index, a whole number in [0, " + std::to_string(classes) + ")");
  }
  return static_cast<std::uint32_t>(label);
}

}  // namespace ordo::data
