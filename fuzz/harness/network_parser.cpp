// libFuzzer harness for the network description reader (runtime/networks/network_reader.hpp).
// Any text must be rejected with DumpError or read as a network that check_network accepts, that
// writes and reads back equal, and that the step builder turns into a valid job for a design.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "runtime/dag/dump_error.hpp"
#include "runtime/dag/validate.hpp"
#include "runtime/networks/network_reader.hpp"
#include "runtime/designs/step_builder.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  ordo::networks::Network net;
  try {
    net = ordo::networks::read_network(text);
  } catch (const ordo::errors::InputError&) {
    return 0;
  }
  if (!(ordo::networks::read_network(ordo::networks::write_network(net)) == net)) {
    std::fprintf(stderr, "network_parser: the written description reads back different\n");
    std::abort();
  }
  // Big parameter counts are fine for the builder: it only records sizes.
  if (net.layers.size() <= 64) {
    ordo::designs::DesignConfig config;
    const ordo::dag::Job job = ordo::designs::build_step_job(net, config, {});
    if (!ordo::dag::validate(job).empty()) {
      std::fprintf(stderr, "network_parser: a readable network builds an invalid job\n");
      std::abort();
    }
  }
  return 0;
}
