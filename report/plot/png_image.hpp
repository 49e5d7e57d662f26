// An RGB raster and its PNG encoding (8-bit truecolour, no interlace, filter 0 on every row),
// with zlib for the compressed stream and the chunks' CRCs: what `ordo simulate --plot` draws on.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ordo::plot {

struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
  friend bool operator==(const Rgb&, const Rgb&) = default;
};

class Image {
 public:
  // Throws std::invalid_argument for a side of 0 or above 8192.
  Image(std::uint32_t width, std::uint32_t height, Rgb background);
  std::uint32_t width() const { return width_; }
  std::uint32_t height() const { return height_; }
  // Pixels outside the image are ignored, so shapes may be drawn across its edges.
  void set(std::int64_t x, std::int64_t y, Rgb colour);
  Rgb at(std::uint32_t x, std::uint32_t y) const;
  // A line `thickness` pixels wide (a square pen), endpoints included.
  void line(double x0, double y0, double x1, double y1, Rgb colour, int thickness = 1);
  void fill(std::int64_t x, std::int64_t y, std::int64_t w, std::int64_t h, Rgb colour);
  // The PNG file's bytes.
  std::string png() const;

 private:
  std::uint32_t width_;
  std::uint32_t height_;
  std::vector<Rgb> pixels_;
};

}  // namespace ordo::plot
