// IDX, the format of the MNIST family (Fashion-MNIST among them): two zero bytes, a type byte,
// the dimension count, each dimension as a big-endian 32-bit count, then the values in row-major
// order. Training data is unsigned bytes (type 0x08), the one type read here.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ordo::data {

struct IdxArray {
  std::vector<std::uint32_t> dims;
  std::vector<std::uint8_t> values;  // the product of dims, row-major
};

inline constexpr std::uint8_t idx_type_ubyte = 0x08;
inline constexpr std::size_t idx_dims_max = 8;

// Throws DataError, located in `source` by byte offset, for anything but a whole IDX array of
// unsigned bytes: a bad magic, an unsupported type, too many or zero dimensions, a size that
// overflows, data cut short or followed by more bytes. Nothing is allocated before the sizes are
// checked against the bytes there are.
IdxArray parse_idx(std::string_view bytes, std::string_view source);

// Reads a file (gzip-compressed or not) and parses it. A gzip file is inflated only as far as its
// header says the array reaches (and one byte on, to know that it ends there): a small file that
// inflates to far more than it claims is refused without inflating the rest.
IdxArray read_idx_file(const std::string& path);

// The file format of an array, for tests and for packing synthetic sets.
std::string write_idx(const IdxArray& array);

}  // namespace ordo::data
