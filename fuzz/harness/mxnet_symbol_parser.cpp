// libFuzzer harness for the MXNet symbol importer (runtime/import/): any text, imported at a
// fixed data shape, must be refused with DumpError or become a network that check_network accepts
// and that writes and reads back equal as an ordo network description.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "runtime/dag/dump_error.hpp"
#include "runtime/import/mxnet_import.hpp"
#include "runtime/import/mxnet_symbol.hpp"
#include "runtime/networks/network_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  ordo::networks::Network net;
  try {
    ordo::import::MxImportOptions options;
    options.name = "fuzz";
    options.data_shape = {3, 32, 32};
    net = ordo::import::import_mxnet(ordo::import::read_mxnet_symbol(text), options);
  } catch (const ordo::errors::InputError&) {
    return 0;
  }
  if (!(ordo::networks::read_network(ordo::networks::write_network(net)) == net)) {
    std::fprintf(stderr, "mxnet_symbol_parser: the imported network reads back different\n");
    std::abort();
  }
  return 0;
}
