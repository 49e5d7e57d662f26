// The standard ImageNet transforms (as torchvision and MXNet's ImageRecordIter apply them), from a
// decoded RGB image (runtime/data/jpeg.hpp) to a normalised CHW float tensor, on ATen's kernels:
//
// - training: a random resized crop (an area of 8% to 100% of the image, an aspect ratio from
//   3/4 to 4/3, drawn log-uniform), resized to 224x224, flipped left-right half the time;
// - validation: the shorter side resized to 256, the centre 224x224 cut out;
//
// then each channel normalised with ImageNet's mean and standard deviation. The draws come from
// SplitMix64 (runtime/random), so a seed fixes every crop and flip on any machine. Resizing is
// bilinear with antialiasing (ATen's _upsample_bilinear2d_aa), as torchvision resizes tensors,
// so a downscale does not alias.
#pragma once

#include <ATen/core/Tensor.h>

#include <array>
#include <cstdint>

#include "runtime/data/jpeg.hpp"
#include "runtime/random/split_mix64.hpp"

namespace ordo::train {

struct Normalization {
  std::array<float, 3> mean{0.485f, 0.456f, 0.406f};  // ImageNet's, of pixels scaled to [0, 1]
  std::array<float, 3> std{0.229f, 0.224f, 0.225f};
};

struct CropBox {
  std::int64_t top = 0;
  std::int64_t left = 0;
  std::int64_t height = 0;
  std::int64_t width = 0;
};

struct RandomResizedCropOptions {
  double scale_min = 0.08;
  double scale_max = 1.0;
  double ratio_min = 3.0 / 4.0;
  double ratio_max = 4.0 / 3.0;
};

// torchvision's RandomResizedCrop draw: up to 10 tries of an area and a ratio whose box fits the
// image, placed uniformly; after 10 misses, the largest centred box whose ratio lies in range.
CropBox random_resized_crop_box(std::int64_t height, std::int64_t width, random::SplitMix64& rng,
                                const RandomResizedCropOptions& options = {});

// The box of `image` resized to out_height x out_width, flipped left-right when `flip`, as a
// normalised [3, out_height, out_width] float tensor. Throws std::invalid_argument for a box
// outside the image or an empty size.
at::Tensor crop_resize_normalize(const data::RgbImage& image, const CropBox& box,
                                 std::int64_t out_height, std::int64_t out_width, bool flip,
                                 const Normalization& norm = {});

// Training augmentation: a random resized crop to size x size and a flip with probability 1/2.
at::Tensor train_transform(const data::RgbImage& image, random::SplitMix64& rng,
                           std::int64_t size = 224, const Normalization& norm = {});

// Validation: the shorter side resized to `resize` (the longer in proportion, truncated as
// torchvision's Resize does), then the centre crop x crop.
at::Tensor val_transform(const data::RgbImage& image, std::int64_t resize = 256,
                         std::int64_t crop = 224, const Normalization& norm = {});

}  // namespace ordo::train
