#include "runtime/dag/name_rules.hpp"

#include <cassert>

#include "runtime/dag/limits.hpp"
#include "runtime/json/utf8.hpp"

namespace ordo::dag {

std::optional<std::string> name_problem(std::string_view name) {
  if (name.empty()) {
    return "name is empty";
  }
  if (name.size() > limits::name_bytes_max) {
    return "name is " + std::to_string(name.size()) + " bytes long";
  }
  std::size_t at = 0;
  while (at < name.size()) {
    const std::optional<json::CodePoint> point = json::decode_utf8(name, at);
    if (!point.has_value()) {
      return "name is not valid UTF-8 at byte " + std::to_string(at);
    }
    if (json::is_control(point->value)) {
      return "name holds control character " + json::unicode_name(point->value) + " at byte " +
             std::to_string(at);
    }
    at += point->bytes;
  }
  assert(at == name.size());
  return std::nullopt;
}

std::string name_expectation() {
  return "a non-empty name of printable UTF-8 characters, at most " +
         std::to_string(limits::name_bytes_max) + " bytes";
}

}  // namespace ordo::dag
