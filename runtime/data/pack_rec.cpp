#include "runtime/data/pack_rec.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <utility>

#include "runtime/data/data_error.hpp"
#include "runtime/data/image_rec.hpp"
#include "runtime/data/image_record.hpp"
#include "runtime/data/jpeg.hpp"
#include "runtime/data/record_index.hpp"
#include "runtime/data/recordio.hpp"
#include "runtime/io/atomic_file.hpp"
#include "runtime/random/split_mix64.hpp"

namespace ordo::data {

namespace fs = std::filesystem;

namespace {

bool is_jpeg_name(const fs::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext == ".jpg" || ext == ".jpeg";
}

std::vector<fs::path> sorted_entries(const fs::path& folder, bool folders) {
  std::vector<fs::path> out;
  for (const fs::directory_entry& e : fs::directory_iterator(folder)) {
    if (folders ? e.is_directory() : (e.is_regular_file() && is_jpeg_name(e.path()))) {
      out.push_back(e.path());
    }
  }
  std::sort(out.begin(), out.end(), [](const fs::path& a, const fs::path& b) {
    return a.filename().string() < b.filename().string();
  });
  return out;
}

std::string read_image_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw DataError(path, "cannot open", "a readable image file");
  const std::streamoff size = in.tellg();
  // The header and the image must fit one record's 29-bit length.
  if (size < 0 ||
      static_cast<std::uint64_t>(size) > recordio_length_max - image_record_header_bytes) {
    throw DataError(path, "is " + std::to_string(size) + " bytes",
                    "an image small enough for one RecordIO record (under 512 MiB)");
  }
  std::string bytes(static_cast<std::size_t>(size), '\0');
  in.seekg(0);
  if (!in.read(bytes.data(), size)) throw DataError(path, "a read failed", "a readable file");
  return bytes;
}

}  // namespace

ImageList list_image_folder(const std::string& root) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    throw DataError(root, "is not a folder", "a folder with one sub-folder of images per class");
  }
  ImageList list;
  for (const fs::path& class_dir : sorted_entries(root, true)) {
    const auto label = static_cast<std::uint32_t>(list.classes.size());
    list.classes.push_back(class_dir.filename().string());
    for (const fs::path& file : sorted_entries(class_dir, false)) {
      list.images.push_back({list.images.size(), label, file.string()});
    }
  }
  if (list.classes.empty()) {
    throw DataError(root, "holds no sub-folder", "one sub-folder of JPEG images per class");
  }
  return list;
}

PackSummary pack_rec(const std::string& root, const std::string& prefix,
                     const PackOptions& options) {
  const ImageList list = list_image_folder(root);
  std::vector<std::size_t> order(list.images.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (options.shuffle_seed) {
    random::SplitMix64 rng(*options.shuffle_seed);
    for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
  }

  const std::vector<std::string> files = image_rec_files(prefix);
  io::AtomicWriter rec(files[0]);
  RecordWriter writer([&rec](std::string_view bytes) { rec.write(bytes); });
  std::vector<IndexEntry> index;
  index.reserve(order.size());
  for (std::size_t i : order) {
    const ImageListEntry& image = list.images[i];
    const std::string jpeg = read_image_file(image.path);
    jpeg_size(jpeg, image.path);  // a file that is no JPEG stops the packing here
    const std::uint64_t offset =
        writer.append(pack_image_record(static_cast<float>(image.label), image.id, jpeg));
    index.push_back({image.id, offset});
  }
  // The index last: a reader that finds the new index finds the new records it points into.
  io::AtomicWriter idx(files[1]);
  idx.write(write_record_index(index));
  rec.commit();
  idx.commit();
  return {list.images.size(), list.classes.size(), writer.bytes_written()};
}

}  // namespace ordo::data
