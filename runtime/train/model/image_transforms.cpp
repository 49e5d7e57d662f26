#include "runtime/train/model/image_transforms.hpp"

#include <ATen/ops/_upsample_bilinear2d_aa.h>
#include <ATen/ops/flip.h>
#include <ATen/ops/from_blob.h>
#include <ATen/ops/tensor.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ordo::train {

namespace {

double uniform(random::SplitMix64& rng, double lo, double hi) {
  return lo + (hi - lo) * static_cast<double>(rng.next() >> 11) * 0x1.0p-53;
}

// Half to even, as Python's round (torchvision's crops are computed with it); nearbyint rounds so
// in the default rounding mode.
std::int64_t round_int(double v) { return static_cast<std::int64_t>(std::nearbyint(v)); }

at::Tensor channel_tensor(const std::array<float, 3>& values) {
  return at::tensor(at::ArrayRef<float>(values.data(), values.size())).view({3, 1, 1});
}

at::Tensor normalize(const at::Tensor& x, const Normalization& norm) {
  return x.sub(channel_tensor(norm.mean)).div_(channel_tensor(norm.std)).contiguous();
}

}  // namespace

CropBox random_resized_crop_box(std::int64_t height, std::int64_t width, random::SplitMix64& rng,
                                const RandomResizedCropOptions& options) {
  if (height <= 0 || width <= 0) throw std::invalid_argument("a crop of an empty image");
  const double area = static_cast<double>(height) * static_cast<double>(width);
  const double log_lo = std::log(options.ratio_min), log_hi = std::log(options.ratio_max);
  for (int attempt = 0; attempt < 10; ++attempt) {
    const double target = area * uniform(rng, options.scale_min, options.scale_max);
    const double ratio = std::exp(uniform(rng, log_lo, log_hi));
    const std::int64_t w = round_int(std::sqrt(target * ratio));
    const std::int64_t h = round_int(std::sqrt(target / ratio));
    if (w > 0 && w <= width && h > 0 && h <= height) {
      const auto top =
          static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(height - h + 1)));
      const auto left =
          static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(width - w + 1)));
      return {top, left, h, w};
    }
  }
  // No draw fitted (a very elongated image): the whole image, trimmed to the ratio range.
  const double in_ratio = static_cast<double>(width) / static_cast<double>(height);
  std::int64_t w = width, h = height;
  if (in_ratio < options.ratio_min) {
    h = std::min(height, round_int(static_cast<double>(w) / options.ratio_min));
  } else if (in_ratio > options.ratio_max) {
    w = std::min(width, round_int(static_cast<double>(h) * options.ratio_max));
  }
  return {(height - h) / 2, (width - w) / 2, h, w};
}

at::Tensor crop_resize_normalize(const data::RgbImage& image, const CropBox& box,
                                 std::int64_t out_height, std::int64_t out_width, bool flip,
                                 const Normalization& norm) {
  const auto height = static_cast<std::int64_t>(image.height);
  const auto width = static_cast<std::int64_t>(image.width);
  if (image.pixels.size() != static_cast<std::size_t>(height * width * 3) || box.top < 0 ||
      box.left < 0 || box.height <= 0 || box.width <= 0 || box.top + box.height > height ||
      box.left + box.width > width || out_height <= 0 || out_width <= 0) {
    throw std::invalid_argument("crop_resize_normalize: box " + std::to_string(box.top) + "," +
                                std::to_string(box.left) + " " + std::to_string(box.height) + "x" +
                                std::to_string(box.width) + " of a " + std::to_string(height) +
                                "x" + std::to_string(width) + " image, or an empty output");
  }
  // A view of the caller's pixels (HWC); the crop is a view too, and the first copy is the
  // conversion to float of the cropped pixels alone.
  const at::Tensor hwc = at::from_blob(const_cast<std::uint8_t*>(image.pixels.data()),
                                       {height, width, 3}, at::TensorOptions().dtype(at::kByte));
  at::Tensor x = hwc.slice(0, box.top, box.top + box.height)
                     .slice(1, box.left, box.left + box.width)
                     .permute({2, 0, 1})
                     .to(at::kFloat)
                     .div_(255.0)
                     .unsqueeze(0);
  if (box.height != out_height || box.width != out_width) {
    x = at::_upsample_bilinear2d_aa(x, {out_height, out_width}, /*align_corners=*/false);
  }
  x = x.squeeze(0);
  if (flip) x = at::flip(x, {2});
  return normalize(x, norm);
}

at::Tensor train_transform(const data::RgbImage& image, random::SplitMix64& rng, std::int64_t size,
                           const Normalization& norm) {
  const CropBox box = random_resized_crop_box(image.height, image.width, rng);
  const bool flip = rng.below(2) == 1;
  return crop_resize_normalize(image, box, size, size, flip, norm);
}

at::Tensor val_transform(const data::RgbImage& image, std::int64_t resize, std::int64_t crop,
                         const Normalization& norm) {
  const auto height = static_cast<std::int64_t>(image.height);
  const auto width = static_cast<std::int64_t>(image.width);
  if (height <= 0 || width <= 0 || resize <= 0 || crop <= 0 || crop > resize) {
    throw std::invalid_argument("val_transform: an empty image, or a crop larger than the resize");
  }
  // Resized whole, then cropped, as torchvision's Resize and CenterCrop do.
  const bool tall = height > width;
  const std::int64_t rh = tall ? resize * height / width : resize;
  const std::int64_t rw = tall ? resize : resize * width / height;
  const at::Tensor resized = crop_resize_normalize(image, {0, 0, height, width}, rh, rw, false,
                                                   Normalization{{0, 0, 0}, {1, 1, 1}});
  const std::int64_t top = round_int(static_cast<double>(rh - crop) / 2.0);
  const std::int64_t left = round_int(static_cast<double>(rw - crop) / 2.0);
  return normalize(resized.slice(1, top, top + crop).slice(2, left, left + crop), norm);
}

}  // namespace ordo::train
