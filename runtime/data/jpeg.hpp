// JPEG to and from RGB pixels, through libjpeg-turbo's TurboJPEG API (Debian's
// libturbojpeg0-dev), the decoder MXNet's own image iterators can use. Pixels are unsigned bytes
// in HWC order: rows top to bottom, each pixel R, G, B.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ordo::data {

struct RgbImage {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::vector<std::uint8_t> pixels;  // height * width * 3
};

// Larger than any ImageNet photo (the largest are a few thousand pixels a side), small enough
// that a header claiming 65535 x 65535 is refused before 12 GiB are allocated for it.
inline constexpr std::uint64_t jpeg_pixels_max = std::uint64_t{1} << 26;

struct JpegSize {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
};

// The size a JPEG's header declares, without decoding it. Throws DataError at `where` when the
// bytes are no JPEG header or declare more than `max_pixels`.
JpegSize jpeg_size(std::string_view jpeg, std::string_view where,
                   std::uint64_t max_pixels = jpeg_pixels_max);

// Decodes any JPEG libjpeg-turbo reads to RGB: greyscale is repeated in the three channels, CMYK
// (and YCCK) is converted as OpenCV converts it. A warning, such as data
// that ends early, is an error here: a truncated image would otherwise decode with grey rows.
// Progressive images are limited in scans (TurboJPEG's guard against a slow-decoding input).
// Throws DataError at `where`.
RgbImage decode_jpeg(std::string_view jpeg, std::string_view where,
                     std::uint64_t max_pixels = jpeg_pixels_max);

// Encodes with 4:2:0 chroma subsampling, as im2rec's OpenCV does by default; quality 1-100.
std::string encode_jpeg(const RgbImage& image, int quality = 90);

}  // namespace ordo::data
