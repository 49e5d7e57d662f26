#include "report/plot/png_image.hpp"

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ordo::plot {

namespace {

constexpr std::uint32_t side_max = 8192;

void put_u32(std::string& out, std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) {
    out.push_back(static_cast<char>((v >> shift) & 0xFF));
  }
}

// Length, type, data, and the CRC of type and data (PNG 1.2, §3.2).
void put_chunk(std::string& out, const char type[5], const std::string& data) {
  put_u32(out, static_cast<std::uint32_t>(data.size()));
  const std::size_t from = out.size();
  out.append(type, 4);
  out += data;
  uLong crc = crc32(0L, Z_NULL, 0);
  crc = crc32(crc, reinterpret_cast<const Bytef*>(out.data() + from),
              static_cast<uInt>(out.size() - from));
  put_u32(out, static_cast<std::uint32_t>(crc));
}

}  // namespace

Image::Image(std::uint32_t width, std::uint32_t height, Rgb background)
    : width_(width), height_(height) {
  if (width == 0 || height == 0 || width > side_max || height > side_max) {
    throw std::invalid_argument("an image of " + std::to_string(width) + " x " +
                                std::to_string(height) + " pixels; expected sides of 1 to " +
                                std::to_string(side_max));
  }
  pixels_.assign(std::size_t{width} * height, background);
}

void Image::set(std::int64_t x, std::int64_t y, Rgb colour) {
  if (x < 0 || y < 0 || x >= width_ || y >= height_) return;
  pixels_[static_cast<std::size_t>(y) * width_ + static_cast<std::size_t>(x)] = colour;
}

Rgb Image::at(std::uint32_t x, std::uint32_t y) const {
  return pixels_.at(std::size_t{y} * width_ + x);
}

void Image::fill(std::int64_t x, std::int64_t y, std::int64_t w, std::int64_t h, Rgb colour) {
  for (std::int64_t j = y; j < y + h; ++j) {
    for (std::int64_t i = x; i < x + w; ++i) set(i, j, colour);
  }
}

void Image::line(double x0, double y0, double x1, double y1, Rgb colour, int thickness) {
  // Steps of at most half a pixel along the longer axis; the pen is a square around each point.
  const double length = std::max(std::fabs(x1 - x0), std::fabs(y1 - y0));
  const int steps = static_cast<int>(std::min(std::ceil(length * 2.0), 4.0 * side_max)) + 1;
  const int half = thickness / 2;
  for (int s = 0; s <= steps; ++s) {
    const double t = static_cast<double>(s) / steps;
    const auto x = static_cast<std::int64_t>(std::lround(x0 + (x1 - x0) * t));
    const auto y = static_cast<std::int64_t>(std::lround(y0 + (y1 - y0) * t));
    fill(x - half, y - half, thickness, thickness, colour);
  }
}

std::string Image::png() const {
  std::string raw;
  raw.reserve(std::size_t{height_} * (1 + 3 * std::size_t{width_}));
  for (std::uint32_t y = 0; y < height_; ++y) {
    raw.push_back(0);  // filter type 0: the row as it is
    for (std::uint32_t x = 0; x < width_; ++x) {
      const Rgb& p = pixels_[std::size_t{y} * width_ + x];
      raw.push_back(static_cast<char>(p.r));
      raw.push_back(static_cast<char>(p.g));
      raw.push_back(static_cast<char>(p.b));
    }
  }
  uLongf packed_size = compressBound(static_cast<uLong>(raw.size()));
  std::string packed(packed_size, '\0');
  if (compress2(reinterpret_cast<Bytef*>(packed.data()), &packed_size,
                reinterpret_cast<const Bytef*>(raw.data()), static_cast<uLong>(raw.size()),
                Z_BEST_COMPRESSION) != Z_OK) {
    throw std::runtime_error("zlib could not compress the image");
  }
  packed.resize(packed_size);

  std::string out("\x89PNG\r\n\x1a\n", 8);
  std::string header;
  put_u32(header, width_);
  put_u32(header, height_);
  header += std::string("\x08\x02\x00\x00\x00",
                        5);  // 8 bits, truecolour, deflate, filter 0, no interlace
  put_chunk(out, "IHDR", header);
  put_chunk(out, "IDAT", packed);
  put_chunk(out, "IEND", {});
  return out;
}

}  // namespace ordo::plot
