#include "runtime/json/parse.hpp"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <utility>
#include <vector>

#include "runtime/errors/input_error.hpp"
#include "runtime/json/limits.hpp"
#include "runtime/json/pointer.hpp"
#include "runtime/json/quote.hpp"

namespace ordo::json {
namespace {

using Json = nlohmann::json;

// Parser messages quote the offending token, which may be a whole (huge) string.
constexpr std::size_t parser_message_bytes_max = 200;
// nlohmann's out_of_range.406: a number literal beyond the range of a double.
constexpr int number_overflow_error_id = 406;

// The byte that opens the first container nested deeper than depth_max. The parser has accepted
// every byte before it, so tracking strings and brackets is enough to find it.
std::size_t depth_excess_offset(std::string_view text, std::uint32_t depth_max) {
  bool in_string = false;
  bool after_backslash = false;
  std::uint32_t depth = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (after_backslash) {
        after_backslash = false;
      } else if (c == '\\') {
        after_backslash = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      depth += 1;
      if (depth > depth_max) {
        return i;
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      depth -= 1;
    }
  }
  return text.size();
}

// nlohmann's message is "[json.exception.parse_error.101] parse error at line 1, column 2:
// syntax error while parsing value - invalid literal; last read: 'x'; expected ...". The
// position is re-derived from the byte offset; the rest splits into problem and expectation.
std::pair<std::string, std::string> split_parser_message(std::string_view message) {
  if (const std::size_t tag_end = message.find("] "); tag_end != std::string_view::npos) {
    message.remove_prefix(tag_end + 2);
  }
  if (message.starts_with("parse error")) {
    if (const std::size_t colon = message.find(": "); colon != std::string_view::npos) {
      message.remove_prefix(colon + 2);
    }
  }
  std::string_view expected = "well-formed JSON (RFC 8259)";
  if (const std::size_t at = message.rfind("; expected "); at != std::string_view::npos) {
    expected = message.substr(at + 11);
    message = message.substr(0, at);
  }
  return {escaped(message, parser_message_bytes_max), escaped(expected, parser_message_bytes_max)};
}

// Builds the document the way nlohmann's own DOM parser does, plus the checks it lacks. The
// parser drives it iteratively, so no input makes it recurse.
class DomBuilder final : public nlohmann::json_sax<Json> {
 public:
  explicit DomBuilder(std::string_view text) : text_(text) {}

  Json take() {
    assert(open_.empty() && "the parser closed every container");
    return std::move(root_);
  }

  bool null() override { return place(Json(nullptr)); }
  bool boolean(bool value) override { return place(Json(value)); }
  bool number_integer(number_integer_t value) override { return place(Json(value)); }
  bool number_unsigned(number_unsigned_t value) override { return place(Json(value)); }
  bool number_float(number_float_t value, const string_t& /*text*/) override {
    return place(Json(value));
  }
  bool string(string_t& value) override { return place(Json(std::move(value))); }
  bool binary(binary_t& /*value*/) override {
    // JSON text has no binary values; only the binary formats (CBOR, ...) produce them.
    throw errors::InputError("/", "binary value in JSON text", "JSON values only");
  }

  bool start_object(std::size_t /*elements*/) override { return open(Json::object()); }
  bool start_array(std::size_t /*elements*/) override { return open(Json::array()); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }

  bool key(string_t& key) override {
    assert(!open_.empty() && open_.back().container->is_object());
    auto& members = open_.back().container->get_ref<Json::object_t&>();
    // try_emplace leaves `key` alone when it is already there, so the message can name it.
    const auto [slot, inserted] = members.try_emplace(std::move(key), nullptr);
    if (!inserted) {
      throw errors::InputError(pointer_child(open_pointer(), key), "duplicate field " + quote(key),
                               "each field at most once per object");
    }
    pending_ = &slot->second;
    pending_key_ = &slot->first;
    return true;
  }

  bool parse_error(std::size_t position, const std::string& /*last_token*/,
                   const Json::exception& error) override {
    // `position` counts the bytes read, the offending one included.
    const std::size_t offset = position > 0 ? position - 1 : 0;
    auto [problem, expected] = split_parser_message(error.what());
    if (error.id == number_overflow_error_id) {
      expected = "a number within the range of a double";
    }
    throw errors::InputError(text_position(text_, offset), problem, expected);
  }

 private:
  // Puts a value where the parser is: the root, the next array element, or the value of the
  // last key. The SAX interface wants true to go on.
  bool place(Json&& value) {
    placed(std::move(value));
    return true;
  }

  // As place(), returning where the value went.
  Json* placed(Json&& value) {
    if (open_.empty()) {
      root_ = std::move(value);
      return &root_;
    }
    Json& container = *open_.back().container;
    if (container.is_array()) {
      container.get_ref<Json::array_t&>().push_back(std::move(value));
      return &container.back();
    }
    assert(pending_ != nullptr && "an object member's value follows its key");
    Json* slot = std::exchange(pending_, nullptr);
    *slot = std::move(value);
    return slot;
  }

  bool open(Json&& container) {
    if (open_.size() >= limits::depth_max) {
      throw errors::InputError(
          text_position(text_, depth_excess_offset(text_, limits::depth_max)),
          "arrays and objects nested deeper than " + std::to_string(limits::depth_max) + " levels",
          "at most " + std::to_string(limits::depth_max) + " levels of nesting");
    }
    const bool in_object = !open_.empty() && open_.back().container->is_object();
    const std::string* key = in_object ? pending_key_ : nullptr;
    open_.push_back({placed(std::move(container)), key});
    return true;
  }

  bool close() {
    assert(!open_.empty() && "the parser balances containers");
    open_.pop_back();
    return true;
  }

  // The pointer of the innermost open container, built only for a message. An open container
  // inside an array is that array's last element.
  std::string open_pointer() const {
    std::string pointer;
    for (std::size_t i = 1; i < open_.size(); ++i) {
      const Json& parent = *open_[i - 1].container;
      pointer = parent.is_array() ? pointer_child(pointer, parent.size() - 1)
                                  : pointer_child(pointer, *open_[i].key);
    }
    return pointer;
  }

  // A container being filled, and the key it sits under when its parent is an object. Map keys
  // do not move while the map grows, so the pointer stays valid.
  struct Open {
    Json* container = nullptr;
    const std::string* key = nullptr;
  };

  std::string_view text_;
  Json root_;
  std::vector<Open> open_;                    // innermost last
  Json* pending_ = nullptr;                   // the slot of the last key, until its value comes
  const std::string* pending_key_ = nullptr;  // and that key
};

}  // namespace

Json parse_json(std::string_view text) {
  DomBuilder builder(text);
  const bool parsed = Json::sax_parse(text.begin(), text.end(), &builder);
  // Every failure throws from the builder, so the parser can only report success here.
  assert(parsed);
  static_cast<void>(parsed);
  return builder.take();
}

std::string text_position(std::string_view text, std::size_t offset) {
  const std::size_t end = std::min(offset, text.size());
  const std::string_view before = text.substr(0, end);
  const auto line = static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n')) + 1;
  const std::size_t line_start = before.rfind('\n');
  const std::size_t column = line_start == std::string_view::npos ? end + 1 : end - line_start;
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

}  // namespace ordo::json
