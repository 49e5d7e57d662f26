// A line chart of a few series on one PNG: what `ordo simulate --plot` draws (predicted epoch
// time against ranks, one line per design). Axes start at the data's extent (x, on a log2 scale
// when asked) and at zero (y), with round tick values; a legend names each series in its colour.
#pragma once

#include <string>
#include <vector>

#include "report/plot/png_image.hpp"

namespace ordo::plot {

struct Series {
  std::string name;
  std::vector<double> x;  // as many as y; positive where the x axis is log2
  std::vector<double> y;
};

struct LineChart {
  std::string title;
  std::string x_label;
  std::string y_label;
  bool log2_x = false;
  std::vector<Series> series;
};

// Throws std::invalid_argument for no series, a series whose x and y differ in length or are
// empty, a value that is not finite, or an x of 0 or less on a log2 axis.
Image draw(const LineChart& chart);

}  // namespace ordo::plot
