#include "runtime/data/idx.hpp"

#include <cstdio>
#include <limits>

#include "runtime/data/data_error.hpp"
#include "runtime/data/file_bytes.hpp"

namespace ordo::data {

namespace {

std::string at_byte(std::string_view source, std::size_t offset) {
  return std::string(source) + ": byte " + std::to_string(offset);
}

std::string hex(std::uint8_t b) {
  char s[5];
  std::snprintf(s, sizeof s, "0x%02x", b);
  return s;
}

std::uint32_t read_be32(std::string_view bytes, std::size_t at) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < 4; ++i) v = v << 8 | static_cast<std::uint8_t>(bytes[at + i]);
  return v;
}

}  // namespace

IdxArray parse_idx(std::string_view bytes, std::string_view source) {
  if (bytes.size() < 4) {
    throw DataError(
        at_byte(source, bytes.size()),
        "the file ends inside the IDX header (" + std::to_string(bytes.size()) + " bytes)",
        "4 header bytes: 0x00 0x00, a type byte, a dimension count");
  }
  const auto b = [&](std::size_t i) { return static_cast<std::uint8_t>(bytes[i]); };
  if (b(0) != 0 || b(1) != 0) {
    throw DataError(at_byte(source, 0),
                    "the magic starts with " + hex(b(0)) + " " + hex(b(1)) + ", not IDX",
                    "0x00 0x00 (an IDX file; gzip-compressed files are inflated first)");
  }
  if (b(2) != idx_type_ubyte) {
    throw DataError(at_byte(source, 2), "element type " + hex(b(2)) + " is not read",
                    "type 0x08 (unsigned byte), the type of image and label files");
  }
  const std::size_t ndims = b(3);
  if (ndims == 0 || ndims > idx_dims_max) {
    throw DataError(at_byte(source, 3), std::to_string(ndims) + " dimensions",
                    "1 to " + std::to_string(idx_dims_max) + " dimensions");
  }
  const std::size_t header = 4 + 4 * ndims;
  if (bytes.size() < header) {
    throw DataError(at_byte(source, bytes.size()), "the file ends inside the dimensions",
                    std::to_string(ndims) + " big-endian 32-bit dimensions");
  }
  IdxArray array;
  array.dims.reserve(ndims);
  std::uint64_t count = 1;
  for (std::size_t d = 0; d < ndims; ++d) {
    const std::uint32_t dim = read_be32(bytes, 4 + 4 * d);
    // The product is checked against the bytes there are at every factor, so it cannot
    // overflow: it never exceeds the file's size times one dimension.
    count *= dim;
    if (count > bytes.size() - header) {
      throw DataError(at_byte(source, 4 + 4 * d),
                      "dimensions up to this one make " + std::to_string(count) +
                          " values, the file holds " + std::to_string(bytes.size() - header),
                      "the product of the dimensions equal to the values that follow");
    }
    array.dims.push_back(dim);
  }
  if (count != bytes.size() - header) {
    throw DataError(at_byte(source, header + count),
                    std::to_string(bytes.size() - header - count) + " bytes after the last value",
                    "the file to end after " + std::to_string(count) + " values");
  }
  // From bytes of the vector's own type: one block copy. An assign from chars converts byte by
  // byte, which the sanitizers instrument byte by byte (seconds for Fashion-MNIST's 47 MB).
  const auto* values = reinterpret_cast<const std::uint8_t*>(bytes.data() + header);
  array.values.assign(values, values + count);
  return array;
}

IdxArray read_idx_file(const std::string& path) { return parse_idx(read_file_bytes(path), path); }

std::string write_idx(const IdxArray& array) {
  std::string out = {'\0', '\0', static_cast<char>(idx_type_ubyte),
                     static_cast<char>(array.dims.size())};
  for (std::uint32_t dim : array.dims) {
    for (int shift = 24; shift >= 0; shift -= 8)
      out.push_back(static_cast<char>(dim >> shift & 0xff));
  }
  out.append(array.values.begin(), array.values.end());
  return out;
}

}  // namespace ordo::data
