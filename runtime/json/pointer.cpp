#include "runtime/json/pointer.hpp"

#include <algorithm>

#include "runtime/json/quote.hpp"

namespace ordo::json {

std::string pointer_token(std::string_view key) {
  // Field names, the common case, need no escaping at all.
  const auto plain = [](char c) { return c > ' ' && c < '\x7f' && c != '~' && c != '/'; };
  if (key.size() <= quoted_bytes_max && std::all_of(key.begin(), key.end(), plain)) {
    return std::string(key);
  }
  std::string token;
  token.reserve(key.size());
  for (const char c : key) {
    if (c == '~') {
      token += "~0";
    } else if (c == '/') {
      token += "~1";
    } else {
      token += c;
    }
  }
  return escaped(token, quoted_bytes_max);
}

std::string pointer_child(const std::string& pointer, std::string_view key) {
  return pointer + "/" + pointer_token(key);
}

std::string pointer_child(const std::string& pointer, std::size_t index) {
  return pointer + "/" + std::to_string(index);
}

std::string pointer_display(const std::string& pointer) {
  return pointer.empty() ? std::string("/") : pointer;
}

}  // namespace ordo::json
