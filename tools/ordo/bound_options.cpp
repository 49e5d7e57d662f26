#include "tools/ordo/bound_options.hpp"

#include <cmath>
#include <exception>
#include <string>

namespace ordo::tools {

const CLI::Validator& seconds_bound() {
  static const CLI::Validator validator(
      [](std::string& text) -> std::string {
        std::size_t used = 0;
        double value = 0.0;
        try {
          value = std::stod(text, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used != text.size() || used == 0 || !std::isfinite(value) || value <= 0.0) {
          return "'" + text + "' is not a time limit; expected a finite number of seconds above 0";
        }
        return {};
      },
      "SECONDS");
  return validator;
}

void add_memory_max(CLI::App* sub, std::uint64_t& bytes) {
  sub->add_option("--memory-max", bytes,
                  "resident memory the whole command may take before the answer is unknown, in "
                  "bytes or with a unit (512M, 4G; default: 3/4 of the machine's, at most 8G); "
                  "read every 5 ms, so the peak may pass it by what the command allocates in "
                  "that time (a few MB; docs/checker.md, \"Bounds\")")
      ->transform(CLI::AsSizeValue(false))
      ->check(CLI::PositiveNumber);
}

}  // namespace ordo::tools
