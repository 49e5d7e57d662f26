#include "runtime/dag/detail/dump_text.hpp"

#include <cassert>
#include <nlohmann/json.hpp>

namespace ordo::dag::detail {

std::string json_string(std::string_view text) {
  return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string json_number(double number) { return nlohmann::json(number).dump(); }

std::string json_number(std::uint64_t number) { return std::to_string(number); }

std::string json_number(std::int64_t number) { return std::to_string(number); }

std::string json_inline_array(const std::vector<std::string>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    out += i == 0 ? "" : ", ";
    out += values[i];
  }
  return out + "]";
}

InlineObject& InlineObject::field(std::string_view key, std::string value_json) {
  assert(!value_json.empty());
  members_ += members_.empty() ? "" : ", ";
  members_ += json_string(key);
  members_ += ": ";
  members_ += value_json;
  return *this;
}

std::string InlineObject::text() const { return "{" + members_ + "}"; }

}  // namespace ordo::dag::detail
