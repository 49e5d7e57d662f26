#include "runtime/data/synthetic_images.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <numbers>
#include <stdexcept>

#include "runtime/io/atomic_file.hpp"
#include "runtime/random/split_mix64.hpp"

namespace ordo::data {

namespace {

// A generator per (seed, stream): SplitMix64's own mixing separates the streams.
random::SplitMix64 stream(std::uint64_t seed, std::uint64_t a, std::uint64_t b) {
  random::SplitMix64 mix(seed ^ (a + 1) * 0x9e3779b97f4a7c15ull ^ (b + 1) * 0xd1342543de82ef95ull);
  return random::SplitMix64(mix.next());
}

double unit(random::SplitMix64& rng) {  // uniform in [0, 1)
  return static_cast<double>(rng.next() >> 11) * 0x1.0p-53;
}

std::uint8_t clamp_byte(double v) {
  return static_cast<std::uint8_t>(std::clamp(std::lround(v), 0l, 255l));
}

}  // namespace

std::string synthetic_class_name(std::uint32_t cls) {
  char name[16];
  std::snprintf(name, sizeof name, "n%08u", cls);
  return name;
}

RgbImage synthetic_image(const SyntheticImagesOptions& options, std::uint32_t cls,
                         std::uint32_t index) {
  if (options.width == 0 || options.height == 0 || cls >= options.classes) {
    throw std::invalid_argument("synthetic_image: an empty size or a class out of range");
  }
  // The class: two colours and a gradient direction.
  random::SplitMix64 class_rng = stream(options.seed, cls, UINT64_MAX - 1);
  double from[3], to[3];
  for (double& c : from) c = 255.0 * unit(class_rng);
  for (double& c : to) c = 255.0 * unit(class_rng);
  const double angle = 2.0 * std::numbers::pi * unit(class_rng);

  // The image: the direction turned by up to 0.3 rad, a brightness shift, then noise.
  random::SplitMix64 rng = stream(options.seed, cls, index);
  const double turn = angle + 0.6 * (unit(rng) - 0.5);
  const double shift = 40.0 * (unit(rng) - 0.5);
  const double cx = std::cos(turn), sy = std::sin(turn);

  RgbImage image;
  image.width = options.width;
  image.height = options.height;
  // Constructed, not resized: g++ 12 warns falsely (null dereference) on resize here.
  image.pixels = std::vector<std::uint8_t>(std::size_t{image.width} * image.height * 3);
  std::size_t at = 0;
  for (std::uint32_t y = 0; y < image.height; ++y) {
    const double fy = (y + 0.5) / image.height - 0.5;
    for (std::uint32_t x = 0; x < image.width; ++x) {
      const double fx = (x + 0.5) / image.width - 0.5;
      const double t = std::clamp((fx * cx + fy * sy) / std::numbers::sqrt2 + 0.5, 0.0, 1.0);
      const std::uint64_t noise = rng.next();  // 3 bytes of it, one per channel
      for (int c = 0; c < 3; ++c) {
        const double n = static_cast<double>(noise >> (16 * c) & 0xff) / 255.0 - 0.5;
        image.pixels[at++] = clamp_byte(from[c] + (to[c] - from[c]) * t + shift + 32.0 * n);
      }
    }
  }
  return image;
}

std::size_t write_synthetic_images(const std::string& dir, const SyntheticImagesOptions& options) {
  namespace fs = std::filesystem;
  std::size_t written = 0;
  for (std::uint32_t cls = 0; cls < options.classes; ++cls) {
    const std::string name = synthetic_class_name(cls);
    const fs::path folder = fs::path(dir) / name;
    fs::create_directories(folder);
    for (std::uint32_t i = 0; i < options.per_class; ++i) {
      const std::string jpeg = encode_jpeg(synthetic_image(options, cls, i), options.quality);
      const fs::path file = folder / (name + "_" + std::to_string(i) + ".JPEG");
      io::write_file_atomically(file.string(), jpeg);
      ++written;
    }
  }
  return written;
}

}  // namespace ordo::data
