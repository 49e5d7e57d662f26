#include "report/fixed_text.hpp"

#include <cstdio>

namespace ordo::report {

std::string fixed_text(double value, int decimals) {
  // The first call measures, the second writes: nothing is ever cut.
  const int length = std::snprintf(nullptr, 0, "%.*f", decimals, value);
  if (length <= 0) return {};
  std::string text(static_cast<std::size_t>(length) + 1, '\0');
  std::snprintf(text.data(), text.size(), "%.*f", decimals, value);
  text.resize(static_cast<std::size_t>(length));
  return text;
}

}  // namespace ordo::report
