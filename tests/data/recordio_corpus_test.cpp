// The seed corpus of the RecordIO fuzz harness (fuzz/corpus/recordio_parser/) is made here, by
// the writer, so it stays in the format the reader reads: every checked-in file must scan, unpack
// and decode cleanly. With ORDO_WRITE_RECORDIO_CORPUS=1 in the environment the test writes the
// files afresh (the JPEG bytes depend on the libjpeg-turbo build, so they are not compared).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "runtime/data/file_bytes.hpp"
#include "runtime/data/image_record.hpp"
#include "runtime/data/jpeg.hpp"
#include "runtime/data/recordio.hpp"
#include "runtime/data/synthetic_images.hpp"

namespace ordo::data {
namespace {

std::map<std::string, std::string> corpus() {
  const std::string magic("\x0a\x23\xd7\xce", 4);
  const SyntheticImagesOptions tiny{2, 1, 8, 8, 11, 50};
  std::map<std::string, std::string> files;
  // One image record with an 8x8 JPEG: the shape of every record of an ImageNet .rec.
  files["one_image.rec"] =
      encode_record(pack_image_record(1.0f, 0, encode_jpeg(synthetic_image(tiny, 1, 0), 50)));
  // A payload holding the magic at aligned words: a record in three parts.
  files["multi_part.rec"] = encode_record(pack_image_record(
      0.0f, 1, "\xff\xd8" + std::string(2, 'x') + magic + "abcd" + magic + "end"));
  // Extra labels (im2rec's --pack-label) and a second record after it.
  files["labels.rec"] = encode_record(pack_image_record({2.0f, 0.5f, 7.0f}, 2,
                                                        "\xff\xd8"
                                                        "ab")) +
                        encode_record(pack_image_record(3.0f, 3, "\xff\xd8\xff\xd9"));
  files["empty_record.rec"] = encode_record("");
  return files;
}

TEST(RecordIOCorpus, TheSeedCorpusIsWhatTheWriterWritesAndReadsBack) {
  const std::filesystem::path dir = ORDO_RECORDIO_CORPUS;
  const char* write = std::getenv("ORDO_WRITE_RECORDIO_CORPUS");
  for (const auto& [name, bytes] : corpus()) {
    if (write != nullptr && std::string(write) == "1") {
      std::filesystem::create_directories(dir);
      std::ofstream(dir / name, std::ios::binary)
          .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }
    const std::string path = (dir / name).string();
    const std::string file = std::filesystem::exists(path) ? read_file_bytes(path) : "";
    ASSERT_FALSE(file.empty()) << name << " is missing; write it with ORDO_WRITE_RECORDIO_CORPUS=1";
    EXPECT_LT(file.size(), 1024u) << name;
    const MemoryRange range(file);
    RecordScanner scanner(range, name);
    Record r;
    while (scanner.next(r)) {
      if (r.payload.empty()) continue;
      const ImageRecord image = unpack_image_record(r.payload, name);
      if (name == "one_image.rec") {
        EXPECT_EQ(decode_jpeg(image.image, name).width, 8u);
      }
    }
    EXPECT_GT(scanner.records_read(), 0u) << name;
  }
}

}  // namespace
}  // namespace ordo::data
