// `ordo pack-rec`: a folder of JPEGs, one sub-folder per class (ImageNet's train/ layout), packed
// into PREFIX.rec and PREFIX.idx as im2rec packs it with --recursive and --pass-through: classes
// are the sub-folders sorted by name, a class's label is its position, and each image's bytes are
// stored as they are, behind an image record header (image_record.hpp) whose id, also its .idx
// key, is the image's position in the sorted list. Both files are written atomically
// (runtime/io), the .rec streamed, never held in memory.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ordo::data {

struct ImageListEntry {
  std::uint64_t id = 0;  // position in the sorted list
  std::uint32_t label = 0;
  std::string path;
};

struct ImageList {
  std::vector<std::string> classes;  // sub-folder names, sorted; label = position
  std::vector<ImageListEntry> images;
};

// Every .jpg or .jpeg (any case) directly inside each sub-folder of `root`, classes and files
// sorted by name (byte order, as Python's sorted). Other files are skipped. Throws DataError
// naming `root` when it is no folder or holds no sub-folder.
ImageList list_image_folder(const std::string& root);

struct PackOptions {
  // Write the records in an order shuffled from this seed (Fisher-Yates over SplitMix64, so
  // the same seed gives the same file everywhere); keys and ids stay the sorted positions.
  std::optional<std::uint64_t> shuffle_seed;
};

struct PackSummary {
  std::size_t images = 0;
  std::size_t classes = 0;
  std::uint64_t rec_bytes = 0;
};

// Packs `root` into PREFIX.rec and PREFIX.idx. Each JPEG's header is read first, so a file that
// is no JPEG stops the packing with a DataError naming it, and neither output file is touched.
PackSummary pack_rec(const std::string& root, const std::string& prefix,
                     const PackOptions& options = {});

}  // namespace ordo::data
