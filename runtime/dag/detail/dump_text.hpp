// JSON text pieces for the dump writer. The writer lays out the document itself (one table entry
// per line); these produce the values inside it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ordo::dag::detail {

// A JSON string literal. Invalid UTF-8 is replaced by U+FFFD, so writing never fails; valid
// names (name_rules.hpp) are written exactly.
std::string json_string(std::string_view text);
// The shortest text that reads back as exactly `number`; JSON has no NaN or infinity, so those
// are written as null, which the reader rejects.
std::string json_number(double number);
std::string json_number(std::uint64_t number);
std::string json_number(std::int64_t number);

// `[a, b, c]` from JSON values.
std::string json_inline_array(const std::vector<std::string>& values);

// One JSON object on one line: {"name": "g0", "bytes": 4096}.
class InlineObject {
 public:
  InlineObject& field(std::string_view key, std::string value_json);
  std::string text() const;

 private:
  std::string members_;
};

}  // namespace ordo::dag::detail
