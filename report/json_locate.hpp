// Where a JSON value is in its text: the lines and columns of the value a JSON pointer (RFC 6901)
// names, so that a report can point at "/programs/0/ops/5" in the file the user wrote. A parsed
// document has forgotten where its values were (nlohmann's parser, SAX included, does not tell),
// so the text is scanned again: without recursion, and giving up (nullopt) rather than guessing
// on text it cannot follow.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ordo::report {

// A value's place in its text. Lines and columns count from 1, lines ending at LF, CR LF or CR;
// columns count UTF-16 code units, the unit SARIF assumes unless told otherwise. `end_column` is
// one past the value's last character, as SARIF's endColumn. `begin` and `end` are byte offsets
// of the value's first byte and one past its last.
struct TextSpan {
  std::uint64_t start_line = 0;
  std::uint64_t start_column = 0;
  std::uint64_t end_line = 0;
  std::uint64_t end_column = 0;
  std::size_t begin = 0;
  std::size_t end = 0;
  friend bool operator==(const TextSpan&, const TextSpan&) = default;
};

// Finds many values in one text, each container's members scanned once: a report places every
// transition of a witness, and scanning the whole dump for each would be quadratic. The text must
// outlive the locator.
class JsonLocator {
 public:
  explicit JsonLocator(std::string_view text);

  // The value at `pointer` ("" is the whole text), or nullopt when the pointer is malformed, names
  // nothing, or passes through text that is not JSON.
  std::optional<TextSpan> locate(std::string_view pointer);

 private:
  // A container's members by where their values start: element offsets for an array, key to
  // offset for an object. Filled once, the first time the container is entered.
  struct Members {
    bool array = false;
    std::vector<std::size_t> elements;
    std::map<std::string, std::size_t, std::less<>> keys;
  };

  const Members* members_at(std::size_t offset);
  TextSpan span(std::size_t begin, std::size_t end) const;
  std::uint64_t column_of(std::size_t offset, std::size_t line_start) const;

  std::string_view text_;
  std::vector<std::size_t> line_starts_;
  // UTF-16 code units before every multiple of `checkpoint_bytes`, so a column on a long line
  // (a dump written on one line) is counted from the nearest checkpoint, not from the line's start.
  std::vector<std::uint64_t> units_before_;
  std::map<std::size_t, std::optional<Members>> containers_;
};

// One value, once: JsonLocator(text).locate(pointer).
std::optional<TextSpan> locate_json_value(std::string_view text, std::string_view pointer);

}  // namespace ordo::report
