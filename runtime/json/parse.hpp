// JSON text to a nlohmann::json document, with the dump's limits applied while parsing: nesting
// depth, duplicate object keys (which nlohmann would silently collapse), and syntax errors turned
// into DumpErrors at a line and column.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace ordo::json {

// Throws errors::InputError for malformed text, nesting deeper than limits::depth_max, or an object
// with a repeated key. The text's size is the caller's to bound.
nlohmann::json parse_json(std::string_view text);

// "line L, column C" (both from 1, columns in bytes) for the byte at `offset`; an offset past
// the end names the position just after the last byte.
std::string text_position(std::string_view text, std::size_t offset);

}  // namespace ordo::json
