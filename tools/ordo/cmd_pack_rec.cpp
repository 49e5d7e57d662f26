// `ordo pack-rec ROOT PREFIX`: a folder of JPEGs with one sub-folder per class, packed into
// PREFIX.rec and PREFIX.idx as MXNet's im2rec packs ImageNet (runtime/data/pack_rec.hpp), so
// MXNet's readers and ordo's read the same files. --verify reads every record back through the
// index and decodes it, and says how fast.
#include <chrono>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "runtime/data/data_error.hpp"
#include "runtime/data/image_rec.hpp"
#include "runtime/data/pack_rec.hpp"
#include "tools/ordo/commands.hpp"

namespace ordo::tools {

namespace {

struct PackRecOptions {
  std::string root;
  std::string prefix;
  std::optional<std::uint64_t> shuffle;
  bool verify = false;
};

int run_pack_rec(const PackRecOptions& options) {
  data::PackSummary summary;
  try {
    summary = data::pack_rec(options.root, options.prefix, {options.shuffle});
  } catch (const data::DataError& e) {
    std::cerr << "ordo pack-rec: error: " << e.what() << '\n';
    return exit_bad_input;
  }
  std::cout << options.prefix << ".rec: " << summary.images << " images in " << summary.classes
            << " classes, " << summary.rec_bytes << " bytes"
            << (options.shuffle ? ", shuffled with seed " + std::to_string(*options.shuffle)
                                : std::string(", in class order"))
            << "; index " << options.prefix << ".idx\n";
  if (!options.verify) return exit_ok;

  const auto start = std::chrono::steady_clock::now();
  try {
    const data::ImageRec set(options.prefix, static_cast<std::uint32_t>(summary.classes));
    std::uint64_t pixels = 0;
    for (std::size_t i = 0; i < set.size(); ++i) pixels += set.read(i).image.pixels.size() / 3;
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << "verified: " << set.size() << " records read through the index and decoded ("
              << pixels << " pixels) in " << seconds << " s, "
              << static_cast<double>(set.size()) / seconds << " images/s on one thread\n";
  } catch (const data::DataError& e) {
    std::cerr << "ordo pack-rec: verify: " << e.what() << '\n';
    return exit_bad_input;
  }
  return exit_ok;
}

}  // namespace

Command add_pack_rec(CLI::App& app) {
  auto options = std::make_shared<PackRecOptions>();
  auto paths = std::make_shared<PathOptions>();
  CLI::App* sub = app.add_subcommand(
      "pack-rec", "Pack a folder of JPEGs, one sub-folder per class, into MXNet's RecordIO");
  paths->input_folder(
      sub->add_option("root", options->root, "Folder with one sub-folder of JPEGs per class")
          ->required(),
      options->root);
  paths->paths(
      sub->add_option("prefix", options->prefix, "Writes PREFIX.rec and PREFIX.idx")->required(),
      [options](const std::string& option) {
        std::vector<paths::PathUse> uses;
        for (const std::string& file : data::image_rec_files(options->prefix)) {
          uses.push_back({option, file, paths::Role::output_file, {}});
        }
        return uses;
      });
  sub->add_option("--shuffle", options->shuffle,
                  "Write the records in an order shuffled from this seed");
  sub->add_flag("--verify", options->verify, "Read every record back and decode it");
  return {[options] { return run_pack_rec(*options); }, paths};
}

}  // namespace ordo::tools
