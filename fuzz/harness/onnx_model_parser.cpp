// libFuzzer harness for the ONNX importer (runtime/import/onnx_import.hpp): any bytes must be
// refused with DumpError or become a network that check_network accepts and that writes and
// reads back equal as an ordo network description.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "runtime/dag/dump_error.hpp"
#include "runtime/import/onnx_import.hpp"
#include "runtime/networks/network_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  ordo::networks::Network net;
  try {
    net = ordo::import::import_onnx(bytes, "fuzz");
  } catch (const ordo::errors::InputError&) {
    return 0;
  }
  if (!(ordo::networks::read_network(ordo::networks::write_network(net)) == net)) {
    std::fprintf(stderr, "onnx_model_parser: the imported network reads back different\n");
    std::abort();
  }
  return 0;
}
