#include "runtime/diag/debug_mode.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace ordo::diag {

bool check_collectives_from_env() {
  const char* text = std::getenv("ORDO_DEBUG");
  if (text == nullptr) return false;
  std::string value = text;
  std::transform(value.begin(), value.end(), value.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (value.empty() || value == "off") return false;
  if (value == "detail") return true;
  throw std::invalid_argument(std::string("ORDO_DEBUG is '") + text + "'; expected off or detail");
}

}  // namespace ordo::diag
