#include "runtime/json/utf8.hpp"

#include <array>
#include <cassert>
#include <cstdio>

namespace ordo::json {
namespace {

bool is_continuation(unsigned char byte) { return (byte & 0xC0u) == 0x80u; }

}  // namespace

std::optional<CodePoint> decode_utf8(std::string_view text, std::size_t at) {
  assert(at < text.size());
  const auto lead = static_cast<unsigned char>(text[at]);
  std::size_t length = 0;
  char32_t value = 0;
  char32_t value_min = 0;
  if (lead < 0x80u) {
    return CodePoint{lead, 1};
  } else if ((lead & 0xE0u) == 0xC0u) {
    length = 2;
    value = lead & 0x1Fu;
    value_min = 0x80;
  } else if ((lead & 0xF0u) == 0xE0u) {
    length = 3;
    value = lead & 0x0Fu;
    value_min = 0x800;
  } else if ((lead & 0xF8u) == 0xF0u) {
    length = 4;
    value = lead & 0x07u;
    value_min = 0x10000;
  } else {
    return std::nullopt;
  }
  if (text.size() - at < length) {
    return std::nullopt;
  }
  for (std::size_t i = 1; i < length; ++i) {
    const auto byte = static_cast<unsigned char>(text[at + i]);
    if (!is_continuation(byte)) {
      return std::nullopt;
    }
    value = (value << 6) | (byte & 0x3Fu);
  }
  const bool surrogate = value >= 0xD800 && value <= 0xDFFF;
  if (value < value_min || surrogate || value > 0x10FFFF) {
    return std::nullopt;
  }
  return CodePoint{value, length};
}

bool is_control(char32_t code_point) {
  return code_point < 0x20 || (code_point >= 0x7F && code_point <= 0x9F);
}

std::string unicode_name(char32_t code_point) {
  std::array<char, 16> text{};
  const int length =
      std::snprintf(text.data(), text.size(), "U+%04X", static_cast<unsigned>(code_point));
  assert(length > 0 && static_cast<std::size_t>(length) < text.size());
  return std::string(text.data(), static_cast<std::size_t>(length));
}

}  // namespace ordo::json
