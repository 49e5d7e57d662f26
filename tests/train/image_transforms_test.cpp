// The ImageNet transforms: the shapes torchvision gives, normalisation by ImageNet's statistics,
// the validation crop at the centre of the resized image, random crops within torchvision's
// bounds, flips half the time, and every draw fixed by the seed.
#include "runtime/train/model/image_transforms.hpp"

#include <ATen/ops/allclose.h>
#include <ATen/ops/equal.h>
#include <ATen/ops/flip.h>
#include <gtest/gtest.h>

#include <cmath>

namespace ordo::train {
namespace {

// Pixel (y, x) holds (x, y, x + y) modulo 256: positions can be read back from the pixels.
data::RgbImage ramp(std::uint32_t height, std::uint32_t width) {
  data::RgbImage image;
  image.height = height;
  image.width = width;
  image.pixels.resize(std::size_t{height} * width * 3);
  std::size_t at = 0;
  for (std::uint32_t y = 0; y < height; ++y) {
    for (std::uint32_t x = 0; x < width; ++x) {
      image.pixels[at++] = static_cast<std::uint8_t>(x);
      image.pixels[at++] = static_cast<std::uint8_t>(y);
      image.pixels[at++] = static_cast<std::uint8_t>(x + y);
    }
  }
  return image;
}

float normalised(std::uint8_t v, int channel) {
  const Normalization n;
  const auto c = static_cast<std::size_t>(channel);
  return (static_cast<float>(v) / 255.0f - n.mean[c]) / n.std[c];
}

TEST(ImageTransforms, ValidationIsTheCentre224OfTheShorterSideAt256) {
  // Already 256 on the shorter side: no resampling, so the crop's pixels are the image's.
  const data::RgbImage image = ramp(256, 300);
  const at::Tensor t = val_transform(image);
  ASSERT_EQ(t.sizes(), (at::IntArrayRef{3, 224, 224}));
  // The centre: rows 16..239, columns (300 - 224) / 2 = 38 onwards.
  EXPECT_NEAR(t[0][0][0].item<float>(), normalised(38, 0), 1e-5);
  EXPECT_NEAR(t[1][0][0].item<float>(), normalised(16, 1), 1e-5);
  EXPECT_NEAR(t[1][223][5].item<float>(), normalised(239, 1), 1e-5);
  // A 500x375 photo becomes 341x256 before the crop; still 3x224x224.
  EXPECT_EQ(val_transform(ramp(375, 500)).sizes(), (at::IntArrayRef{3, 224, 224}));
  EXPECT_EQ(val_transform(ramp(500, 375)).sizes(), (at::IntArrayRef{3, 224, 224}));
}

TEST(ImageTransforms, AConstantImageNormalisesToConstantsAfterResizing) {
  data::RgbImage grey;
  grey.height = 97;
  grey.width = 131;
  grey.pixels.assign(std::size_t{97} * 131 * 3, 128);
  random::SplitMix64 rng(1);
  for (const at::Tensor& t : {val_transform(grey), train_transform(grey, rng)}) {
    ASSERT_EQ(t.sizes(), (at::IntArrayRef{3, 224, 224}));
    for (int c = 0; c < 3; ++c) {
      EXPECT_NEAR(t[c].min().item<float>(), normalised(128, c), 1e-4);
      EXPECT_NEAR(t[c].max().item<float>(), normalised(128, c), 1e-4);
    }
  }
}

TEST(ImageTransforms, RandomCropsStayInTorchvisionsBounds) {
  random::SplitMix64 rng(7);
  int fallbacks = 0;
  for (int i = 0; i < 2000; ++i) {
    const CropBox b = random_resized_crop_box(375, 500, rng);
    ASSERT_GE(b.top, 0);
    ASSERT_GE(b.left, 0);
    ASSERT_LE(b.top + b.height, 375);
    ASSERT_LE(b.left + b.width, 500);
    const double area = static_cast<double>(b.height * b.width) / (375.0 * 500.0);
    const double ratio = static_cast<double>(b.width) / static_cast<double>(b.height);
    if (b.height == 375 && b.width == 500) {
      ++fallbacks;
      continue;
    }
    // Rounding to whole pixels moves area and ratio a little past the drawn ones.
    EXPECT_GE(area, 0.08 * 0.97);
    EXPECT_GE(ratio, 0.75 * 0.97);
    EXPECT_LE(ratio, 4.0 / 3.0 * 1.03);
  }
  EXPECT_LT(fallbacks, 20);
  // An image far wider than 4/3 that no draw fits falls back to its centre at ratio 4/3.
  random::SplitMix64 thin(3);
  const CropBox wide = random_resized_crop_box(1, 1000, thin);
  EXPECT_EQ(wide.height, 1);
  EXPECT_LE(wide.width, 2);
}

TEST(ImageTransforms, TrainingFlipsHalfTheTimeAndTheSeedFixesEverything) {
  const data::RgbImage image = ramp(60, 80);
  random::SplitMix64 a(11), b(11);
  int flips = 0;
  for (int i = 0; i < 40; ++i) {
    random::SplitMix64 probe = a;  // the same draws, taken apart
    const CropBox box = random_resized_crop_box(60, 80, probe);
    const bool flip = probe.below(2) == 1;
    const at::Tensor t = train_transform(image, a, 32);
    EXPECT_TRUE(at::equal(t, train_transform(image, b, 32)));
    EXPECT_TRUE(at::allclose(t, crop_resize_normalize(image, box, 32, 32, flip)));
    flips += flip;
  }
  EXPECT_GT(flips, 10);
  EXPECT_LT(flips, 30);
  // A flip is the unflipped crop mirrored.
  const CropBox box{5, 7, 40, 50};
  EXPECT_TRUE(at::allclose(crop_resize_normalize(image, box, 24, 24, true),
                           at::flip(crop_resize_normalize(image, box, 24, 24, false), {2})));
  EXPECT_THROW(crop_resize_normalize(image, {50, 0, 20, 10}, 8, 8, false), std::invalid_argument);
}

}  // namespace
}  // namespace ordo::train
