// libFuzzer harness for the checkpoint reader (runtime/checkpoint/): any bytes must end in a
// CheckpointError or a checkpoint whose encoding reads back to the same encoding (the header's
// JSON may be spelled many ways; what it means must survive a round trip).
// The checksum stops most mutations at the frame; the seed corpus's forged inputs carry valid
// checksums so that the header's checks are fuzzed too.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "runtime/checkpoint/checkpoint_error.hpp"
#include "runtime/checkpoint/checkpoint_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    const ordo::checkpoint::Checkpoint c = ordo::checkpoint::decode(bytes, "input");
    const std::string once = ordo::checkpoint::encode(c);
    if (ordo::checkpoint::encode(ordo::checkpoint::decode(once, "encoded")) != once) {
      std::fprintf(stderr, "checkpoint_parser: an accepted checkpoint does not round-trip\n");
      std::abort();
    }
  } catch (const ordo::checkpoint::CheckpointError&) {
  }
  return 0;
}
