#include "report/json_locate.hpp"

#include <algorithm>

namespace ordo::report {

namespace {

constexpr std::size_t checkpoint_bytes = 4096;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::size_t skip_space(std::string_view text, std::size_t at) {
  while (at < text.size() && is_space(text[at])) ++at;
  return at;
}

// UTF-16 code units of the character a byte starts: none for a continuation byte, two for the
// lead byte of a four-byte sequence (a code point above U+FFFF, a surrogate pair in UTF-16).
// Byte by byte, so that counting may start at any byte; the texts located were parsed as JSON,
// which is valid UTF-8.
std::uint64_t units_of(unsigned char byte) {
  if ((byte & 0xC0u) == 0x80u) return 0;
  return (byte & 0xF8u) == 0xF0u ? 2 : 1;
}

// One past the closing quote of the string that starts at `at`.
std::optional<std::size_t> string_end(std::string_view text, std::size_t at) {
  for (std::size_t i = at + 1; i < text.size();) {
    const char c = text[i];
    if (c == '\\') {
      i += 2;
    } else if (c == '"') {
      return i + 1;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      return std::nullopt;  // JSON strings hold no raw control characters
    } else {
      ++i;
    }
  }
  return std::nullopt;
}

// One past the value that starts at `at`. Containers are walked with a stack of the brackets
// open, not by recursion, so no nesting depth can exhaust the call stack.
std::optional<std::size_t> value_end(std::string_view text, std::size_t at) {
  if (at >= text.size()) return std::nullopt;
  const char first = text[at];
  if (first == '"') return string_end(text, at);
  if (first == '{' || first == '[') {
    std::vector<char> open;
    for (std::size_t i = at; i < text.size();) {
      const char c = text[i];
      if (c == '"') {
        const std::optional<std::size_t> end = string_end(text, i);
        if (!end) return std::nullopt;
        i = *end;
        continue;
      }
      if (c == '{' || c == '[') {
        open.push_back(c == '{' ? '}' : ']');
      } else if (c == '}' || c == ']') {
        if (open.empty() || open.back() != c) return std::nullopt;
        open.pop_back();
        if (open.empty()) return i + 1;
      }
      ++i;
    }
    return std::nullopt;
  }
  // A number or a literal: what may follow it (space, ',', ']', '}') ends it.
  if (std::string_view("-0123456789tfn").find(first) == std::string_view::npos) {
    return std::nullopt;
  }
  std::size_t i = at;
  while (i < text.size() && !is_space(text[i]) && text[i] != ',' && text[i] != ']' &&
         text[i] != '}') {
    ++i;
  }
  return i;
}

void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

std::optional<char32_t> hex4(std::string_view text, std::size_t at) {
  if (text.size() < at + 4) return std::nullopt;
  char32_t value = 0;
  for (std::size_t i = at; i < at + 4; ++i) {
    const char c = text[i];
    value <<= 4;
    if (c >= '0' && c <= '9') {
      value |= static_cast<char32_t>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      value |= static_cast<char32_t>(c - 'a' + 10);
    } else if (c >= 'A' && c <= 'F') {
      value |= static_cast<char32_t>(c - 'A' + 10);
    } else {
      return std::nullopt;
    }
  }
  return value;
}

// An object key as the pointer spells it: its escapes decoded (a surrogate pair to one code
// point), so that "caf\u00e9" is found as "café".
std::optional<std::string> decode_key(std::string_view text, std::size_t at, std::size_t end) {
  std::string key;
  for (std::size_t i = at + 1; i + 1 < end;) {
    const char c = text[i];
    if (c != '\\') {
      key += c;
      ++i;
      continue;
    }
    const char e = text[i + 1];
    i += 2;
    switch (e) {
      case '"':
      case '\\':
      case '/':
        key += e;
        break;
      case 'b':
        key += '\b';
        break;
      case 'f':
        key += '\f';
        break;
      case 'n':
        key += '\n';
        break;
      case 'r':
        key += '\r';
        break;
      case 't':
        key += '\t';
        break;
      case 'u': {
        std::optional<char32_t> unit = hex4(text, i);
        if (!unit) return std::nullopt;
        i += 4;
        char32_t code = *unit;
        if (code >= 0xD800 && code <= 0xDBFF) {
          if (i + 6 > end || text[i] != '\\' || text[i + 1] != 'u') return std::nullopt;
          const std::optional<char32_t> low = hex4(text, i + 2);
          if (!low || *low < 0xDC00 || *low > 0xDFFF) return std::nullopt;
          i += 6;
          code = 0x10000 + ((code - 0xD800) << 10) + (*low - 0xDC00);
        } else if (code >= 0xDC00 && code <= 0xDFFF) {
          return std::nullopt;
        }
        append_utf8(key, code);
        break;
      }
      default:
        return std::nullopt;
    }
  }
  return key;
}

// The pointer's reference tokens with "~1" and "~0" undone; nullopt for a pointer that does
// not start with '/' or holds a '~' escaping nothing.
std::optional<std::vector<std::string>> pointer_tokens(std::string_view pointer) {
  std::vector<std::string> tokens;
  if (pointer.empty()) return tokens;
  if (pointer.front() != '/') return std::nullopt;
  std::size_t at = 1;
  while (true) {
    const std::size_t slash = std::min(pointer.find('/', at), pointer.size());
    std::string token;
    for (std::size_t i = at; i < slash; ++i) {
      if (pointer[i] != '~') {
        token += pointer[i];
      } else if (i + 1 < slash && (pointer[i + 1] == '0' || pointer[i + 1] == '1')) {
        token += pointer[++i] == '0' ? '~' : '/';
      } else {
        return std::nullopt;
      }
    }
    tokens.push_back(std::move(token));
    if (slash == pointer.size()) return tokens;
    at = slash + 1;
  }
}

// An array index as RFC 6901 writes it: digits, no leading zero.
std::optional<std::size_t> array_index(const std::string& token) {
  if (token.empty() || token.size() > 18 || (token.size() > 1 && token[0] == '0')) {
    return std::nullopt;
  }
  std::size_t index = 0;
  for (const char c : token) {
    if (c < '0' || c > '9') return std::nullopt;
    index = index * 10 + static_cast<std::size_t>(c - '0');
  }
  return index;
}

}  // namespace

JsonLocator::JsonLocator(std::string_view text) : text_(text) {
  line_starts_.push_back(0);
  units_before_.reserve(text.size() / checkpoint_bytes + 1);
  std::uint64_t units = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (i % checkpoint_bytes == 0) units_before_.push_back(units);
    const char c = text[i];
    units += units_of(static_cast<unsigned char>(c));
    // CR LF is one line end: the LF records it.
    if (c == '\n' || (c == '\r' && (i + 1 == text.size() || text[i + 1] != '\n'))) {
      line_starts_.push_back(i + 1);
    }
  }
  if (units_before_.empty()) units_before_.push_back(0);
}

const JsonLocator::Members* JsonLocator::members_at(std::size_t offset) {
  const auto found = containers_.find(offset);
  if (found != containers_.end()) return found->second ? &*found->second : nullptr;
  std::optional<Members>& slot = containers_[offset];
  if (offset >= text_.size() || (text_[offset] != '{' && text_[offset] != '[')) return nullptr;
  Members members;
  members.array = text_[offset] == '[';
  const char close = members.array ? ']' : '}';
  std::size_t at = skip_space(text_, offset + 1);
  if (at < text_.size() && text_[at] == close) {
    slot = std::move(members);
    return &*slot;
  }
  while (at < text_.size()) {
    if (!members.array) {
      if (text_[at] != '"') return nullptr;
      const std::optional<std::size_t> key_end = string_end(text_, at);
      if (!key_end) return nullptr;
      std::optional<std::string> key = decode_key(text_, at, *key_end);
      if (!key) return nullptr;
      at = skip_space(text_, *key_end);
      if (at >= text_.size() || text_[at] != ':') return nullptr;
      at = skip_space(text_, at + 1);
      // A repeated key is refused by the dump reader; the first one is the one kept here.
      members.keys.emplace(std::move(*key), at);
    } else {
      members.elements.push_back(at);
    }
    const std::optional<std::size_t> end = value_end(text_, at);
    if (!end) return nullptr;
    at = skip_space(text_, *end);
    if (at < text_.size() && text_[at] == ',') {
      at = skip_space(text_, at + 1);
    } else if (at < text_.size() && text_[at] == close) {
      slot = std::move(members);
      return &*slot;
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

std::uint64_t JsonLocator::column_of(std::size_t offset, std::size_t line_start) const {
  const auto units_before = [this](std::size_t at) {
    const std::size_t checkpoint = at / checkpoint_bytes;
    std::uint64_t units = units_before_[checkpoint];
    for (std::size_t i = checkpoint * checkpoint_bytes; i < at; ++i) {
      units += units_of(static_cast<unsigned char>(text_[i]));
    }
    return units;
  };
  return units_before(offset) - units_before(line_start) + 1;
}

TextSpan JsonLocator::span(std::size_t begin, std::size_t end) const {
  const auto line_of = [this](std::size_t offset) {
    const auto after = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
    return static_cast<std::size_t>(after - line_starts_.begin()) - 1;
  };
  TextSpan s;
  s.begin = begin;
  s.end = end;
  const std::size_t first = line_of(begin);
  s.start_line = first + 1;
  s.start_column = column_of(begin, line_starts_[first]);
  // A value ends in an ASCII character ('}', ']', '"', a digit or a letter): one unit wide.
  const std::size_t last = line_of(end - 1);
  s.end_line = last + 1;
  s.end_column = column_of(end - 1, line_starts_[last]) + 1;
  return s;
}

std::optional<TextSpan> JsonLocator::locate(std::string_view pointer) {
  const std::optional<std::vector<std::string>> tokens = pointer_tokens(pointer);
  if (!tokens) return std::nullopt;
  std::size_t at = skip_space(text_, 0);
  for (const std::string& token : *tokens) {
    const Members* members = members_at(at);
    if (members == nullptr) return std::nullopt;
    if (members->array) {
      const std::optional<std::size_t> index = array_index(token);
      if (!index || *index >= members->elements.size()) return std::nullopt;
      at = members->elements[*index];
    } else {
      const auto key = members->keys.find(token);
      if (key == members->keys.end()) return std::nullopt;
      at = key->second;
    }
  }
  const std::optional<std::size_t> end = value_end(text_, at);
  if (!end) return std::nullopt;
  return span(at, *end);
}

std::optional<TextSpan> locate_json_value(std::string_view text, std::string_view pointer) {
  return JsonLocator(text).locate(pointer);
}

}  // namespace ordo::report
