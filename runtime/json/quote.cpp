#include "runtime/json/quote.hpp"

#include <array>
#include <cassert>

#include "runtime/json/utf8.hpp"

namespace ordo::json {
namespace {

void append_hex_escape(std::string& out, unsigned byte) {
  constexpr std::array<char, 16> digits = {'0', '1', '2', '3', '4', '5', '6', '7',
                                           '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};
  out += "\\x";
  out += digits[(byte >> 4) & 0xFu];
  out += digits[byte & 0xFu];
}

// Quotes and backslashes need escaping only inside quote(), where they delimit the text.
std::string escape(std::string_view text, std::size_t bytes_max, bool escape_quotes) {
  std::string out;
  std::size_t at = 0;
  while (at < text.size() && at < bytes_max) {
    const std::optional<CodePoint> point = decode_utf8(text, at);
    if (!point.has_value()) {
      append_hex_escape(out, static_cast<unsigned char>(text[at]));
      at += 1;
      continue;
    }
    if (point->value == '\n') {
      out += "\\n";
    } else if (escape_quotes && (point->value == '\'' || point->value == '\\')) {
      out += '\\';
      out += static_cast<char>(point->value);
    } else if (is_control(point->value)) {
      // C1 controls are two bytes long; escaping each byte keeps the output ASCII-safe.
      for (std::size_t i = 0; i < point->bytes; ++i) {
        append_hex_escape(out, static_cast<unsigned char>(text[at + i]));
      }
    } else {
      out.append(text.substr(at, point->bytes));
    }
    at += point->bytes;
  }
  assert(at <= text.size());
  if (at < text.size()) {
    out += "...";
  }
  return out;
}

}  // namespace

std::string escaped(std::string_view text, std::size_t bytes_max) {
  return escape(text, bytes_max, false);
}

std::string quote(std::string_view text) {
  // Appending rather than `"'" + ...`: g++ 12 at -O3 reports a false -Wrestrict on the latter.
  std::string out = "'";
  out.append(escape(text, quoted_bytes_max, true));
  out.push_back('\'');
  return out;
}

}  // namespace ordo::json
