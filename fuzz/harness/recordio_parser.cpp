// libFuzzer harness for the RecordIO reader (runtime/data/recordio.hpp and the image records and
// JPEGs inside): the bytes are scanned as a .rec file, each record unpacked as an image record,
// its label checked and its JPEG decoded under a small pixel cap; the records are also read at
// random offsets, as an .idx may point anywhere; and the bytes are parsed as an .idx. Any input
// must end in DataError or in records whose payloads the writer frames into bytes that read back
// the same.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "runtime/data/data_error.hpp"
#include "runtime/data/image_record.hpp"
#include "runtime/data/jpeg.hpp"
#include "runtime/data/record_index.hpp"
#include "runtime/data/recordio.hpp"

namespace {

void check_round_trip(const std::string& payload) {
  const std::string framed = ordo::data::encode_record(payload);
  const ordo::data::MemoryRange range(framed);
  const ordo::data::Record back = ordo::data::read_record_at(range, 0, "framed", 0);
  if (back.payload != payload || back.end != framed.size()) {
    std::fprintf(stderr, "recordio_parser: a payload does not read back as it was framed\n");
    std::abort();
  }
}

void check_image(const std::string& payload) {
  try {
    const ordo::data::ImageRecord r = ordo::data::unpack_image_record(payload, "record");
    ordo::data::class_label(r, 1000, "record");
    // A small cap keeps each run fast; the cap itself is part of what is tested.
    ordo::data::decode_jpeg(r.image, "record", std::uint64_t{1} << 16);
  } catch (const ordo::data::DataError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const ordo::data::MemoryRange range(bytes);
  try {
    ordo::data::RecordScanner scanner(range, "input");
    ordo::data::Record r;
    while (scanner.next(r)) {
      check_round_trip(r.payload);
      check_image(r.payload);
    }
  } catch (const ordo::data::DataError&) {
  }
  // Random access: the first aligned offsets, as an index could name them.
  for (std::uint64_t offset = 0; offset < size && offset < 256; offset += 4) {
    try {
      ordo::data::read_record_at(range, offset, "input", offset / 4);
    } catch (const ordo::data::DataError&) {
    }
  }
  try {
    ordo::data::parse_record_index(bytes, "input");
  } catch (const ordo::data::DataError&) {
  }
  return 0;
}
