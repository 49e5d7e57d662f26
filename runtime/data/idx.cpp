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

namespace {

// The header of an IDX array: its dimensions, its size, and how many values it says follow.
struct IdxHeader {
  std::vector<std::uint32_t> dims;
  std::size_t bytes = 0;
  std::uint64_t count = 1;
};

// Reads the header at the start of `bytes`. The values it may claim are bounded by the bytes
// after it where `bytes` is the `whole` file, else by what a data file may hold.
IdxHeader parse_idx_header(std::string_view bytes, std::string_view source, bool whole) {
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
  IdxHeader h;
  h.bytes = 4 + 4 * ndims;
  if (bytes.size() < h.bytes) {
    throw DataError(at_byte(source, bytes.size()), "the file ends inside the dimensions",
                    std::to_string(ndims) + " big-endian 32-bit dimensions");
  }
  const std::uint64_t values_max = whole ? bytes.size() - h.bytes : file_bytes_max - h.bytes;
  h.dims.reserve(ndims);
  for (std::size_t d = 0; d < ndims; ++d) {
    const std::uint32_t dim = read_be32(bytes, 4 + 4 * d);
    // The product is checked against the bound at every factor, so it cannot overflow: it
    // never exceeds the bound times one dimension.
    h.count *= dim;
    if (h.count > values_max) {
      throw DataError(
          at_byte(source, 4 + 4 * d),
          "dimensions up to this one make " + std::to_string(h.count) + " values, " +
              (whole ? "the file holds " + std::to_string(values_max)
                     : "more than the " + std::to_string(values_max) + " a data file may hold"),
          "the product of the dimensions equal to the values that follow");
    }
    h.dims.push_back(dim);
  }
  return h;
}

}  // namespace

IdxArray parse_idx(std::string_view bytes, std::string_view source) {
  IdxHeader h = parse_idx_header(bytes, source, true);
  const std::size_t header = h.bytes;
  const std::uint64_t count = h.count;
  if (count != bytes.size() - header) {
    throw DataError(at_byte(source, header + count),
                    std::to_string(bytes.size() - header - count) + " bytes after the last value",
                    "the file to end after " + std::to_string(count) + " values");
  }
  IdxArray array;
  array.dims = std::move(h.dims);
  // From bytes of the vector's own type: one block copy. An assign from chars converts byte by
  // byte, which the sanitizers instrument byte by byte (seconds for Fashion-MNIST's 47 MB).
  const auto* values = reinterpret_cast<const std::uint8_t*>(bytes.data() + header);
  array.values.assign(values, values + count);
  return array;
}

IdxArray read_idx_file(const std::string& path) {
  const std::string stored = read_stored_bytes(path);
  if (!is_gzip(stored)) return parse_idx(stored, path);
  // Inflated no further than its header says the array is (a small file can claim little and
  // inflate to gigabytes), and the header read from as few bytes as it can take.
  const IdxHeader h =
      parse_idx_header(gunzip_prefix(stored, path, 4 + 4 * idx_dims_max), path, false);
  const std::size_t size = h.bytes + static_cast<std::size_t>(h.count);
  return parse_idx(gunzip(stored, path, size,
                          "the " + std::to_string(size) + " bytes its IDX header gives (" +
                              std::to_string(h.count) + " values)"),
                   path);
}

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
