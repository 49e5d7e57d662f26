// `ordo gen-imagenet --out DIR`: a synthetic ImageNet-shaped training folder (one sub-folder of
// JPEGs per class, ImageNet's names), so the data path (pack-rec, the reader, the decoder) can be
// tested and measured where the real set is not. Same seed, same pixels.
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "runtime/data/synthetic_images.hpp"
#include "tools/ordo/commands.hpp"

namespace ordo::tools {

namespace {

struct GenOptions {
  std::string out;
  std::string size = "64x48";
  data::SyntheticImagesOptions images;
};

// "WxH" with both sides from 1 to 8192 pixels.
bool parse_size(const std::string& text, std::uint32_t& width, std::uint32_t& height) {
  unsigned w = 0, h = 0;
  char tail = 0;
  if (std::sscanf(text.c_str(), "%ux%u%c", &w, &h, &tail) != 2) return false;
  if (w == 0 || h == 0 || w > 8192 || h > 8192) return false;
  width = w;
  height = h;
  return true;
}

int run_gen(GenOptions options) {
  if (!parse_size(options.size, options.images.width, options.images.height)) {
    std::cerr << "ordo gen-imagenet: --size " << options.size
              << ": expected WxH, each side 1 to 8192 pixels\n";
    return exit_bad_input;
  }
  const std::size_t n = data::write_synthetic_images(options.out, options.images);
  std::cout << options.out << ": " << n << " JPEG images in " << options.images.classes
            << " class folders, " << options.images.width << "x" << options.images.height
            << ", seed " << options.images.seed << '\n';
  return exit_ok;
}

}  // namespace

Command add_gen_imagenet(CLI::App& app) {
  auto options = std::make_shared<GenOptions>();
  auto paths = std::make_shared<PathOptions>();
  CLI::App* sub = app.add_subcommand(
      "gen-imagenet",
      "Write a synthetic ImageNet-shaped folder of JPEGs, one sub-folder per class");
  paths->output_folder(
      sub->add_option("--out", options->out, "Folder to write (created if missing)")->required(),
      options->out);
  sub->add_option("--classes", options->images.classes, "Classes")
      ->capture_default_str()
      ->check(CLI::Range(1u, 100000u));
  sub->add_option("--per-class", options->images.per_class, "Images per class")
      ->capture_default_str()
      ->check(CLI::Range(1u, 100000u));
  paths->not_a_path(
      sub->add_option("--size", options->size, "Image size, WxH")->capture_default_str());
  sub->add_option("--seed", options->images.seed, "Seed of every pixel")->capture_default_str();
  sub->add_option("--quality", options->images.quality, "JPEG quality")
      ->capture_default_str()
      ->check(CLI::Range(1, 100));
  return {[options] { return run_gen(*options); }, paths};
}

}  // namespace ordo::tools
