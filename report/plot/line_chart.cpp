#include "report/plot/line_chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "report/plot/glyphs.hpp"

namespace ordo::plot {

namespace {

constexpr std::uint32_t width = 900;
constexpr std::uint32_t height = 540;
constexpr int left = 100;
constexpr int top = 60;
constexpr int right = static_cast<int>(width) - 230;
constexpr int bottom = static_cast<int>(height) - 70;
constexpr int scale = 2;  // font pixels per glyph pixel
constexpr int advance = (glyph_width + 1) * scale;

constexpr Rgb white{255, 255, 255};
constexpr Rgb black{0, 0, 0};
constexpr Rgb grid{225, 225, 225};
// Distinct on white and for the common colour-vision deficiencies: Okabe and Ito's palette, with
// a dark red for its yellow, which is faint on white.
constexpr Rgb palette[] = {{0, 114, 178}, {213, 94, 0},   {0, 158, 115}, {204, 121, 167},
                           {230, 159, 0}, {86, 180, 233}, {0, 0, 0},     {140, 40, 40}};

int text_width(const std::string& s) { return static_cast<int>(s.size()) * advance; }

void text(Image& image, int x, int y, const std::string& s, Rgb colour) {
  for (char c : s) {
    const auto& rows = glyph(c);
    for (int r = 0; r < glyph_height; ++r) {
      for (int b = 0; b < glyph_width; ++b) {
        if ((rows[static_cast<std::size_t>(r)] >> (glyph_width - 1 - b)) & 1) {
          image.fill(x + b * scale, y + r * scale, scale, scale, colour);
        }
      }
    }
    x += advance;
  }
}

std::string number(double v) {
  char s[32];
  std::snprintf(s, sizeof s, "%g", v);
  return s;
}

// A tick step of 1, 2 or 5 times a power of ten giving about five ticks up to `max`.
double tick_step(double max) {
  const double raw = max / 5.0;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0}) {
    if (m * power >= raw) return m * power;
  }
  return 10.0 * power;
}

void check(const LineChart& chart) {
  if (chart.series.empty()) throw std::invalid_argument("a chart needs a series");
  for (const Series& s : chart.series) {
    if (s.x.empty() || s.x.size() != s.y.size()) {
      throw std::invalid_argument("series '" + s.name + "' has " + std::to_string(s.x.size()) +
                                  " x and " + std::to_string(s.y.size()) +
                                  " y values; expected as many of each, at least one");
    }
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i]) || (chart.log2_x && s.x[i] <= 0)) {
        throw std::invalid_argument("series '" + s.name + "' has the point (" + number(s.x[i]) +
                                    ", " + number(s.y[i]) + "); expected finite values" +
                                    (chart.log2_x ? ", x above 0 on the log2 axis" : ""));
      }
    }
  }
}

}  // namespace

Image draw(const LineChart& chart) {
  check(chart);
  const auto fx = [&](double x) { return chart.log2_x ? std::log2(x) : x; };
  double x_min = fx(chart.series[0].x[0]);
  double x_max = x_min;
  double y_max = 0.0;
  double y_min = 0.0;
  std::vector<double> x_ticks;
  for (const Series& s : chart.series) {
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      x_min = std::min(x_min, fx(s.x[i]));
      x_max = std::max(x_max, fx(s.x[i]));
      y_max = std::max(y_max, s.y[i]);
      y_min = std::min(y_min, s.y[i]);
      x_ticks.push_back(s.x[i]);
    }
  }
  std::sort(x_ticks.begin(), x_ticks.end());
  x_ticks.erase(std::unique(x_ticks.begin(), x_ticks.end()), x_ticks.end());
  if (y_max <= y_min) y_max = y_min + 1.0;
  const double step = tick_step(y_max - y_min);
  y_max = std::ceil(y_max / step) * step;
  y_min = std::floor(y_min / step) * step;
  const auto px = [&](double x) {
    if (x_max == x_min) return (left + right) / 2.0;
    return left + (fx(x) - x_min) / (x_max - x_min) * (right - left);
  };
  const auto py = [&](double y) { return bottom - (y - y_min) / (y_max - y_min) * (bottom - top); };

  Image image(width, height, white);
  for (double y = y_min; y <= y_max + step / 2; y += step) {
    image.line(left, py(y), right, py(y), grid);
    const std::string label = number(y);
    text(image, left - 10 - text_width(label), static_cast<int>(py(y)) - glyph_height, label,
         black);
  }
  // Ticks at the data's x values only: on a log2 axis of rank counts, the counts measured.
  int last_label_end = -1000;
  for (double x : x_ticks) {
    image.line(px(x), top, px(x), bottom, grid);
    const std::string label = number(x);
    const int at = static_cast<int>(px(x)) - text_width(label) / 2;
    if (at > last_label_end + 4) {
      text(image, at, bottom + 10, label, black);
      last_label_end = at + text_width(label);
    }
  }
  image.line(left, top, left, bottom, black, 2);
  image.line(left, bottom, right, bottom, black, 2);
  text(image, (static_cast<int>(width) - text_width(chart.title)) / 2, 16, chart.title, black);
  text(image, (left + right - text_width(chart.x_label)) / 2, bottom + 40, chart.x_label, black);
  text(image, 10, top - 28, chart.y_label, black);

  for (std::size_t i = 0; i < chart.series.size(); ++i) {
    const Series& s = chart.series[i];
    const Rgb colour = palette[i % std::size(palette)];
    std::vector<std::size_t> order(s.x.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return s.x[a] < s.x[b]; });
    for (std::size_t k = 0; k < order.size(); ++k) {
      const double x = px(s.x[order[k]]);
      const double y = py(s.y[order[k]]);
      image.fill(static_cast<std::int64_t>(x) - 3, static_cast<std::int64_t>(y) - 3, 7, 7, colour);
      if (k > 0) {
        image.line(px(s.x[order[k - 1]]), py(s.y[order[k - 1]]), x, y, colour, 3);
      }
    }
    const int ly = top + 10 + static_cast<int>(i) * 26;
    image.line(right + 20, ly + glyph_height, right + 50, ly + glyph_height, colour, 3);
    text(image, right + 58, ly, s.name, colour);
  }
  return image;
}

}  // namespace ordo::plot
