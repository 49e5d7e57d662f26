// The PNG a chart is written as, read back with zlib the way a viewer would: signature, chunk
// lengths and CRCs, the header's size and colour type, and the pixels behind the compressed
// stream, where the series' lines must be in their colours.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "report/plot/line_chart.hpp"
#include "report/plot/png_image.hpp"

namespace ordo::plot {
namespace {

std::uint32_t u32(const std::string& s, std::size_t at) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < 4; ++i) v = v << 8 | static_cast<unsigned char>(s[at + i]);
  return v;
}

struct Decoded {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::vector<unsigned char> rows;  // filter byte, then RGB, per row
  Rgb at(std::uint32_t x, std::uint32_t y) const {
    const std::size_t i = std::size_t{y} * (1 + 3 * std::size_t{width}) + 1 + 3 * std::size_t{x};
    return {rows[i], rows[i + 1], rows[i + 2]};
  }
};

Decoded decode(const std::string& png) {
  Decoded d;
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  std::string idat;
  std::vector<std::string> types;
  for (std::size_t at = 8; at < png.size();) {
    const std::uint32_t length = u32(png, at);
    const std::string type = png.substr(at + 4, 4);
    const std::string data = png.substr(at + 8, length);
    const uLong crc = crc32(0L, reinterpret_cast<const Bytef*>(png.data() + at + 4), length + 4);
    EXPECT_EQ(u32(png, at + 8 + length), static_cast<std::uint32_t>(crc)) << type;
    types.push_back(type);
    if (type == "IHDR") {
      d.width = u32(data, 0);
      d.height = u32(data, 4);
      EXPECT_EQ(data.substr(8), std::string("\x08\x02\x00\x00\x00", 5));
    }
    if (type == "IDAT") idat += data;
    at += 12 + length;
  }
  EXPECT_EQ(types, (std::vector<std::string>{"IHDR", "IDAT", "IEND"}));
  uLongf size = std::size_t{d.height} * (1 + 3 * std::size_t{d.width});
  d.rows.assign(size, 0);
  EXPECT_EQ(uncompress(d.rows.data(), &size, reinterpret_cast<const Bytef*>(idat.data()),
                       static_cast<uLong>(idat.size())),
            Z_OK);
  EXPECT_EQ(size, d.rows.size());
  return d;
}

TEST(PngImage, PixelsSurviveTheEncoding) {
  Image image(7, 3, {10, 20, 30});
  image.set(6, 2, {255, 0, 1});
  image.set(7, 0, {1, 1, 1});   // outside: ignored
  image.set(-1, 0, {1, 1, 1});  // outside: ignored
  const Decoded d = decode(image.png());
  EXPECT_EQ(d.width, 7u);
  EXPECT_EQ(d.height, 3u);
  for (std::uint32_t y = 0; y < 3; ++y) EXPECT_EQ(d.rows[y * (1 + 21)], 0) << "filter of row " << y;
  EXPECT_EQ(d.at(0, 0), (Rgb{10, 20, 30}));
  EXPECT_EQ(d.at(6, 2), (Rgb{255, 0, 1}));
  EXPECT_THROW(Image(0, 3, {}), std::invalid_argument);
  EXPECT_THROW(Image(3, 9000, {}), std::invalid_argument);
}

TEST(LineChart, EachSeriesIsDrawnInItsColourBetweenItsPoints) {
  LineChart chart;
  chart.title = "resnet50: predicted epoch time";
  chart.x_label = "ranks";
  chart.y_label = "epoch, minutes";
  chart.log2_x = true;
  chart.series.push_back({"depcha", {8, 64, 256}, {30, 5, 2}});
  chart.series.push_back({"funnel", {8, 64, 256}, {30, 20, 20}});
  const Image image = draw(chart);
  const Decoded d = decode(image.png());
  ASSERT_EQ(d.width, image.width());
  // funnel's flat stretch from 64 to 256 ranks lies on one row: find it by colour somewhere in
  // the right half of the plot, and depcha's colour must appear too.
  std::size_t funnel = 0;
  std::size_t depcha = 0;
  for (std::uint32_t y = 0; y < d.height; ++y) {
    for (std::uint32_t x = d.width / 2; x < d.width; ++x) {
      if (d.at(x, y) == (Rgb{213, 94, 0})) ++funnel;
      if (d.at(x, y) == (Rgb{0, 114, 178})) ++depcha;
    }
  }
  EXPECT_GT(funnel, 200u);
  EXPECT_GT(depcha, 200u);
}

TEST(LineChart, RefusesWhatItCannotDraw) {
  LineChart chart;
  EXPECT_THROW(draw(chart), std::invalid_argument);
  chart.series.push_back({"a", {1, 2}, {1}});
  EXPECT_THROW(draw(chart), std::invalid_argument);
  chart.series[0] = {"a", {0, 2}, {1, 2}};
  chart.log2_x = true;
  EXPECT_THROW(draw(chart), std::invalid_argument);
  chart.series[0] = {"a", {1, 2}, {1, std::nan("")}};
  EXPECT_THROW(draw(chart), std::invalid_argument);
  chart.series[0] = {"a", {4}, {3}};  // one point: drawn, nothing to divide by
  EXPECT_NO_THROW(draw(chart));
}

}  // namespace
}  // namespace ordo::plot
