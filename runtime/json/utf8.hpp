// Strict UTF-8 decoding (RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF), the
// same rule nlohmann::json applies, so names valid here are exactly the names a dump can carry.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace ordo::json {

struct CodePoint {
  char32_t value = 0;
  std::size_t bytes = 0;  // length of its encoding, 1 to 4
};

// The code point whose encoding starts at text[at], or nullopt if the bytes there are not UTF-8.
std::optional<CodePoint> decode_utf8(std::string_view text, std::size_t at);

// C0 controls, DEL and C1 controls: characters that do not print and can rewrite a terminal.
bool is_control(char32_t code_point);

// "U+000A": the Unicode notation for a code point, for messages.
std::string unicode_name(char32_t code_point);

}  // namespace ordo::json
