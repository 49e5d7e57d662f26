#include "tools/ordo/bound_options.hpp"

#include <string>

#include "runtime/bounds/bytes.hpp"
#include "runtime/bounds/seconds.hpp"

namespace ordo::tools {

const CLI::Validator& seconds_bound() {
  static const CLI::Validator validator(
      [](std::string& text) -> std::string {
        return bounds::read_seconds(text).problem.value_or(std::string());
      },
      "SECONDS");
  return validator;
}

CLI::Validator byte_count(std::uint64_t least) {
  return CLI::Validator(
      [least](std::string& text) -> std::string {
        const bounds::BytesRead read = bounds::read_bytes(text);
        if (read.problem) return *read.problem;
        if (read.bytes < least) {
          return "'" + text + "' is too small; expected at least " + std::to_string(least) +
                 (least == 1 ? " byte" : " bytes");
        }
        text = std::to_string(read.bytes);
        return {};
      },
      "SIZE");
}

void add_memory_max(CLI::App* sub, std::uint64_t& bytes) {
  sub->add_option("--memory-max", bytes,
                  "resident memory the whole command may take before the answer is unknown, in "
                  "bytes or with a unit (512M, 4G; default: 3/4 of the machine's, at most 8G); "
                  "read every 5 ms, so the peak may pass it by what is allocated in between "
                  "(docs/checker.md, \"Bounds\")")
      ->transform(byte_count(1));
}

}  // namespace ordo::tools
