// A synthetic stand-in for ImageNet's train/ folder, for tests and benchmarks of the whole data
// path (generate, pack-rec, read, decode) where the real set is not: JPEGs in one sub-folder per
// class, named as ImageNet names them (n00000003/n00000003_17.JPEG). Each class is a smooth
// colour gradient of its own two colours and direction; each image varies it (direction,
// brightness) and adds pixel noise, so the classes are learnable and no two images are equal.
// Every pixel follows from (seed, class, image) through SplitMix64, so a seed gives the same
// pixels everywhere (the JPEG bytes too, with one libjpeg-turbo build).
#pragma once

#include <cstdint>
#include <string>

#include "runtime/data/jpeg.hpp"

namespace ordo::data {

struct SyntheticImagesOptions {
  std::uint32_t classes = 10;
  std::uint32_t per_class = 10;
  std::uint32_t width = 64;
  std::uint32_t height = 48;
  std::uint64_t seed = 1;
  int quality = 90;
};

// ImageNet's synset folder naming, with the class index as the number: sorted names keep the
// class order, so pack-rec's labels equal these indices.
std::string synthetic_class_name(std::uint32_t cls);

// Image `index` of class `cls`. Throws std::invalid_argument for an empty size or a class out
// of range.
RgbImage synthetic_image(const SyntheticImagesOptions& options, std::uint32_t cls,
                         std::uint32_t index);

// Writes every image under `dir` (created if missing), each atomically (runtime/io); returns how
// many. Throws std::system_error naming a file that cannot be written.
std::size_t write_synthetic_images(const std::string& dir, const SyntheticImagesOptions& options);

}  // namespace ordo::data
