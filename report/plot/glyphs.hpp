// A 5 x 7 pixel font for the labels of a chart: digits, lower-case letters (upper case is drawn as
// lower case) and the punctuation numbers and names need. Anything else is drawn as '?'.
#pragma once

#include <array>
#include <cstdint>

namespace ordo::plot {

inline constexpr int glyph_width = 5;
inline constexpr int glyph_height = 7;

// Row r (0 at the top) of the glyph: bit 4 is the leftmost pixel.
const std::array<std::uint8_t, glyph_height>& glyph(char c);

}  // namespace ordo::plot
