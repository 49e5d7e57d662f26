// libFuzzer harness for the training data readers (runtime/data/): the bytes are read as an IDX
// file, and when they start like gzip, inflated first under a small cap, as read_file_bytes does.
// Any input must end in DataError or an array whose value count is the product of its dimensions
// and which writes back to the same bytes.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "runtime/data/data_error.hpp"
#include "runtime/data/file_bytes.hpp"
#include "runtime/data/idx.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  try {
    if (ordo::data::is_gzip(bytes)) bytes = ordo::data::gunzip(bytes, "input", 1u << 20);
    const ordo::data::IdxArray a = ordo::data::parse_idx(bytes, "input");
    std::uint64_t count = 1;
    for (std::uint32_t d : a.dims) count *= d;
    if (count != a.values.size() || ordo::data::write_idx(a) != bytes) {
      std::fprintf(stderr, "idx_parser: an accepted array does not write back the same\n");
      std::abort();
    }
  } catch (const ordo::data::DataError&) {
  }
  return 0;
}
