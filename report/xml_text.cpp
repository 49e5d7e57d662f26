#include "report/xml_text.hpp"

#include <cstdio>

#include "runtime/json/utf8.hpp"

namespace ordo::report {

namespace {

// XML 1.0's Char production less what the caller escapes: tab, LF and CR, and from U+0020 on
// all but the surrogates (never decoded from valid UTF-8) and U+FFFE, U+FFFF.
bool xml_allows(char32_t c) {
  return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c != 0xFFFE && c != 0xFFFF);
}

// "\x01" for a byte or a C0 control, "\uFFFE" for a code point above them.
void append_escape(std::string& out, unsigned value, bool byte) {
  char text[16];
  if (byte) {
    std::snprintf(text, sizeof text, "\\x%02x", value);
  } else {
    std::snprintf(text, sizeof text, "\\u%04X", value);
  }
  out += text;
}

}  // namespace

std::string xml_escaped(std::string_view text, XmlContext context) {
  const bool attribute = context == XmlContext::attribute;
  std::string out;
  out.reserve(text.size());
  std::size_t at = 0;
  while (at < text.size()) {
    const std::optional<json::CodePoint> point = json::decode_utf8(text, at);
    if (!point) {
      append_escape(out, static_cast<unsigned char>(text[at]), true);
      ++at;
      continue;
    }
    const char32_t c = point->value;
    if (!xml_allows(c)) {
      append_escape(out, static_cast<unsigned>(c), c < 0x80);
    } else if (c == '&') {
      out += "&amp;";
    } else if (c == '<') {
      out += "&lt;";
    } else if (c == '>') {
      out += "&gt;";  // also keeps "]]>" out of character data
    } else if (c == '\r') {
      out += "&#13;";
    } else if (attribute && c == '"') {
      out += "&quot;";
    } else if (attribute && c == '\'') {
      out += "&apos;";
    } else if (attribute && c == '\t') {
      out += "&#9;";
    } else if (attribute && c == '\n') {
      out += "&#10;";
    } else {
      out.append(text.substr(at, point->bytes));
    }
    at += point->bytes;
  }
  return out;
}

}  // namespace ordo::report
